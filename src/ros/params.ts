// The node's parameters: names, types, defaults, documentation and validation. robot_state_publisher's
// names keep its meaning (publish_frequency, ignore_timestamp, frame_prefix); the rest are body_bridge's.
// The same table drives rclnodejs declarations, config/bridge.params.yaml's documentation and the dry run.

import { CONTROL_MODES, isControlMode, parseJointModes } from '../control/modes.js';
import { LINK_NAMINGS, type LinkNaming, ROOT_INERTIAS, type RootInertia, type RosConventions } from '../model/ros-conventions.js';
import { ROOT_JOINTS } from '../model/root-joint.js';
import { ODOMETRY_PADDING } from '../moveit/planning-scene.js';

/** The naming and root-inertia conventions the parameters ask for (validated values). */
export const conventionsOfParams = (p: NodeParams): RosConventions => ({
  linkNames: p.link_names as LinkNaming,
  rootInertia: p.root_inertia as RootInertia,
  worldFrame: p.world_frame,
});

export interface NodeParams {
  /** The .body / .yaml / .wrl file to serve. Required. */
  body_file: string;
  /** Hz; the most often one moving joint's transform is published (robot_state_publisher). 0 = every message. */
  publish_frequency: number;
  /** Publish every joint_states message whatever its stamp (robot_state_publisher). */
  ignore_timestamp: boolean;
  /** Seconds a joint_states stamp may lie ahead of the node clock (or jump back); 0 = no checks. */
  stamp_tolerance: number;
  /** Prepended verbatim to every frame id we publish (robot_state_publisher), e.g. `robot1/`. */
  frame_prefix: string;
  /** Publish the model's initial joint positions on joint_states until another publisher appears. */
  publish_joint_states: boolean;
  /** Per-joint overrides of those positions, `JOINT=VALUE` (rad or m), as in `body-bridge tf --joint`. */
  initial_joint_positions: string[];
  /** Where generated meshes are written; '' = the per-user cache directory. */
  mesh_dir: string;
  /** Reference meshes inside ROS packages by package:// instead of file://. */
  package_uris: boolean;
  /** '' = none; otherwise a world link above the root (fixed root → static world→root transform). */
  world_frame: string;
  /** Free (floating) root only: publish this frame → root on /tf_static at the initial root pose; '' = none. */
  free_root_frame: string;
  /** `distinct`: a link named like a joint is `<name>_link` (SDFormat/Gazebo); `model`: Choreonoid's link names. */
  link_names: string;
  /** `child`: the root's mass on a fixed `<root>_inertia` link (kdl_parser); `root`: on the root link. */
  root_inertia: string;
  /** Reload when body_file (or a file it includes) changes on disk. */
  watch_body_file: boolean;
  /** Seconds between on-disk change checks when watching. */
  watch_period: number;
  /** Namespace choreonoid_ros publishes the body's devices under; '' = `/<body name>` (ros/device-relay.ts). */
  device_input_namespace: string;
  /** Per-device input topics, `DEVICE=TOPIC`, replacing `<namespace>/<device>`. */
  device_input_topics: string[];
  /** Undo choreonoid_ros's non-SI force/torque and acceleration scaling. */
  undo_upstream_scaling: boolean;
  /** Publish CameraInfo at the camera frame rate while no image arrives. */
  camera_info_without_images: boolean;
  /** Publish the MoveIt SRDF (`body-bridge moveit`'s) on robot_description_semantic and in that parameter. */
  publish_robot_description_semantic: boolean;
  /** Random states for the SRDF's "never in collision" pairs (MoveIt Setup Assistant: 10000). */
  collision_samples: number;
  /** '' = none; a frame several bodies share (a project's `world`), never prefixed, that the root is placed in. */
  placement_frame: string;
  /** The root's pose in placement_frame, [x, y, z, qx, qy, qz, qw]; [] = the model's initial root pose. */
  placement: number[];
  /** '' = none; where a free root's pose comes from (placement_topic_type), published on /tf per message. */
  placement_topic: string;
  /** `odometry` (nav_msgs/Odometry, relative to where the body started) or `pose_stamped` (geometry_msgs/PoseStamped in placement_frame). */
  placement_topic_type: string;
  /**
   * '' = none; a free root's odometry frame (REP-105): placement_frame → it on /tf_static at `placement`; odom → root
   * left to the drive, or from placement_topic's odometry.
   */
  placement_odom_frame: string;
  /** '' = no <ros2_control> block in robot_description; else every joint's mode for choreonoid_ros's ROS2ControlItem. */
  ros2_control: string;
  /** Per-joint modes instead, `JOINT=MODE`. */
  ros2_control_joint_modes: string[];
  /** '' = the roles inferred from the model; else a roles file (`JOINT: ROLE`) overriding them. */
  roles_file: string;
  /** '' = the model's root joint; `fixed` or `free` as a Choreonoid project's fix_root sets it for the body item. */
  root_joint: string;
  /** Relay the body's sensors from choreonoid_ros (false where another node relays them). */
  relay_devices: boolean;
  /** '' = none; a Choreonoid project whose static bodies go into MoveIt's planning scene (planning_scene). */
  planning_scene_project: string;
  /** The body item of that project this node serves (left out of the scene, its world the one planned in). */
  planning_robot: string;
  /** m; a driven base: how far MoveIt keeps the links it carries (its arm) from the planning scene's objects. */
  planning_padding: number;
}

