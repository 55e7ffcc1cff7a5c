// PD gains from the model (src/control/gains.ts): the formulas on a one-link pendulum worked out by hand,
// the stability bound checked by simulating the loop the way Choreonoid's AIST simulator integrates it
// (torque held over the step, semi-implicit Euler), and the multi-joint check on a two-link arm whose
// inertia matrix has a closed form.
import { describe, expect, it } from 'vitest';
import { type GainOptions, STABILITY_TARGET, designGains } from '../src/control/gains.js';
import { carriedLoads, GRAVITY, jointLoads, jointSpaceDynamics, loadConfigurations, scrubLoads } from '../src/control/joint-loads.js';
import { loopLoads } from '../src/control/loop-loads.js';
import { controlConfig } from '../src/control/config.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { planningGroups } from '../src/moveit/config.js';
import { join } from 'node:path';
import { projectRoot } from './support/oracle.js';
import type { ControlMode, JointMode } from '../src/control/modes.js';
import type { Link, Mat3, RobotModel } from '../src/model/types.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const diag = (x: number, y: number, z: number): Mat3 => [[x, 0, 0], [0, y, 0], [0, 0, z]];
const robot = (links: Link[]): RobotModel => ({ name: 'tiny', sourceFile: '/tiny.body', format: 'body', root: links[0]!.name, links, devices: [], extraJoints: [], warnings: [] });
const base = (): Link => link('base', null, joint('base', 'fixed'), pose([0, 0, 0]), { mass: 2, inertia: diag(0.1, 0.1, 0.1) });
const modes = (model: RobotModel, mode: ControlMode, per: Record<string, ControlMode> = {}): JointMode[] =>
  model.links.slice(1).map((l) => ({ joint: l.joint.name, mode: per[l.joint.name] ?? mode, from: 'default' }));

/** A pendulum about +y: mass m at c along x, inertia iy about its centre, rotor r × gear n. */
function pendulum(m: number, c: number, iy: number, rotor = 0, gear = 1): RobotModel {
  return robot([
    base(),
    link('arm', 'base', joint('j', 'revolute', { axis: [0, 1, 0], lower: -1.5, upper: 1.5, rotorInertia: rotor, gearRatio: gear }), pose([0, 0, 0]), {
      mass: m,
      centerOfMass: [c, 0, 0],
      inertia: diag(0.01, iy, 0.01),
    }),
  ]);
}

/**
 * The pendulum under Choreonoid's PD (u = −P·(q − q_cmd) − D·dq) as the AIST simulator steps it: the torque
 * computed from the state at the start of a step, held over it, semi-implicit Euler. Gravity pulls q positive
 * (about +y, +x turns towards −z). Returns the trajectory of q.
 */
function simulatePendulum(I: number, mc: number, p: number, d: number, target: number, T: number, steps: number): number[] {
  let q = 0, dq = 0;
  const out: number[] = [];
  for (let k = 0; k < steps; k++) {
    const u = -p * (q - target) - d * dq;
    const gravity = mc * GRAVITY * Math.cos(q); // torque gravity exerts, in the +q direction
    dq += ((u + gravity) / I) * T;
    q += dq * T;
    out.push(q);
  }
  return out;
}

