// What `body-bridge control --project` does so that choreonoid_ros can serve the body and the body starts where it
// can stand (issue 37, the corpus sweep): a body item name rclcpp takes as a node name, names for the nameless devices
// BodyROS2Item would publish, a free body lifted out of the floor — and body_bridge's parameters that keep the node's
// topics and world placement matching them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { loadRobotModel } from '../src/load.js';
import { deviceNamingScript, simulationBodyItemName, simulationProject } from '../src/project/simulation-project.js';
import { identity3 } from '../src/model/math.js';
import { FLOOR_CLEARANCE, floorLift } from '../src/roles/ground.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

interface Item {
  name: string;
  class: string;
  data?: Record<string, unknown>;
  children?: Item[];
}
const all = (i: Item): Item[] => [i, ...(i.children ?? []).flatMap(all)];
const itemsOf = (text: string): Item[] => all((parse(text) as { items: Item }).items);
const model = (path: string): string => join(corpusDir, path);

/** rclcpp's rule for a node name (rmw_validate_node_name): letters, digits, '_', the first not a digit. */
const rclcppTakes = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);

describe('simulationBodyItemName: a body item BodyROS2Item can name its node after (its name, - made _)', () => {
  it.each([
    ['PA10', 'PA10'],
    ['HRP-4C', 'HRP-4C'], // BodyROS2Item makes it HRP_4C: taken as it is
    ['2F-85', '_2F-85'], // "2F_85": "node name must not start with a number"
    ['my robot.v2', 'my_robot_v2'],
    ['', 'body'],
  ])('%j → %j', (name, item) => {
    expect(simulationBodyItemName(name)).toBe(item);
    expect(rclcppTakes(item.replace(/-/g, '_'))).toBe(true);
  });
});

describe('deviceNamingScript, run with a stand-in for Choreonoid\'s Python API', () => {
  const dir = scratchDir('bb-device-names-');
  // cnoid.Base.RootItem.instance.getDescendantItems(BodyItem) → items with .name and .body; a body's devices by index.
  const fakeCnoid = `
import sys, types, json
class Device:
    def __init__(self, typeName, name): self.typeName = typeName; self.name = name
    def setName(self, name): self.name = name
class Body:
    def __init__(self, devices): self.devices = devices
    @property
    def numDevices(self): return len(self.devices)
    def device(self, i): return self.devices[i]
class BodyItem:
    def __init__(self, name, body): self.name = name; self.body = body
ITEMS = [BodyItem("Other", Body([Device("ForceSensor", "")])), BodyItem("HRP-4C", Body([Device("ForceSensor", "rfsensor"), Device("AccelerationSensor", ""), Device("RateGyroSensor", ""), Device("Camera", "")]))]
class RootItem:
    pass
class Root:
    def getDescendantItems(self, cls): return ITEMS
RootItem.instance = Root()
base = types.ModuleType("cnoid.Base"); base.RootItem = RootItem
plugin = types.ModuleType("cnoid.BodyPlugin"); plugin.BodyItem = BodyItem
sys.modules["cnoid"] = types.ModuleType("cnoid"); sys.modules["cnoid.Base"] = base; sys.modules["cnoid.BodyPlugin"] = plugin
exec(open(sys.argv[1]).read())
print(json.dumps([[[d.typeName, d.name] for d in i.body.devices] for i in ITEMS]))
`;
  it('names the nameless devices of that item by index and type; a device not as expected stays as it is, said so', () => {
    const script = join(dir, 'name_devices.py');
    writeFileSync(
      script,
      deviceNamingScript('HRP-4C', [
        { index: 1, type: 'AccelerationSensor', name: 'WAIST_AccelerationSensor' },
        { index: 2, type: 'RateGyroSensor', name: 'WAIST_RateGyroSensor' },
        { index: 0, type: 'ForceSensor', name: 'not_this' }, // named already
        { index: 3, type: 'RangeCamera', name: 'nor_this' }, // another type
        { index: 9, type: 'Imu', name: 'none' }, // no such device
      ]),
    );
    writeFileSync(join(dir, 'run.py'), fakeCnoid);
    const out = execFileSync('python3', [join(dir, 'run.py'), script], { encoding: 'utf8' }).trim().split('\n');
    expect(JSON.parse(out.at(-1)!)).toEqual([
      [['ForceSensor', '']],
      [['ForceSensor', 'rfsensor'], ['AccelerationSensor', 'WAIST_AccelerationSensor'], ['RateGyroSensor', 'WAIST_RateGyroSensor'], ['Camera', '']],
    ]);
    expect(out.slice(0, -1)).toEqual([
      'body_bridge: device 0 of HRP-4C is not a nameless ForceSensor: left as it is',
      'body_bridge: device 3 of HRP-4C is not a nameless RangeCamera: left as it is',
      'body_bridge: device 9 of HRP-4C is not a nameless Imu: left as it is',
    ]);
  });

  it('in the project: a PythonScriptItem under the body, run as the project loads, in the foreground', () => {
    const text = simulationProject({ modelFile: '/m.body', bodyName: 'M', fixedRoot: false, rootPose: { translation: [0, 0, 1], rotation: identity3() }, namespace: '', timeStep: 0.001, deviceNamingScript: '/out/name_devices.py' });
    const body = itemsOf(text).find((i) => i.class === 'BodyItem')!;
    expect(body.children!.map((c) => c.class)).toEqual(['BodyROS2Item', 'ROS2ControlItem', 'PythonScriptItem']);
    expect(body.children![2]!.data).toEqual({ file: '/out/name_devices.py', executionOnLoading: true, backgroundExecution: false });
  });
});

