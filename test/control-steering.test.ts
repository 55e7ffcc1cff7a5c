// A steered base (src/roles/steering.ts → bicycle_steering_controller in src/control/controllers.ts): which corpus
// models make one and which facts rule it out, the geometry the controller is given, the modes and controllers
// that follow, each distro's parameter names, and the generated parameters against the declarations of the
// sourced ROS 2's steering controllers (generate_parameter_library's headers).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ControlOptions, controlConfig } from '../src/control/config.js';
import { CONTROL_DISTROS, type ControlDistro } from '../src/control/controllers.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { RobotModel } from '../src/model/types.js';
import { planningGroups } from '../src/moveit/config.js';
import { inferRoles } from '../src/roles/roles.js';
import { applyRoles } from '../src/roles/roles-file.js';
import { corpusDir } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { findControllerParameters } from './support/peers.js';
import { CORPUS_ROLES } from './support/role-expectations.js';

const FOUR_WHEEL_CAR = join(corpusDir, 'choreonoid/share/model/misc/FourWheelCar.body');
type Params = Record<string, { ros__parameters: Record<string, unknown> }>;
const configOf = (model: RobotModel, o: Partial<ControlOptions> = {}) => {
  const ros = applyRosConventions(model);
  const roles = inferRoles(ros.model);
  return controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles, samples: 0, ...o });
};
const bicycleOf = (model: RobotModel, o: Partial<ControlOptions> = {}) =>
  (parse(configOf(model, o).files.find((f) => f.name === 'ros2_controllers.yaml')!.text) as Params)['/bicycle_steering_controller']?.ros__parameters;

describe('which corpus models are steered bases', () => {
  it('FourWheelCar: STEERING_RIGHT steers, REAR_WHEEL pushes, 0.4 m behind it, radius 0.1 m from its tyres', () => {
    const r = inferRoles(loadRobotModel(FOUR_WHEEL_CAR));
    const s = r.steering.drive!;
    expect([s.steering.joint, s.steering.wheel.joint, s.traction.map((w) => w.joint)]).toEqual(['STEERING_RIGHT', 'FRONTRIGHT_WHEEL', ['REAR_WHEEL']]);
    expect(s.wheelbase).toBeCloseTo(0.4, 12);
    expect(s.radius).toBeCloseTo(0.1, 12);
    expect(s.steering.wheel.radius).toBeCloseTo(0.1, 12);
    expect(r.drive.drive).toBeNull();
    expect(r.notes).toContain('the steering axis is 0.15 m off the base\'s centre line: the controller\'s bicycle model puts it on the line, so its turning radius is that of the line\'s, not of FRONTRIGHT_WHEEL\'s');
  });

  it.each([
    ['openhrp3/sample/model/simple_vehicle.wrl', 'REAR_WHEEL_L'],
    ['openhrp3/sample/model/simple_vehicle_with_camera.wrl', 'REAR_WHEEL_L'],
    ['openhrp3/sample/model/simple_vehicle_with_rangesensor.wrl', 'REAR_WHEEL_L'],
    ['openhrp3/sample/model/simple_vehicle/main.wrl', 'WheelL'],
  ])('%s rolls along its base\'s y axis: no steering drive, and the reason names it', (model, wheel) => {
    const r = inferRoles(loadRobotModel(join(corpusDir, model)));
    expect(r.steering.drive).toBeNull();
    expect(r.steering.reason).toMatch(new RegExp(`^traction wheel ${wheel}'s axis \\(1\\.000, 0\\.000, 0\\.000 in \\w+\\) is not along the base's y axis: the base does not roll along its x axis`));
    expect(r.joints.filter((j) => j.role === 'wheel' && j.actuated).map((j) => j.reason)).toEqual([expect.stringContaining(r.steering.reason!), expect.stringContaining(r.steering.reason!)]);
  });

  it('no other articulated corpus model is one', () => {
    const steered = CORPUS_ROLES.map((e) => e.model).filter((m) => inferRoles(loadRobotModel(join(corpusDir, m))).steering.drive !== null);
    expect(steered).toEqual(['choreonoid/share/model/misc/FourWheelCar.body']);
  });
});