describe('one joint: the formulas', () => {
  const opts: GainOptions = { bandwidth: 10, damping: 0.7, maxSag: 1e-3, timeStep: 1e-3 };
  it('a heavy pendulum: P from the sag (P = m·g·c / s), D = 2ζ√(P·I)', () => {
    const model = pendulum(3, 0.4, 0.02, 1e-3, 10);
    const I = 0.02 + 3 * 0.16 + 0.1;
    const P = (3 * GRAVITY * 0.4) / 1e-3;
    expect(P).toBeGreaterThan(I * (2 * Math.PI * 10) ** 2);
    const g = designGains(jointLoads(model, { samples: 30 }), modes(model, 'position_pd'), opts);
    const [j] = g.joints;
    expect(j!.p).toBeCloseTo(P, 6);
    expect(j!.d).toBeCloseTo(2 * 0.7 * Math.sqrt(P * I), 6);
    expect(j!.pFrom).toBe('sag');
    expect(j!.dLowered).toBe(false);
    expect(j!.sag).toBeCloseTo(1e-3, 12);
    expect(j!.lightest).toBeCloseTo(I, 12); // nothing else moves
    expect(g.margin).toBeCloseTo((P * 1e-6) / I + (2 * j!.d * 1e-3) / I, 9);
    expect(g.warnings).toEqual([]);
  });

  it('a light pendulum: P from the bandwidth (P = I·ω²)', () => {
    const model = pendulum(0.1, 0.05, 0.5);
    const I = 0.5 + 0.1 * 0.05 ** 2;
    const [j] = designGains(jointLoads(model, { samples: 30 }), modes(model, 'position_pd'), opts).joints;
    expect(j!.p).toBeCloseTo(I * (2 * Math.PI * 10) ** 2, 6);
    expect(j!.pFrom).toBe('bandwidth');
    expect(j!.bandwidth).toBeCloseTo(10, 9);
    expect(j!.damping).toBeCloseTo(0.7, 9);
  });

  it('a coarse step lowers D to the stability target exactly: D = (2 − α)·I / (2T)', () => {
    const model = pendulum(3, 0.4, 0.02);
    const T = 0.02;
    const I = 0.02 + 3 * 0.16;
    const g = designGains(jointLoads(model, { samples: 30 }), modes(model, 'position_pd'), { ...opts, timeStep: T });
    const [j] = g.joints;
    const alpha = (j!.p * T * T) / I;
    expect(j!.dLowered).toBe(true);
    expect(j!.d).toBeCloseTo(((STABILITY_TARGET - alpha) * I) / (2 * T), 6);
    expect(g.margin).toBeCloseTo(STABILITY_TARGET, 9);
  });
});

describe('one joint: the loop as the simulator runs it', () => {
  const model = pendulum(3, 0.4, 0.02, 1e-3, 10);
  const I = 0.02 + 3 * 0.16 + 0.1;
  const mc = 3 * 0.4;
  const T = 1e-3;
  const [j] = designGains(jointLoads(model, { samples: 30 }), modes(model, 'position_pd'), { timeStep: T }).joints;

  it('the designed gains settle on the target, off it by the predicted sag at most', () => {
    const q = simulatePendulum(I, mc, j!.p, j!.d, 0.3, T, 3000);
    const final = q[q.length - 1]!;
    const sag = (mc * GRAVITY * Math.cos(final)) / j!.p;
    expect(final - 0.3).toBeCloseTo(sag, 6);
    expect(Math.abs(final - 0.3)).toBeLessThanOrEqual(1e-3);
    expect(Math.max(...q)).toBeLessThan(0.3 * 1.1); // ζ 0.7: a few percent over at most
  });

  it('damping past the bound α + 2β = 4 diverges, just below it does not (the criterion is the integrator\'s)', () => {
    const alpha = (j!.p * T * T) / I;
    const dAtBound = ((4 - alpha) * I) / (2 * T);
    const bounded = (d: number): boolean => simulatePendulum(I, mc, j!.p, d, 0.3, T, 4000).every((x) => Math.abs(x) < 10);
    expect(bounded(dAtBound * 0.97)).toBe(true);
    expect(bounded(dAtBound * 1.03)).toBe(false);
  });
});

