// The <ros2_control> block (src/control/ros2-control-block.ts, modes.ts): which command interface each
// joint gets, its min/max, the block as ros2_control's parser reads it, and URDFs carrying it still
// accepted by check_urdf, kdl_parser and sdformat. The node's robot_description with the parameter on.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlBlock } from '../src/control/config.js';
import { chooseModes, claimedInterface, parseJointMode, parseJointModes, velocityCounterpart } from '../src/control/modes.js';
import { HARDWARE_PLUGIN, commandLimits, ros2ControlBlock, ros2ControlElement, withRos2Control } from '../src/control/ros2-control-block.js';
import { loadRobotModel } from '../src/load.js';
import { defaultJoint } from '../src/model/joint.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { StringMsg } from '../src/messages/messages.js';
import { describeModel } from '../src/ros/description.js';
import { fileSignature } from '../src/ros/dry-run.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { startRobotPublisher } from '../src/ros/robot-publisher.js';
import { peerCodec } from './support/cdr-peer.js';
import { defaultParams, validateParam } from '../src/ros/params.js';
import { toUrdf } from '../src/urdf/index.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { parseWithRos2Control, readRos2Control, ros2ControlParserPeers } from './support/ros2-control-read.js';
import { readUrdf } from './support/moveit-live.js';
import { scratchDir } from './support/temp-dir.js';
import { checkUrdf, checkUrdfPeer, kdlJoints, kdlPeers, sdformatLoad, sdformatPeers } from './support/urdf-peers.js';

const cart = join(projectRoot, 'test/models/control/cart.body');
const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
const ur10 = join(corpusDir, 'choreonoid/share/model/UniversalRobots/UR10.body');

describe('modes', () => {
  it.each([
    ['position_pd', 'position', 'velocity_pd'],
    ['velocity_pd', 'velocity', 'velocity_pd'],
    ['position', 'position', 'velocity'],
    ['velocity', 'velocity', 'velocity'],
    ['effort', 'effort', 'effort'],
  ] as const)('%s: a controller claims %s; a drive wheel takes %s', (mode, claimed, wheel) => {
    expect(claimedInterface(mode)).toBe(claimed);
    expect(velocityCounterpart(mode)).toBe(wheel);
  });

  it('each joint: its override, else by its role — free joints effort, tracks velocity, wheels the default\'s velocity form — else the default; unknown overrides listed', () => {
    const r = (joint: string, role: string, actuated = true) => ({ joint, role, actuated });
    const roles = [r('a', 'arm'), r('b', 'arm'), r('w', 'drive_wheel'), r('v', 'drive_wheel'), r('c', 'caster', false), r('d', 'caster', false), r('t', 'track'), r('s', 'wheel')];
    const c = chooseModes(roles, 'position_pd', new Map([['b', 'effort'], ['v', 'velocity'], ['d', 'position'], ['ghost', 'position']]));
    expect(c.joints).toEqual([
      { joint: 'a', mode: 'position_pd', from: 'default' },
      { joint: 'b', mode: 'effort', from: 'override' },
      { joint: 'w', mode: 'velocity_pd', from: 'wheel' },
      { joint: 'v', mode: 'velocity', from: 'override' },
      { joint: 'c', mode: 'effort', from: 'passive' },
      { joint: 'd', mode: 'position', from: 'override' },
      { joint: 't', mode: 'velocity', from: 'track' },
      { joint: 's', mode: 'velocity_pd', from: 'wheel' },
    ]);
    expect(c.unknown).toEqual(['ghost']);
  });

  it.each([
    ['J1=position', ['J1', 'position']],
    [' J1 = velocity_pd ', ['J1', 'velocity_pd']],
    ['a=b=effort', ['a=b', 'effort']],
    ['J1', "'J1' is not JOINT=MODE"],
    ['=position', "'=position' is not JOINT=MODE"],
    ['J1=servo', "'J1=servo': 'servo' is not one of position, velocity, effort, position_pd, velocity_pd"],
  ])('parseJointMode(%j)', (entry, expected) => expect(parseJointMode(entry)).toEqual(expected));

  it('a joint given two modes is refused; the same mode twice is not', () => {
    expect(parseJointModes(['J1=position', 'J1=effort'])).toBe("joint 'J1' is given two modes (position, effort)");
    expect(parseJointModes(['J1=position', 'J1=position'])).toEqual(new Map([['J1', 'position']]));
  });
});

