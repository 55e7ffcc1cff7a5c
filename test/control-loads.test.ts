// What each joint carries (src/control/joint-loads.ts), on arms small enough to work out by hand: a
// one-link pendulum and a two-link planar arm about horizontal axes, whose inertia matrix and gravity
// torques have closed forms; rotor inertia × gear ratio²; a slider's mass; a free root.
import { describe, expect, it } from 'vitest';
import { jointLoads, jointSpaceDynamics, loadConfigurations, GRAVITY } from '../src/control/joint-loads.js';
import { inverseSpd, largestEigenpair } from '../src/control/linear-algebra.js';
import type { Link, Mat3, RobotModel } from '../src/model/types.js';
import { joint, link, pose } from './support/urdf-models.js';

const diag = (x: number, y: number, z: number): Mat3 => [[x, 0, 0], [0, y, 0], [0, 0, z]];
const robot = (links: Link[]): RobotModel => ({ name: 'tiny', sourceFile: '/tiny.body', format: 'body', root: links[0]!.name, links, devices: [], extraJoints: [], warnings: [] });
const base = (type: 'fixed' | 'free' = 'fixed', mass = 2): Link => link('base', null, joint('base', type), pose([0, 0, 0]), { mass, inertia: diag(0.1, 0.1, 0.1) });

// Two-link planar arm in the x-z plane, both joints about +y (positive q turns +x towards −z).
const m1 = 1, c1 = 0.25, l1 = 0.5, i1 = 0.01;
const m2 = 5, c2 = 0.5, i2 = 0.001;
function twoLink(root: 'fixed' | 'free' = 'fixed', rotor = { inertia: 0, gear: 1 }): RobotModel {
  return robot([
    base(root),
    link('upper', 'base', joint('j1', 'revolute', { axis: [0, 1, 0], lower: -1.5, upper: 1.5, rotorInertia: rotor.inertia, gearRatio: rotor.gear }), pose([0, 0, 0.3]), {
      mass: m1,
      centerOfMass: [c1, 0, 0],
      inertia: diag(0.02, i1, 0.02),
    }),
    link('fore', 'upper', joint('j2', 'revolute', { axis: [0, 1, 0], lower: -2.5, upper: 2.5 }), pose([l1, 0, 0]), {
      mass: m2,
      centerOfMass: [c2, 0, 0],
      inertia: diag(0.03, i2, 0.03),
    }),
  ]);
}

/** The textbook two-link arm, written out independently of the code under test. */
function twoLinkByHand(q1: number, q2: number, rotor1 = 0): { M: number[][]; g: number[] } {
  const M11 = i1 + m1 * c1 * c1 + i2 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * Math.cos(q2)) + rotor1;
  const M12 = i2 + m2 * (c2 * c2 + l1 * c2 * Math.cos(q2));
  const M22 = i2 + m2 * c2 * c2;
  // Height of the centres of mass: z = −c·sin(angle); holding torque = ∂V/∂q with V = g·Σ m·z.
  const g1 = -GRAVITY * ((m1 * c1 + m2 * l1) * Math.cos(q1) + m2 * c2 * Math.cos(q1 + q2));
  const g2 = -GRAVITY * m2 * c2 * Math.cos(q1 + q2);
  return { M: [[M11, M12], [M12, M22]], g: [g1, g2] };
}

