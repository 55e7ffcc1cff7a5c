"""body_bridge with rviz2 (and optionally joint_state_publisher_gui) for a look at a model.

    ros2 launch body_bridge display.launch.py body_file:=/path/to/robot.body fixed_frame:=BASE_LINK gui:=true

rviz2 shows the RobotModel read from the robot_description topic, TF, and displays for camera images,
laser scans and point clouds (pick a device's topic in each display). Without gui, body_bridge itself
publishes the model's initial joint positions (publish_joint_states).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.conditions import IfCondition
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    share = FindPackageShare('body_bridge')
    arguments = [
        DeclareLaunchArgument('body_file', default_value='', description='Model file; empty = the bundled example'),
        DeclareLaunchArgument('namespace', default_value=''),
        DeclareLaunchArgument('frame_prefix', default_value=''),
        DeclareLaunchArgument('use_sim_time', default_value='false'),
        DeclareLaunchArgument(
            'params_file', default_value=PathJoinSubstitution([share, 'config', 'bridge.params.yaml'])),
        DeclareLaunchArgument(
            'fixed_frame', default_value='BASE',
            description="rviz fixed frame: the model's root link (with frame_prefix), or world_frame; BASE is the bundled example's root"),
        DeclareLaunchArgument(
            'joint_states_topic', default_value='joint_states',
            description="Where joint positions come from, e.g. choreonoid_ros's /<body>/joint_states"),
        DeclareLaunchArgument('gui', default_value='false', description='Start joint_state_publisher_gui'),
        DeclareLaunchArgument(
            'rviz_config', default_value=PathJoinSubstitution([share, 'config', 'display.rviz'])),
    ]
    bridge = IncludeLaunchDescription(
        PythonLaunchDescriptionSource(PathJoinSubstitution([share, 'launch', 'bridge.launch.py'])),
        launch_arguments={
            'body_file': LaunchConfiguration('body_file'),
            'namespace': LaunchConfiguration('namespace'),
            'frame_prefix': LaunchConfiguration('frame_prefix'),
            'use_sim_time': LaunchConfiguration('use_sim_time'),
            'params_file': LaunchConfiguration('params_file'),
            'joint_states_topic': LaunchConfiguration('joint_states_topic'),
        }.items(),
    )
    gui = Node(
        package='joint_state_publisher_gui',
        executable='joint_state_publisher_gui',
        namespace=LaunchConfiguration('namespace'),
        condition=IfCondition(LaunchConfiguration('gui')),
        remappings=[('joint_states', LaunchConfiguration('joint_states_topic'))],
        parameters=[{'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)}],
    )
    rviz = Node(
        package='rviz2',
        executable='rviz2',
        namespace=LaunchConfiguration('namespace'),
        arguments=['-d', LaunchConfiguration('rviz_config'), '-f', LaunchConfiguration('fixed_frame')],
        parameters=[{'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)}],
        output='screen',
    )
    return LaunchDescription(arguments + [bridge, gui, rviz])
