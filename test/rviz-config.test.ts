// `body-bridge rviz`: the configuration display.launch.py opens. Checked against what the node and the URDF
// say independently of src/rviz: the fixed frame is the URDF's root link (read back from `body-bridge urdf`'s
// XML), and every device topic `body-bridge info --json` lists gets exactly the rviz display for its message
// type, on the topic a subscriber in the launch's namespace resolves (rcl's rules, table below). rviz2 itself
// opens these files in the live suite (test/ros-live-rviz.test.ts).
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../src/cli/command.js';
import { runInfo, type InfoJson } from '../src/cli/info.js';
import { runRviz } from '../src/cli/rviz.js';
import { runUrdf } from '../src/cli/urdf.js';
import { sceneMarkersQoS } from '../src/ros/planning-scene-publisher.js';
import { resolveTopic } from '../src/rviz/config.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { childrenNamed, parseXml } from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';

requireShared();
const work = scratchDir('bb-rviz-');

async function run(command: (argv: string[], io: CommandIo) => number | Promise<number>, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { XDG_CACHE_HOME: join(work, 'cache') } };
  const status = await command(argv, io);
  return { status, stdout, stderr };
}

interface Display {
  Class: string;
  Name: string;
  Topic?: { Value: string; 'Reliability Policy': string; 'Durability Policy': string };
  'Description Topic'?: { Value: string; 'Reliability Policy': string; 'Durability Policy': string };
}

const DISPLAY_OF_TYPE: Record<string, string | null> = {
  'sensor_msgs/msg/Image': 'rviz_default_plugins/Image',
  'sensor_msgs/msg/PointCloud2': 'rviz_default_plugins/PointCloud2',
  'sensor_msgs/msg/LaserScan': 'rviz_default_plugins/LaserScan',
  'geometry_msgs/msg/WrenchStamped': 'rviz_default_plugins/Wrench',
  'sensor_msgs/msg/CameraInfo': null,
  'sensor_msgs/msg/Imu': null,
};

const models = [
  'choreonoid/share/model/Tank/Tank.body',
  'choreonoid/share/model/Tank/SimpleTank.body',
  'choreonoid/share/model/PA10/PA10.body',
  'choreonoid/share/model/HRP4C/HRP4C.body',
  'openhrp3/sample/model/sample1.wrl',
];

/** The URDF's root link: the one link no joint has as its child. */
async function urdfRoot(file: string, extra: string[] = []): Promise<string> {
  const r = await run(runUrdf, [file, '--mesh-dir', join(work, 'meshes'), ...extra]);
  expect(r.status, r.stderr).toBe(0);
  const doc = parseXml(r.stdout);
  const children = new Set(childrenNamed(doc, 'joint').map((j) => childrenNamed(j, 'child')[0]!.attributes.link));
  const roots = childrenNamed(doc, 'link').map((l) => l.attributes.name!).filter((n) => !children.has(n));
  expect(roots).toHaveLength(1);
  return roots[0]!;
}

