// Self-collision verdicts of a URDF as MoveIt's FCL checker reaches them, independently of body_bridge:
// urdfdom reads the URDF, forward kinematics follow the URDF joints, FCL (the library MoveIt's default
// collision plugin uses) tests every pair of links with collision geometry. Boxes, spheres and cylinders
// are FCL primitives (solids); meshes (binary or ASCII STL) are FCL BVH models (surfaces), as in MoveIt.
//
// usage: fcl_collide URDF    then commands on stdin, one per line:
//   scale F         multiply every primitive's dimensions (box sizes, radii, cylinder length) by F from now on
//                   (default 1): the tolerance band for shapes we tessellate and for touching surfaces
//   reset           every joint back to 0
//   q VALUE NAME    set a joint
//   obstacle NAME X Y Z QX QY QZ QW SX SY SZ
//                   a box (solid) in the URDF root link's frame, centred at the pose, of those edge lengths:
//                   the world around the robot (several boxes may share a NAME)
//   check           print "hit A B" for every colliding pair of links (A < B) and "hit LINK @NAME" for every link
//                   touching an obstacle, then "end"
//   time            print "time SECONDS": the time spent in the checks so far (kinematics + FCL), for bench/moveit.ts
// At start it prints "link NAME" per link with geometry and "skip NAME WHY" per shape it cannot read.
#include <fcl/fcl.h>
#include <urdf_model/model.h>
#include <urdf_parser/urdf_parser.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Mesh = fcl::BVHModel<fcl::OBBRSSd>;

struct Shape {
  std::string link;
  fcl::Transform3d local;
  urdf::GeometrySharedPtr geometry;
  std::shared_ptr<Mesh> mesh;
};

std::string decodeUri(const std::string& uri, const std::string& urdfDir) {
  std::string path = uri;
  if (path.rfind("file://", 0) == 0) path = path.substr(7);
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size()) {
      out.push_back(static_cast<char>(std::stoi(path.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(path[i]);
    }
  }
  if (!out.empty() && out[0] != '/') out = urdfDir + "/" + out;
  return out;
}

bool readStl(const std::string& file, const urdf::Vector3& scale, std::vector<fcl::Vector3d>& points, std::vector<fcl::Triangle>& triangles,
             std::string& why) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    why = "cannot open " + file;
    return false;
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto add = [&](double x, double y, double z) { points.emplace_back(x * scale.x, y * scale.y, z * scale.z); };
  if (data.size() >= 84) {
    uint32_t n;
    std::memcpy(&n, data.data() + 80, 4);
    if (84 + 50ull * n == data.size()) {
      for (uint32_t t = 0; t < n; ++t) {
        const char* p = data.data() + 84 + 50 * t + 12;
        for (int k = 0; k < 3; ++k) {
          float v[3];
          std::memcpy(v, p + 12 * k, 12);
          add(v[0], v[1], v[2]);
        }
        triangles.emplace_back(3 * t, 3 * t + 1, 3 * t + 2);
      }
      return true;
    }
  }
  if (data.rfind("solid", 0) != 0) {
    why = file + " is not an STL file";
    return false;
  }
  std::istringstream text(data);
  std::string word;
  while (text >> word) {
    if (word != "vertex") continue;
    double x, y, z;
    text >> x >> y >> z;
    add(x, y, z);
    if (points.size() % 3 == 0) triangles.emplace_back(points.size() - 3, points.size() - 2, points.size() - 1);
  }
  return true;
}

fcl::Transform3d poseOf(const urdf::Pose& p) {
  fcl::Transform3d t = fcl::Transform3d::Identity();
  t.translation() = fcl::Vector3d(p.position.x, p.position.y, p.position.z);
  t.linear() = fcl::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).toRotationMatrix();
  return t;
}

