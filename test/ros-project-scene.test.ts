// The node's planning_scene_project (src/ros/project-scene.ts, scene-from-project.ts) on the memory transport:
// the project's static bodies in MoveIt's planning scene, in the served robot's planning frame, at their
// project poses (worked out by hand below); moving bodies, bodies riding on a moving one, other worlds and the
// robot itself left out; the project read again when a file of it changes on disk; the last good scene kept
// while the project or a body file is broken; the scene emptied when the parameter is cleared. Also the two
// parameters project.launch.py gives a body as the project has it: root_joint (fix_root) and relay_devices.
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { CollisionObjectOperation, MessageType, type CollisionObject, type MarkerArray, type PlanningScene, type TFMessage } from '../src/messages/messages.js';
import type { Mat3, Pose } from '../src/model/types.js';
import { ODOMETRY_PADDING } from '../src/moveit/planning-scene.js';
import { fileSignature } from '../src/ros/dry-run.js';
import type { NodeParams } from '../src/ros/params.js';
import { SUBSCRIBER_POLL_MS } from '../src/ros/planning-scene-publisher.js';
import { projectRoot } from './support/oracle.js';
import { poseError, rig } from './support/ros-rig.js';
import { matrixFromQuaternion } from './support/rotations.js';
import { scratchDir } from './support/temp-dir.js';
import { childrenNamed, parseXml } from './support/urdf-peers.js';

const root = scratchDir('project-scene-');
const models = join(projectRoot, 'test/models/project');
let counter = 0;
const S = Math.SQRT1_2;
const I: Mat3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
/** A quarter turn back about z: the inverse of the arm's placement rotation. */
const RZ_90: Mat3 = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]];

const item = (name: string, file: string, data: string, children = ''): string =>
  `        - name: "${name}"\n          plugin: Body\n          class: BodyItem\n          data: { file: "${file}"${data ? `, ${data}` : ''} }\n${children}`;

/** The project: the arm at (1, 0, 0) turned a quarter about z; a floor, a bolted box (fix_root), a loose box, one carried by the arm. */
function projectText(options: { tableAt?: string; extra?: string; without?: string } = {}): string {
  const bodies = [
    item('arm', 'arm.body', 'initial_root_translation: [ 1, 0, 0 ], initial_root_rotation: [ 0, 0, 1, 90 ]', `          children:\n            - { name: "carried", plugin: Body, class: BodyItem, data: { file: "box.body", parent_body_linkage: attached } }\n`),
    item('Floor', 'floor.body', ''),
    item('table', 'box.body', `fix_root: true, initial_root_translation: ${options.tableAt ?? '[ 2, 0, 0.05 ]'}`),
    item('loose', 'box.body', 'initial_root_translation: [ 0, 3, 0.05 ]'),
    options.extra ?? '',
  ].filter((b) => b !== '' && !(options.without && b.includes(`name: "${options.without}"`)));
  return `items:
  name: "RootItem"
  plugin: Base
  class: RootItem
  children:
    - name: "World"
      plugin: Body
      class: WorldItem
      children:
${bodies.join('')}    - name: "Elsewhere"
      plugin: Body
      class: WorldItem
      children:
${item('far', 'floor.body', '')}`;
}

function caseDir(): string {
  const dir = join(root, `case${++counter}`);
  mkdirSync(dir, { recursive: true });
  for (const f of ['arm.body', 'arm-shapes.body', 'box.body', 'floor.body', 'broken.body']) copyFileSync(join(models, f), join(dir, f));
  copyFileSync(join(projectRoot, 'models/sample_arm.body'), join(dir, 'sample_arm.body'));
  copyFileSync(join(projectRoot, 'test/models/roles/mobile-manipulator.body'), join(dir, 'mobile-manipulator.body'));
  return dir;
}

/** Writes `text` as the file and moves its mtime on, so the watch sees a change even within one clock tick. */
let bump = 0;
function rewrite(file: string, text: string): void {
  writeFileSync(file, text);
  const t = new Date(Date.now() + ++bump * 10_000);
  utimesSync(file, t, t);
}

