// The sweep's goals (sweep/goals.ts): clear of the floor, a standing body's legs squatting with its feet in place
// and its centre of mass over them, and the old random goal kept where it was already clear. The checks here are
// independent of the planner's own: the floor by roles/ground.ts's full tessellation, the feet by forward
// kinematics of the whole body.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkWorldPoses } from '../src/kinematics/forward.js';
import { loadRobotModel } from '../src/load.js';
import type { Pose, RobotModel } from '../src/model/types.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { groundContact } from '../src/roles/ground.js';
import { inferRoles } from '../src/roles/roles.js';
import { type GoalJoint, randomGoal } from '../sweep/checks.js';
import { convexHull, GOAL_DRAWS, type GoalController, type GoalPoint, goalSetup, insideMargin, planGoals, planningModel } from '../sweep/goals.js';
import { goalsNote } from '../sweep/report.js';
import { corpusDir, projectRoot } from './support/oracle.js';

const biped = loadRobotModel(join(projectRoot, 'test/models/sweep/biped.body'));
const latch = loadRobotModel(join(projectRoot, 'test/models/sweep/latch.body'));
// UR10 stands on the floor at its base: its shoulder 0.13 m above it, its reach 1.3 m.
const manipulator = loadRobotModel(join(corpusDir, 'choreonoid/share/model/UniversalRobots/UR10.body'));

const goalJoints = (model: RobotModel, names: readonly string[]): GoalJoint[] =>
  names.map((n) => {
    const j = model.links.find((l) => l.joint.name === n)!.joint;
    return { name: n, type: j.type === 'prismatic' ? 'prismatic' : 'revolute', lower: j.lower, upper: j.upper, velocity: j.velocityUpper };
  });
const initial = (model: RobotModel): Record<string, number> =>
  Object.fromEntries(model.links.filter((l) => l.parent !== null).map((l) => [l.joint.name, Number.isFinite(l.joint.initial) ? l.joint.initial : 0]));
const rootPose = (model: RobotModel): Pose => linkWorldPoses(model).get(model.links[0]!.name)!;
const legsOf = (model: RobotModel): Set<string> => new Set(inferRoles(applyRosConventions(model).model).joints.filter((j) => j.role === 'leg').map((j) => j.joint));
/** The body's links' world poses at q with the root moved by d. */
const posesAt = (model: RobotModel, q: Record<string, number>, d: readonly number[]): Map<string, Pose> => {
  const poses = linkWorldPoses(model, new Map(Object.entries(q)));
  return new Map([...poses].map(([n, p]) => [n, { rotation: p.rotation, translation: [p.translation[0] + d[0]!, p.translation[1] + d[1]!, p.translation[2] + d[2]!] }]));
};

describe('a standing body squats: the root lowered, every foot where it stood', () => {
  const legs = legsOf(biped);
  const side = (s: string) => ['HIP_Y', 'HIP_R', 'HIP_P', 'KNEE', 'ANKLE_P', 'ANKLE_R'].map((j) => `${s}_${j}`);
  const controllers: GoalController[] = [
    { name: 'LLEG_controller', joints: goalJoints(biped, side('L')) },
    { name: 'RLEG_controller', joints: goalJoints(biped, side('R')) },
  ];
  const setup = goalSetup(biped, legs);

  it('infers the biped\'s twelve joints as legs (the premise of the squat)', () => {
    expect(legs.size).toBe(12);
  });

  it.each([1, 2, 3, 17, 40])('seed %i: the feet stay within 0.1 mm and 1 mrad of where they stood, the root goes down, the knees bend', (seed) => {
    const start = initial(biped);
    const plan = planGoals(setup, controllers, start, rootPose(biped), seed);
    expect(plan.found).toBe(true);
    expect(plan.squat).not.toBeNull();
    const d = plan.squat!;
    expect(d[2]).toBeLessThan(0);
    const goal = { ...start, ...plan.goals[0], ...plan.goals[1] };
    const before = posesAt(biped, start, [0, 0, 0]);
    const after = posesAt(biped, goal, d);
    for (const foot of ['L_ANKLE_R', 'R_ANKLE_R']) {
      const a = before.get(foot)!;
      const b = after.get(foot)!;
      expect(Math.hypot(...a.translation.map((x, i) => x - b.translation[i]!))).toBeLessThan(1e-4);
      for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) expect(Math.abs(a.rotation[i]![k]! - b.rotation[i]![k]!)).toBeLessThan(1e-3);
    }
    expect(goal['L_KNEE']).toBeGreaterThan(0.05);
    expect(goal['R_KNEE']).toBeGreaterThan(0.05);
    // Both legs move together: one duration.
    expect(plan.durations[0]).toBe(plan.durations[1]);
  });

  it('without leg roles the legs are any joints: drawn at random, the feet (on the floor) free to push into it as a flipper does', () => {
    const plan = planGoals(goalSetup(biped, new Set()), controllers, initial(biped), rootPose(biped), 1);
    expect(plan.squat).toBeNull();
    expect(plan.draws).toBe(1);
    expect(plan.goals[0]).toEqual(randomGoal(controllers[0]!.joints, initial(biped), 1));
  });
});

