// The Body file tutorial and reference (../shared/spec) as tests: SimpleTank built step by step from
// the tutorial's full listing, the listing's mis-indented devices, and the reference's examples.
// Expected values are worked out by hand from the spec text (units converted, masses combined).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadBodyFile } from '../src/body/index.js';
import { ModelLoadError } from '../src/model/errors.js';
import type { RobotModel } from '../src/model/types.js';
import { compareWithOracle, oracleEntries, requireShared, specDir } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

requireShared();
const dir = scratchDir('body-spec-');

const deg = (d: number): number => (d * Math.PI) / 180;

function load(name: string, text: string): RobotModel {
  const file = join(dir, name);
  writeFileSync(file, text);
  return loadBodyFile(file);
}

function loadError(name: string, text: string): ModelLoadError {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    loadBodyFile(file);
  } catch (e) {
    if (e instanceof ModelLoadError) return e;
    throw e;
  }
  throw new Error(`${name} loaded, but an error was expected`);
}

const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;

// The tutorial's "SimpleTank model file, full listing" (the last ```yaml block of the Markdown).
const tutorial = readFileSync(join(specDir, 'body-file-tutorial-and-reference.ja.md'), 'utf8');
const listingStart = tutorial.indexOf('```yaml', tutorial.indexOf('# SimpleTankモデルファイル全記述内容')) + '```yaml\n'.length;
const listing = tutorial.slice(listingStart, tutorial.indexOf('```', listingStart));

// Cut points: each step of the tutorial ends where the next link entry begins.
const upTo = (marker: string): string => listing.slice(0, listing.indexOf(marker));
const deviceStart = listing.indexOf('  -\n    type: SpotLight');
const trackStart = listing.indexOf('  -\n    name: TRACK_L');
// The tutorial text puts the SpotLight and the Camera in TURRET_P's `elements`; the listing has them
// two levels too far left. Indenting them by four spaces makes them TURRET_P's last elements.
const devicesIndented = listing
  .slice(deviceStart, trackStart)
  .split('\n')
  .map((l) => (l === '' ? l : `    ${l}`))
  .join('\n');
const corrected = listing.slice(0, deviceStart) + devicesIndented + listing.slice(trackStart);

