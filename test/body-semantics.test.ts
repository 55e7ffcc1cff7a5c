// Choreonoid's meaning of .body keys, one rule per test, on small models written for the test.
// Expected values are worked out by hand from the rule (see ../shared/oracle/README.md "semantics"
// and Choreonoid's StdBodyLoader); the corpus-wide oracle test checks the same rules on real files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadBodyFile } from '../src/body/index.js';
import { ModelLoadError } from '../src/model/errors.js';
import type { LoadOptions } from '../src/model/options.js';
import type { Mat3, RobotModel } from '../src/model/types.js';
import { projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const dir = scratchDir('body-semantics-');
let counter = 0;

const header = (version = '2.0', extra = ''): string => `format: ChoreonoidBody\nformat_version: ${version}\nname: T\n${extra}`;

function load(text: string, options: LoadOptions = {}, files: Record<string, string> = {}): RobotModel {
  const case_ = join(dir, `c${++counter}`);
  mkdirSync(case_, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(case_, name), content);
  const file = join(case_, 'model.body');
  writeFileSync(file, text);
  return loadBodyFile(file, options);
}

const deg = (d: number): number => (d * Math.PI) / 180;
const Rx = (a: number): Mat3 => [[1, 0, 0], [0, Math.cos(a), -Math.sin(a)], [0, Math.sin(a), Math.cos(a)]];
const Rz = (a: number): Mat3 => [[Math.cos(a), -Math.sin(a), 0], [Math.sin(a), Math.cos(a), 0], [0, 0, 1]];
const mul = (a: Mat3, b: Mat3): Mat3 =>
  a.map((row) => [0, 1, 2].map((j) => row[0]! * b[0]![j]! + row[1]! * b[1]![j]! + row[2]! * b[2]![j]!)) as Mat3;

function expectMat(actual: Mat3, expected: Mat3, digits = 14): void {
  actual.forEach((row, i) => row.forEach((x, j) => expect(x, `[${i}][${j}]`).toBeCloseTo(expected[i]![j]!, digits)));
}

const twoLinks = (childKeys: string, version = '2.0', extra = ''): string =>
  `${header(version, extra)}links:\n  - { name: ROOT }\n  -\n    name: J\n    parent: ROOT\n${childKeys
    .trim()
    .split('\n')
    .map((l) => `    ${l.trim()}`)
    .join('\n')}\n`;

describe('angle units', () => {
  test('degree is the default: revolute joint_range, max_joint_velocity and joint_angle are converted', () => {
    const j = load(twoLinks('joint_type: revolute\njoint_range: [ -30, 60 ]\nmax_joint_velocity: 180\njoint_angle: 45', '1.0')).links[1]!.joint;
    expect([j.lower, j.upper]).toEqual([deg(-30), deg(60)].map((x) => expect.closeTo(x, 15)));
    expect(j.velocityUpper).toBeCloseTo(Math.PI, 15);
    expect(j.velocityLower).toBeCloseTo(-Math.PI, 15);
    expect(j.initial).toBeCloseTo(Math.PI / 4, 15);
  });

  test('a prismatic joint_range and velocity are metres: never converted', () => {
    const j = load(twoLinks('joint_type: prismatic\njoint_range: [ -30, 60 ]\nmax_joint_velocity: 2')).links[1]!.joint;
    expect([j.lower, j.upper, j.velocityLower, j.velocityUpper]).toEqual([-30, 60, -2, 2]);
  });

  test('a joint_range on a link whose joint_type is not revolute stays as written, even in degrees', () => {
    const j = load(twoLinks('joint_type: fixed\njoint_range: [ -90, 90 ]')).links[1]!.joint;
    expect([j.lower, j.upper]).toEqual([-90, 90]);
  });

  test('angle_unit: radian with format 1.0 takes every angle as radians', () => {
    const m = load(twoLinks('joint_type: revolute\njoint_range: [ -1, 1 ]\nrotation: [ 0, 0, 1, 1.5 ]', '1.0', 'angle_unit: radian\n'));
    expect([m.links[1]!.joint.lower, m.links[1]!.joint.upper]).toEqual([-1, 1]);
    expectMat(m.links[1]!.offset.rotation, Rz(1.5));
  });

  test('joint_displacement wins over joint_angle; on a prismatic joint it is metres', () => {
    expect(load(twoLinks('joint_type: revolute\njoint_angle: 10\njoint_displacement: 30')).links[1]!.joint.initial).toBeCloseTo(deg(30), 15);
    expect(load(twoLinks('joint_type: prismatic\njoint_displacement: 0.25')).links[1]!.joint.initial).toBe(0.25);
  });

  test('unlimited in either slot, and a scalar range meaning ±value', () => {
    const a = load(twoLinks('joint_type: revolute\njoint_range: [ unlimited, 45 ]')).links[1]!.joint;
    expect(a.lower).toBe(-Infinity);
    expect(a.upper).toBeCloseTo(deg(45), 15);
    const b = load(twoLinks('joint_type: revolute\njoint_range: [ -45, unlimited ]')).links[1]!.joint;
    expect(b.upper).toBe(Infinity);
    const c = load(twoLinks('joint_type: revolute\njoint_range: unlimited\nmax_joint_effort: 5')).links[1]!.joint;
    expect([c.lower, c.upper, c.effortLower, c.effortUpper]).toEqual([-Infinity, Infinity, -5, 5]);
  });
});

describe('key styles', () => {
  test('camelCase and snake_case spellings of the same key both work', () => {
    const snake = load(twoLinks('joint_type: revolute\njoint_axis: -Y\njoint_id: 3\ncenter_of_mass: [ 1, 2, 3 ]')).links[1]!;
    const camel = load(twoLinks('jointType: revolute\njointAxis: -Y\njointId: 3\ncenterOfMass: [ 1, 2, 3 ]')).links[1]!;
    expect(camel.joint).toEqual(snake.joint);
    expect(camel.centerOfMass).toEqual([1, 2, 3]);
    expect(camel.joint.axis).toEqual([0, -1, 0]);
  });

  test('snake_case-only keys: their camelCase spelling is ignored, silently, as in Choreonoid', () => {
    const m = load(twoLinks('joint_type: revolute\njointName: SHOULDER\nmaxJointEffort: 3'));
    expect(m.links[1]!.joint.name).toBe('J');
    expect(m.links[1]!.joint.effortUpper).toBe(Infinity);
    expect(m.warnings).toEqual([]);
    expect(load(twoLinks('joint_type: revolute\njoint_name: SHOULDER')).links[1]!.joint.name).toBe('SHOULDER');
  });

  test('joint_axis letters are case-insensitive; a vector is used as given', () => {
    expect(load(twoLinks('joint_type: revolute\njoint_axis: -x')).links[1]!.joint.axis).toEqual([-1, 0, 0]);
    expect(load(twoLinks('joint_type: revolute\njoint_axis: [ 0, 0.6, 0.8 ]')).links[1]!.joint.axis).toEqual([0, 0.6, 0.8]);
  });

  test('rotor_inertia and gear_ratio give Jm2 = gear_ratio² · rotor_inertia; joint_axis_inertia replaces both', () => {
    const a = load(twoLinks('joint_type: revolute\nrotor_inertia: 0.002\ngear_ratio: 50')).links[1]!.joint;
    expect(a.gearRatio * a.gearRatio * a.rotorInertia).toBeCloseTo(5, 12);
    const b = load(twoLinks('joint_type: revolute\njoint_axis_inertia: 0.7\ngear_ratio: 50')).links[1]!.joint;
    expect(b.gearRatio * b.gearRatio * b.rotorInertia).toBe(0.7);
  });
});

describe('poses', () => {
  test('a list of rotations is applied in the order listed: R = R1·R2', () => {
    const R = load(twoLinks('rotation: [ [ 0, 0, 1, 90 ], [ 1, 0, 0, 90 ] ]')).links[1]!.offset.rotation;
    expectMat(R, mul(Rz(Math.PI / 2), Rx(Math.PI / 2)));
    // Not the other order: Rx·Rz differs.
    expect(Math.abs(R[0][2] - mul(Rx(Math.PI / 2), Rz(Math.PI / 2))[0][2])).toBeGreaterThan(0.5);
  });

  test('a list of translations is summed; rotation axes are normalised', () => {
    const l = load(twoLinks('translation: [ [ 1, 0, 0 ], [ 0, 2, 0 ], [ 0, 0, 3 ] ]\nrotation: [ 0, 0, 5, 90 ]')).links[1]!;
    expect(l.offset.translation).toEqual([1, 2, 3]);
    expectMat(l.offset.rotation, Rz(Math.PI / 2));
  });

  test('shape transforms: every enclosing Transform, then the Shape\'s own pose and scale (T·S)', () => {
    const m = load(`${header()}links:
  -
    name: ROOT
    elements:
      -
        type: Transform
        translation: [ 1, 0, 0 ]
        rotation: [ 0, 0, 1, 90 ]
        elements:
          -
            type: Transform
            scale: [ 2, 3, 4 ]
            elements:
              - { type: Shape, translation: [ 0, 1, 0 ], geometry: { type: Box, size: [ 1, 1, 1 ] } }
`);
    const t = m.links[0]!.visuals[0]!.transform;
    // Rz(90)·diag(2,3,4): columns (0,2,0), (-3,0,0), (0,0,4); the point (0,1,0) goes to (1,0,0) + (-3,0,0).
    expectMat(t.linear, [[0, -3, 0], [2, 0, 0], [0, 0, 4]]);
    expect(t.translation.map((x) => Number(x.toFixed(12)))).toEqual([-2, 0, 0]);
  });
});

describe('mass properties', () => {
  test('no mass values: Choreonoid\'s defaults (1 kg, identity inertia, centre of mass at the origin)', () => {
    const l = load(twoLinks('joint_type: fixed')).links[1]!;
    expect([l.mass, l.centerOfMass, l.inertia]).toEqual([1, [0, 0, 0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]]);
  });

  test('link-level values alone: the missing ones keep the link defaults', () => {
    const l = load(twoLinks('mass: 3')).links[1]!;
    expect([l.mass, l.centerOfMass, l.inertia]).toEqual([3, [0, 0, 0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]]);
  });

  test('next to RigidBody nodes, missing link-level values are zero, and everything is combined about the joint centre of mass', () => {
    const l = load(`${header()}links:
  -
    name: ROOT
    mass: 1
    elements:
      -
        type: Transform
        translation: [ 1, 0, 0 ]
        rotation: [ 0, 0, 1, 90 ]
        elements:
          - { type: RigidBody, mass: 3, center_of_mass: [ 0, 1, 0 ], inertia: [ 1, 0, 0, 2, 0, 3 ] }
`).links[0]!;
    // The rigid body's centre (0,1,0) rotated by Rz(90) and moved: (1,0,0) + (-1,0,0) = (0,0,0).
    // Link-level: 1 kg at the origin with zero inertia. Total 4 kg at the origin.
    expect(l.mass).toBe(4);
    l.centerOfMass.forEach((x) => expect(x).toBeCloseTo(0, 15));
    // Rz(90)·diag(1,2,3)·Rz(90)ᵀ = diag(2,1,3); both bodies sit at the combined centre: no parallel-axis term.
    expectMat(l.inertia, [[2, 0, 0], [0, 1, 0], [0, 0, 3]]);
  });

  test('nine inertia values are taken row by row; six are the upper triangle', () => {
    const nine = load(twoLinks('mass: 1\ninertia: [ 1, 0.1, 0.2, 0.1, 2, 0.3, 0.2, 0.3, 3 ]')).links[1]!.inertia;
    const six = load(twoLinks('mass: 1\ninertia: [ 1, 0.1, 0.2, 2, 0.3, 3 ]')).links[1]!.inertia;
    expect(six).toEqual(nine);
    expect(nine).toEqual([[1, 0.1, 0.2], [0.1, 2, 0.3], [0.2, 0.3, 3]]);
  });
});

describe('structure', () => {
  test('links are in depth-first pre-order, children in the order they were attached', () => {
    const m = load(`${header()}links:
  - { name: ROOT }
  - { name: A, parent: ROOT }
  - { name: C, parent: ROOT }
  - { name: B, parent: A }
  - { name: D, parent: A }
  - { name: E, parent: D }
`);
    expect(m.links.map((l) => l.name)).toEqual(['ROOT', 'A', 'B', 'D', 'E', 'C']);
  });

  test('without `name`, the model is named after its file, as in Choreonoid', () => {
    expect(load('format: ChoreonoidBody\nformat_version: 2.0\nlinks:\n  - { name: ROOT }\n').name).toBe('model');
  });

  test('root_link may name a link that is not listed first', () => {
    const m = load(`${header()}root_link: BASE\nlinks:\n  - { name: ARM, parent: BASE }\n  - { name: BASE }\n`);
    expect(m.root).toBe('BASE');
    expect(m.links.map((l) => l.name)).toEqual(['BASE', 'ARM']);
  });

  test('devices are sorted by link order, file order within a link', () => {
    const m = load(`${header()}links:
  - { name: ROOT }
  -
    name: LATE
    parent: EARLY
    elements:
      - { type: ForceSensor, name: F1 }
      - { type: RateGyroSensor, name: G1 }
  -
    name: EARLY
    parent: ROOT
    elements:
      - { type: AccelerationSensor, name: A1 }
`);
    expect(m.devices.map((d) => [d.name, d.link])).toEqual([
      ['A1', 'EARLY'],
      ['F1', 'LATE'],
      ['G1', 'LATE'],
    ]);
  });

  test('elements as a list, as one node with a type, and as a mapping keyed by type (read in key order)', () => {
    const m = load(`${header()}links:
  -
    name: L0
    elements: { type: Shape, geometry: { type: Sphere, radius: 1 } }
  -
    name: L1
    parent: L0
    elements:
      - { type: Shape, geometry: { type: Sphere, radius: 1 } }
  -
    name: L2
    parent: L0
    elements:
      RateGyroSensor: { name: GYRO }
      AccelerationSensor: { name: ACCEL }
`);
    expect(m.links[0]!.visuals).toHaveLength(1);
    expect(m.links[1]!.visuals).toHaveLength(1);
    // Choreonoid's mappings are ordered by key: AccelerationSensor before RateGyroSensor.
    expect(m.devices.map((d) => d.name)).toEqual(['ACCEL', 'GYRO']);
  });

  test('YAML anchors, aliases and << merge keys (later keys override merged ones)', () => {
    const m = load(`${header()}links:
  - &link { name: ROOT, mass: 2, center_of_mass: [ 0, 0, 1 ] }
  -
    <<: *link
    name: CHILD
    parent: ROOT
    mass: 5
`);
    expect(m.links[1]!.mass).toBe(5);
    expect(m.links[1]!.centerOfMass).toEqual([0, 0, 1]);
  });

  test('Visual nodes only draw, Collision nodes only collide, plain shapes do both', () => {
    const l = load(`${header()}links:
  -
    name: ROOT
    elements:
      - { type: Visual, elements: { Shape: { geometry: { type: Sphere, radius: 1 } } } }
      - { type: Collision, elements: { Shape: { geometry: { type: Box, size: [ 1, 1, 1 ] } } } }
      - { type: Shape, geometry: { type: Capsule, radius: 1, height: 2 } }
      - { type: Visual, shape: { geometry: { type: Cone, radius: 1, height: 2 } } }
`).links[0]!;
    expect(l.visuals.map((s) => s.geometry.kind)).toEqual(['sphere', 'capsule', 'cone']);
    expect(l.collisions.map((s) => s.geometry.kind)).toEqual(['box', 'capsule']);
  });

  test('Camera formats: COLOR is a Camera, the depth formats a RangeCamera; optical_frame cv and robotics', () => {
    const m = load(`${header()}links:
  -
    name: ROOT
    elements:
      - { type: Camera, name: C, format: COLOR, optical_frame: cv, field_of_view: 90 }
      - { type: Camera, name: D, format: POINT_CLOUD, optical_frame: robotics }
      - { type: Camera, name: NONE }
`);
    expect(m.devices.map((d) => [d.name, d.type])).toEqual([
      ['C', 'Camera'],
      ['D', 'RangeCamera'],
    ]);
    const [c, d] = m.devices;
    if (c?.type !== 'Camera' || d?.type !== 'RangeCamera') throw new Error('types');
    expect(c.params.optical_frame_rotation).toEqual([[1, 0, 0], [0, -1, 0], [0, 0, -1]]);
    expect(c.params.field_of_view).toBeCloseTo(Math.PI / 2, 15);
    expect(d.params.optical_frame_rotation).toEqual([[0, 0, -1], [-1, 0, 0], [0, 1, 0]]);
    expect([d.params.is_organized, d.params.image_type]).toEqual([false, 'NO_IMAGE']);
    // Choreonoid drops a Camera without format silently; we say so.
    expect(m.warnings.map((w) => [w.path, w.message])).toEqual([['links[0].elements[2]', expect.stringMatching(/Camera "NONE".*format/)]]);
  });

  test('RangeSensor: symmetric range with a step, asymmetric min/max angles with a sample count', () => {
    const m = load(`${header()}links:
  -
    name: ROOT
    elements:
      - { type: RangeSensor, name: A, yaw_range: 180, yaw_step: 1, scan_rate: 20 }
      - { type: RangeSensor, name: B, min_yaw_angle: -30, max_yaw_angle: 90, yaw_samples: 5, pitch_range: 20, pitch_step: 10 }
`);
    const [a, b] = m.devices;
    if (a?.type !== 'RangeSensor' || b?.type !== 'RangeSensor') throw new Error('types');
    expect(a.params.min_yaw_angle).toBeCloseTo(-Math.PI / 2, 15);
    expect(a.params.max_yaw_angle).toBeCloseTo(Math.PI / 2, 15);
    expect(a.params.num_yaw_samples).toBe(181);
    expect([a.params.scan_rate, a.params.frame_rate]).toEqual([20, 20]);
    expect(b.params.min_yaw_angle).toBeCloseTo(deg(-30), 15);
    expect(b.params.yaw_step).toBeCloseTo(deg(30), 15);
    expect(b.params.num_yaw_samples).toBe(5);
    expect(b.params.num_pitch_samples).toBe(3);
    // Defaults of RangeSensor: 10 Hz; no pitch scan when none is given.
    expect(a.params.num_pitch_samples).toBe(1);
  });

  test('unknown node types (plugin devices) are skipped with a warning naming them', () => {
    const m = load(`${header()}links:
  -
    name: ROOT
    elements:
      - { type: AGXVehicleContinuousTrackDevice, name: TRACKS }
      - { type: ForceSensor, name: FS }
`);
    expect(m.devices.map((d) => d.name)).toEqual(['FS']);
    expect(m.warnings).toHaveLength(1);
    expect(m.warnings[0]).toMatchObject({ severity: 'warning', path: 'links[0].elements[0]', line: 8, column: 9 });
    expect(m.warnings[0]!.message).toMatch(/AGXVehicleContinuousTrackDevice/);
    // Skipped, but what the link holds is kept: a RotorDevice's joint is a propeller (src/roles).
    expect(m.links[0]!.pluginNodes).toEqual(['AGXVehicleContinuousTrackDevice']);
  });

  test('shapes: false skips geometry but keeps links, mass and devices', () => {
    const text = `${header()}links:\n  -\n    name: ROOT\n    mass: 2\n    elements:\n      - { type: Shape, geometry: { type: Box, size: [ 1, 1, 1 ] } }\n      - { type: ForceSensor, name: FS }\n`;
    const m = load(text, { shapes: false });
    expect(m.links[0]!.visuals).toEqual([]);
    expect(m.links[0]!.mass).toBe(2);
    expect(m.devices).toHaveLength(1);
  });

  test('extra_joints: hinge axis normalised, poses in each link', () => {
    const m = load(`${header()}links:
  - { name: A }
  - { name: B, parent: A }
extra_joints:
  - { link1_name: A, link2_name: B, joint_type: hinge, axis: [ 0, 0, 2 ], translation_in_link1: [ 1, 0, 0 ], rotation_in_link2: [ 1, 0, 0, 90 ] }
`);
    const x = m.extraJoints[0]!;
    expect([x.type, x.link1, x.link2, x.axis]).toEqual(['hinge', 'A', 'B', [0, 0, 1]]);
    expect(x.localPose1.translation).toEqual([1, 0, 0]);
    expectMat(x.localPose2.rotation, Rx(Math.PI / 2));
  });
});

describe('files: SubBody, Resource, package://, ContinuousTrack (test/models/body/assembly.body)', () => {
  const modelDir = join(projectRoot, 'test/models/body');
  const model = loadBodyFile(join(modelDir, 'assembly.body'), { packagePath: [join(modelDir, 'packages')] });

  test('the link tree: sub-body roots attached in file order, then the track chain', () => {
    // Joint ids 1 and 2 come from the offsets; Choreonoid warns that id 0 is unused, and so do we.
    expect(model.warnings.map((w) => [w.path, w.line, w.message])).toEqual([['links', 7, 'joint id 0 is not given to any joint (ids should be 0..2 without gaps)']]);
    expect(model.links.map((l) => [l.name, l.parent, l.joint.type, l.joint.id])).toEqual([
      ['BASE', null, 'free', null],
      ['L_PALM', 'BASE', 'fixed', null],
      ['L_FINGER', 'L_PALM', 'prismatic', 1],
      ['R_PALM', 'BASE', 'revolute', null],
      ['R_FINGER', 'R_PALM', 'prismatic', 2],
      ['TRACK0', 'BASE', 'free', null],
      ['TRACK1', 'TRACK0', 'revolute', null],
      ['TRACK2', 'TRACK1', 'revolute', null],
      ['TRACK3', 'TRACK2', 'revolute', null],
    ]);
  });

  test('SubBody: prefixed joint names, device prefixes, the entry\'s pose and joint over the sub-body root', () => {
    expect(model.links[2]!.joint.name).toBe('L_FINGER_SLIDE');
    expect(model.links[4]!.joint.name).toBe('R_FINGER_SLIDE');
    expect(model.links[3]!.offset.translation).toEqual([0, -0.2, 0]);
    expect(model.links[3]!.joint.axis).toEqual([0, 0, 1]);
    expect(model.links[1]!.mass).toBe(0.3);
    expect(model.devices.map((d) => [d.name, d.link, d.type])).toEqual([
      ['MOUNTED_CAMERA', 'BASE', 'Camera'],
      ['L_PALM_FS', 'L_PALM', 'ForceSensor'],
      ['RIGHT_PALM_FS', 'R_PALM', 'ForceSensor'],
    ]);
    expect(model.extraJoints.map((x) => [x.type, x.link1, x.link2, x.axis, x.localPose2.translation])).toEqual([
      ['piston', 'L_PALM', 'L_FINGER', [0, 1, 0], [0, 0, 0.01]],
      ['piston', 'R_PALM', 'R_FINGER', [0, 1, 0], [0, 0, 0.01]],
    ]);
  });

  test('Resource with node: the anchored fragment, placed by the Resource\'s pose, mass and devices included', () => {
    const base = model.links[0]!;
    // 5 kg link-level at the origin + 0.2 kg at (0.1, 0, 0.02).
    expect(base.mass).toBeCloseTo(5.2, 14);
    expect(base.centerOfMass[0]).toBeCloseTo((0.2 * 0.1) / 5.2, 14);
    expect(base.centerOfMass[2]).toBeCloseTo((0.2 * 0.02) / 5.2, 14);
    expect(model.devices[0]!.pose.translation.map((x) => Number(x.toFixed(12)))).toEqual([0.1, 0, 0.02]);
    const geometries = base.visuals.map((s) => s.geometry);
    expect(geometries.map((g) => g.kind)).toEqual(['box', 'meshFile', 'meshFile']);
    const stl = join(modelDir, 'packages/demo_meshes/meshes/plate.stl');
    // The fragment's relative uri resolves from parts.yaml's directory; package:// through packagePath.
    expect(geometries[1]).toMatchObject({ path: stl, format: 'stl' });
    expect(geometries[2]).toMatchObject({ path: stl, uri: 'package://demo_meshes/meshes/plate.stl' });
    expectMat(base.visuals[2]!.transform.linear, Rz(Math.PI / 2));
  });

  test('package:// without a package path is a located error', () => {
    expect(() => loadBodyFile(join(modelDir, 'assembly.body'), { packagePath: [] })).toThrow(
      /assembly\.body:\d+:\d+: error: package "demo_meshes".*not found/,
    );
  });

  test('ContinuousTrack: numJoints links, the first free, the rest revolute at jointOffset with the initial angles', () => {
    const track = model.links.slice(5);
    expect(track.map((l) => l.offset.translation)).toEqual([[-0.1, 0, 0], [0.05, 0, 0], [0.05, 0, 0], [0.05, 0, 0]]);
    expect(track.map((l) => l.joint.initial)).toEqual([0, deg(10), deg(20), deg(30)].map((x) => expect.closeTo(x, 15)));
    expect(track.every((l) => l.mass === 0.05 && l.joint.axis[1] === 1)).toBe(true);
    // Choreonoid's isContinuousTrack: on the first shoe only, with the chain's length.
    expect(model.links.map((l) => l.continuousTrack ?? null)).toEqual([null, null, null, null, null, 4, null, null, null]);
  });
});

describe('VRML resources selected by node (test/models/body/nested.body)', () => {
  test('a node selected by one Resource is moved out of a node selected by another, as Choreonoid\'s resource cache does', () => {
    const m = loadBodyFile(join(projectRoot, 'test/models/body/nested.body'));
    const kinds = (i: number) => m.links[i]!.visuals.map((s) => s.geometry.kind);
    expect(kinds(0)).toEqual(['box']);
    expect(kinds(1)).toEqual(['sphere']);
    expect(kinds(2)).toEqual(['box', 'sphere']);
    // Selected nodes keep their rotation, not their translation: OUTER's box sits at the link origin,
    // INNER's sphere is turned 90° about z and not moved.
    expect(m.links[0]!.visuals[0]!.transform.translation).toEqual([0, 0, 0]);
    expect(m.links[1]!.visuals[0]!.transform.translation).toEqual([0, 0, 0]);
    expect(m.links[1]!.visuals[0]!.transform.linear[1]![0]).toBeCloseTo(1, 15);
    // Inside OUTER (link C) the sphere keeps INNER's translation relative to OUTER.
    expect(m.links[2]!.visuals[1]!.transform.translation.map((x) => Number(x.toFixed(12)))).toEqual([0, 0, 1]);
    // Two sibling nodes with identical geometry each keep their own shape.
    expect([kinds(3), kinds(4)]).toEqual([['box'], ['box']]);
  });
});

describe('limits (hostile files fail fast with a located error)', () => {
  test('an alias bomb stops at maxAliases', () => {
    const levels = ['a: &a [ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 ]'];
    for (let i = 1; i < 8; i++) levels.push(`${'abcdefgh'[i]}: &${'abcdefgh'[i]} [ ${Array(10).fill(`*${'abcdefgh'[i - 1]}`).join(', ')} ]`);
    const text = `${header()}${levels.join('\n')}\nlinks:\n  - { name: ROOT, elements: *h }\n`;
    // Whichever bound trips first: the number of aliases, or the nodes their copies add up to.
    expect(() => load(text, { limits: { maxAliases: 1000 } })).toThrow(/more than 1000 YAML aliases|aliases expand to more than 10000 nodes/);
    // With few, small aliases the alias count is what stops it.
    const many = `${header()}a: &a 1\nb: [ ${Array(30).fill('*a').join(', ')} ]\nlinks:\n  - { name: ROOT }\n`;
    expect(() => load(many, { limits: { maxAliases: 20 } })).toThrow(/more than 20 YAML aliases/);
    expect(load(many, { limits: { maxAliases: 30 } }).links).toHaveLength(1);
  });

  test('nesting deeper than maxDepth', () => {
    const text = `${header()}links:\n  - { name: ROOT, mass: ${'['.repeat(60)}1${']'.repeat(60)} }\n`;
    expect(() => load(text, { limits: { maxDepth: 50 } })).toThrow(/deeper than the limit of 50/);
  });

  test('a file over maxFileBytes', () => {
    const text = `${header()}links:\n  - { name: ROOT }\n# ${'x'.repeat(2000)}\n`;
    expect(() => load(text, { limits: { maxFileBytes: 1000 } })).toThrow(/over the limit of 1000/);
  });

  test('more included files than maxIncludedFiles', () => {
    const text = `${header()}links:\n  -\n    name: ROOT\n    elements:\n${Array.from({ length: 3 }, () => '      - { type: Resource, uri: "part.yaml" }').join('\n')}\n`;
    const files = { 'part.yaml': 'type: Shape\ngeometry: { type: Sphere, radius: 1 }\n' };
    expect(load(text, {}, files).links[0]!.visuals).toHaveLength(3);
    expect(() => load(text, { limits: { maxIncludedFiles: 2 } }, files)).toThrow(ModelLoadError);
    expect(() => load(text, { limits: { maxIncludedFiles: 2 } }, files)).toThrow(/more than 2 files/);
  });
});

describe('a SubBody that cannot be loaded is left out, as Choreonoid leaves it (StdBodyLoader::Impl::readSubBodyNode)', () => {
  const model = (uri: string): string =>
    `${header()}links:\n  - { name: BASE, joint_type: free }\n  - { type: SubBody, uri: "${uri}", parent: BASE, prefix: L_ }\n  - { name: TAIL, parent: BASE, joint_type: fixed }\n`;
  test.each([
    ['a missing file', 'arm.body', {}, /SubBody "arm\.body" cannot be loaded, so its links are left out of the model \(as Choreonoid does\): resource file "arm\.body" not found/, 3],
    [
      'a file with an error, located in that file',
      'arm.body',
      { 'arm.body': `${header()}links:\n  - { name: PALM, joint_type: sideways }\n` },
      /SubBody "arm\.body" cannot be loaded, .*arm\.body:5:\d+: error: /,
      3,
    ],
  ] as const)('%s: the rest of the model loads, warned at the uri', (_, uri, files, message, line) => {
    const m = load(model(uri), {}, files);
    expect(m.links.map((l) => l.name)).toEqual(['BASE', 'TAIL']);
    const w = m.warnings.filter((x) => /SubBody/.test(x.message));
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toMatch(message);
    expect([w[0]!.line, w[0]!.path]).toEqual([line + 3, 'links[1].uri']);
  });

  test('a uri body_bridge cannot read (a path variable) is an error, not a sub-body left out: Choreonoid would read it', () => {
    expect(() => load(model('${SHARE}/model/arm.body'))).toThrow(/path variables such as "\$\{SHARE\}\/model\/arm\.body" are not supported/);
  });

  test('a SubBody that includes itself is still an error, as in Choreonoid', () => {
    expect(() => load(model('model.body'))).toThrow(ModelLoadError);
    expect(() => load(model('model.body'))).toThrow(/SubBody "model\.body" includes itself/);
  });

  test('a link whose parent was in the left-out sub-body is then an error naming that parent', () => {
    const text = `${header()}links:\n  - { name: BASE, joint_type: free }\n  - { type: SubBody, uri: "arm.body", parent: BASE, prefix: L_ }\n  - { name: TIP, parent: L_PALM, joint_type: fixed }\n`;
    expect(() => load(text)).toThrow(/L_PALM/);
  });
});