describe('an arm is never sent into the floor', () => {
  const arm = manipulator.links.filter((l) => l.parent !== null && l.joint.type === 'revolute').map((l) => l.joint.name);
  const controllers: GoalController[] = [{ name: 'arm_controller', joints: goalJoints(manipulator, arm) }];
  const setup = goalSetup(manipulator, new Set());
  const lowestArm = (q: Record<string, number>): number => {
    const at = { ...manipulator, links: manipulator.links.map((l) => (l.parent === null ? l : { ...l, joint: { ...l.joint, initial: q[l.joint.name] ?? 0 } })) };
    const g = groundContact(at);
    return Math.min(...[...g.lowest].filter(([l]) => l !== manipulator.links[0]!.name && l !== 'SHOULDER').map(([, z]) => z));
  };

  it('over 40 seeds: every goal keeps the arm above the floor by the full tessellation, and some first draws did not', () => {
    const start = initial(manipulator);
    let redrawn = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const plan = planGoals(setup, controllers, start, rootPose(manipulator), seed);
      expect(plan.found).toBe(true);
      expect(lowestArm({ ...start, ...plan.goals[0] })).toBeGreaterThan(0);
      if (plan.draws > 1) {
        redrawn++;
        // Rejected for a reason a person sees, and the first draw is the old random goal, which was not clear.
        expect(Object.keys(plan.rejected).length).toBeGreaterThan(0);
      }
      if (plan.draws === 1) expect(plan.goals[0]).toEqual(randomGoal(controllers[0]!.joints, start, seed));
    }
    expect(redrawn).toBeGreaterThan(0);
    // An independent look at what was rejected: some seed's first draw put the arm into the floor.
    const firstDraws = Array.from({ length: 40 }, (_, i) => lowestArm({ ...start, ...randomGoal(controllers[0]!.joints, start, i + 1) }));
    expect(firstDraws.some((z) => z < 0)).toBe(true);
  });
});

describe('support polygon', () => {
  it.each([
    { points: [[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]], hull: 4, at: [0.5, 0.5], margin: 0.5 },
    { points: [[0, 0], [1, 0], [1, 1], [0, 1]], hull: 4, at: [0.9, 0.5], margin: 0.1 },
    { points: [[0, 0], [1, 0], [1, 1], [0, 1]], hull: 4, at: [1.2, 0.5], margin: -0.2 },
    { points: [[0, 0], [2, 0], [0, 2]], hull: 3, at: [0.5, 0.5], margin: 0.5 },
    { points: [[0, 0], [1, 0]], hull: 2, at: [0.5, 0], margin: -Infinity },
  ] as const)('hull of $points: $hull corners; margin at $at is $margin', ({ points, hull, at, margin }) => {
    const h = convexHull(points.map((p) => [p[0], p[1]] as [number, number]));
    expect(h.length).toBe(hull);
    expect(insideMargin(h, at[0], at[1])).toBeCloseTo(margin, 9);
  });
});

describe('the table says how the goals were drawn', () => {
  it.each([
    { g: undefined, note: null },
    { g: { draws: 1, found: true, squat: null, rejected: {} }, note: null },
    { g: { draws: 5, found: true, squat: null, rejected: { 'WRIST2 into the floor': 4 } }, note: 'goals: draw 5' },
    { g: { draws: 1, found: true, squat: [0, -0.021, -0.012] as [number, number, number], rejected: {} }, note: 'goals: a squat 12 mm down, 21 mm aside' },
    { g: { draws: 12, found: true, squat: [0, 0, -0.013] as [number, number, number], rejected: {} }, note: 'goals: a squat 13 mm down; draw 12' },
    { g: { draws: 400, found: false, squat: [0, 0, 0] as [number, number, number], rejected: {} }, note: 'goals: the legs held where they stand; no clear draw in 400: the last sent' },
    {
      g: { draws: 401, found: true, squat: null, rejected: {}, moves: [{ joint: 'KNOB', stop: true }, { joint: 'DOOR', stop: false }, { joint: 'KNOB', stop: false }] },
      note: 'goals: draw 401; one joint at a time: KNOB to its stop, DOOR, KNOB',
    },
    { g: { draws: 37, found: false, squat: null, rejected: {}, timedOut: 60 }, note: 'goals: no clear draw in 37 (planning stopped at 60 s): the last sent' },
  ])('$note', ({ g, note }) => {
    expect(goalsNote(g)).toBe(note);
  });
});