interface Arm { m1: number; c1: number; l1: number; i1: number; m2: number; c2: number; i2: number }
// A light upper arm carrying a heavy forearm: stretched, the shoulder turns 5 kg·m²; with the elbow free it
// feels 0.07 kg·m² — a fast mode the shoulder's own inertia hides. And a milder one.
const extreme: Arm = { m1: 1, c1: 0.25, l1: 0.5, i1: 0.01, m2: 5, c2: 0.5, i2: 0.001 };
const mild: Arm = { m1: 2, c1: 0.25, l1: 0.5, i1: 0.05, m2: 3, c2: 0.3, i2: 0.05 };
function twoLink(a: Arm): RobotModel {
  return robot([
    base(),
    link('upper', 'base', joint('j1', 'revolute', { axis: [0, 1, 0], lower: -1.5, upper: 1.5 }), pose([0, 0, 0.3]), { mass: a.m1, centerOfMass: [a.c1, 0, 0], inertia: diag(0.02, a.i1, 0.02) }),
    link('fore', 'upper', joint('j2', 'revolute', { axis: [0, 1, 0], lower: -2.5, upper: 2.5 }), pose([a.l1, 0, 0]), { mass: a.m2, centerOfMass: [a.c2, 0, 0], inertia: diag(0.03, a.i2, 0.03) }),
  ]);
}
const inertiaByHand = (a: Arm, q2: number): number[][] => {
  const M11 = a.i1 + a.m1 * a.c1 * a.c1 + a.i2 + a.m2 * (a.l1 * a.l1 + a.c2 * a.c2 + 2 * a.l1 * a.c2 * Math.cos(q2));
  const M12 = a.i2 + a.m2 * (a.c2 * a.c2 + a.l1 * a.c2 * Math.cos(q2));
  return [[M11, M12], [M12, a.i2 + a.m2 * a.c2 * a.c2]];
};
/** Largest eigenvalue of M⁻¹·diag(k) for a 2×2 M, in closed form. */
function lambdaMax(M: number[][], k: number[]): number {
  const det = M[0]![0]! * M[1]![1]! - M[0]![1]! ** 2;
  const inv = [[M[1]![1]! / det, -M[0]![1]! / det], [-M[0]![1]! / det, M[0]![0]! / det]];
  const a = inv[0]![0]! * k[0]!, b = inv[0]![1]! * k[1]!, c = inv[1]![0]! * k[0]!, d = inv[1]![1]! * k[1]!;
  return (a + d) / 2 + Math.sqrt(((a - d) / 2) ** 2 + b * c);
}
/** The loop linearised at a configuration, stepped as the simulator does from a 0.01 rad error; the largest |q| over the last 500 steps. */
function linearisedGrowth(M: number[][], p: number[], d: number[], T: number, steps: number): number {
  const det = M[0]![0]! * M[1]![1]! - M[0]![1]! ** 2;
  const inv = [[M[1]![1]! / det, -M[0]![1]! / det], [-M[0]![1]! / det, M[0]![0]! / det]];
  let x = [0.01, -0.01], v = [0, 0];
  let late = 0;
  for (let s = 0; s < steps; s++) {
    const u = [0, 1].map((i) => -p[i]! * x[i]! - d[i]! * v[i]!);
    v = [0, 1].map((i) => v[i]! + T * (inv[i]![0]! * u[0]! + inv[i]![1]! * u[1]!));
    x = [0, 1].map((i) => x[i]! + T * v[i]!);
    if (s >= steps - 500) late = Math.max(late, Math.abs(x[0]!), Math.abs(x[1]!));
  }
  return Number.isFinite(late) ? late : Infinity;
}