export type ParamName = keyof NodeParams;
export type ParamValue = string | number | boolean | string[] | number[];
export type ParamKind = 'string' | 'double' | 'bool' | 'string_array' | 'double_array';

export interface ParamSpec {
  name: ParamName;
  kind: ParamKind;
  default: ParamValue;
  description: string;
  /** Range for doubles, inclusive. */
  range?: [number, number];
}

export const paramSpecs: readonly ParamSpec[] = [
  { name: 'body_file', kind: 'string', default: '', description: 'Robot model to serve: Choreonoid .body/.yaml or OpenHRP .wrl (required).' },
  {
    name: 'publish_frequency',
    kind: 'double',
    default: 20.0,
    range: [0, 1000],
    description: 'Hz; the most often a moving joint transform is published on /tf (as robot_state_publisher). 0 = on every joint_states message.',
  },
  { name: 'ignore_timestamp', kind: 'bool', default: false, description: 'Publish /tf for every joint_states message regardless of its stamp (as robot_state_publisher).' },
  {
    name: 'stamp_tolerance',
    kind: 'double',
    default: 5.0,
    range: [0, 1e9],
    description:
      'Seconds a joint_states stamp may lie ahead of the node clock (a message stamped further ahead is dropped with a warning: it would hold /tf back until the clock caught up, and tf2 listeners would refuse later transforms) or behind the last published stamp of its joints (further back: the publisher restarted, the timestamp cache is cleared). 0 = neither check (robot_state_publisher); not applied with ignore_timestamp.',
  },
  { name: 'frame_prefix', kind: 'string', default: '', description: "Prepended verbatim to every frame id, e.g. 'robot1/' (as robot_state_publisher)." },
  {
    name: 'publish_joint_states',
    kind: 'bool',
    default: true,
    description: 'Publish the initial joint positions on joint_states until another node publishes there (no joint_state_publisher needed for a first look).',
  },
  { name: 'initial_joint_positions', kind: 'string_array', default: [], description: "Overrides of those positions, 'JOINT=VALUE' in rad or m." },
  { name: 'mesh_dir', kind: 'string', default: '', description: "Directory for generated mesh files; '' = $XDG_CACHE_HOME/body_bridge/meshes (~/.cache/...)." },
  { name: 'package_uris', kind: 'bool', default: false, description: 'Reference mesh files inside ROS packages as package:// URIs instead of absolute file:// URIs.' },
  { name: 'world_frame', kind: 'string', default: '', description: "'' = none; otherwise a URDF world link above the root link (static world->root transform when the root is fixed)." },
  {
    name: 'free_root_frame',
    kind: 'string',
    default: '',
    description:
      "'' = none. For a model whose root link is free (a floating joint, e.g. a humanoid's WAIST): publish <free_root_frame> -> root on /tf_static at the body's initial root pose, standing in for the simulator or localisation that would publish it (MoveIt's floating virtual joint from 'world' needs it). Not part of the URDF. Leave empty when something else publishes that transform.",
  },
  {
    name: 'link_names',
    kind: 'string',
    default: 'distinct',
    description:
      "'distinct': a link named like a joint (Choreonoid's default) is published as <name>_link, which SDFormat/Gazebo require; joint names, and so joint_states, stay. 'model': Choreonoid's link names.",
  },
  {
    name: 'root_inertia',
    kind: 'string',
    default: 'child',
    description:
      "'child': the root link's mass and inertia move to a fixed child link <root>_inertia at the root's frame (kdl_parser, hence robot_state_publisher and MoveIt, ignore a root link's inertia and warn). 'root': left on the root link.",
  },
  { name: 'watch_body_file', kind: 'bool', default: true, description: 'Reload when the body file changes on disk (the last good model is kept if the new one fails).' },
  { name: 'watch_period', kind: 'double', default: 1.0, range: [0.05, 3600], description: 'Seconds between checks of the body file when watching.' },
  {
    name: 'device_input_namespace',
    kind: 'string',
    default: '',
    description: "Namespace choreonoid_ros (BodyROS2Item) publishes the body's sensors under; '' = /<body name> with '-' replaced by '_'.",
  },
  { name: 'device_input_topics', kind: 'string_array', default: [], description: "Per-device input topics, 'DEVICE=TOPIC', replacing <namespace>/<device>." },
  {
    name: 'undo_upstream_scaling',
    kind: 'bool',
    default: true,
    description: "Undo choreonoid_ros's non-SI scaling of force/torque (x1000) and linear acceleration (x10); off when the source is already SI.",
  },
  { name: 'camera_info_without_images', kind: 'bool', default: true, description: 'Publish CameraInfo at the camera frame rate while no image arrives (rviz camera frustums).' },
  {
    name: 'publish_robot_description_semantic',
    kind: 'bool',
    default: false,
    description: 'Publish the MoveIt SRDF (as body-bridge moveit writes it) on robot_description_semantic and in that read-only parameter, following every reload.',
  },
  {
    name: 'collision_samples',
    kind: 'double',
    default: 10000.0,
    range: [0, 10000000],
    description: 'Random states for the SRDF collision matrix ("never in collision" pairs); each reload takes about 0.1 to 3 s at 10000.',
  },
  {
    name: 'placement_frame',
    kind: 'string',
    default: '',
    description:
      "'' = none. A frame shared by several bodies (a Choreonoid project's 'world'), never prefixed by frame_prefix: publish placement_frame -> root, on /tf_static at 'placement' (a fixed root, or a free root without placement_topic: then with a warning that the pose is not live), or on /tf from placement_topic (a free root). Not with world_frame or free_root_frame.",
  },
  {
    name: 'placement',
    kind: 'double_array',
    default: [],
    description: "The root link's pose in placement_frame as [x, y, z, qx, qy, qz, qw] (m; a unit quaternion); [] = the body's initial root pose.",
  },
  {
    name: 'placement_topic',
    kind: 'string',
    default: '',
    description:
      "'' = none. For a free root: where its pose comes from (placement_topic_type), e.g. diff_drive_controller's odom; each message goes out on /tf as placement_frame -> root, stamped with the message's stamp.",
  },
  {
    name: 'placement_topic_type',
    kind: 'string',
    default: 'odometry',
    description:
      "'odometry': nav_msgs/Odometry, the root's motion since the body started (its pose is 'placement' composed with the odometry pose, as diff_drive_controller counts from where the robot stood). 'pose_stamped': geometry_msgs/PoseStamped, the root's pose in placement_frame.",
  },
  {
    name: 'placement_odom_frame',
    kind: 'string',
    default: '',
    description:
      "'' = none. For a free root (REP-105): its odometry frame, prefixed by frame_prefix like the body's frames. The node publishes placement_frame -> odom on /tf_static at 'placement', where odometry starts counting. Without placement_topic, odom -> root is left to the drive (diff_drive_controller's odom_frame_id). With an odometry placement_topic, the node publishes odom -> root from each message, the odometry pose as it is; a pose_stamped placement_topic ignores it.",
  },
  {
    name: 'ros2_control',
    kind: 'string',
    default: '',
    description: `'' = none. Otherwise robot_description carries the <ros2_control> block choreonoid_ros's ROS2ControlItem reads (as body-bridge control writes it), every moving joint commanded in this mode: ${CONTROL_MODES.join(', ')} (drive wheels in its velocity form). Run the node as robot_state_publisher in the item's namespace: the item reads that node's robot_description parameter.`,
  },
  {
    name: 'ros2_control_joint_modes',
    kind: 'string_array',
    default: [],
    description: "Per-joint modes instead of ros2_control's, 'JOINT=MODE'.",
  },
  {
    name: 'roles_file',
    kind: 'string',
    default: '',
    description:
      "'' = each joint's role as inferred from the model (docs/control.md, Joint roles). Otherwise a YAML file of 'JOINT: ROLE' overriding them, as body-bridge control --roles takes it: the <ros2_control> block's modes and the SRDF's planning groups follow the roles. Read at every load; a wrong file keeps the last good model and says where.",
  },
  {
    name: 'root_joint',
    kind: 'string',
    default: '',
    description:
      "'' = the model's root joint. 'fixed' or 'free': the root joint a Choreonoid project's fix_root gives the body item (Body::setRootLinkFixed), whatever the model file says: it decides the placement (static or live), the URDF world joint and MoveIt's virtual joint.",
  },
  {
    name: 'relay_devices',
    kind: 'bool',
    default: true,
    description: "Relay the body's sensors from choreonoid_ros to standard topics. false where another node of the same body relays them already (moveit.launch.py project_file:= beside project.launch.py).",
  },
  {
    name: 'planning_scene_project',
    kind: 'string',
    default: '',
    description:
      "'' = none. A Choreonoid project (.cnoid): its bodies that do not move (fixed root, no moving joint) go into MoveIt's planning scene as collision objects at their project poses, on planning_scene, expressed in this robot's planning frame; re-read when the project or a body file changes (the last good scene is kept while it is broken).",
  },
  {
    name: 'planning_robot',
    kind: 'string',
    default: '',
    description: "The body item of planning_scene_project this node serves: left out of the scene, and only the bodies of its world are put in. '' = every world's bodies.",
  },
  {
    name: 'planning_padding',
    kind: 'double',
    default: ODOMETRY_PADDING,
    range: [0, 1],
    description:
      "m; a driven base only (placement_odom_frame set, with planning_scene_project): how far MoveIt keeps the links the base carries (its arm) from the planning scene's objects (the scene's link_padding), for the odometry's error and the base's creep while the arm moves, MoveIt having the base where the odometry says. 0 = none (an arm that must reach into a shelf or touch a table).",
  },
];

