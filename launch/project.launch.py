"""Serve every body of a Choreonoid project to ROS 2, placed in one `world` frame, with one rviz2 view of them all.

    ros2 launch body_bridge project.launch.py project_file:=/path/to/world.cnoid
    ros2 launch body_bridge project.launch.py project_file:=world.cnoid start_choreonoid:=true
    ros2 launch body_bridge project.launch.py project_file:=world.cnoid placement_topics:='Rover=/Rover/odom'

At launch, `body-bridge project --launch-plan` reads the project as Choreonoid does and says what to start
(docs/project.md): per body one body_bridge node in the namespace choreonoid_ros's BodyROS2Item publishes
that body's topics under (/<body item name>, '-' made '_'), its frames prefixed with that name, its root
placed in `world` where a simulation of the project starts it (a fixed root on /tf_static; a free root the
same, with a warning that the pose is not live, until placement_topics names its pose source), its joints at
the project's initial positions until choreonoid_ros's joint_states arrive, its sensors relayed. A body under
a ROS2ControlItem gets its node named robot_state_publisher, where that item reads robot_description. Bodies
whose model does not load are left out, with their located errors; the rest serve. rviz2 shows them all
(`world` fixed, one RobotModel and its sensor displays per body).

start_choreonoid:=true also runs choreonoid_ros's `choreonoid` on the project with the simulation started
(--start-simulation: through Choreonoid's SimulationBar, the way that makes WorldROS2Item publish /clock),
without a window unless gui:=true — headless, vision sensors rendered through EGL; the nodes then follow /clock
from the project's WorldROS2Item (use_sim_time, unless use_sim_time:= says otherwise). choreonoid_args:= adds
arguments for Choreonoid (a Python script to run once the project is loaded, say).
"""

import os
import sys
import tempfile

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_bridge_tools as tools  # noqa: E402


def is_true(text):
    return text.lower() in ('true', '1', 'yes')


def project_nodes(context):
    def get(name):
        return LaunchConfiguration(name).perform(context)

    project = os.path.abspath(get('project_file'))
    fd, rviz_config = tempfile.mkstemp(prefix='body_bridge_project_', suffix='.rviz')
    os.close(fd)
    tools.remove_at_exit(rviz_config)
    args = ['project', project, '--launch-plan', '--rviz', rviz_config]
    args += [a for entry in get('placement_topics').split() for a in ('--placement-topic', entry)]
    args += [a for entry in get('placement_topic_types').split() for a in ('--placement-topic-type', entry)]
    if get('share'):
        args += ['--share', get('share')]
    # A project that cannot be read, or no body of which loads, stops the launch here with the located errors.
    plan, report = tools.run_cli_json(args)
    actions = [LogInfo(msg=line) for line in report.strip().splitlines() if line]

    start_choreonoid = is_true(get('start_choreonoid'))
    sim_time = get('use_sim_time')
    if sim_time == '':
        use_sim_time = start_choreonoid and plan['clock'] is not None
        if start_choreonoid and plan['clock'] is None:
            actions.append(LogInfo(msg='the project has no WorldROS2Item: no /clock, the nodes keep wall time'))
    else:
        use_sim_time = is_true(sim_time)

    for body in plan['bodies']:
        # Killed or crashed, a body's node starts again (as bridge.launch.py's).
        actions += tools.kept_running(lambda body=body: Node(
            package='body_bridge',
            executable='body_bridge',
            name=body['node_name'],
            namespace=body['namespace'],
            output='screen',
            parameters=[tools.node_parameters({**body['parameters'], 'use_sim_time': use_sim_time})],
        ), 'body_bridge %s' % body['node_name'], ': the other nodes carry on', restart_on=tools.killed)
    if is_true(get('rviz')):
        actions.append(Node(
            package='rviz2',
            executable='rviz2',
            arguments=['-d', rviz_config],
            parameters=[{'use_sim_time': use_sim_time}],
            output='screen',
        ))
    if start_choreonoid:
        actions.append(Node(
            package='choreonoid_ros',
            executable='choreonoid',
            arguments=[project] + get('choreonoid_args').split() + ['--start-simulation'] + ([] if is_true(get('gui')) else ['--no-window']),
            output='screen',
        ))
    return actions


def generate_launch_description():
    tools.leave_ctrl_c_to_launch()
    arguments = [
        DeclareLaunchArgument('project_file', description='The Choreonoid project (.cnoid) to serve'),
        DeclareLaunchArgument('start_choreonoid', default_value='false',
                              description="true: run choreonoid_ros's choreonoid on the project, its simulation started"),
        DeclareLaunchArgument('gui', default_value='false', description="With start_choreonoid: Choreonoid's window (else --no-window)"),
        DeclareLaunchArgument('use_sim_time', default_value='',
                              description="true/false; empty: true when start_choreonoid and the project has a WorldROS2Item (/clock)"),
        DeclareLaunchArgument('rviz', default_value='true', description='Start rviz2 with the view of every body'),
        DeclareLaunchArgument('placement_topics', default_value='',
                              description="Pose sources of free roots, space-separated BODY=TOPIC (nav_msgs/Odometry unless placement_topic_types says otherwise)"),
        DeclareLaunchArgument('placement_topic_types', default_value='',
                              description='Space-separated BODY=TYPE, TYPE odometry or pose_stamped (geometry_msgs/PoseStamped in world)'),
        DeclareLaunchArgument('choreonoid_args', default_value='',
                              description='With start_choreonoid: more arguments for Choreonoid, space-separated (a Python script to run once the project is loaded, options)'),
        DeclareLaunchArgument('share', default_value='', description="Choreonoid's share directory for ${SHARE}; empty: that of the choreonoid on PATH"),
    ]
    return LaunchDescription(arguments + [OpaqueFunction(function=tools.unless_interrupted(project_nodes))])
