"""Start the body_bridge node: robot_description, /tf, /tf_static and sensor topics for a Choreonoid
.body or OpenHRP .wrl model.

    ros2 launch body_bridge bridge.launch.py body_file:=/path/to/robot.body
    ros2 launch body_bridge bridge.launch.py body_file:=robot.body namespace:=robot1 frame_prefix:=robot1/

Parameters come from params_file (config/bridge.params.yaml by default, every parameter documented
there); body_file, frame_prefix and use_sim_time come from the launch arguments and win over it, and so
do world_frame, free_root_frame and publish_robot_description_semantic when they are given (not empty).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

# Launch arguments that set a node parameter only when given: empty leaves the params file's value.
OPTIONAL = {'world_frame': str, 'free_root_frame': str, 'publish_robot_description_semantic': bool}


def bridge_node(context):
    optional = {}
    for name, kind in OPTIONAL.items():
        value = LaunchConfiguration(name).perform(context)
        if value != '':
            optional[name] = value.lower() in ('true', '1') if kind is bool else value
    node = Node(
        package='body_bridge',
        executable='body_bridge',
        name='body_bridge',
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
    )
    return [node]


def generate_launch_description():
    share = FindPackageShare('body_bridge')
    arguments = [
        DeclareLaunchArgument(
            'body_file', default_value='',
            description='Model file (.body, .yaml or .wrl); empty = the bundled example'),
        DeclareLaunchArgument(
            'namespace', default_value='',
            description='Namespace of the node and its relative topics (robot_description, joint_states, sensors)'),
        DeclareLaunchArgument(
            'frame_prefix', default_value='',
            description="Prepended to every frame id, e.g. 'robot1/' (as robot_state_publisher)"),
        DeclareLaunchArgument(
            'use_sim_time', default_value='false',
            description='Use /clock (e.g. from Choreonoid or a bag) as the node clock'),
        DeclareLaunchArgument(
            'params_file', default_value=PathJoinSubstitution([share, 'config', 'bridge.params.yaml']),
            description='YAML parameters file (keyed /** or by the node name)'),
        DeclareLaunchArgument(
            'joint_states_topic', default_value='joint_states',
            description='Where joint positions come from (remapped from joint_states)'),
        DeclareLaunchArgument(
            'world_frame', default_value='',
            description='A URDF world link above the root; empty = the params file value'),
        DeclareLaunchArgument(
            'free_root_frame', default_value='',
            description="A free root's stand-in parent on /tf_static (e.g. world for MoveIt); empty = the params file value"),
        DeclareLaunchArgument(
            'publish_robot_description_semantic', default_value='',
            description='true: publish the MoveIt SRDF on robot_description_semantic; empty = the params file value'),
    ]
    return LaunchDescription(arguments + [OpaqueFunction(function=bridge_node)])
