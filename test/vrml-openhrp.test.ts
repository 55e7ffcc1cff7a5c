// OpenHRP node semantics (spec: ../shared/spec/openhrp-vrml-model-format.ja.txt, as Choreonoid's
// VRMLBodyLoader applies them) on a small hand-written robot whose expected values are worked out
// by hand in the comments.
import { describe, expect, test } from 'vitest';
import type { Device, RobotModel } from '../src/model/types.js';
import { loadVrmlModel } from '../src/vrml/index.js';
import { expectClose, loadError, openHrpProtos, protoLines, writeModel } from './support/vrml-models.js';

const RZ90 = [[0, -1, 0], [1, 0, 0], [0, 0, 1]];
const RX90 = [[1, 0, 0], [0, 0, -1], [0, 1, 0]];

const ROBOT = `
DEF ROBOT Humanoid {
  name "robot"
  humanoidBody [
    DEF BASE Joint {
      jointType "free"
      translation 0 0 1
      children [
        DEF BASE_LINK Segment {
          mass 2
          momentsOfInertia [ 1 0 0 0 1 0 0 0 1 ]
          children Transform { translation 0 0 0.1 children Shape { geometry Box { size 0.1 0.2 0.3 } } }
        }
        Transform {
          translation 1 0 0
          children DEF EXTRA Segment { mass 2 children Shape { geometry Sphere { radius 0.5 } } }
        }
        DEF ARM Joint {
          jointType "rotate"
          jointAxis 1 0 0
          jointId 1
          translation 0 0.5 0
          rotation 0 0 1 1.5707963267948966
          ulimit [ 1.5 ] llimit [ -1.5 ] uvlimit [ 3 ] lvlimit [ -3 ]
          gearRatio 100 rotorInertia 1e-6 rotorResistor 2 torqueConst 0.5 encoderPulse 4000
          children [
            Transform { rotation 0 0 1 1.5707963267948966 children Segment { mass 1 momentsOfInertia [ 1 0 0 0 2 0 0 0 3 ] } }
            Transform {
              translation 0 0 0.2
              rotation 1 0 0 1.5707963267948966
              children DEF CAM VisionSensor { type "DEPTH" translation 0 0 0.1 width 640 height 480 fieldOfView 1 }
            }
            DEF SLIDER Joint {
              jointType "slide"
              jointId 0
              children DEF FS ForceSensor { sensorId 0 maxForce 10 20 30 }
            }
          ]
        }
        DEF ACC AccelerationSensor { sensorId 0 }
        DEF GYRO Gyro { sensorId 0 maxAngularVelocity 1 2 3 }
        DEF LIDAR RangeSensor { sensorId 0 scanAngle 1.0 scanStep 0.1 scanRate 20 maxDistance 30 }
        DEF EYE VisionSensor { type "NONE" }
      ]
    }
  ]
}
DEF LOOP ExtraJoint { link1Name "BASE" link2Name "SLIDER" jointType "xyz" link2LocalPos 0 0 1 }
`;

const load = (body: string, options = {}): RobotModel => loadVrmlModel(writeModel(openHrpProtos() + body), options);
const device = (m: RobotModel, name: string): Device => m.devices.find((d) => d.name === name)!;