describe('floorLift: a free body out of the floor', () => {
  it.each([
    // HandyRockDrill.body: root at z = 0; PUSHER at -0.3, its capsule 0.3 lower, radius 0.1 turned upright → bottom -0.7.
    ['choreonoid/share/model/misc/HandyRockDrill.body', 0.7 + FLOOR_CLEARANCE],
    // HRP4C.body's soles stand 0.15 mm into the floor (WAIST at z = 0.784): left, within the clearance.
    ['choreonoid/share/model/HRP4C/HRP4C.body', 0],
    // TankBody.body (the chassis Tank.body puts on its tracks): CHASSIS at z = 0.11, its 0.1 m-high box the lowest
    // (its bevels, 0.03881 × 0.01 turned 15° at z ∓ 0.04, reach 0.0601): 0.06 m up, set down to 1 mm.
    ['choreonoid/share/model/Tank/TankBody.body', -(0.11 - 0.1 / 2) + FLOOR_CLEARANCE],
    // SR1.body's soles 5 mm up (WAIST 0.7135, as Choreonoid's own projects start it): left to drop, within FLOOR_DROP.
    ['choreonoid/share/model/SR1/SR1.body', 0],
    // The cart's wheels (radius 0.08) stand on the floor with the root at z = 0.08: nothing to lift.
  ])('%s: %f m', (file, lift) => {
    expect(floorLift(loadRobotModel(model(file)))).toBeCloseTo(lift, 4);
  });

  it('test/models/control/cart.body: 0 m', () => expect(floorLift(loadRobotModel(join(projectRoot, 'test/models/control/cart.body')))).toBe(0));
});

