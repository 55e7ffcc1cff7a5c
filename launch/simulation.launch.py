"""A Choreonoid model simulated under ros2_control, moved by MoveIt: one command from a .body (or .wrl).

    ros2 launch body_bridge simulation.launch.py body_file:=/path/to/PA10.body
    ros2 launch body_bridge simulation.launch.py body_file:=cart.body rviz:=true gui:=true
    ros2 launch body_bridge simulation.launch.py body_file:=robot.body project:=my_world.cnoid

At launch `body-bridge control` writes, from the model, into a temporary folder: the PD gains for choreonoid_ros's
BodySystemInterface, ros2_controllers.yaml (controller manager at one update per simulation step,
joint_state_broadcaster, one joint_trajectory_controller per MoveIt planning group — arms, a head, grippers,
flippers —, a diff_drive_controller for a wheeled, skid-steer or tracked base, a velocity controller for wheels no
drive takes; each joint's role decides, docs/control.md "Joint roles", and roles_file:= overrides it), spawners.yaml, and — without project:= — a Choreonoid project (world, floor, AIST simulator,
the body with BodyROS2Item and ROS2ControlItem, WorldROS2Item). Given project:=, it checks that project instead
and stops, saying where, when it lacks what ros2_control needs. Then it starts:

- Choreonoid (choreonoid_ros's `choreonoid`, without a window unless gui:=true) with that project, the
  simulation running, the gains and controllers files as its parameters, once body_bridge serves
  robot_description (before that no joint would be driven on Jazzy);
- body_bridge as robot_state_publisher (where ROS2ControlItem reads robot_description) with the <ros2_control>
  block, in simulation time, following /joint_states from joint_state_broadcaster; move_group with
  execution:=true (moveit.launch.py); rviz:=true adds rviz2;
- the spawners, which wait for the controller manager inside Choreonoid (controller_manager_timeout:=, 300 s); one
  that fails (no controller manager by then, or a controller refused) stops the launch, exit status 1, saying which.

Choreonoid killed or crashed starts again, with its spawners, while body_bridge and move_group carry on (at most 3
times); closed by the user, it ends the launch (docs/errors-and-limits.md "The running chain under faults").

A wheeled or tracked base lives in its project's world (REP-105): diff_drive_controller publishes odom → base and
body_bridge world → odom where the project (project:=, or the one made from the model) starts the body; MoveIt's
virtual joint hangs the base from world through them, with the project's static bodies (the floor at least) in its
planning scene. docs/control.md says more.
"""

import os
import sys
import tempfile

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, EmitEvent, GroupAction, IncludeLaunchDescription, LogInfo, OpaqueFunction, RegisterEventHandler
from launch.event_handlers import OnProcessExit, OnProcessIO
from launch.events import Shutdown
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node, PushRosNamespace
from launch_ros.substitutions import FindPackageShare

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_bridge_tools as tools  # noqa: E402

# Seconds a spawner waits for the controller manager (controller_manager_timeout:=): Choreonoid loads the project
# and waits for robot_state_publisher's robot_description before it starts one.
CONTROLLER_MANAGER_TIMEOUT = '300'


def is_true(text):
    return text.lower() in ('true', '1', 'yes')


def launch_file(name, arguments):
    """One of the package's launch files, included with these arguments."""
    return IncludeLaunchDescription(
        PythonLaunchDescriptionSource(PathJoinSubstitution([FindPackageShare('body_bridge'), 'launch', name])),
        launch_arguments=arguments.items(),
    )


def simulator(choreonoid, spawners):
    """Choreonoid and the spawners that activate the controllers inside it. Killed or crashed (any exit but 0) while
    the launch runs, Choreonoid starts again with its spawners (at most tools.RESTARTS times), and body_bridge,
    move_group and rviz2 carry on: the controller manager reads robot_description from body_bridge again, and
    MoveIt's controller clients find the new action servers. Closed by the user (exit code 0), it ends the launch."""
    return tools.kept_running(choreonoid, 'Choreonoid', ' with its controllers; body_bridge and move_group carry on',
                              restart_on=lambda code: code != 0, also=spawners,
                              other_exit=lambda event: [EmitEvent(event=Shutdown(reason='Choreonoid was closed'))])