export const ROOT_JOINT_VALUES = ['', ...ROOT_JOINTS] as const;

export const PLACEMENT_TOPIC_TYPES = ['odometry', 'pose_stamped'] as const;
export type PlacementTopicType = (typeof PLACEMENT_TOPIC_TYPES)[number];

export function defaultParams(): NodeParams {
  const out: Record<string, ParamValue> = {};
  for (const s of paramSpecs) out[s.name] = Array.isArray(s.default) ? ([...s.default] as ParamValue) : s.default;
  return out as unknown as NodeParams;
}

export const specOf = (name: string): ParamSpec | undefined => paramSpecs.find((s) => s.name === name);

const FRAME_ID = /^[A-Za-z0-9_/.-]*$/;

/** `JOINT=VALUE` → [joint, value]; a reason string when malformed. */
export function parseJointAssignment(entry: string): [string, number] | string {
  const eq = entry.lastIndexOf('=');
  if (eq <= 0) return `'${entry}' is not JOINT=VALUE`;
  const joint = entry.slice(0, eq).trim();
  const text = entry.slice(eq + 1).trim();
  const value = text === '' ? NaN : Number(text);
  if (joint === '') return `'${entry}' has no joint name`;
  if (!Number.isFinite(value)) return `'${entry}': '${text}' is not a finite number`;
  return [joint, value];
}