std::shared_ptr<fcl::CollisionGeometryd> geometryOf(const Shape& s, double scale) {
  switch (s.geometry->type) {
    case urdf::Geometry::BOX: {
      auto b = std::static_pointer_cast<urdf::Box>(s.geometry);
      return std::make_shared<fcl::Boxd>(b->dim.x * scale, b->dim.y * scale, b->dim.z * scale);
    }
    case urdf::Geometry::SPHERE:
      return std::make_shared<fcl::Sphered>(std::static_pointer_cast<urdf::Sphere>(s.geometry)->radius * scale);
    case urdf::Geometry::CYLINDER: {
      auto c = std::static_pointer_cast<urdf::Cylinder>(s.geometry);
      return std::make_shared<fcl::Cylinderd>(c->radius * scale, c->length * scale);
    }
    default:
      return s.mesh;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fcl_collide URDF\n";
    return 2;
  }
  std::string urdfFile = argv[1];
  std::string urdfDir = urdfFile.substr(0, urdfFile.find_last_of('/'));
  urdf::ModelInterfaceSharedPtr model = urdf::parseURDFFile(urdfFile);
  if (!model) {
    std::cerr << "cannot parse " << urdfFile << "\n";
    return 1;
  }
  std::vector<Shape> shapes;
  std::map<std::string, std::vector<size_t>> byLink;
  for (const auto& [name, link] : model->links_) {
    for (const auto& c : link->collision_array) {
      Shape s{name, poseOf(c->origin), c->geometry, nullptr};
      if (c->geometry->type == urdf::Geometry::MESH) {
        auto m = std::static_pointer_cast<urdf::Mesh>(c->geometry);
        std::vector<fcl::Vector3d> points;
        std::vector<fcl::Triangle> triangles;
        std::string why;
        if (!readStl(decodeUri(m->filename, urdfDir), m->scale, points, triangles, why)) {
          std::cout << "skip " << name << " " << why << "\n";
          continue;
        }
        s.mesh = std::make_shared<Mesh>();
        s.mesh->beginModel();
        s.mesh->addSubModel(points, triangles);
        s.mesh->endModel();
      }
      byLink[name].push_back(shapes.size());
      shapes.push_back(s);
    }
  }
  std::vector<std::string> links;
  for (const auto& [name, idx] : byLink) {
    links.push_back(name);
    std::cout << "link " << name << "\n";
  }
  std::cout << std::flush;

  // Obstacles: fixed boxes in the root link's frame, by name.
  std::vector<std::pair<std::string, std::unique_ptr<fcl::CollisionObjectd>>> obstacles;
  std::map<std::string, double> q;
  double scale = 1;
  double checkSeconds = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "scale") {
      in >> scale;
    } else if (cmd == "obstacle") {
      std::string name;
      double x, y, z, qx, qy, qz, qw, sx, sy, sz;
      in >> name >> x >> y >> z >> qx >> qy >> qz >> qw >> sx >> sy >> sz;
      fcl::Transform3d t = fcl::Transform3d::Identity();
      t.translation() = fcl::Vector3d(x, y, z);
      t.linear() = fcl::Quaterniond(qw, qx, qy, qz).normalized().toRotationMatrix();
      obstacles.emplace_back(name, std::make_unique<fcl::CollisionObjectd>(std::make_shared<fcl::Boxd>(sx, sy, sz), t));
      obstacles.back().second->computeAABB();
    } else if (cmd == "reset") {
      q.clear();
    } else if (cmd == "q") {
      double v;
      std::string name;
      in >> v >> name;
      q[name] = v;
    } else if (cmd == "time") {
      std::cout << "time " << checkSeconds << std::endl;
    } else if (cmd == "check") {
      const auto start = std::chrono::steady_clock::now();
      std::vector<std::string> hits;
      // Forward kinematics: each link's pose in the root link, down the URDF's joints.
      std::map<std::string, fcl::Transform3d> world;
      std::vector<urdf::LinkConstSharedPtr> stack{model->getRoot()};
      world[model->getRoot()->name] = fcl::Transform3d::Identity();
      while (!stack.empty()) {
        auto link = stack.back();
        stack.pop_back();
        for (const auto& child : link->child_links) {
          const auto& j = child->parent_joint;
          fcl::Transform3d t = world[link->name] * poseOf(j->parent_to_joint_origin_transform);
          double v = q.count(j->name) ? q[j->name] : 0;
          fcl::Vector3d axis(j->axis.x, j->axis.y, j->axis.z);
          if (j->type == urdf::Joint::REVOLUTE || j->type == urdf::Joint::CONTINUOUS) {
            fcl::Transform3d m = fcl::Transform3d::Identity();
            m.linear() = Eigen::AngleAxisd(v, axis.normalized()).toRotationMatrix();
            t = t * m;
          } else if (j->type == urdf::Joint::PRISMATIC) {
            fcl::Transform3d m = fcl::Transform3d::Identity();
            m.translation() = axis * v;
            t = t * m;
          }
          world[child->name] = t;
          stack.push_back(child);
        }
      }
      std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
      for (const auto& s : shapes) {
        objects.push_back(std::make_unique<fcl::CollisionObjectd>(geometryOf(s, scale), world[s.link] * s.local));
        objects.back()->computeAABB();
      }
      for (size_t a = 0; a < links.size(); ++a) {
        for (size_t b = a + 1; b < links.size(); ++b) {
          bool hit = false;
          for (size_t i : byLink[links[a]]) {
            for (size_t j : byLink[links[b]]) {
              if (hit || !objects[i]->getAABB().overlap(objects[j]->getAABB())) continue;
              fcl::CollisionRequestd request;
              fcl::CollisionResultd result;
              fcl::collide(objects[i].get(), objects[j].get(), request, result);
              hit = result.isCollision();
            }
          }
          if (hit) hits.push_back(links[a] + " " + links[b]);
        }
      }
      for (const auto& link : links) {
        std::set<std::string> touched;
        for (size_t i : byLink[link]) {
          for (const auto& [name, box] : obstacles) {
            if (touched.count(name) || !objects[i]->getAABB().overlap(box->getAABB())) continue;
            fcl::CollisionRequestd request;
            fcl::CollisionResultd result;
            fcl::collide(objects[i].get(), box.get(), request, result);
            if (result.isCollision()) touched.insert(name);
          }
        }
        for (const auto& name : touched) hits.push_back(link + " @" + name);
      }
      checkSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (const auto& h : hits) std::cout << "hit " << h << "\n";
      std::cout << "end" << std::endl;
    }
  }
  return 0;
}