describe('two joints: the coupled loop', () => {
  const T = 1e-3;
  const omega = 2 * Math.PI * 10;
  const samples = 100;
  const design = (a: Arm) => designGains(jointLoads(twoLink(a), { samples }), modes(twoLink(a), 'position_pd'), { timeStep: T });
  const qs = loadConfigurations(twoLink(mild), { samples });
  /** The sampled configuration where the shoulder feels the least inertia (elbow free). */
  const lightest = (a: Arm): number[][] =>
    qs.map((q) => inertiaByHand(a, q.get('j2')!)).sort((x, y) => x[0]![0]! - x[0]![1]! ** 2 / x[1]![1]! - (y[0]![0]! - y[0]![1]! ** 2 / y[1]![1]!))[0]!;

  it('mild arm: both joints keep the formula\'s P (from the sag); their D is lowered', () => {
    const d = design(mild);
    const stretched = inertiaByHand(mild, 0);
    const { m1, c1, l1, m2, c2 } = mild;
    expect(d.joints[0]!.p).toBeCloseTo(Math.max(stretched[0]![0]! * omega ** 2, (GRAVITY * (m1 * c1 + m2 * l1 + m2 * c2)) / 1e-3), 6);
    expect(d.joints[1]!.p).toBeCloseTo(Math.max(stretched[1]![1]! * omega ** 2, (GRAVITY * m2 * c2) / 1e-3), 6);
    expect(d.joints.map((g) => [g.pFrom, g.dLowered])).toEqual([['sag', true], ['sag', true]]);
    expect(d.warnings).toEqual([]);
  });

  it.each([['mild', mild], ['extreme', extreme]] as const)('%s arm: T²·λmax(M⁻¹K) + 2T·λmax(M⁻¹D) ≤ 2 at every sampled configuration, and reaches it at one', (_, a) => {
    const d = design(a);
    const [g1, g2] = d.joints;
    const margins = qs.map((q) => {
      const M = inertiaByHand(a, q.get('j2')!);
      return T * T * lambdaMax(M, [g1!.p, g2!.p]) + 2 * T * lambdaMax(M, [g1!.d, g2!.d]);
    });
    expect(Math.max(...margins)).toBeLessThanOrEqual(STABILITY_TARGET * (1 + 1e-6));
    expect(Math.max(...margins)).toBeGreaterThan(STABILITY_TARGET * 0.95);
    expect(d.margin).toBeCloseTo(Math.max(...margins), 6);
  });

  it('extreme arm: stepped as the simulator steps it, the designed loop decays where the formula\'s own gains grow without bound', () => {
    const d = design(extreme);
    const [g1, g2] = d.joints;
    const M = lightest(extreme);
    const formulaP = [g1!, g2!].map((g) => Math.max(g.inertia * omega ** 2, g.load.gravity / 1e-3));
    const formulaD = [g1!, g2!].map((g, i) => 2 * 0.7 * Math.sqrt(formulaP[i]! * g.inertia));
    expect(linearisedGrowth(M, [g1!.p, g2!.p], [g1!.d, g2!.d], T, 3000)).toBeLessThan(1e-3);
    expect(linearisedGrowth(M, formulaP, formulaD, T, 3000)).toBeGreaterThan(1);
    // Such an arm cannot have both: its P is lowered too, and the sag it then has is reported.
    expect(g1!.p).toBeLessThan(formulaP[0]!);
    expect(d.warnings.join('\n')).toContain(`j1: P lowered from ${formulaP[0]!.toPrecision(4)}`);
    expect(d.warnings.join('\n')).toMatch(/j1: gravity sag up to .* over the 0.001 asked/);
  });

  it('a joint the simulator holds (position mode) is no free degree of freedom: the shoulder then feels M11', () => {
    const model = twoLink(mild);
    const held = designGains(jointLoads(model, { samples }), modes(model, 'position_pd', { j2: 'position' }), { timeStep: T });
    expect(held.joints.map((g) => g.joint)).toEqual(['j1']);
    const folded = Math.min(...qs.map((q) => inertiaByHand(mild, q.get('j2')!)[0]![0]!));
    expect(held.joints[0]!.lightest).toBeCloseTo(folded, 9);
  });

  it('user gains are kept as given, and a margin they break is reported', () => {
    const model = twoLink(mild);
    const user = new Map([['j1', { p: 50000, d: 2000 }]]);
    const d = designGains(jointLoads(model, { samples }), modes(model, 'position_pd'), { timeStep: T }, user);
    expect(d.joints[0]).toMatchObject({ p: 50000, d: 2000, pFrom: 'user', dFrom: 'user', dLowered: false });
    expect(d.margin).toBeGreaterThan(STABILITY_TARGET);
    expect(d.warnings.join('\n')).toMatch(/stability margin .* lower the gains given by the gains file/);
  });
});

