// Whether a link's mass properties are physically possible: what simulators (Gazebo through sdformat)
// demand and Choreonoid does not check. A rigid body's principal moments are positive and each is at
// most the sum of the other two.
import type { Mat3 } from './types.js';

/** Eigenvalues of a symmetric 3×3 matrix, ascending (closed form, trigonometric). */
export function principalMoments(a: Mat3): [number, number, number] {
  const p1 = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
  if (p1 === 0) return [a[0][0], a[1][1], a[2][2]].sort((x, y) => x - y) as [number, number, number];
  const q = (a[0][0] + a[1][1] + a[2][2]) / 3;
  const p2 = (a[0][0] - q) ** 2 + (a[1][1] - q) ** 2 + (a[2][2] - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  const b = a.map((row, i) => row.map((x, j) => (x - (i === j ? q : 0)) / p)) as Mat3;
  const det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0]) + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
  const r = Math.min(1, Math.max(-1, det / 2));
  const phi = Math.acos(r) / 3;
  const largest = q + 2 * p * Math.cos(phi);
  const smallest = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return [smallest, 3 * q - largest - smallest, largest];
}

/** Why `mass` and `inertia` (about the centre of mass) cannot belong to a rigid body, or null when they can. */
export function impossibleInertia(mass: number, inertia: Mat3): string | null {
  if (!(mass > 0)) return `mass ${mass} is not positive`;
  const [a, b, c] = principalMoments(inertia);
  const show = (x: number): string => Number(x.toPrecision(6)).toString();
  if (!(a > 0)) return `principal moments ${show(a)}, ${show(b)}, ${show(c)} are not all positive`;
  // Relative tolerance: moments computed from rounded file values may miss the inequality by rounding only.
  if (a + b < c * (1 - 1e-9)) return `principal moments ${show(a)} + ${show(b)} < ${show(c)} break the triangle inequality`;
  return null;
}