describe('a latched door: no goal sent at once is clear, so the joints move one at a time, the knob by way of its stop', () => {
  const controllers: GoalController[] = [{ name: 'DOOR_controller', joints: goalJoints(latch, ['DOOR', 'KNOB']) }];
  const setup = goalSetup(latch, new Set());
  const start = initial(latch);
  const root = rootPose(latch);
  // The model's geometry by hand (test/models/sweep/latch.body), not through the planner's FK or collision checker:
  // points through the latch bar's volume in the world, and the lock's box.
  const barPoints = (door: number, knob: number): number[][] => {
    const out: number[][] = [];
    for (const x of [-0.005, 0, 0.005]) {
      for (let k = 0; k <= 20; k++) {
        for (const z of [-0.01, 0, 0.01]) {
          const y = -0.02 + (0.1 * k) / 20;
          // Knob frame (about x by knob), at (0.03, 0.49, 0) on the door; the door about z by door, 1 m up.
          const [kx, ky, kz] = [0.03 + x, 0.49 + y * Math.cos(knob) - z * Math.sin(knob), y * Math.sin(knob) + z * Math.cos(knob)];
          out.push([kx * Math.cos(door) - ky * Math.sin(door), kx * Math.sin(door) + ky * Math.cos(door), 1 + kz]);
        }
      }
    }
    return out;
  };
  const inLock = (p: number[]): boolean => p[0]! > 0.04 && p[0]! < 0.06 && p[1]! > 0.505 && p[1]! < 0.555 && p[2]! > 0.85 && p[2]! < 1.15;
  /** Where the joints are at t along points sent to the controller (velocity 0 at each: a smoothstep between them). */
  const along = (points: readonly GoalPoint[], t: number): Record<string, number> => {
    let from = { time: 0, positions: { DOOR: start['DOOR']!, KNOB: start['KNOB']! } as Record<string, number> };
    for (const p of points) {
      if (t <= p.time) {
        const s = Math.min(1, Math.max(0, (t - from.time) / (p.time - from.time)));
        const h = s * s * (3 - 2 * s);
        return Object.fromEntries(Object.keys(p.positions).map((j) => [j, from.positions[j]! + h * (p.positions[j]! - from.positions[j]!)]));
      }
      from = p;
    }
    return from.positions;
  };
  const caught = (points: readonly GoalPoint[]): number => {
    const end = points.at(-1)!.time;
    let n = 0;
    for (let i = 0; i <= 2000; i++) {
      const q = along(points, (end * i) / 2000);
      if (barPoints(q['DOOR']!, q['KNOB']!).some(inLock)) n++;
    }
    return n;
  };

  it.each([1, 2, 3])('seed %i: the knob turns past 79° before the door opens, the bar never enters the lock, and the goal is reached', (seed) => {
    const plan = planGoals(setup, controllers, start, root, seed);
    expect(plan.found).toBe(true);
    expect(plan.draws).toBeGreaterThan(GOAL_DRAWS);
    const points = plan.points[0]!;
    // Times strictly increasing; the last point is the goal.
    points.forEach((p, i) => i > 0 && expect(p.time).toBeGreaterThan(points[i - 1]!.time));
    expect(points.at(-1)!.positions).toEqual(plan.goals[0]);
    expect(plan.durations[0]).toBe(points.at(-1)!.time);
    // One joint at a time between points; the door moves only while the knob stands past 79°.
    for (let i = 0; i < points.length; i++) {
      const a = i === 0 ? { DOOR: start['DOOR']!, KNOB: start['KNOB']! } : points[i - 1]!.positions;
      const b = points[i]!.positions;
      const changed = Object.keys(b).filter((j) => Math.abs(b[j]! - (a as Record<string, number>)[j]!) > 1e-12);
      expect(changed.length).toBeLessThanOrEqual(1);
      if (changed[0] === 'DOOR') expect(b['KNOB']!).toBeGreaterThan((79 * Math.PI) / 180);
    }
    expect(plan.moves?.some((m) => m.joint === 'KNOB' && m.stop)).toBe(true);
    expect(caught(points)).toBe(0);
  });

  it('the goal sent at once (the first draw) drives the bar into the lock: what the planner saw, by the hand-written geometry', () => {
    const goal = randomGoal(controllers[0]!.joints, start, 1);
    expect(goal['KNOB']!).toBeLessThan((79 * Math.PI) / 180);
    expect(caught([{ time: 2, positions: goal }])).toBeGreaterThan(0);
  });
});