it('a user P alone gets the model\'s D for it (D = 2ζ√(P·I))', () => {
  const model = pendulum(3, 0.4, 0.02);
  const I = 0.02 + 3 * 0.16;
  const d = designGains(jointLoads(model, { samples: 20 }), modes(model, 'position_pd'), {}, new Map([['j', { p: 20000 }]]));
  expect(d.joints[0]).toMatchObject({ p: 20000, pFrom: 'user', dFrom: 'model', dLowered: false });
  expect(d.joints[0]!.d).toBeCloseTo(2 * 0.7 * Math.sqrt(20000 * I), 9);
});

describe('velocity loops', () => {
  it('velocity_pd: P = I·ω, D = 0; lowered to I/T at a coarse step (2T·P/I ≤ 2)', () => {
    const wheel = robot([base(), link('wheel', 'base', joint('w', 'revolute', { axis: [0, 1, 0] }), pose([0, 0.2, 0.1]), { mass: 1, inertia: diag(0.002, 0.004, 0.002) })]);
    const loads = jointLoads(wheel, { samples: 10 });
    const fine = designGains(loads, modes(wheel, 'velocity_pd'), { timeStep: 1e-3 }).joints[0]!;
    expect(fine.p).toBeCloseTo(0.004 * 2 * Math.PI * 10, 12);
    expect(fine.d).toBe(0);
    const coarse = designGains(loads, modes(wheel, 'velocity_pd'), { timeStep: 0.1 }).joints[0]!;
    expect(coarse.p).toBeCloseTo(0.004 / 0.1, 9);
    expect(coarse.dLowered).toBe(true);
  });

  it('extra inertia (a wheel pushing its share of the body) raises P', () => {
    const wheel = robot([base(), link('wheel', 'base', joint('w', 'revolute', { axis: [0, 1, 0] }), pose([0, 0.2, 0.1]), { mass: 1, inertia: diag(0.002, 0.004, 0.002) })]);
    const g = designGains(jointLoads(wheel, { samples: 10 }), modes(wheel, 'velocity_pd'), {}, new Map(), new Map([['w', 0.05]])).joints[0]!;
    expect(g.inertia).toBeCloseTo(0.054, 12);
  });
});

describe('no gains where no loop runs', () => {
  it('position, velocity (high gain) joints get none', () => {
    const model = twoLink(mild);
    const d = designGains(jointLoads(model, { samples: 10 }), modes(model, 'position'), {});
    expect(d.joints).toEqual([]);
    expect(d.margin).toBe(0);
  });

  it('a joint that carries nothing is reported', () => {
    const model = robot([base(), link('ghost', 'base', joint('g', 'revolute', { axis: [0, 0, 1], lower: -1, upper: 1 }), pose([0, 0, 0]), { mass: 0, inertia: diag(0, 0, 0) })]);
    const d = designGains(jointLoads(model, { samples: 5 }), modes(model, 'position_pd'), {});
    expect(d.warnings.join('\n')).toMatch(/g: carries no mass, inertia or rotor/);
  });
});

it('jointSpaceDynamics and the hand-written M agree on the two-link arms used above', () => {
  for (const a of [mild, extreme]) {
    const d = jointSpaceDynamics(twoLink(a), new Map([['j2', 0.9]]));
    const hand = inertiaByHand(a, 0.9);
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) expect(d.inertia[i]![j]).toBeCloseTo(hand[i]![j]!, 12);
  }
});

