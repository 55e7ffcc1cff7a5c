// What test/ros-live-choreonoid.test.ts needs to hold sensor data against the scene: rigid poses, a TF buffer
// fed with /tf and /tf_static messages as a tf2 listener is (with its reaction to time jumping back), distances
// to the scene's boxes, rays cast at them, and distribution figures.
import { composePose, mulMat, mulVec, transpose } from '../../../src/model/math.js';
import type { Mat3, Pose, Vec3 } from '../../../src/model/types.js';
import { BOXES, type Placement, type SceneBox, yaw } from './scene.js';

export type { Pose };

export const invertPose = (p: Pose): Pose => {
  const r = transpose(p.rotation);
  const t = mulVec(r, p.translation);
  return { rotation: r, translation: [-t[0], -t[1], -t[2]] };
};
export const applyPose = (p: Pose, v: Vec3): Vec3 => {
  const r = mulVec(p.rotation, v);
  return [r[0] + p.translation[0], r[1] + p.translation[1], r[2] + p.translation[2]];
};
export { composePose };

export function matrixFromQuaternion(q: { x: number; y: number; z: number; w: number }): Mat3 {
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  const [x, y, z, w] = [q.x / n, q.y / n, q.z / n, q.w / n];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** A 4×4 row-major matrix (Choreonoid's probe) as a pose. */
export const poseFromMatrix16 = (m: number[]): Pose => ({
  rotation: [
    [m[0]!, m[1]!, m[2]!],
    [m[4]!, m[5]!, m[6]!],
    [m[8]!, m[9]!, m[10]!],
  ],
  translation: [m[3]!, m[7]!, m[11]!],
});

/** Rotation angle (rad) between two rotations. */
export function rotationAngle(a: Mat3, b: Mat3): number {
  const r = mulMat(transpose(a), b);
  return Math.acos(Math.min(1, Math.max(-1, (r[0][0] + r[1][1] + r[2][2] - 1) / 2)));
}

export const placementPose = (p: Placement): Pose => {
  const r = ((p.rollDeg ?? 0) * Math.PI) / 180;
  const roll: Mat3 = [
    [1, 0, 0],
    [0, Math.cos(r), -Math.sin(r)],
    [0, Math.sin(r), Math.cos(r)],
  ];
  return { translation: [...p.translation], rotation: mulMat(yaw(p.yawDeg), roll) };
};

export const stampSeconds = (s: { sec: number; nanosec: number }): number => s.sec + s.nanosec * 1e-9;

interface TransformMsg {
  header: { stamp: { sec: number; nanosec: number }; frame_id: string };
  child_frame_id: string;
  transform: { translation: { x: number; y: number; z: number }; rotation: { x: number; y: number; z: number; w: number } };
}

/**
 * The transforms a tf2 listener would hold: static ones for good, moving ones as a history per child frame.
 * When a moving transform arrives stamped more than a second before the newest one (a simulation started
 * again from time zero), a new epoch begins, as tf2_ros's Buffer clears itself when ROS time jumps back;
 * the earlier epochs are kept so that data of an earlier run can still be looked up afterwards.
 */
export class TfBuffer {
  /**
   * `jumpBack`: seconds a /tf stamp may lie behind the newest one before the buffer takes it as time jumping back
   * (a simulation restarted) and starts afresh. Infinity where several sources publish /tf without one clock
   * ordering them (a ground truth logged by another process lags the joint states): no restart is assumed.
   */
  constructor(private readonly jumpBack = 1) {}

  private statics = new Map<string, { parent: string; pose: Pose }>();
  private moving: Map<string, { parent: string; samples: Sample[] }>[] = [new Map()];
  private newest = -Infinity;
  /** Stamps (s) of the first transform of each epoch after the first. */
  readonly jumps: number[] = [];

  get epoch(): number {
    return this.moving.length - 1;
  }

  add(msg: { transforms: TransformMsg[] }, isStatic: boolean): void {
    for (const tf of msg.transforms) {
      const translation: Vec3 = [tf.transform.translation.x, tf.transform.translation.y, tf.transform.translation.z];
      const q = tf.transform.rotation;
      const pose: Pose = { translation, rotation: matrixFromQuaternion(q) };
      if (isStatic) {
        this.statics.set(tf.child_frame_id, { parent: tf.header.frame_id, pose });
        continue;
      }
      const t = stampSeconds(tf.header.stamp);
      if (t < this.newest - this.jumpBack) {
        this.moving.push(new Map());
        this.jumps.push(t);
        this.newest = -Infinity;
      }
      this.newest = Math.max(this.newest, t);
      const current = this.moving[this.moving.length - 1]!;
      let entry = current.get(tf.child_frame_id);
      if (!entry) current.set(tf.child_frame_id, (entry = { parent: tf.header.frame_id, samples: [] }));
      entry.samples.push({ t, pose, q: [q.x, q.y, q.z, q.w] });
    }
  }

  frames(): string[] {
    return [...new Set([...this.statics.keys(), ...this.moving.flatMap((m) => [...m.keys()])])];
  }

  /**
   * The pose of `frame` in `root` at time t of an epoch (default: the current one): static transforms as they
   * are, each moving one interpolated between the samples around t (linearly, and by slerp), as tf2 does, or
   * its nearest sample when t is outside them by at most `tolerance` seconds (null otherwise, or when the
   * chain is broken).
   *
   * With `hold` — an interval of stamps over which the scene holds every joint still — a moving transform is
   * instead its sample nearest t among those stamped inside the hold, exact whatever the gaps around t: a
   * publisher's messages lost under load leave gaps in /tf, and interpolating across a gap that spans a motion
   * gives a pose the robot never had (the node can only publish what reaches it). Null when no sample lies in
   * the hold.
   */
  poseIn(root: string, frame: string, t: number, epoch = this.epoch, tolerance = 0.1, hold?: readonly [number, number]): Pose | null {
    const moving = this.moving[epoch];
    if (!moving) return null;
    let pose: Pose = { translation: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };
    let f = frame;
    for (let guard = 0; f !== root; guard++) {
      if (guard > 100) return null;
      const s = this.statics.get(f);
      if (s) {
        pose = composePose(s.pose, pose);
        f = s.parent;
        continue;
      }
      const m = moving.get(f);
      if (!m || m.samples.length === 0) return null;
      const at = hold ? nearestInHold(m.samples, t, hold) : interpolate(m.samples, t, tolerance);
      if (!at) return null;
      pose = composePose(at, pose);
      f = m.parent;
    }
    return pose;
  }
}

interface Sample {
  t: number;
  pose: Pose;
  /** The rotation as a quaternion (x, y, z, w), for slerp. */
  q: [number, number, number, number];
}

/** The sample nearest t of those stamped inside [hold[0], hold[1]], or null when none is. */
function nearestInHold(samples: Sample[], t: number, hold: readonly [number, number]): Pose | null {
  let best: Sample | null = null;
  for (const s of samples) {
    if (s.t < hold[0] || s.t > hold[1]) continue;
    if (!best || Math.abs(s.t - t) < Math.abs(best.t - t)) best = s;
  }
  return best?.pose ?? null;
}

/** A moving transform at t: between the samples around it (lerp and slerp), else the nearest within `tolerance`. */
function interpolate(samples: Sample[], t: number, tolerance: number): Pose | null {
  // Samples arrive in stamp order within an epoch; the last one at or before t, by bisection.
  let lo = 0;
  let hi = samples.length - 1;
  if (t <= samples[0]!.t) return samples[0]!.t - t <= tolerance ? samples[0]!.pose : null;
  if (t >= samples[hi]!.t) return t - samples[hi]!.t <= tolerance ? samples[hi]!.pose : null;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = samples[lo]!;
  const b = samples[hi]!;
  if (b.t - a.t > 1) return null;
  const s = b.t === a.t ? 0 : (t - a.t) / (b.t - a.t);
  let [bx, by, bz, bw] = b.q;
  let cos = a.q[0] * bx + a.q[1] * by + a.q[2] * bz + a.q[3] * bw;
  if (cos < 0) [bx, by, bz, bw, cos] = [-bx, -by, -bz, -bw, -cos];
  let wa = 1 - s;
  let wb = s;
  if (cos < 0.9999999) {
    const angle = Math.acos(cos);
    wa = Math.sin((1 - s) * angle) / Math.sin(angle);
    wb = Math.sin(s * angle) / Math.sin(angle);
  }
  const q = { x: wa * a.q[0] + wb * bx, y: wa * a.q[1] + wb * by, z: wa * a.q[2] + wb * bz, w: wa * a.q[3] + wb * bw };
  const lerp = (i: number): number => a.pose.translation[i]! + s * (b.pose.translation[i]! - a.pose.translation[i]!);
  return { translation: [lerp(0), lerp(1), lerp(2)], rotation: matrixFromQuaternion(q) };
}

/** Signed distance from a world point to a box of the scene (negative inside). */
export function boxSignedDistance(box: SceneBox, p: Vec3): number {
  const local = mulVec(transpose(yaw(box.yawDeg)), [p[0] - box.translation[0], p[1] - box.translation[1], p[2] - box.translation[2]]);
  const q = local.map((v, i) => Math.abs(v) - box.size[i]! / 2);
  const outside = Math.hypot(Math.max(q[0]!, 0), Math.max(q[1]!, 0), Math.max(q[2]!, 0));
  return outside + Math.min(Math.max(q[0]!, q[1]!, q[2]!), 0);
}

/** Distance from a world point to the nearest surface of the scene, and which box that is. */
export function nearestSurface(p: Vec3, boxes: SceneBox[] = BOXES): { distance: number; box: string } {
  let best = { distance: Infinity, box: '' };
  for (const b of boxes) {
    const d = Math.abs(boxSignedDistance(b, p));
    if (d < best.distance) best = { distance: d, box: b.name };
  }
  return best;
}

/** Where a ray (world origin, unit direction) first meets a box of the scene: distance and box, or Infinity. */
export function castRay(origin: Vec3, dir: Vec3, boxes: SceneBox[] = BOXES): { distance: number; box: string } {
  let best = { distance: Infinity, box: '' };
  for (const b of boxes) {
    const rt = transpose(yaw(b.yawDeg));
    const o = mulVec(rt, [origin[0] - b.translation[0], origin[1] - b.translation[1], origin[2] - b.translation[2]]);
    const d = mulVec(rt, dir);
    let t0 = -Infinity;
    let t1 = Infinity;
    for (let i = 0; i < 3; i++) {
      const h = b.size[i]! / 2;
      if (Math.abs(d[i]!) < 1e-15) {
        if (Math.abs(o[i]!) > h) {
          t0 = Infinity;
          break;
        }
        continue;
      }
      const a = (-h - o[i]!) / d[i]!;
      const c = (h - o[i]!) / d[i]!;
      t0 = Math.max(t0, Math.min(a, c));
      t1 = Math.min(t1, Math.max(a, c));
    }
    if (t0 <= t1 && t0 > 0 && t0 < best.distance) best = { distance: t0, box: b.name };
  }
  return best;
}

export interface Distribution {
  n: number;
  median: number;
  p99: number;
  max: number;
  mean: number;
}

export function distribution(values: number[]): Distribution {
  if (values.length === 0) return { n: 0, median: NaN, p99: NaN, max: NaN, mean: NaN };
  const s = Float64Array.from(values).sort();
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]!;
  return { n: s.length, median: at(0.5), p99: at(0.99), max: s[s.length - 1]!, mean: values.reduce((a, b) => a + b, 0) / values.length };
}

/** A distribution in millimetres, rounded for a report. */
export const mm = (d: Distribution): Record<string, number> => ({
  n: d.n,
  median_mm: +(d.median * 1000).toFixed(3),
  p99_mm: +(d.p99 * 1000).toFixed(3),
  max_mm: +(d.max * 1000).toFixed(3),
});
