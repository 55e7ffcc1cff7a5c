// Joint roles (src/roles): on our own models, one per case, whose roles are known by construction; on every
// articulated corpus model, and every model of the installed Choreonoid's share that the corpus lacks, against what
// a person calls its joints (test/support/role-expectations.ts); the roles file's located errors; and the COLLADA
// reader the wheel radius uses, against assimp's importer.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlConfig } from '../src/control/config.js';
import { loadRobotModel } from '../src/load.js';
import { ModelLoadError } from '../src/model/errors.js';
import type { RobotModel } from '../src/model/types.js';
import { isMovingJoint } from '../src/kinematics/frames.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { planningGroups } from '../src/moveit/config.js';
import { inferRoles } from '../src/roles/roles.js';
import { applyRoles, readRolesFile } from '../src/roles/roles-file.js';
import { readDae } from '../src/urdf/dae.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { CORPUS_ROLES, type RoleExpectation, SHARE_ROLES } from './support/role-expectations.js';
import { findChoreonoidShare } from './support/peers.js';
import { assimpInfo, assimpPeer } from './support/urdf-peers.js';

const own = (name: string): string => join(projectRoot, 'test/models/roles', name);
const byRole = (file: string): Record<string, string> => {
  const out: Record<string, string[]> = {};
  for (const j of inferRoles(loadRobotModel(file)).joints) (out[j.role] ??= []).push(j.joint);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.join(' ')]));
};

describe('our own models: the roles they were built with', () => {
  it('a pan-tilt head with a LiDAR and a camera on a two-wheeled base (no joint limits anywhere): head and drive wheels', () => {
    const roles = inferRoles(loadRobotModel(own('pantilt-rover.body')));
    expect(roles.joints.map((j) => [j.joint, j.role, j.actuated])).toEqual([
      ['LeftWheel', 'drive_wheel', true],
      ['RightWheel', 'drive_wheel', true],
      ['PanJoint', 'head', true],
      ['TiltJoint', 'head', true],
    ]);
    expect(roles.joints[2]!.reason).toBe('a short chain (2 joints) carrying Lidar, Camera');
    const d = roles.drive.drive!;
    expect([d.kind, d.radius, d.separation]).toEqual(['wheels', 0.07, expect.closeTo(0.3, 12)]);
  });

  it('pseudo continuous tracks with a pan-tilt head: a tracked drive (radius 1: the command is the belt speed) and a head', () => {
    const roles = inferRoles(loadRobotModel(own('tracked-pantilt.body')));
    expect(roles.joints.map((j) => [j.joint, j.role])).toEqual([
      ['LeftTrack', 'track'],
      ['RightTrack', 'track'],
      ['PanJoint', 'head'],
      ['TiltJoint', 'head'],
    ]);
    const d = roles.drive.drive!;
    expect([d.kind, d.radius, d.left.map((w) => w.joint), d.right.map((w) => w.joint)]).toEqual(['tracks', 1, ['LeftTrack'], ['RightTrack']]);
    expect(d.separation).toBeCloseTo(0.32, 12);
  });

  it('a propeller beside a RotorDevice is passive (the device makes the thrust); the same joint on a link without one is not', () => {
    const roles = inferRoles(loadRobotModel(own('propeller.body')));
    expect(roles.joints.map((j) => [j.joint, j.role, j.actuated])).toEqual([
      ['PROP', 'passive', false],
      ['SPINNER', 'joint', true],
    ]);
    expect(roles.joints[0]!.reason).toMatch(/^a propeller: the RotorDevice of ROTOR/);
  });

  it('four wheels whose tyres are a COLLADA mesh (in centimetres, offset by its node): skid steer, two per side, radius and treads from the mesh', () => {
    const roles = inferRoles(loadRobotModel(own('skid-steer-mesh.body')));
    expect(roles.warnings).toEqual([]);
    const d = roles.drive.drive!;
    expect(d.left.map((w) => w.joint)).toEqual(['FrontLeftWheel', 'RearLeftWheel']);
    expect(d.right.map((w) => w.joint)).toEqual(['FrontRightWheel', 'RearRightWheel']);
    // The 24-gon's vertices lie on the 0.06 m circle; its middle is 1 cm outboard of each joint (0.14 + 0.01).
    expect(d.radius).toBeCloseTo(0.06, 9);
    expect(d.separation).toBeCloseTo(0.3, 9);
    expect(d.left[0]!.radiusFrom).toBe('a mesh round about the axis (48 rim vertices)');
  });
});

