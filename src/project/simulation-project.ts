// A small Choreonoid project (.cnoid) that simulates one model under ros2_control: a world with the floor
// Choreonoid's samples use, the AIST simulator, the body with BodyROS2Item (sensors, joint_states) and
// ROS2ControlItem (the controller manager inside the simulation), and WorldROS2Item (/clock). Written in
// the keys Choreonoid's item restore() functions read (BodyItem.cpp, SimulatorItem.cpp,
// AISTSimulatorItem.cpp; choreonoid_ros's ROS2ControlItem.cpp, BodyROS2Item.cpp, WorldROS2Item.cpp).
//
// - A fixed-base body (an arm) is fixed (`fix_root`) at the model's root pose; a free one stands where its
//   root pose puts it, on the floor whose top is z = 0. For a fixed-base body the floor is only seen: it does not
//   collide, unless the body has free parts (selfCollision), which must rest on it. MoveIt's planning scene has no
//   floor (the launch gives move_group the robot alone), so MoveIt plans paths through it, and a simulated floor
//   stopped such a path — the trajectory controller aborted on its path tolerance (seen live with PA10: the same
//   goals all succeed without the floor's collisions).
// - `initial_root_translation` / `initial_root_rotation` as well as the current pose: without them the
//   simulation starts the body at the origin whatever the scene shows (shared/peers.md).
// - Self-collision only for a body with a free joint below its root (selfCollision): without it SR1-floor-box.body's
//   robot, a free sub-body standing on the body's own Floor link, falls through it (the corpus sweep: 180 m in 6 s);
//   Choreonoid's own projects for such models turn it on (SR1LiftupOneModel.cnoid, WRS2018's T3.cnoid for CarT3).
// - The AIST simulator at the given step with semi-implicit Euler (its default, which the gain design in
//   src/control/gains.ts assumes), in real time (compensatory), recording off (a long run keeps no history).
import { Document, Scalar, isScalar, visit } from 'yaml';
import { type DeviceFrames, deviceFrames } from '../kinematics/device-frames.js';
import { quaternionFromMatrix } from '../model/math.js';
import type { Pose, RobotModel } from '../model/types.js';
import { WORLD_FRAME, generatedBodyParameters, placementOfPose } from './launch-plan.js';
import { rosNodeName } from './ros-items.js';

export interface SimulationProjectOptions {
  /** Absolute path of the model file Choreonoid loads. */
  modelFile: string;
  /** The body item's name (the model's name). */
  bodyName: string;
  /** The model's root joint is fixed: the body is fixed in the world. */
  fixedRoot: boolean;
  /** Where the root stands: the model's initial root pose. */
  rootPose: Pose;
  /** ROS2ControlItem's namespace: '' or absolute. */
  namespace: string;
  /** The AIST simulator's step (s). */
  timeStep: number;
  /** BodyROS2Item's joint_states rate (Hz). */
  jointStateRate?: number;
  /**
   * The body's links collide with each other (by the model's collision_detection_rules): for a body with a free joint
   * below its root, whose sub-bodies meet the rest of it only so (Choreonoid's BodyCollisionLinkFilter enables no pair
   * within a body otherwise). Default false.
   */
  selfCollision?: boolean;
  /**
   * Absolute path of a Python script (deviceNamingScript) run once the project is loaded, before the simulation
   * starts: it names the body's nameless devices. Without it, none.
   */
  deviceNamingScript?: string;
}

/** Choreonoid's floor: a 10 m × 10 m × 0.2 m box whose top is at z = 0. */
export const FLOOR_FILE = '${SHARE}/model/misc/floor.body';

/** A rotation as Choreonoid writes it: axis and angle in degrees, the identity as [1, 0, 0, 0]. */
export function degreeAngleAxis(rotation: Pose['rotation']): [number, number, number, number] {
  const q = quaternionFromMatrix(rotation);
  const s = Math.hypot(q.x, q.y, q.z);
  if (s < 1e-12) return [1, 0, 0, 0];
  const angle = 2 * Math.atan2(s, q.w);
  const round = (x: number): number => Number(x.toPrecision(12));
  return [round(q.x / s), round(q.y / s), round(q.z / s), round((angle * 180) / Math.PI)];
}

const round = (v: readonly number[]): number[] => v.map((x) => Number(x.toPrecision(12)));

interface Item {
  name: string;
  plugin: string;
  class: string;
  checked?: boolean;
  data?: Record<string, unknown>;
  children?: Item[];
}

/** Items as Choreonoid stores them: ids in tree order, the root builtin. */
function stored(items: Item, next = { id: 0 }, root = true): Record<string, unknown> {
  return {
    id: next.id++,
    name: items.name,
    plugin: items.plugin,
    class: items.class,
    ...(root ? { is_builtin_item: true } : {}),
    ...(items.checked ? { is_checked: true } : {}),
    ...(items.data ? { data: items.data } : {}),
    ...(items.children ? { children: items.children.map((c) => stored(c, next, false)) } : {}),
  };
}