def simulation(context):
    def get(name):
        return LaunchConfiguration(name).perform(context)

    model = os.path.abspath(tools.model_argument(get('body_file')))
    namespace = get('namespace')
    project = get('project')
    mode = get('mode')
    distro = os.environ.get('ROS_DISTRO', 'humble')
    out = tools.remove_at_exit(tempfile.mkdtemp(prefix='body_bridge_control_'))
    args = ['control', model, '-o', out, '--mode', mode, '--ros-distro', distro if distro in ('humble', 'jazzy') else 'humble']
    args += [a for entry in get('joint_modes').split() for a in ('--joint-mode', entry)]
    if get('gains_file'):
        args += ['--gains', get('gains_file')]
    if get('roles_file'):
        args += ['--roles', os.path.abspath(get('roles_file'))]
    if namespace:
        args += ['--namespace', namespace]
    if get('time_step'):
        args += ['--time-step', get('time_step')]
    args += ['--project-file', os.path.abspath(project)] if project else ['--project']
    args += tools.convention_args(tools.file_parameters(get('params_file'), namespace, 'robot_state_publisher'))
    # A project that lacks what ros2_control needs stops the launch here, with the problems located in it.
    report = tools.run_cli(args)
    spawners = tools.read_yaml(os.path.join(out, 'spawners.yaml'))
    # The namespace ROS2ControlItem runs in: namespace:=, or the user's project's (body-bridge control decided).
    namespace = spawners.get('namespace') or ''
    gains = os.path.join(out, 'choreonoid_ros2_control.yaml')
    controllers = os.path.join(out, 'ros2_controllers.yaml')
    project_file = os.path.abspath(project) if project else os.path.join(out, 'simulation.cnoid')

    def choreonoid():
        return Node(
            package='choreonoid_ros',
            executable='choreonoid',
            # A Python script (script:=) runs once the project is loaded: Choreonoid's own API on the simulation.
            arguments=[project_file] + ([os.path.abspath(get('script'))] if get('script') else [])
            + ['--start-simulation'] + ([] if is_true(get('gui')) else ['--no-window']),
            parameters=[gains, controllers],
            output='screen',
            # Choreonoid quits within a second of a SIGINT, but one taken while it loads its project is not acted on
            # (docs/ros.md "Ctrl-C"): SIGTERM, which it obeys at once, comes after 3 s instead of launch's 5. A SIGTERM
            # that does not end it within 3 s met the deadlock of a controller loading on a stopped simulation.
            sigterm_timeout='3',
            sigkill_timeout='3',
        )

    manager = spawners['controller_manager']
    manager_timeout = tools.positive_seconds(get('controller_manager_timeout'), 'controller_manager_timeout')
    # Which Choreonoid the spawners serve: each start of it (the first, each restart) is a new generation.
    generation = [0]

    def spawner(names, inactive, of_generation):
        process = Node(
            package='controller_manager',
            executable='spawner',
            # In the controller manager's namespace: Jazzy's spawner reads a controller's parameters from the file
            # under its own namespace's key (/<namespace>/<controller>, as ros2_controllers.yaml has them) and, in
            # the root namespace, loads a namespaced controller without them ("Length of parameter 'joints' is
            # '0'"). Humble's passes the file whole; the namespace does not change that.
            namespace=namespace or None,
            arguments=list(names) + ['-c', manager, '--param-file', controllers,
                                     '--controller-manager-timeout', '%g' % manager_timeout] + (['--inactive'] if inactive else []),
            output='screen',
            # A spawner whose call to the controller manager is unanswered acts on no SIGINT, and on Jazzy on no
            # SIGTERM either: launch's 5 + 5 s before SIGKILL overran the 10 s a Ctrl-C may take. It only loads
            # controllers into Choreonoid, which is ending too: 2 + 2 s.
            sigterm_timeout='2',
            sigkill_timeout='2',
        )

        def ended(event, context):
            # A spawner that fails leaves these controllers inactive: nothing would move the robot, so the launch
            # stops (exit status 1) rather than run on half made. One of a Choreonoid that has since died and been
            # started again is moot: the new one's spawners are at work.
            if event.returncode == 0 or context.is_shutdown or of_generation != generation[0]:
                return []
            raise RuntimeError(
                'the controllers %s are not active: their spawner ended with exit code %d (its error above). Either '
                "Choreonoid's controller manager %s did not answer within %g s (controller_manager_timeout:=; Choreonoid "
                'starts it once its project is loaded and robot_description has come from body_bridge), or it refused '
                'them' % (', '.join(names), event.returncode, manager, manager_timeout))

        return [process, RegisterEventHandler(OnProcessExit(target_action=process, on_exit=ended))]

    def spawner_processes():
        generation[0] += 1
        return spawner(spawners['active'], False, generation[0]) \
            + (spawner(spawners['inactive'], True, generation[0]) if spawners.get('inactive') else [])

    params_file = get('params_file')
    # A user's project: body-bridge control wrote where the project puts the body (placement in world) and which
    # project gives MoveIt its obstacles. The generated one: what differs there from the node's defaults (the body
    # item's namespace, names it gave nameless devices, a free body lifted onto the floor, a driven base placed in
    # its world with the floor for MoveIt). On top of the user's own params file, as one file for the node.
    in_project = os.path.join(out, 'body_bridge.params.yaml')
    project_parameters = tools.file_parameters(in_project, namespace, 'robot_state_publisher') if os.path.exists(in_project) else {}
    placed_by_project = bool(project_parameters.get('placement_frame'))
    # The node's <ros2_control> block must be the one body-bridge control chose (roles file, joint_modes):
    # every joint's mode, on top of the user's params file, as one file for the node.
    node_parameters = tools.file_parameters(params_file, namespace, 'robot_state_publisher')
    node_parameters.update(project_parameters)
    if not is_true(get('moveit')):
        # No move_group, no planning scene to keep.
        for name in ('planning_scene_project', 'planning_robot'):
            node_parameters.pop(name, None)
    if spawners.get('joint_modes'):
        node_parameters['ros2_control_joint_modes'] = list(spawners['joint_modes'])
    if get('roles_file'):
        # The node's SRDF groups (and moveit.launch.py's controllers for them) follow the same roles.
        node_parameters['roles_file'] = os.path.abspath(get('roles_file'))
    params_file = tools.write_parameters(os.path.join(out, 'robot_state_publisher.params.yaml'), node_parameters)
    served = {
        'body_file': model,
        'use_sim_time': 'true',
        'params_file': params_file,
        'joint_states_topic': 'joint_states',
        # diff_drive_controller publishes odom → base; a user's project places the root (placement_frame);
        # otherwise the root's initial pose stands in for it.
        'free_root_frame': '' if spawners.get('diff_drive') or placed_by_project else 'world',
        'node_name': 'robot_state_publisher',
        'ros2_control': mode,
        'publish_joint_states': 'false',
    }
    if is_true(get('moveit')):
        robot = launch_file('moveit.launch.py', {**served, 'execution': 'true', 'rviz': get('rviz')})
    else:
        # The robot without MoveIt: body_bridge alone, or with rviz2 (display.launch.py).
        # The fixed frame a person would pick: the project's world when there is one (a driven base drives
        # through it: world -> odom -> base), else the odometry frame of a driven base, else the model's root.
        display = {'gui': 'false', 'fixed_frame': 'world' if placed_by_project else 'odom' if spawners.get('diff_drive') else ''}
        display = {k: v for k, v in display.items() if v != ''}
        robot = launch_file('display.launch.py' if is_true(get('rviz')) else 'bridge.launch.py', {**served, **display})
    lines = report.strip().splitlines()
    # What body-bridge control warned about before its summary (the user's project, located; the model): shown,
    # as a project that lacks what is needed is.
    actions = [LogInfo(msg=line) for line in lines[:-1] if line] + [
        LogInfo(msg='ros2_control configuration from %s in %s (%s)' % (model, out, lines[-1])),
        after_robot_description(lambda: simulator(choreonoid, spawner_processes)),
    ]
    # body_bridge and move_group in the item's namespace, where the controllers are.
    actions.append(GroupAction([PushRosNamespace(namespace), robot]) if namespace else robot)
    return actions


