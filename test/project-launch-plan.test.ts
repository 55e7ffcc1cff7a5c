// What project.launch.py starts for a Choreonoid project (src/project/launch-plan.ts, `body-bridge project
// --launch-plan`): one node per body in the namespace choreonoid_ros's BodyROS2Item publishes under, frames
// prefixed by it, the root placed in `world` where a simulation starts it, the project's initial joint
// positions; bodies that fail left out, located; the planning robot served unprefixed for MoveIt. Expected
// values are worked out by hand from the project text written here (docs/project.md says how choreonoid_ros
// names things); the rviz view is read back as YAML.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { launchPlan, type LaunchPlan, readProject } from '../src/project/index.js';
import { projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const root = scratchDir('launch-plan-');
const models = join(projectRoot, 'test/models/project');
let counter = 0;

function caseDir(): string {
  const dir = join(root, `case${++counter}`);
  mkdirSync(dir, { recursive: true });
  for (const f of ['arm.body', 'box.body', 'floor.body', 'broken.body']) copyFileSync(join(models, f), join(dir, f));
  copyFileSync(join(projectRoot, 'models/sample_arm.body'), join(dir, 'sample_arm.body'));
  return dir;
}

const S = Math.SQRT1_2;

// Every item at a known line: the located warnings and errors are checked against these.
const PROJECT = `items:
  id: 0
  name: "RootItem"
  plugin: Base
  class: RootItem
  children:
    - name: "World"
      plugin: Body
      class: WorldItem
      children:
        - { name: "Clock", plugin: ROS2, class: WorldROS2Item }
        - name: "my-arm"
          plugin: Body
          class: BodyItem
          data:
            file: "arm.body"
            root_translation: [ 5, 5, 5 ]
            initial_root_translation: [ 1, 2, 0 ]
            initial_root_rotation: [ 0, 0, 1, 90 ]
            joint_displacements: [ 0, 45, 0, 0, 30 ]
          children:
            - { name: "Publisher", plugin: ROS2, class: BodyROS2Item }
            - { name: "Control", plugin: ROS2, class: ROS2ControlItem, data: { namespace: "/my_arm" } }
        - name: "box"
          plugin: Body
          class: BodyItem
          data: { file: "box.body" }
        - name: "Floor"
          plugin: Body
          class: BodyItem
          data: { file: "floor.body", initial_root_translation: [ 0, 0, -0.1 ] }
        - name: "bolted"
          plugin: Body
          class: BodyItem
          data: { file: "box.body", fix_root: true, initial_root_translation: [ 2, 0, 0.05 ] }
        - name: "bad"
          plugin: Body
          class: BodyItem
          data: { file: "broken.body" }
        - name: "Floor"
          plugin: Body
          class: BodyItem
          data: { file: "floor.body" }
        - name: "9lives"
          plugin: Body
          class: BodyItem
          data: { file: "floor.body" }
        - name: "other-arm"
          plugin: Body
          class: BodyItem
          data: { file: "arm.body" }
          children:
            - { name: "Control2", plugin: ROS2, class: ROS2ControlItem, data: { namespace: "r1" } }
        - name: "sensors"
          plugin: Body
          class: BodyItem
          data: { file: "sample_arm.body" }
          children:
            - { name: "Publisher", plugin: ROS2, class: BodyROS2Item }
        - name: "sensors"
          plugin: Body
          class: BodyItem
          data: { file: "sample_arm.body" }
          children:
            - { name: "Publisher", plugin: ROS2, class: BodyROS2Item }
        - name: "2arm"
          plugin: Body
          class: BodyItem
          data: { file: "arm.body" }
          children:
            - { name: "Publisher", plugin: ROS2, class: BodyROS2Item }
`;

/** 1-based line of the first line containing `text` (after `after`, if given), for located messages. */
function lineOf(text: string, after?: string): number {
  const lines = PROJECT.split('\n');
  const start = after ? lines.findIndex((l) => l.includes(after)) : 0;
  return lines.findIndex((l, i) => i >= start && l.includes(text)) + 1;
}

function planOf(options: Parameters<typeof launchPlan>[1] = {}): { dir: string; file: string; plan: LaunchPlan } {
  const dir = caseDir();
  const file = join(dir, 'world.cnoid');
  writeFileSync(file, PROJECT);
  return { dir, file, plan: launchPlan(readProject(file, { env: {} }), options) };
}

const parsedJoints = (entries: readonly string[]): [string, number][] => entries.map((e) => [e.split('=')[0]!, Number(e.split('=')[1])]);

describe('the launch plan of a project', () => {
  it('one node per body: the namespace choreonoid_ros publishes in, frames prefixed by it, the root where a simulation starts it', () => {
    const { dir, file, plan } = planOf({ poseSources: { box: { topic: '/box/odom', type: 'odometry' } } });
    expect(plan.project).toBe(file);
    expect(plan.worldFrame).toBe('world');
    expect(plan.clock).toEqual({ node: '/World', worldItem: 'World' });
    expect(plan.bodies.map((b) => b.itemName)).toEqual(['my-arm', 'box', 'Floor', 'bolted', 'Floor', '9lives', 'other-arm', 'sensors']);
    const arm = plan.bodies[0]!;
    expect(arm).toMatchObject({
      itemPath: 'World/my-arm',
      namespace: '/my_arm',
      // The ROS2ControlItem reads robot_description from /my_arm/robot_state_publisher: that is this node.
      nodeName: 'robot_state_publisher',
      jointStatesTopic: '/my_arm/joint_states',
      choreonoidRos: true,
      fixedRoot: true,
      staticModel: false,
    });
    expect(arm.warnings).toEqual([]);
    const p = arm.parameters;
    expect(p).toMatchObject({
      body_file: join(dir, 'arm.body'),
      frame_prefix: 'my_arm/',
      placement_frame: 'world',
      placement_topic: '',
      root_joint: '',
      device_input_namespace: '/my_arm',
      ros2_control: 'position_pd',
    });
    // initial_root_*, not root_translation: a quarter turn about z at (1, 2, 0).
    expect(p.placement.slice(0, 3)).toEqual([1, 2, 0]);
    const q = p.placement.slice(3);
    const sign = Math.sign(q[3]!);
    expect(q.map((v) => v * sign)).toEqual([expect.closeTo(0, 12), expect.closeTo(0, 12), expect.closeTo(S, 12), expect.closeTo(S, 12)]);
    // Slots SLIDE (id 0), SHOULDER (id 1), a placeholder, TOOL (fixed, id 3), WRIST (no id): degrees, moving joints only.
    expect(parsedJoints(p.initial_joint_positions)).toEqual([
      ['SLIDE', 0],
      ['SHOULDER', expect.closeTo(Math.PI / 4, 12)],
      ['WRIST', expect.closeTo(Math.PI / 6, 12)],
    ]);
  });

  it('a free root follows its pose source, or is placed where the project starts it with a warning that the pose is not live', () => {
    const withSource = planOf({ poseSources: { box: { topic: '/box/pose', type: 'pose_stamped' } } }).plan.bodies[1]!;
    expect(withSource.fixedRoot).toBe(false);
    expect(withSource.parameters).toMatchObject({ placement_topic: '/box/pose', placement_topic_type: 'pose_stamped', placement_odom_frame: '', root_joint: '' });
    // Odometry (REP-105): world → box/odom where the project starts it, box/odom → root from each message.
    const odometry = planOf({ poseSources: { box: { topic: '/box/odom', type: 'odometry' } } }).plan.bodies[1]!;
    expect(odometry.parameters).toMatchObject({ placement_topic: '/box/odom', placement_topic_type: 'odometry', placement_odom_frame: 'odom', frame_prefix: 'box/' });
    expect(planOf().plan.bodies[0]!.parameters.placement_odom_frame).toBe('');
    // No initial_root_*: a simulation starts it at the world origin, not at the model's 0.5 m.
    expect(withSource.parameters.placement).toEqual([0, 0, 0, 0, 0, 0, 1]);
    const { file, plan } = planOf();
    const box = plan.bodies[1]!;
    expect(box.parameters.placement_topic).toBe('');
    expect(box.warnings.map((w) => [w.file, w.line, w.severity])).toEqual([[file, lineOf('name: "box"'), 'warning']]);
    expect(box.warnings[0]!.message).toMatch(/free root.*not live.*pose source/);
  });

  it("fix_root: the node gets the project's root joint; static bodies and bodies with nothing to publish need no BodyROS2Item", () => {
    const { file, plan } = planOf();
    const bolted = plan.bodies.find((b) => b.itemName === 'bolted')!;
    expect(bolted).toMatchObject({ fixedRoot: true, staticModel: true, namespace: '/bolted', nodeName: 'body_bridge' });
    expect(bolted.parameters.root_joint).toBe('fixed');
    expect(bolted.parameters.placement).toEqual([2, 0, 0.05, 0, 0, 0, 1]);
    // A box (only an Attachment device) and a floor: nothing choreonoid_ros would publish, no warning.
    expect(bolted.warnings).toEqual([]);
    expect(plan.bodies.find((b) => b.itemName === 'Floor')!.warnings).toEqual([]);
    // The sample arm has sensors and joints: without a BodyROS2Item it would be worth a warning; it has one.
    expect(plan.bodies.find((b) => b.itemName === 'sensors')!.choreonoidRos).toBe(true);
    const other = plan.bodies.find((b) => b.itemName === 'other-arm')!;
    expect(other.choreonoidRos).toBe(false);
    const located = other.warnings.map((w) => [w.file, w.line]);
    expect(located).toContainEqual([file, lineOf('name: "other-arm"')]);
    expect(other.warnings.find((w) => w.line === lineOf('name: "other-arm"'))!.message).toMatch(/no BodyROS2Item.*initial joint positions.*\/other_arm/);
  });

  it('a ROS2ControlItem whose namespace does not lead to the body\'s node: located warning, the node keeps its name', () => {
    const { file, plan } = planOf();
    const other = plan.bodies.find((b) => b.itemName === 'other-arm')!;
    expect(other.nodeName).toBe('body_bridge');
    expect(other.parameters.ros2_control).toBe('');
    const w = other.warnings.find((x) => x.line === lineOf('Control2'))!;
    expect(w.file).toBe(file);
    // A relative namespace r1 is looked up relative to the item's own node: /r1/r1/robot_state_publisher.
    expect(w.message).toContain('/r1/r1/robot_state_publisher');
    expect(w.message).toContain('/other_arm');
  });

  it('bodies that cannot be served are left out, located; the rest serve', () => {
    const { file, plan } = planOf();
    expect(plan.leftOut.map((b) => b.itemName)).toEqual(['bad', 'sensors', '2arm']);
    const [bad, sensors2, twoArm] = plan.leftOut;
    expect(bad!.errors[0]).toMatchObject({ file, line: lineOf('file: "broken.body"'), severity: 'error' });
    expect(bad!.errors.length).toBeGreaterThan(1); // the model's own located errors follow
    // A second body under a BodyROS2Item of the same name: choreonoid_ros publishes both in /sensors.
    expect(sensors2!.errors).toEqual([expect.objectContaining({ file, line: lineOf('name: "sensors"', 'name: "other-arm"') + 6, severity: 'error' })]);
    expect(sensors2!.errors[0]!.message).toMatch(/namespace \/sensors is already that of body item "sensors"/);
    // choreonoid_ros cannot make a node named 2arm.
    expect(twoArm!.errors[0]).toMatchObject({ file, line: lineOf('name: "2arm"'), severity: 'error' });
    expect(twoArm!.errors[0]!.message).toMatch(/"2arm" is not a valid ROS name/);
  });

  it("a body without a BodyROS2Item whose namespace is taken or invalid is served in one of ours, with a warning", () => {
    const { file, plan } = planOf();
    const [floor, floor2] = plan.bodies.filter((b) => b.itemName === 'Floor');
    expect(floor!.namespace).toBe('/Floor');
    expect(floor2!.namespace).toBe('/Floor_2');
    expect(floor2!.parameters.frame_prefix).toBe('Floor_2/');
    expect(floor2!.warnings).toEqual([expect.objectContaining({ file, line: lineOf('name: "Floor"', 'name: "bad"'), severity: 'warning' })]);
    expect(floor2!.warnings[0]!.message).toMatch(/served in \/Floor_2: \/Floor is another body's/);
    const nine = plan.bodies.find((b) => b.itemName === '9lives')!;
    expect(nine.namespace).toBe('/_9lives');
    expect(nine.warnings[0]!.message).toMatch(/served in \/_9lives: \/9lives is no valid ROS namespace/);
  });

  it('the planning robot: served unprefixed in the root namespace, its joint_states from choreonoid_ros, the project for its scene', () => {
    const { file, plan } = planOf({ planningRobot: 'my-arm' });
    expect(plan.planningProblem).toBeNull();
    const arm = plan.bodies[0]!;
    expect(plan.planning).toEqual({
      itemName: 'my-arm',
      namespace: '',
      nodeName: 'body_bridge',
      jointStatesTopic: '/my_arm/joint_states',
      parameters: {
        body_file: arm.parameters.body_file,
        frame_prefix: '',
        free_root_frame: '',
        placement_frame: 'world',
        placement: arm.parameters.placement,
        placement_topic: '',
        placement_topic_type: 'odometry',
        placement_odom_frame: '',
        root_joint: '',
        initial_joint_positions: arm.parameters.initial_joint_positions,
        device_input_namespace: '/my_arm',
        planning_scene_project: file,
        planning_robot: 'my-arm',
        relay_devices: false,
        publish_robot_description_semantic: true,
      },
    });
    expect(planOf({ planningRobot: 'Floor' }).plan.planningProblem).toMatch(/does not move/);
    expect(planOf({ planningRobot: 'bad' }).plan.planningProblem).toMatch(/not served/);
    expect(planOf({ planningRobot: 'nobody' }).plan.planningProblem).toMatch(/no body item "nobody".*my-arm, box/);
  });

  it('pose sources naming no served body are reported for the caller to refuse', () => {
    expect(planOf({ poseSources: { ghost: { topic: '/x', type: 'odometry' } } }).plan.unknownPoseSources).toEqual(['ghost']);
  });
});

describe('body-bridge project --launch-plan', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return { out, io: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t), env: {} } };
  };
  const project = (): { dir: string; file: string } => {
    const dir = caseDir();
    const file = join(dir, 'world.cnoid');
    writeFileSync(file, PROJECT);
    return { dir, file };
  };

  it('prints the plan as JSON, writes one rviz view of every body, exits 0 with the left-out bodies on stderr', async () => {
    const { dir, file } = project();
    const rviz = join(dir, 'world.rviz');
    const { out, io: cio } = io();
    const code = await runCli(['project', file, '--launch-plan', '--rviz', rviz, '--placement-topic', 'box=/box/pose', '--placement-topic-type', 'box=pose_stamped'], cio);
    expect(code, out.stderr).toBe(0);
    const json = JSON.parse(out.stdout);
    expect(json.world_frame).toBe('world');
    expect(json.clock).toEqual({ node: '/World', world_item: 'World' });
    expect(json.rviz).toBe(rviz);
    expect(json.bodies.map((b: { namespace: string }) => b.namespace)).toEqual(['/my_arm', '/box', '/Floor', '/bolted', '/Floor_2', '/_9lives', '/other_arm', '/sensors']);
    expect(json.bodies[1].parameters).toMatchObject({ placement_topic: '/box/pose', placement_topic_type: 'pose_stamped' });
    expect(json.bodies[0]).toMatchObject({ node_name: 'robot_state_publisher', joint_states_topic: '/my_arm/joint_states', static: false, fixed_root: true });
    expect(json.left_out.map((b: { item_name: string }) => b.item_name)).toEqual(['bad', 'sensors', '2arm']);
    expect(json.left_out[0].errors[0]).toMatch(new RegExp(`^${file}:${lineOf('file: "broken.body"')}:\\d+: error:`));
    expect(json.planning).toBeNull();
    expect(out.stderr).toContain(`${file}:${lineOf('Control2')}:`);
    expect(out.stderr).toMatch(/8 bodies to serve, 3 left out \(bad, sensors, 2arm\)/);

    const view = parse(readFileSync(rviz, 'utf8')) as { 'Visualization Manager': { 'Global Options': { 'Fixed Frame': string }; Displays: Record<string, unknown>[] } };
    expect(view['Visualization Manager']['Global Options']['Fixed Frame']).toBe('world');
    const displays = view['Visualization Manager'].Displays;
    expect(displays.filter((d) => d.Class === 'rviz_default_plugins/Grid')).toHaveLength(1);
    expect(displays.filter((d) => d.Class === 'rviz_default_plugins/TF')).toHaveLength(1);
    const models = displays.filter((d) => d.Class === 'rviz_default_plugins/RobotModel');
    expect(models.map((d) => [d.Name, (d['Description Topic'] as { Value: string }).Value, d['TF Prefix']])).toEqual([
      ['my-arm RobotModel', '/my_arm/robot_description', 'my_arm'],
      ['box RobotModel', '/box/robot_description', 'box'],
      ['Floor RobotModel', '/Floor/robot_description', 'Floor'],
      ['bolted RobotModel', '/bolted/robot_description', 'bolted'],
      ['Floor RobotModel', '/Floor_2/robot_description', 'Floor_2'],
      ['9lives RobotModel', '/_9lives/robot_description', '_9lives'],
      ['other-arm RobotModel', '/other_arm/robot_description', 'other_arm'],
      ['sensors RobotModel', '/sensors/robot_description', 'sensors'],
    ]);
    // The sample arm's camera and lidar, relayed by its node in /sensors — where choreonoid_ros publishes its own
    // /sensors/FRONT_LIDAR/scan: the relayed scan takes another name.
    const topics = displays.map((d) => (d.Topic as { Value?: string } | undefined)?.Value).filter((t) => t !== undefined);
    expect(topics).toEqual(expect.arrayContaining(['/sensors/HEAD_CAMERA/image_raw', '/sensors/FRONT_LIDAR/scan_relayed']));
    expect(topics).not.toContain('/sensors/FRONT_LIDAR/scan');
    expect(topics.every((t) => t!.startsWith('/sensors/'))).toBe(true);
  });

  it('refuses what it cannot use: a pose source for no body, plan options without --launch-plan, a bad type; a planning robot that cannot be served exits 1', async () => {
    const { file } = project();
    let r = io();
    expect(await runCli(['project', file, '--launch-plan', '--placement-topic', 'ghost=/x'], r.io)).toBe(2);
    expect(r.out.stderr).toMatch(/--placement-topic names ghost, which the project does not serve/);
    r = io();
    expect(await runCli(['project', file, '--rviz', '/tmp/x.rviz'], r.io)).toBe(2);
    expect(r.out.stderr).toMatch(/--rviz goes with --launch-plan/);
    r = io();
    expect(await runCli(['project', file, '--launch-plan', '--placement-topic', 'box=/x', '--placement-topic-type', 'box=twist'], r.io)).toBe(2);
    expect(r.out.stderr).toMatch(/odometry, pose_stamped/);
    r = io();
    expect(await runCli(['project', file, '--launch-plan', '--planning-robot', 'Floor'], r.io)).toBe(1);
    expect(r.out.stderr).toMatch(/cannot plan for Floor: .*does not move/);
    r = io();
    expect(await runCli(['project', file, '--launch-plan', '--planning-robot', 'my-arm'], r.io)).toBe(0);
    expect(JSON.parse(r.out.stdout).planning.parameters.planning_scene_project).toBe(file);
  });

  it('a project no body of which can be served exits 1; an unreadable project exits 1 with one located error', async () => {
    const dir = caseDir();
    const file = join(dir, 'bad.cnoid');
    writeFileSync(file, `items:\n  name: "RootItem"\n  plugin: Base\n  class: RootItem\n  children:\n    - { name: "bad", plugin: Body, class: BodyItem, data: { file: "broken.body" } }\n`);
    let r = io();
    expect(await runCli(['project', file, '--launch-plan'], r.io)).toBe(1);
    expect(r.out.stderr).toMatch(/no body of .* can be served/);
    const missing = join(dir, 'none.cnoid');
    r = io();
    expect(await runCli(['project', missing, '--launch-plan'], r.io)).toBe(1);
    expect(existsSync(missing)).toBe(false);
    expect(r.out.stdout).toBe('');
  });
});