describe('a limb standing on the ground: the body it carries', () => {
  // A free body of 10 kg whose centre of mass lies 0.1 m ahead of (and 0.5 m above) the hip of its one leg, a
  // 2 kg shank hanging straight below the hip: standing on it, the hip holds the body's 10·g·0.1 N·m (the
  // shank's weight passes through the axis at this pose); in the air it holds the shank alone, 0 at this pose.
  const standing = (): RobotModel =>
    robot([
      link('body', null, joint('body', 'free'), pose([0, 0, 1]), { mass: 10, centerOfMass: [0.1, 0, 0.5], inertia: diag(0.5, 0.5, 0.5) }),
      link('shank', 'body', joint('hip', 'revolute', { axis: [0, 1, 0], lower: -1, upper: 1 }), pose([0, 0, 0]), { mass: 2, centerOfMass: [0, 0, -0.5], inertia: diag(0.04, 0.04, 0.01) }),
    ]);

  it('carriedLoads: the weight on the far side of the joint, at the pose the body stands in', () => {
    expect(carriedLoads(standing(), ['hip']).get('hip')).toBeCloseTo(10 * GRAVITY * 0.1, 12);
    // Only the joints asked about.
    expect(carriedLoads(standing(), []).size).toBe(0);
  });

  it('carriedLoads: the same weight over the farthest point of the sole below the joint, where the body may lean', () => {
    // A sole 0.3 m long under the shank (x from -0.1 to 0.2 m, its bottom on z = 0): standing, the body's 10 kg
    // may rest anywhere over it, at most 0.2 m ahead of the hip's axis — 10·g·0.2 N·m, more than the 10·g·0.1 N·m
    // where its centre of mass is at the initial pose. The shank's own weight is the limb's, not carried.
    const sole = shape({ kind: 'box', size: [0.3, 0.1, 0.1] }, affine([0.05, 0, -0.95]));
    const model = robot(standing().links.map((l) => (l.name === 'shank' ? { ...l, collisions: [sole] } : l)));
    expect(carriedLoads(model, ['hip']).get('hip')).toBeCloseTo(10 * GRAVITY * 0.2, 9);
    // Without geometry there is no sole: the initial pose alone.
    expect(carriedLoads(standing(), ['hip']).get('hip')).toBeCloseTo(10 * GRAVITY * 0.1, 12);
  });

  it('carriedLoads: a body a fixed root carries on a free joint stands on its own sole, over a floor of the model\'s (SR1-floor-box.body)', () => {
    // The same leg on a free joint below a fixed 100 kg floor slab whose top is 1 m below the sole: the floor is the
    // lowest geometry of the whole model, but the body stands on its own sole, and carries its own 10 kg, not the floor.
    const sole = shape({ kind: 'box', size: [0.3, 0.1, 0.1] }, affine([0.05, 0, -0.95]));
    const slab = shape({ kind: 'box', size: [5, 5, 0.2] }, affine([0, 0, -1.1]));
    const model = robot([
      link('floor', null, joint('floor', 'fixed'), pose([0, 0, 0]), { mass: 100, inertia: diag(50, 50, 50), collisions: [slab] }),
      ...standing().links.map((l) => (l.name === 'shank' ? { ...l, collisions: [sole] } : l.name === 'body' ? { ...l, parent: 'floor' } : l)),
    ]);
    expect(carriedLoads(model, ['hip']).get('hip')).toBeCloseTo(10 * GRAVITY * 0.2, 9);
  });

  it('scrubLoads: a steering joint holds its tyre turning on the floor — friction × weight × the farthest contact point', () => {
    // A 10 kg body 0.1 m up, a steering joint about z over a 1 kg block of a tyre whose flat bottom (0.1 × 0.04 m)
    // lies on z = 0 centred under the axis: its corners 0.0539 m from it.
    const tyre = shape({ kind: 'box', size: [0.1, 0.04, 0.06] }, affine([0, 0, -0.07]));
    const model = robot([
      link('body', null, joint('body', 'free'), pose([0, 0, 0.1]), { mass: 10, inertia: diag(0.5, 0.5, 0.5) }),
      link('fork', 'body', joint('steer', 'revolute', { axis: [0, 0, 1], lower: -1, upper: 1 }), pose([0.3, 0, 0]), { mass: 1, inertia: diag(0.01, 0.01, 0.01), collisions: [tyre] }),
    ]);
    const reach = Math.hypot(0.05, 0.02);
    expect(scrubLoads(model, ['steer'], 0.5).get('steer')).toBeCloseTo(0.5 * 11 * GRAVITY * reach, 9);
    expect(scrubLoads(model, [], 0.5).size).toBe(0);
    // The design holds it within the sag, and says where it came from.
    const loads = jointLoads(model, { samples: 10 });
    const g = designGains(loads, modes(model, 'position_pd'), { timeStep: 0.0001 }, new Map(), new Map(), new Map(), scrubLoads(model, ['steer'], 0.5)).joints[0]!;
    expect(g.heldFrom).toBe('tyre');
    expect(g.held).toBeCloseTo(0.5 * 11 * GRAVITY * reach, 9);
    expect(g.pFrom).toBe('sag');
  });

  it('the design holds the larger of the two within the sag: P = G/s from the body, the sag then s', () => {
    const model = standing();
    const loads = jointLoads(model, { samples: 50 });
    const air = designGains(loads, modes(model, 'position_pd'), { timeStep: 0.0001 });
    const stand = designGains(loads, modes(model, 'position_pd'), { timeStep: 0.0001 }, new Map(), new Map(), carriedLoads(model, ['hip']));
    const [a, s] = [air.joints[0]!, stand.joints[0]!];
    expect(a.heldFrom).toBe('gravity');
    expect(s.heldFrom).toBe('body');
    expect(s.held).toBeCloseTo(10 * GRAVITY * 0.1, 12);
    // The shank swinging in the air loads the hip with at most 2·g·0.5·sin(1) < the body's 9.8 N·m.
    expect(a.held).toBeLessThan(s.held);
    expect(s.p).toBeCloseTo(s.held / 0.001, 6);
    expect(s.sag).toBeCloseTo(0.001, 12);
    expect(s.pFrom).toBe('sag');
  });
});

