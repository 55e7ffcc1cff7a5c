// The world scene of test/ros-live-world.test.ts: a Choreonoid project of two robots — Choreonoid's PA10 bolted to
// the floor (a fixed-base arm) and the Rover (a free root, with a camera, a laser scanner and an IMU) — and three
// obstacles at known poses (a red pillar in the arm's way, a blue cabinet behind it, a magenta wall) on a floor.
// Everything the test measures against is written here, and the project file is made from it (projectText).
import type { Mat3, Vec3 } from '../../../src/model/types.js';

export const SCENE_DIR = new URL('.', import.meta.url).pathname;
export const PROJECT_FILE = 'World.cnoid';
export const ARM = 'Arm';
export const ROVER = 'Rover';
export const MOTION_FILE = 'arm-poses.seq';
/** The project kept in the repository (README's screenshot), its arm holding its last pose from the start. */
export const SHOWCASE_MOTION_FILE = 'ArmPose.seq';
/** The AIST simulator's step (s): BodyMotionControllerItem plays a motion at exactly this rate. */
export const TIME_STEP = 0.001;
/** Where the Rover's ground truth is published (geometry_msgs/PoseStamped in world), from the probe's log. */
export const ROVER_POSE_TOPIC = '/Rover/ground_truth';

export interface Placement {
  translation: Vec3;
  /** About world z, degrees. */
  yawDeg: number;
}

export interface SceneBody extends Placement {
  name: string;
  file: string;
  /** The colour rviz draws it in (its material's diffuse colour), for the screenshot. */
  colour: 'grey' | 'red' | 'blue' | 'magenta' | 'yellow' | 'green';
}

export interface Obstacle extends SceneBody {
  /** The boxes (and cylinders) of its collision geometry, in the world: what FCL checks trajectories against. */
  shapes: { kind: 'box'; centre: Vec3; size: Vec3 }[];
}

/** The arm's base stands at the world origin; the floor's top is 1 cm below it (MoveIt would find a base resting on it in collision). */
export const FLOOR: Obstacle = { name: 'Floor', file: 'Floor.body', translation: [0.5, 0, -0.06], yawDeg: 0, colour: 'grey', shapes: [{ kind: 'box', centre: [0.5, 0, -0.06], size: [8, 8, 0.1] }] };
/** In front of the arm (+x), 0.55 m from its axis: a sweep at shoulder height from the arm's right to its left passes through it. */
export const PILLAR: Obstacle = { name: 'Pillar', file: 'Pillar.body', translation: [0.55, 0, 0.59], yawDeg: 0, colour: 'red', shapes: [{ kind: 'box', centre: [0.55, 0, 0.59], size: [0.16, 0.16, 1.2] }] };
/** Behind the arm: its plinth 0.1 m thick, the box on it (the body's origin is between them). */
export const CABINET: Obstacle = {
  name: 'Cabinet',
  file: 'Cabinet.body',
  translation: [-0.95, 0.3, 0.34],
  yawDeg: 0,
  colour: 'blue',
  shapes: [
    { kind: 'box', centre: [-0.95, 0.3, 0.04], size: [0.6, 1.0, 0.1] },
    { kind: 'box', centre: [-0.95, 0.3, 0.39], size: [0.5, 0.9, 0.6] },
  ],
};
/** Along world x, 1.7 m to the arm's right (−y). */
export const WALL: Obstacle = {
  name: 'Wall',
  file: 'Wall.body',
  translation: [0.5, -1.7, 0.49],
  yawDeg: 0,
  colour: 'magenta',
  // The panel; the posts at its ends (cylinders of radius 0.08 at x = −1 and 2) are out of the arm's reach.
  shapes: [{ kind: 'box', centre: [0.5, -1.7, 0.49], size: [3.0, 0.1, 1.0] }],
};
export const OBSTACLES: readonly Obstacle[] = [FLOOR, PILLAR, CABINET, WALL];

