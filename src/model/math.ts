// Double-precision 3D math over plain arrays. Rotations are row lists mapping child → parent.
// (gl-matrix was considered and not used: it defaults to Float32 storage and column-major
// layout, and the oracle comparisons are at 1e-9.)
import type { Affine, Mat3, Pose, Vec3 } from './types.js';

export const identity3 = (): Mat3 => [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

export const identityPose = (): Pose => ({ translation: [0, 0, 0], rotation: identity3() });

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);

export function mulMat(a: Mat3, b: Mat3): Mat3 {
  const r = identity3();
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      r[i]![j] = a[i]![0] * b[0]![j]! + a[i]![1] * b[1]![j]! + a[i]![2] * b[2]![j]!;
    }
  }
  return r;
}

export const mulVec = (m: Mat3, v: Vec3): Vec3 => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];

export const transpose = (m: Mat3): Mat3 => [
  [m[0][0], m[1][0], m[2][0]],
  [m[0][1], m[1][1], m[2][1]],
  [m[0][2], m[1][2], m[2][2]],
];

export const diag = (x: number, y: number, z: number): Mat3 => [
  [x, 0, 0],
  [0, y, 0],
  [0, 0, z],
];

export function determinant(m: Mat3): number {
  return dot(m[0], cross(m[1], m[2]));
}

export function inverse3(m: Mat3): Mat3 {
  const det = determinant(m);
  const c0 = cross(m[1], m[2]);
  const c1 = cross(m[2], m[0]);
  const c2 = cross(m[0], m[1]);
  // Rows of the inverse are the columns of the adjugate.
  return [
    [c0[0] / det, c1[0] / det, c2[0] / det],
    [c0[1] / det, c1[1] / det, c2[1] / det],
    [c0[2] / det, c1[2] / det, c2[2] / det],
  ];
}

/**
 * Rotation of `angle` radians about `axis`, with the axis used as given (callers normalise when
 * Choreonoid does). The expression order follows Eigen's AngleAxis::toRotationMatrix so that
 * results agree with Choreonoid to the last bit where possible.
 */
export function axisAngle(axis: Vec3, angle: number): Mat3 {
  const s = Math.sin(angle);
  const c = Math.cos(angle);
  const [x, y, z] = axis;
  const sx = s * x, sy = s * y, sz = s * z;
  const cx = (1 - c) * x, cy = (1 - c) * y, cz = (1 - c) * z;
  const xy = cx * y, xz = cx * z, yz = cy * z;
  return [
    [cx * x + c, xy - sz, xz + sy],
    [xy + sz, cy * y + c, yz - sx],
    [xz - sy, yz + sx, cz * z + c],
  ];
}

export function normalize(v: Vec3): Vec3 {
  const n = norm(v);
  return n === 0 ? [v[0], v[1], v[2]] : [v[0] / n, v[1] / n, v[2] / n];
}

/** a ∘ b: the pose of frame c in a's parent, when b is c in a. */
export function composePose(a: Pose, b: Pose): Pose {
  return {
    translation: add(a.translation, mulVec(a.rotation, b.translation)),
    rotation: mulMat(a.rotation, b.rotation),
  };
}

export function invertPose(p: Pose): Pose {
  const rt = transpose(p.rotation);
  return { translation: scale(mulVec(rt, p.translation), -1), rotation: rt };
}

export const poseToAffine = (p: Pose): Affine => ({ linear: p.rotation, translation: p.translation });

export function composeAffine(a: Affine, b: Affine): Affine {
  return {
    translation: add(a.translation, mulVec(a.linear, b.translation)),
    linear: mulMat(a.linear, b.linear),
  };
}

export const transformPoint = (a: Affine, v: Vec3): Vec3 => add(mulVec(a.linear, v), a.translation);

/**
 * URDF roll-pitch-yaw (fixed axes X, Y, Z: R = Rz(yaw)·Ry(pitch)·Rx(roll)), decomposed the way
 * KDL's Rotation::GetRPY does so that a round trip through kdl_parser reproduces R.
 */
export function rpyFromMatrix(m: Mat3): Vec3 {
  const eps = 1e-12;
  const pitch = Math.atan2(-m[2][0], Math.sqrt(m[0][0] * m[0][0] + m[1][0] * m[1][0]));
  if (Math.abs(pitch) > Math.PI / 2 - eps) {
    return [0, pitch, Math.atan2(-m[0][1], m[1][1])];
  }
  return [Math.atan2(m[2][1], m[2][2]), pitch, Math.atan2(m[1][0], m[0][0])];
}

export function matrixFromRpy([roll, pitch, yaw]: Vec3): Mat3 {
  const cr = Math.cos(roll), sr = Math.sin(roll);
  const cp = Math.cos(pitch), sp = Math.sin(pitch);
  const cy = Math.cos(yaw), sy = Math.sin(yaw);
  return [
    [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
    [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
    [-sp, cp * sr, cp * cr],
  ];
}

export interface Quaternion {
  x: number;
  y: number;
  z: number;
  w: number;
}

/** Unit quaternion of a rotation matrix (Shepperd's method: stable for every rotation). */
export function quaternionFromMatrix(m: Mat3): Quaternion {
  const trace = m[0][0] + m[1][1] + m[2][2];
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    w = 0.25 * s;
    x = (m[2][1] - m[1][2]) / s;
    y = (m[0][2] - m[2][0]) / s;
    z = (m[1][0] - m[0][1]) / s;
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const s = Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
    w = (m[2][1] - m[1][2]) / s;
    x = 0.25 * s;
    y = (m[0][1] + m[1][0]) / s;
    z = (m[0][2] + m[2][0]) / s;
  } else if (m[1][1] > m[2][2]) {
    const s = Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
    w = (m[0][2] - m[2][0]) / s;
    x = (m[0][1] + m[1][0]) / s;
    y = 0.25 * s;
    z = (m[1][2] + m[2][1]) / s;
  } else {
    const s = Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
    w = (m[1][0] - m[0][1]) / s;
    x = (m[0][2] + m[2][0]) / s;
    y = (m[1][2] + m[2][1]) / s;
    z = 0.25 * s;
  }
  const n = Math.hypot(x, y, z, w);
  return { x: x / n, y: y / n, z: z / n, w: w / n };
}

export function matrixFromQuaternion({ x, y, z, w }: Quaternion): Mat3 {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}
