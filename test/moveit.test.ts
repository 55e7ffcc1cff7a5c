// The MoveIt configuration on tiny hand-built models whose right answers can be worked out by hand:
// group inference, limb names, the --groups file and its located errors, the collision matrix's
// reasons, the home state, joint limits and the SRDF / YAML spelling MoveIt needs.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { ModelLoadError } from '../src/model/errors.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { Link, RobotModel, Shape } from '../src/model/types.js';
import { adjacentPairs, computeCollisionMatrix, seededRandom } from '../src/moveit/collision-matrix.js';
import { moveItConfig } from '../src/moveit/config.js';
import { readGroupsFile } from '../src/moveit/groups-file.js';
import { inferGroups, limbName } from '../src/moveit/groups.js';
import { chainIk, jointLimitsYaml, kinematicsYaml } from '../src/moveit/limits.js';
import { FIX_START_STATE_BOUNDS_PLUGIN } from '../src/moveit/ompl.js';
import { homePositions } from '../src/moveit/srdf.js';
import { toUrdf } from '../src/urdf/index.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const box = (size: [number, number, number], at: [number, number, number] = [0, 0, 0]): Shape => shape({ kind: 'box', size }, affine(at));
const robot = (links: Link[], name = 'tiny'): RobotModel => ({ name, sourceFile: '/tiny.body', format: 'body', root: links[0]!.name, links, devices: [], extraJoints: [], warnings: [] });
const rev = (name: string, extra = {}) => joint(name, 'revolute', { axis: [0, 0, 1], lower: -1, upper: 1, ...extra });

/** A serial arm of n revolute links along x, each link a box, optionally with two sliding fingers. */
function arm(n: number, fingers: boolean, root: 'fixed' | 'free' = 'fixed'): RobotModel {
  const links: Link[] = [link('base', null, joint('base', root), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] })];
  for (let i = 1; i <= n; i++) {
    links.push(link(`l${i}`, i === 1 ? 'base' : `l${i - 1}`, rev(`j${i}`), pose([0.2, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] }));
  }
  if (fingers) {
    for (const side of ['left', 'right']) {
      links.push(link(`${side}_finger`, `l${n}`, joint(`${side}_slide`, 'prismatic', { axis: [0, 1, 0], lower: 0, upper: 0.02 }), pose([0.1, side === 'left' ? 0.03 : -0.03, 0]), { collisions: [box([0.02, 0.01, 0.02])] }));
    }
  }
  return robot(links);
}

describe('limb names', () => {
  it.each([
    [['RARM_SHOULDER_P', 'RARM_ELBOW'], 'RARM'],
    [['L_SHOULDER_P', 'L_ELBOW_P', 'L_WRIST_Y'], 'LARM'],
    [['R_HIP_Y', 'R_KNEE_P', 'R_ANKLE_R'], 'RLEG'],
    [['LLEG_HIP_R', 'LLEG_KNEE'], 'LLEG'],
    [['NECK_Y', 'HEAD_P'], 'HEAD'],
    [['R_HIP_Y', 'L_KNEE_P'], null], // two sides
    [['shoulder_pan', 'elbow'], null], // no side
    [['J1', 'J2'], null],
    [['R_NECK'], null], // a head has no side
  ] as [string[], string | null][])('%j → %s', (joints, name) => expect(limbName(joints)).toBe(name));
});

