"""body_bridge and MoveIt 2's move_group, configured from the model: one command to plan with a Choreonoid robot.

    ros2 launch body_bridge moveit.launch.py body_file:=/path/to/PA10.body
    ros2 launch body_bridge moveit.launch.py body_file:=SR1.wrl rviz:=true
    ros2 launch body_bridge moveit.launch.py body_file:=Tank.body joint_states_topic:=/Tank/joint_states use_sim_time:=true
    ros2 launch body_bridge moveit.launch.py project_file:=world.cnoid robot:=arm use_sim_time:=true

body_bridge serves robot_description and robot_description_semantic (the SRDF `body-bridge moveit` writes);
move_group reads both from those topics. At launch, `body-bridge moveit` writes the rest of the configuration
from the same model into a temporary folder, and move_group gets it as parameters: joint_limits.yaml
(robot_description_planning), kinematics.yaml (KDL for every chain group), ompl_planning.yaml (the OMPL pipeline
with MoveIt's usual request adapters, in this ROS distribution's parameter names) and, with execution:=true,
moveit_controllers.yaml (your controllers must then run). A free-floating root (a humanoid's WAIST) hangs from
free_root_frame (default world, the SRDF's virtual joint parent) at its initial pose on /tf_static unless
free_root_frame:='' because a simulator or localisation publishes it. rviz:=true adds rviz2 with the model, its
sensors and MoveIt's MotionPlanning display (moveit_ros_visualization must be installed).

move_group starts without a warning or error (ROS 2 Humble and Jazzy): no 3D sensor feeds the octomap
(`sensors` names one entry with an empty plugin, which MoveIt skips: an empty list cannot be a ROS 2
parameter), and moveit_controller_manager names the plugin of moveit_controllers.yaml. With execution:=false,
MoveItCpp still loads that plugin, which has no controllers to read and would log "No controller_names
specified." as an error, so move_group runs with that logger at fatal (Humble:
`moveit.plugins.moveit_simple_controller_manager`, Jazzy: `move_group.moveit.moveit.plugins.simple_controller_manager`;
nothing else is logged there when it has no controllers; an empty moveit_controller_manager is no way out, it
crashes Humble's move_group). With execution:=true that logger is left alone. docs/moveit.md says more.

project_file:=X.cnoid robot:=NAME plans for body item NAME of a Choreonoid project among the project's bodies
that do not move (docs/project.md): `body-bridge project --launch-plan --planning-robot NAME` says how to serve
it — its model, its placement in `world` where a simulation starts it, its initial joints, choreonoid_ros's
/<name>/joint_states — and body_bridge serves it unprefixed (MoveIt's robot model is the URDF's names) in
move_group's namespace, with planning_scene_project: the static bodies go into the planning scene as
collision objects and follow edits of the project file. Beside project.launch.py (which serves the same body
prefixed in /<name> and relays its sensors) this is a second, unprefixed copy of that one robot's frames;
pass publish_joint_states:=false there when no simulation runs, so that one node publishes its initial joints.
"""

import os
import sys
import tempfile

from ament_index_python.packages import get_package_share_directory, PackageNotFoundError

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, LogInfo, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_bridge_tools as tools  # noqa: E402

MOTION_PLANNING_DISPLAY = """
    - Class: moveit_rviz_plugin/MotionPlanning
      Enabled: true
      Name: MotionPlanning
      Move Group Namespace: "{namespace}"
      Robot Description: robot_description
      Planning Scene Topic: {namespace}/monitored_planning_scene
      Value: true
"""


