// Planning ranges (src/moveit/planning-ranges.ts) on tiny models whose barriers are worked out by hand: an
// arm turning about z at the base with a ball on a post beside it. The arm is a bar of half-width w along
// its x axis, the ball of radius r stands at distance d from the axis, behind the arm at home (angle π).
// The bar touches the ball when the ball's centre is within r of the bar: d·|sin(π − φ)| ≤ r + w, so it
// collides for φ in [φ*, 2π − φ*] with φ* = π − asin((r + w)/d), whatever the wrist at its tip does.
// The FCL check of the corpus's ranges is in test/moveit-peers.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { Link, RobotModel, Shape } from '../src/model/types.js';
import { moveItConfig } from '../src/moveit/config.js';
import { corpusDir } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const D = 0.5;
const R = 0.05;
const W = 0.025;
const ONSET = Math.PI - Math.asin((R + W) / D);
const DEG = Math.PI / 180;
/** The search's fine grid is 1°; a tessellated ball may shift the onset by far less than 0.1°. */
const SLACK = 0.1 * DEG;

const box = (size: [number, number, number], at: [number, number, number] = [0, 0, 0]): Shape => shape({ kind: 'box', size }, affine(at));
const ball = (): Shape => shape({ kind: 'sphere', radius: R });

interface ArmOptions {
  /** Elbow limits (rad); default ±2π. */
  elbow?: [number, number];
  /** The elbow's initial angle (the SRDF's home). */
  home?: number;
  /** The post stands on a slider that can lift the ball clear of the bar (0–0.5 m). */
  slider?: boolean;
}

