// The corpus sweep's pure parts (sweep/): which models a run takes, what it sends, how it judges what Choreonoid and
// the ROS graph report, how it reads the generated controllers, and the table it writes. The live part runs with
// `npm run sweep` (docs/corpus-sweep.md).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlConfig } from '../src/control/config.js';
import { jointTolerances } from '../src/control/controllers.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { planningGroups } from '../src/moveit/config.js';
import { inferRoles } from '../src/roles/roles.js';
import {
  DRIVE,
  driveVerdict,
  explosionFigures,
  finalErrors,
  type GoalJoint,
  judge,
  MIN_TRAJECTORY,
  randomGoal,
  realTimeFactor,
  restDrift,
  rootMotion,
  ROOT_SPEED_LIMIT,
  speedLimit,
  trajectoryDuration,
  UNLIMITED_JOINT_SPEED,
} from '../sweep/checks.js';
import { driveTopics, isDiffDrive, isSteeringDrive, isTrajectoryController, modelDesign, spawnedControllers } from '../sweep/design.js';
import { renderDocument } from '../sweep/document.js';
import { OWN_MODELS, selectModels, type SweepModel, sweepModels } from '../sweep/models.js';
import { counts, figure, measuredFacts, merge, type ModelResult, passed, renderTable } from '../sweep/report.js';
import { reasonFor } from '../sweep/reasons.js';
import { choreonoidLines, controllerAbort } from '../sweep/logs.js';
import { type ProbeSample, readProbeLog } from './support/control-live.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { findChoreonoidShare } from './support/peers.js';
import { CORPUS_ROLES, SHARE_ROLES } from './support/role-expectations.js';

/** A probe sample: the root at (x, y, z) and these joint angles and speeds. */
const sample = (sim: number, q: Record<string, number>, options: { root?: [number, number, number]; running?: boolean } = {}): ProbeSample => {
  const [x, y, z] = options.root ?? [0, 0, 0];
  return { wall: sim, sim, running: options.running ?? true, q, links: { BASE: [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1] } };
};

describe('which models the sweep takes', () => {
  const models: SweepModel[] = ['choreonoid/share/model/PA10/PA10.body', 'openhrp3/sample/model/PA10/pa10.main.wrl', 'choreonoid/share/model/Tank/Tank.body'].map((m) => ({ model: m, file: `/c/${m}` }));
  const hash = (m: SweepModel): string => `h-${m.model.length}`;
  it.each([
    { what: 'everything, nothing done', only: undefined, rerun: false, done: [], expected: [0, 1, 2] },
    { what: 'a pattern, case-insensitive', only: 'pa10', rerun: false, done: [], expected: [0, 1] },
    { what: 'an anchored pattern', only: 'PA10\\.body$', rerun: false, done: [], expected: [0] },
    { what: 'done with the same hash: skipped', only: undefined, rerun: false, done: [[models[0]!.model, hash(models[0]!)]], expected: [1, 2] },
    { what: 'done with another hash (the file changed): run again', only: undefined, rerun: false, done: [[models[0]!.model, 'old']], expected: [0, 1, 2] },
    { what: '--rerun: done or not', only: 'Tank', rerun: true, done: [[models[2]!.model, hash(models[2]!)]], expected: [2] },
  ])('$what', ({ only, rerun, done, expected }) => {
    const selected = selectModels(models, { ...(only ? { only } : {}), rerun }, new Map(done as [string, string][]), hash);
    expect(selected).toEqual(expected.map((i) => models[i]));
  });

  it("every articulated corpus model the roles test judges, then ours, then the installed share's the corpus lacks, each once and each on disk", () => {
    const share = findChoreonoidShare();
    const list = sweepModels(corpusDir, projectRoot, share.ok ? share.dir : null);
    const shared = share.ok ? SHARE_ROLES.map((r) => `\${SHARE}/${r.model}`) : [];
    expect(list.map((m) => m.model)).toEqual([...CORPUS_ROLES.map((r) => r.model), ...OWN_MODELS, ...shared]);
    expect(new Set(list.map((m) => m.model)).size).toBe(list.length);
    for (const m of list) expect(existsSync(m.file), m.file).toBe(true);
  });
});