describe('a hand-checked OpenHRP robot', () => {
  const model = load(ROBOT);

  test('links in pre-order, named by their DEF, with the Humanoid DEF as model name', () => {
    expect(model.name).toBe('ROBOT');
    expect(model.format).toBe('wrl');
    expect(model.root).toBe('BASE');
    expect(model.links.map((l) => [l.name, l.parent, l.joint.type])).toEqual([
      ['BASE', null, 'free'],
      ['ARM', 'BASE', 'revolute'],
      ['SLIDER', 'ARM', 'prismatic'],
    ]);
  });

  test('joint fields: axis, ids, limits, rotor data', () => {
    const [base, arm, slider] = model.links;
    expect(base!.joint).toMatchObject({ id: null, axis: [0, 0, 0], lower: -Infinity, upper: Infinity });
    expect(base!.offset.translation).toEqual([0, 0, 1]);
    expect(arm!.joint).toMatchObject({
      name: 'ARM', id: 1, axis: [1, 0, 0], lower: -1.5, upper: 1.5, velocityLower: -3, velocityUpper: 3,
      effortLower: -Infinity, effortUpper: Infinity, initial: 0, gearRatio: 100, rotorInertia: 1e-6,
      extras: { rotorResistor: 2, torqueConst: 0.5, encoderPulse: 4000 },
    });
    expect(arm!.offset.translation).toEqual([0, 0.5, 0]);
    expectClose(arm!.offset.rotation, RZ90);
    // The spec's default jointAxis is 0 0 1.
    expect(slider!.joint).toMatchObject({ id: 0, axis: [0, 0, 1] });
  });

  test('Segments combine: masses add, centre of mass averages, inertias rotate and shift to the common centre', () => {
    const [base, arm, slider] = model.links;
    // Two 2 kg segments at x = 0 and x = 1: centre 0.5; each is 0.5 from it, adding 2·0.25 to Iyy and Izz.
    expect(base!.mass).toBe(4);
    expectClose(base!.centerOfMass, [0.5, 0, 0]);
    expectClose(base!.inertia, [[1, 0, 0], [0, 2, 0], [0, 0, 2]]);
    // diag(1, 2, 3) turned 90° about z: x and y swap.
    expect(arm!.mass).toBe(1);
    expectClose(arm!.inertia, [[2, 0, 0], [0, 1, 0], [0, 0, 3]]);
    expect(slider!.mass).toBe(0);
    expectClose(slider!.inertia, [[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
  });

  test('Segment shapes are the link visuals and collisions, placed through the Transforms above them', () => {
    const base = model.links[0]!;
    expect(base.visuals.map((s) => [s.geometry.kind, s.transform.translation, s.name])).toEqual([
      ['box', [0, 0, 0.1], 'BASE_LINK'],
      ['sphere', [1, 0, 0], 'EXTRA'],
    ]);
    expect(base.collisions.map((s) => s.geometry)).toEqual(base.visuals.map((s) => s.geometry));
    expect(load(ROBOT, { shapes: false }).links[0]!.visuals).toEqual([]);
  });

  test('devices in reading order, on the link of the enclosing Joint', () => {
    expect(model.devices.map((d) => [d.name, d.type, d.link, d.id])).toEqual([
      ['CAM', 'RangeCamera', 'ARM', null],
      ['FS', 'ForceSensor', 'SLIDER', 0],
      ['ACC', 'AccelerationSensor', 'BASE', 0],
      ['GYRO', 'RateGyroSensor', 'BASE', 0],
      ['LIDAR', 'RangeSensor', 'BASE', 0],
      ['EYE', 'Camera', 'BASE', null],
    ]);
  });

  test('a sensor inside a Transform: pose = Transform · (translation, rotation)', () => {
    const cam = device(model, 'CAM');
    // Rx(90°) takes the sensor's z offset 0.1 to −y.
    expectClose(cam.pose.translation, [0, -0.1, 0.2]);
    expectClose(cam.pose.rotation, RX90);
  });

  test('VisionSensor DEPTH is a range camera without colour; NONE a plain colour camera', () => {
    expect(device(model, 'CAM').params).toMatchObject({
      format: 'DEPTH', image_type: 'NO_IMAGE', width: 640, height: 480, field_of_view: 1, near_clip: 0.01, far_clip: 10,
      frame_rate: 30, is_organized: true, min_distance: 0.1, max_distance: 10,
    });
    expect(device(model, 'EYE').params).toMatchObject({ format: 'NONE', image_type: 'COLOR_IMAGE', width: 320, height: 240, field_of_view: 0.785398 });
  });

  test('sensor limits: force as given, gyro as given, unspecified acceleration unlimited', () => {
    expect(device(model, 'FS').params).toEqual({ max_force: [10, 20, 30], max_torque: [-1, -1, -1] });
    expect(device(model, 'GYRO').params).toEqual({ max_angular_velocity: [1, 2, 3] });
    expect(device(model, 'ACC').params).toEqual({ max_acceleration: [Infinity, Infinity, Infinity] });
  });

  test('RangeSensor: scanAngle centred on 0, samples every scanStep, scanRate as frame rate', () => {
    expect(device(model, 'LIDAR').params).toMatchObject({
      yaw_range: 1, min_yaw_angle: -0.5, max_yaw_angle: 0.5, yaw_step: 0.1, num_yaw_samples: 11,
      pitch_range: 0, num_pitch_samples: 1, frame_rate: 20, scan_rate: 20, max_distance: 30, min_distance: 0.01,
    });
  });

  test('ExtraJoint "xyz" is a ball joint between two links, reported as a loop', () => {
    expect(model.extraJoints).toEqual([
      expect.objectContaining({
        name: 'LOOP', type: 'ball', link1: 'BASE', link2: 'SLIDER',
        localPose1: { translation: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
        localPose2: { translation: [0, 0, 1], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
      }),
    ]);
    expect(model.warnings.some((w) => /ExtraJoint LOOP closes a kinematic loop/.test(w.message))).toBe(true);
  });
});

describe('ExtraJoint types and other readings', () => {
  const twoLinks = (extra: string) => `
    DEF H Humanoid { humanoidBody DEF A Joint { jointType "fixed" children DEF B Joint { jointType "rotate" } } }
    ${extra}`;

  test('"xy" keeps a piston along jointAxis (with a warning); "z" is dropped (with a warning)', () => {
    const xy = load(twoLinks('DEF X ExtraJoint { link1Name "A" link2Name "B" jointType "xy" jointAxis 0 1 0 }'));
    expect(xy.extraJoints.map((x) => [x.type, x.axis])).toEqual([['piston', [0, 1, 0]]]);
    expect(xy.warnings.filter((w) => /"xy"/.test(w.message))).toHaveLength(1);
    const z = load(twoLinks('DEF Z ExtraJoint { link1Name "A" link2Name "B" jointType "z" }'));
    expect(z.extraJoints).toEqual([]);
    expect(z.warnings.filter((w) => /"z"/.test(w.message))).toHaveLength(1);
  });

  test('an ExtraJoint naming no link is a located error', () => {
    const line = protoLines() + 3;
    const error = loadError(() => load(twoLinks('DEF X ExtraJoint { link1Name "A" link2Name "NOPE" }')));
    expect(error).toMatchObject({ line, path: 'ExtraJoint(X).link2Name' });
    expect(error.message).toMatch(/"NOPE" is not a link/);
  });

  test('"crawler" is a pseudo continuous track with a warning; Choreonoid gives it no axis', () => {
    const model = load('DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children DEF T Joint { jointType "crawler" jointAxis 0 1 0 } } }');
    expect(model.links[1]!.joint).toMatchObject({ type: 'pseudo_continuous_track', axis: [0, 0, 0] });
    expect(model.warnings.filter((w) => /crawler/.test(w.message))).toHaveLength(1);
  });

  test('OpenHRP 2 axis labels: a Joint PROTO declaring jointAxis as SFString takes "X", "Y", "Z"', () => {
    const legacy = `#VRML V2.0 utf8
PROTO Joint [ exposedField MFNode children [] exposedField SFString jointType "" exposedField SFString jointAxis "Z"
  exposedField SFInt32 jointId -1 exposedField SFVec3f translation 0 0 0 exposedField SFRotation rotation 0 0 1 0 ] { Group { children IS children } }
PROTO Humanoid [ exposedField MFNode humanoidBody [] ] { Group { } }
DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children [
  DEF X Joint { jointType "rotate" jointAxis "X" } DEF Y Joint { jointType "slide" jointAxis "Y" } DEF Z Joint { jointType "rotate" } ] } }`;
    const model = loadVrmlModel(writeModel(legacy));
    expect(model.links.map((l) => [l.name, l.joint.axis])).toEqual([['A', [0, 0, 0]], ['X', [1, 0, 0]], ['Y', [0, 1, 0]], ['Z', [0, 0, 1]]]);
    const bad = loadError(() => loadVrmlModel(writeModel(legacy.replace('jointAxis "Y"', 'jointAxis "W"'))));
    expect(bad).toMatchObject({ line: 6, column: legacy.split('\n')[5]!.indexOf('"Y"') + 1 });
    expect(bad.message).toMatch(/jointAxis "W"/);
  });

  test('SpotLightDevice (Choreonoid\'s light PROTO) becomes a SpotLight with its attenuation split', () => {
    const model = load(`
PROTO SpotLightDevice [ exposedField SFVec3f translation 0 0 0 exposedField SFRotation rotation 0 0 1 0
  exposedField SFVec3f attenuation 1 0 0 exposedField SFFloat beamWidth 1.570796 exposedField SFColor color 1 1 1
  exposedField SFFloat cutOffAngle 0.785398 exposedField SFVec3f direction 0 0 -1 exposedField SFFloat intensity 1
  exposedField SFBool on TRUE ] { Transform { translation IS translation rotation IS rotation } }
DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children
  DEF LAMP SpotLightDevice { translation 0 0 1 attenuation 1 0.5 0.25 color 1 0.5 0 intensity 0.8 on FALSE beamWidth 0.5 cutOffAngle 0.6 } } }`);
    expect(model.devices).toHaveLength(1);
    expect(model.devices[0]).toMatchObject({
      type: 'SpotLight', name: 'LAMP', link: 'A', pose: { translation: [0, 0, 1] },
      params: {
        on: false, color: [1, 0.5, 0], intensity: 0.8, constant_attenuation: 1, linear_attenuation: 0.5, quadratic_attenuation: 0.25,
        direction: [0, 0, -1], beam_width: 0.5, cut_off_angle: 0.6, cut_off_exponent: 1,
      },
    });
  });

  test('a Surface node separates visual from collision shapes (Choreonoid\'s extension)', () => {
    const model = load(`
PROTO Surface [ field MFNode visual [ ] field MFNode collision [ ] ] { Group { children IS visual } }
DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children Segment { mass 1 children [
  Transform { translation 0 0 1 children Surface {
    visual Shape { geometry Box { } }
    collision [ Shape { geometry Sphere { } } Shape { geometry Cone { } } ] } } ] } } }`);
    const link = model.links[0]!;
    expect(link.visuals.map((v) => [v.geometry.kind, v.transform.translation])).toEqual([['box', [0, 0, 1]]]);
    expect(link.collisions.map((v) => [v.geometry.kind, v.transform.translation])).toEqual([['sphere', [0, 0, 1]], ['cone', [0, 0, 1]]]);
  });

  test('gaps in the joint IDs are warned about one by one, a huge gap in one summary, each at the jointId that jumps it', () => {
    const text = 'DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children [ DEF B Joint { jointType "rotate" jointId 2 } DEF C Joint { jointType "rotate" jointId 2000000000 } ] } }';
    const model = load(text);
    const gaps = model.warnings.filter((w) => /joint ID/.test(w.message));
    const messages = gaps.map((w) => w.message);
    expect(messages.slice(0, 3)).toEqual(['joint ID 0 is not specified', 'joint ID 1 is not specified', 'joint ID 3 is not specified']);
    expect(messages).toHaveLength(101);
    expect(messages.at(-1)).toBe('1999999899 more joint IDs below 2000000001 are not specified');
    const source = (openHrpProtos() + text).split('\n');
    // The value of the jointId field that jumps the gap.
    const at = (w: { line?: number; column?: number }): string => source[w.line! - 1]!.slice(w.column! - 1).split(' ')[0]!;
    expect(gaps.slice(0, 3).map(at)).toEqual(['2', '2', '2000000000']);
    expect(at(gaps.at(-1)!)).toBe('2000000000');
  });

  test('a repeated Joint DEF name gets a suffix and a warning', () => {
    const model = load('DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children [ DEF B Joint { jointType "fixed" } DEF B Joint { jointType "fixed" } ] } }');
    expect(model.links.map((l) => l.name)).toEqual(['A', 'B', 'B_2']);
    expect(model.warnings.filter((w) => /second Joint named "B"/.test(w.message))).toHaveLength(1);
  });

  test('a bare Joint tree without Humanoid is read as the body it describes', () => {
    const model = load('DEF A Joint { jointType "fixed" children DEF B Joint { jointType "rotate" jointAxis 0 1 0 } }');
    expect(model.links.map((l) => l.name)).toEqual(['A', 'B']);
    expect(model.name).toBe('model');
  });

  test('a file without Humanoid or Joint is one fixed "Root" link holding every shape (as in Choreonoid)', () => {
    const model = loadVrmlModel(writeModel('#VRML V2.0 utf8\nTransform { translation 1 0 0 children Shape { geometry Box {} } }'));
    expect(model.links).toHaveLength(1);
    expect(model.links[0]).toMatchObject({ name: 'Root', parent: null, mass: 1, joint: { type: 'fixed' } });
    expect(model.links[0]!.visuals[0]!.transform.translation).toEqual([1, 0, 0]);
    const lightOnly = loadVrmlModel(writeModel('#VRML V2.0 utf8\nDirectionalLight { }'));
    expect(lightOnly.links.map((l) => [l.name, l.visuals.length])).toEqual([['Root', 0]]);
    expect(loadError(() => loadVrmlModel(writeModel('#VRML V2.0 utf8\n# nothing\n'))).message).toMatch(/nothing can be loaded as a body/);
  });
});

describe('OpenHRP structure errors are located', () => {
  const at = (body: string) => loadError(() => load(body));
  const L = (n: number) => protoLines() + n;

  const col = (line: string, what: string) => line.indexOf(what) + 1;

  test('a Joint without jointType', () => {
    const body = 'DEF H Humanoid { humanoidBody DEF A Joint { } }';
    expect(at(`\n${body}`)).toMatchObject({ line: L(2), column: col(body, 'DEF A'), path: 'Humanoid(H).humanoidBody/Joint(A).jointType' });
  });

  test('an unknown jointType', () => {
    expect(at('\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "hinge" } }').message).toMatch(/jointType "hinge"/);
  });

  test('a Joint under a Transform, a Joint under a Segment', () => {
    const underTransform = at(`
DEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children Transform { translation 1 0 0 children
  DEF B Joint { jointType "fixed" } } } }`);
    expect(underTransform).toMatchObject({ line: L(3), column: 3 }); // the DEF of B
    expect(underTransform.message).toMatch(/inside a Transform/);
    const underSegment = at('\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children Segment { children DEF B Joint { jointType "fixed" } } } }');
    expect(underSegment.message).toMatch(/a Joint node cannot stand here/);
  });

  test('a Humanoid whose body is not exactly one Joint; two Humanoids', () => {
    expect(at('\nDEF H Humanoid { humanoidBody [ DEF A Joint { jointType "free" } DEF B Joint { jointType "free" } ] }').message).toMatch(/exactly one Joint/);
    expect(at('\nDEF H Humanoid { humanoidBody Segment { } }').message).toMatch(/must be a Joint node, not Segment/);
    expect(at('\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "free" } }\nDEF G Humanoid { }')).toMatchObject({ line: L(3), column: 1 }); // the DEF of G
  });

  test('a PROTO field of the wrong type for its OpenHRP meaning', () => {
    const error = loadError(() => loadVrmlModel(writeModel(`#VRML V2.0 utf8
PROTO Joint [ exposedField MFNode children [] exposedField SFInt32 jointType 0 ] { Group { children IS children } }
PROTO Humanoid [ exposedField MFNode humanoidBody [] ] { Group { } }
DEF H Humanoid { humanoidBody DEF A Joint { jointType 3 } }`)));
    expect(error).toMatchObject({ line: 4, column: 55 });
    expect(error.message).toMatch(/'jointType' of Joint must be SFString or MFString, not SFInt32/);
  });

  test('values no consumer can use: zero axis, crossed limits, negative mass, overflowing numbers', () => {
    const joint = (fields: string) => `\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children DEF B Joint { jointType "rotate" ${fields} } } }`;
    const zero = at(joint('jointAxis 0 0 0'));
    expect(zero).toMatchObject({ line: L(2), path: 'Humanoid(H).humanoidBody/Joint(A).children[0]/Joint(B).jointAxis' });
    expect(zero.message).toMatch(/zero vector as jointAxis/);
    expect(at(joint('ulimit [ -1 ] llimit [ 1 ]')).message).toMatch(/ulimit -1 is below llimit 1/);
    expect(at(joint('uvlimit [ 1 ] lvlimit [ 2 ]')).message).toMatch(/uvlimit 1 is below lvlimit 2/);
    expect(at(joint('translation 0 0 1e400')).message).toMatch(/'translation' of Joint has Infinity where a finite number is needed/);
    expect(at(joint('rotation 0 0 1 nan')).message).toMatch(/not a finite number/);
    const mass = at('\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children Segment { mass -1 } } }');
    expect(mass).toMatchObject({ line: L(2), column: '\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children Segment { mass -1'.indexOf('-1') });
    expect(mass.message).toMatch(/mass -1 is negative/);
    // "unlimited" written as inf is a limit, not an error.
    expect(load(joint('ulimit [ inf ] llimit [ -inf ]')).links[1]!.joint).toMatchObject({ lower: -Infinity, upper: Infinity });
  });

  test('momentsOfInertia with fewer than 9 values', () => {
    expect(at('\nDEF H Humanoid { humanoidBody DEF A Joint { jointType "free" children Segment { momentsOfInertia [ 1 1 1 ] } } }').message).toMatch(/needs 9 values/);
  });
});
