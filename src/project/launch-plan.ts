// What `project.launch.py` starts for a Choreonoid project, computed here so that the launch file only wires
// processes: one body_bridge node per body, in the namespace choreonoid_ros's BodyROS2Item publishes that
// body's topics under, its frames prefixed with that namespace, its root placed in the one shared `world`
// frame where a simulation of the project starts it; and, for `moveit.launch.py project_file:=`, how the
// planning robot is served to MoveIt (unprefixed, with the project's static bodies in its planning scene).
//
// Pure: from a read Project (readProject) to data. Bodies whose model fails are reported, located, and left
// out; the rest serve.
import { quaternionFromMatrix } from '../model/math.js';
import type { Diagnostic, Pose, SourceLocation } from '../model/types.js';
import { uniqueNamer } from '../model/unique-name.js';
import { rosNodeName } from './ros-items.js';
import type { LoadedProjectBody, Project } from './types.js';

/** The frame every body of a project is placed in (never prefixed: the bodies share it). */
export const WORLD_FRAME = 'world';
/** The default ros2_control mode of a body under a ROS2ControlItem (body-bridge control's default). */
export const DEFAULT_ROS2_CONTROL_MODE = 'position_pd';

export const POSE_SOURCE_TYPES = ['odometry', 'pose_stamped'] as const;
export type PoseSourceType = (typeof POSE_SOURCE_TYPES)[number];

/** Where a free root's live pose comes from (the node's placement_topic and placement_topic_type). */
export interface PoseSource {
  topic: string;
  type: PoseSourceType;
}

export interface LaunchPlanOptions {
  /** Pose sources of free roots, by body item name. */
  poseSources?: Readonly<Record<string, PoseSource>>;
  /** The body item MoveIt plans for: the plan then says how moveit.launch.py serves it (`planning`). */
  planningRobot?: string;
  /** The ros2_control mode of bodies under a ROS2ControlItem (default position_pd). */
  ros2ControlMode?: string;
}

/** The node parameters of one body (use_sim_time is the launch's to set). */
export interface BodyNodeParameters {
  body_file: string;
  frame_prefix: string;
  placement_frame: string;
  /** [x, y, z, qx, qy, qz, qw]: the root link where a simulation of the project starts it. */
  placement: number[];
  placement_topic: string;
  placement_topic_type: PoseSourceType;
  /** REP-105 for a body its odometry places: world → <prefix>odom where it starts, <prefix>odom → root per message; else ''. */
  placement_odom_frame: string;
  /** '' = the model's root joint; 'fixed' or 'free' where the project's fix_root says otherwise. */
  root_joint: string;
  /** The project's initial joint positions, JOINT=VALUE, for the moving joints. */
  initial_joint_positions: string[];
  device_input_namespace: string;
  /** '' = none; the mode of the <ros2_control> block a ROS2ControlItem reads. */
  ros2_control: string;
}

/** One node serving one body of the project. */
export interface BodyLaunch {
  /** Its place in Project.bodies (item names and paths need not be unique). */
  index: number;
  itemName: string;
  itemPath: string;
  world: string | null;
  /** Absolute: `/<BodyROS2Item node name>`. */
  namespace: string;
  /** `robot_state_publisher` where a ROS2ControlItem reads robot_description from it, else `body_bridge`. */
  nodeName: string;
  /** `<namespace>/joint_states`: where choreonoid_ros publishes the joint positions (the node's own joint_states there). */
  jointStatesTopic: string;
  /** Whether choreonoid_ros publishes this body's joint_states and sensors (a BodyROS2Item under it). */
  choreonoidRos: boolean;
  fixedRoot: boolean;
  /** Fixed root and no joint that moves: an obstacle for MoveIt's planning scene. */
  staticModel: boolean;
  parameters: BodyNodeParameters;
  /** Located: what is not as a user might expect (no BodyROS2Item, a pose that is not live, ...). */
  warnings: Diagnostic[];
}

export interface LeftOutBody {
  /** Its place in Project.bodies. */
  index: number;
  itemName: string;
  itemPath: string;
  errors: Diagnostic[];
}

