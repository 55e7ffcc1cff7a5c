// Rotation formulas the tests check src/model/math.ts and the published quaternions against, written
// out from their textbook definitions rather than taken from the code under test.
import type { Mat3, Pose, Vec3 } from '../../src/model/types.js';

/** URDF's rpy: R = Rz(yaw)·Ry(pitch)·Rx(roll). */
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

/** The rotation matrix of a unit quaternion. */
export function matrixFromQuaternion({ x, y, z, w }: { x: number; y: number; z: number; w: number }): Mat3 {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** p⁻¹: rotation transposed, translation −Rᵀ·t. */
export function invertPose(p: Pose): Pose {
  const r = p.rotation;
  const rt: Mat3 = [
    [r[0][0], r[1][0], r[2][0]],
    [r[0][1], r[1][1], r[2][1]],
    [r[0][2], r[1][2], r[2][2]],
  ];
  const t = p.translation;
  const translation = rt.map((row) => -(row[0] * t[0] + row[1] * t[1] + row[2] * t[2])) as Vec3;
  return { translation, rotation: rt };
}
