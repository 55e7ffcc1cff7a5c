// How finely OMPL checks motions (src/moveit/motion-check.ts): on a tiny arm worked out by hand, and on corpus
// robots against the claim itself — between two states one "longest valid segment" apart in MoveIt's joint-space
// distance, no vertex of the collision geometry moves more than STEP, measured by forward kinematics.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { linkWorldPoses } from '../src/kinematics/forward.js';
import { isMovingJoint } from '../src/kinematics/frames.js';
import { loadRobotModel } from '../src/load.js';
import { mulVec } from '../src/model/math.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { Link, Pose, RobotModel, Shape, Vec3 } from '../src/model/types.js';
import { type LinkGeometry, linkGeometries } from '../src/urdf/collision-geometry.js';
import { samplingRange, seededRandom } from '../src/moveit/collision-matrix.js';
import { moveItConfig } from '../src/moveit/config.js';
import { chainPath } from '../src/moveit/srdf.js';
import { MOVEIT_FRACTION, STEP, leverArm, linkRadii, maximumExtent, segmentFraction } from '../src/moveit/motion-check.js';
import { corpusDir } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const box = (size: Vec3, at: Vec3 = [0, 0, 0]): Shape => shape({ kind: 'box', size }, affine(at));

/** base —j1 (z, ±1 rad)→ upper (0.5 m bar) —j2 (z, continuous) at 0.5 m→ fore (a 0.3 × 0.1 × 0.1 box from its origin), and a slider. */
function arm(scale = 1): RobotModel {
  const links: Link[] = [
    link('base', null, joint('base', 'fixed'), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1].map((x) => x * scale) as Vec3)] }),
    link('upper', 'base', joint('j1', 'revolute', { axis: [0, 0, 1], lower: -1, upper: 1 }), pose([0, 0, 0]), { collisions: [box([0.5 * scale, 0.05 * scale, 0.05 * scale], [0.25 * scale, 0, 0])] }),
    link('fore', 'upper', joint('j2', 'revolute', { axis: [0, 0, 1] }), pose([0.5 * scale, 0, 0]), { collisions: [box([0.3 * scale, 0.1 * scale, 0.1 * scale], [0.15 * scale, 0, 0])] }),
    link('slide', 'base', joint('s', 'prismatic', { axis: [1, 0, 0], lower: 0, upper: 0.2 }), pose([0, 0.5, 0])),
  ];
  return { name: 'arm', sourceFile: '/arm.body', format: 'body', root: 'base', links, devices: [], extraJoints: [], warnings: [] };
}

describe('longest_valid_segment_fraction', () => {
  // The fore box's farthest corner from its origin: (0.3, 0.05, 0.05).
  const foreRadius = Math.hypot(0.3, 0.05, 0.05);

  it('extent: the ranges summed, a continuous joint 2π; lever arm: link lengths down the chain plus the farthest vertex', () => {
    const m = arm();
    const radii = linkRadii(linkGeometries(m.links));
    expect(radii.get('fore')).toBeCloseTo(foreRadius, 12);
    expect(radii.get('slide')).toBe(0);
    expect(maximumExtent(m, ['j1', 'j2'])).toBeCloseTo(2 + 2 * Math.PI, 12);
    expect(maximumExtent(m, ['s'])).toBeCloseTo(0.2, 12);
    expect(leverArm(m, ['j1', 'j2'], radii)).toBeCloseTo(0.5 + foreRadius, 12);
    expect(leverArm(m, ['j2'], radii)).toBeCloseTo(foreRadius, 12);
    expect(leverArm(m, ['s'], radii)).toBe(1);
  });

  it('the fraction: STEP over lever arm × extent, two digits rounded down, never coarser than MoveIt\'s 0.005', () => {
    const m = arm();
    const radii = linkRadii(linkGeometries(m.links));
    const exact = STEP / ((0.5 + foreRadius) * (2 + 2 * Math.PI));
    const f = segmentFraction(m, ['j1', 'j2'], radii);
    expect(f).toBeLessThanOrEqual(exact);
    expect(f).toBeGreaterThan(exact * 0.9);
    expect(String(f).replace(/^0\.0*/, '')).toMatch(/^\d{1,2}$/);
    // A robot a hundredth the size: 0.005 already moves its points less than STEP.
    const tiny = arm(0.01);
    expect(segmentFraction(tiny, ['j1', 'j2'], linkRadii(linkGeometries(tiny.links)))).toBe(MOVEIT_FRACTION);
  });

  it('ompl_planning.yaml gives each group its own', () => {
    const c = moveItConfig(applyRosConventions(arm()), { samples: 0, barrierSamples: 0 });
    const ompl = parse(c.files.find((f) => f.name === 'ompl_planning.yaml')!.text) as Record<string, { longest_valid_segment_fraction?: number }>;
    const groups = Object.entries(ompl).filter(([, v]) => v && typeof v === 'object' && 'longest_valid_segment_fraction' in v);
    expect(groups.length).toBeGreaterThan(0);
    for (const [, v] of groups) expect(v.longest_valid_segment_fraction).toBeLessThanOrEqual(MOVEIT_FRACTION);
  });
});