/** Why `value` is not acceptable for parameter `name`, or null when it is. */
export function validateParam(name: string, value: unknown): string | null {
  const spec = specOf(name);
  if (!spec) return `unknown parameter '${name}'`;
  switch (spec.kind) {
    case 'string':
      if (typeof value !== 'string') return `${name} must be a string`;
      break;
    case 'bool':
      if (typeof value !== 'boolean') return `${name} must be a bool`;
      break;
    case 'double':
      if (typeof value !== 'number' || Number.isNaN(value)) return `${name} must be a number`;
      if (spec.range && (value < spec.range[0] || value > spec.range[1])) {
        return `${name} must be between ${spec.range[0]} and ${spec.range[1]} (got ${value})`;
      }
      break;
    case 'string_array':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return `${name} must be a list of strings`;
      break;
    case 'double_array':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isFinite(v))) return `${name} must be a list of finite numbers`;
      break;
  }
  if (name === 'body_file' && (value as string).trim() === '') return 'body_file must name a model file (.body, .yaml or .wrl)';
  if ((name === 'frame_prefix' || name === 'world_frame' || name === 'free_root_frame' || name === 'placement_frame' || name === 'placement_odom_frame') && !FRAME_ID.test(value as string)) {
    return `${name} may contain only letters, digits, '_', '-', '.', '/' (got '${String(value)}')`;
  }
  if (name === 'link_names' && !(LINK_NAMINGS as readonly string[]).includes(value as string)) {
    return `link_names must be one of ${LINK_NAMINGS.join(', ')} (got '${String(value)}')`;
  }
  if (name === 'root_inertia' && !(ROOT_INERTIAS as readonly string[]).includes(value as string)) {
    return `root_inertia must be one of ${ROOT_INERTIAS.join(', ')} (got '${String(value)}')`;
  }
  if (name === 'placement') {
    const v = value as number[];
    if (v.length !== 0 && v.length !== 7) return `placement must be [] or [x, y, z, qx, qy, qz, qw] (got ${v.length} numbers)`;
    const norm = Math.hypot(v[3] ?? 1, v[4] ?? 0, v[5] ?? 0, v[6] ?? 0);
    if (Math.abs(norm - 1) > QUATERNION_TOLERANCE) return `placement: the quaternion [${v.slice(3).join(', ')}] is not a unit quaternion (norm ${norm})`;
  }
  if (name === 'root_joint' && !(ROOT_JOINT_VALUES as readonly string[]).includes(value as string)) {
    return `root_joint must be '' (the model's), 'fixed' or 'free' (got '${String(value)}')`;
  }
  if (name === 'placement_topic_type' && !(PLACEMENT_TOPIC_TYPES as readonly string[]).includes(value as string)) {
    return `placement_topic_type must be one of ${PLACEMENT_TOPIC_TYPES.join(', ')} (got '${String(value)}')`;
  }
  if (name === 'device_input_topics') {
    for (const entry of value as string[]) {
      const eq = entry.indexOf('=');
      if (eq <= 0 || entry.slice(eq + 1).trim() === '') return `device_input_topics: '${entry}' is not DEVICE=TOPIC`;
    }
  }
  if (name === 'ros2_control' && value !== '' && !isControlMode(value as string)) {
    return `ros2_control must be '' (none) or one of ${CONTROL_MODES.join(', ')} (got '${String(value)}')`;
  }
  if (name === 'ros2_control_joint_modes') {
    const parsed = parseJointModes(value as string[]);
    if (typeof parsed === 'string') return `ros2_control_joint_modes: ${parsed}`;
  }
  if (name === 'initial_joint_positions') {
    for (const entry of value as string[]) {
      const parsed = parseJointAssignment(entry);
      if (typeof parsed === 'string') return `initial_joint_positions: ${parsed}`;
    }
  }
  return null;
}

