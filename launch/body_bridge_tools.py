"""What body_bridge's launch files share: the installed body-bridge CLI, run at launch time to make the
rviz2 and MoveIt configuration from the model the node serves, and the node parameters a params file sets.

Not a launch file itself: display.launch.py and moveit.launch.py import it from their own folder.
"""

import atexit
import json
import os
import shutil
import signal
import subprocess
import threading

import yaml
from ament_index_python.packages import get_package_prefix, get_package_share_directory
from ament_index_python.resources import has_resource
from launch.actions import DeclareLaunchArgument, EmitEvent, LogInfo, RegisterEventHandler
from launch.event_handlers import OnProcessExit
from launch.events import Shutdown
from launch.substitutions import PathJoinSubstitution
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'body_bridge'

# Every launch argument of the package, declared once: name -> (default, description).
ARGUMENTS = {
    'body_file': ('', 'Model file (.body, .yaml or .wrl); empty = the bundled example'),
    'namespace': ('', 'Namespace of the node and its relative topics (robot_description, joint_states, sensors)'),
    'frame_prefix': ('', "Prepended to every frame id, e.g. 'robot1/' (as robot_state_publisher)"),
    'use_sim_time': ('false', 'Use /clock (e.g. from Choreonoid or a bag) as the clock'),
    'params_file': (None, 'YAML parameters file (keyed /** or by the node name)'),
    'joint_states_topic': ('joint_states', "Where joint positions come from, e.g. choreonoid_ros's /<body>/joint_states"),
    'world_frame': ('', 'A URDF world link above the root; empty = the params file value'),
    'free_root_frame': ('', "A free root's stand-in parent on /tf_static (e.g. world for MoveIt); empty = the params file value"),
    'publish_robot_description_semantic': ('', 'true: publish the MoveIt SRDF on robot_description_semantic; empty = the params file value'),
    'node_name': ('body_bridge', "The node's name: robot_state_publisher where choreonoid_ros's ROS2ControlItem reads robot_description from it"),
    'ros2_control': ('', "A mode (position_pd, ...): robot_description carries the <ros2_control> block (docs/control.md); empty = the params file value"),
    'publish_joint_states': ('', 'true/false: publish the initial joint positions until another publisher appears; empty = the params file value'),
}


def _launch_takes_sigint(signum, frame):
    """Nothing: launch has already heard the signal through its wakeup file descriptor."""


def leave_ctrl_c_to_launch():
    """Make a Ctrl-C reach launch's own handling only, never the Python code launch is running at that moment.

    launch hears SIGINT through signal.set_wakeup_fd (launch/utilities/signal_management.py) and leaves Python's
    handler in place, which raises KeyboardInterrupt wherever the main thread is. launch catches it around its
    loop, but one raised inside its task that starts a process (in os.posix_spawn) ends that task, and launch then
    waits for that action for ever: a Ctrl-C as Choreonoid started hung simulation.launch.py (Humble), and one in a
    burst of process starts hung 13 of 20 launches on Humble, 8 of 20 on Jazzy (docs/ros.md, "Ctrl-C"). A handler
    that does nothing keeps the wakeup descriptor (CPython writes it for any Python handler) and raises nothing.
    Only the main thread may set one; a handler the user set is kept.
    """
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _launch_takes_sigint)


def declare(*names, **overrides):
    """DeclareLaunchArgument for each name of ARGUMENTS; overrides maps a name to (default, description)."""
    declared = []
    for name in names:
        default, description = overrides.get(name, ARGUMENTS[name])
        if default is None:
            default = PathJoinSubstitution([FindPackageShare(PACKAGE), 'config', 'bridge.params.yaml'])
        declared.append(DeclareLaunchArgument(name, default_value=default, description=description))
    return declared


def cli_command():
    """The body-bridge CLI of the installed package, run by the same Node.js as the node's launcher."""
    main = os.path.join(get_package_prefix(PACKAGE), 'lib', PACKAGE + '_app', 'dist', 'cli', 'main.js')
    return [os.environ.get('BODY_BRIDGE_NODE', 'node'), main]


def start_state_adapter_installed():
    """body_bridge/FixStartStateBounds, the package's MoveIt plugin: built where MoveIt 2.10 or later was found
    at build time (CMakeLists.txt), registered for pluginlib in the ament index as MoveIt looks it up."""
    return has_resource('moveit_core__pluginlib__plugin', PACKAGE)


def model_argument(body_file):
    """The model the node serves: body_file, or (empty) the bundled example, as the node picks it."""
    if body_file:
        return body_file
    return os.environ.get('BODY_BRIDGE_MODELS') or os.path.join(get_package_share_directory(PACKAGE), 'models')


def node_namespace(context, namespace=''):
    """The namespace a node of this launch runs in: `namespace` when absolute, else under the one a PushRosNamespace
    around the include set (simulation.launch.py runs moveit.launch.py and display.launch.py in ROS2ControlItem's)."""
    if namespace.startswith('/'):
        return namespace.rstrip('/')
    parts = [p.strip('/') for p in (context.launch_configurations.get('ros_namespace', ''), namespace) if p.strip('/')]
    return '/' + '/'.join(parts) if parts else ''


def positive_seconds(text, name):
    """A launch argument that is a time in seconds, > 0; a RuntimeError naming the argument otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise RuntimeError('%s:=%s: expected a number of seconds greater than 0' % (name, text))
    return value


class Interrupted(Exception):
    """The body-bridge CLI ended by a Ctrl-C: SIGINT to the terminal's process group reaches it beside launch."""