describe('inferred groups', () => {
  it.each([
    { model: arm(6, false), groups: ['arm', 'whole_body'], chain: ['base', 'l6'], ee: [] as string[] },
    { model: arm(7, true), groups: ['arm', 'hand', 'whole_body'], chain: ['base', 'l7'], ee: ['hand on l7 (arm)'] },
    // Two short branches after two joints are not a hand: an arm needs three joints to carry one.
    { model: arm(2, true), groups: ['l2', 'left_finger', 'right_finger', 'whole_body'], chain: ['base', 'l2'], ee: [] },
  ])('$groups', ({ model, groups, chain, ee }) => {
    const g = inferGroups(model);
    expect(g.groups.map((x) => x.name)).toEqual(groups);
    expect(g.groups[0]!.chain).toEqual({ base: chain[0], tip: chain[1] });
    expect(g.endEffectors.map((e) => `${e.name} on ${e.parentLink} (${e.parentGroup})`)).toEqual(ee);
    expect(g.groups.find((x) => x.name === 'whole_body')!.joints).toEqual(model.links.slice(1).map((l) => l.joint.name));
  });

  it('a wheel (an unlimited joint whose tyre is what the body stands on) gets no group; the one arm of a vehicle is "arm"', () => {
    const tyre = shape({ kind: 'cylinder', radius: 0.1, height: 0.03, top: true, bottom: true, side: true });
    const wheel = (n: string, y: number) => link(n, 'base', joint(n, 'revolute', { axis: [0, 1, 0] }), pose([0, y, -0.5]), { collisions: [tyre] });
    const vehicle = robot([...arm(4, false, 'free').links, wheel('wheel_l', 0.2), wheel('wheel_r', -0.2)]);
    const g = inferGroups(vehicle);
    expect(g.groups.map((x) => x.name)).toEqual(['arm', 'whole_body']);
    expect(g.groups.find((x) => x.name === 'whole_body')!.joints).not.toContain('wheel_l');
    expect(g.notes.join('\n')).toMatch(/in no group: wheel_l \(drive_wheel\), wheel_r \(drive_wheel\)/);
  });

  it('a humanoid trunk gets Choreonoid limb names, the trunk its end link, a fixed camera link no group', () => {
    const L = (name: string, parent: string, j = rev(name)) => link(name, parent, j, pose([0, 0, 0.1]));
    const model = robot([
      link('WAIST', null, joint('WAIST', 'free'), pose([0, 0, 1])),
      L('CHEST', 'WAIST'),
      L('RARM_SHOULDER', 'CHEST'), L('RARM_ELBOW', 'RARM_SHOULDER'), L('RARM_WRIST', 'RARM_ELBOW'),
      L('LARM_SHOULDER', 'CHEST'), L('LARM_ELBOW', 'LARM_SHOULDER'), L('LARM_WRIST', 'LARM_ELBOW'),
      L('NECK_Y', 'CHEST'), L('camera', 'NECK_Y', joint('camera', 'fixed')),
      L('RLEG_HIP', 'WAIST'), L('RLEG_KNEE', 'RLEG_HIP'),
      L('LLEG_HIP', 'WAIST'), L('LLEG_KNEE', 'LLEG_HIP'),
    ]);
    const ros = applyRosConventions(model);
    const original = new Map([...ros.renamed].map(([a, b]) => [b, a]));
    const g = inferGroups(ros.model, (l) => original.get(l) ?? l);
    expect(g.groups.map((x) => `${x.name}${x.chain ? ` ${x.chain.base}→${x.chain.tip}` : ''}`)).toEqual([
      'CHEST WAIST→CHEST_link', 'RARM CHEST_link→RARM_WRIST_link', 'LARM CHEST_link→LARM_WRIST_link', 'HEAD CHEST_link→NECK_Y_link',
      'RLEG WAIST→RLEG_KNEE_link', 'LLEG WAIST→LLEG_KNEE_link', 'whole_body',
    ]);
    // The SRDF of the free root: a floating virtual joint to world.
    const config = moveItConfig(ros, { samples: 10 });
    expect(config.srdf).toContain('<virtual_joint name="virtual_joint" type="floating" parent_frame="world" child_link="WAIST"/>');
    expect(moveItConfig(ros, { samples: 10, virtualParent: 'odom' }).srdf).toContain('parent_frame="odom"');
  });
});

