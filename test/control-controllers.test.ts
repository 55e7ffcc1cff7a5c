// ros2_controllers.yaml and the gains file (src/control/controllers.ts, gains-file.ts), parsed back: the
// controller manager's rate, one trajectory controller per MoveIt group under moveit_controllers.yaml's
// names, interfaces that match the block, the diff drive's parameters per distribution, parameter types,
// and a user's gains file with its located errors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ControlOptions, ControlConfigError, controlConfig } from '../src/control/config.js';
import { START_TOLERANCE } from '../src/control/controllers.js';
import { readGainsFile } from '../src/control/gains-file.js';
import { loadRobotModel } from '../src/load.js';
import { ModelLoadError } from '../src/model/errors.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { planningGroups } from '../src/moveit/config.js';
import type { PlanningGroup } from '../src/moveit/groups.js';
import { controllersYaml } from '../src/moveit/limits.js';
import { corpusDir, projectRoot } from './support/oracle.js';

const pa10 = applyRosConventions(loadRobotModel(join(corpusDir, 'choreonoid/share/model/PA10/PA10.body')));
const cart = applyRosConventions(loadRobotModel(join(projectRoot, 'test/models/control/cart.body')));
type Params = Record<string, { ros__parameters: Record<string, unknown> }>;
const config = (ros: typeof pa10, o: Partial<ControlOptions> = {}) => controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros).groups, samples: 40, ...o });
const fileOf = (c: ReturnType<typeof config>, name: string): string => c.files.find((f) => f.name === name)!.text;

describe('PA10 in position_pd', () => {
  const c = config(pa10);
  const text = fileOf(c, 'ros2_controllers.yaml');
  const doc = parse(text) as Params;

  it('the controller manager updates once per simulation step, update_rate an integer', () => {
    expect(doc['/controller_manager']!.ros__parameters.update_rate).toBe(1000);
    expect(text).toMatch(/^ {4}update_rate: 1000$/m);
    expect(Object.keys(doc)).toEqual(['/controller_manager', '/joint_state_broadcaster', '/arm_controller', '/hand_controller']);
  });

  it("the trajectory controllers are moveit_controllers.yaml's, with the same joints", () => {
    const moveit = parse(controllersYaml(planningGroups(pa10).groups, pa10.model)) as { moveit_simple_controller_manager: Record<string, { joints: string[] }> & { controller_names: string[] } };
    const names = moveit.moveit_simple_controller_manager.controller_names;
    expect(names).toEqual(['arm_controller', 'hand_controller']);
    for (const n of names) {
      expect(doc['/controller_manager']!.ros__parameters[n]).toEqual({ type: 'joint_trajectory_controller/JointTrajectoryController' });
      expect(doc[`/${n}`]!.ros__parameters.joints).toEqual(moveit.moveit_simple_controller_manager[n]!.joints);
    }
  });

  it('claims position (what BodySystemInterface exports for position_pd), reads position and velocity, in sim time', () => {
    for (const n of ['/arm_controller', '/hand_controller']) {
      expect(doc[n]!.ros__parameters).toMatchObject({ command_interfaces: ['position'], state_interfaces: ['position', 'velocity'], use_sim_time: true, allow_nonzero_velocity_at_trajectory_end: false });
      expect(doc[n]!.ros__parameters.gains).toBeUndefined();
    }
  });

  it('goal tolerance twice the larger of the joint\'s sag and the allowed sag; path tolerance above the predicted error at full speed', () => {
    const constraints = doc['/arm_controller']!.ros__parameters.constraints as Record<string, { goal: number; trajectory: number } | number>;
    expect(constraints.goal_time).toBe(0.5);
    for (const g of c.gains.joints.filter((x) => x.joint.startsWith('J'))) {
      const t = constraints[g.joint] as { goal: number; trajectory: number };
      expect(t.goal).toBeCloseTo(2 * Math.max(g.sag, 1e-3), 6);
      expect(t.trajectory).toBeGreaterThan(3 * g.sag);
      // Above how far MoveIt may start a trajectory from the joint's state: its first point is a step that far.
      expect(t.trajectory).toBeGreaterThan(START_TOLERANCE);
    }
  });

  it("the path tolerance's start allowance is what moveit.launch.py lets MoveIt start a trajectory with", () => {
    const launch = readFileSync(join(projectRoot, 'launch/moveit.launch.py'), 'utf8');
    const allowed = /'trajectory_execution\.allowed_start_tolerance':\s*([\d.]+)/.exec(launch);
    expect(allowed, 'moveit.launch.py sets allowed_start_tolerance').not.toBeNull();
    expect(Number(allowed![1])).toBe(START_TOLERANCE);
  });

  it('every number but the integers ROS declares as such is written with a fraction (a parameter\'s type is how it is written)', () => {
    const integers = new Set(['update_rate']);
    for (const file of ['ros2_controllers.yaml', 'choreonoid_ros2_control.yaml']) {
      for (const m of fileOf(c, file).matchAll(/([\w.]+):\s*(-?\d+)\s*(?:[,}]|$)/gm)) expect(integers.has(m[1]!), `${file}: ${m[0]}`).toBe(true);
    }
    expect(fileOf(c, 'choreonoid_ros2_control.yaml')).toMatch(/^ {6}J1: \{ p: [\d.e+]+\.\d*, d: [\d.e+]+ \}$/m);
  });

  it('the gains file keys the node choreonoid_ros2_control and lists the _pd joints with doubles', () => {
    const g = parse(fileOf(c, 'choreonoid_ros2_control.yaml')) as Params;
    const gains = g['/choreonoid_ros2_control']!.ros__parameters.gains as Record<string, { p: number; d: number }>;
    expect(Object.keys(gains)).toEqual(['J1', 'J2', 'J3', 'J4', 'J5', 'J6', 'J7', 'HAND_L', 'HAND_R']);
    const j2 = c.gains.joints.find((x) => x.joint === 'J2')!;
    expect(gains.J2!.p).toBeCloseTo(j2.p, -1);
    expect(gains.J2!.d).toBeCloseTo(j2.d, 2);
  });
});

