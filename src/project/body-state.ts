// Choreonoid keeps a body item's initial state in a BodyState (src/Body/BodyState.h), which stores each link
// position as a translation and a quaternion (SE3). A rotation put there comes back as the quaternion's matrix:
// for an orthonormal rotation that is the same to rounding, but the older initialRootAttitude holds nine numbers
// printed to 9 digits, which are not quite a rotation — and the simulation starts from the quaternion's matrix.
// Written after Eigen's conversions (Quaternion from a 3×3 matrix: Shoemake's method, not normalised; and
// QuaternionBase::toRotationMatrix), in their operation order so that the numbers match to the last bits.
import type { Mat3 } from '../model/types.js';

/** [x, y, z, w] of Eigen's Quaternion(R). */
function quaternionOf(m: Mat3): [number, number, number, number] {
  let t = m[0][0] + m[1][1] + m[2][2];
  if (t > 0) {
    t = Math.sqrt(t + 1);
    const w = 0.5 * t;
    t = 0.5 / t;
    return [(m[2][1] - m[1][2]) * t, (m[0][2] - m[2][0]) * t, (m[1][0] - m[0][1]) * t, w];
  }
  let i = 0;
  if (m[1][1] > m[0][0]) i = 1;
  if (m[2][2] > m[i]![i]!) i = 2;
  const j = (i + 1) % 3;
  const k = (j + 1) % 3;
  t = Math.sqrt(m[i]![i]! - m[j]![j]! - m[k]![k]! + 1);
  const q: [number, number, number, number] = [0, 0, 0, 0];
  q[i] = 0.5 * t;
  t = 0.5 / t;
  q[3] = (m[k]![j]! - m[j]![k]!) * t;
  q[j] = (m[j]![i]! + m[i]![j]!) * t;
  q[k] = (m[k]![i]! + m[i]![k]!) * t;
  return q;
}

/** The rotation a BodyState gives back for `rotation`: Eigen's toRotationMatrix of Eigen's Quaternion(rotation). */
export function throughBodyState(rotation: Mat3): Mat3 {
  const [x, y, z, w] = quaternionOf(rotation);
  const tx = 2 * x;
  const ty = 2 * y;
  const tz = 2 * z;
  const twx = tx * w;
  const twy = ty * w;
  const twz = tz * w;
  const txx = tx * x;
  const txy = ty * x;
  const txz = tz * x;
  const tyy = ty * y;
  const tyz = tz * y;
  const tzz = tz * z;
  return [
    [1 - (tyy + tzz), txy - twz, txz + twy],
    [txy + twz, 1 - (txx + tzz), tyz - twx],
    [txz - twy, tyz + twx, 1 - (txx + tyy)],
  ];
}