describe('what the sweep sends', () => {
  const joints: GoalJoint[] = [
    { name: 'a', type: 'revolute', lower: -1, upper: 1, velocity: 2 },
    { name: 'b', type: 'prismatic', lower: 0, upper: 0.1, velocity: Infinity },
    { name: 'c', type: 'revolute', lower: -Infinity, upper: Infinity, velocity: 1 },
  ];
  const start = { a: 0, b: 0.05, c: 3 };

  it('a goal lies in the middle half of each joint\'s limits, about where an unlimited joint stands, the same for the same seed', () => {
    for (let seed = 0; seed < 50; seed++) {
      const g = randomGoal(joints, start, seed);
      expect(Math.abs(g.a!)).toBeLessThanOrEqual(0.5);
      expect(g.b).toBeGreaterThanOrEqual(0.025);
      expect(g.b).toBeLessThanOrEqual(0.075);
      expect(Math.abs(g.c! - 3)).toBeLessThanOrEqual(0.5);
      expect(randomGoal(joints, start, seed)).toEqual(g);
    }
    expect(randomGoal(joints, start, 1)).not.toEqual(randomGoal(joints, start, 2));
  });

  it.each([
    { what: 'short moves take the least time', goal: { a: 0.1, b: 0.05, c: 3 }, expected: MIN_TRAJECTORY },
    { what: 'a joint at half its limit sets it (1.8 rad at 1 rad/s)', goal: { a: 0, b: 0.05, c: 4.8 }, expected: 3.6 },
    { what: 'rounded up to a tenth', goal: { a: -2.05, b: 0.05, c: 3 }, expected: 2.1 },
    { what: 'no limit given: UNLIMITED_JOINT_SPEED', goal: { a: 0, b: 0.05 + UNLIMITED_JOINT_SPEED.prismatic * 3, c: 3 }, expected: 6 },
  ])('trajectory time: $what', ({ goal, expected }) => {
    expect(trajectoryDuration(joints, start, goal)).toBeCloseTo(expected, 9);
  });

  it.each([
    { joint: { type: 'revolute', velocityLower: -2, velocityUpper: 3 }, expected: 2 },
    { joint: { type: 'revolute', velocityLower: -Infinity, velocityUpper: Infinity }, expected: UNLIMITED_JOINT_SPEED.revolute },
    { joint: { type: 'prismatic', velocityLower: -Infinity, velocityUpper: Infinity }, expected: UNLIMITED_JOINT_SPEED.prismatic },
    { joint: { type: 'revolute', velocityLower: 0, velocityUpper: 0 }, expected: UNLIMITED_JOINT_SPEED.revolute },
  ])('speed limit of $joint', ({ joint, expected }) => {
    expect(speedLimit(joint)).toBe(expected);
  });
});