describe('namespaces, modes and groups', () => {
  it('a namespace qualifies every node key, gains included', () => {
    const c = config(pa10, { namespace: '/arm1' });
    expect(Object.keys(parse(fileOf(c, 'ros2_controllers.yaml')) as Params)).toEqual(['/arm1/controller_manager', '/arm1/joint_state_broadcaster', '/arm1/arm_controller', '/arm1/hand_controller']);
    expect(Object.keys(parse(fileOf(c, 'choreonoid_ros2_control.yaml')) as Params)).toEqual(['/arm1/choreonoid_ros2_control']);
  });

  it('a velocity group: the controller closes position around Choreonoid\'s velocity loop (p = ω/4, planned velocity fed forward)', () => {
    const c = config(pa10, { mode: 'velocity_pd' });
    const arm = (parse(fileOf(c, 'ros2_controllers.yaml')) as Params)['/arm_controller']!.ros__parameters;
    expect(arm.command_interfaces).toEqual(['velocity']);
    const j1 = c.gains.joints.find((g) => g.joint === 'J1')!;
    expect((arm.gains as Record<string, unknown>).J1).toEqual({ p: Number(((2 * Math.PI * j1.bandwidth) / 4).toPrecision(6)), i: 0, d: 0, ff_velocity_scale: 1 });
  });

  it('an effort group: the controller computes the model\'s PD', () => {
    const c = config(pa10, { mode: 'effort' });
    const doc = parse(fileOf(c, 'ros2_controllers.yaml')) as Params;
    const j3 = c.gains.joints.find((g) => g.joint === 'J3')!;
    expect(doc['/arm_controller']!.ros__parameters.command_interfaces).toEqual(['effort']);
    expect((doc['/arm_controller']!.ros__parameters.gains as Record<string, { p: number; d: number }>).J3).toMatchObject({ p: Number(j3.p.toPrecision(6)), d: Number(j3.d.toPrecision(6)) });
    // No PD runs inside Choreonoid: the gains file has no parameter (not `gains: {}`, which rclcpp refuses).
    expect((parse(fileOf(c, 'choreonoid_ros2_control.yaml')) as Params)['/choreonoid_ros2_control']!.ros__parameters).toEqual({});
  });

  it('a group mixing command interfaces cannot have one trajectory controller: refused, saying which joints', () => {
    expect(() => config(pa10, { overrides: new Map([['J7', 'velocity_pd']]) })).toThrow(ControlConfigError);
    expect(() => config(pa10, { overrides: new Map([['J7', 'velocity_pd']]) })).toThrow(/group arm mixes command interfaces \(position: J1, J2, J3, J4, J5, J6; velocity: J7\)/);
  });

  it('an override naming no moving joint is refused', () => {
    expect(() => config(pa10, { overrides: new Map([['J8', 'effort']]) })).toThrow(/--joint-mode names "J8", not a moving joint of PA10/);
  });

  it('overlapping groups: the later controller is loaded inactive, one joint one active controller', () => {
    const groups: PlanningGroup[] = [
      { name: 'arm', chain: { base: 'BASE', tip: 'J7_link' }, joints: [], links: [], subgroups: [] },
      { name: 'wrist', joints: ['J5', 'J6', 'J7'], links: [], subgroups: [] },
      { name: 'hand', joints: ['HAND_L', 'HAND_R'], links: [], subgroups: [] },
    ];
    const c = config(pa10, { groups });
    expect(c.controllers.controllers.map((x) => [x.name, x.active])).toEqual([
      ['joint_state_broadcaster', true],
      ['arm_controller', true],
      ['wrist_controller', false],
      ['hand_controller', true],
    ]);
    expect(c.controllers.notes).toContain('wrist_controller is loaded inactive: J5, J6, J7 are already claimed by an active controller');
    expect(parse(fileOf(c, 'spawners.yaml'))).toEqual({
      namespace: '',
      controller_manager: '/controller_manager',
      active: ['joint_state_broadcaster', 'arm_controller', 'hand_controller'],
      inactive: ['wrist_controller'],
      diff_drive: false,
      joint_modes: ['J1', 'J2', 'J3', 'J4', 'J5', 'J6', 'J7', 'HAND_L', 'HAND_R'].map((j) => `${j}=position_pd`),
    });
    expect(fileOf(c, 'README.md')).toMatch(/spawner wrist_controller .* --inactive/);
  });

  it('a step that is not a whole number of steps per second is refused (update_rate is an integer)', () => {
    expect(() => config(pa10, { timeStep: 0.0015 })).toThrow(/not a whole number of steps per second/);
  });
});