describe('joint-space dynamics on a two-link arm', () => {
  it.each([
    [0, 0],
    [0.3, 0.7],
    [-1.2, Math.PI / 2],
    [1.0, -2.4],
  ])('q = (%f, %f): M and g equal the closed form', (q1, q2) => {
    const d = jointSpaceDynamics(twoLink(), new Map([['j1', q1], ['j2', q2]]));
    const hand = twoLinkByHand(q1, q2);
    expect(d.joints).toEqual(['j1', 'j2']);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 2; j++) expect(d.inertia[i]![j]).toBeCloseTo(hand.M[i]![j]!, 12);
      expect(Math.abs(d.gravity[i]!)).toBeCloseTo(Math.abs(hand.g[i]!), 10);
    }
  });

  it('rotor inertia × gear ratio² sits on its own joint\'s diagonal only', () => {
    const d = jointSpaceDynamics(twoLink('fixed', { inertia: 2e-4, gear: 50 }), new Map([['j2', 0.4]]));
    const hand = twoLinkByHand(0, 0.4, 2e-4 * 50 * 50);
    expect(d.inertia[0]![0]).toBeCloseTo(hand.M[0]![0]!, 12);
    expect(d.inertia[0]![1]).toBeCloseTo(hand.M[0]![1]!, 12);
    expect(d.inertia[1]![1]).toBeCloseTo(hand.M[1]![1]!, 12);
  });

  it('a free root adds six degrees of freedom after the joints, carrying the whole mass', () => {
    const d = jointSpaceDynamics(twoLink('free'), new Map());
    expect(d.inertia).toHaveLength(8);
    const total = 2 + m1 + m2;
    for (const k of [2, 3, 4]) expect(d.inertia[k]![k]).toBeCloseTo(total, 12);
    expect(d.gravity).toHaveLength(2);
  });
});

describe('loads over the sampled configurations', () => {
  it('the initial configuration first (clamped into the limits), then draws within the limits', () => {
    const model = twoLink();
    model.links[2]!.joint.initial = 9; // beyond the upper limit 2.5
    const qs = loadConfigurations(model, { samples: 50, seed: 3 });
    expect(qs).toHaveLength(51);
    expect(qs[0]).toEqual(new Map([['j1', 0], ['j2', 2.5]]));
    for (const q of qs) {
      expect(Math.abs(q.get('j1')!)).toBeLessThanOrEqual(1.5);
      expect(Math.abs(q.get('j2')!)).toBeLessThanOrEqual(2.5);
    }
    expect(loadConfigurations(model, { samples: 50, seed: 3 })).toEqual(qs);
  });

  it('heaviest: the elbow stretched (cos q2 = 1 at the initial q2 = 0); gravity: the arm horizontal (q1 = 0)', () => {
    const loads = jointLoads(twoLink(), { samples: 100 });
    const [j1, j2] = loads.joints;
    const stretched = twoLinkByHand(0, 0);
    expect(j1!.heaviest).toBeCloseTo(stretched.M[0]![0]!, 12);
    expect(j2!.heaviest).toBeCloseTo(stretched.M[1]![1]!, 12);
    expect(j1!.gravity).toBeCloseTo(GRAVITY * (m1 * c1 + m2 * l1 + m2 * c2), 9);
    expect(j2!.gravity).toBeCloseTo(GRAVITY * m2 * c2, 9);
    expect(loads.samples).toHaveLength(101);
  });

  it('a one-link pendulum: I = I_axis + m·c² + rotor·gear², G = m·g·c', () => {
    const model = robot([
      base(),
      link('arm', 'base', joint('j', 'revolute', { axis: [0, 1, 0], lower: -1, upper: 1, rotorInertia: 1e-3, gearRatio: 10 }), pose([0, 0, 0]), {
        mass: 3,
        centerOfMass: [0.4, 0, 0],
        inertia: diag(0.01, 0.02, 0.01),
      }),
    ]);
    const [load] = jointLoads(model, { samples: 20 }).joints;
    expect(load!.heaviest).toBeCloseTo(0.02 + 3 * 0.16 + 1e-3 * 100, 12);
    expect(load!.rotor).toBeCloseTo(0.1, 15);
    expect(load!.gravity).toBeCloseTo(3 * GRAVITY * 0.4, 10);
  });

  it('a vertical slider carries its mass and holds its weight; a horizontal one holds nothing', () => {
    const model = robot([
      base(),
      link('lift', 'base', joint('z', 'prismatic', { axis: [0, 0, 1], lower: 0, upper: 0.5 }), pose([0, 0, 0]), { mass: 4, inertia: diag(1, 1, 1) }),
      link('carriage', 'lift', joint('x', 'prismatic', { axis: [1, 0, 0], lower: -0.2, upper: 0.2 }), pose([0, 0, 0.1]), { mass: 1.5, inertia: diag(1, 1, 1) }),
    ]);
    const [z, x] = jointLoads(model, { samples: 20 }).joints;
    expect(z!.heaviest).toBeCloseTo(5.5, 12);
    expect(z!.gravity).toBeCloseTo(5.5 * GRAVITY, 10);
    expect(x!.heaviest).toBeCloseTo(1.5, 12);
    expect(x!.gravity).toBeCloseTo(0, 10);
  });
});