describe('what the roles make: controllers and planning groups', () => {
  const configOf = (file: string) => {
    const ros = applyRosConventions(loadRobotModel(file));
    const roles = inferRoles(ros.model);
    return controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles, samples: 5 });
  };

  it('the pan-tilt rover: diff_drive_controller for the wheels, a trajectory controller for the head, no wheel in any group', () => {
    const c = configOf(own('pantilt-rover.body'));
    expect(c.controllers.controllers.map((x) => [x.name, x.joints, x.active])).toEqual([
      ['joint_state_broadcaster', [], true],
      ['diff_drive_controller', ['LeftWheel', 'RightWheel'], true],
      ['head_controller', ['PanJoint', 'TiltJoint'], true],
    ]);
    expect(c.block.modes.joints.map((m) => m.mode)).toEqual(['velocity_pd', 'velocity_pd', 'position_pd', 'position_pd']);
  });

  it('the tracked base: the tracks in velocity (Choreonoid\'s belt speed) under diff_drive_controller, odometry from the commands', () => {
    const c = configOf(own('tracked-pantilt.body'));
    expect(c.block.modes.joints.map((m) => [m.joint, m.mode])).toEqual([
      ['LeftTrack', 'velocity'],
      ['RightTrack', 'velocity'],
      ['PanJoint', 'position_pd'],
      ['TiltJoint', 'position_pd'],
    ]);
    expect(c.block.xml).toContain('<joint name="LeftTrack">');
    expect(c.controllers.controllers.map((x) => x.name)).toEqual(['joint_state_broadcaster', 'diff_drive_controller', 'head_controller']);
    expect(c.controllers.text).toMatch(/wheel_radius: 1\.0\n/);
    expect(c.controllers.text).toMatch(/open_loop: true/);
  });

  it('the mobile manipulator: diff_drive_controller for the wheels, a trajectory controller and a planning group for the arm, no wheel in a group', () => {
    // By construction (its header): two wheels of radius 0.08 at y = ±0.23, a 6-joint arm ending at TOOL's Holder.
    const file = own('mobile-manipulator.body');
    expect(byRole(file)).toEqual({ drive_wheel: 'LeftWheel RightWheel', arm: 'ARM_J1 ARM_J2 ARM_J3 ARM_J4 ARM_J5 ARM_J6' });
    const d = inferRoles(loadRobotModel(file)).drive.drive!;
    expect([d.kind, d.radius, d.separation]).toEqual(['wheels', 0.08, expect.closeTo(0.46, 12)]);
    const c = configOf(file);
    expect(c.controllers.controllers.map((x) => [x.name, x.joints])).toEqual([
      ['joint_state_broadcaster', []],
      ['diff_drive_controller', ['LeftWheel', 'RightWheel']],
      ['arm_controller', ['ARM_J1', 'ARM_J2', 'ARM_J3', 'ARM_J4', 'ARM_J5', 'ARM_J6']],
    ]);
    const ros = applyRosConventions(loadRobotModel(file));
    const groups = planningGroups(ros, undefined, inferRoles(ros.model)).groups;
    const arm = groups.find((g) => g.name === 'arm')!;
    expect(JSON.stringify(groups)).not.toMatch(/Wheel/);
    expect(arm).toBeDefined();
  });

  it('the skid-steer base: one diff_drive_controller with two wheels on each side', () => {
    const c = configOf(own('skid-steer-mesh.body'));
    expect(c.controllers.text).toMatch(/left_wheel_names:\n\s+- FrontLeftWheel\n\s+- RearLeftWheel\n/);
    expect(c.controllers.text).toMatch(/right_wheel_names:\n\s+- FrontRightWheel\n\s+- RearRightWheel\n/);
  });
});