/** The node serving `robotFile` with planning_scene_project = the project written to the case folder. */
function node(params: Partial<NodeParams>, robotFile = 'arm.body', text = projectText()) {
  const dir = caseDir();
  const project = join(dir, 'world.cnoid');
  writeFileSync(project, text);
  const body = join(dir, robotFile);
  const started: string[] = [];
  const r = rig(loadRobotModel(body), { body_file: body, planning_scene_project: project, watch_body_file: true, ...params }, {
    loadModel: (f) => loadRobotModel(f),
    fileSignature,
    startDevices: (ctx) => {
      started.push(ctx.model.name);
      return () => undefined;
    },
  });
  // move_group's subscription (reliable, volatile): what it hears, and what counts as a subscriber.
  const heard: PlanningScene[] = [];
  r.transport.subscribe<PlanningScene>('planning_scene', MessageType.PlanningScene, { reliability: 'reliable', durability: 'volatile', depth: 10 }, (m) => heard.push(m));
  const scenes = (): PlanningScene[] => r.transport.messages<PlanningScene>('planning_scene');
  // The first look at the subscribers finds this one and sends the whole scene again; what comes after is news.
  r.transport.advanceWall(SUBSCRIBER_POLL_MS);
  const seen = scenes().length;
  return { ...r, dir, project, started, scenes, news: () => scenes().slice(seen) };
}

const ops = (s: PlanningScene): [string, number][] => s.world.collision_objects.map((o) => [o.id, o.operation]);
const objectPose = (o: CollisionObject): Pose => ({ translation: [o.pose.position.x, o.pose.position.y, o.pose.position.z], rotation: matrixFromQuaternion(o.pose.orientation) });
const logs = (r: ReturnType<typeof node>, level: 'warn' | 'error' | 'info'): string[] => r.transport.logs.filter((l) => l.level === level).map((l) => l.message);
/** The arm's placement in world, as project.launch.py's plan gives it: (1, 0, 0), a quarter turn about z. */
const ARM_PLACEMENT = { placement_frame: 'world', placement: [1, 0, 0, 0, 0, S, S] };