/** How moveit.launch.py serves the planning robot: MoveIt's robot model is unprefixed, so are its frames. */
export interface PlanningLaunch {
  itemName: string;
  /** The namespace move_group and this node run in ('' = the root namespace). */
  namespace: string;
  nodeName: string;
  /** The body's joint_states, as choreonoid_ros publishes them (move_group listens there too). */
  jointStatesTopic: string;
  parameters: Omit<BodyNodeParameters, 'ros2_control'> & {
    free_root_frame: string;
    planning_scene_project: string;
    planning_robot: string;
    relay_devices: boolean;
    publish_robot_description_semantic: boolean;
  };
}

export interface LaunchPlan {
  project: string;
  worldFrame: string;
  /** The WorldROS2Item that publishes /clock while a simulation runs, or null (then there is no simulation time). */
  clock: { node: string; worldItem: string } | null;
  bodies: BodyLaunch[];
  leftOut: LeftOutBody[];
  planning: PlanningLaunch | null;
  /** Pose sources naming no served body (a usage error for the caller). */
  unknownPoseSources: string[];
  /** Why the planning robot cannot be planned for, or null. */
  planningProblem: string | null;
  diagnostics: Diagnostic[];
}

// rcl's node name rule (rmw_validate_node_name): letters, digits and '_', not starting with a digit.
const VALID_NODE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;

const warning = (at: SourceLocation, message: string): Diagnostic => ({ severity: 'warning', file: at.file, line: at.line, column: at.column, message });
const error = (at: SourceLocation, message: string): Diagnostic => ({ severity: 'error', file: at.file, line: at.line, column: at.column, message });

/** A pose as the node's `placement`: [x, y, z, qx, qy, qz, qw]. */
export function placementOfPose(p: Pose): number[] {
  const q = quaternionFromMatrix(p.rotation);
  return [...p.translation, q.x, q.y, q.z, q.w];
}

/** The devices BodyROS2Item publishes a topic for (lights, holders and the like it does not). */
const SENSOR_TYPES = new Set(['Camera', 'RangeCamera', 'RangeSensor', 'ForceSensor', 'RateGyroSensor', 'AccelerationSensor', 'Imu']);

const isMoving = (type: string): boolean => type === 'revolute' || type === 'prismatic';

/** The project's initial joint positions of the model's moving joints, as initial_joint_positions entries. */
function initialJoints(b: LoadedProjectBody): string[] {
  const moving = new Set(b.model.links.filter((l) => l.parent !== null && isMoving(l.joint.type)).map((l) => l.joint.name));
  return Object.entries(b.initialJointPositions)
    .filter(([name]) => moving.has(name))
    .map(([name, q]) => `${name}=${q}`);
}

/** The root joint the project's fix_root gives the body where it differs from the model's ('' where it does not): the node's root_joint. */
export function rootJointOverride(b: LoadedProjectBody): '' | 'fixed' | 'free' {
  const type = b.rootJointType;
  return type !== b.model.links[0]!.joint.type && (type === 'fixed' || type === 'free') ? type : '';
}

/** A ROS name token of a body item's name for a namespace of ours: letters, digits and '_', not starting with a digit. */
function nameToken(itemName: string): string {
  const token = rosNodeName(itemName).replace(/[^A-Za-z0-9_]/g, '_');
  if (token === '') return 'body';
  return /^[0-9]/.test(token) ? `_${token}` : token;
}

/**
 * Every body's namespace name, or why it has none. A body under a BodyROS2Item takes the name choreonoid_ros gives
 * its node — first, so that no other body takes it — and is left out when that name is invalid or another such
 * body has it (choreonoid_ros would publish both there). Any other body's namespace is ours to choose: its name as
 * a BodyROS2Item would make it, made a valid token and unique (`_2`, `_3`, ...), with a warning where it differs.
 */