describe('how the sweep judges', () => {
  it.each([
    { what: 'nothing to judge', figures: [], pass: true, worst: null },
    { what: 'at the bound passes', figures: [{ what: 'a', value: 1, bound: 1, unit: 'rad' }], pass: true, worst: 'a' },
    { what: 'one past fails, and is the worst', figures: [{ what: 'a', value: 0.5, bound: 1, unit: 'rad' }, { what: 'b', value: 0.3, bound: 0.2, unit: 'rad' }], pass: false, worst: 'b' },
    { what: 'the worst is by ratio, not value', figures: [{ what: 'a', value: 0.9, bound: 10, unit: 'rad' }, { what: 'b', value: 0.1, bound: 0.2, unit: 'rad' }], pass: true, worst: 'b' },
    { what: 'a joint not reported (NaN) fails', figures: [{ what: 'a', value: NaN, bound: 1, unit: 'rad' }, { what: 'b', value: 0.9, bound: 1, unit: 'rad' }], pass: false, worst: 'a' },
  ])('$what', ({ figures, pass, worst }) => {
    const v = judge(figures);
    expect(v.pass).toBe(pass);
    expect(v.worst?.what ?? null).toBe(worst);
  });

  it('rest: each held joint\'s largest distance from where the window began, against its allowed drift', () => {
    const samples = [sample(1, { a: 0.1, b: 0 }), sample(1.5, { a: 0.1004, b: -0.002 }), sample(2, { a: 0.0999, b: -0.0005 })];
    const figures = restDrift(samples, samples[0]!.q, { a: 0.001, b: 0.001 }, { b: 'm' });
    expect(figures.map((f) => [f.what, +f.value.toFixed(6), f.unit])).toEqual([
      ['a', 0.0004, 'rad'],
      ['b', 0.002, 'm'],
    ]);
    expect(judge(figures).pass).toBe(false);
    expect(judge(restDrift(samples, samples[0]!.q, { a: 0.001 })).pass).toBe(true);
  });

  it('a trajectory\'s final error per joint against that joint\'s goal tolerance; a joint not reported fails', () => {
    const errors = finalErrors({ a: 0.5015, b: 0.2 }, { a: 0.5, b: 0.201 }, { a: 0.002, b: 0.002 });
    expect(errors.map((e) => +e.value.toFixed(6))).toEqual([0.0015, 0.001]);
    expect(judge(errors).pass).toBe(true);
    expect(judge(finalErrors({ a: 0.5 }, { a: 0.5, b: 0.2 }, { a: 0.002, b: 0.002 })).pass).toBe(false);
    expect(judge(finalErrors({ a: 0.503 }, { a: 0.5 }, { a: 0.002 })).pass).toBe(false);
  });

  it.each([
    { what: '0.6 m exactly', to: [0.6, 0, 0.1], pass: true },
    { what: 'within 5 % (0.571 m, sideways too)', to: [0.55, 0.2283, 0.1], pass: true },
    { what: 'short by more than 5 % (0.56 m)', to: [0.56, 0, 0.1], pass: false },
    { what: 'too far (0.64 m)', to: [0.64, 0, 0.1], pass: false },
    { what: 'height does not count', to: [0.6, 0, 0.5], pass: true },
  ])('drive: $what', ({ to, pass }) => {
    const v = driveVerdict(sample(1, {}, { root: [0, 0, 0.1] }), sample(5.5, {}, { root: to as [number, number, number] }), 'BASE');
    expect(v.value <= v.bound).toBe(pass);
    expect(v.bound).toBeCloseTo(DRIVE.tolerance * DRIVE.speed * DRIVE.seconds, 12);
  });

  it('a probe line of a diverged simulation (Python writes NaN and Infinity bare) is read, its values as numbers', () => {
    const [s] = readProbeLog('{"sim": 0.04, "wall": 1, "running": true, "q": {"J0": NaN, "J1": -Infinity, "J2": 1.5}, "links": {"B": [Infinity, 0]}, "note": "NaN"}\n').samples;
    expect(s!.q).toEqual({ J0: NaN, J1: -Infinity, J2: 1.5 });
    expect(s!.links.B).toEqual([Infinity, 0]);
    expect((s as unknown as { note: string }).note).toBe('NaN');
    expect(judge(explosionFigures([sample(0, { J0: 0 }), s!], { J0: 2 }, null)).pass).toBe(false);
  });

  it('explosion watch: the largest speed of each joint with a limit, from Choreonoid\'s angles and /joint_states, and the root\'s speed between running samples', () => {
    const samples = [
      sample(0, { a: 5 }, { root: [0, 0, 5], running: false }), // before the simulation runs: not counted
      sample(0.05, { a: 0, b: 0, unknown: 0 }),
      sample(0.1, { a: -0.15, b: 0.05, unknown: 1e9 }, { root: [0.3, 0.4, 0] }),
    ];
    const figures = explosionFigures(samples, { a: 2, b: 5 }, 'BASE', [{ velocity: { b: 4.5 } }]);
    expect(figures.map((f) => [f.what, +f.value.toFixed(9), f.bound])).toEqual([
      ['a', 3, 2],
      ['b', 4.5, 5],
      ['root BASE', 10, ROOT_SPEED_LIMIT],
    ]);
    const v = judge(figures);
    expect(v.pass).toBe(false);
    expect(v.worst?.what).toBe('a');
    expect(judge(explosionFigures(samples.slice(0, 2), { a: 2, b: 5 }, null)).pass).toBe(true);
    expect(judge(explosionFigures([sample(0.05, { a: 0 }), sample(0.1, { a: NaN })], { a: 2 }, null)).pass).toBe(false);
    // Two samples 2 ms apart (the probe's time and angles read at slightly different moments): not differenced alone,
    // the next one 50 ms on is (0.0058 rad over 2 ms would be 2.9 rad/s; 0.0176 rad over 52 ms is 0.34 rad/s).
    const close = [sample(5.4, { a: -1.1517 }), sample(5.402, { a: -1.1575 }), sample(5.452, { a: -1.1693 })];
    expect(explosionFigures(close, { a: 0.785 }, null).find((f) => f.what === 'a')!.value).toBeCloseTo(0.0176 / 0.052, 6);
    // A link on a free joint below a fixed root (SR1-floor-box.body's WAIST) falling through the floor: 0.6 m in 50 ms.
    const fall = [sample(0.05, { a: 0 }), sample(0.1, { a: 0 })];
    fall[0]!.links = { WAIST: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.7, 0, 0, 0, 1] };
    fall[1]!.links = { WAIST: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.1, 0, 0, 0, 1] };
    const falling = explosionFigures(fall, { a: 2 }, null, [], {}, ['WAIST']);
    expect(falling.find((f) => f.what === 'free WAIST')).toMatchObject({ value: expect.closeTo(12, 9), bound: ROOT_SPEED_LIMIT, unit: 'm/s' });
    expect(judge(falling)).toMatchObject({ pass: false, worst: { what: 'free WAIST' } });
    expect(judge(explosionFigures(fall, { a: 2 }, null, [], {}, [])).pass).toBe(true);
  });
});

