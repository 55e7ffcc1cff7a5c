// The check scene's ground truth: where Checker.cnoid puts every body, the boxes' sizes, and the head poses
// head-poses.seq plays. test/choreonoid-scene.test.ts checks that Checker.cnoid and the .body files say the
// same; test/ros-live-choreonoid.test.ts measures what Choreonoid's sensors report, through body_bridge,
// against these numbers.
import type { Mat3, Vec3 } from '../../../src/model/types.js';

export const SCENE_DIR = new URL('.', import.meta.url).pathname;
export const PROJECT = 'Checker.cnoid';
export const ROBOT_BODY = 'Checker.body';
/** The BodyItem's name, so choreonoid_ros publishes under /Checker. */
export const ROBOT_NAME = 'Checker';
export const MOTION_FILE = 'head-poses.seq';
/** The AIST simulator's time step (s); BodyMotionControllerItem wants a motion at exactly this rate. */
export const TIME_STEP = 0.001;
export const GRAVITY = 9.80665;

export interface Placement {
  translation: Vec3;
  /** Rotation about world z, degrees. */
  yawDeg: number;
  /** Then about the body's own x, degrees (the boxes stand upright; the robot's base leans in its last run). */
  rollDeg?: number;
}

/** The robot's root (BASE) in the world: fixed there by the scene (fix_root, initial_root_*). */
export const ROBOT_ROOT: Placement = { translation: [0.2, -0.1, 0], yawDeg: 10 };

/**
 * Where the fixed base stands in each run of the simulation: the project's placement first; before the second
 * run (head poses A and B again) and the third (forward dynamics, at rest) the probe moves it, so that the
 * robot's sensors are checked from three base poses, the last one leaning.
 */
export const BASE_BY_RUN: readonly [Placement, Placement, Placement] = [
  ROBOT_ROOT,
  { translation: [0.55, 0.12, 0], yawDeg: -6 },
  { translation: [0.05, -0.35, 0.02], yawDeg: 25, rollDeg: 7 },
];

export interface SceneBox extends Placement {
  name: string;
  file: string;
  /** Full edge lengths along the body's x, y, z; the box is centred on the body's origin. */
  size: Vec3;
}

export const BOXES: SceneBox[] = [
  { name: 'Floor', file: 'Floor.body', size: [8, 8, 0.1], translation: [1.5, 0, -0.05], yawDeg: 0 },
  { name: 'Wall', file: 'Wall.body', size: [0.2, 6, 2], translation: [3.3, 0.2, 1], yawDeg: 0 },
  { name: 'Box', file: 'Box.body', size: [0.5, 0.4, 0.5], translation: [1.7, 0.75, 0.25], yawDeg: 30 },
];

/** Masses of the robot's links (Checker.body). */
export const MASS = { BASE: 10, BODY: 4, PAN: 1, TILT: 1.5 } as const;

export interface HeadPose {
  name: string;
  /** Joint positions (rad). */
  PAN: number;
  TILT: number;
  /** The motion reaches this pose at `from` and holds it until `to` (simulation seconds). */
  from: number;
  to: number;
}

/** The poses, in order; between two poses the head moves along a smoothstep in RAMP seconds. */
export const POSES: HeadPose[] = [
  { name: 'A', PAN: 0, TILT: 0, from: 0, to: 3 },
  { name: 'B', PAN: 0.45, TILT: 0.25, from: 3.5, to: 7 },
  { name: 'C', PAN: -0.5, TILT: -0.15, from: 7.5, to: 11 },
];
export const RAMP = 0.5;
/** Samples are taken this long after a pose is reached (the head has settled). */
export const SETTLE = 0.5;

/** Joint positions the motion commands at simulation time t (holds the last pose after the end). */
export function commandedPose(t: number): { PAN: number; TILT: number } {
  for (let i = 0; i < POSES.length; i++) {
    const p = POSES[i]!;
    if (t < p.to || i === POSES.length - 1) {
      if (t >= p.from || i === 0) return { PAN: p.PAN, TILT: p.TILT };
      const prev = POSES[i - 1]!;
      const s = Math.min(1, Math.max(0, (t - prev.to) / (p.from - prev.to)));
      const k = s * s * (3 - 2 * s);
      return { PAN: prev.PAN + (p.PAN - prev.PAN) * k, TILT: prev.TILT + (p.TILT - prev.TILT) * k };
    }
  }
  return { PAN: 0, TILT: 0 };
}

/** head-poses.seq: a BODY-MOTION-YAML motion at 1 / TIME_STEP frames per second, joints in joint_id order (PAN, TILT). */
export function motionSeq(): string {
  const end = POSES[POSES.length - 1]!.to;
  const frames = Math.round(end / TIME_STEP) + 1;
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
    '    numParts: 2',
    '    frames:',
  ];
  for (let i = 0; i < frames; i++) {
    const q = commandedPose(i * TIME_STEP);
    lines.push(`      - [ ${q.PAN.toFixed(9)}, ${q.TILT.toFixed(9)} ]`);
  }
  return `${lines.join('\n')}\n`;
}

export const yaw = (deg: number): Mat3 => {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [
    [c, -s, 0],
    [s, c, 0],
    [0, 0, 1],
  ];
};