describe("a project's static bodies in MoveIt's planning scene", () => {
  it("the floor and the bolted box, in the fixed-base arm's root link frame at their project poses; the rest left out, saying why", () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    const [first, resent] = r.scenes();
    // The second is the whole scene again for the subscriber that appeared (node(): move_group's).
    expect(ops(resent!)).toEqual(ops(first!));
    expect(ops(first!)).toEqual([
      ['Floor', CollisionObjectOperation.ADD],
      ['table', CollisionObjectOperation.ADD],
    ]);
    const [floor, table] = first!.world.collision_objects;
    // MoveIt's planning frame: the arm's URDF root link, unprefixed.
    expect(floor!.header.frame_id).toBe('BASE');
    // Seen from the arm (at (1, 0, 0), turned +90°): world (0, 0, 0) is 1 m behind it, on its +y; (2, 0, 0.05) on its −y.
    expect(poseError(objectPose(floor!), { translation: [0, 1, 0], rotation: RZ_90 })).toBeLessThan(1e-12);
    expect(poseError(objectPose(table!), { translation: [0, -1, 0.05], rotation: RZ_90 })).toBeLessThan(1e-12);
    // The floor's box, 10 × 10 × 0.1, 5 cm below its link origin; the bolted box's 0.1 m cube at its origin.
    expect(floor!.primitives).toEqual([{ type: 1, dimensions: [10, 10, 0.1], polygon: { points: [] } }]);
    expect(floor!.primitive_poses[0]!.position).toEqual({ x: 0, y: 0, z: -0.05 });
    expect(table!.primitives.map((p) => p.dimensions)).toEqual([[0.1, 0.1, 0.1]]);
    const warnings = logs(r, 'warn');
    expect(warnings).toContainEqual(expect.stringMatching(/'loose' is left out of the planning scene: its root link 'BODY' is not fixed/));
    expect(warnings).toContainEqual(expect.stringMatching(/'carried' is left out of the planning scene: it follows body item World\/arm, which moves/));
    // The robot itself and the other world's floor are not candidates at all.
    expect(warnings.filter((w) => /'arm'|'far'/.test(w))).toEqual([]);
    // The arm's base plate (0.1 m thick about its root, at z = 0) sinks 5 cm into the floor, whose top is z = 0; the
    // bolted box is a metre away.
    expect(warnings.filter((w) => /touches the robot's base/.test(w))).toEqual([
      "'Floor' touches the robot's base (its link 'BASE' meets 'FLOOR') where the project puts them: the base never moves, so MoveIt may find every state of the robot in collision with it. With publish_robot_description_semantic (the node serving MoveIt's SRDF, as moveit.launch.py has it) the node allows the contact; otherwise leave a gap between them, or keep the body out of the project MoveIt reads",
    ]);
    // Without the SRDF the node does not serve, MoveIt's collision matrix is not ours to replace.
    expect(r.scenes().every((scene) => scene.allowed_collision_matrix.entry_names.length === 0)).toBe(true);
    expect(logs(r, 'error')).toEqual([]);
  });

  it("without planning_robot every world's static bodies go in, and the robot's own body item is said to move", () => {
    const r = node({ ...ARM_PLACEMENT });
    expect(ops(r.scenes()[0]!).map(([id]) => id)).toEqual(['Floor', 'table', 'far']);
    expect(logs(r, 'warn')).toContainEqual(expect.stringMatching(/'arm' is left out of the planning scene: its joint/));
    const named = node({ ...ARM_PLACEMENT, planning_robot: 'nobody' });
    expect(logs(named, 'warn')).toContainEqual(expect.stringMatching(/planning_robot 'nobody' is no body item of .*world.cnoid/));
  });

  it('a free-root robot plans in its virtual joint\'s parent, world: the objects at their world poses', () => {
    const r = node({ placement_frame: 'world', placement: [5, 5, 0, 0, 0, 0, 1] }, 'sample_arm.body');
    const [floor, table] = r.scenes()[0]!.world.collision_objects;
    expect(floor!.header.frame_id).toBe('world');
    // A free root's base moves: nothing is said about what it stands on.
    expect(logs(r, 'warn').filter((w) => /touches the robot's base/.test(w))).toEqual([]);
    expect(poseError(objectPose(floor!), { translation: [0, 0, 0], rotation: I })).toBeLessThan(1e-12);
    expect(poseError(objectPose(table!), { translation: [2, 0, 0.05], rotation: I })).toBeLessThan(1e-12);
  });

  it("rviz's markers name the planning frame as TF does: a robot link with the node's frame_prefix, world without", () => {
    const frameOf = (r: ReturnType<typeof node>): string[] => [...new Set(r.transport.messages<MarkerArray>('planning_scene_markers').at(-1)!.markers.map((m) => m.header.frame_id))];
    expect(frameOf(node({ ...ARM_PLACEMENT, planning_robot: 'arm', frame_prefix: 'r1/' }))).toEqual(['r1/BASE']);
    expect(frameOf(node({ placement_frame: 'world', placement: [5, 5, 0, 0, 0, 0, 1], frame_prefix: 'r1/' }, 'sample_arm.body'))).toEqual(['world']);
  });

  it('kept up to date: a body moved, added or removed in the project file is replaced, added or removed', () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    r.transport.advanceWall(5000);
    expect(r.news()).toEqual([]);
    rewrite(r.project, projectText({ tableAt: '[ 1, 1, 0.05 ]' }));
    r.transport.advanceWall(1000);
    expect(r.news()).toHaveLength(1);
    const moved = r.news()[0]!;
    expect(ops(moved)).toEqual([['table', CollisionObjectOperation.ADD]]);
    // (1, 1, 0.05) is straight ahead of the arm, which faces world +y.
    expect(poseError(objectPose(moved.world.collision_objects[0]!), { translation: [1, 0, 0.05], rotation: RZ_90 })).toBeLessThan(1e-12);
    rewrite(r.project, projectText({ tableAt: '[ 1, 1, 0.05 ]', extra: item('shelf', 'floor.body', 'initial_root_translation: [ 1, 2, 0 ]') }));
    r.transport.advanceWall(1000);
    expect(ops(r.news()[1]!)).toEqual([['shelf', CollisionObjectOperation.ADD]]);
    rewrite(r.project, projectText({ tableAt: '[ 1, 1, 0.05 ]', extra: item('shelf', 'floor.body', 'initial_root_translation: [ 1, 2, 0 ]'), without: 'Floor' }));
    r.transport.advanceWall(1000);
    expect(ops(r.news()[2]!)).toEqual([['Floor', CollisionObjectOperation.REMOVE]]);
  });

  it('a broken project keeps the last good scene and says why; fixing it brings the change', () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    rewrite(r.project, 'items: [ unclosed');
    r.transport.advanceWall(1000);
    expect(r.news()).toEqual([]);
    expect(logs(r, 'error')).toContainEqual(expect.stringMatching(/planning scene: cannot read .*world.cnoid \(a file of the project changed on disk\): .*\nkeeping the last good scene \(2 objects\)/));
    // Nothing new on the next looks: the broken file is not read again until it changes.
    const errors = logs(r, 'error').length;
    r.transport.advanceWall(3000);
    expect(logs(r, 'error')).toHaveLength(errors);
    rewrite(r.project, projectText({ without: 'table' }));
    r.transport.advanceWall(1000);
    expect(ops(r.news()[0]!)).toEqual([['table', CollisionObjectOperation.REMOVE]]);
  });

  it("a body whose model breaks keeps its last good object, with the model's located errors", () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    const broken = join(r.dir, 'floor.body');
    rewrite(broken, 'format: ChoreonoidBody\nformat_version: 2.0\nlinks:\n  - { name: FLOOR, joint_type: nonsense }\n');
    r.transport.advanceWall(1000);
    expect(r.news()).toEqual([]);
    expect(logs(r, 'error')).toContainEqual(expect.stringMatching(/body item "Floor" does not load, its last good object is kept:\n[\s\S]*floor.body:4:32: error: unknown joint type "nonsense"/));
  });

  it('clearing planning_scene_project takes our objects out of the scene; setting it again puts them back', () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    expect(r.bridge.setParams({ planning_scene_project: '' })).toEqual({ successful: true, reason: '' });
    expect(ops(r.scenes().at(-1)!)).toEqual([
      ['Floor', CollisionObjectOperation.REMOVE],
      ['table', CollisionObjectOperation.REMOVE],
    ]);
    expect(r.bridge.setParams({ planning_scene_project: r.project })).toEqual({ successful: true, reason: '' });
    expect(ops(r.scenes().at(-1)!)).toEqual([
      ['Floor', CollisionObjectOperation.ADD],
      ['table', CollisionObjectOperation.ADD],
    ]);
  });

  it('a move_group that starts later gets the whole scene', () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    r.transport.subscribe('planning_scene', MessageType.PlanningScene, { reliability: 'reliable', durability: 'volatile', depth: 10 }, () => undefined);
    r.transport.advanceWall(SUBSCRIBER_POLL_MS);
    expect(ops(r.scenes().at(-1)!).map(([id]) => id)).toEqual(['Floor', 'table']);
  });

  it('placed again (placement changed), the objects are expressed anew from where the robot now stands', () => {
    const r = node({ ...ARM_PLACEMENT, planning_robot: 'arm' });
    expect(r.bridge.setParams({ placement: [0, 0, 0, 0, 0, 0, 1] }).successful).toBe(true);
    const again = r.scenes().at(-1)!;
    expect(ops(again)).toEqual([
      ['Floor', CollisionObjectOperation.ADD],
      ['table', CollisionObjectOperation.ADD],
    ]);
    expect(poseError(objectPose(again.world.collision_objects[1]!), { translation: [2, 0, 0.05], rotation: I })).toBeLessThan(1e-12);
    // Lifted 1 mm clear of the floor's top, the base touches nothing.
    const said = logs(r, 'warn').filter((w) => /touches the robot's base/.test(w)).length;
    expect(r.bridge.setParams({ placement: [0, 0, 0.051, 0, 0, 0, 1] }).successful).toBe(true);
    expect(logs(r, 'info').at(-1)).toMatch(/planning scene from .* \(placement changed\)/);
    expect(logs(r, 'warn').filter((w) => /touches the robot's base/.test(w))).toHaveLength(said);
  });
});

/** The allowed pairs of a matrix message, as sorted "a|b" strings, after checking that it is square and symmetric. */
function allowedPairs(acm: PlanningScene['allowed_collision_matrix']): string[] {
  const n = acm.entry_names.length;
  expect(acm.entry_values.map((row) => row.enabled.length)).toEqual(acm.entry_names.map(() => n));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      expect(acm.entry_values[i]!.enabled[j], `${acm.entry_names[i]} / ${acm.entry_names[j]}`).toBe(acm.entry_values[j]!.enabled[i]);
      if (j > i && acm.entry_values[i]!.enabled[j]) out.push([acm.entry_names[i]!, acm.entry_names[j]!].sort().join('|'));
    }
  }
  return out.sort();
}