describe('a body a fixed root carries on a free joint squats as a free body does (SR1-floor-box.body: the robot on its Floor)', () => {
  const whole = loadRobotModel(join(corpusDir, 'choreonoid/share/model/SR1/SR1-floor-box.body'));
  const legs = legsOf(whole);
  const side = (s: string) => ['HIP_R', 'HIP_P', 'HIP_Y', 'KNEE', 'ANKLE_P', 'ANKLE_R'].map((j) => `${s}LEG_${j}`);

  it('reads its legs as legs, and plans on the robot alone, rooted at WAIST', () => {
    expect([...legs].sort()).toEqual([...side('L'), ...side('R')].sort());
    const m = planningModel(whole, legs);
    expect(m.links[0]!.name).toBe('WAIST');
    expect(m.links[0]!.parent).toBeNull();
    expect(m.links.some((l) => l.name === 'Floor' || l.name === 'Box')).toBe(false);
    // A free root, or a model without legs, is planned whole.
    expect(planningModel(biped, legsOf(biped))).toBe(biped);
    expect(planningModel(whole, new Set())).toBe(whole);
  });

  it('its legs squat with the feet in place, by forward kinematics of the whole model with WAIST where the plan put it', () => {
    const setup = goalSetup(whole, legs);
    const controllers: GoalController[] = [
      { name: 'LLEG_controller', joints: goalJoints(whole, side('L')) },
      { name: 'RLEG_controller', joints: goalJoints(whole, side('R')) },
    ];
    const start = initial(whole);
    const waist = linkWorldPoses(whole).get('WAIST')!;
    const plan = planGoals(setup, controllers, start, waist, 1);
    expect(plan.found).toBe(true);
    expect(plan.squat![2]).toBeLessThan(0);
    // The whole model's FK puts WAIST at its model pose; the feet are compared relative to it, then moved by the squat.
    const before = linkWorldPoses(whole, new Map(Object.entries(start)));
    const after = linkWorldPoses(whole, new Map(Object.entries({ ...start, ...plan.goals[0], ...plan.goals[1] })));
    for (const foot of ['LLEG_ANKLE_R', 'RLEG_ANKLE_R']) {
      const a = before.get(foot)!.translation;
      const b = after.get(foot)!.translation.map((x, i) => x + plan.squat![i]!);
      expect(Math.hypot(...a.map((x, i) => x - b[i]!))).toBeLessThan(1e-4);
    }
  });
});

it('planning stops at its deadline, saying so, with the last draw made', () => {
  const controllers: GoalController[] = [{ name: 'DOOR_controller', joints: goalJoints(latch, ['DOOR', 'KNOB']) }];
  // Every draw of the latch is rejected: past the deadline after the first, no more are made.
  const plan = planGoals(goalSetup(latch, new Set()), controllers, initial(latch), rootPose(latch), 1, performance.now());
  expect(plan.found).toBe(false);
  expect(plan.timedOut).toBe(true);
  expect(plan.draws).toBe(1);
  expect(plan.moves).toBeNull();
});

describe('a closed loop\'s follower is where its driver puts it: a goal that swings it into the floor is not sent', () => {
  // test/models/sweep/lever-floor.body by hand: the rod's travel h turns the lever to θ = −asin(h / 0.1), its tip
  // cube's centre at z = 0.12 + 5·h; the cube (0.02 m) turned by θ reaches √2·0.01·cos(|θ| − 45°) below its centre.
  const model = loadRobotModel(join(projectRoot, 'test/models/sweep/lever-floor.body'));
  const passive = new Set(['LEVER', 'SLIDER']);
  const controllers: GoalController[] = [{ name: 'ROD_controller', joints: goalJoints(model, ['ROD']) }];
  const lowestAt = (h: number): number => {
    const theta = Math.asin(h / 0.1);
    return 0.12 + 5 * h - Math.SQRT2 * 0.01 * Math.cos(Math.abs(theta) - Math.PI / 4);
  };
  const setup = goalSetup(model, new Set(), passive);

  it('solves the lever for the rod (the lever is checked, not loose)', () => {
    expect(setup.closure?.followers.sort()).toEqual(['LEVER', 'SLIDER']);
    expect(setup.loose.has('LEVER')).toBe(false);
  });

  it.each(Array.from({ length: 24 }, (_, k) => k + 1))('seed %i: the tip stays clear of the floor all the way to the goal', (seed) => {
    const plan = planGoals(setup, controllers, initial(model), rootPose(model), seed);
    expect(plan.found).toBe(true);
    const h = plan.goals[0]!['ROD']!;
    // Clear by the sweep's clearance (3 mm) at the goal; the way there is a monotone stroke from 0.
    expect(lowestAt(h)).toBeGreaterThanOrEqual(0.003 - 1e-6);
  });

  it('rejects the draws that would put it there (a quarter of the rod\'s range below its start puts the tip 5 mm into the floor)', () => {
    const rejected = Array.from({ length: 24 }, (_, k) => planGoals(setup, controllers, initial(model), rootPose(model), k + 1).rejected['LEVER into the floor'] ?? 0);
    expect(rejected.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