describe('what the sweep notes beside its verdicts', () => {
  /** A sample whose root is turned by `angle` about x and stands at height z. */
  const turned = (sim: number, wall: number, angle: number, z: number): ProbeSample => {
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    return { wall, sim, running: true, q: {}, links: { BASE: [1, 0, 0, 0, 0, c, -s, 0, 0, s, c, z, 0, 0, 0, 1] } };
  };

  it.each([
    { what: 'standing still', angle: 0, z: 0.8, expected: { angle: 0, rise: 0 } },
    { what: 'fallen on its back', angle: Math.PI / 2, z: 0.2, expected: { angle: Math.PI / 2, rise: -0.6 } },
    { what: 'upside down, lifted', angle: Math.PI, z: 0.9, expected: { angle: Math.PI, rise: 0.1 } },
  ])('a free root\'s motion: $what', ({ angle, z, expected }) => {
    const m = rootMotion(turned(0, 0, 0, 0.8), turned(5, 5, angle, z), 'BASE')!;
    expect(m.angle).toBeCloseTo(expected.angle, 6);
    expect(m.rise).toBeCloseTo(expected.rise, 12);
    expect(rootMotion(turned(0, 0, 0, 0.8), turned(5, 5, angle, z), 'OTHER')).toBeNull();
  });

  it('the real-time factor over the running samples only', () => {
    const samples = [{ ...turned(0, 100, 0, 0), running: false }, turned(0.5, 101, 0, 0), turned(1.5, 103, 0, 0)];
    expect(realTimeFactor(samples)).toBeCloseTo(0.5, 12);
    expect(realTimeFactor(samples.slice(0, 2))).toBeNull();
  });
});

describe('what the sweep reads in a launch\'s log', () => {
  const log = [
    '[choreonoid-1] [INFO] [1.0] [LARM_controller]: Using \'splines\' interpolation method.',
    '[choreonoid-1] [ERROR] [2.0] [tolerances]: State tolerances failed for joint 0:',
    '[choreonoid-1] [ERROR] [2.0] [tolerances]: Position Error: 0.022147, Position Tolerance: 0.022085',
    '[choreonoid-1] [ERROR] [2.0] [LARM_controller]: Holding position due to state tolerance violation',
    '[choreonoid-1] \x1b[31mError:  BodyItem "Crawler" cannot be restored.\x1b[0m',
    '[choreonoid-1] [ERROR] [3.0] [RLEG_controller]: Exceeded goal_time_tolerance: holding position...',
  ].join('\n');
  it.each([
    { controller: 'LARM_controller', expected: 'Holding position due to state tolerance violation (State tolerances failed for joint 0: Position Error: 0.022147, Position Tolerance: 0.022085)' },
    { controller: 'RLEG_controller', expected: 'Exceeded goal_time_tolerance: holding position...' },
    { controller: 'RARM_controller', expected: null },
    { controller: 'LARM', expected: null },
  ])('what $controller said when it gave up', ({ controller, expected }) => {
    expect(controllerAbort(log, controller)).toBe(expected);
  });
  it('Choreonoid\'s own lines, without colours', () => {
    expect(choreonoidLines(log).at(-2)).toBe('Error:  BodyItem "Crawler" cannot be restored.');
  });
});