function namespaceNames(bodies: readonly LoadedProjectBody[]): Map<LoadedProjectBody, { name: string; warning?: Diagnostic } | { errors: Diagnostic[] }> {
  const out = new Map<LoadedProjectBody, { name: string; warning?: Diagnostic } | { errors: Diagnostic[] }>();
  const claimed = new Map<string, LoadedProjectBody>();
  for (const b of bodies) {
    const nodeName = b.ros.bodyRos2?.nodeName;
    if (nodeName === undefined) continue;
    const clash = claimed.get(nodeName);
    if (!VALID_NODE_NAME.test(nodeName)) {
      out.set(b, { errors: [error(b.at, `body item "${b.itemName}" is left out: its BodyROS2Item's node name "${nodeName}" is not a valid ROS name (letters, digits and '_', not starting with a digit): choreonoid_ros cannot create that node, and it has no namespace to serve it in`)] });
    } else if (clash) {
      out.set(b, { errors: [error(b.at, `body item "${b.itemName}" is left out: its namespace /${nodeName} is already that of body item "${clash.itemName}" (${clash.at.file}:${clash.at.line}:${clash.at.column}); choreonoid_ros publishes both there. Rename one of them`)] });
    } else {
      claimed.set(nodeName, b);
      out.set(b, { name: nodeName });
    }
  }
  const name = uniqueNamer(claimed.keys());
  for (const b of bodies) {
    if (b.ros.bodyRos2) continue;
    const wanted = rosNodeName(b.itemName);
    const chosen = name(nameToken(b.itemName));
    out.set(b, chosen === wanted ? { name: chosen } : { name: chosen, warning: warning(b.at, `body item "${b.itemName}" is served in /${chosen}: /${wanted} ${VALID_NODE_NAME.test(wanted) ? 'is another body\'s' : 'is no valid ROS namespace'} (it has no BodyROS2Item, whose node would need that name)`) });
  }
  return out;
}

/** One body's node, in namespace /<nodeName>. */
function bodyLaunch(b: LoadedProjectBody, index: number, nodeName: string, options: LaunchPlanOptions): BodyLaunch {
  const bodyRos2 = b.ros.bodyRos2;
  const namespace = `/${nodeName}`;
  const warnings: Diagnostic[] = [];
  // A body with nothing choreonoid_ros would publish (no moving joint, no sensor: a floor, a wall) needs no BodyROS2Item.
  const publishes = b.model.links.some((l) => l.parent !== null && isMoving(l.joint.type)) || b.model.devices.some((d) => SENSOR_TYPES.has(d.type));
  if (!bodyRos2 && publishes) {
    warnings.push(warning(b.at, `body item "${b.itemName}" has no BodyROS2Item: choreonoid_ros publishes neither its joint_states nor its sensors, so it is served at the project's initial joint positions, in ${namespace} (where a BodyROS2Item would publish)`));
  }
  let nodeNameOfNode = 'body_bridge';
  let ros2Control = '';
  const control = b.ros.ros2Control;
  if (control) {
    const expected = `${namespace}/robot_state_publisher`;
    if (control.robotStatePublisher === expected) {
      nodeNameOfNode = 'robot_state_publisher';
      ros2Control = options.ros2ControlMode ?? DEFAULT_ROS2_CONTROL_MODE;
    } else {
      warnings.push(
        warning(
          control.at,
          `ROS2ControlItem "${control.itemName}" reads robot_description from ${control.robotStatePublisher}, but body item "${b.itemName}" is served in ${namespace} (its BodyROS2Item's namespace): set the item's namespace to ${namespace}, where body_bridge then runs as robot_state_publisher. Until then Choreonoid waits for that node`,
        ),
      );
    }
  }
  const source = options.poseSources?.[b.itemName];
  if (b.fixedRoot && source) {
    warnings.push(warning(b.at, `the pose source ${source.topic} of body item "${b.itemName}" is not used: its root is fixed, it stays where the project puts it`));
  }
  if (!b.fixedRoot && !source) {
    warnings.push(
      warning(
        b.at,
        `body item "${b.itemName}" has a free root: it is placed in ${WORLD_FRAME} where the project starts it, and that pose is not live — it does not follow the body as it moves. Name a pose source for it (an Odometry topic such as diff_drive_controller's odom, or a PoseStamped)`,
      ),
    );
  }
  if (b.linkage) {
    warnings.push(warning(b.at, `body item "${b.itemName}" follows body item ${b.linkage.parentItemPath} (${b.linkage.kind}): it is placed where the project starts it and does not follow that body`));
  }
  if (b.world === null) warnings.push(warning(b.at, `body item "${b.itemName}" is outside any world item: no simulation moves it; it is placed where the project starts it`));
  return {
    index,
    itemName: b.itemName,
    itemPath: b.itemPath,
    world: b.world,
    namespace,
    nodeName: nodeNameOfNode,
    jointStatesTopic: `${namespace}/joint_states`,
    choreonoidRos: bodyRos2 !== undefined,
    fixedRoot: b.fixedRoot,
    staticModel: b.staticModel,
    parameters: {
      body_file: b.path!,
      frame_prefix: `${nodeName}/`,
      placement_frame: WORLD_FRAME,
      placement: placementOfPose(b.initialRootPose),
      placement_topic: !b.fixedRoot && source ? source.topic : '',
      placement_topic_type: !b.fixedRoot && source ? source.type : 'odometry',
      placement_odom_frame: !b.fixedRoot && source?.type === 'odometry' ? ODOM_FRAME : '',
      root_joint: rootJointOverride(b),
      initial_joint_positions: initialJoints(b),
      device_input_namespace: namespace,
      ros2_control: ros2Control,
    },
    warnings,
  };
}

