"""Start the body_bridge node: robot_description, /tf, /tf_static and sensor topics for a Choreonoid
.body or OpenHRP .wrl model.

    ros2 launch body_bridge bridge.launch.py body_file:=/path/to/robot.body
    ros2 launch body_bridge bridge.launch.py body_file:=robot.body namespace:=robot1 frame_prefix:=robot1/

Parameters come from params_file (config/bridge.params.yaml by default, every parameter documented
there); body_file, frame_prefix and use_sim_time come from the launch arguments and win over it, and so
do world_frame, free_root_frame, publish_robot_description_semantic, ros2_control and publish_joint_states
when they are given (not empty). node_name:=robot_state_publisher runs it where choreonoid_ros's
ROS2ControlItem looks for robot_description (simulation.launch.py does). Killed or crashed (ended by a signal),
the node is started again, at most 3 times (docs/errors-and-limits.md "The running chain under faults").
"""

import os
import sys

from launch import LaunchDescription
from launch.actions import OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_bridge_tools as tools  # noqa: E402

# Killed or crashed, the node starts again (tools.kept_running): it serves the same model from the same parameters,
# and robot_description (latched), /tf_static and the planning scene come back to their subscribers from it.
BRIDGE_CARRIES_ON = ': robot_description, /tf and the planning scene come back from the new one'

# Launch arguments that set a node parameter only when given: empty leaves the params file's value.
OPTIONAL = {'world_frame': str, 'free_root_frame': str, 'publish_robot_description_semantic': bool, 'ros2_control': str, 'publish_joint_states': bool}


def bridge_node(context):
    optional = {}
    for name, kind in OPTIONAL.items():
        value = LaunchConfiguration(name).perform(context)
        if value != '':
            optional[name] = value.lower() in ('true', '1') if kind is bool else value
    return tools.kept_running(lambda: Node(
        package='body_bridge',
        executable='body_bridge',
        name=LaunchConfiguration('node_name'),
        namespace=LaunchConfiguration('namespace'),
        output='screen',
        parameters=[
            LaunchConfiguration('params_file'),
            {
                'body_file': LaunchConfiguration('body_file'),
                'frame_prefix': LaunchConfiguration('frame_prefix'),
                'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool),
                **optional,
            },
        ],
        # A remapping: read joint positions from another topic, e.g. joint_states_topic:=/choreonoid/joint_states.
        remappings=[('joint_states', LaunchConfiguration('joint_states_topic'))],
    ), 'body_bridge', BRIDGE_CARRIES_ON, restart_on=tools.killed)


def generate_launch_description():
    tools.leave_ctrl_c_to_launch()
    return LaunchDescription(tools.declare(*tools.ARGUMENTS) + [OpaqueFunction(function=bridge_node)])
