// A small Choreonoid project (.cnoid) that simulates one model under ros2_control: a world with the floor
// Choreonoid's samples use, the AIST simulator, the body with BodyROS2Item (sensors, joint_states) and
// ROS2ControlItem (the controller manager inside the simulation), and WorldROS2Item (/clock). Written in
// the keys Choreonoid's item restore() functions read (BodyItem.cpp, SimulatorItem.cpp,
// AISTSimulatorItem.cpp; choreonoid_ros's ROS2ControlItem.cpp, BodyROS2Item.cpp, WorldROS2Item.cpp).
//
// - A fixed-base body (an arm) is fixed (`fix_root`) at the model's root pose; a free one stands where its
//   root pose puts it, on the floor whose top is z = 0. For a fixed-base body the floor is only seen: it does not
//   collide. MoveIt's planning scene has no floor (the launch gives move_group the robot alone), so MoveIt plans
//   paths through it, and a simulated floor stopped such a path — the trajectory controller aborted on its path
//   tolerance (seen live with PA10: the same goals all succeed without the floor's collisions).
// - `initial_root_translation` / `initial_root_rotation` as well as the current pose: without them the
//   simulation starts the body at the origin whatever the scene shows (shared/peers.md).
// - The AIST simulator at the given step with semi-implicit Euler (its default, which the gain design in
//   src/control/gains.ts assumes), in real time (compensatory), recording off (a long run keeps no history).
import { Document, Scalar, isScalar, visit } from 'yaml';
import { quaternionFromMatrix } from '../model/math.js';
import type { Pose } from '../model/types.js';

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
    data: { file: o.modelFile, format: 'CHOREONOID-BODY', ...at(o.rootPose), fix_root: o.fixedRoot, collision_detection: true, self_collision_detection: false, lock_location: false, scene_sensitive: true },
    children: [
      { name: 'BodyROS2', plugin: 'ROS2', class: 'BodyROS2Item', data: { joint_state_update_rate: o.jointStateRate ?? 100 } },
      { name: 'ROS2Control', plugin: 'ROS2', class: 'ROS2ControlItem', ...(o.namespace !== '' ? { data: { namespace: o.namespace } } : {}) },
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
      // A free body stands on it; a bolted arm passes through it, as MoveIt, which does not know the floor, plans.
      collision_detection: !o.fixedRoot,
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