/** The .cnoid text. */
export function simulationProject(o: SimulationProjectOptions): string {
  const at = (pose: Pose): Record<string, unknown> => ({
    root_translation: round(pose.translation),
    root_rotation: degreeAngleAxis(pose.rotation),
    initial_root_translation: round(pose.translation),
    initial_root_rotation: degreeAngleAxis(pose.rotation),
  });
  const body: Item = {
    name: o.bodyName,
    plugin: 'Body',
    class: 'BodyItem',
    checked: true,
    data: { file: o.modelFile, format: 'CHOREONOID-BODY', ...at(o.rootPose), fix_root: o.fixedRoot, collision_detection: true, self_collision_detection: o.selfCollision ?? false, lock_location: false, scene_sensitive: true },
    children: [
      { name: 'BodyROS2', plugin: 'ROS2', class: 'BodyROS2Item', data: { joint_state_update_rate: o.jointStateRate ?? 100 } },
      { name: 'ROS2Control', plugin: 'ROS2', class: 'ROS2ControlItem', ...(o.namespace !== '' ? { data: { namespace: o.namespace } } : {}) },
      // PythonScriptItem::restore runs it as the project's final process (executionOnLoading), in the foreground:
      // before --start-simulation clones the body for the simulator, whose devices BodyROS2Item names its topics after.
      ...(o.deviceNamingScript !== undefined
        ? [{ name: 'NameDevices', plugin: 'Python', class: 'PythonScriptItem', data: { file: o.deviceNamingScript, executionOnLoading: true, backgroundExecution: false } }]
        : []),
    ],
  };
  const floor: Item = {
    name: 'Floor',
    plugin: 'Body',
    class: 'BodyItem',
    checked: true,
    data: {
      file: FLOOR_FILE,
      format: 'CHOREONOID-BODY',
      ...at({ translation: [0, 0, -0.1], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }),
      fix_root: true,
      // A free body stands on it; a bolted arm passes through it, as MoveIt, which does not know the floor, plans. A
      // bolted body with free parts (selfCollision: a fire cabinet's hose nozzle lying beside it) needs it for them.
      collision_detection: !o.fixedRoot || (o.selfCollision ?? false),
      lock_location: true,
      scene_sensitive: false,
    },
  };
  const simulator: Item = {
    name: 'AISTSimulator',
    plugin: 'Body',
    class: 'AISTSimulatorItem',
    data: {
      time_step: o.timeStep,
      realtime_sync_mode: 'compensatory',
      recording: 'off',
      time_range_mode: 'unlimited',
      output_device_states: true,
      // A body with a free joint below its root (a prop's door, a nozzle) needs every link's position written out;
      // when this is off, the AIST simulator asks whether to turn it on in a modal dialog, which nobody answers
      // under --no-window: the simulation never starts (the corpus sweep's CarT3, ContinuousTrackVehicle).
      output_all_link_positions: true,
      use_controller_threads: true,
      dynamics_mode: 'Forward dynamics',
      integration_mode: 'semi-implicit_euler',
      gravity: [0, 0, -9.80665],
    },
  };
  const world: Item = {
    name: 'World',
    plugin: 'Body',
    class: 'WorldItem',
    data: { collision_detection: false, collision_detector: 'AISTCollisionDetector', default_material_table_file: '${SHARE}/default/materials.yaml' },
    children: [body, floor, simulator, { name: 'WorldROS2', plugin: 'ROS2', class: 'WorldROS2Item', data: { max_clock_publishing_rate: 100 } }],
  };
  const doc = new Document({ items: stored({ name: 'RootItem', plugin: 'Base', class: 'RootItem', children: [world] }) });
  visit(doc, {
    // Vectors on one line, as Choreonoid writes them.
    Seq: (_, node) => {
      if (node.items.every(isScalar)) node.flow = true;
    },
    // Strings double-quoted: a YAML 1.1 reader takes a bare `off` for a boolean.
    Scalar: (key, node) => {
      if (key !== 'key' && typeof node.value === 'string') node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  doc.commentBefore =
    ` Choreonoid project generated by body_bridge for ${o.bodyName} under ros2_control (docs/control.md):\n` +
    ` the AIST simulator at ${o.timeStep} s, ROS2ControlItem${o.namespace ? ` in ${o.namespace}` : ''}, /clock from WorldROS2Item.`;
  return doc.toString({ lineWidth: 0 });
}

/** What rclcpp takes as a node name (and a namespace token): letters, digits and '_', not starting with a digit. */
const VALID_NODE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;

/**
 * The body item's name in the generated project. BodyROS2Item names its ROS node after the item, '-' made '_'
 * (choreonoid_ros BodyROS2Item::initializeRosNode), and rclcpp aborts Choreonoid on a name it refuses: a body
 * named 2F-85 (Robotiq) gives "2F_85", "node name must not start with a number". The model's name where
 * choreonoid_ros can use it; otherwise its other characters made '_' and, before a leading digit, '_'.
 */
export function simulationBodyItemName(modelName: string): string {
  if (VALID_NODE_NAME.test(rosNodeName(modelName))) return modelName;
  const token = modelName.replace(/[^A-Za-z0-9_-]/g, '_');
  if (token === '') return 'body';
  return /^[0-9]/.test(token) ? `_${token}` : token;
}

/** The devices BodyROS2Item publishes a topic for, as its createSensors extracts them (lights, holders and the like it does not). */
const PUBLISHED_TYPES = new Set(['Camera', 'RangeCamera', 'RangeSensor', 'ForceSensor', 'RateGyroSensor', 'AccelerationSensor', 'Imu']);

/** A nameless device and the name it is given in the simulation: its frame name (kinematics/device-frames). */
export interface DeviceName {
  /** Index in the model's devices (Choreonoid's Body::device order). */
  index: number;
  /** Choreonoid's Device::typeName, checked before the device is renamed. */
  type: string;
  name: string;
}

/**
 * The nameless devices BodyROS2Item would publish, each with its frame name. BodyROS2Item names a device's topic
 * `<node>/<device name>`, and for a nameless one that is `<node>/`, which rclcpp refuses ("topic name must not end
 * with a forward slash"): Choreonoid aborts (HRP4C.body's AccelerationSensor and RateGyroSensor, SR1Hand.body's
 * ForceSensor). Named after the frame the node gives the device, its messages' frame_id (the device's name) is
 * that frame.
 */
export function namelessDeviceNames(model: RobotModel, frames: readonly DeviceFrames[] = deviceFrames(model)): DeviceName[] {
  return frames
    .filter((f) => model.devices[f.device]!.name === '' && PUBLISHED_TYPES.has(model.devices[f.device]!.type))
    .map((f) => ({ index: f.device, type: model.devices[f.device]!.type, name: f.frame }));
}

/**
 * The Python script (Choreonoid's API) that names those devices in the body item's body before the simulation
 * clones it. A device found otherwise than expected (another type, already named) is left as it is, with a line
 * on Choreonoid's output saying so.
 */
export function deviceNamingScript(itemName: string, names: readonly DeviceName[]): string {
  const py = (s: string): string => JSON.stringify(s);
  return [
    `# Generated by body_bridge (body-bridge control --project): names the nameless devices of body item ${py(itemName)},`,
    '# whose topics choreonoid_ros\'s BodyROS2Item would name "<node>/", which rclcpp refuses (Choreonoid aborts).',
    'from cnoid.Base import RootItem',
    'from cnoid.BodyPlugin import BodyItem',
    '',
    `ITEM = ${py(itemName)}`,
    '# (device index, Device::typeName, name)',
    'NAMES = [',
    ...names.map((n) => `    (${n.index}, ${py(n.type)}, ${py(n.name)}),`),
    ']',
    '',
    'items = [i for i in RootItem.instance.getDescendantItems(BodyItem) if i.name == ITEM]',
    'if not items:',
    '    print("body_bridge: no body item %s: its devices keep their names" % ITEM)',
    'else:',
    '    body = items[0].body',
    '    for index, type_name, name in NAMES:',
    '        device = body.device(index) if index < body.numDevices else None',
    '        if device is None or device.typeName != type_name or device.name != "":',
    '            print("body_bridge: device %d of %s is not a nameless %s: left as it is" % (index, ITEM, type_name))',
    '        else:',
    '            device.setName(name)',
    '',
  ].join('\n');
}

/**
 * body_bridge's parameters for the body in the generated project, where the defaults would not match it (empty
 * when they do): the namespace choreonoid_ros publishes the devices in when the item is not named after the
 * model; the nameless devices' topics (device_input_topics, keyed by frame); and, for a free body the project
 * places on the floor away from its model pose (lifted out of it, or set down on it), not driven, `world` → root at
 * the placed pose in place of free_root_frame's model pose.
 * A driven base drives in the project's world (REP-105, generatedBodyParameters): world → odom where the project
 * starts it (`rootPose`, placed or not), the project (`projectFile`) as MoveIt's scene.
 */
export function generatedProjectParameters(o: {
  modelName: string;
  itemName: string;
  names: readonly DeviceName[];
  /** The free root's pose in the project, when it is not the model's; null otherwise. */
  placedRootPose: Pose | null;
  driven: boolean;
  /** Where the project starts the root, and the project's file: a driven base's world. */
  rootPose: Pose;
  projectFile: string;
}): Record<string, string | string[] | number[]> {
  const namespace = `/${rosNodeName(o.itemName)}`;
  const out: Record<string, string | string[] | number[]> = {};
  if (namespace !== `/${rosNodeName(o.modelName)}`) out.device_input_namespace = namespace;
  if (o.names.length > 0) out.device_input_topics = o.names.map((n) => `${n.name}=${namespace}/${n.name}`);
  if (o.placedRootPose && !o.driven) {
    // placement_frame replaces free_root_frame (the node refuses both).
    Object.assign(out, { placement_frame: WORLD_FRAME, placement: placementOfPose(o.placedRootPose), free_root_frame: '' });
  }
  if (o.driven) {
    // An empty list has no ROS parameter type (rcl refuses it): left out, the node's default is empty.
    const placed = Object.entries(generatedBodyParameters(o.projectFile, o.itemName, o.rootPose)).filter(([, v]) => !(Array.isArray(v) && v.length === 0));
    Object.assign(out, Object.fromEntries(placed));
  }
  return out;
}