/** How far a placement quaternion's norm may be from 1 (four decimals, as people type them); it is normalised. */
export const QUATERNION_TOLERANCE = 1e-3;

/** Validates a whole change set against the current values; the first reason refuses all of it (atomic). */
export function validateChanges(changes: Partial<Record<string, unknown>>): string | null {
  for (const [name, value] of Object.entries(changes)) {
    const reason = validateParam(name, value);
    if (reason) return reason;
  }
  return null;
}

/**
 * Why a whole set of values contradicts itself, or null. Each of placement_frame, world_frame and
 * free_root_frame gives the root a parent frame; two of them would give it two parents (tf2 keeps one at
 * random) or put the body's initial pose in twice.
 */
export function validateCombination(p: NodeParams): string | null {
  if (p.placement_frame === '') return null;
  if (p.world_frame !== '') {
    return `placement_frame '${p.placement_frame}' and world_frame '${p.world_frame}' both place the root link: world_frame adds a URDF link above it at the body's initial pose, placement_frame places it in a frame other bodies share; set one of them to ''`;
  }
  if (p.free_root_frame !== '') {
    return `placement_frame '${p.placement_frame}' and free_root_frame '${p.free_root_frame}' both give a free root its parent: placement_frame (with placement and placement_topic) replaces free_root_frame; set free_root_frame to ''`;
  }
  return null;
}

/** Integers arrive as numbers or bigints depending on the client: accept both for doubles. */
export function coerceParam(name: string, value: unknown): unknown {
  const spec = specOf(name);
  if (spec?.kind === 'double' && typeof value === 'bigint') return Number(value);
  if (spec?.kind === 'double_array' && (Array.isArray(value) || ArrayBuffer.isView(value))) {
    return Array.from(value as ArrayLike<unknown>, (v) => (typeof v === 'bigint' ? Number(v) : v));
  }
  return value;
}