def after_robot_description(start):
    """The actions start() makes, once body_bridge first says it serves the robot (robot_description published,
    latched). Choreonoid's simulation runs from the project's load, and no joint is driven until its controller
    manager has robot_description: Humble's ROS2ControlItem asks robot_state_publisher for it before the simulation
    starts, Jazzy's subscribes and lets the simulation run meanwhile — seconds in which an arm falls, and the
    trajectory controller then holds it where it lies (docs/control.md "On Jazzy"). Started after the node,
    Choreonoid finds the description at once on both."""
    started = [False]

    def heard(event):
        if started[0] or not event.process_name.startswith('body_bridge-') or b'Robot initialized: ' not in event.text:
            return None
        started[0] = True
        return [OpaqueFunction(function=lambda context: [] if context.is_shutdown else start())]

    return RegisterEventHandler(OnProcessIO(on_stdout=heard, on_stderr=heard))


def generate_launch_description():
    tools.leave_ctrl_c_to_launch()
    arguments = tools.declare('body_file', 'params_file') + [
        DeclareLaunchArgument('project', default_value='',
                              description='A Choreonoid project of your own (checked first); empty = one made from the model'),
        DeclareLaunchArgument('namespace', default_value='', description="ROS2ControlItem's namespace ('' or absolute, /robot1)"),
        DeclareLaunchArgument('mode', default_value='position_pd',
                              description='Every joint\'s command interface: position_pd (default), velocity_pd, effort, position, velocity'),
        DeclareLaunchArgument('joint_modes', default_value='', description='Per-joint modes, space-separated JOINT=MODE'),
        DeclareLaunchArgument('roles_file', default_value='',
                              description='Joint roles replacing inferred ones (JOINT: ROLE per line; body-bridge control --roles)'),
        DeclareLaunchArgument('gains_file', default_value='', description='PD gains replacing the model\'s (docs/control.md)'),
        DeclareLaunchArgument('time_step', default_value='', description="The simulation step in s; empty = 0.001, or the project's"),
        DeclareLaunchArgument('gui', default_value='false', description="true: Choreonoid's window"),
        DeclareLaunchArgument('rviz', default_value='false', description='Start rviz2 (with the MotionPlanning display when moveit:=true)'),
        DeclareLaunchArgument('script', default_value='', description='A Python script Choreonoid runs once the project is loaded (cnoid.Base, cnoid.BodyPlugin)'),
        DeclareLaunchArgument('moveit', default_value='true', description='false: the simulated robot and body_bridge without move_group'),
        DeclareLaunchArgument('controller_manager_timeout', default_value=CONTROLLER_MANAGER_TIMEOUT,
                              description="Seconds the spawners wait for Choreonoid's controller manager; past it the launch stops (exit status 1)"),
    ]
    return LaunchDescription(arguments + [OpaqueFunction(function=tools.unless_interrupted(simulation))])