/** Every collision vertex of the model in the world at q. */
function vertices(model: RobotModel, geometries: readonly LinkGeometry[], q: Map<string, number>): Vec3[] {
  const poses = linkWorldPoses(model, q);
  const out: Vec3[] = [];
  for (const g of geometries) {
    const lp = poses.get(g.link) as Pose;
    for (const s of g.shapes) {
      const p = s.mesh.positions;
      for (let i = 0; i < p.length; i += 3) {
        const inLink = mulVec(s.pose.rotation, [p[i]!, p[i + 1]!, p[i + 2]!]);
        const local: Vec3 = [inLink[0] + s.pose.translation[0], inLink[1] + s.pose.translation[1], inLink[2] + s.pose.translation[2]];
        const w = mulVec(lp.rotation, local);
        out.push([w[0] + lp.translation[0], w[1] + lp.translation[1], w[2] + lp.translation[2]]);
      }
    }
  }
  return out;
}

describe.each([
  'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl',
  'choreonoid/share/model/UniversalRobots/UR10.body',
  'choreonoid/share/model/PA10/PA10.body',
])('%s: one segment of motion moves no vertex more than STEP', (file) => {
  it('over 40 random states and directions per group, by forward kinematics', () => {
    const model = applyRosConventions(loadRobotModel(join(corpusDir, file))).model;
    const geometries = linkGeometries(model.links);
    const radii = linkRadii(geometries);
    const moving = model.links.filter(isMovingJoint);
    const c = moveItConfig({ model, renamed: new Map() }, { samples: 0, barrierSamples: 0 });
    const random = seededRandom(77);
    let worst = 0;
    for (const g of c.semantic.groups.filter((x) => x.chain)) {
      const onChain = new Set(chainPath(model, g.chain!).links.map((l) => l.name));
      const joints = moving.filter((l) => onChain.has(l.name)).map((l) => l.joint.name);
      const f = segmentFraction(model, joints, radii);
      const segment = f * maximumExtent(model, joints);
      for (let t = 0; t < 40; t++) {
        const q = new Map(moving.map((l) => [l.joint.name, 0]));
        for (const l of moving) if (joints.includes(l.joint.name)) q.set(l.joint.name, samplingRange(l)[0] + (samplingRange(l)[1] - samplingRange(l)[0]) * random());
        // A direction with MoveIt's distance (the sum of the joints' changes) equal to one segment.
        const d = joints.map(() => random() * 2 - 1);
        const sum = d.reduce((a, x) => a + Math.abs(x), 0);
        const q2 = new Map(q);
        joints.forEach((j, i) => q2.set(j, q.get(j)! + (d[i]! / sum) * segment));
        const a = vertices(model, geometries, q);
        const b = vertices(model, geometries, q2);
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.hypot(a[i]![0] - b[i]![0], a[i]![1] - b[i]![1], a[i]![2] - b[i]![2]));
      }
    }
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(STEP);
  });
});

describe('body-bridge moveit --motion-step', () => {
  const dir = scratchDir('bb-motion-step-');
  const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
  const fractions = (): number[] => {
    const ompl = parse(readFileSync(join(dir, 'ompl_planning.yaml'), 'utf8')) as Record<string, { longest_valid_segment_fraction?: number }>;
    return Object.values(ompl).flatMap((v) => (v && typeof v === 'object' && v.longest_valid_segment_fraction !== undefined ? [v.longest_valid_segment_fraction] : []));
  };

  it('a larger step gives a coarser fraction, 0 MoveIt\'s 0.005 for every group; a bad value is a usage error', async () => {
    let err = '';
    const io = { stdout: () => undefined, stderr: (s: string) => void (err += s), env: {} };
    expect(await runCli(['moveit', pa10, '-o', dir, '--samples', '0', '--barrier-samples', '0'], io)).toBe(0);
    const fine = fractions();
    expect(readFileSync(join(dir, 'ompl_planning.yaml'), 'utf8')).toContain(`no point of the robot moves more than ${STEP} m`);
    expect(await runCli(['moveit', pa10, '-o', dir, '--samples', '0', '--barrier-samples', '0', '--motion-step', String(STEP * 4)], io)).toBe(0);
    const coarse = fractions();
    // The arm's fraction scales with the step (within the two-digit rounding); the hand's stays capped at 0.005.
    expect(coarse[0]! / fine[0]!).toBeGreaterThan(3.5);
    expect(coarse[0]! / fine[0]!).toBeLessThan(4.5);
    expect(await runCli(['moveit', pa10, '-o', dir, '--samples', '0', '--barrier-samples', '0', '--motion-step', '0'], io)).toBe(0);
    expect(new Set(fractions())).toEqual(new Set([MOVEIT_FRACTION]));
    expect(await runCli(['moveit', pa10, '-o', dir, '--motion-step=-1'], io)).toBe(2);
    expect(err).toContain('--motion-step -1: expected a length in metres ≥ 0');
  });
});