describe('min and max', () => {
  const j = { ...defaultJoint('j', 'revolute'), lower: -1, upper: 2, velocityLower: -3, velocityUpper: 3, effortLower: -40, effortUpper: 50 };
  it.each([
    ['position', j, [-1, 2]],
    ['velocity', j, [-3, 3]],
    ['effort', j, [-40, 50]],
    // Jazzy's parser reads min/max for position, velocity, effort only and complains about other names.
    ['position_pd', j, [null, null]],
    ['velocity_pd', j, [null, null]],
    ['position', { ...j, lower: -Infinity, upper: Infinity }, [null, null]],
    ['position', { ...j, lower: -Infinity }, [null, 2]],
    ['velocity', { ...j, velocityLower: -Infinity, velocityUpper: Infinity }, [null, null]],
  ] as const)('%s of %j', (mode, joint, expected) => expect(commandLimits(joint, mode)).toEqual(expected));
});

describe('the block', () => {
  const joints = [
    { joint: { ...defaultJoint('shoulder', 'revolute'), lower: -1.5, upper: 1.25 }, mode: 'position' as const },
    { joint: defaultJoint('wheel', 'revolute'), mode: 'velocity' as const },
    { joint: { ...defaultJoint('grip', 'prismatic'), lower: 0, upper: 0.04 }, mode: 'position_pd' as const },
  ];
  const block = ros2ControlBlock(ros2ControlElement('bot', joints, 'a -- comment'));

  it('as the parser reads it: one system with BodySystemInterface, one command interface per joint, three state interfaces', () => {
    const urdf = `<?xml version="1.0"?>\n<robot name="bot">\n${block}</robot>\n`;
    expect(readRos2Control(urdf)).toEqual([
      {
        name: 'bot',
        type: 'system',
        plugin: HARDWARE_PLUGIN,
        joints: [
          { name: 'shoulder', command: [{ name: 'position', min: '-1.5', max: '1.25' }], state: [{ name: 'position' }, { name: 'velocity' }, { name: 'effort' }] },
          { name: 'wheel', command: [{ name: 'velocity' }], state: [{ name: 'position' }, { name: 'velocity' }, { name: 'effort' }] },
          { name: 'grip', command: [{ name: 'position_pd' }], state: [{ name: 'position' }, { name: 'velocity' }, { name: 'effort' }] },
        ],
      },
    ]);
  });

  it('is indented as a child of <robot>, its comment escaped', () => {
    expect(block.startsWith('  <ros2_control name="bot" type="system">\n')).toBe(true);
    expect(block).toContain('<!-- a - - comment -->');
    expect(block).toContain(`      <plugin>${HARDWARE_PLUGIN}</plugin>\n`);
  });

  it('is spliced in as the last child of <robot>; a text without </robot> at its end is refused', () => {
    const urdf = '<?xml version="1.0"?>\n<robot name="bot">\n  <link name="a"/>\n</robot>\n';
    expect(withRos2Control(urdf, block)).toBe(`<?xml version="1.0"?>\n<robot name="bot">\n  <link name="a"/>\n${block}</robot>\n`);
    expect(() => withRos2Control('<robot name="x"/>', block)).toThrow(/does not end with <\/robot>/);
    expect(() => withRos2Control('<robot></robot><!-- after -->', block)).toThrow(/does not end with <\/robot>/);
  });

  it('the reader used above refuses what the parser refuses', () => {
    expect(() => readRos2Control('<robot><ros2_control name="x" type="system"><hardwar/></ros2_control></robot>')).toThrow(/invalid tag name hardwar/);
    expect(() => readRos2Control('<robot><ros2_control name="x" type="system"><hardware/></ros2_control></robot>')).toThrow(/Missing <plugin>/);
    expect(() => readRos2Control('<robot><ros2_control type="system"/></robot>')).toThrow(/no attribute name/);
  });
});