describe('what the sweep reads of the generated configuration', () => {
  it('the active controllers of spawners.yaml, with their types, joints and the goal tolerances of ros2_controllers.yaml', () => {
    const file = join(projectRoot, 'test/models/roles/tracked-pantilt.body');
    const ros = applyRosConventions(loadRobotModel(file));
    const roles = inferRoles(ros.model);
    const config = controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles });
    const text = (name: string): string => config.files.find((f) => f.name === name)!.text;
    const controllers = spawnedControllers(text('ros2_controllers.yaml'), text('spawners.yaml'));
    expect(controllers.map((c) => [c.name, isTrajectoryController(c), isDiffDrive(c), c.joints])).toEqual([
      ['joint_state_broadcaster', false, false, []],
      ['diff_drive_controller', false, true, ['LeftTrack', 'RightTrack']],
      ['head_controller', true, false, ['PanJoint', 'TiltJoint']],
    ]);
    const head = controllers.find((c) => c.name === 'head_controller')!;
    const gains = new Map(config.gains.joints.map((g) => [g.joint, g]));
    for (const j of head.joints) {
      const link = ros.model.links.find((l) => l.joint.name === j)!;
      expect(head.goal[j]).toBeCloseTo(jointTolerances(link.joint, 'position_pd', gains.get(j), config.gains.options.maxSag).goal, 6);
    }
    expect(head.goalTime).toBe(0.5);
    const design = modelDesign(file);
    expect(design.roles).toEqual({ track: ['LeftTrack', 'RightTrack'], head: ['PanJoint', 'TiltJoint'] });
    expect(design.freeRoot).toBe('Chassis');
    expect(Object.keys(design.sag)).toEqual(['PanJoint', 'TiltJoint']);
    expect(driveTopics(controllers.find(isDiffDrive)!)).toEqual({ command: '/diff_drive_controller/cmd_vel', odometry: '/diff_drive_controller/odom' });
  });

  it('a steered base\'s drive: bicycle_steering_controller, on the reference and odometry topics ros2_controllers names', () => {
    const ros = applyRosConventions(loadRobotModel(join(corpusDir, 'choreonoid/share/model/misc/FourWheelCar.body')));
    const roles = inferRoles(ros.model);
    const config = controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles });
    const text = (name: string): string => config.files.find((f) => f.name === name)!.text;
    const drives = spawnedControllers(text('ros2_controllers.yaml'), text('spawners.yaml')).filter((c) => isDiffDrive(c) || isSteeringDrive(c));
    expect(drives.map((c) => [c.name, isSteeringDrive(c)])).toEqual([['bicycle_steering_controller', true]]);
    // The steering controllers library's topics (steering_controllers_library.cpp: "~/reference", "~/odometry").
    expect(driveTopics(drives[0]!)).toEqual({ command: '/bicycle_steering_controller/reference', odometry: '/bicycle_steering_controller/odometry' });
  });
});