describe('body-bridge rviz', () => {
  it.each(models)('%s: fixed frame = the URDF root; one display per drawable device topic, best effort; the robot from the latched topic', async (rel) => {
    const file = join(corpusDir, rel);
    const r = await run(runRviz, [file, '--namespace', 'r1', '--frame-prefix', 'r1/']);
    expect(r.status, r.stderr).toBe(0);
    const config = parse(r.stdout) as { 'Visualization Manager': { Displays: Display[]; 'Global Options': { 'Fixed Frame': string } } };
    const vm = config['Visualization Manager'];
    expect(vm['Global Options']['Fixed Frame']).toBe(`r1/${await urdfRoot(file)}`);
    const robot = vm.Displays.filter((d) => d.Class === 'rviz_default_plugins/RobotModel');
    expect(robot).toHaveLength(1);
    expect(robot[0]!['Description Topic']).toMatchObject({ Value: '/r1/robot_description', 'Reliability Policy': 'Reliable', 'Durability Policy': 'Transient Local' });

    const info = await run(runInfo, [file, '--json']);
    const devices = (JSON.parse(info.stdout) as InfoJson).devices;
    const expected = devices.flatMap((d) => d.topics).filter((t) => DISPLAY_OF_TYPE[t.type] !== null);
    for (const t of devices.flatMap((d) => d.topics)) expect(DISPLAY_OF_TYPE, t.type).toHaveProperty([t.type]);
    const sensorDisplays = vm.Displays.filter((d) => d.Topic);
    expect(sensorDisplays.map((d) => [d.Class, d.Topic!.Value]).sort()).toEqual(expected.map((t) => [DISPLAY_OF_TYPE[t.type], `/r1/${t.name}`]).sort());
    for (const d of sensorDisplays) expect(d.Topic!['Reliability Policy']).toBe('Best Effort');
    const imus = devices.flatMap((d) => d.topics).filter((t) => t.type === 'sensor_msgs/msg/Imu');
    for (const t of imus) expect(r.stderr).toContain(`/r1/${t.name} (sensor_msgs/Imu) has no display`);
  });

  it.each([
    ['choreonoid/share/model/Tank/SimpleTank.body', 'behind'],
    ['choreonoid/share/model/Tank/Tank.body', 'behind'],
    ['choreonoid/share/model/PA10/PA10.body', 'front'],
    ['choreonoid/share/model/HRP4C/HRP4C.body', 'front'],
  ] as const)('%s: the orbit view sees what range sensors see (eye %s the robot)', async (rel, side) => {
    // rviz's orbit eye sits at distance·(cos yaw·cos pitch, sin yaw·cos pitch, sin pitch) from the focal point:
    // behind the robot (−x) for robots whose clouds and scans lie ahead of them (+x), in front of it otherwise.
    const r = await run(runRviz, [join(corpusDir, rel)]);
    expect(r.status, r.stderr).toBe(0);
    const view = (parse(r.stdout) as { 'Visualization Manager': { Views: { Current: { Distance: number; Yaw: number; Pitch: number } } } })['Visualization Manager'].Views.Current;
    const eyeX = view.Distance * Math.cos(view.Yaw) * Math.cos(view.Pitch);
    if (side === 'behind') {
      expect(eyeX).toBeLessThan(0);
      expect(view.Distance).toBeGreaterThanOrEqual(4);
    } else expect(eyeX).toBeGreaterThan(0);
    expect(view.Pitch).toBeGreaterThan(0);
  });

  it('world_frame, free_root_frame (free roots only) and the naming conventions choose the fixed frame', async () => {
    const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
    const sr1 = join(corpusDir, 'openhrp3/sample/model/sample1.wrl');
    const fixed = async (file: string, args: string[]) => {
      const r = await run(runRviz, [file, ...args]);
      expect(r.status, r.stderr).toBe(0);
      return (parse(r.stdout) as { 'Visualization Manager': { 'Global Options': { 'Fixed Frame': string } } })['Visualization Manager']['Global Options']['Fixed Frame'];
    };
    expect(await fixed(pa10, ['--world-frame', 'world'])).toBe('world');
    expect(await fixed(pa10, ['--free-root-frame', 'world'])).toBe(await urdfRoot(pa10)); // PA10's root is fixed
    expect(await fixed(sr1, ['--free-root-frame', 'odom', '--frame-prefix', 'a/'])).toBe('a/odom');
    expect(await fixed(sr1, ['--link-names', 'model'])).toBe(await urdfRoot(sr1, ['--link-names', 'model']));
  });

  it("--planning-scene: MoveIt's obstacles drawn from the node's latched markers, under its namespace; none without it", async () => {
    const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
    const displays = async (args: string[]): Promise<Display[]> => (parse((await run(runRviz, [pa10, ...args])).stdout) as { 'Visualization Manager': { Displays: Display[] } })['Visualization Manager'].Displays;
    const scene = (await displays(['--planning-scene', '--namespace', '/r1'])).filter((d) => d.Class === 'rviz_default_plugins/MarkerArray');
    expect(scene).toHaveLength(1);
    // What the node publishes: reliable, transient local (a later rviz2 gets the last drawing), relative to its namespace.
    expect(scene[0]!.Topic).toMatchObject({ Value: '/r1/planning_scene_markers', 'Reliability Policy': 'Reliable', 'Durability Policy': 'Transient Local' });
    expect(sceneMarkersQoS).toMatchObject({ reliability: 'reliable', durability: 'transient_local' });
    expect((await displays([])).filter((d) => d.Class === 'rviz_default_plugins/MarkerArray')).toEqual([]);
  });

  it('--placement: the view looks at the robot where it stands, from the same side of it as for the robot alone', async () => {
    const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
    type View = { Distance: number; Yaw: number; Pitch: number; 'Focal Point': { X: number; Y: number; Z: number } };
    const viewOf = async (args: string[]): Promise<View> => {
      const r = await run(runRviz, [pa10, ...args]);
      expect(r.status, r.stderr).toBe(0);
      return (parse(r.stdout) as { 'Visualization Manager': { Views: { Current: View } } })['Visualization Manager'].Views.Current;
    };
    const eye = (v: View): number[] => [
      v['Focal Point'].X + v.Distance * Math.cos(v.Yaw) * Math.cos(v.Pitch),
      v['Focal Point'].Y + v.Distance * Math.sin(v.Yaw) * Math.cos(v.Pitch),
      v['Focal Point'].Z + v.Distance * Math.sin(v.Pitch),
    ];
    const alone = await viewOf([]);
    // At (2, −1, 0.5), turned 90° about z: the eye is where the lone robot's eye is, turned and carried with it.
    const s = Math.SQRT1_2;
    const placed = await viewOf(['--world-frame', 'world', '--placement', `2,-1,0.5,0,0,${s},${s}`]);
    expect(placed['Focal Point']).toEqual({ X: 2, Y: -1, Z: 0.5 });
    const [ax, ay, az] = eye(alone);
    const expected = [2 - ay, -1 + ax, 0.5 + az];
    eye(placed).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 2));
    for (const bad of ['1,2,3', '1,2,3,0,0,0,0', 'a,b,c,d,e,f,g']) expect((await run(runRviz, [pa10, '--placement', bad])).status, bad).toBe(2);
    // A free root drives through the world: the camera follows its root frame, from behind (its heading 30°).
    const rover = join(projectRoot, 'test/models/roles/mobile-manipulator.body');
    const r = await run(runRviz, [rover, '--world-frame', 'world', '--frame-prefix', 'r1/', '--placement=-0.5,-0.3,0.08,0,0,0.258819,0.965926']);
    expect(r.status, r.stderr).toBe(0);
    const followed = (parse(r.stdout) as { 'Visualization Manager': { Views: { Current: View & { 'Target Frame': string } } } })['Visualization Manager'].Views.Current;
    expect(followed['Target Frame']).toBe('r1/Chassis');
    expect(followed['Focal Point']).toEqual({ X: 0, Y: 0, Z: 0 });
    // The eye's direction from the robot is its heading turned half round.
    expect(followed.Yaw).toBeCloseTo(Math.PI + Math.PI / 6, 3);
  });

  it('remaps apply by relative or resolved name; bad options are usage errors; -o writes the file', async () => {
    const tank = join(corpusDir, 'choreonoid/share/model/Tank/Tank.body');
    const r = await run(runRviz, [tank, '--namespace', '/r1/', '--remap', 'Kinect/points:=cloud', '--remap', '/r1/robot_description:=/desc']);
    const topics = (parse(r.stdout) as { 'Visualization Manager': { Displays: Display[] } })['Visualization Manager'].Displays.map(
      (d) => (d.Topic ?? d['Description Topic'])?.Value,
    );
    expect(topics).toEqual(expect.arrayContaining(['/r1/cloud', '/desc', '/r1/Kinect/image_raw']));
    expect(topics).not.toContain('/r1/Kinect/points');
    expect((await run(runRviz, [tank, '--remap', 'nonsense'])).status).toBe(2);
    expect((await run(runRviz, [tank, '--frame-prefix', 'a b'])).status).toBe(2);
    const out = join(work, 'tank.rviz');
    const w = await run(runRviz, [tank, '-o', out]);
    expect(w.status).toBe(0);
    expect(w.stderr).toMatch(/wrote .*tank\.rviz: fixed frame CHASSIS, \d+ displays/);
  });

  // rcl_resolve_name: a relative name is joined to the namespace; an absolute one is kept.
  it.each([
    ['robot_description', '', '/robot_description'],
    ['robot_description', '/', '/robot_description'],
    ['Kinect/points', 'r1', '/r1/Kinect/points'],
    ['Kinect/points', '/a/b/', '/a/b/Kinect/points'],
    ['/tf', '/r1', '/tf'],
  ])('resolveTopic(%s, %s) = %s', (name, ns, expected) => {
    expect(resolveTopic(name, ns)).toBe(expected);
  });
});