/** How moveit.launch.py serves `body` for planning among the project's static bodies. */
function planningLaunch(project: Project, body: BodyLaunch): PlanningLaunch {
  const { ros2_control: _ros2Control, ...rest } = body.parameters;
  return {
    itemName: body.itemName,
    namespace: '',
    nodeName: 'body_bridge',
    jointStatesTopic: body.jointStatesTopic,
    parameters: {
      ...rest,
      // MoveIt's robot model is the URDF, unprefixed; its CurrentStateMonitor looks a free root up in TF by that name.
      frame_prefix: '',
      free_root_frame: '',
      planning_scene_project: project.file,
      planning_robot: body.itemName,
      // project.launch.py's node for the body relays its sensors already.
      relay_devices: false,
      publish_robot_description_semantic: true,
    },
  };
}

/** body_bridge's parameters for the body simulation.launch.py simulates in a user's project (simulatedBodyParameters). */
export interface SimulatedBodyParameters {
  placement_frame: string;
  placement: number[];
  /** A driven base's odometry frame (REP-105): world → odom where it starts, odom → root from its drive. */
  placement_odom_frame?: string;
  free_root_frame: string;
  root_joint: string;
  initial_joint_positions: string[];
  planning_scene_project?: string;
  planning_robot?: string;
}

/** The odometry frame diff_drive_controller publishes odom → base in (its odom_frame_id, control/controllers.ts). */
export const ODOM_FRAME = 'odom';

/**
 * How body_bridge serves the body that a user's project simulates under ros2_control (simulation.launch.py
 * project:=), beside what the launch gives it (robot_state_publisher in the item's namespace, ros2_control, the
 * controller's joint_states): placed in `world` where the project starts it, with the project's static bodies in
 * MoveIt's planning scene. A fixed base stands there for good. A base a diff_drive_controller drives gets
 * REP-105's frames: world → odom on /tf_static at that start pose (where its odometry starts counting) and
 * odom → root from the drive, so rviz, TF and MoveIt's virtual joint (world → root, read from TF) see it drive
 * through the world; the floor its wheels stand on is allowed against them in MoveIt's collision matrix
 * (touchingBase in src/moveit/planning-scene.ts).
 */
export function simulatedBodyParameters(project: Project, body: LoadedProjectBody, options: { driven: boolean }): SimulatedBodyParameters {
  const placed = {
    placement_frame: WORLD_FRAME,
    placement: placementOfPose(body.initialRootPose),
    // placement_frame replaces free_root_frame (the node refuses both).
    free_root_frame: '',
    root_joint: rootJointOverride(body),
    initial_joint_positions: initialJoints(body),
    planning_scene_project: project.file,
    planning_robot: body.itemName,
  };
  return options.driven ? { ...placed, placement_odom_frame: ODOM_FRAME } : placed;
}