/** PA10 from Choreonoid's share, bolted at the world origin. */
export const ARM_BODY: SceneBody = { name: ARM, file: '${SHARE}/model/PA10/PA10.body', translation: [0, 0, 0], yawDeg: 0, colour: 'green' };
/** The Rover starts 3 cm above where it rests (root 0.05 m: half its chassis above the floor's top) and drops. */
export const ROVER_BODY: SceneBody = { name: ROVER, file: 'Rover.body', translation: [1.7, 0.9, 0.08], yawDeg: 210, colour: 'yellow' };
export const ROVER_REST_Z = 0.05;

/** PA10's joints in joint_id order (J1..J7, HAND_L, HAND_R): what its motion file lists. */
export const ARM_JOINTS = ['J1', 'J2', 'J3', 'J4', 'J5', 'J6', 'J7', 'HAND_L', 'HAND_R'] as const;

export interface ArmPose {
  name: string;
  /** Degrees (m for the hands) by joint; joints not named stay at 0. */
  q: Partial<Record<(typeof ARM_JOINTS)[number], number>>;
  /** Held from `from` to `to` (simulation seconds); between two poses the arm moves along a smoothstep. */
  from: number;
  to: number;
}

/** The arm upright, then leaning to its back right (away from every obstacle), each held long enough to compare. */
export const ARM_POSES: readonly ArmPose[] = [
  { name: 'A', q: {}, from: 0, to: 2.5 },
  { name: 'B', q: { J1: -30, J2: 30, J4: 45, J6: 20 }, from: 3.5, to: 6 },
];
/** Samples are compared this long after a pose is reached, and before it is left. */
export const SETTLE = 0.3;

const degrees = (pose: ArmPose): number[] => ARM_JOINTS.map((j) => pose.q[j] ?? 0);

/** The arm's joint positions (rad, m) the motion commands at simulation time t. */
export function commandedArm(t: number): number[] {
  const rad = (v: number[]): number[] => v.map((x, i) => (ARM_JOINTS[i]!.startsWith('HAND') ? x : (x * Math.PI) / 180));
  for (let i = 0; i < ARM_POSES.length; i++) {
    const p = ARM_POSES[i]!;
    if (t < p.to || i === ARM_POSES.length - 1) {
      if (t >= p.from || i === 0) return rad(degrees(p));
      const prev = ARM_POSES[i - 1]!;
      const s = Math.min(1, Math.max(0, (t - prev.to) / (p.from - prev.to)));
      const k = s * s * (3 - 2 * s);
      const a = degrees(prev);
      const b = degrees(p);
      return rad(a.map((x, j) => x + (b[j]! - x) * k));
    }
  }
  return rad(degrees(ARM_POSES[0]!));
}

/**
 * The motion (BODY-MOTION-YAML) the arm's BodyMotionControllerItem plays: 1 / TIME_STEP frames per second, the
 * poses in turn; `held`: only the last pose, one frame (the controller leaves its joints' targets there, so the
 * arm holds it for as long as the simulation runs).
 */
export function motionSeq(options: { held?: boolean } = {}): string {
  const last = ARM_POSES[ARM_POSES.length - 1]!;
  const frames = options.held ? 1 : Math.round((last.to + 1) / TIME_STEP) + 1;
  const at = (i: number): number[] => commandedArm(options.held ? last.from : i * TIME_STEP);
  const lines = [
    'type: CompositeSeq',
    'content: BodyMotion',
    'formatVersion: 2',
    `frameRate: ${1 / TIME_STEP}`,
    `numFrames: ${frames}`,
    'components:',
    '  -',
    '    type: MultiValueSeq',
    '    content: JointDisplacement',
    `    numParts: ${ARM_JOINTS.length}`,
    '    frames:',
  ];
  for (let i = 0; i < frames; i++) lines.push(`      - [ ${at(i).map((q) => q.toFixed(9)).join(', ')} ]`);
  return `${lines.join('\n')}\n`;
}

export const yaw = (deg: number): Mat3 => {
  const a = (deg * Math.PI) / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  return [
    [c, -s, 0],
    [s, c, 0],
    [0, 0, 1],
  ];
};