function armWithPost(options: ArmOptions = {}): RobotModel {
  const [lower, upper] = options.elbow ?? [-2 * Math.PI, 2 * Math.PI];
  const links: Link[] = [
    link('base', null, joint('base', 'fixed'), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
    link('post', 'base', options.slider ? joint('lift', 'prismatic', { axis: [0, 0, 1], lower: 0, upper: 0.5 }) : joint('post_mount', 'fixed'), pose([-D, 0, 0]), { collisions: [ball()] }),
    link('upper', 'base', joint('elbow', 'revolute', { axis: [0, 0, 1], lower, upper, initial: options.home ?? 0 }), pose([0, 0, 0]), { collisions: [box([0.6, 2 * W, 2 * W], [0.35, 0, 0])] }),
    // A wrist turning about the bar's axis, a full turn either way, that cannot reach the post or the base.
    link('wrist', 'upper', joint('wrist', 'revolute', { axis: [1, 0, 0], lower: -2 * Math.PI, upper: 2 * Math.PI }), pose([0.65, 0, 0]), { collisions: [box([0.04, 0.04, 0.04], [0.02, 0, 0])] }),
  ];
  return { name: 'arm', sourceFile: '/arm.body', format: 'body', root: 'base', links, devices: [], extraJoints: [], warnings: [] };
}

const configOf = (m: RobotModel, options = {}) => moveItConfig(applyRosConventions(m), { samples: 1000, ...options });
const file = (c: ReturnType<typeof configOf>, name: string): string => c.files.find((f) => f.name === name)!.text;

describe('planning ranges', () => {
  it('an elbow that folds onto a post plans from home to the first angle it collides at whatever the wrist does, on both sides', () => {
    const c = configOf(armWithPost());
    expect(c.ranges.map((r) => r.joint)).toEqual(['elbow']);
    const [r] = c.ranges;
    expect(r!.model).toEqual([-2 * Math.PI, 2 * Math.PI]);
    expect(r!.upper).toBeGreaterThanOrEqual(ONSET - SLACK);
    expect(r!.upper).toBeLessThanOrEqual(ONSET + DEG + SLACK);
    expect(r!.lower).toBeLessThanOrEqual(-ONSET + SLACK);
    expect(r!.lower).toBeGreaterThanOrEqual(-ONSET - DEG - SLACK);
    expect(r!.upperPairs).toEqual([['upper', 'post']]);
    expect(r!.lowerPairs).toEqual([['upper', 'post']]);
    // The same seed gives the same ranges.
    expect(configOf(armWithPost()).ranges).toEqual(c.ranges);
  });

  it('joint_limits.yaml narrows only that joint, with doubles MoveIt reads as position limits; the README says where and why', () => {
    const c = configOf(armWithPost());
    const [r] = c.ranges;
    const text = file(c, 'joint_limits.yaml');
    const limits = (parse(text) as { joint_limits: Record<string, Record<string, unknown>> }).joint_limits;
    expect(limits.elbow).toMatchObject({ has_position_limits: true, min_position: r!.lower, max_position: r!.upper });
    expect(limits.wrist).not.toHaveProperty('min_position');
    expect(limits.wrist).not.toHaveProperty('max_position');
    expect(text).toMatch(/^ {4}min_position: -\d+\.\d+$/m);
    expect(text).toContain('# min_position, max_position: narrower than the URDF for elbow');
    const readme = file(c, 'README.md');
    expect(readme).toMatch(/- elbow: from -17\d(\.\d)?° \(barrier: upper–post\) to 17\d(\.\d)?° \(barrier: upper–post\); the model allows -360° to 360°/);
  });

  it('a post another joint can lift out of the way is no barrier', () => {
    const c = configOf(armWithPost({ slider: true }));
    expect(c.ranges).toEqual([]);
    expect(file(c, 'README.md')).toContain('The joints whose limits span more than a full turn (elbow, wrist) meet no barrier');
  });

  it('a range of a full turn or less is not searched: a goal beyond its barrier has no copy on the near side', () => {
    expect(configOf(armWithPost({ elbow: [-Math.PI, Math.PI] })).ranges).toEqual([]);
    expect(configOf(armWithPost({ elbow: [-3, 3.2] })).ranges).toEqual([]);
    const noWrist = armWithPost({ elbow: [-3, 3.2] });
    noWrist.links.pop();
    expect(file(configOf(noWrist), 'README.md')).toContain('No joint\'s limits span more than a full turn');
  });

  it('the range is the stretch home lies in: from a home beyond the fold, the far side', () => {
    const c = configOf(armWithPost({ home: 200 * DEG }));
    const [r] = c.ranges;
    // Upwards from 200° the next fold is at 360° + φ*, beyond the limit; downwards the fold ends at 2π − φ*.
    expect(r!.upper).toBe(2 * Math.PI);
    expect(r!.upperPairs).toEqual([]);
    expect(r!.lower).toBeLessThanOrEqual(2 * Math.PI - ONSET + SLACK);
    expect(r!.lower).toBeGreaterThanOrEqual(2 * Math.PI - ONSET - DEG - SLACK);
    expect(file(c, 'README.md')).toMatch(/to 360° \(the model's\)/);
  });

  it('home in the fold itself: no side to keep, the joint is left alone', () => {
    expect(configOf(armWithPost({ home: Math.PI })).ranges).toEqual([]);
  });

  it('barrierSamples 0 searches nothing, and the README says so', () => {
    const c = configOf(armWithPost(), { barrierSamples: 0 });
    expect(c.ranges).toEqual([]);
    expect(file(c, 'joint_limits.yaml')).not.toContain('min_position');
    expect(file(c, 'README.md')).toContain('Not searched (--barrier-samples 0)');
  });
});

describe('body-bridge moveit --barrier-samples', () => {
  const ur10 = join(corpusDir, 'choreonoid/share/model/UniversalRobots/UR10.body');

  const dir = scratchDir('bb-planning-ranges-');

  it('0 writes the model\'s limits; a bad value is a usage error', async () => {
    const out: string[] = [];
    const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void out.push(s), env: {} };
    expect(await runCli(['moveit', ur10, '-o', dir, '--samples', '0', '--barrier-samples', '0'], io)).toBe(0);
    expect(readFileSync(join(dir, 'joint_limits.yaml'), 'utf8')).not.toContain('min_position');
    expect(await runCli(['moveit', ur10, '-o', dir, '--samples', '0'], io)).toBe(0);
    expect(readFileSync(join(dir, 'joint_limits.yaml'), 'utf8')).toMatch(/FOREARM:[^]*?min_position: -2\.9/);
    expect(await runCli(['moveit', ur10, '-o', dir, '--barrier-samples', 'many'], io)).toBe(2);
    expect(out.join('')).toContain('--barrier-samples many: expected a whole number ≥ 0');
  });
});
