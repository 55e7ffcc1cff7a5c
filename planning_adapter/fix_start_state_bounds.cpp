// body_bridge/FixStartStateBounds: a MoveIt (Jazzy and later) planning request adapter that plans from a start
// state whose joints lie a hair past their limits, as Humble's default_planner_request_adapters/FixStartStateBounds
// did. Why it exists: a simulated (or real) joint held at a goal on its limit settles a little past it (gravity
// against the position gains; MoveIt's KDL solver clamps a redundant arm's joint to its limit, so such goals are
// common), and Jazzy's CheckStartStateBounds then refuses every plan (START_STATE_INVALID) until the joint is moved
// by other means: it has no tolerance (moveit2 issues 3383, 3492). docs/moveit.md, "Start states past a limit".
//
// Parameter: <pipeline>.start_state_max_bounds_error (rad or m, default 0.05 as Humble's). A joint past its limit
// by at most that much is planned from the limit (logged at INFO with the figures); further out, the request is
// refused as CheckStartStateBounds refuses it, naming the joint. Continuous, planar and floating joints are
// normalized (wrapped angle, unit quaternion), as CheckStartStateBounds does with fix_start_state.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <class_loader/class_loader.hpp>
#include <moveit/planning_interface/planning_request_adapter.hpp>
#include <moveit/planning_scene/planning_scene.hpp>
#include <moveit/robot_model/revolute_joint_model.hpp>
#include <moveit/robot_state/conversions.hpp>
#include <moveit_msgs/msg/move_it_error_codes.hpp>
#include <rclcpp/rclcpp.hpp>

namespace body_bridge
{
namespace
{
constexpr char kToleranceParameter[] = "start_state_max_bounds_error";
constexpr double kDefaultTolerance = 0.05;

/// Joints whose values wrap or normalize (an angle about a continuous axis, a planar yaw, a quaternion):
/// "past the bound" means not yet normalized, never out of reach.
bool normalizes(const moveit::core::JointModel& joint)
{
  switch (joint.getType())
  {
    case moveit::core::JointModel::REVOLUTE:
      return static_cast<const moveit::core::RevoluteJointModel&>(joint).isContinuous();
    case moveit::core::JointModel::PLANAR:
    case moveit::core::JointModel::FLOATING:
      return true;
    default:
      return false;
  }
}

/// How far the joint's values lie outside its variable bounds (0 within them).
double excess(const moveit::core::JointModel& joint, const double* values)
{
  double worst = 0.0;
  const moveit::core::JointModel::Bounds& bounds = joint.getVariableBounds();
  for (std::size_t k = 0; k < bounds.size(); ++k)
  {
    if (!bounds[k].position_bounded_)
      continue;
    worst = std::max({ worst, bounds[k].min_position_ - values[k], values[k] - bounds[k].max_position_ });
  }
  return worst;
}

std::string describe(const moveit::core::JointModel& joint, const double* values)
{
  std::ostringstream out;
  const moveit::core::JointModel::Bounds& bounds = joint.getVariableBounds();
  out << "joint '" << joint.getName() << "' at";
  for (std::size_t k = 0; k < bounds.size(); ++k)
    out << ' ' << values[k];
  out << ", limits";
  for (std::size_t k = 0; k < bounds.size(); ++k)
    out << " [" << bounds[k].min_position_ << ", " << bounds[k].max_position_ << ']';
  return out.str();
}
}  // namespace

class FixStartStateBounds : public planning_interface::PlanningRequestAdapter
{
public:
  void initialize(const rclcpp::Node::SharedPtr& node, const std::string& parameter_namespace) override
  {
    logger_ = node->get_logger().get_child("body_bridge_fix_start_state_bounds");
    const std::string name = parameter_namespace.empty() ? kToleranceParameter : parameter_namespace + "." + kToleranceParameter;
    // move_group declares its overrides itself (automatically_declare_parameters_from_overrides).
    tolerance_ = node->has_parameter(name) ? node->get_parameter(name).as_double() : node->declare_parameter<double>(name, kDefaultTolerance);
    if (tolerance_ < 0.0)
      throw std::invalid_argument(name + " must not be negative (it is " + std::to_string(tolerance_) + ")");
  }

  [[nodiscard]] std::string getDescription() const override
  {
    return "body_bridge/FixStartStateBounds";
  }

  [[nodiscard]] moveit::core::MoveItErrorCode adapt(const planning_scene::PlanningSceneConstPtr& planning_scene,
                                                    planning_interface::MotionPlanRequest& req) const override
  {
    moveit::core::RobotState start = planning_scene->getCurrentState();
    moveit::core::robotStateMsgToRobotState(planning_scene->getTransforms(), req.start_state, start);
    const moveit::core::RobotModel& model = *planning_scene->getRobotModel();
    const std::vector<const moveit::core::JointModel*>& joints =
        model.hasJointModelGroup(req.group_name) ? model.getJointModelGroup(req.group_name)->getJointModels() :
                                                   model.getJointModels();

    moveit::core::MoveItErrorCode status(moveit_msgs::msg::MoveItErrorCodes::SUCCESS);
    status.source = getDescription();
    bool changed = false;
    std::vector<std::string> refused;
    for (const moveit::core::JointModel* joint : joints)
    {
      if (start.satisfiesBounds(joint))
        continue;
      const double* values = start.getJointPositions(joint);
      if (normalizes(*joint))
      {
        start.enforceBounds(joint);
        changed = true;
        continue;
      }
      const double by = excess(*joint, values);
      if (by <= tolerance_)
      {
        RCLCPP_INFO(logger_, "Start state: %s, past them by %g (within %s %g): planning from the limit",
                    describe(*joint, values).c_str(), by, kToleranceParameter, tolerance_);
        start.enforceBounds(joint);
        changed = true;
        continue;
      }
      std::ostringstream entry;
      entry << describe(*joint, values) << ", past them by " << by;
      refused.push_back(entry.str());
    }
    if (!refused.empty())
    {
      std::ostringstream message;
      message << "Start state out of bounds by more than " << kToleranceParameter << " (" << tolerance_ << "): ";
      for (std::size_t i = 0; i < refused.size(); ++i)
        message << (i > 0 ? "; " : "") << refused[i];
      RCLCPP_ERROR(logger_, "%s", message.str().c_str());
      status.val = moveit_msgs::msg::MoveItErrorCodes::START_STATE_INVALID;
      status.message = message.str();
      return status;
    }
    if (changed)
      moveit::core::robotStateToRobotStateMsg(start, req.start_state);
    return status;
  }

private:
  rclcpp::Logger logger_ = rclcpp::get_logger("body_bridge_fix_start_state_bounds");
  double tolerance_ = kDefaultTolerance;
};
}  // namespace body_bridge

CLASS_LOADER_REGISTER_CLASS(body_bridge::FixStartStateBounds, planning_interface::PlanningRequestAdapter)
