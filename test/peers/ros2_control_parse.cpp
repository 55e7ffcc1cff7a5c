// ros2_control's own reading of a URDF's <ros2_control> blocks: hardware_interface's
// parse_control_resources_from_urdf, what ResourceManager (and so choreonoid_ros's ROS2ControlItem) calls.
//
// Usage: ros2_control_parse FILE.urdf. Prints, per block:
//   hardware NAME TYPE PLUGIN
//   joint NAME
//   command NAME [min=MIN] [max=MAX]
//   state NAME
// then "end". Exits 2 with the parser's message when it throws.
#include <hardware_interface/component_parser.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

// The plugin's name: hardware_class_type on Humble, hardware_plugin_name since (ros2_control 4, Jazzy).
template <typename T>
auto plugin_of(const T& hw, int) -> decltype(hw.hardware_plugin_name) { return hw.hardware_plugin_name; }
template <typename T>
auto plugin_of(const T& hw, long) -> decltype(hw.hardware_class_type) { return hw.hardware_class_type; }

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ros2_control_parse FILE.urdf\n";
    return 1;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  try {
    for (const auto& hw : hardware_interface::parse_control_resources_from_urdf(text.str())) {
      std::cout << "hardware " << hw.name << ' ' << hw.type << ' ' << plugin_of(hw, 0) << '\n';
      for (const auto& joint : hw.joints) {
        std::cout << "joint " << joint.name << '\n';
        for (const auto& c : joint.command_interfaces) {
          std::cout << "command " << c.name;
          if (!c.min.empty()) std::cout << " min=" << c.min;
          if (!c.max.empty()) std::cout << " max=" << c.max;
          std::cout << '\n';
        }
        for (const auto& s : joint.state_interfaces) std::cout << "state " << s.name << '\n';
      }
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }
  std::cout << "end\n";
  return 0;
}
