import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  axisAngle,
  composePose,
  mulMat,
  normalize,
  quaternionFromMatrix,
  rpyFromMatrix,
  transpose,
} from '../src/model/math.js';
import { impossibleInertia, principalMoments } from '../src/model/inertia.js';
import { invertPose, matrixFromQuaternion, matrixFromRpy } from './support/rotations.js';
import type { Mat3, Vec3 } from '../src/model/types.js';

const expectMat = (a: Mat3, b: Mat3, eps = 1e-12): void => {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(a[i]![j]).toBeCloseTo(b[i]![j]!, -Math.log10(eps));
};

const unitAxis = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-3)
  .map((v) => normalize(v as Vec3));
const angle = fc.double({ min: -10, max: 10, noNaN: true });

describe('rotation math', () => {
  test('axisAngle matches the textbook rotations about X, Y and Z', () => {
    const c = Math.cos(0.3), s = Math.sin(0.3);
    expectMat(axisAngle([1, 0, 0], 0.3), [[1, 0, 0], [0, c, -s], [0, s, c]]);
    expectMat(axisAngle([0, 1, 0], 0.3), [[c, 0, s], [0, 1, 0], [-s, 0, c]]);
    expectMat(axisAngle([0, 0, 1], 0.3), [[c, -s, 0], [s, c, 0], [0, 0, 1]]);
  });

  test('axisAngle is orthonormal and turns the axis into itself', () => {
    fc.assert(
      fc.property(unitAxis, angle, (a, t) => {
        const r = axisAngle(a, t);
        expectMat(mulMat(r, transpose(r)), [[1, 0, 0], [0, 1, 0], [0, 0, 1]], 1e-9);
        const ra: Vec3 = [r[0][0] * a[0] + r[0][1] * a[1] + r[0][2] * a[2], r[1][0] * a[0] + r[1][1] * a[1] + r[1][2] * a[2], r[2][0] * a[0] + r[2][1] * a[1] + r[2][2] * a[2]];
        for (let i = 0; i < 3; i++) expect(ra[i]).toBeCloseTo(a[i]!, 9);
      }),
    );
  });

  test('URDF rpy = Rz(yaw)·Ry(pitch)·Rx(roll), and the decomposition round-trips (gimbal lock included)', () => {
    expectMat(matrixFromRpy([0.1, 0.2, 0.3]), mulMat(axisAngle([0, 0, 1], 0.3), mulMat(axisAngle([0, 1, 0], 0.2), axisAngle([1, 0, 0], 0.1))));
    fc.assert(
      fc.property(unitAxis, angle, (a, t) => {
        const r = axisAngle(a, t);
        expectMat(matrixFromRpy(rpyFromMatrix(r)), r, 1e-9);
      }),
    );
    const lock = axisAngle([0, 1, 0], Math.PI / 2);
    expectMat(matrixFromRpy(rpyFromMatrix(mulMat(lock, axisAngle([1, 0, 0], 0.4)))), mulMat(lock, axisAngle([1, 0, 0], 0.4)), 1e-9);
  });

  test('quaternions: 90° about Z, and round trips for random rotations', () => {
    const q = quaternionFromMatrix(axisAngle([0, 0, 1], Math.PI / 2));
    expect(q.w).toBeCloseTo(Math.SQRT1_2, 12);
    expect(q.z).toBeCloseTo(Math.SQRT1_2, 12);
    fc.assert(
      fc.property(unitAxis, angle, (a, t) => {
        const r = axisAngle(a, t);
        expectMat(matrixFromQuaternion(quaternionFromMatrix(r)), r, 1e-9);
      }),
    );
  });

  test('a pose composed with its inverse is the identity', () => {
    const p = { translation: [1, -2, 0.5] as Vec3, rotation: axisAngle(normalize([1, 2, 3]), 0.7) };
    const id = composePose(p, invertPose(p));
    expectMat(id.rotation, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    for (const x of id.translation) expect(x).toBeCloseTo(0, 12);
  });
});

describe('impossibleInertia: what a rigid body can have (positive mass, positive principal moments, triangle inequality)', () => {
  const rotated = (d: [number, number, number]): Mat3 => {
    const r = axisAngle(normalize([1, 2, 3]), 0.7);
    return mulMat(mulMat(r, [[d[0], 0, 0], [0, d[1], 0], [0, 0, d[2]]]), transpose(r));
  };
  test.each([
    ['a unit cube', 1, [[1 / 6, 0, 0], [0, 1 / 6, 0], [0, 0, 1 / 6]] as Mat3, null],
    ['a thin rod (a principal moment of zero) is refused, as sdformat refuses it', 1, [[0, 0, 0], [0, 1, 0], [0, 0, 1]] as Mat3, /not all positive/],
    ["SimpleTank's CHASSIS (0.1, 0.1, 0.5)", 8, [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.5]] as Mat3, /0\.1 \+ 0\.1 < 0\.5 break the triangle inequality/],
    ['a flat plate at the limit (1, 1, 2)', 1, [[1, 0, 0], [0, 1, 0], [0, 0, 2]] as Mat3, null],
    ['a valid body seen in rotated axes', 2, rotated([0.2, 0.3, 0.4]), null],
    ['an invalid body seen in rotated axes', 2, rotated([0.1, 0.1, 0.5]), /triangle inequality/],
    ['no mass', 0, [[1, 0, 0], [0, 1, 0], [0, 0, 1]] as Mat3, /mass 0 is not positive/],
  ])('%s', (_name, mass, inertia, expected) => {
    const why = impossibleInertia(mass, inertia);
    if (expected === null) expect(why).toBeNull();
    else expect(why).toMatch(expected);
  });

  test('principal moments of a rotated diagonal inertia are its diagonal', () => {
    const m = principalMoments(rotated([0.2, 0.3, 0.4]));
    m.forEach((x, i) => expect(x).toBeCloseTo([0.2, 0.3, 0.4][i]!, 12));
  });
});