def _cli(args):
    result = subprocess.run(cli_command() + args, capture_output=True, text=True, timeout=600, check=False)
    if result.returncode == -signal.SIGINT:
        raise Interrupted('body-bridge %s ended by the Ctrl-C' % args[0])
    if result.returncode != 0:
        raise RuntimeError('body-bridge %s failed (exit %d):\n%s' % (args[0], result.returncode, result.stderr.strip()))
    return result


def run_cli(args):
    """Runs body-bridge ARGS; returns its stderr (warnings, the summary). Raises RuntimeError when it fails."""
    return _cli(args).stderr


def run_cli_json(args):
    """Runs body-bridge ARGS, which prints JSON; returns (the parsed JSON, its stderr). Raises RuntimeError when it fails."""
    result = _cli(args)
    return json.loads(result.stdout), result.stderr


def unless_interrupted(function):
    """An OpaqueFunction's function that starts nothing once a Ctrl-C has ended the CLI it runs.

    launch heard the same Ctrl-C (leave_ctrl_c_to_launch) and shuts down as soon as the function returns; the CLI's
    end by it is no failure to report (launch would exit 1 with 'Caught exception in launch').
    """
    def run(context, *args, **kwargs):
        try:
            return function(context, *args, **kwargs)
        except Interrupted:
            return []
    return run


def node_parameters(parameters):
    """A parameter dict as launch_ros can pass it: empty lists left out (rcl cannot type them: the node's
    default is empty), number lists as floats (a list mixing 0 and 0.5 is no ROS parameter type)."""
    out = {}
    for name, value in parameters.items():
        if isinstance(value, list):
            if not value:
                continue
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
                value = [float(v) for v in value]
        out[name] = value
    return out


def write_parameters(path, parameters):
    """A ROS 2 params file giving every node that reads it (/**) these parameters."""
    with open(path, 'w') as f:
        yaml.safe_dump({'/**': {'ros__parameters': node_parameters(parameters)}}, f, default_flow_style=False)
    return path


def file_parameters(path, namespace='', node='body_bridge'):
    """The parameters a ROS 2 params file gives the node: /** first, then keys naming the node."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        doc = yaml.safe_load(f) or {}
    fqn = '/' + '/'.join(part for part in (namespace.strip('/'), node) if part)
    merged = {}
    for key in ('/**', node, fqn.lstrip('/'), fqn):
        section = doc.get(key) if isinstance(doc, dict) else None
        if isinstance(section, dict):
            merged.update(section.get('ros__parameters') or {})
    return merged


def convention_args(parameters):
    """The CLI options that name links and place the root inertia as the node's parameters do."""
    args = []
    if parameters.get('link_names'):
        args += ['--link-names', str(parameters['link_names'])]
    if parameters.get('root_inertia'):
        args += ['--root-inertia', str(parameters['root_inertia'])]
    return args


def rviz_world_args(parameters):
    """The `body-bridge rviz` options for a robot the node's parameters put in a world (a project's params file)."""
    args = []
    # A node that sends a project's static bodies to MoveIt draws them too (planning_scene_markers).
    if parameters.get('planning_scene_project'):
        args += ['--planning-scene']
    # A robot placed in a world (placement_frame): the view looks at it where it stands.
    if parameters.get('placement_frame') and len(parameters.get('placement') or []) == 7:
        args += ['--placement=' + ','.join(str(v) for v in parameters['placement'])]
    return args


def read_yaml(path):
    with open(path) as f:
        return yaml.safe_load(f) or {}


def remove_at_exit(path):
    """Deletes a file or folder the launch generated into the temporary directory when `ros2 launch` exits, i.e. once
    every process it started has ended. Not at the launch's shutdown event: a process still stopping may read it then
    (Choreonoid's controller manager, asked by a spawner to load a controller as Ctrl-C came, parsed a --params-file
    deleted a moment before and aborted). Registered as soon as the path exists, it goes even when the launch fails."""
    def remove():
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.exists(path):
            os.remove(path)
    atexit.register(remove)
    return path


# Times a process the launch keeps running (Choreonoid, body_bridge) is started again after it was killed or crashed,
# before the launch gives up and ends: a process that dies every time it starts would otherwise loop for ever.
RESTARTS = 3


def kept_running(start, what, carry_on, restart_on, also=lambda: [], other_exit=lambda event: [], restarts=RESTARTS):
    """The process start() makes (a fresh action each time) and, with it, the actions also() makes (Choreonoid's
    spawners). When it ends while the launch runs and restart_on(exit code) holds, the launch says so and starts both
    again — at most `restarts` times, then it ends the launch; any other end goes to other_exit(event). A launch that
    is shutting down starts nothing."""
    process = start()

    def ended(event, context):
        if context.is_shutdown:
            return []
        if not restart_on(event.returncode):
            return other_exit(event)
        if restarts == 0:
            return [LogInfo(msg='%s ended (exit code %d) %d times: not starting it again' % (what, event.returncode, RESTARTS + 1)),
                    EmitEvent(event=Shutdown(reason='%s keeps ending' % what))]
        return [LogInfo(msg='%s ended (exit code %d): starting it again%s' % (what, event.returncode, carry_on))] \
            + kept_running(start, what, carry_on, restart_on, also, other_exit, restarts - 1)

    return [process, RegisterEventHandler(OnProcessExit(target_action=process, on_exit=ended))] + also()


def killed(code):
    """body_bridge's exits worth a restart: by a signal (killed; a crash of Node.js or rclnodejs: SIGSEGV, SIGABRT).
    An exit code of its own follows a message saying why (a model that does not load at start), which a restart
    would only repeat."""
    return code < 0