const vec = (v: readonly number[]): string => `[ ${v.join(', ')} ]`;

/** A body item placed now and where the simulation starts it (both: peers.md's first trap). */
function bodyItem(b: SceneBody, extra: string[], children: string[] = []): string {
  const lines = [
    `        - name: "${b.name}"`,
    '          plugin: Body',
    '          class: BodyItem',
    '          is_checked: true',
    '          data:',
    `            file: "${b.file}"`,
    `            root_translation: ${vec(b.translation)}`,
    `            root_rotation: [ 0, 0, 1, ${b.yawDeg} ]`,
    `            initial_root_translation: ${vec(b.translation)}`,
    `            initial_root_rotation: [ 0, 0, 1, ${b.yawDeg} ]`,
    ...extra.map((e) => `            ${e}`),
  ];
  if (children.length > 0) lines.push('          children:', ...children);
  return lines.join('\n');
}

/**
 * The project: the world with /clock (WorldROS2Item), the arm under BodyROS2Item and a motion controller playing
 * `motionFile` (MOTION_FILE unless said), the Rover under BodyROS2Item, the obstacles fixed (without the pillar when asked), the AIST
 * simulator at 1 ms in forward dynamics (the Rover falls onto the floor; the motion controller holds the arm), and
 * GLVisionSimulator for the Rover's camera and scanner.
 */
export function projectText(options: { pillar?: boolean; motionFile?: string } = {}): string {
  const motionFile = options.motionFile ?? MOTION_FILE;
  const obstacles = OBSTACLES.filter((o) => options.pillar !== false || o !== PILLAR);
  return `# The world scene of test/ros-live-world.test.ts, written by test/live/world/scene.ts.
items:
  id: 0
  name: "RootItem"
  plugin: Base
  class: RootItem
  is_builtin_item: true
  children:
    - name: "World"
      plugin: Body
      class: WorldItem
      is_checked: true
      data:
        collision_detection: false
        collision_detector: AISTCollisionDetector
        default_material_table_file: "\${SHARE}/default/materials.yaml"
      children:
        - { name: "WorldROS2", plugin: ROS2, class: WorldROS2Item, data: { max_clock_publishing_rate: 100 } }
${bodyItem(ARM_BODY, ['fix_root: true', `joint_displacements: ${vec(ARM_JOINTS.map(() => 0))}`, `initial_joint_displacements: ${vec(ARM_JOINTS.map(() => 0))}`], [
  '            - { name: "BodyROS2", plugin: ROS2, class: BodyROS2Item, data: { joint_state_update_rate: 100 } }',
  '            - name: "ArmMotion"',
  '              plugin: Body',
  '              class: BodyMotionControllerItem',
  '              children:',
  `                - { name: "ArmPoses", plugin: Body, class: BodyMotionItem, is_checked: true, data: { file: "${motionFile}", format: BODY-MOTION-YAML } }`,
])}
${bodyItem(ROVER_BODY, [], ['            - { name: "BodyROS2", plugin: ROS2, class: BodyROS2Item, data: { joint_state_update_rate: 100 } }'])}
${obstacles.map((o) => bodyItem(o, ['fix_root: true'])).join('\n')}
        - name: "AISTSimulator"
          plugin: Body
          class: AISTSimulatorItem
          data:
            time_step: ${TIME_STEP}
            realtime_sync_mode: compensatory
            recording: "off"
            time_range_mode: unlimited
            output_all_link_positions: true
            dynamics_mode: "Forward dynamics"
            gravity: [ 0, 0, -9.80665 ]
          children:
            - name: "GLVisionSimulator"
              plugin: Body
              class: GLVisionSimulatorItem
              data: { max_frame_rate: 1000, max_latency: 1, record_vision_data: false, thread_mode: Sensor, best_effort: false, all_scene_objects: false, enable_head_light: true, enable_additional_lights: true, antialiasing: false }
`;
}