/**
 * The same for a driven base simulated from its model alone, in the project body-bridge control writes for it
 * (`projectFile`, the body item `itemName` at `rootPose`): that project's world is the world (its floor in the
 * planning scene), and REP-105's frames hang from it where the project starts the body. Other models alone get
 * no world: a fixed base is the URDF's root, a free root stands in world at its initial pose (free_root_frame).
 */
export function generatedBodyParameters(projectFile: string, itemName: string, rootPose: Pose): SimulatedBodyParameters {
  return {
    placement_frame: WORLD_FRAME,
    placement: placementOfPose(rootPose),
    placement_odom_frame: ODOM_FRAME,
    free_root_frame: '',
    root_joint: '',
    initial_joint_positions: [],
    planning_scene_project: projectFile,
    planning_robot: itemName,
  };
}

/** The launch plan of a read project. */
export function launchPlan(project: Project, options: LaunchPlanOptions = {}): LaunchPlan {
  const bodies: BodyLaunch[] = [];
  const leftOut: LeftOutBody[] = [];
  const names = namespaceNames(project.bodies.filter((b): b is LoadedProjectBody => b.kind === 'loaded'));
  const diagnostics: Diagnostic[] = [];
  project.bodies.forEach((b, index) => {
    if (b.kind === 'failed') {
      leftOut.push({ index, itemName: b.itemName, itemPath: b.itemPath, errors: b.errors });
      return;
    }
    const named = names.get(b)!;
    if ('errors' in named) {
      leftOut.push({ index, itemName: b.itemName, itemPath: b.itemPath, errors: named.errors });
      return;
    }
    const launch = bodyLaunch(b, index, named.name, options);
    if (named.warning) launch.warnings.unshift(named.warning);
    bodies.push(launch);
  });
  const clocks = project.worlds.filter((w) => w.ros.worldRos2);
  const clockWorld = clocks[0];
  if (clocks.length > 1) {
    const second = clocks[1]!.ros.worldRos2!;
    diagnostics.push(warning(second.at, `several WorldROS2Items publish /clock (${clocks.map((w) => `"${w.itemName}"`).join(', ')}): choreonoid_ros does not keep them consistent`));
  }
  const worldsServed = new Set(bodies.map((b) => b.world).filter((w): w is string => w !== null));
  if (worldsServed.size > 1) {
    const w = project.worlds.find((x) => x.itemPath === [...worldsServed][1])!;
    diagnostics.push(warning(w.at, `the project has bodies in ${worldsServed.size} world items (${[...worldsServed].join(', ')}): they are all placed in the one frame ${WORLD_FRAME}`));
  }
  const unknownPoseSources = Object.keys(options.poseSources ?? {}).filter((name) => !bodies.some((b) => b.itemName === name));
  let planning: PlanningLaunch | null = null;
  let planningProblem: string | null = null;
  if (options.planningRobot !== undefined) {
    const robot = bodies.find((b) => b.itemName === options.planningRobot);
    const gone = leftOut.find((b) => b.itemName === options.planningRobot);
    if (robot?.staticModel) planningProblem = `body item "${robot.itemName}" does not move (fixed root, no moving joint): there is nothing to plan for`;
    else if (robot) planning = planningLaunch(project, robot);
    else if (gone) planningProblem = `body item "${gone.itemName}" is not served (see its errors)`;
    else planningProblem = `the project has no body item "${options.planningRobot}" (its bodies: ${bodies.map((b) => b.itemName).join(', ') || 'none'})`;
  }
  return {
    project: project.file,
    worldFrame: WORLD_FRAME,
    clock: clockWorld ? { node: `/${clockWorld.ros.worldRos2!.nodeName}`, worldItem: clockWorld.itemName } : null,
    bodies,
    leftOut,
    planning,
    unknownPoseSources,
    planningProblem,
    diagnostics,
  };
}
