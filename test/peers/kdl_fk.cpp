// Forward kinematics of a URDF through kdl_parser + KDL, the way robot_state_publisher computes
// it: every segment's pose in the root segment, composed from Segment::pose(q) along the tree.
//
// Usage: kdl_fk FILE.urdf, then commands on stdin, one per line:
//   q VALUE JOINT_NAME   set a joint position (the name is the rest of the line)
//   reset                all joint positions back to 0
//   fk                   print "x y z r00 r01 r02 r10 r11 r12 r20 r21 r22 SEGMENT" per segment, then "end"
//   joints               print "TYPE JOINT_NAME" for every segment's joint, then "end"
//   chain BASE TIP       Tree::getChain(BASE, TIP) as MoveIt's KDL solver builds it: "chain N" (N moving joints)
//                        and "joint NAME" per moving joint, or "nochain"; then "end"
// Exits 2 when kdl_parser rejects the file.
#include <kdl/chain.hpp>
#include <kdl/frames.hpp>
#include <kdl/segment.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

namespace {

void walk(const KDL::SegmentMap::const_iterator& element, const KDL::Frame& parent,
          const std::map<std::string, double>& q) {
  const KDL::Segment& segment = GetTreeElementSegment(element->second);
  const KDL::Joint& joint = segment.getJoint();
  double position = 0.0;
  if (joint.getType() != KDL::Joint::None) {
    auto found = q.find(joint.getName());
    if (found != q.end()) position = found->second;
  }
  // The root segment has no parent joint: it is the reference frame itself.
  const KDL::Frame pose = element->second.parent == KDL::SegmentMap::const_iterator()
                              ? parent
                              : parent * segment.pose(position);
  std::printf("%.17g %.17g %.17g", pose.p.x(), pose.p.y(), pose.p.z());
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) std::printf(" %.17g", pose.M(r, c));
  std::printf(" %s\n", element->first.c_str());
  for (const auto& child : GetTreeElementChildren(element->second)) walk(child, pose, q);
}

const char* typeName(const KDL::Joint& joint) {
  switch (joint.getType()) {
    case KDL::Joint::None: return "fixed";
    case KDL::Joint::RotAxis: return "rotational";
    case KDL::Joint::TransAxis: return "translational";
    default: return "other";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kdl_fk FILE.urdf\n");
    return 1;
  }
  KDL::Tree tree;
  if (!kdl_parser::treeFromFile(argv[1], tree)) {
    std::fprintf(stderr, "kdl_parser rejected %s\n", argv[1]);
    return 2;
  }
  const auto root = tree.getRootSegment();
  std::map<std::string, double> q;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.rfind("q ", 0) == 0) {
      std::istringstream in(line.substr(2));
      double value = 0.0;
      in >> value;
      std::string name;
      std::getline(in >> std::ws, name);
      q[name] = value;
    } else if (line == "reset") {
      q.clear();
    } else if (line == "fk") {
      walk(root, KDL::Frame::Identity(), q);
      std::printf("end\n");
    } else if (line.rfind("chain ", 0) == 0) {
      std::istringstream in(line.substr(6));
      std::string base, tip;
      in >> base >> tip;
      KDL::Chain chain;
      if (tree.getChain(base, tip, chain)) {
        std::printf("chain %u\n", chain.getNrOfJoints());
        for (const auto& segment : chain.segments)
          if (segment.getJoint().getType() != KDL::Joint::None) std::printf("joint %s\n", segment.getJoint().getName().c_str());
      } else {
        std::printf("nochain\n");
      }
      std::printf("end\n");
    } else if (line == "joints") {
      for (const auto& entry : tree.getSegments()) {
        const KDL::Joint& joint = GetTreeElementSegment(entry.second).getJoint();
        std::printf("%s %s\n", typeName(joint), joint.getName().c_str());
      }
      std::printf("end\n");
    }
    std::fflush(stdout);
  }
  return 0;
}
