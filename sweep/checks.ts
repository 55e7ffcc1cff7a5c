// What the corpus sweep judges, as pure functions of what Choreonoid's probe and the ROS graph reported: the rest
// drift against the gains' predicted sag, a trajectory's final error against its controller's goal tolerance, the
// drive's distance, and the explosion watch. docs/corpus-sweep.md says why each bound is what it is.
import { seededRandom } from '../src/moveit/collision-matrix.js';
import type { ProbeSample } from '../test/support/control-live.js';

/** The drive every base is given: 0.2 m/s for 3 s of simulation time, 0.6 m ± 5 % by Choreonoid's root pose. */
export const DRIVE = { speed: 0.2, seconds: 3, tolerance: 0.05 };
/** The least a joint may be allowed to drift at rest: a joint gravity does not load (sag 0) still feels contact and the other joints through the body. */
export const DRIFT_FLOOR = 1e-4;
/** s of simulation time the body rests, its joints held where they started, before anything moves. */
export const REST_SECONDS = 2;
/**
 * A joint without a velocity limit in its model is watched against these (rad/s, m/s): nothing the sweep
 * commands comes near them (trajectories at half a joint's limit, wheels at 0.2 m/s over their radius), and a
 * simulation that diverges passes them within a few steps.
 */
export const UNLIMITED_JOINT_SPEED = { revolute: 100, prismatic: 10 };
/** m/s: the root's speed past which the body has exploded; a body falling 5 m reaches 10 m/s, no model stands that tall. */
export const ROOT_SPEED_LIMIT = 10;
/**
 * Where a random goal may lie: the middle GOAL_SPAN of a joint's range (a goal at a stop can put a link into another
 * or into the floor, a matter of the model's geometry, not of its controller); a joint without limits, ± UNLIMITED_GOAL_RANGE
 * (rad or m) about where it starts.
 */
export const GOAL_SPAN = 0.5;
export const UNLIMITED_GOAL_RANGE = 1;
/** Trajectories move at most this fraction of a joint's velocity limit, and last at least MIN_TRAJECTORY s. */
export const TRAJECTORY_SPEED_FRACTION = 0.5;
export const MIN_TRAJECTORY = 2;

export interface GoalJoint {
  name: string;
  type: 'revolute' | 'prismatic';
  lower: number;
  upper: number;
  /** rad/s or m/s; Infinity when the model gives none. */
  velocity: number;
}

/** A seeded random goal for one controller's joints, uniform in each joint's limits (about `start` where it has none). */
export function randomGoal(joints: readonly GoalJoint[], start: Readonly<Record<string, number>>, seed: number): Record<string, number> {
  const random = seededRandom(seed);
  const goal: Record<string, number> = {};
  for (const j of joints) {
    const from = start[j.name] ?? 0;
    const lo = Number.isFinite(j.lower) ? j.lower : from - UNLIMITED_GOAL_RANGE;
    const hi = Number.isFinite(j.upper) ? j.upper : from + UNLIMITED_GOAL_RANGE;
    const margin = ((1 - GOAL_SPAN) / 2) * (hi - lo);
    goal[j.name] = lo + margin + random() * (hi - lo - 2 * margin);
  }
  return goal;
}

/** s: long enough that no joint moves faster than TRAJECTORY_SPEED_FRACTION of its limit on average (at least MIN_TRAJECTORY). */
export function trajectoryDuration(joints: readonly GoalJoint[], start: Readonly<Record<string, number>>, goal: Readonly<Record<string, number>>): number {
  let t = MIN_TRAJECTORY;
  for (const j of joints) {
    const v = Number.isFinite(j.velocity) && j.velocity > 0 ? j.velocity : j.type === 'prismatic' ? UNLIMITED_JOINT_SPEED.prismatic : UNLIMITED_JOINT_SPEED.revolute;
    t = Math.max(t, Math.abs((goal[j.name] ?? 0) - (start[j.name] ?? 0)) / (TRAJECTORY_SPEED_FRACTION * v));
  }
  return Math.ceil(t * 10) / 10;
}

