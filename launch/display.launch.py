"""body_bridge with rviz2 showing the model and every one of its sensors, with no hand edits.

    ros2 launch body_bridge display.launch.py body_file:=/path/to/robot.body
    ros2 launch body_bridge display.launch.py body_file:=robot.body namespace:=r1 frame_prefix:=r1/
    ros2 launch body_bridge display.launch.py body_file:=Tank.body joint_states_topic:=/Tank/joint_states use_sim_time:=true

At launch, `body-bridge rviz` makes the rviz2 configuration from the same model and parameters the node
gets: the fixed frame is the served root link (with frame_prefix), or world_frame / free_root_frame when
set; RobotModel reads the robot_description topic; TF; and one display per device topic the node relays
(Image for image_raw and depth/image_raw, PointCloud2 for points, LaserScan for scan, Wrench for wrench),
in the launch's namespace. rviz_config:=FILE uses your own file instead, fixed_frame:=F overrides the fixed
frame. gui:=true adds joint_state_publisher_gui; without it body_bridge publishes the model's initial joint
positions itself (publish_joint_states).
"""

import os
import sys
import tempfile

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, LogInfo, OpaqueFunction
from launch.conditions import IfCondition
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_bridge_tools as tools  # noqa: E402

PASSED_ON = ('body_file', 'namespace', 'frame_prefix', 'use_sim_time', 'params_file', 'joint_states_topic',
             'world_frame', 'free_root_frame', 'node_name', 'ros2_control', 'publish_joint_states')


def rviz_node(context):
    def get(name):
        return LaunchConfiguration(name).perform(context)

    namespace = get('namespace')
    actions = []
    config = get('rviz_config')
    if not config:
        parameters = tools.file_parameters(get('params_file'), namespace)
        fd, config = tempfile.mkstemp(prefix='body_bridge_', suffix='.rviz')
        os.close(fd)
        tools.remove_at_exit(config)
        args = ['rviz', tools.model_argument(get('body_file')), '-o', config,
                '--frame-prefix', get('frame_prefix'), '--namespace', tools.node_namespace(context, namespace),
                '--world-frame', get('world_frame') or str(parameters.get('world_frame', '')),
                '--free-root-frame', get('free_root_frame') or str(parameters.get('free_root_frame', ''))]
        try:
            report = tools.run_cli(args + tools.rviz_world_args(parameters) + tools.convention_args(parameters))
            actions.append(LogInfo(msg=report.strip().splitlines()[-1]))
        except (RuntimeError, OSError) as error:
            # rviz still comes up (with the static layout) next to the node, which says why the model failed.
            config = os.path.join(FindPackageShare('body_bridge').perform(context), 'config', 'display.rviz')
            actions.append(LogInfo(msg='rviz configuration not generated, using %s: %s' % (config, error)))
    fixed_frame = get('fixed_frame')
    actions.append(Node(
        package='rviz2',
        executable='rviz2',
        namespace=namespace,
        arguments=['-d', config] + (['-f', fixed_frame] if fixed_frame else []),
        parameters=[{'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)}],
        output='screen',
    ))
    return actions


def generate_launch_description():
    tools.leave_ctrl_c_to_launch()
    share = FindPackageShare('body_bridge')
    arguments = tools.declare(*PASSED_ON) + [
        DeclareLaunchArgument(
            'fixed_frame', default_value='',
            description="rviz fixed frame; empty = the served root link (with frame_prefix), or world_frame / free_root_frame"),
        DeclareLaunchArgument('gui', default_value='false', description='Start joint_state_publisher_gui'),
        DeclareLaunchArgument(
            'rviz_config', default_value='',
            description='rviz2 configuration file; empty = generated from the model at launch (body-bridge rviz)'),
    ]
    bridge = IncludeLaunchDescription(
        PythonLaunchDescriptionSource(PathJoinSubstitution([share, 'launch', 'bridge.launch.py'])),
        launch_arguments={name: LaunchConfiguration(name) for name in PASSED_ON}.items(),
    )
    gui = Node(
        package='joint_state_publisher_gui',
        executable='joint_state_publisher_gui',
        namespace=LaunchConfiguration('namespace'),
        condition=IfCondition(LaunchConfiguration('gui')),
        remappings=[('joint_states', LaunchConfiguration('joint_states_topic'))],
        parameters=[{'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)}],
    )
    return LaunchDescription(arguments + [bridge, gui, OpaqueFunction(function=tools.unless_interrupted(rviz_node))])