/** A model's roles against what a person says, each commanded joint in one active controller, MoveIt planning no mobility joint. */
function judgeRoles(file: string, { roles, person }: RoleExpectation): void {
  expect(byRole(file)).toEqual(roles);
  for (const view of [person ?? []].flat()) {
    // What the rules cannot see (the fact is in the table): the disagreement stays what it was.
    const inferred = inferRoles(loadRobotModel(file)).joints.filter((j) => view.joints.split(' ').includes(j.joint));
    expect(inferred.length).toBe(view.joints.split(' ').length);
    expect(inferred.every((j) => j.role !== view.role)).toBe(true);
  }
  // Controllers: every commanded joint in exactly one active controller, no free joint in any.
  const ros = applyRosConventions(loadRobotModel(file));
  const r = inferRoles(ros.model);
  const groups = planningGroups(ros, undefined, r).groups;
  const config = controlConfig(ros, { mode: 'position_pd', groups, roles: r, samples: 0 });
  const claimedBy = new Map<string, string[]>();
  for (const c of config.controllers.controllers.filter((x) => x.active)) for (const j of c.joints) claimedBy.set(j, [...(claimedBy.get(j) ?? []), c.name]);
  for (const j of r.joints) {
    if (j.actuated) expect([j.joint, claimedBy.get(j.joint)?.length ?? 0]).toEqual([j.joint, 1]);
    else expect([j.joint, claimedBy.get(j.joint) ?? []]).toEqual([j.joint, []]);
  }
  // A ContinuousTrack node, and nothing else, is warned of as an open chain outside AGX Dynamics, at the node's line (the file's text says where).
  const trackNodes = readFileSync(file, 'utf8').split('\n').flatMap((l, i) => (/^\s*(-\s*)?type:\s*ContinuousTrack\s*$/.test(l) ? [i + 1] : []));
  expect(r.warnings.filter((w) => w.message.includes('close into a loop only in Choreonoid')).map((w) => w.line)).toEqual(trackNodes);
  // MoveIt plans no wheel, track, caster or free joint.
  const mobility = new Set(r.joints.filter((j) => !j.actuated || ['drive_wheel', 'track', 'wheel', 'caster', 'steering'].includes(j.role)).map((j) => j.joint));
  for (const g of groups.filter((x) => x.name !== 'steering')) expect(g.joints.filter((j) => mobility.has(j))).toEqual([]);
}

describe('every articulated corpus model: each joint\'s role as a person would say, and one active controller for each commanded joint', () => {
  it('the table covers every articulated corpus model, each joint once', () => {
    const models = new Set(CORPUS_ROLES.map((r) => r.model));
    expect(models.size).toBe(CORPUS_ROLES.length);
    expect(CORPUS_ROLES.length).toBeGreaterThanOrEqual(100);
  });

  it.each(CORPUS_ROLES)('$model', (expected) => judgeRoles(join(corpusDir, expected.model), expected));
});

describe("Choreonoid's own share: the robots the corpus lacks, and those that mount a sub-body the corpus lacks", () => {
  const share = findChoreonoidShare();
  const skip = skipWithout(share);
  const shareDir = share.ok ? share.dir : '';

  it.skipIf(skip)('the table covers every articulated model of the installed share that the corpus lacks or loads with other links', () => {
    const models: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(join(shareDir, dir), { withFileTypes: true })) {
        const rel = join(dir, e.name);
        if (e.isDirectory()) walk(rel);
        else if (/\.(body|wrl)$/.test(e.name)) models.push(rel);
      }
    };
    walk('model');
    const loads = (file: string): RobotModel | null => {
      try {
        return loadRobotModel(file);
      } catch {
        return null;
      }
    };
    const differing = models.filter((m) => {
      const own = loads(join(shareDir, m));
      if (!own || !own.links.some((l) => isMovingJoint(l))) return false;
      const corpusFile = join(corpusDir, 'choreonoid/share', m);
      return !existsSync(corpusFile) || loads(corpusFile)?.links.length !== own.links.length;
    });
    expect(SHARE_ROLES.map((r) => r.model).sort()).toEqual(differing.sort());
  });

  it.skipIf(skip).each(SHARE_ROLES)('$model', (expected) => judgeRoles(join(shareDir, expected.model), expected));
});