/** The samples taken while the simulation ran, with simulation time in [from, to]. */
export const samplesBetween = (samples: readonly ProbeSample[], from: number, to: number): ProbeSample[] =>
  samples.filter((s) => s.running && s.sim >= from && s.sim <= to);

/** The first running sample at or after simulation time t (null when none is). */
export const sampleAfter = (samples: readonly ProbeSample[], t: number): ProbeSample | null => samples.find((s) => s.running && s.sim >= t) ?? null;

/** The last running sample at or before simulation time t (null when none is). */
export function sampleBefore(samples: readonly ProbeSample[], t: number): ProbeSample | null {
  let found: ProbeSample | null = null;
  for (const s of samples) if (s.running && s.sim <= t) found = s;
  return found;
}

/** A figure against its bound, and the joint (or what) it belongs to. */
export interface Worst {
  what: string;
  value: number;
  bound: number;
  /** rad, m, rad/s or m/s. */
  unit: string;
}

export interface Verdict {
  pass: boolean;
  /** The figure closest to (or furthest past) its bound: the largest value / bound. */
  worst: Worst | null;
}

/** Every figure within its bound (a value equal to its bound passes); `worst` is the one with the largest value / bound. */
export function judge(figures: readonly Worst[]): Verdict {
  let worst: Worst | null = null;
  for (const f of figures) if (!worst || ratio(f) > ratio(worst)) worst = f;
  return { pass: figures.every((f) => Number.isFinite(f.value) && f.value <= f.bound), worst };
}

const ratio = (f: Worst): number => (Number.isFinite(f.value) ? f.value / f.bound : Infinity);

/**
 * At rest: how far each held joint went from where it started (`start`, the probe's first sample: the model's
 * initial pose) in the samples of the window, against its allowed drift.
 */
export function restDrift(samples: readonly ProbeSample[], start: Readonly<Record<string, number>>, allowed: Readonly<Record<string, number>>, units: Readonly<Record<string, string>> = {}): Worst[] {
  return Object.entries(allowed).map(([joint, bound]) => {
    let value = 0;
    for (const s of samples) {
      const q = s.q[joint];
      value = Math.max(value, q === undefined || start[joint] === undefined ? NaN : Math.abs(q - start[joint]!));
    }
    return { what: joint, value, bound, unit: units[joint] ?? 'rad' };
  });
}

/** Each joint's distance from its goal at one instant, against its goal tolerance (NaN where the joint was not reported). */
export const finalErrors = (
  q: Readonly<Record<string, number>>,
  goal: Readonly<Record<string, number>>,
  tolerance: Readonly<Record<string, number>>,
  units: Readonly<Record<string, string>> = {},
): Worst[] => Object.entries(goal).map(([joint, g]) => ({ what: joint, value: q[joint] === undefined ? NaN : Math.abs(q[joint]! - g), bound: tolerance[joint]!, unit: units[joint] ?? 'rad' }));

/** The root's planar travel between two samples against DRIVE's distance ± its tolerance, as |travel − expected| ≤ tolerance. */
export function driveVerdict(a: ProbeSample, b: ProbeSample, root: string): Worst & { distance: number } {
  const pa = a.links[root]!;
  const pb = b.links[root]!;
  const distance = Math.hypot(pb[3]! - pa[3]!, pb[7]! - pa[7]!);
  const expected = DRIVE.speed * DRIVE.seconds;
  return { what: 'root', distance, value: Math.abs(distance - expected), bound: DRIVE.tolerance * expected, unit: 'm' };
}

/** A joint's speed limit for the explosion watch: the model's (the smaller end), else UNLIMITED_JOINT_SPEED. */
export function speedLimit(j: { type: string; velocityLower: number; velocityUpper: number }): number {
  const given = Math.min(Math.abs(j.velocityLower), Math.abs(j.velocityUpper));
  return Number.isFinite(given) && given > 0 ? given : j.type === 'prismatic' ? UNLIMITED_JOINT_SPEED.prismatic : UNLIMITED_JOINT_SPEED.revolute;
}

/**
 * The explosion watch over a run: every joint's largest speed (Choreonoid's, from its joint angles, and /joint_states')
 * against its speed limit, and the root's largest speed between consecutive samples against ROOT_SPEED_LIMIT.
 */