describe('a free joint below the root starts a body of its own (Choreonoid: DyBody::initializeSubBodies)', () => {
  // CollapsedCeilingF.body in small: a vertical slider of 0.1 kg on a fixed base carries, by a free joint, a 10 kg
  // target, which itself carries a 2 kg arm on a hinge about y, its centre 0.5 m out.
  const ceiling = (): RobotModel =>
    robot([
      base(),
      link('slider', 'base', joint('z', 'prismatic', { axis: [0, 0, 1], lower: -0.1, upper: 0.1 }), pose([0, 0, 1]), { mass: 0.1, inertia: diag(1e-4, 1e-4, 1e-4) }),
      link('target', 'slider', joint('float', 'free'), pose([0, 0, -0.2]), { mass: 10, inertia: diag(0.1, 0.1, 0.1) }),
      link('arm', 'target', joint('hinge', 'revolute', { axis: [0, 1, 0], lower: -1, upper: 1 }), pose([0, 0, 0]), { mass: 2, centerOfMass: [0.5, 0, 0], inertia: diag(0.01, 0.03, 0.01) }),
    ]);

  it.each([
    // [joint, heaviest, gravity]: the slider its own 0.1 kg (not 12.1); the hinge its arm (I_yy + m·c², m·g·c), its base free
    ['z', 0.1, 0.1 * GRAVITY],
    ['hinge', 0.03 + 2 * 0.25, 2 * GRAVITY * 0.5],
  ])('%s carries %f, holds %f', (name, heaviest, gravity) => {
    const load = jointLoads(ceiling(), { samples: 30 }).joints.find((l) => l.joint === name)!;
    expect(load.heaviest).toBeCloseTo(heaviest, 12);
    expect(load.gravity).toBeCloseTo(gravity, 9);
  });

  it('the sub-body has six degrees of freedom after the joints: its translations carry its 12 kg, and nothing couples it to the slider', () => {
    const d = jointSpaceDynamics(ceiling(), new Map());
    expect(d.joints).toEqual(['z', 'hinge']);
    expect(d.inertia).toHaveLength(8);
    for (const k of [2, 3, 4]) expect(d.inertia[k]![k]).toBeCloseTo(12, 12);
    for (let k = 1; k < 8; k++) expect(d.inertia[0]![k]).toBe(0);
  });
});

describe('linear algebra', () => {
  it('inverseSpd inverts, and refuses a matrix that is not positive definite', () => {
    const a = [[4, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]];
    const inv = inverseSpd(a)!;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(a[i]!.reduce((s, x, k) => s + x * inv[k]![j]!, 0)).toBeCloseTo(i === j ? 1 : 0, 12);
    expect(inverseSpd([[1, 2], [2, 1]])).toBeNull();
  });

  it('largestEigenpair: a 2×2 against the closed form, and A·v = λ·v', () => {
    const a = [[2, 1.5], [1.5, 0.5]];
    const closed = (2 + 0.5) / 2 + Math.sqrt(((2 - 0.5) / 2) ** 2 + 1.5 ** 2);
    const { value, vector } = largestEigenpair(a);
    expect(value).toBeCloseTo(closed, 12);
    expect(a[0]![0]! * vector[0]! + a[0]![1]! * vector[1]!).toBeCloseTo(value * vector[0]!, 12);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 12);
  });
});
