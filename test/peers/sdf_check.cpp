// What Gazebo (sdformat, as ros_gz and Gazebo Fortress use it on Humble) makes of a URDF: reads file
// paths on stdin, one per line, and loads each with sdf::Root::Load, which converts URDF to SDFormat.
// Per file it prints "file PATH", one "error MESSAGE" line per error, "model NAME LINKS JOINTS" and
// one "joint TYPE NAME" line per joint of the converted model, then "end".
#include <sdf/sdf.hh>

#include <iostream>
#include <string>

namespace {

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

const char* typeName(sdf::JointType type) {
  switch (type) {
    case sdf::JointType::FIXED: return "fixed";
    case sdf::JointType::REVOLUTE: return "revolute";
    case sdf::JointType::CONTINUOUS: return "continuous";
    case sdf::JointType::PRISMATIC: return "prismatic";
    case sdf::JointType::BALL: return "ball";
    default: return "other";
  }
}

}  // namespace

int main() {
  std::string path;
  while (std::getline(std::cin, path)) {
    if (path.empty()) continue;
    sdf::Root root;
    const sdf::Errors errors = root.Load(path);
    std::cout << "file " << path << "\n";
    for (const auto& e : errors) std::cout << "error " << oneLine(e.Message()) << "\n";
    if (const sdf::Model* model = root.Model()) {
      std::cout << "model " << model->Name() << " " << model->LinkCount() << " " << model->JointCount() << "\n";
      for (uint64_t i = 0; i < model->JointCount(); ++i) {
        const sdf::Joint* joint = model->JointByIndex(i);
        std::cout << "joint " << typeName(joint->Type()) << " " << joint->Name() << "\n";
      }
    }
    std::cout << "end" << std::endl;
  }
  return 0;
}