describe('SimpleTank, step by step (tutorial)', () => {
  test('the listing is the one the tutorial describes', () => {
    expect(listing).toMatch(/^format: ChoreonoidBody/);
    expect(listing).toContain('name: TRACK_R');
  });

  test('step 1: the chassis alone is a complete model (free root, its own mass values)', () => {
    const m = load('step1.body', upTo('  -\n    name: TURRET_Y'));
    expect(m.name).toBe('SimpleTank');
    expect(m.root).toBe('CHASSIS');
    expect(m.links).toHaveLength(1);
    const chassis = m.links[0]!;
    expect(chassis.joint.type).toBe('free');
    expect(chassis.offset.translation).toEqual([0, 0, 0.1]);
    expect(chassis.mass).toBe(8);
    expect(chassis.inertia).toEqual([
      [0.1, 0, 0],
      [0, 0.1, 0],
      [0, 0, 0.5],
    ]);
    // One Box 0.45 × 0.3 × 0.1, both drawn and colliding, with the anchored appearance.
    expect(chassis.visuals.map((s) => s.geometry)).toEqual([{ kind: 'box', size: [0.45, 0.3, 0.1] }]);
    expect(chassis.collisions).toEqual(chassis.visuals);
    expect(chassis.visuals[0]!.material?.diffuseColor).toEqual([0, 0.6, 0]);
    expect(chassis.visuals[0]!.material?.specularColor).toEqual([0.2, 0.8, 0.2]);
  });

  test('step 2: the turret yaw joint (jointAxis -Z, unlimited range, 90°/s)', () => {
    const m = load('step2.body', upTo('  -\n    name: TURRET_P'));
    const y = m.links[1]!;
    expect([y.name, y.parent, y.joint.type, y.joint.id]).toEqual(['TURRET_Y', 'CHASSIS', 'revolute', 0]);
    expect(y.joint.axis).toEqual([0, 0, -1]);
    expect([y.joint.lower, y.joint.upper]).toEqual([-Infinity, Infinity]);
    expect(y.joint.velocityUpper).toBeCloseTo(Math.PI / 2, 15);
    expect(y.joint.velocityLower).toBeCloseTo(-Math.PI / 2, 15);
    expect(y.offset.translation).toEqual([-0.04, 0, 0.1]);
    expect(y.centerOfMass).toEqual([0, 0, 0.025]);
    // `appearance: *BodyAppearance` reuses the chassis material.
    expect(y.visuals[0]!.material).toEqual(m.links[0]!.visuals[0]!.material);
  });

  test('step 3: the turret pitch link combines two RigidBody nodes (turret, and the gun moved by a Transform)', () => {
    const m = load('step3.body', listing.slice(0, deviceStart));
    const p = m.links[2]!;
    expect([p.name, p.parent]).toEqual(['TURRET_P', 'TURRET_Y']);
    expect(p.joint.axis).toEqual([0, -1, 0]);
    expect(p.joint.lower).toBeCloseTo(deg(-10), 15);
    expect(p.joint.upper).toBeCloseTo(deg(45), 15);
    // Turret 3 kg at the origin, gun 1 kg at (0.2, 0, 0): 4 kg, centre of mass at x = 0.2/4 = 0.05.
    expect(p.mass).toBe(4);
    expect(p.centerOfMass[0]).toBeCloseTo(0.05, 15);
    expect(p.centerOfMass[1]).toBe(0);
    expect(p.centerOfMass[2]).toBe(0);
    // Gun inertia diag(0.01, 0.1, 0.1) turned 90° about Z becomes diag(0.1, 0.01, 0.1). Parallel axis
    // about x = 0.05: turret 3·0.05² = 0.0075, gun 1·0.15² = 0.0225 on yy and zz.
    const I = p.inertia;
    expect(I[0][0]).toBeCloseTo(0.1 + 0.1, 12);
    expect(I[1][1]).toBeCloseTo(0.1 + 0.01 + 0.0075 + 0.0225, 12);
    expect(I[2][2]).toBeCloseTo(0.1 + 0.1 + 0.0075 + 0.0225, 12);
    for (const [r, c] of [[0, 1], [0, 2], [1, 2], [1, 0], [2, 0], [2, 1]] as const) expect(I[r][c]).toBeCloseTo(0, 12);
    // Gun shape: a Cylinder (axis +Y) turned 90° about Z, so its axis lies along -X, centred at x = 0.2.
    const gun = p.visuals[1]!;
    expect(gun.geometry).toEqual({ kind: 'cylinder', radius: 0.02, height: 0.2, top: true, bottom: true, side: true });
    expect(gun.transform.translation).toEqual([0.2, 0, 0]);
    const axis = gun.transform.linear.map((row) => row[1]);
    expect(axis[0]).toBeCloseTo(-1, 15);
    expect(axis[1]).toBeCloseTo(0, 15);
  });

  test('step 4 (as the tutorial text places them): a SpotLight and a COLOR_DEPTH camera on TURRET_P', () => {
    const m = load('step4.body', corrected.slice(0, corrected.indexOf('  -\n    name: TRACK_L')));
    expect(m.devices.map((d) => [d.type, d.name, d.link])).toEqual([
      ['SpotLight', 'Light', 'TURRET_P'],
      ['RangeCamera', 'Camera', 'TURRET_P'],
    ]);
    const light = m.devices[0]!;
    expect(light.pose.translation).toEqual([0.08, 0, 0.1]);
    if (light.type !== 'SpotLight') throw new Error('not a SpotLight');
    expect(light.params.direction).toEqual([1, 0, 0]);
    // Single-precision values in Choreonoid: compare at float resolution.
    expect(light.params.beam_width).toBeCloseTo(deg(36), 6);
    expect(light.params.cut_off_angle).toBeCloseTo(deg(40), 6);
    expect(light.params.cut_off_exponent).toBe(6);
    expect([light.params.constant_attenuation, light.params.linear_attenuation]).toEqual([1, 0]);
    expect(light.params.quadratic_attenuation).toBeCloseTo(0.01, 8);

    const camera = m.devices[1]!;
    if (camera.type !== 'RangeCamera') throw new Error('not a RangeCamera');
    expect(camera.params.format).toBe('COLOR_DEPTH');
    expect(camera.params.image_type).toBe('COLOR_IMAGE');
    expect(camera.params.is_organized).toBe(true);
    expect([camera.params.width, camera.params.height, camera.params.frame_rate]).toEqual([320, 240, 30]);
    expect(camera.params.field_of_view).toBeCloseTo(deg(65), 15);
    // rotation [[1,0,0,90],[0,1,0,-90]] = Rx(90°)·Ry(-90°) = [[0,0,-1],[-1,0,0],[0,1,0]]: the lens
    // (the camera's -Z) looks along the link's +X, the image's up (+Y) is the link's +Z.
    const expected = [
      [0, 0, -1],
      [-1, 0, 0],
      [0, 1, 0],
    ];
    camera.pose.rotation.forEach((row, i) => row.forEach((x, j) => expect(x).toBeCloseTo(expected[i]![j]!, 15)));
    // The light and camera shapes belong to TURRET_P, at their devices' poses.
    expect(m.links[2]!.visuals.map((s) => s.geometry.kind)).toEqual(['cylinder', 'cylinder', 'cone', 'cylinder']);
  });

  test('step 5: the tracks (actuationMode jointSurfaceVelocity makes them pseudo continuous tracks)', () => {
    const m = load('step5.body', corrected);
    expect(m.links.map((l) => [l.name, l.parent, l.joint.type])).toEqual([
      ['CHASSIS', null, 'free'],
      ['TURRET_Y', 'CHASSIS', 'revolute'],
      ['TURRET_P', 'TURRET_Y', 'revolute'],
      ['TRACK_L', 'CHASSIS', 'pseudo_continuous_track'],
      ['TRACK_R', 'CHASSIS', 'pseudo_continuous_track'],
    ]);
    const track = m.links[3]!;
    expect(track.joint.axis).toEqual([0, 1, 0]);
    const g = track.visuals[0]!.geometry;
    if (g.kind !== 'extrusion') throw new Error('not an extrusion');
    expect(g.crossSection).toEqual([[-0.22, -0.1], [0.22, -0.1], [0.34, 0.06], [-0.34, 0.06], [-0.22, -0.1]]);
    expect(g.spine).toEqual([[0, -0.05, 0], [0, 0.05, 0]]);
    // `Shape: *TRACK` gives TRACK_R the same geometry.
    expect(m.links[4]!.visuals[0]!.geometry).toEqual(g);
  });

  test('the finished tutorial model equals Choreonoid\'s loading of share/model/Tank/SimpleTank.body', () => {
    const m = load('SimpleTank.body', corrected);
    const [oracle] = oracleEntries((f) => f === 'choreonoid/share/model/Tank/SimpleTank.body');
    expect(compareWithOracle(m, oracle!.oracle)).toEqual([]);
  });
});