/** s of simulation time: the shortest interval Choreonoid's joint angles are differenced over (the probe samples every 50 ms). */
export const MIN_DIFFERENCE_INTERVAL = 0.02;

export function explosionFigures(
  samples: readonly ProbeSample[],
  limits: Readonly<Record<string, number>>,
  root: string | null,
  jointStates: readonly { velocity: Record<string, number> }[] = [],
  units: Readonly<Record<string, string>> = {},
  freeLinks: readonly string[] = [],
): Worst[] {
  const largest: Record<string, number> = {};
  const note = (joint: string, v: number): void => {
    if (limits[joint] === undefined) return;
    largest[joint] = Math.max(largest[joint] ?? 0, Number.isFinite(v) ? Math.abs(v) : Infinity);
  };
  const running = samples.filter((s) => s.running);
  // Choreonoid's joint speeds from its joint angles, 50 ms apart (the simulator writes positions, not velocities,
  // into the body item the probe reads): a mean over the interval, and /joint_states' speeds at 100 Hz beside it.
  // Samples closer than MIN_DIFFERENCE_INTERVAL are skipped (each pairs with the next one far enough): the probe reads
  // the simulation time and the joint angles at slightly different moments, and over 2 ms that shows as speed
  // (PanTilt_robotis: TILT "2.9 rad/s" between samples at 5.400 and 5.402 s, 0.25 rad/s over the 50 ms around).
  for (let i = 1, k = 0; i < running.length; i++) {
    const a = running[k]!;
    const b = running[i]!;
    if (b.sim - a.sim < MIN_DIFFERENCE_INTERVAL) continue;
    for (const [j, q] of Object.entries(b.q)) if (a.q[j] !== undefined) note(j, (q - a.q[j]!) / (b.sim - a.sim));
    k = i;
  }
  for (const m of jointStates) for (const [j, v] of Object.entries(m.velocity)) note(j, v);
  const figures: Worst[] = Object.entries(largest).map(([what, value]) => ({ what, value, bound: limits[what]!, unit: `${units[what] ?? 'rad'}/s` }));
  // A free root, and a link on a free joint below it — the root of a body of its own in the simulation, which can
  // fall as the root does (SR1-floor-box.body's robot through its own floor).
  const fastest = (link: string): number => {
    let speed = 0;
    for (let i = 1; i < running.length; i++) {
      const a = running[i - 1]!;
      const b = running[i]!;
      const pa = a.links[link];
      const pb = b.links[link];
      if (!pa || !pb || b.sim <= a.sim) continue;
      const d = Math.hypot(pb[3]! - pa[3]!, pb[7]! - pa[7]!, pb[11]! - pa[11]!);
      speed = Math.max(speed, Number.isFinite(d) ? d / (b.sim - a.sim) : Infinity);
    }
    return speed;
  };
  if (root) figures.push({ what: `root ${root}`, value: fastest(root), bound: ROOT_SPEED_LIMIT, unit: 'm/s' });
  for (const link of freeLinks) figures.push({ what: `free ${link}`, value: fastest(link), bound: ROOT_SPEED_LIMIT, unit: 'm/s' });
  return figures;
}

/** How a free root moved between two samples: the angle it turned through (rad) and how far it rose (m; negative: fell). */
export function rootMotion(a: ProbeSample, b: ProbeSample, root: string): { angle: number; rise: number } | null {
  const ta = a.links[root];
  const tb = b.links[root];
  if (!ta || !tb) return null;
  // trace(Raᵀ Rb) = 1 + 2 cos θ, the rotations being the 3×3 blocks of the row-major 4×4 poses.
  let trace = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) trace += ta[4 * k + i]! * tb[4 * k + i]!;
  return { angle: Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2))), rise: tb[11]! - ta[11]! };
}

/** Simulated seconds per wall second over the running samples (null with fewer than two): how fast Choreonoid could simulate the model. */
export function realTimeFactor(samples: readonly ProbeSample[]): number | null {
  const running = samples.filter((s) => s.running);
  const a = running[0];
  const b = running.at(-1);
  return a && b && b.wall > a.wall ? (b.sim - a.sim) / (b.wall - a.wall) : null;
}