describe('body-bridge control --project: the names and the placement, and the node\'s parameters that match them', () => {
  const dir = scratchDir('bb-control-names-');
  const run = async (file: string, name: string): Promise<{ err: string; out: string; items: Item[]; params: Record<string, unknown> | null }> => {
    const out = join(dir, name);
    mkdirSync(out, { recursive: true });
    let err = '';
    const code = await runCli(['control', file, '-o', out, '--project', '--samples', '5'], { stdout: () => undefined, stderr: (t) => (err += t), env: process.env });
    expect(code, err).toBe(0);
    const paramsFile = join(out, 'body_bridge.params.yaml');
    const params = existsSync(paramsFile) ? (parse(readFileSync(paramsFile, 'utf8')) as { '/**': { ros__parameters: Record<string, unknown> } })['/**'].ros__parameters : null;
    return { err, out, items: itemsOf(readFileSync(join(out, 'simulation.cnoid'), 'utf8')), params };
  };

  it('2F-85: the item _2F-85, BodyROS2Item\'s node /_2F_85, where the node reads the devices', async () => {
    const r = await run(model('choreonoid/share/model/Robotiq/2F-85.body'), 'robotiq');
    expect(r.items.find((i) => i.class === 'BodyItem')!.name).toBe('_2F-85');
    expect(r.params).toEqual({ device_input_namespace: '/_2F_85' });
    expect(r.err).toMatch(/the body item is named "_2F-85", not "2F-85"/);
  });

  it('HRP4C: its AccelerationSensor and RateGyroSensor (WAIST, no name) named after their frames, which the node reads there', async () => {
    const r = await run(model('choreonoid/share/model/HRP4C/HRP4C.body'), 'hrp4c');
    const body = r.items.find((i) => i.class === 'BodyItem')!;
    expect(body.name).toBe('HRP-4C');
    expect(body.children!.find((c) => c.class === 'PythonScriptItem')!.data!.file).toBe(join(r.out, 'name_devices.py'));
    const script = readFileSync(join(r.out, 'name_devices.py'), 'utf8');
    const hrp = loadRobotModel(model('choreonoid/share/model/HRP4C/HRP4C.body'));
    const accel = hrp.devices.findIndex((d) => d.type === 'AccelerationSensor' && d.name === '');
    const gyro = hrp.devices.findIndex((d) => d.type === 'RateGyroSensor' && d.name === '');
    expect(script).toContain(`(${accel}, "AccelerationSensor", "WAIST_AccelerationSensor"),`);
    expect(script).toContain(`(${gyro}, "RateGyroSensor", "WAIST_RateGyroSensor"),`);
    // BodyROS2Item's topics are <node>/<device name>, its node HRP_4C (choreonoid_ros getROS2Name).
    expect(r.params).toEqual({ device_input_topics: ['WAIST_AccelerationSensor=/HRP_4C/WAIST_AccelerationSensor', 'WAIST_RateGyroSensor=/HRP_4C/WAIST_RateGyroSensor'] });
    // Its soles 0.15 mm into the floor: where the model puts it (WAIST at z = 0.784).
    expect(body.data).toMatchObject({ root_translation: [0, 0, 0.784] });
  });

  it('HandyRockDrill: lifted 0.701 m, said so, and body_bridge places world → BASE there', async () => {
    const r = await run(model('choreonoid/share/model/misc/HandyRockDrill.body'), 'drill');
    expect(r.items.find((i) => i.class === 'BodyItem')!.data).toMatchObject({ fix_root: false, root_translation: [0, 0, 0.701], initial_root_translation: [0, 0, 0.701] });
    expect(r.err).toMatch(/the free body starts 0\.7010 m above its model pose \(root at z = 0\.7010 m\)/);
    expect(r.params).toEqual({ placement_frame: 'world', placement: [0, 0, 0.701, 0, 0, 0, 1], free_root_frame: '' });
  });

  it('TankBody: set down 0.059 m onto the floor, said so, and body_bridge places world → CHASSIS there', async () => {
    const r = await run(model('choreonoid/share/model/Tank/TankBody.body'), 'tank');
    const data = r.items.find((i) => i.class === 'BodyItem')!.data!;
    (data.root_translation as number[]).forEach((v, i) => expect(v).toBeCloseTo([0, 0, 0.051][i]!, 6));
    expect(r.err).toMatch(/the free body starts 0\.0590 m below its model pose \(root at z = 0\.0510 m\), so that its lowest collision geometry rests on the floor instead of dropping onto it/);
    expect(r.params).toMatchObject({ placement_frame: 'world', free_root_frame: '' });
    (r.params!.placement as number[]).forEach((v, i) => expect(v).toBeCloseTo([0, 0, 0.051, 0, 0, 0, 1][i]!, 6));
  });

  it('ContinuousTrackVehicle: lifted, and driven: world → odom where the lifted body starts (REP-105), its odometry from there', async () => {
    const r = await run(model('choreonoid/share/model/misc/ContinuousTrackVehicle.body'), 'ctv');
    const translation = r.items.find((i) => i.class === 'BodyItem')!.data!.root_translation as number[];
    expect(translation[2]!).toBeGreaterThan(0.4);
    expect(r.params).toMatchObject({ placement_frame: 'world', placement_odom_frame: 'odom', free_root_frame: '' });
    // The same pose as the project's (the item's rotation is the identity here).
    (r.params!.placement as number[]).slice(0, 3).forEach((v, i) => expect(v).toBeCloseTo(translation[i]!, 4));
  });

  it('PA10: nothing to change, no parameters file; the cart only its world (a driven base)', async () => {
    const cart = await run(join(projectRoot, 'test/models/control/cart.body'), 'cart');
    expect(Object.keys(cart.params ?? {}).sort()).toEqual(['free_root_frame', 'placement', 'placement_frame', 'placement_odom_frame', 'planning_robot', 'planning_scene_project', 'root_joint']);
    for (const [file, name] of [[model('choreonoid/share/model/PA10/PA10.body'), 'pa10']] as const) {
      const r = await run(file, name);
      expect(r.params).toBeNull();
      expect(existsSync(join(r.out, 'name_devices.py'))).toBe(false);
    }
  });

  it.each([
    // SR1-floor-box.body: the robot (WAIST) and the Box hang from the Floor root by free joints: it stands on its own floor.
    ['choreonoid/share/model/SR1/SR1-floor-box.body', true],
    // ContinuousTrackVehicle.body: each track's chain of shoes starts at a free joint (FOOT_L0, FOOT_R0), turned by the wheels.
    ['choreonoid/share/model/misc/ContinuousTrackVehicle.body', true],
    ['choreonoid/share/model/PA10/PA10.body', false],
    ['choreonoid/share/model/HRP4C/HRP4C.body', false],
  ])('%s: self-collision %s (a free joint below the root)', async (file, self) => {
    const r = await run(model(file), `self-${file.replace(/\W/g, '_')}`);
    expect(r.items.find((i) => i.class === 'BodyItem')!.data).toMatchObject({ self_collision_detection: self });
  });
});