describe('a joint that drives a closed loop holds what hangs on its far side (loop-loads.ts)', () => {
  // test/models/control/lever-loop.body: by hand, the rod holds g·(2·0.5/0.1 + 1.001) N at every stroke.
  const file = join(projectRoot, 'test/models/control/lever-loop.body');
  const ros = applyRosConventions(loadRobotModel(file));
  const byHand = GRAVITY * (2 * (0.5 / 0.1) + 1.001);

  it('by virtual work over the configurations, the followers solved to keep the loop closed', () => {
    const loads = loopLoads(ros.model, ['ROD'], new Set(['LEVER', 'SLIDER']), loadConfigurations(ros.model, { samples: 20 }));
    expect(loads.get('ROD')).toBeCloseTo(byHand, 4);
    // Without followers to solve there is no loop to close: nothing.
    expect(loopLoads(ros.model, ['ROD'], new Set(), loadConfigurations(ros.model, { samples: 2 })).size).toBe(0);
  });

  it('the gains hold it within the sag, where the tree alone saw the rod and the slider only, and the README says so', () => {
    const config = controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros).groups, samples: 20 });
    const rod = config.gains.joints.find((g) => g.joint === 'ROD')!;
    expect(rod.load.gravity).toBeCloseTo(byHand, 4);
    expect(jointLoads(ros.model, { samples: 20 }).joints.find((j) => j.joint === 'ROD')!.gravity).toBeCloseTo(GRAVITY * 1.001, 6);
    expect(rod.p / (byHand / 0.001)).toBeCloseTo(1, 6);
    expect(config.files.find((f) => f.name === 'README.md')!.text).toMatch(/ROD drives a closed loop: G includes what hangs on the loop's far side, 107\.9 N at most/);
  });
});