describe('--groups file', () => {
  const model = applyRosConventions(arm(7, true)).model;
  it('replaces a same-named group, adds others, keeps the rest', () => {
    const file = readGroupsFile('groups:\n  - name: arm\n    chain: {base: l2, tip: l7}\n  - name: wrist\n    joints: [j6, j7]\n', 'g.yaml', model);
    const config = moveItConfig({ model, renamed: new Map(), rootInertiaLink: null }, { samples: 10, groups: { file, name: 'g.yaml' } });
    expect(config.semantic.groups.map((g) => g.name)).toEqual(['hand', 'whole_body', 'arm', 'wrist']);
    expect(config.semantic.groups.find((g) => g.name === 'arm')!.chain).toEqual({ base: 'l2', tip: 'l7' });
  });
  it('replace: true keeps only the file\'s groups; a group reference that resolves nowhere is located', () => {
    const ros = { model, renamed: new Map<string, string>(), rootInertiaLink: null };
    const only = readGroupsFile('replace: true\ngroups:\n  - name: fingers\n    joints: [left_slide, right_slide]\n', 'g.yaml', model);
    const config = moveItConfig(ros, { samples: 10, groups: { file: only, name: 'g.yaml' } });
    expect(config.semantic.groups.map((g) => g.name)).toEqual(['fingers']);
    expect(config.semantic.endEffectors).toEqual([]);
    expect(config.semantic.states.map((s) => s.group)).toEqual(['fingers']);
    const dangling = readGroupsFile('replace: true\ngroups:\n  - name: both\n    subgroups: [arm]\n', 'g.yaml', model);
    expect(() => moveItConfig(ros, { samples: 10, groups: { file: dangling, name: 'g.yaml' } })).toThrow(
      'g.yaml:4:17: error: no group "arm" (neither inferred nor in this file) (at groups[0].subgroups[0])',
    );
  });

  it.each([
    ['groups:\n  - name: arm\n    chain: {base: base, tip: nowhere}\n', 'g.yaml:3:30: error: no link "nowhere" in the URDF (at groups[0].chain.tip)'],
    ['groups:\n  - name: grip\n    joints: [left_slide, thumb]\n', 'g.yaml:3:26: error: no joint "thumb" in the URDF (at groups[0].joints[1])'],
    ['groups:\n  - name: x\n    chain: {base: l5, tip: l2}\n', 'g.yaml:3:28: error: "l5" is not an ancestor of "l2": not a chain (at groups[0].chain)'],
    ['groups:\n  - name: x\n', 'g.yaml:2:5: error: a group needs a chain, joints, links or subgroups (at groups[0])'],
    ['grups: []\n', 'g.yaml:1:1: error: unknown key "grups" (expected replace, groups, end_effectors) (at grups)'],
    ['end_effectors:\n  - {name: e, parent_link: palm, group: hand}\n', 'g.yaml:2:28: error: no link "palm" in the URDF (at end_effectors[0].parent_link)'],
    ['groups: [\n', 'g.yaml:2:1: error:'],
  ])('%j → %s', (text, message) => {
    let error: unknown;
    try {
      readGroupsFile(text, 'g.yaml', model);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toContain(message);
  });
});

describe('collision matrix', () => {
  it('adjacency passes through links without geometry (as the Setup Assistant\'s connection graph)', () => {
    const m = robot([
      link('a', null, joint('a', 'fixed'), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
      link('socket', 'a', rev('s1'), pose([0, 0, 0])),
      link('b', 'socket', rev('s2'), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
      link('c', 'socket', rev('s3'), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
      link('d', 'c', rev('s4'), pose([0, 0, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
    ]);
    const has = new Set(['a', 'b', 'c', 'd']);
    expect([...adjacentPairs(m, (l) => has.has(l))].map((k) => k.replace('\u0000', '|')).sort()).toEqual(['a|b', 'a|c', 'b|c', 'c|d']);
  });

  it('gives each pair the Setup Assistant\'s reason', () => {
    // base —j1→ upper (a long bar that swings about z at the base) and, fixed far away, a post the bar
    // cannot reach; a block that overlaps the base whatever j1 does; a pad touching upper only at home.
    const m = robot([
      link('base', null, joint('base', 'fixed'), pose([0, 0, 0]), { collisions: [box([0.2, 0.2, 0.2])] }),
      link('upper', 'base', rev('j1', { lower: -3, upper: 3 }), pose([0, 0, 0.3]), { collisions: [box([1, 0.05, 0.05], [0.6, 0, 0])] }),
      link('post', 'base', joint('post', 'fixed'), pose([5, 5, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
      link('block', 'post', joint('block', 'fixed'), pose([-5, -5, 0]), { collisions: [box([0.1, 0.1, 0.1])] }),
      link('pad', 'post', joint('pad', 'fixed'), pose([-4, -5, 0.3]), { collisions: [box([0.05, 0.05, 0.05])] }),
    ]);
    const matrix = computeCollisionMatrix(m, { samples: 500, seed: 1 });
    const reasons = Object.fromEntries(matrix.disabled.map((d) => [`${d.link1}|${d.link2}`, d.reason]));
    expect(reasons).toEqual({
      'base|post': 'Adjacent',
      'base|upper': 'Adjacent',
      'block|post': 'Adjacent',
      'pad|post': 'Adjacent',
      'base|block': 'Default', // overlaps at home, so the "always" test never sees it
      'pad|upper': 'Default', // the bar's tip rests on the pad at q = 0
      'block|pad': 'Never',
      'block|upper': 'Never',
      'post|upper': 'Never',
      'base|pad': 'Never',
    });
    expect(matrix.enabled).toEqual([]);
  });

  it('with no samples there is no "never" test', () => {
    const matrix = computeCollisionMatrix(arm(7, true), { samples: 0 });
    expect(matrix.disabled.filter((d) => d.reason === 'Never')).toEqual([]);
    expect(matrix.enabled.length).toBeGreaterThan(0);
  });

  it('is the same for the same seed', () => {
    const a = computeCollisionMatrix(arm(7, true), { samples: 300, seed: 9 });
    const b = computeCollisionMatrix(arm(7, true), { samples: 300, seed: 9 });
    expect(a.disabled).toEqual(b.disabled);
    const r = seededRandom(5);
    const draws = Array.from({ length: 1000 }, r);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(new Set(draws).size).toBe(1000);
  });
});

describe('limits and home', () => {
  const m = robot([
    link('base', null, joint('base', 'fixed'), pose([0, 0, 0])),
    link('a', 'base', rev('ja', { initial: 2, velocityLower: -1.5, velocityUpper: 1.5 }), pose([0, 0, 0])),
    link('b', 'a', joint('jb', 'revolute', { axis: [0, 0, 1], initial: -7 }), pose([0, 0, 0])),
    link('c', 'b', joint('jc', 'prismatic', { axis: [0, 0, 1], lower: 0, upper: 0.1, initial: -1 }), pose([0, 0, 0])),
  ]);
  it('home clamps initial positions into the limits; an unlimited joint keeps its own', () => {
    expect(homePositions(m)).toEqual([['ja', 1], ['jb', -7], ['jc', 0]]);
  });
  it('joint_limits.yaml: model velocities, π rad/s and 1 m/s for unlimited joints, typed as doubles', () => {
    const text = jointLimitsYaml(m, { acceleration: 2 });
    const y = parse(text) as { joint_limits: Record<string, { max_velocity: number; max_acceleration: number; has_acceleration_limits: boolean }> };
    expect(y.joint_limits.ja!.max_velocity).toBe(1.5);
    expect(y.joint_limits.jb!.max_velocity).toBe(Math.PI);
    expect(y.joint_limits.jc!.max_velocity).toBe(1);
    expect(y.joint_limits.jc!.has_acceleration_limits).toBe(true);
    expect(text).toContain('max_velocity: 1.0\n');
    expect(text).toContain('max_acceleration: 2.0\n');
    expect(text).not.toMatch(/: \d+\n/); // an integer where ROS 2 declares a double is a type error
  });
  it('joint_limits.yaml without --acceleration: every joint has an acceleration limit, velocity / 0.5 s, so MoveIt does not fall back to 1 rad/s²', () => {
    const y = parse(jointLimitsYaml(m)) as { joint_limits: Record<string, { max_velocity: number; max_acceleration: number; has_acceleration_limits: boolean }> };
    expect(Object.values(y.joint_limits).every((l) => l.has_acceleration_limits)).toBe(true);
    expect(y.joint_limits.ja!.max_acceleration).toBe(3);
    expect(y.joint_limits.jb!.max_acceleration).toBe(2 * Math.PI);
    expect(y.joint_limits.jc!.max_acceleration).toBe(2);
  });
  it('the URDF writes the same defaults instead of 1e6', () => {
    const xml = toUrdf(m, { meshDir: '/tmp/unused' }).xml;
    expect(xml).toContain('velocity="1.5"');
    expect(xml).toContain(`velocity="${Math.PI}"`);
    expect(xml).toMatch(/<joint name="jc" type="prismatic">[\s\S]*?velocity="1"/);
    expect(xml).not.toContain('velocity="1000000"');
  });
});

describe('kinematics.yaml: what each chain\'s IK solves', () => {
  // Each link's frame turned by C relative to its parent: a joint about local z turns about world x, y, z in turn.
  const C: [[number, number, number], [number, number, number], [number, number, number]] = [[0, 0, 1], [1, 0, 0], [0, 1, 0]];
  /** A chain from base: joints about local z, each link placed by (translation, rotation) in its parent. */
  const chain = (places: [[number, number, number], typeof C?][], extra: Link[] = []): RobotModel =>
    robot([
      link('base', null, joint('base', 'fixed'), pose([0, 0, 0])),
      ...places.map(([t, r], i) => link(`l${i + 1}`, i === 0 ? 'base' : `l${i}`, rev(`j${i + 1}`), pose(t, r))),
      ...extra,
    ]);
  const tipOf = (m: RobotModel) => ({ base: 'base', tip: m.links.at(-1)!.name });

  it('six or more joints: the full pose; fewer: the position (position_only_ik), KDL\'s full-pose IK being unable to meet a pose sampled off the few dimensions the chain reaches', () => {
    expect(chainIk(arm(6, false), { base: 'base', tip: 'l6' })).toBe('pose');
    expect(chainIk(arm(7, false), { base: 'base', tip: 'l7' })).toBe('pose');
    expect(chainIk(arm(5, false), { base: 'base', tip: 'l5' })).toBe('position');
    expect(chainIk(arm(3, false), { base: 'base', tip: 'l3' })).toBe('position');
    const m = arm(3, false);
    const y = parse(kinematicsYaml(inferGroups(m).groups, m)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(y)).toEqual(['arm']);
    expect(y.arm).toEqual({ kinematics_solver: 'kdl_kinematics_plugin/KDLKinematicsPlugin', kinematics_solver_search_resolution: 0.005, kinematics_solver_timeout: 0.005, position_only_ik: true });
    const six = arm(6, false);
    expect(parse(kinematicsYaml(inferGroups(six).groups, six)).arm).not.toHaveProperty('position_only_ik');
  });

  it('three joints whose axes meet at the tip\'s origin (a neck, a waist): the orientation, with full-pose IK', () => {
    const neck = chain([[[0, 0, 0.4], C], [[0, 0, 0], C], [[0, 0, 0], C]]);
    expect(chainIk(neck, tipOf(neck))).toBe('orientation');
    const y = parse(kinematicsYaml([{ name: 'HEAD', chain: tipOf(neck), joints: [], links: [], subgroups: [] }], neck)) as Record<string, Record<string, unknown>>;
    expect(y.HEAD).not.toHaveProperty('position_only_ik');
    expect(kinematicsYaml([{ name: 'HEAD', chain: tipOf(neck), joints: [], links: [], subgroups: [] }], neck)).toContain('# Orientation (fewer joints that turn the tip about three axes through its origin; full-pose IK): HEAD.');
  });

  it('the axes are taken in the world: three parallel ones do not make a neck; a tip off the meeting point moves, so it is a position chain', () => {
    const parallel = chain([[[0, 0, 0.4]], [[0, 0, 0]], [[0, 0, 0]]]);
    expect(chainIk(parallel, tipOf(parallel))).toBe('position');
    // SR1's trunk: pitch and roll at the waist, the yaw 0.35 m above it, the tip at the yaw joint.
    const trunk = chain([[[0, 0, 0.2], C], [[0, 0, 0], C], [[0, 0, 0.35], C]]);
    expect(chainIk(trunk, tipOf(trunk))).toBe('position');
    // A fixed camera link 5 cm from where a neck's axes meet is the tip: it moves.
    const camera = link('camera', 'l3', joint('camera', 'fixed'), pose([0.05, 0, 0]));
    const eyes = chain([[[0, 0, 0.4], C], [[0, 0, 0], C], [[0, 0, 0], C]], [camera]);
    expect(chainIk(eyes, { base: 'base', tip: 'l3' })).toBe('orientation');
    expect(chainIk(eyes, { base: 'base', tip: 'camera' })).toBe('position');
  });

  it('one or two joints that cannot move the tip\'s origin, or a prismatic joint: position-only IK', () => {
    const one = chain([[[0, 0, 0.4]]]);
    expect(chainIk(one, tipOf(one))).toBe('position');
    const two = chain([[[0, 0, 0.4], C], [[0, 0, 0], C]]);
    expect(chainIk(two, tipOf(two))).toBe('position');
    const slider = robot([
      link('base', null, joint('base', 'fixed'), pose([0, 0, 0])),
      link('l1', 'base', rev('j1'), pose([0, 0, 0])),
      link('l2', 'l1', joint('j2', 'prismatic', { axis: [0, 0, 1], lower: 0, upper: 0.1 }), pose([0, 0, 0])),
      link('l3', 'l2', joint('j3', 'revolute', { axis: [1, 0, 0], lower: -1, upper: 1 }), pose([0, 0, 0])),
    ]);
    expect(chainIk(slider, { base: 'base', tip: 'l3' })).toBe('position');
  });

  it('a humanoid\'s configuration: legs and arms of six or more joints solve poses, the head\'s three meeting axes the orientation, a one-joint trunk the position', () => {
    const L = (name: string, parent: string, t: [number, number, number], r?: typeof C) => link(name, parent, rev(name), pose(t, r));
    const links: Link[] = [link('WAIST', null, joint('WAIST', 'free'), pose([0, 0, 0.8]))];
    links.push(L('CHEST', 'WAIST', [0, 0, 0.2]));
    for (const side of ['R', 'L']) {
      const y = side === 'R' ? -0.1 : 0.1;
      ['HIP_Y', 'HIP_R', 'HIP_P', 'KNEE_P', 'ANKLE_P', 'ANKLE_R'].forEach((j, i, all) => links.push(L(`${side}_${j}`, i === 0 ? 'WAIST' : `${side}_${all[i - 1]}`, i === 0 ? [0, y, 0] : [0, 0, -0.15], C)));
      ['SHOULDER_P', 'SHOULDER_R', 'SHOULDER_Y', 'ELBOW_P', 'WRIST_Y', 'WRIST_R'].forEach((j, i, all) => links.push(L(`${side}_${j}`, i === 0 ? 'CHEST' : `${side}_${all[i - 1]}`, i === 0 ? [0, y * 2, 0.2] : [0, 0, -0.1], C)));
    }
    ['NECK_Y', 'NECK_R', 'NECK_P'].forEach((j, i, all) => links.push(L(j, i === 0 ? 'CHEST' : all[i - 1]!, i === 0 ? [0, 0, 0.3] : [0, 0, 0], C)));
    const ros = applyRosConventions(robot(links, 'humanoid'));
    const config = moveItConfig(ros, { samples: 0 });
    const y = parse(config.files.find((f) => f.name === 'kinematics.yaml')!.text) as Record<string, { position_only_ik?: boolean }>;
    expect(Object.fromEntries(Object.entries(y).map(([g, v]) => [g, v.position_only_ik ?? false]))).toEqual({
      CHEST: true, RLEG: false, LLEG: false, RARM: false, LARM: false, HEAD: false,
    });
    expect(config.files.find((f) => f.name === 'README.md')!.text).toContain('position only for chains of fewer than six joints');
  });
});

describe('body-bridge moveit', () => {
  const out = scratchDir('bb-moveit-cli-');
  const run = async (...argv: string[]) => {
    let stdout = '', stderr = '';
    const status = await runCli(['moveit', ...argv], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} });
    return { status, stdout, stderr };
  };
  const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');

  it('writes the six files, and names links as the URDF does', async () => {
    const dir = join(out, 'pa10');
    const r = await run(pa10, '-o', dir, '--samples', '200');
    expect(r.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['PA10.srdf', 'README.md', 'joint_limits.yaml', 'kinematics.yaml', 'moveit_controllers.yaml', 'ompl_planning.yaml']);
    expect(readFileSync(join(dir, 'PA10.srdf'), 'utf8')).toContain('<chain base_link="BASE" tip_link="J7_link"/>');
    expect(r.stderr).toMatch(/collision matrix in \d+\.\d\d s \(200 samples/);
    const k = parse(readFileSync(join(dir, 'kinematics.yaml'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(k)).toEqual(['arm']);
    const c = parse(readFileSync(join(dir, 'moveit_controllers.yaml'), 'utf8')) as { moveit_simple_controller_manager: Record<string, { joints?: string[] }> };
    expect(c.moveit_simple_controller_manager.hand_controller!.joints).toEqual(['HAND_L', 'HAND_R']);
  });

  it.each([
    ['humble', ['planning_plugin', 'request_adapters', 'start_state_max_bounds_error']],
    ['jazzy', ['planning_plugins', 'request_adapters', 'response_adapters']],
  ])('ompl_planning.yaml for %s: the pipeline keys of that MoveIt, and every SRDF group with planners whose projection uses its own joints', async (distro, keys) => {
    const dir = join(out, `pa10-${distro}`);
    const r = await run(pa10, '-o', dir, '--samples', '0', '--ros-distro', distro);
    expect(r.status, r.stderr).toBe(0);
    const y = parse(readFileSync(join(dir, 'ompl_planning.yaml'), 'utf8')) as Record<string, unknown>;
    for (const k of keys) expect(y, k).toHaveProperty(k);
    const srdf = readFileSync(join(dir, 'PA10.srdf'), 'utf8');
    const groups = [...srdf.matchAll(/<group name="([^"]+)"/g)].map((m) => m[1]!);
    expect(groups.length).toBeGreaterThan(1);
    const planners = y.planner_configs as Record<string, { type: string }>;
    for (const g of groups) {
      const cfg = y[g] as { default_planner_config: string; planner_configs: string[]; projection_evaluator?: string };
      expect(cfg, g).toBeDefined();
      expect(cfg.planner_configs).toContain(cfg.default_planner_config);
      for (const p of cfg.planner_configs) expect(planners[p]!.type).toMatch(/^geometric::/);
      const projected = /^joints\(([^,]+),([^)]+)\)$/.exec(cfg.projection_evaluator ?? '');
      if (projected) for (const j of projected.slice(1)) expect(srdf).toContain(`<joint name="${j}"`);
    }
    const bad = await run(pa10, '-o', dir, '--ros-distro', 'rolling');
    expect(bad.status).toBe(2);
  });

  it.each([
    ['humble', [], 'default_planner_request_adapters/FixStartStateBounds', 0.1],
    ['humble', ['--fix-start-state-bounds'], 'default_planner_request_adapters/FixStartStateBounds', 0.1],
    ['jazzy', [], 'default_planning_request_adapters/CheckStartStateBounds', undefined],
    ['jazzy', ['--fix-start-state-bounds'], 'body_bridge/FixStartStateBounds', 0.1],
  ])('%s %j: the start state goes through %s (start_state_max_bounds_error %s)', async (distro, flag, adapter, tolerance) => {
    const dir = join(out, `pa10-start-${distro}-${flag.length}`);
    const r = await run(pa10, '-o', dir, '--samples', '0', '--ros-distro', distro, ...flag);
    expect(r.status, r.stderr).toBe(0);
    const y = parse(readFileSync(join(dir, 'ompl_planning.yaml'), 'utf8')) as { request_adapters: string | string[]; start_state_max_bounds_error?: number };
    const adapters = typeof y.request_adapters === 'string' ? y.request_adapters.split(' ') : y.request_adapters;
    expect(adapters.filter((a) => /StartStateBounds$/.test(a))).toEqual([adapter]);
    // The bounds check stays where MoveIt's default configuration has it: after the workspace, before collision.
    expect(adapters.indexOf(adapter)).toBe(adapters.findIndex((a) => /StartStateCollision$/.test(a)) - 1);
    expect(y.start_state_max_bounds_error).toBe(tolerance);
  });

  it('the plugin the launch names is the one the package builds and exports to pluginlib', () => {
    const plugins = readFileSync(join(projectRoot, 'planning_adapter', 'plugins.xml'), 'utf8');
    const cmake = readFileSync(join(projectRoot, 'CMakeLists.txt'), 'utf8');
    const source = readFileSync(join(projectRoot, 'planning_adapter', 'fix_start_state_bounds.cpp'), 'utf8');
    const library = /<library path="([^"]+)">/.exec(plugins)![1]!;
    expect(cmake).toContain(`add_library(${library} SHARED planning_adapter/fix_start_state_bounds.cpp)`);
    expect(cmake).toContain('pluginlib_export_plugin_description_file(moveit_core planning_adapter/plugins.xml)');
    expect(plugins).toContain(`<class name="${FIX_START_STATE_BOUNDS_PLUGIN}" type="body_bridge::FixStartStateBounds" base_class_type="planning_interface::PlanningRequestAdapter">`);
    expect(source).toContain('CLASS_LOADER_REGISTER_CLASS(body_bridge::FixStartStateBounds, planning_interface::PlanningRequestAdapter)');
    expect(source).toContain(`return "${FIX_START_STATE_BOUNDS_PLUGIN}";`);
  });

  it('a robot name that is not a file name is made one; the SRDF keeps the name', () => {
    const config = moveItConfig(applyRosConventions(robot(arm(3, false).links, '../up/and away')), { samples: 10 });
    expect(config.files[0]!.name).toBe('__up_and_away.srdf');
    expect(config.srdf).toContain('<robot name="../up/and away">');
  });

  it.each([
    [['--samples', 'many'], 2, '--samples many'],
    [['--seed=-1'], 2, '--seed -1'],
    [['--acceleration', '0'], 2, '--acceleration 0'],
    [[], 2, '-o DIR is required'],
  ])('%j → %i', async (args, status, message) => {
    const r = await run(pa10, ...(args.includes('-o') || message.includes('-o DIR') ? args : [...args, '-o', join(out, 'x')]));
    expect(r.status).toBe(status);
    expect(r.stderr).toContain(message);
  });

  it('a groups file naming a missing link is a located error and nothing is written', async () => {
    const groups = join(out, 'bad.yaml');
    writeFileSync(groups, 'groups:\n  - name: arm\n    chain: {base: BASE, tip: J7}\n');
    const dir = join(out, 'bad');
    const r = await run(pa10, '-o', dir, '--groups', groups, '--samples', '10');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${groups}:3:30: error: no link "J7" in the URDF (at groups[0].chain.tip)`);
    expect(r.stderr.split('\n').filter((l) => l.includes('error')).length).toBe(1);
    expect(() => readdirSync(dir)).toThrow();
  });
});