# Seconds move_group waits for the node's description topics (robot_description_timeout:=).
DESCRIPTION_TIMEOUT = '60.0'
# move_group killed or crashed (it aborts when no robot_description came within robot_description_timeout) starts
# again, at most tools.RESTARTS times: it reads the descriptions from body_bridge again.
MOVE_GROUP_CARRIES_ON = ': it reads robot_description and robot_description_semantic from body_bridge again'
# The octomap's voxel size in m when a sensor is added (MoveIt's tutorials' value); without one MoveIt warns and takes 0.1.
OCTOMAP_RESOLUTION = 0.025
# The one entry of the octomap's `sensors` list, with no plugin: no 3D sensor updates the octomap.
NO_SENSOR = 'no_sensor'
CONTROLLER_MANAGER = 'moveit_simple_controller_manager/MoveItSimpleControllerManager'
# Its logger's name: MoveIt 2.5 (Humble) and 2.12 (Jazzy, a child of the node's logger) name it differently.
CONTROLLER_MANAGER_LOGGER = {
    'humble': 'moveit.plugins.moveit_simple_controller_manager',
    'jazzy': 'move_group.moveit.moveit.plugins.simple_controller_manager',
}


def is_true(text):
    return text.lower() in ('true', '1', 'yes')


def project_robot(context, config_dir):
    """project_file:= mode: how the planning robot is served, from the CLI's launch plan (None without a project)."""
    project = LaunchConfiguration('project_file').perform(context)
    if not project:
        return None
    robot = LaunchConfiguration('robot').perform(context)
    if not robot:
        raise RuntimeError('project_file:= needs robot:=NAME, the body item of the project MoveIt plans for')
    plan, report = tools.run_cli_json(['project', os.path.abspath(project), '--launch-plan', '--planning-robot', robot])
    planning = plan['planning']
    # The user's params file (conventions, ...) with the plan's parameters on top, as one file for the node.
    user = tools.file_parameters(LaunchConfiguration('params_file').perform(context))
    params_file = tools.write_parameters(os.path.join(config_dir, 'planning_robot.params.yaml'), {**user, **planning['parameters']})
    return {'planning': planning, 'params_file': params_file, 'report': report}


def bridge_include(context, served):
    """The node serving the robot: bridge.launch.py with this launch's arguments, or the project's planning robot."""
    def get(name):
        return LaunchConfiguration(name).perform(context)

    arguments = {name: get(name) for name in ('body_file', 'use_sim_time', 'params_file', 'joint_states_topic', 'free_root_frame',
                                               'node_name', 'ros2_control', 'publish_joint_states')}
    arguments['publish_robot_description_semantic'] = 'true'
    if served:
        planning = served['planning']
        arguments.update({
            'body_file': planning['parameters']['body_file'],
            'params_file': served['params_file'],
            'joint_states_topic': planning['joint_states_topic'],
            # Empty: the params file's '' (placement_frame places the root instead).
            'free_root_frame': '',
            'node_name': planning['node_name'],
        })
    return IncludeLaunchDescription(
        PythonLaunchDescriptionSource(PathJoinSubstitution([FindPackageShare('body_bridge'), 'launch', 'bridge.launch.py'])),
        launch_arguments=arguments.items(),
    )