describe('the cart\'s differential drive', () => {
  const drive = (o: Partial<ControlOptions> = {}) => (parse(fileOf(config(cart, o), 'ros2_controllers.yaml')) as Params)['/diff_drive_controller']?.ros__parameters;

  it('humble: wheels, radius, separation from the geometry, stamped commands, speed limits from the wheels\' limits', () => {
    const v = (600 * Math.PI) / 180;
    const a = 0.5 * 9.80665 * 0.03;
    expect(drive()).toEqual({
      use_sim_time: true,
      left_wheel_names: ['LeftWheel'],
      right_wheel_names: ['RightWheel'],
      wheel_separation: 0.32,
      wheel_radius: 0.08,
      wheel_separation_multiplier: 1,
      left_wheel_radius_multiplier: 1,
      right_wheel_radius_multiplier: 1,
      odom_frame_id: 'odom',
      base_frame_id: 'Chassis',
      open_loop: false,
      position_feedback: true,
      enable_odom_tf: true,
      publish_rate: 50,
      cmd_vel_timeout: 0.5,
      tf_frame_prefix_enable: false,
      use_stamped_vel: true,
      // Acceleration: its chassis box touches the floor beside the wheels, so 3 % of the weight at friction 0.5
      // (test/control-drive-limits.test.ts), and the same at the wheels turning on the spot: / (0.32 / 2).
      linear: { x: { has_velocity_limits: true, max_velocity: Number((v * 0.08).toPrecision(6)), min_velocity: -Number((v * 0.08).toPrecision(6)), has_acceleration_limits: true, max_acceleration: Number(a.toPrecision(6)), min_acceleration: -Number(a.toPrecision(6)) } },
      angular: { z: { has_velocity_limits: true, max_velocity: Number(((2 * v * 0.08) / 0.32).toPrecision(6)), min_velocity: -Number(((2 * v * 0.08) / 0.32).toPrecision(6)), has_acceleration_limits: true, max_acceleration: Number((a / 0.16).toPrecision(6)), min_acceleration: -Number((a / 0.16).toPrecision(6)) } },
    });
  });

  it.each([
    ['humble', 0.001, 100],
    ['humble', 0.02, 50],
    // Jazzy's manager skips a slower controller until the time passes its last update: none after a restart.
    ['jazzy', 0.001, 1000],
    ['jazzy', 0.002, 500],
  ] as const)('%s, a %s s step: joint_state_broadcaster updates at %s Hz', (distro, timeStep, rate) => {
    const yaml = parse(fileOf(config(pa10, { distro, timeStep }), 'ros2_controllers.yaml')) as Record<string, { ros__parameters: Record<string, unknown> }>;
    expect(yaml['/controller_manager']!.ros__parameters.update_rate).toBe(Math.round(1 / timeStep));
    expect(yaml['/joint_state_broadcaster']!.ros__parameters.update_rate).toBe(rate);
  });

  it('jazzy: no use_stamped_vel nor has_*_limits (removed, deprecated there)', () => {
    const p = drive({ distro: 'jazzy' })!;
    expect(p).not.toHaveProperty('use_stamped_vel');
    expect(p.linear).toEqual({ x: { max_velocity: expect.any(Number), min_velocity: expect.any(Number), max_acceleration: expect.any(Number), min_acceleration: expect.any(Number) } });
  });

  it('a frame prefix goes to the odometry frames', () => {
    expect(drive({ framePrefix: 'r1/' })).toMatchObject({ tf_frame_prefix_enable: true, tf_frame_prefix: 'r1/' });
  });

  it('wheels in velocity_pd, the controller claiming velocity; wheels forced to effort: no diff drive, said why', () => {
    const c = config(cart);
    expect(c.block.modes.joints.map((m) => m.mode)).toEqual(['velocity_pd', 'velocity_pd']);
    expect(c.controllers.controllers.map((x) => x.name)).toEqual(['joint_state_broadcaster', 'diff_drive_controller']);
    expect(parse(fileOf(config(cart, { namespace: '/c1' }), 'spawners.yaml'))).toEqual({ namespace: '/c1', controller_manager: '/c1/controller_manager', active: ['joint_state_broadcaster', 'diff_drive_controller'], inactive: [], diff_drive: true, joint_modes: ['LeftWheel=velocity_pd', 'RightWheel=velocity_pd'] });
    const effort = config(cart, { overrides: new Map([['LeftWheel', 'effort'], ['RightWheel', 'effort']]) });
    expect(effort.controllers.controllers.map((x) => x.name)).toEqual(['joint_state_broadcaster']);
    expect(effort.controllers.notes).toContain('no diff_drive_controller: it commands wheel velocities, and the wheels are in effort mode');
  });

  it('a drive wheel\'s velocity loop is tuned for its share of the cart: I = wheel + (m/2)·r²', () => {
    const g = config(cart).gains.joints[0]!;
    expect(g.inertia).toBeCloseTo(0.0016 + (7 / 2) * 0.08 ** 2, 9);
  });
});

