// MoveIt's own SRDF parser (srdfdom, as move_group uses it) on a URDF + SRDF pair: prints what it read
// ("groups N", "end_effectors N", "virtual_joints N", "states N"). srdfdom reports
// problems through console_bridge on stderr; the test requires that stream to be empty.
#include <srdfdom/model.h>
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: srdf_check URDF SRDF\n";
    return 2;
  }
  urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDFFile(argv[1]);
  if (!urdf) return 1;
  std::ifstream in(argv[2]);
  std::stringstream text;
  text << in.rdbuf();
  srdf::Model srdf;
  if (!srdf.initString(*urdf, text.str())) return 1;
  std::cout << "groups " << srdf.getGroups().size() << "\n"
            << "end_effectors " << srdf.getEndEffectors().size() << "\n"
            << "virtual_joints " << srdf.getVirtualJoints().size() << "\n"
            << "states " << srdf.getGroupStates().size() << "\n";
  return 0;
}