describe('the full listing as printed (devices indented at the links level)', () => {
  test('is a located error at the SpotLight entry, not two bogus links', () => {
    const e = loadError('SimpleTankListing.body', listing);
    const d = e.diagnostics[0]!;
    expect(d.file).toBe(join(dir, 'SimpleTankListing.body'));
    expect(d.path).toBe('links[3].type');
    expect(d.line).toBe(lineOf(listing, '    type: SpotLight'));
    expect(d.column).toBe(11);
    expect(d.message).toMatch(/SpotLight/);
    expect(d.message).toMatch(/elements/);
  });
});

describe('reference manual examples', () => {
  const header = 'format: ChoreonoidBody\nformat_version: 2.0\nname: Example\n';

  test('Device node example: an AccelerationSensor under WAIST, with the defaults of an unspecified sensor', () => {
    const m = load('accel.body', `${header}links:\n  -\n    name: WAIST\n    elements:\n      -\n        type: AccelerationSensor\n        id: 0\n`);
    expect(m.devices).toHaveLength(1);
    const d = m.devices[0]!;
    expect([d.type, d.id, d.link, d.name]).toEqual(['AccelerationSensor', 0, 'WAIST', '']);
    if (d.type !== 'AccelerationSensor') throw new Error('type');
    expect(d.params.max_acceleration).toEqual([Infinity, Infinity, Infinity]);
    // No mass values at all: Choreonoid's defaults, mass 1 kg and identity inertia.
    expect(m.links[0]!.mass).toBe(1);
    expect(m.links[0]!.inertia).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    expect(m.links[0]!.joint.type).toBe('fixed');
  });

  test('Imu node: the manual spells it Imu, Choreonoid registers only IMU (its loader says "The node type \\"Imu\\" is not defined"): read, with a located warning', () => {
    // Seen with Choreonoid 25994f3's BodyLoader on test/live/choreonoid/Checker.body before it said IMU.
    const text = `${header}links:\n  -\n    name: WAIST\n    elements:\n      -\n        type: Imu\n        name: HeadImu\n      -\n        type: IMU\n        name: BodyImu\n`;
    const m = load('imu.body', text);
    expect(m.devices.map((d) => [d.type, d.name])).toEqual([
      ['Imu', 'HeadImu'],
      ['Imu', 'BodyImu'],
    ]);
    expect(m.warnings).toHaveLength(1);
    expect(m.warnings[0]).toMatchObject({ line: lineOf(text, 'type: Imu'), column: 15 });
    expect(m.warnings[0]!.message).toMatch(/Choreonoid registers only "IMU"/);
  });

  test('Group node example: a group anchored as &SUBSYSTEM and reused with `elements: *SUBSYSTEM`', () => {
    const text = `${header}links:
  -
    name: A
    elements:
      - &SUBSYSTEM
        type: Group
        name: SUBSYSTEM
        elements:
          - { type: Shape, geometry: { type: Sphere, radius: 0.1 } }
          - { type: Shape, translation: [ 0, 0, 1 ], geometry: { type: Box, size: [ 1, 2, 3 ] } }
  -
    name: B
    parent: A
    elements: *SUBSYSTEM
`;
    const m = load('group.body', text);
    const kinds = (i: number) => m.links[i]!.visuals.map((s) => [s.geometry.kind, s.transform.translation]);
    expect(kinds(0)).toEqual([
      ['sphere', [0, 0, 0]],
      ['box', [0, 0, 1]],
    ]);
    expect(kinds(1)).toEqual(kinds(0));
  });

  test('Link keys from the reference: jointRange as one number means ±value; an axis letter; rotation about an axis', () => {
    const text = `${header}links:
  -
    name: BASE
  -
    name: J
    parent: BASE
    translation: [ 1, 2, 3 ]
    rotation: [ 0, 0, 1, 90 ]
    joint_type: revolute
    joint_axis: X
    joint_range: 30
`;
    const j = load('range.body', text).links[1]!;
    expect(j.joint.lower).toBeCloseTo(deg(-30), 15);
    expect(j.joint.upper).toBeCloseTo(deg(30), 15);
    expect(j.joint.axis).toEqual([1, 0, 0]);
    const R = j.offset.rotation;
    expect(R[0][1]).toBeCloseTo(-1, 15);
    expect(R[1][0]).toBeCloseTo(1, 15);
    expect(R[2][2]).toBe(1);
  });

  test('IndexedFaceSet as the reference describes it: faces separated by -1, counter-clockwise', () => {
    const text = `${header}links:
  -
    name: BASE
    elements:
      Shape:
        geometry:
          type: IndexedFaceSet
          vertices: [ 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1 ]
          faces: [ 0, 1, 2, 3, -1, 0, 1, 4, -1 ]
`;
    const g = load('ifs.body', text).links[0]!.visuals[0]!.geometry;
    expect(g).toMatchObject({
      kind: 'mesh',
      vertices: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1]],
      faces: [[0, 1, 2, 3], [0, 1, 4]],
    });
  });
});