describe('a corpus differential drive: RH2 (OpenHRP), with two casters', () => {
  const rh2 = applyRosConventions(loadRobotModel(join(corpusDir, 'openhrp3/sample/model/RH2/RH2_withoutArm_withoutSensor.wrl')));
  const c = config(rh2);

  it('drive wheels in velocity_pd, the casters free (effort, commanded by nothing, no gains)', () => {
    expect(c.block.modes.joints.map((m) => `${m.joint} ${m.mode} ${m.from}`)).toEqual([
      'MAIN_WHEEL1 velocity_pd wheel',
      'MAIN_WHEEL2 velocity_pd wheel',
      'CASTER1 effort passive',
      'CASTER_WHEEL1 effort passive',
      'CASTER2 effort passive',
      'CASTER_WHEEL2 effort passive',
    ]);
    expect(c.gains.joints.map((g) => g.joint)).toEqual(['MAIN_WHEEL1', 'MAIN_WHEEL2']);
    expect(c.controllers.controllers.map((x) => x.name)).toEqual(['joint_state_broadcaster', 'diff_drive_controller']);
  });

  it('its polygon tyres give the radius their vertices lie on; the separation is between the tyres\' middles', () => {
    const d = c.block.drive.drive!;
    expect(d.left[0]!.round && d.right[0]!.round).toBe(true);
    expect(d.radius).toBeCloseTo(0.1, 5);
    expect(d.separation).toBeGreaterThan(0.44);
    expect(d.separation).toBeLessThan(0.46);
  });
});

