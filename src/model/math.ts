// Double-precision 3D math over plain arrays. Rotations are row lists mapping child → parent.
// The vector, matrix and quaternion algebra is gl-matrix's. Its functions write into whatever `out` they
// are given: every result here goes into a plain array or a Float64Array made here, never into
// gl-matrix's own Float32 storage (its create()), so all of it stays in double precision.
// Kept by hand where a peer's exact expression order matters: axisAngle (Eigen's, for Choreonoid's
// bits) and the roll-pitch-yaw pair (KDL's, for kdl_parser's round trip).
import { mat3, quat, vec3 } from 'gl-matrix';
import type { Affine, Mat3, Pose, Vec3 } from './types.js';

/** gl-matrix's column-major layout of a row-list matrix. */
const columnMajor = (m: Mat3): Float64Array => Float64Array.of(m[0][0], m[1][0], m[2][0], m[0][1], m[1][1], m[2][1], m[0][2], m[1][2], m[2][2]);
const fromColumnMajor = (c: ArrayLike<number>): Mat3 => [
  [c[0]!, c[3]!, c[6]!],
  [c[1]!, c[4]!, c[7]!],
  [c[2]!, c[5]!, c[8]!],
];

export const identity3 = (): Mat3 => [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

export const identityPose = (): Pose => ({ translation: [0, 0, 0], rotation: identity3() });

const vec = (): Vec3 => [0, 0, 0];
export const add = (a: Vec3, b: Vec3): Vec3 => vec3.add(vec(), a, b) as Vec3;
export const sub = (a: Vec3, b: Vec3): Vec3 => vec3.subtract(vec(), a, b) as Vec3;
export const scale = (a: Vec3, s: number): Vec3 => vec3.scale(vec(), a, s) as Vec3;
export const dot = (a: Vec3, b: Vec3): number => vec3.dot(a, b);
export const cross = (a: Vec3, b: Vec3): Vec3 => vec3.cross(vec(), a, b) as Vec3;
export const norm = (a: Vec3): number => vec3.length(a);

export const mulMat = (a: Mat3, b: Mat3): Mat3 => fromColumnMajor(mat3.multiply(new Float64Array(9), columnMajor(a), columnMajor(b)));

export const mulVec = (m: Mat3, v: Vec3): Vec3 => vec3.transformMat3(vec(), v, columnMajor(m)) as Vec3;

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

export const determinant = (m: Mat3): number => mat3.determinant(columnMajor(m));

/** The inverse; a singular matrix gives non-finite entries (callers check), as a division by det = 0 would. */
export function inverse3(m: Mat3): Mat3 {
  const inverse = mat3.invert(new Float64Array(9), columnMajor(m));
  return inverse === null ? [[NaN, NaN, NaN], [NaN, NaN, NaN], [NaN, NaN, NaN]] : fromColumnMajor(inverse);
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

/** The unit vector along v; the zero vector stays zero. */
export const normalize = (v: Vec3): Vec3 => vec3.normalize(vec(), v) as Vec3;

/** a ∘ b: the pose of frame c in a's parent, when b is c in a. */
export function composePose(a: Pose, b: Pose): Pose {
  return {
    translation: add(a.translation, mulVec(a.rotation, b.translation)),
    rotation: mulMat(a.rotation, b.rotation),
  };
}

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

export interface Quaternion {
  x: number;
  y: number;
  z: number;
  w: number;
}

/**
 * Unit quaternion of a rotation matrix (gl-matrix's fromMat3: Shoemake's method, stable for every
 * rotation), normalised, with the sign the TF publisher's quaternion path also chooses (canonicalSign).
 */
export function quaternionFromMatrix(m: Mat3): Quaternion {
  const q = quat.normalize(new Float64Array(4), quat.fromMat3(new Float64Array(4), columnMajor(m)));
  return canonicalSign(q[0]!, q[1]!, q[2]!, q[3]!);
}

/**
 * Of q and −q (the same rotation), the one whose leading component is positive: w when the rotation's
 * trace is positive (4w² − 1 > 0), else the component of the largest diagonal element (diagonal element
 * i is 1 − 2·(sum of the other two squares)). Matrix and quaternion paths thus publish the same four numbers.
 */
export function canonicalSign(x: number, y: number, z: number, w: number): Quaternion {
  const xx = x * x, yy = y * y, zz = z * z, ww = w * w;
  const lead = ww > 0.25 ? w : xx > yy && xx > zz ? x : yy > zz ? y : z;
  return lead < 0 ? { x: -x, y: -y, z: -z, w: -w } : { x, y, z, w };
}