describe('for corpus robots and the cart', () => {
  const dir = scratchDir('bb-control-block-');
  const cases = [
    { file: pa10, mode: 'position_pd' as const, expected: { J1: 'position_pd', HAND_L: 'position_pd' } },
    { file: ur10, mode: 'position' as const, expected: { SHOULDER: 'position', WRIST3: 'position' } },
    { file: cart, mode: 'position_pd' as const, expected: { LeftWheel: 'velocity_pd', RightWheel: 'velocity_pd' } },
    // Pseudo continuous tracks: the block names them by their joint names, which the URDF gives the tracks' surfaces.
    // sdformat refuses SimpleTank's chassis inertia, the model's own data (urdf-ecosystem.test.ts says which): not judged there.
    { file: join(corpusDir, 'choreonoid/share/model/Tank/SimpleTank.body'), mode: 'position_pd' as const, expected: { TRACK_L: 'velocity', TRACK_R: 'velocity' }, sdformat: false },
    { file: join(projectRoot, 'test/models/roles/tracked-pantilt.body'), mode: 'position_pd' as const, expected: { LeftTrack: 'velocity', RightTrack: 'velocity', PanJoint: 'position_pd' } },
  ];
  const urdfs = cases.map(({ file, mode }) => {
    const { model } = applyRosConventions(loadRobotModel(file));
    const result = toUrdf(model, { meshDir: join(dir, 'meshes') });
    const block = controlBlock(model, mode);
    const path = join(dir, `${model.name}.urdf`);
    writeFileSync(path, withRos2Control(result.xml, block.xml));
    return { path, model, block, xml: withRos2Control(result.xml, block.xml) };
  });

  it.each(cases.map((c, i) => [c.file.split('/').pop()!, i] as const))('%s: every moving joint and track of the model once, with its mode', (_, i) => {
    const { model, xml } = urdfs[i]!;
    const [hw] = readRos2Control(xml);
    const driven = (t: string): boolean => t === 'revolute' || t === 'prismatic' || t === 'pseudo_continuous_track';
    const moving = model.links.filter((l) => l.parent !== null && driven(l.joint.type)).map((l) => l.joint.name);
    expect([...hw!.joints.map((j) => j.name)].sort()).toEqual([...moving].sort());
    const modes = Object.fromEntries(hw!.joints.map((j) => [j.name, j.command.map((c) => c.name).join(',')]));
    expect(modes).toMatchObject(cases[i]!.expected);
    expect(hw!.name).toBe(model.name);
  });

  // Jazzy's hardware_interface (component_parser.cpp) refuses a joint of the block that the URDF lacks or makes
  // fixed; Humble's parser does not check, so the rule is checked here on the URDF itself, for every case.
  it.each(cases.map((c, i) => [c.file.split('/').pop()!, i] as const))('%s: every joint the block names is a joint of the URDF that is not fixed', (_, i) => {
    const { xml } = urdfs[i]!;
    const [hw] = readRos2Control(xml);
    const urdfJoints = readUrdf(xml).joints;
    for (const j of hw!.joints) expect([j.name, urdfJoints.get(j.name)?.type]).toEqual([j.name, expect.stringMatching(/^(revolute|continuous|prismatic)$/)]);
  });

  it.skipIf(skipWithout(...ros2ControlParserPeers()))("ros2_control's own parser reads the blocks exactly as the tests' reader does", () => {
    for (const u of urdfs) expect(parseWithRos2Control(u.path), u.path).toEqual(readRos2Control(u.xml));
    // And it refuses what the reader refuses.
    const bad = join(dir, 'bad.urdf');
    writeFileSync(bad, urdfs[0]!.xml.replace('<hardware>', '<hardwar>').replace('</hardware>', '</hardwar>'));
    expect(() => parseWithRos2Control(bad)).toThrow(/invalid tag name '?hardwar'?$/); // Jazzy's parser quotes the name
    expect(() => readRos2Control(readFileSync(bad, 'utf8'))).toThrow(/invalid tag name hardwar/);
  });

  it.skipIf(skipWithout(checkUrdfPeer()))('check_urdf accepts the URDFs with the block', () => {
    for (const u of urdfs) expect(checkUrdf(u.path), u.path).toMatchObject({ ok: true });
  });

  it.skipIf(skipWithout(...kdlPeers()))('kdl_parser reads them with every joint', () => {
    for (const u of urdfs) {
      const joints = kdlJoints(u.path);
      for (const l of u.model.links.slice(1)) expect(joints.has(l.joint.name), `${u.path}: ${l.joint.name}`).toBe(true);
    }
  });

  it.skipIf(skipWithout(...sdformatPeers()))('sdformat converts them without an error', () => {
    const judged = urdfs.filter((_, i) => (cases[i] as { sdformat?: boolean }).sdformat !== false);
    const loads = sdformatLoad(judged.map((u) => u.path));
    for (const u of judged) expect(loads.get(u.path)?.errors, u.path).toEqual([]);
  });
});