def moveit_nodes(context):
    def get(name):
        return LaunchConfiguration(name).perform(context)

    use_sim_time = is_true(get('use_sim_time'))
    config_dir = tools.remove_at_exit(tempfile.mkdtemp(prefix='body_bridge_moveit_'))
    served = project_robot(context, config_dir)
    parameters = tools.file_parameters(served['params_file'] if served else get('params_file'), node=get('node_name'))
    model = served['planning']['parameters']['body_file'] if served else tools.model_argument(get('body_file'))
    joint_states_topic = served['planning']['joint_states_topic'] if served else get('joint_states_topic')
    # A project's free root hangs from world (placement_frame), MoveIt's virtual joint with it.
    free_root_frame = 'world' if served else get('free_root_frame')
    distro = os.environ.get('ROS_DISTRO', 'humble')
    fix_start_state_bounds = distro != 'humble' and tools.start_state_adapter_installed()
    # --samples 0: the collision matrix move_group uses is the node's SRDF; only the YAML files are read here.
    # planning_ranges:=false: every joint plans over the model's limits (docs/moveit.md, "Planning ranges").
    report = tools.run_cli(['moveit', model, '-o', config_dir, '--samples', '0',
                            '--barrier-samples', '500' if is_true(get('planning_ranges')) else '0',
                            '--motion-step', get('motion_step'),
                            '--virtual-parent', free_root_frame or 'world',
                            '--ros-distro', distro if distro in ('humble', 'jazzy') else 'humble']
                           # Jazzy's MoveIt refuses a start state a hair past a limit; the package's adapter plans
                           # from the limit, as Humble's own FixStartStateBounds does (docs/moveit.md).
                           + (['--fix-start-state-bounds'] if fix_start_state_bounds else [])
                           + tools.convention_args(parameters)
                           # The node's roles file (simulation.launch.py's roles_file:=): the same groups as its SRDF.
                           + (['--roles', parameters['roles_file']] if parameters.get('roles_file') else []))
    files = {name: tools.read_yaml(os.path.join(config_dir, name))
             for name in ('joint_limits.yaml', 'kinematics.yaml', 'ompl_planning.yaml', 'moveit_controllers.yaml')}
    execution = is_true(get('execution'))
    description_timeout = tools.positive_seconds(get('robot_description_timeout'), 'robot_description_timeout')
    move_group_parameters = {
        'use_sim_time': use_sim_time,
        'robot_description_planning': files['joint_limits.yaml'],
        'robot_description_kinematics': files['kinematics.yaml'],
        'planning_pipelines': ['ompl'],
        'default_planning_pipeline': 'ompl',
        'ompl': files['ompl_planning.yaml'],
        'publish_planning_scene': True,
        'publish_geometry_updates': True,
        'publish_state_updates': True,
        'publish_transforms_updates': True,
        'publish_robot_description_semantic': False,
        'allow_trajectory_execution': execution,
        # How long move_group waits for the node's robot_description and robot_description_semantic topics
        # (MoveIt's default 10 s): the node starts with move_group, and on a busy machine loading the model and
        # its collision matrix can take longer; move_group gives up and exits after this.
        'robot_description_timeout': description_timeout,
        'robot_description_semantic_timeout': description_timeout,
        # No 3D sensor feeds the octomap. MoveIt always starts its occupancy map monitor and reads these; a
        # `sensors` list is required (an empty list cannot be passed as a ROS 2 parameter), so it names one
        # entry whose empty sensor_plugin MoveIt skips by design ("Skipping octomap updater plugin ''").
        'octomap_resolution': OCTOMAP_RESOLUTION,
        'sensors': [NO_SENSOR],
        NO_SENSOR + '.sensor_plugin': '',
        # The plugin moveit_controllers.yaml names too: Humble's MoveItCpp loads one even to plan only, and
        # guesses (with a warning) when this is unset. An empty name crashes Humble's move_group.
        'moveit_controller_manager': CONTROLLER_MANAGER,
    }
    if execution:
        move_group_parameters.update(files['moveit_controllers.yaml'])
        move_group_parameters.update({
            'moveit_manage_controllers': False,
            'trajectory_execution.allowed_execution_duration_scaling': 1.2,
            'trajectory_execution.allowed_goal_duration_margin': 0.5,
            'trajectory_execution.allowed_start_tolerance': 0.01,
        })
    actions = [LogInfo(msg=line) for line in (served['report'].strip().splitlines() if served else []) if line]
    if distro != 'humble' and not fix_start_state_bounds:
        actions.append(LogInfo(msg='body_bridge/FixStartStateBounds is not installed (MoveIt was not found when body_bridge '
                                   'was built): move_group refuses to plan from a joint past its limits, by however little'))
    actions += [
        bridge_include(context, served),
        LogInfo(msg='MoveIt configuration from %s in %s (%s)' % (model, config_dir, report.strip().splitlines()[-1])),
        *tools.kept_running(lambda: Node(
            package='moveit_ros_move_group',
            executable='move_group',
            output='screen',
            parameters=[move_group_parameters],
            remappings=[('joint_states', joint_states_topic)],
            # Plan only: the controller manager MoveIt loads regardless has no controllers to read, and logs
            # "No controller_names specified." as an error (an empty list cannot be given as a ROS 2
            # parameter). Nothing else goes to that logger then; with execution:=true it logs as usual.
            ros_arguments=[] if execution else ['--log-level', CONTROLLER_MANAGER_LOGGER.get(distro, CONTROLLER_MANAGER_LOGGER['jazzy']) + ':=fatal'],
            # A SIGINT while move_group loads the robot model can leave it acting on neither SIGINT nor SIGTERM
            # (Jazzy, docs/ros.md "Ctrl-C"): launch's 5 + 5 s before SIGKILL overran the 10 s a Ctrl-C may take.
            # Running, it ends within a second of the SIGINT.
            sigterm_timeout='3',
            sigkill_timeout='3',
        ), 'move_group', MOVE_GROUP_CARRIES_ON, restart_on=lambda code: code != 0),
    ]
    if is_true(get('rviz')):
        rviz_config = os.path.join(config_dir, 'moveit.rviz')
        # The namespace move_group and the node run in (simulation.launch.py: ROS2ControlItem's): the displays'
        # topics are absolute in the file.
        namespace = tools.node_namespace(context)
        tools.run_cli(['rviz', model, '-o', rviz_config, '--free-root-frame', free_root_frame, '--namespace', namespace]
                      + (['--world-frame', parameters['placement_frame']] if parameters.get('placement_frame') else [])
                      + tools.rviz_world_args(parameters) + tools.convention_args(parameters))
        with open(rviz_config) as f:
            text = f.read()
        # The MotionPlanning display joins the generated ones (after TF, before the device displays) where MoveIt's
        # rviz plugin is installed; without it rviz2 would log an error for the display and show the rest.
        try:
            get_package_share_directory('moveit_ros_visualization')
            display = MOTION_PLANNING_DISPLAY.format(namespace=namespace).rstrip('\n')
            text = text.replace('\n    - Class: rviz_default_plugins/TF', display + '\n    - Class: rviz_default_plugins/TF', 1)
        except PackageNotFoundError:
            actions.append(LogInfo(msg='moveit_ros_visualization is not installed: rviz2 shows the robot without the MotionPlanning display'))
        with open(rviz_config, 'w') as f:
            f.write(text)
        actions.append(Node(
            package='rviz2',
            executable='rviz2',
            arguments=['-d', rviz_config],
            parameters=[{'use_sim_time': use_sim_time}, {'robot_description_kinematics': files['kinematics.yaml']}],
            output='screen',
        ))
    return actions


