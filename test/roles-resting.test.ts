// How a free body comes to rest (src/roles/resting.ts): tipped over the edge of what it stands on until its centre
// of mass is over it. The expected attitudes are worked out by hand from each model's geometry, and for the corpus
// from what the model file itself says (a box modelled turned 0.2 rad rests flat) and what Choreonoid did with it
// (the corpus sweep's probe: Spreader.body came to rest turned 17°).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlConfig } from '../src/control/config.js';
import { loadRobotModel } from '../src/load.js';
import { planningGroups } from '../src/moveit/config.js';
import { axisAngle } from '../src/model/math.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { Link, Mat3, RobotModel } from '../src/model/types.js';
import { restingAttitude } from '../src/roles/resting.js';
import { corpusDir } from './support/oracle.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const diag = (x: number, y: number, z: number): Mat3 => [[x, 0, 0], [0, y, 0], [0, 0, z]];
const robot = (links: Link[]): RobotModel => ({ name: 'tiny', sourceFile: '/tiny.body', format: 'body', root: links[0]!.name, links, devices: [], extraJoints: [], warnings: [] });
const degrees = (rad: number): number => (rad * 180) / Math.PI;

describe('a body whose centre of mass lies beyond what it stands on tips over its edge until it stands', () => {
  // A 0.1 m cube on the floor (x −0.05…0.05), its 2 kg centre of mass 0.2 m ahead at 0.05 m up, and a bar ahead of
  // it (x 0.25…0.35, z 0.10…0.12) that meets the floor first as the body tips forward about the cube's front edge
  // (x = 0.05, z = 0): the bar's far lower edge, 0.3 m ahead of the pivot and 0.1 m up, at atan(0.1 / 0.3).
  const cube = shape({ kind: 'box', size: [0.1, 0.1, 0.1] }, affine([0, 0, 0.05]));
  const bar = shape({ kind: 'box', size: [0.1, 0.1, 0.02] }, affine([0.3, 0, 0.11]));
  const body = (centre: [number, number, number], shapes = [cube, bar]): RobotModel =>
    robot([link('body', null, joint('body', 'free'), pose([0, 0, 0]), { mass: 2, centerOfMass: centre, inertia: diag(0.01, 0.01, 0.01), collisions: shapes })]);

  it('forward about y by atan(0.1 / 0.3) = 18.43°, one step, and resting', () => {
    const r = restingAttitude(body([0.2, 0, 0.05]))!;
    expect(r.rests).toBe(true);
    expect(r.steps).toHaveLength(1);
    expect(r.angle).toBeCloseTo(Math.atan2(0.1, 0.3), 9);
    const expected = axisAngle([0, 1, 0], Math.atan2(0.1, 0.3));
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) expect(r.rotation[i]![k]).toBeCloseTo(expected[i]![k]!, 9);
  });

  it('stands as modelled where the centre of mass is over the cube; a fixed root, or no geometry, has no resting attitude', () => {
    expect(restingAttitude(body([0.04, 0.04, 0.05]))!.angle).toBe(0);
    expect(restingAttitude(body([0.2, 0, 0.05], []))).toBeNull();
    const fixed = robot([link('body', null, joint('body', 'fixed'), pose([0, 0, 0]), { mass: 2, centerOfMass: [0.2, 0, 0.05], inertia: diag(0.01, 0.01, 0.01), collisions: [cube] })]);
    expect(restingAttitude(fixed)).toBeNull();
  });

  it('without the bar nothing stops it: it rolls on, said so', () => {
    const r = restingAttitude(body([0.2, 0, 0.05], [cube]))!;
    expect(r.rests).toBe(false);
  });
});

describe('the corpus', () => {
  it.each([
    // box2.wrl's WAIST is modelled turned 0.2 rad about y (rotation 0 1 0 0.2) and stands on one edge: it falls flat.
    { model: 'openhrp3/sample/model/box2.wrl', degrees: degrees(0.2), tolerance: 1e-6 },
    // Spreader.body: Choreonoid rested it turned 17° (the corpus sweep's probe, 30 Nov 2026), its centre of mass
    // 0.22 m ahead of its stand, the wedges' tips then on the floor.
    { model: 'choreonoid/sample/WRS2018/model/Spreader.body', degrees: 17, tolerance: 0.5 },
  ])('$model rests turned $degrees°', ({ model, degrees: d, tolerance }) => {
    const r = restingAttitude(loadRobotModel(join(corpusDir, model)))!;
    expect(r.rests).toBe(true);
    expect(Math.abs(degrees(r.angle) - d)).toBeLessThan(tolerance);
  });

  it('SR1 and UR10 stand as modelled (a humanoid on its soles; a fixed arm has no resting attitude)', () => {
    expect(restingAttitude(loadRobotModel(join(corpusDir, 'choreonoid/share/model/SR1/SR1.body')))!.angle).toBe(0);
    expect(restingAttitude(loadRobotModel(join(corpusDir, 'choreonoid/share/model/UniversalRobots/UR10.body')))).toBeNull();
  });

  it("Spreader's wedges, whose axes are vertical as modelled, are designed for the gravity load tipped 17°: m·g·sin 17°·0.024 m at least", () => {
    const ros = applyRosConventions(loadRobotModel(join(corpusDir, 'choreonoid/sample/WRS2018/model/Spreader.body')));
    const config = controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros).groups });
    for (const j of ['FLANGE_WEDGE_L', 'FLANGE_WEDGE_R']) {
      const g = config.gains.joints.find((x) => x.joint === j)!;
      // Each wedge is 1 kg with its centre of mass 0.024 m off its axis (the sweep's reason for Spreader.body).
      expect(g.load.gravity).toBeGreaterThan(1 * 9.80665 * Math.sin((17 * Math.PI) / 180) * 0.024);
      expect(g.sag).toBeCloseTo(0.001, 9);
    }
    expect(config.files.find((f) => f.name === 'README.md')!.text).toMatch(/rests tipped 16\.9°/);
  });
});