describe('the table', () => {
  const verdict = (pass: boolean, value: number, bound: number, what = 'J1', unit = 'rad') => ({ pass, worst: { what, value, bound, unit } });
  const base: ModelResult = { model: 'm/ok.body', hash: 'h', date: '2026-11-28T10:00:00Z', wallSeconds: 30, outcome: 'ran', roles: { arm: ['J1', 'J2'], gripper: ['H'] }, controllers: ['arm_controller'], trajectories: [], complaints: [] };
  const ok: ModelResult = { ...base, rest: { ...verdict(true, 0.0004, 0.001), joints: 3 }, trajectories: [{ controller: 'arm_controller', joints: ['J1'], seed: 1, duration: 2, goal: { J1: 0.3 }, probe: verdict(true, 0.0009, 0.002), jointStates: verdict(true, 0.0012, 0.002) }], explosion: verdict(true, 1, 3, 'J2', 'rad/s') };
  const badDrive: ModelResult = { ...base, model: 'm/rover.body', roles: { drive_wheel: ['L', 'R'] }, controllers: ['diff_drive_controller'], drive: { pass: false, worst: { what: 'root', value: 0.05, bound: 0.03, unit: 'm' }, distance: 0.55, odometry: 0.59, largestGap: 0.02 } };
  const unexplained: ModelResult = { ...badDrive, model: 'm/other.body' };
  const notLoaded: ModelResult = { ...base, model: 'm/agx.body', outcome: 'not loaded by Choreonoid', message: 'AGXVehicleContinuousTrackDevice | is not a node type', controllers: [] };
  const reasons = { 'm/rover.body': 'its tyres are meshes Choreonoid reads with a smaller radius' };
  const reasonOf = (m: string): string | null => (reasons as Record<string, string>)[m] ?? null;

  it.each([
    { row: ok, expected: ['`m/ok.body`', 'arm 2, gripper 1', 'arm_controller', 'pass: J1 0.400 ≤ 1.00 mrad', 'arm_controller pass: J1 1.20 ≤ 2.00 mrad', '—', 'pass: J2 1.00 ≤ 3.00 rad/s', 'passed', ''] },
    { row: badDrive, expected: ['`m/rover.body`', 'drive_wheel 2', 'diff_drive_controller', '—', '—', '**fail**: 0.550 m (odometry 0.590)', '—', '**failed**', reasons['m/rover.body']] },
    { row: unexplained, expected: ['`m/other.body`', 'drive_wheel 2', 'diff_drive_controller', '—', '—', '**fail**: 0.550 m (odometry 0.590)', '—', '**failed**', 'Not explained yet.'] },
    { row: notLoaded, expected: ['`m/agx.body`', 'arm 2, gripper 1', '—', '—', '—', '—', '—', 'not loaded by Choreonoid', 'Not explained yet. Measured: Choreonoid: "AGXVehicleContinuousTrackDevice \\| is not a node type".'] },
  ])('a row: $row.model', ({ row, expected }) => {
    const line = renderTable([row], reasonOf).split('\n')[2]!;
    expect(line.slice(2, -2).split(/ (?<!\\)\| /)).toEqual(expected);
  });

  it.each([
    { what: 'a passing model: nothing', row: ok, expected: [] },
    { what: 'a failing goal whose joint bore twice its design load', row: { ...ok, trajectories: [{ ...ok.trajectories[0]!, probe: verdict(false, 0.02, 0.002), loads: { J1: { effort: -30, gravity: 15 } } }] }, expected: ['arm_controller at its goal: J1 bore 30.0 N·m, 2.0× the 15.0 N·m its gains hold within the sag'] },
    { what: 'a joint designed for no gravity load that bore some', row: { ...ok, trajectories: [{ ...ok.trajectories[0]!, probe: verdict(false, 0.02, 0.002), loads: { J1: { effort: 2, gravity: 0 } } }] }, expected: ['arm_controller at its goal: J1 bore 2.00 N·m, and its gains were designed for no static load'] },
    { what: 'a load too small to matter', row: { ...ok, trajectories: [{ ...ok.trajectories[0]!, probe: verdict(false, 0.02, 0.002), loads: { J1: { effort: 0.01, gravity: 0 } } }] }, expected: [] },
    { what: 'a failing goal within its design load: no load fact', row: { ...ok, trajectories: [{ ...ok.trajectories[0]!, probe: verdict(false, 0.02, 0.002), loads: { J1: { effort: 20, gravity: 15 } } }] }, expected: [] },
    { what: 'a prismatic joint at rest, in N', row: { ...ok, rest: { pass: false, worst: { what: 'H', value: 0.003, bound: 0.001, unit: 'm' }, joints: 1, loads: { H: { effort: 40, gravity: 10 } } } }, expected: ['at rest: H bore 40.0 N, 4.0× the 10.0 N its gains hold within the sag'] },
    { what: 'a body that fell, and exploded', row: { ...ok, rest: { ...verdict(false, 0.01, 0.001), joints: 1 }, root: { angle: Math.PI / 2, rise: -0.45 }, explosion: verdict(false, 300, 100, 'J2', 'rad/s') }, expected: ['the body fell over: its root turned 90° (0.45 m lower) by the time the goals were judged', 'explosion watch: J2 300 ≤ 100 rad/s'] },
    { what: 'a body that came to rest tilted 17°', row: { ...ok, rest: { ...verdict(false, 0.0027, 0.0001), joints: 2 }, root: { angle: 0.2954, rise: -0.066 } }, expected: ["the body came to rest in another attitude than its model's: its root had turned 17° from where it started by the time the goals were judged"] },
    { what: 'a body that settled by 1.9°: no attitude fact', row: { ...ok, rest: { ...verdict(false, 0.0027, 0.0001), joints: 2 }, root: { angle: (1.9 * Math.PI) / 180, rise: -0.001 } }, expected: [] },
    { what: 'not loaded: Choreonoid\'s words', row: notLoaded, expected: ['Choreonoid: "AGXVehicleContinuousTrackDevice | is not a node type"'] },
  ])('measured facts: $what', ({ row, expected }) => {
    expect(measuredFacts(row as ModelResult)).toEqual(expected);
  });

  it('a reason is the first whose pattern matches the model', () => {
    const list = [{ models: /SR1/, reason: 'a' }, { models: /SR1-2D|PA10/, reason: 'b' }];
    expect([reasonFor(list, 'x/SR1-2D.wrl'), reasonFor(list, 'x/PA10.body'), reasonFor(list, 'x/UR10.body')]).toEqual(['a', 'b', null]);
  });

  it('a figure: milli-units for angles and lengths, as is for speeds', () => {
    expect(figure({ what: 'x', value: 0.00123, bound: 0.002, unit: 'm' })).toBe('x 1.23 ≤ 2.00 mm');
    expect(figure({ what: 'root', value: 12.5, bound: 10, unit: 'm/s' })).toBe('root 12.5 ≤ 10.0 m/s');
    expect(figure({ what: 'j', value: NaN, bound: 0.002, unit: 'rad' })).toBe('j NaN ≤ 2.00 mrad');
    expect(figure(JSON.parse(JSON.stringify({ what: 'j', value: NaN, bound: 0.002, unit: 'rad' })))).toBe('j NaN ≤ 2.00 mrad');
  });

  it('counts per check, over the models that ran; a model passes only when every check that applies passes', () => {
    const c = counts([ok, badDrive, notLoaded]);
    expect(c).toEqual({ models: 3, ran: 2, passed: 1, notLoaded: 1, other: 0, rest: [1, 1], trajectories: [1, 1], drives: [0, 1], explosion: [1, 1] });
    expect([ok, badDrive, notLoaded].map(passed)).toEqual([true, false, false]);
    const failedTrajectory = { ...ok, trajectories: [{ ...ok.trajectories[0]!, jointStates: verdict(false, 0.003, 0.002) }] };
    expect(passed(failedTrajectory)).toBe(false);
  });

  it('results merge in the list\'s order, a newer result replacing an older one of the same model', () => {
    const newer = { ...ok, hash: 'h2' };
    const merged = merge([badDrive, ok], [notLoaded, newer], ['m/ok.body', 'm/agx.body', 'm/rover.body']);
    expect(merged.map((r) => [r.model, r.hash])).toEqual([
      ['m/ok.body', 'h2'],
      ['m/agx.body', 'h'],
      ['m/rover.body', 'h'],
    ]);
  });

  it('the document says how many of how many models it holds, and the counts', () => {
    const doc = renderDocument({ about: {}, results: [ok, badDrive, notLoaded] }, 104, reasonOf);
    expect(doc).toContain('**3 of 104 models in this table** (2 ran, 1 not loaded by Choreonoid, 0 did not');
    expect(doc).toContain('drives 0 of 1');
    expect(doc).toContain(reasons['m/rover.body']);
  });
});