def generate_launch_description():
    tools.leave_ctrl_c_to_launch()
    arguments = tools.declare(
        'body_file', 'use_sim_time', 'params_file', 'joint_states_topic', 'free_root_frame', 'node_name', 'ros2_control', 'publish_joint_states',
        free_root_frame=('world', "A free root's parent on /tf_static and the SRDF's virtual joint parent; '' when something else publishes it"),
    ) + [
        DeclareLaunchArgument('execution', default_value='false',
                              description='true: load moveit_controllers.yaml and execute trajectories (your controllers must run)'),
        DeclareLaunchArgument('rviz', default_value='false', description='Start rviz2 with the MotionPlanning display'),
        DeclareLaunchArgument('motion_step', default_value='0.02',
                              description='Metres a point of the robot may move between the states OMPL checks for collisions; 0: MoveIt\'s usual longest_valid_segment_fraction'),
        DeclareLaunchArgument('planning_ranges', default_value='true',
                              description='true: joints that cannot turn through a range of more than a full turn plan from home to where they stop; false: over the model\'s limits'),
        DeclareLaunchArgument('project_file', default_value='',
                              description="A Choreonoid project: plan for its body item robot:= among its bodies that do not move (they go into the planning scene); body_file, joint_states_topic and free_root_frame then come from the project"),
        DeclareLaunchArgument('robot', default_value='', description='With project_file: the body item MoveIt plans for'),
        DeclareLaunchArgument('robot_description_timeout', default_value=DESCRIPTION_TIMEOUT,
                              description="Seconds move_group waits for body_bridge's robot_description and robot_description_semantic; "
                                          'past it move_group ends and the launch starts it again (at most 3 times)'),
    ]
    return LaunchDescription(arguments + [OpaqueFunction(function=tools.unless_interrupted(moveit_nodes))])
