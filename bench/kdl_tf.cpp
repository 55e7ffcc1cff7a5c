// Peer for the TF throughput benchmark: the per-message work of robot_state_publisher, on Debian's
// KDL and kdl_parser, measured in the same run as body_bridge's TypeScript bridge.
//
// Per JointState message, as robot_state_publisher's callbackJointState + publishTransforms do:
// collect the joints whose publish interval has passed into a name → position map, and for every
// one that is a moving joint of the tree, compute Segment::pose(q), convert it to a transform
// (translation + quaternion), stamp it, name parent and child frames (frame_prefix + name) and
// append it to the TF message; then remember the publish time per joint. No ROS serialisation
// happens on either side (body_bridge's in-memory transport does not serialise either).
//
// usage: kdl_tf URDF_FILE INPUT_FILE WARMUP REPS
// INPUT_FILE: N, then N joint names (one per line, verbatim), then M, then M×N positions (whitespace separated).
// Stamps are 0.1 s apart, so with the default 20 Hz publish_frequency every message publishes every joint.
// Prints one JSON object: per-repetition seconds for M messages, the transforms of the last message.
#include <kdl/frames.hpp>
#include <kdl/segment.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

struct Time {
  int32_t sec = 0;
  uint32_t nanosec = 0;
};

struct TransformStamped {
  Time stamp;
  std::string frame_id;
  std::string child_frame_id;
  double tx = 0, ty = 0, tz = 0;
  double qx = 0, qy = 0, qz = 0, qw = 1;
};

struct SegmentPair {
  KDL::Segment segment;
  std::string root;
  std::string tip;
};

void addChildren(const KDL::SegmentMap::const_iterator segment, std::map<std::string, SegmentPair>& moving) {
  const std::string& root = GetTreeElementSegment(segment->second).getName();
  for (const auto& child : GetTreeElementChildren(segment->second)) {
    const KDL::Segment& s = GetTreeElementSegment(child->second);
    if (s.getJoint().getType() != KDL::Joint::None) {
      moving.emplace(s.getJoint().getName(), SegmentPair{s, root, s.getName()});
    }
    addChildren(child, moving);
  }
}

struct Bridge {
  std::map<std::string, SegmentPair> segments;
  std::map<std::string, int64_t> last_publish_ns;
  std::string frame_prefix;
  int64_t publish_interval_ns = 50'000'000;  // 1 / 20 Hz, robot_state_publisher's default
  std::vector<TransformStamped> out;         // the TF message being built

  void onJointState(const Time& stamp, const std::vector<std::string>& names, const double* position) {
    const int64_t now = int64_t(stamp.sec) * 1'000'000'000 + stamp.nanosec;
    std::map<std::string, double> joint_positions;
    for (size_t i = 0; i < names.size(); ++i) {
      const int64_t last = last_publish_ns.count(names[i]) ? last_publish_ns[names[i]] : 0;
      if (now >= last + publish_interval_ns) joint_positions.insert(std::make_pair(names[i], position[i]));
    }
    out.clear();
    for (const auto& jnt : joint_positions) {
      const auto seg = segments.find(jnt.first);
      if (seg == segments.end()) continue;
      const KDL::Frame f = seg->second.segment.pose(jnt.second);
      TransformStamped t;
      t.stamp = stamp;
      t.frame_id = frame_prefix + seg->second.root;
      t.child_frame_id = frame_prefix + seg->second.tip;
      t.tx = f.p.x();
      t.ty = f.p.y();
      t.tz = f.p.z();
      f.M.GetQuaternion(t.qx, t.qy, t.qz, t.qw);
      out.push_back(std::move(t));
    }
    for (const auto& jnt : joint_positions) last_publish_ns[jnt.first] = now;
  }
};

std::string jsonString(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: kdl_tf URDF_FILE INPUT_FILE WARMUP REPS\n";
    return 2;
  }
  KDL::Tree tree;
  if (!kdl_parser::treeFromFile(argv[1], tree)) {
    std::cerr << "kdl_parser failed to parse " << argv[1] << "\n";
    return 1;
  }
  std::ifstream in(argv[2]);
  size_t n = 0, m = 0;
  in >> n;
  in.ignore(1);  // the newline after N: names are whole lines (they may contain spaces)
  std::vector<std::string> names(n);
  for (auto& name : names) std::getline(in, name);
  in >> m;
  std::vector<double> positions(n * m);
  for (auto& p : positions) in >> p;
  if (!in) {
    std::cerr << "cannot read " << argv[2] << "\n";
    return 1;
  }
  const int warmup = std::stoi(argv[3]);
  const int reps = std::stoi(argv[4]);

  Bridge bridge;
  addChildren(tree.getRootSegment(), bridge.segments);

  // Stamps continue across repetitions so that every message passes the publish interval.
  int64_t stamp_ns = 1'000'000'000;
  size_t published = 0;
  double checksum = 0;
  std::vector<double> seconds;
  for (int r = 0; r < warmup + reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t k = 0; k < m; ++k) {
      stamp_ns += 100'000'000;
      const Time stamp{int32_t(stamp_ns / 1'000'000'000), uint32_t(stamp_ns % 1'000'000'000)};
      bridge.onJointState(stamp, names, positions.data() + k * n);
      published += bridge.out.size();
      // Consume the message so the compiler cannot drop the work.
      for (const auto& t : bridge.out) checksum += t.tx + t.qw + double(t.child_frame_id.size());
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
  }

  std::printf("{\"messages\":%zu,\"moving_segments\":%zu,\"published_transforms\":%zu,\"checksum\":%.17g,\"seconds\":[",
              m, bridge.segments.size(), published, checksum);
  for (size_t i = 0; i < seconds.size(); ++i) std::printf("%s%.9g", i ? "," : "", seconds[i]);
  std::printf("],\"last\":[");
  for (size_t i = 0; i < bridge.out.size(); ++i) {
    const auto& t = bridge.out[i];
    std::printf("%s{\"parent\":%s,\"child\":%s,\"t\":[%.17g,%.17g,%.17g],\"q\":[%.17g,%.17g,%.17g,%.17g]}", i ? "," : "",
                jsonString(t.frame_id).c_str(), jsonString(t.child_frame_id).c_str(), t.tx, t.ty, t.tz, t.qx, t.qy,
                t.qz, t.qw);
  }
  std::printf("]}\n");
  return 0;
}