/** The disabled pairs of the SRDF the node published on robot_description_semantic, read from its XML. */
function srdfPairs(r: ReturnType<typeof node>): string[] {
  const srdf = parseXml(r.transport.last<{ data: string }>('robot_description_semantic')!.data);
  return childrenNamed(srdf, 'disable_collisions').map((d) => [d.attributes.link1!, d.attributes.link2!].sort().join('|')).sort();
}

describe("a fixed base that stands on a static body: the contact allowed in MoveIt's collision matrix", () => {
  const semantic = { ...ARM_PLACEMENT, planning_robot: 'arm', publish_robot_description_semantic: true, collision_samples: 200 };

  it("with the SRDF the node serves: the SRDF's pairs and the base against the floor, every other pair checked", () => {
    const r = node(semantic, 'arm-shapes.body');
    const [first, resent] = r.scenes();
    const pairs = srdfPairs(r);
    expect(pairs.length).toBeGreaterThan(0);
    expect(allowedPairs(first!.allowed_collision_matrix)).toEqual([...pairs, 'BASE|Floor'].sort());
    // Every link with collision geometry is named, so MoveIt checks the rest (false) rather than falling back.
    // arm-shapes.body's links with a shape, as the URDF names them (a link named like its joint gets _link).
    const colliding = ['BASE', 'SHOULDER_link', 'SLIDE_link', 'WRIST_link'];
    expect(first!.allowed_collision_matrix.entry_names).toEqual(expect.arrayContaining([...colliding, 'Floor']));
    expect(first!.allowed_collision_matrix.entry_names).not.toContain('table');
    // The move_group that appears gets it again, with the objects.
    expect(resent!.allowed_collision_matrix).toEqual(first!.allowed_collision_matrix);
    expect(logs(r, 'warn').filter((w) => /touches the robot's base/.test(w))).toEqual([]);
    expect(logs(r, 'info')).toContainEqual(expect.stringMatching(/^'Floor' touches the robot's base \(its link 'BASE' meets 'FLOOR'\) where the project puts them: the contact is allowed in MoveIt's collision matrix/));
  });

  it('a driven base (placement_odom_frame): its wheels and casters stand on the floor it drives on, allowed; its arm checked against it', () => {
    // mobile-manipulator.body at its start pose (0, 0, 0.08): by construction its tyres (radius 0.08 about the
    // axle at the root's height) and its ball rest on z = 0, the floor's top.
    const driven = { placement_frame: 'world', placement: [0, 0, 0.08, 0, 0, 0, 1], placement_odom_frame: 'odom', publish_robot_description_semantic: true, collision_samples: 200 };
    const r = node(driven, 'mobile-manipulator.body');
    const pairs = srdfPairs(r);
    const allowed = allowedPairs(r.scenes()[0]!.allowed_collision_matrix);
    // Without planning_robot every world's bodies are in, the other world's floor ('far', the same floor) too.
    const resting = ['Chassis|Floor', 'Floor|LeftWheel_link', 'Floor|RightWheel_link', 'Chassis|far', 'LeftWheel_link|far', 'RightWheel_link|far'];
    expect(allowed).toEqual([...pairs, ...resting].sort());
    // The arm's links are named, so checked (false) against the floor; the table, named nowhere, against everything.
    expect(r.scenes()[0]!.allowed_collision_matrix.entry_names).toEqual(expect.arrayContaining(['ARM_LINK1', 'ARM_LINK6', 'TOOL_link']));
    expect(logs(r, 'info')).toContainEqual(expect.stringMatching(/^'Floor' touches the robot's base \(its links 'Chassis', 'LeftWheel_link', 'RightWheel_link' meet 'FLOOR'\) where the project puts them: the contact is allowed in MoveIt's collision matrix, the base drives on it/));
    // Its arm is kept clear of the world by the odometry's error (ODOMETRY_PADDING), every link the base does not
    // carry: by construction the arm's six links and TOOL's.
    const arm = ['ARM_LINK1', 'ARM_LINK2', 'ARM_LINK3', 'ARM_LINK4', 'ARM_LINK5', 'ARM_LINK6', 'TOOL_link'];
    expect(r.scenes()[0]!.link_padding).toEqual(arm.map((link_name) => ({ link_name, padding: ODOMETRY_PADDING })));
    // At least the odometry's error after a metre (1.6 cm, 9 mrad at the arm's 0.7 m) and the base's creep (15 mm at the tip).
    expect(ODOMETRY_PADDING).toBeGreaterThan(0.016 + 0.009 * 0.7 + 0.015);
    // planning_padding is the user's: set, the scene goes again with it; 0 takes the padding back (a zero per link,
    // since a diff without link_padding leaves MoveIt's as it was); out of its range it is refused.
    const padded = (): number[] => [...new Set(r.scenes().at(-1)!.link_padding.map((l) => l.padding))];
    expect(r.bridge.setParams({ planning_padding: 0.02 }).successful).toBe(true);
    expect(r.scenes().at(-1)!.link_padding.map((l) => l.link_name)).toEqual(arm);
    expect(padded()).toEqual([0.02]);
    expect(r.bridge.setParams({ planning_padding: 0 }).successful).toBe(true);
    expect(padded()).toEqual([0]);
    const sent = r.scenes().length;
    expect(r.bridge.setParams({ planning_padding: -0.01 }).successful).toBe(false);
    expect(r.scenes().length).toBe(sent);
    // The same free root not driven (no placement_odom_frame): its base may lift off, nothing is allowed or padded.
    const free = node({ ...driven, placement_odom_frame: '' }, 'mobile-manipulator.body');
    expect(free.scenes()[0]!.allowed_collision_matrix.entry_names).toEqual([]);
    expect(free.scenes()[0]!.link_padding).toEqual([]);
  });

  it('lifted clear of the floor, the SRDF\'s own matrix goes back; unchanged, nothing more is sent', () => {
    const r = node(semantic, 'arm-shapes.body');
    const pairs = srdfPairs(r);
    expect(r.bridge.setParams({ placement: [1, 0, 0.051, 0, 0, S, S] }).successful).toBe(true);
    const lifted = r.scenes().at(-1)!;
    expect(allowedPairs(lifted.allowed_collision_matrix)).toEqual(pairs);
    const sent = r.scenes().length;
    expect(r.bridge.setParams({ placement: [1, 0, 0.052, 0, 0, S, S] }).successful).toBe(true);
    // The objects move (replaced); the matrix is the same and is not sent again.
    const after = r.scenes().slice(sent);
    expect(after.every((scene) => scene.allowed_collision_matrix.entry_names.length === 0)).toBe(true);
  });

  it('the SRDF no longer served: no matrix is sent again, and the contact is warned about', () => {
    const r = node(semantic, 'arm-shapes.body');
    expect(r.bridge.setParams({ publish_robot_description_semantic: false }).successful).toBe(true);
    expect(logs(r, 'warn')).toContainEqual(expect.stringMatching(/^'Floor' touches the robot's base/));
    const sent = r.scenes().length;
    // A move_group that comes now gets the objects and no matrix of ours.
    r.transport.subscribe('planning_scene', MessageType.PlanningScene, { reliability: 'reliable', durability: 'volatile', depth: 10 }, () => undefined);
    r.transport.advanceWall(SUBSCRIBER_POLL_MS);
    const resent = r.scenes().slice(sent);
    expect(resent.length).toBeGreaterThan(0);
    expect(resent.every((scene) => scene.allowed_collision_matrix.entry_names.length === 0)).toBe(true);
    expect(ops(resent.at(-1)!).map(([id]) => id)).toEqual(['Floor', 'table']);
  });

  it('a body that stands clear of the base never brings a matrix', () => {
    const r = node({ ...semantic, placement: [1, 0, 0.06, 0, 0, S, S] });
    expect(r.scenes().length).toBeGreaterThan(0);
    expect(r.scenes().every((scene) => scene.allowed_collision_matrix.entry_names.length === 0)).toBe(true);
  });
});

describe('root_joint and relay_devices', () => {
  it("root_joint fixed: a free model bolted by the project's fix_root is placed for good, without the not-live warning", () => {
    const box = join(caseDir(), 'box.body');
    const r = rig(loadRobotModel(box), { body_file: box, placement_frame: 'world', placement: [2, 0, 0.05, 0, 0, 0, 1], root_joint: 'fixed' }, { loadModel: (f) => loadRobotModel(f) });
    const placed = r.transport.last<TFMessage>('/tf_static')!.transforms.filter((t) => t.header.frame_id === 'world');
    expect(placed.map((t) => t.child_frame_id)).toEqual(['BODY']);
    expect(r.transport.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([]);
    expect(r.bridge.served()!.model.links[0]!.joint.type).toBe('fixed');
    // Freed again at run time: the same placement now comes with the warning.
    expect(r.bridge.setParams({ root_joint: '' }).successful).toBe(true);
    expect(r.transport.logs.some((l) => l.level === 'warn' && /free root 'BODY' is published at a fixed pose/.test(l.message))).toBe(true);
    expect(r.bridge.setParams({ root_joint: 'loose' })).toEqual({ successful: false, reason: "root_joint must be '' (the model's), 'fixed' or 'free' (got 'loose')" });
  });

  it('relay_devices false starts no relay; true starts it again', () => {
    const r = node({ relay_devices: false }, 'sample_arm.body');
    expect(r.started).toEqual([]);
    expect(r.bridge.setParams({ relay_devices: true }).successful).toBe(true);
    expect(r.started).toEqual(['SampleArm']);
  });
});