describe('--roles FILE', () => {
  const rover = loadRobotModel(own('pantilt-rover.body'));
  const inferred = inferRoles(rover);
  const problems = (text: string): string[] => {
    try {
      readRolesFile(text, 'roles.yaml', rover, inferred);
      return [];
    } catch (e) {
      if (!(e instanceof ModelLoadError)) throw e;
      return e.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    }
  };

  it('a joint that does not exist, a role that is not one, a role that cannot apply: each at its line and column', () => {
    expect(problems('PanJoint: head\nPanjoint: head\n')).toEqual([expect.stringMatching(/^2:1 no joint "Panjoint" with a role in PanTiltRover \(did you mean PanJoint\?\)/)]);
    expect(problems('TiltJoint: camera\n')).toEqual([expect.stringMatching(/^1:12 "camera" is not a role: one of drive_wheel, track, steering/)]);
    expect(problems('TiltJoint: track\n')).toEqual([expect.stringMatching(/^1:12 "track" applies only to a pseudo continuous track; TiltJoint is revolute/)]);
    expect(problems('PanJoint: drive_wheel\n')).toEqual([expect.stringMatching(/^1:11 PanJoint cannot join the drive: the drive analysis did not take it \(inferred head/)]);
    expect(problems('- PanJoint\n')).toEqual([expect.stringMatching(/^1:1 expected a mapping from joint names to roles/)]);
    expect(problems('PanJoint: [head\n')).toHaveLength(1);
  });

  it('applied: the head made passive leaves every group and controller; a wheel taken out of the drive ends the drive', () => {
    const given = readRolesFile('PanJoint: passive\nTiltJoint: passive\nLeftWheel: wheel\n', 'roles.yaml', rover, inferred);
    const roles = applyRoles(inferred, given, 'roles.yaml');
    expect(roles.joints.map((j) => [j.joint, j.role, j.from])).toEqual([
      ['LeftWheel', 'wheel', 'roles file'],
      ['RightWheel', 'drive_wheel', 'inferred'],
      ['PanJoint', 'passive', 'roles file'],
      ['TiltJoint', 'passive', 'roles file'],
    ]);
    expect(roles.joints[2]!.reason).toBe('roles.yaml (inferred head: a short chain (2 joints) carrying Lidar, Camera)');
    expect(roles.drive.drive).toBeNull();
    const ros = applyRosConventions(rover);
    const config = controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles, samples: 0 });
    expect(config.controllers.controllers.map((c) => [c.name, c.joints])).toEqual([
      ['joint_state_broadcaster', []],
      ['wheel_velocity_controller', ['LeftWheel', 'RightWheel']],
    ]);
  });
});

describe('COLLADA as assimp (rviz\'s importer) reads it', () => {
  // The corpus's robot meshes instance each geometry once: assimp's face count and box are the file's. (The
  // WRS2018 scenery files instance geometries many times; assimp's `info` counts meshes, not instances.)
  const files = [
    // Not UR10's upperarm.dae: `assimp info` validates, and refuses it for two cameras of one name (rviz loads it).
    ...['base', 'shoulder', 'upperarm', 'forearm', 'wrist1', 'wrist2', 'wrist3']
      .flatMap((p) => ['UR3', 'UR5', 'UR10'].map((r) => `${r}/${p}`))
      .filter((p) => p !== 'UR10/upperarm')
      .map((p) => join(corpusDir, `choreonoid/share/model/UniversalRobots/${p}.dae`)),
    ...['robotiq_85_base_link', 'kinova_robotiq_coupler', 'robotiq_85_finger_link', 'robotiq_85_knuckle_link', 'robotiq_85_inner_knuckle_link', 'robotiq_85_finger_tip_link'].map((p) => join(corpusDir, `choreonoid/share/model/Robotiq/parts/${p}.dae`)),
    own('tyre.dae'),
  ];
  it.skipIf(skipWithout(assimpPeer()))('triangles and extents (the axes in any order: assimp turns Z_UP to Y_UP) agree', () => {
    for (const file of files) {
      const mesh = readDae(readFileSync(file, 'utf8'));
      const info = assimpInfo(file);
      expect([file, info.ok]).toEqual([file, true]);
      const faces = Number(/Faces:\s+(\d+)/.exec(info.output)![1]);
      const point = (label: string): number[] => new RegExp(`${label} point\\s+\\(([^)]*)\\)`).exec(info.output)![1]!.trim().split(/\s+/).map(Number);
      const [lo, hi] = [point('Minimum'), point('Maximum')];
      const theirs = [0, 1, 2].map((k) => hi[k]! - lo[k]!).sort((a, b) => a - b);
      const min = [Infinity, Infinity, Infinity];
      const max = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < mesh.positions.length; i += 3) for (let k = 0; k < 3; k++) [min[k], max[k]] = [Math.min(min[k]!, mesh.positions[i + k]!), Math.max(max[k]!, mesh.positions[i + k]!)];
      const ours = [0, 1, 2].map((k) => max[k]! - min[k]!).sort((a, b) => a - b);
      // assimp drops a few degenerate triangles of some UR meshes (at most 4 of 20,000).
      expect([file, Math.abs(mesh.indices.length / 3 - faces) <= Math.max(4, faces * 1e-3)]).toEqual([file, true]);
      for (let k = 0; k < 3; k++) expect([file, k, Math.abs(ours[k]! - theirs[k]!) < 2e-4]).toEqual([file, k, true]);
    }
  });

  it('what is not COLLADA, or names what it does not have, is an error', () => {
    expect(() => readDae('<html/>')).toThrow(/not COLLADA: its root element is <html>/);
    const broken = readFileSync(own('tyre.dae'), 'utf8').replace('<p>0 1 24', '<p>0 1 999');
    expect(() => readDae(broken)).toThrow(/a triangle names a vertex the file does not have/);
  });
});