describe('what rules a steering drive out: FourWheelCar changed by one fact', () => {
  const changed = (edit: (m: RobotModel) => void): RobotModel => {
    const m = loadRobotModel(FOUR_WHEEL_CAR);
    edit(m);
    return m;
  };
  const link = (m: RobotModel, name: string) => m.links.find((l) => l.name === name)!;
  it.each([
    ['the traction wheel turned the other way', (m: RobotModel) => (link(m, 'REAR_WHEEL').joint.axis = [0, -1, 0]), /^traction wheel REAR_WHEEL's axis points to the base's right/],
    ['the steering axis pointing down', (m: RobotModel) => (link(m, 'STEERING_RIGHT').joint.axis = [0, 0, -1]), /^steering STEERING_RIGHT's axis \(0\.000, 0\.000, -1\.000 in BODY\) does not point up/],
    ['the traction wheel in front of the steering', (m: RobotModel) => (link(m, 'REAR_WHEEL').offset.translation = [0.5, 0, 0]), /^steering STEERING_RIGHT is not in front of the traction axle \(x 0\.2 m against 0\.5 m\)/],
  ])('%s', (_what, edit, reason) => {
    const r = inferRoles(changed(edit));
    expect(r.steering.drive).toBeNull();
    expect(r.steering.reason).toMatch(reason);
    expect(configOf(changed(edit)).controllers.controllers.map((c) => c.name)).not.toContain('bicycle_steering_controller');
  });
});

describe('FourWheelCar\'s controllers', () => {
  const model = loadRobotModel(FOUR_WHEEL_CAR);

  it('the steering in position (its PD), the traction wheel in velocity, both under bicycle_steering_controller; the steering\'s trajectory controller loaded inactive', () => {
    const c = configOf(model);
    expect(c.block.modes.joints.filter((m) => ['STEERING_RIGHT', 'REAR_WHEEL'].includes(m.joint)).map((m) => [m.joint, m.mode])).toEqual([
      ['STEERING_RIGHT', 'position_pd'],
      ['REAR_WHEEL', 'velocity_pd'],
    ]);
    expect(c.controllers.controllers.map((x) => [x.name, x.type, x.joints, x.active])).toEqual([
      ['joint_state_broadcaster', 'joint_state_broadcaster/JointStateBroadcaster', [], true],
      ['bicycle_steering_controller', 'bicycle_steering_controller/BicycleSteeringController', ['REAR_WHEEL', 'STEERING_RIGHT'], true],
      ['steering_controller', 'joint_trajectory_controller/JointTrajectoryController', ['STEERING_RIGHT'], false],
    ]);
  });

  it('humble: front_steering with front/rear wheel names, both radii, stamped references', () => {
    expect(bicycleOf(model)).toEqual({
      use_sim_time: true,
      front_steering: true,
      front_wheels_names: ['STEERING_RIGHT'],
      rear_wheels_names: ['REAR_WHEEL'],
      use_stamped_vel: true,
      wheelbase: 0.4,
      front_wheel_radius: 0.1,
      rear_wheel_radius: 0.1,
      open_loop: false,
      position_feedback: true,
      reference_timeout: 0.5,
      odom_frame_id: 'odom',
      base_frame_id: 'BODY',
      enable_odom_tf: true,
    });
  });

  it('jazzy: traction and steering joint names, one traction radius, no use_stamped_vel (always stamped there)', () => {
    const p = bicycleOf(model, { distro: 'jazzy' })!;
    expect(p).toMatchObject({ traction_joints_names: ['REAR_WHEEL'], steering_joints_names: ['STEERING_RIGHT'], wheelbase: 0.4, traction_wheel_radius: 0.1 });
    // Jazzy's steering kinematics turn a zero period into a NaN odometry from positions, not from velocities.
    expect(p).toMatchObject({ open_loop: false, position_feedback: false });
    for (const k of ['front_steering', 'front_wheels_names', 'rear_wheels_names', 'front_wheel_radius', 'rear_wheel_radius', 'use_stamped_vel']) expect(p).not.toHaveProperty(k);
  });

  it('a frame prefix goes into the odometry frames (the steering controllers have no prefix parameter)', () => {
    expect(bicycleOf(model, { framePrefix: 'car/' })).toMatchObject({ odom_frame_id: 'car/odom', base_frame_id: 'car/BODY' });
  });

  it('the traction wheel in effort mode: no steering controller, and the note says why', () => {
    const c = configOf(model, { overrides: new Map([['REAR_WHEEL', 'effort']]) });
    expect(c.controllers.controllers.map((x) => x.name)).not.toContain('bicycle_steering_controller');
    expect(c.controllers.notes).toContain('no bicycle_steering_controller: it commands the traction wheel\'s velocity and the steering angle, and REAR_WHEEL (traction) is in effort mode, not a velocity one');
  });

  it.each([
    [FOUR_WHEEL_CAR, /## Steering drive\n\nBase BODY, 21 kg: steering STEERING_RIGHT turns FRONTRIGHT_WHEEL; traction REAR_WHEEL, radius 0\.1 m \(a cylinder about the axis\)\. wheelbase 0\.4 m, along BODY's x from the steering axis to the traction axle\.\nbicycle_steering_controller drives it/],
    [join(corpusDir, 'openhrp3/sample/model/simple_vehicle.wrl'), /## Steering drive\n\nNone: traction wheel REAR_WHEEL_L's axis \(1\.000, 0\.000, 0\.000 in BODY\) is not along the base's y axis/],
  ])('body-bridge control\'s README says the drive and why: %s', (file, text) => {
    expect(configOf(loadRobotModel(file)).files.find((f) => f.name === 'README.md')!.text).toMatch(text);
  });

  it('a roles file that makes the steering passive ends the steering drive', () => {
    const r = applyRoles(inferRoles(model), new Map([['STEERING_RIGHT', 'passive']]), 'roles.yaml');
    expect(r.steering.drive).toBeNull();
    expect(r.notes).toContain('roles.yaml gives STEERING_RIGHT another role: no steering drive');
  });
});

const distroOf = (d: string | undefined): ControlDistro | null => (CONTROL_DISTROS as readonly string[]).includes(d ?? '') ? (d as ControlDistro) : null;
const declared = findControllerParameters(['steering_controllers_library', 'bicycle_steering_controller']);

describe.skipIf(skipWithout(declared))('bicycle_steering_controller\'s parameters against the sourced ROS 2\'s declarations', () => {
  const { distro, parameters } = declared as Extract<typeof declared, { ok: true }>;
  const generated = bicycleOf(loadRobotModel(FOUR_WHEEL_CAR), { distro: distroOf(distro) ?? 'humble' })!;
  const text = configOf(loadRobotModel(FOUR_WHEEL_CAR), { distro: distroOf(distro) ?? 'humble' }).files.find((f) => f.name === 'ros2_controllers.yaml')!.text;
  const isType: Record<string, (v: unknown) => boolean> = {
    double: (v) => typeof v === 'number',
    bool: (v) => typeof v === 'boolean',
    int64_t: (v) => Number.isInteger(v),
    'std::string': (v) => typeof v === 'string',
    'std::vector<std::string>': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    'std::vector<double>': (v) => Array.isArray(v) && v.every((x) => typeof x === 'number'),
  };

  it(`the sourced distro (${distro}) is one body_bridge writes for`, () => expect(distroOf(distro)).not.toBeNull());

  it('every parameter written is declared, with a value of its type (a double written with a fraction)', () => {
    for (const [k, v] of Object.entries(generated).filter(([k]) => k !== 'use_sim_time')) {
      const d = parameters.get(k);
      expect([k, d !== undefined]).toEqual([k, true]);
      expect([k, d !== undefined && isType[d.type]!(v)]).toEqual([k, true]);
      if (d!.type === 'double') expect(text).toMatch(new RegExp(`^ {4}${k}: -?\\d+\\.\\d+$`, 'm'));
    }
  });

  it('every parameter declared without a default is written', () => {
    const required = [...parameters].filter(([, d]) => d.required).map(([k]) => k);
    expect(required.length).toBeGreaterThan(0);
    for (const k of required) expect([k, k in generated]).toEqual([k, true]);
  });
});
