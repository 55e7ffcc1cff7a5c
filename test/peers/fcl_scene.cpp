// MoveIt collision objects as MoveIt's FCL checker builds them, independently of body_bridge: each
// shape_msgs/SolidPrimitive becomes the FCL solid geometric_shapes makes of it (BOX x y z; SPHERE radius;
// CYLINDER and CONE height, radius, along z, the cone's tip at +z), each shape_msgs/Mesh an FCL BVH model
// (a surface), placed at object pose · shape pose in the header frame, as PlanningScene::processCollisionObjectAdd
// composes them. Probes are small FCL spheres or boxes in the header frame.
//
// usage: fcl_scene    then lines on stdin (poses are X Y Z QX QY QZ QW):
//   object POSE                        starts an object at POSE
//   box POSE SX SY SZ | sphere POSE R | cylinder POSE HEIGHT RADIUS | cone POSE HEIGHT RADIUS
//   mesh POSE NV NT X Y Z ... A B C ...   NV vertices, NT triangles (vertex indices)
//   probe X Y Z R                      prints "hit" when a sphere of radius R there touches any shape, else "miss"
//   probebox POSE SX SY SZ             the same for a box
#include <fcl/fcl.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

fcl::Transform3d readPose(std::istream& in) {
  double x, y, z, qx, qy, qz, qw;
  in >> x >> y >> z >> qx >> qy >> qz >> qw;
  fcl::Transform3d t = fcl::Transform3d::Identity();
  t.translation() = fcl::Vector3d(x, y, z);
  t.linear() = fcl::Quaterniond(qw, qx, qy, qz).normalized().toRotationMatrix();
  return t;
}

bool touches(const std::vector<std::unique_ptr<fcl::CollisionObjectd>>& shapes, const std::shared_ptr<fcl::CollisionGeometryd>& probe,
             const fcl::Transform3d& at) {
  fcl::CollisionObjectd p(probe, at);
  for (const auto& s : shapes) {
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    if (fcl::collide(s.get(), &p, request, result) > 0) return true;
  }
  return false;
}

}  // namespace

int main() {
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> shapes;
  fcl::Transform3d object = fcl::Transform3d::Identity();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string head;
    if (!(in >> head)) continue;
    if (head == "object") {
      object = readPose(in);
      continue;
    }
    if (head == "probe") {
      double x, y, z, r;
      in >> x >> y >> z >> r;
      fcl::Transform3d at = fcl::Transform3d::Identity();
      at.translation() = fcl::Vector3d(x, y, z);
      std::cout << (touches(shapes, std::make_shared<fcl::Sphered>(r), at) ? "hit" : "miss") << std::endl;
      continue;
    }
    if (head == "probebox") {
      fcl::Transform3d at = readPose(in);
      double sx, sy, sz;
      in >> sx >> sy >> sz;
      std::cout << (touches(shapes, std::make_shared<fcl::Boxd>(sx, sy, sz), at) ? "hit" : "miss") << std::endl;
      continue;
    }
    const fcl::Transform3d pose = object * readPose(in);
    std::shared_ptr<fcl::CollisionGeometryd> geometry;
    if (head == "box") {
      double sx, sy, sz;
      in >> sx >> sy >> sz;
      geometry = std::make_shared<fcl::Boxd>(sx, sy, sz);
    } else if (head == "sphere") {
      double r;
      in >> r;
      geometry = std::make_shared<fcl::Sphered>(r);
    } else if (head == "cylinder" || head == "cone") {
      double height, radius;
      in >> height >> radius;
      if (head == "cylinder") geometry = std::make_shared<fcl::Cylinderd>(radius, height);
      else geometry = std::make_shared<fcl::Coned>(radius, height);
    } else if (head == "mesh") {
      size_t nv, nt;
      in >> nv >> nt;
      std::vector<fcl::Vector3d> points(nv);
      for (auto& p : points) in >> p[0] >> p[1] >> p[2];
      std::vector<fcl::Triangle> triangles(nt);
      for (auto& t : triangles) in >> t[0] >> t[1] >> t[2];
      auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
      model->beginModel();
      model->addSubModel(points, triangles);
      model->endModel();
      geometry = model;
    } else {
      std::cerr << "unknown line: " << line << std::endl;
      return 2;
    }
    if (!in) {
      std::cerr << "malformed line: " << line << std::endl;
      return 2;
    }
    shapes.push_back(std::make_unique<fcl::CollisionObjectd>(geometry, pose));
  }
  return 0;
}