describe('the node', () => {
  const meshDir = scratchDir('bb-control-node-');
  it('validates ros2_control and ros2_control_joint_modes with reasons', () => {
    expect(validateParam('ros2_control', '')).toBeNull();
    expect(validateParam('ros2_control', 'velocity_pd')).toBeNull();
    expect(validateParam('ros2_control', 'pd')).toBe("ros2_control must be '' (none) or one of position, velocity, effort, position_pd, velocity_pd (got 'pd')");
    expect(validateParam('ros2_control_joint_modes', ['J1=effort'])).toBeNull();
    expect(validateParam('ros2_control_joint_modes', ['J1'])).toBe("ros2_control_joint_modes: 'J1' is not JOINT=MODE");
    expect(validateParam('ros2_control_joint_modes', ['J1=effort', 'J1=position'])).toMatch(/two modes/);
  });

  it('robot_description carries the block exactly as body-bridge urdf --ros2-control writes it; unknown joints are warned about', () => {
    const { model } = applyRosConventions(loadRobotModel(pa10));
    const plain = describeModel(model, defaultParams(), process.env, false);
    expect(plain.xml).not.toContain('<ros2_control');
    const params = { ...defaultParams(), ros2_control: 'position_pd', ros2_control_joint_modes: ['J7=effort', 'J9=position'] };
    const served = describeModel(model, params, process.env, false);
    const expected = controlBlock(model, 'position_pd', new Map([['J7', 'effort'], ['J9', 'position']]));
    expect(served.xml).toBe(withRos2Control(plain.xml, expected.xml));
    expect(readRos2Control(served.xml)[0]!.joints.find((j) => j.name === 'J7')!.command[0]!.name).toBe('effort');
    expect(served.warnings.map((w) => w.message)).toContain("ros2_control_joint_modes names 'J9', which is not a moving joint of PA10; ignored");
  });

  it('follows parameter changes and reloads: off → on republishes with the block, a bad mode is refused, a joint mode changes it', () => {
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: cart, mesh_dir: meshDir, publish_joint_states: false, watch_body_file: false },
    );
    const descriptions = (): string[] => transport.messages<StringMsg>('robot_description').map((m) => m.data);
    expect(descriptions()).toHaveLength(1);
    expect(descriptions()[0]).not.toContain('<ros2_control');
    expect(bridge.setParams({ ros2_control: 'position_pd' })).toEqual({ successful: true, reason: '' });
    expect(readRos2Control(descriptions()[1]!)[0]!.joints.map((j) => j.command[0]!.name)).toEqual(['velocity_pd', 'velocity_pd']);
    expect(bridge.setParams({ ros2_control: 'servo' })).toMatchObject({ successful: false, reason: expect.stringMatching(/ros2_control must be/) });
    expect(bridge.setParams({ ros2_control_joint_modes: ['RightWheel=effort'] }).successful).toBe(true);
    expect(readRos2Control(descriptions()[2]!)[0]!.joints.map((j) => j.command[0]!.name)).toEqual(['velocity_pd', 'effort']);
    expect(bridge.reload()).toBe(true);
    expect(descriptions()).toHaveLength(3); // the same description: not published again
    expect(bridge.setParams({ ros2_control: '' }).successful).toBe(true);
    expect(descriptions()[3]).not.toContain('<ros2_control');
    bridge.stop();
  });

  it('roles_file: the block follows the file\'s roles; a wrong file keeps the last good model, located; fixed, it is picked up', () => {
    const roles = join(meshDir, 'roles.yaml');
    writeFileSync(roles, 'LeftWheel: passive\n');
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: cart, mesh_dir: meshDir, publish_joint_states: false, watch_body_file: false, ros2_control: 'position_pd', roles_file: roles },
    );
    const descriptions = (): string[] => transport.messages<StringMsg>('robot_description').map((m) => m.data);
    const modes = (xml: string): string[] => readRos2Control(xml)[0]!.joints.map((j) => `${j.name}=${j.command[0]!.name}`);
    // A wheel made passive is free (effort); the other, left without a partner, is commanded on its own in velocity.
    expect(modes(descriptions()[0]!)).toEqual(['LeftWheel=effort', 'RightWheel=velocity_pd']);
    writeFileSync(roles, 'LeftWheel: passive\nLeftWhel: wheel\n');
    expect(bridge.reload()).toBe(false);
    expect(descriptions()).toHaveLength(1);
    writeFileSync(roles, 'LeftWheel: drive_wheel\n');
    expect(bridge.reload()).toBe(true);
    expect(modes(descriptions()[1]!)).toEqual(['LeftWheel=velocity_pd', 'RightWheel=velocity_pd']);
    bridge.stop();
  });
});