describe('a user\'s gains file', () => {
  const modes = new Map<string, 'position_pd' | 'position' | 'velocity_pd'>([['J1', 'position_pd'], ['J2', 'position_pd'], ['W', 'velocity_pd'], ['G', 'position']]);
  const read = (text: string) => readGainsFile(text, 'g.yaml', modes);
  const errors = (text: string): string[] => {
    try {
      read(text);
    } catch (e) {
      if (e instanceof ModelLoadError) return e.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
      throw e;
    }
    return [];
  };

  it.each([
    ['the generated form', 'choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J1: { p: 100.0, d: 5.0 }\n      W: { p: 2.0 }\n'],
    ['a qualified key, dotted names', '/ns/choreonoid_ros2_control:\n  ros__parameters:\n    gains.J1.p: 100.0\n    gains.J1.d: 5.0\n    gains.W.p: 2.0\n'],
    ['a wildcard key, mixed', '/**:\n  ros__parameters:\n    gains:\n      J1.p: 100.0\n      J1: { d: 5.0 }\n      W: { p: 2 }\n'],
  ])('%s', (_, text) => {
    expect(read(text).gains).toEqual(new Map([['J1', { p: 100, d: 5 }], ['W', { p: 2 }]]));
  });

  it('reads the generated file back', () => {
    const c = config(pa10);
    const back = readGainsFile(fileOf(c, 'choreonoid_ros2_control.yaml'), 'x', new Map(c.block.modes.joints.map((m) => [m.joint, m.mode])));
    for (const g of c.gains.joints) {
      expect(back.gains.get(g.joint)!.p).toBeCloseTo(g.p, -1);
      expect(back.gains.get(g.joint)!.d! / g.d).toBeCloseTo(1, 5);
    }
  });

  it.each([
    ['choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J9: { p: 1.0 }\n', ['4:7 no moving joint "J9" in the model']],
    ['choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J1: { p: 0.0, d: -1.0 }\n', ['4:16 P must be positive (got 0)', '4:24 D must not be negative (got -1)']],
    ['choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J1: { p: high }\n', ['4:16 expected a number for the P gain']],
    ['choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J1: { p: 1.0, i: 0.5 }\n', ['4:21 unknown gain "i" (choreonoid_ros reads p and d)']],
    ['choreonoid_ros2_control:\n  ros__parameters:\n    gains: [1, 2]\n', ['3:12 expected a mapping of joints to {p, d}']],
    ['controller_manager:\n  ros__parameters:\n    update_rate: 1000\n', ['1:1 no gains: expected choreonoid_ros2_control: {ros__parameters: {gains: {JOINT: {p: P, d: D}}}}']],
    ['gains: {J1: {p: 1.0\n', expect.arrayContaining([expect.stringMatching(/^2:1 /)])],
  ])('errors are located: %j', (text, expected) => expect(errors(text)).toEqual(expected));

  it('gains for a joint without a loop inside Choreonoid are read, and warned about', () => {
    const r = read('choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      G: { p: 1.0 }\n');
    expect(r.warnings.map((w) => `${w.line}:${w.column} ${w.message}`)).toEqual(['4:7 joint G is in position mode: its gains are not read']);
  });

  it('user gains replace the model\'s in the written file and are said so', () => {
    const c = config(pa10, { userGains: { gains: new Map([['J7', { p: 1234, d: 56 }]]), file: 'mine.yaml' } });
    const gains = (parse(fileOf(c, 'choreonoid_ros2_control.yaml')) as Params)['/choreonoid_ros2_control']!.ros__parameters.gains as Record<string, unknown>;
    expect(gains.J7).toEqual({ p: 1234, d: 56 });
    expect(fileOf(c, 'choreonoid_ros2_control.yaml')).toMatch(/gains of J7 from mine.yaml/);
    expect(fileOf(c, 'README.md')).toMatch(/\| J7 \| position_pd \| 1234 \| 56 \| .* \| P: user; D: user \|/);
  });
});
