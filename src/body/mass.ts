// Mass properties: the `inertia` forms and Choreonoid's combination of rigid bodies
// (StdBodyLoader::setMassParameters, parallel-axis theorem about the combined centre of mass).
import { failAt } from '../model/errors.js';
import type { Mat3, Vec3 } from '../model/types.js';
import { warn, type BodyContext } from './context.js';
import type { RigidBody } from './draft.js';
import { asNumber, asSeq } from './values.js';
import type { YNode } from './yaml-tree.js';

/** A mass: a finite number, not negative (Choreonoid would take a negative one and simulate nonsense). */
export function readMass(node: YNode): number {
  const m = asNumber(node, 'a mass in kg');
  if (m < 0) failAt(node.loc, `expected a non-negative mass, got ${m}`);
  return m;
}

/**
 * Nine values (row-major) or six (xx, xy, xz, yy, yz, zz of a symmetric matrix). A negative diagonal
 * is an error; an asymmetric matrix is replaced by its symmetric part with a warning.
 */
export function readInertiaValue(ctx: BodyContext, node: YNode): Mat3 {
  const seq = asSeq(node, 'an inertia list of 6 or 9 numbers');
  const v = seq.items.map((n) => asNumber(n));
  let I: Mat3;
  if (v.length === 9) {
    I = [
      [v[0]!, v[1]!, v[2]!],
      [v[3]!, v[4]!, v[5]!],
      [v[6]!, v[7]!, v[8]!],
    ];
  } else if (v.length === 6) {
    I = [
      [v[0]!, v[1]!, v[2]!],
      [v[1]!, v[3]!, v[4]!],
      [v[2]!, v[4]!, v[5]!],
    ];
  } else {
    return failAt(seq.loc, `expected an inertia of 6 or 9 numbers, got ${v.length}`);
  }
  if (I[0][0] < 0 || I[1][1] < 0 || I[2][2] < 0) {
    failAt(seq.loc, `the inertia's diagonal must not be negative, got [${I[0][0]}, ${I[1][1]}, ${I[2][2]}]`);
  }
  if (I[0][1] !== I[1][0] || I[0][2] !== I[2][0] || I[1][2] !== I[2][1]) {
    warn(ctx, seq.loc, 'the inertia matrix is not symmetric; its symmetric part is used');
    const s = (a: number, b: number): number => (a + b) / 2;
    I = [
      [I[0][0], s(I[0][1], I[1][0]), s(I[0][2], I[2][0])],
      [s(I[0][1], I[1][0]), I[1][1], s(I[1][2], I[2][1])],
      [s(I[0][2], I[2][0]), s(I[1][2], I[2][1]), I[2][2]],
    ];
  }
  return I;
}

/** Total mass, centre of mass and inertia about it (inertia zero when the total mass is not positive, as in Choreonoid). */
export function combineRigidBodies(bodies: readonly RigidBody[]): { mass: number; centerOfMass: Vec3; inertia: Mat3 } {
  let m = 0;
  const c: Vec3 = [0, 0, 0];
  const I: Mat3 = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const r of bodies) {
    m += r.m;
    c[0] += r.m * r.c[0];
    c[1] += r.m * r.c[1];
    c[2] += r.m * r.c[2];
  }
  if (m > 0) {
    c[0] /= m;
    c[1] /= m;
    c[2] /= m;
    for (const r of bodies) {
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) I[i]![j]! += r.I[i]![j]!;
      const x = c[0] - r.c[0];
      const y = c[1] - r.c[1];
      const z = c[2] - r.c[2];
      I[0][0] += r.m * (y * y + z * z);
      I[0][1] += -r.m * (x * y);
      I[0][2] += -r.m * (x * z);
      I[1][0] += -r.m * (y * x);
      I[1][1] += r.m * (z * z + x * x);
      I[1][2] += -r.m * (y * z);
      I[2][0] += -r.m * (z * x);
      I[2][1] += -r.m * (z * y);
      I[2][2] += r.m * (x * x + y * y);
    }
  }
  return { mass: m, centerOfMass: c, inertia: I };
}
