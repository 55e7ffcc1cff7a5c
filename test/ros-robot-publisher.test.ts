// The node's behaviour on the in-memory transport: robot_state_publisher's rules for joint_states
// (throttling, ignore_timestamp, time going backwards, bad messages), frame_prefix, parameters,
// the initial-position publisher, hot reload and the device relay's life cycle.
import { mkdtempSync, rmSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jointPose } from '../src/kinematics/forward.js';
import { failAt } from '../src/model/errors.js';
import type { RobotModel } from '../src/model/types.js';
import { fileSignature } from '../src/ros/dry-run.js';
import { MessageType, type JointState, type StringMsg, type TFMessage } from '../src/messages/messages.js';
import { paramSpecs, validateParam } from '../src/ros/params.js';
import { qosMismatch } from '../src/ros/qos.js';
import type { QoS } from '../src/ros/transport.js';
import { peerEncode } from './support/cdr-peer.js';
import { checkMessage } from './support/msgcheck.js';
import { joint, link, pose, sampleRobot } from './support/urdf-models.js';
import { at, jointState, poseError, rig, transformToPose } from './support/ros-rig.js';

const T0 = 2000;
/** Moves the clock to T0 + ms and delivers a joint_states message stamped with that time. */
function sendAt(r: ReturnType<typeof rig>, ms: number, names: string[], positions?: number[]): void {
  const stamp = at(T0 + Math.floor(ms / 1000), (ms % 1000) * 1_000_000);
  r.transport.setTime(stamp);
  r.transport.inject('joint_states', jointState(stamp, names, positions ?? names.map(() => 0.1)));
}
const tfCount = (r: ReturnType<typeof rig>): number => r.transport.messages('/tf').length;
const lastTf = (r: ReturnType<typeof rig>): TFMessage => r.transport.last<TFMessage>('/tf')!;

describe('publication', () => {
  it('robot_description once, reliable + transient local depth 1; joint_states subscribed best effort; /tf and /tf_static as tf2_ros', () => {
    const r = rig(sampleRobot());
    expect(r.transport.messages<StringMsg>('robot_description')).toEqual([{ data: '<robot name="sample"/>' }]);
    const topics = r.transport.topics();
    const find = (topic: string, direction: string) => topics.find((t) => t.topic === topic && t.direction === direction);
    expect(find('robot_description', 'publish')).toMatchObject({ type: 'std_msgs/msg/String', qos: { reliability: 'reliable', durability: 'transient_local', depth: 1 } });
    expect(find('/tf_static', 'publish')).toMatchObject({ type: 'tf2_msgs/msg/TFMessage', qos: { reliability: 'reliable', durability: 'transient_local', depth: 1 } });
    expect(find('/tf', 'publish')).toMatchObject({ type: 'tf2_msgs/msg/TFMessage', qos: { reliability: 'reliable', durability: 'volatile' } });
    // Best effort matches reliable and best-effort publishers alike (rclcpp::SensorDataQoS, as robot_state_publisher).
    expect(find('joint_states', 'subscribe')).toMatchObject({ type: 'sensor_msgs/msg/JointState', qos: { reliability: 'best_effort', durability: 'volatile' } });
    expect(checkMessage(MessageType.String, r.transport.last('robot_description'))).toEqual([]);
    // publish_joint_states is off here: the node does not advertise joint_states at all.
    expect(find('joint_states', 'publish')).toBeUndefined();
  });

  it('QoS: joint_states reaches the node from reliable and best-effort publishers; latched topics reach transient-local subscribers', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    const offers: QoS[] = [
      { reliability: 'best_effort', durability: 'volatile', depth: 1 },
      { reliability: 'reliable', durability: 'volatile', depth: 10 },
      { reliability: 'reliable', durability: 'transient_local', depth: 1 },
    ];
    offers.forEach((qos, k) => {
      expect(r.transport.inject('joint_states', jointState(at(T0 + k), ['shoulder'], [0.1]), qos), JSON.stringify(qos)).toBe(1);
    });
    expect(tfCount(r)).toBe(3);
    const find = (topic: string) => r.transport.topics().find((t) => t.topic === topic && t.direction === 'publish')!.qos;
    // rviz's RobotModel and joint_state_publisher subscribe to robot_description reliable + transient local;
    // tf2's static listener subscribes to /tf_static reliable + transient local.
    const latchedSub: QoS = { reliability: 'reliable', durability: 'transient_local', depth: 1 };
    expect(qosMismatch(find('robot_description'), latchedSub)).toBeNull();
    expect(qosMismatch(find('/tf_static'), latchedSub)).toBeNull();
    expect(qosMismatch(find('/tf'), { reliability: 'reliable', durability: 'volatile', depth: 100 })).toBeNull();
    // The check can say no: a reliable subscription would not hear a best-effort publisher.
    expect(qosMismatch(offers[0]!, { reliability: 'reliable', durability: 'volatile', depth: 5 })).toMatch(/best effort/);
  });

  it('moving transforms carry the joint value, the message stamp and only the joints named', () => {
    const r = rig(sampleRobot());
    sendAt(r, 0, ['shoulder', 'slide'], [0.7, 0.15]);
    const tf = lastTf(r);
    expect(tf.transforms.map((t) => [t.header.frame_id, t.child_frame_id])).toEqual([
      ['base', 'arm'],
      ['base', 'slider'],
    ]);
    expect(tf.transforms[0]!.header.stamp).toEqual(at(T0, 0));
    const model = sampleRobot();
    expect(poseError(transformToPose(tf.transforms[0]!), jointPose(model.links[1]!, 0.7))).toBeLessThan(1e-12);
    expect(poseError(transformToPose(tf.transforms[1]!), jointPose(model.links[3]!, 0.15))).toBeLessThan(1e-12);
    expect(checkMessage(MessageType.TFMessage, tf)).toEqual([]);
  });

  it('accepts joint_states as rclnodejs delivers them (positions in a Float64Array)', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    r.transport.inject('joint_states', { ...jointState(at(T0), ['shoulder'], []), position: Float64Array.of(0.4), velocity: new Float64Array(0) });
    expect(poseError(transformToPose(lastTf(r).transforms[0]!), jointPose(sampleRobot().links[1]!, 0.4))).toBeLessThan(1e-12);
  });

  it('frame_prefix goes on every frame id; changing it republishes /tf_static', () => {
    const r = rig(sampleRobot(), { frame_prefix: 'robot1/' });
    const statics = r.transport.last<TFMessage>('/tf_static')!;
    expect(statics.transforms.length).toBeGreaterThan(0);
    for (const t of statics.transforms) {
      expect(t.header.frame_id.startsWith('robot1/')).toBe(true);
      expect(t.child_frame_id.startsWith('robot1/')).toBe(true);
    }
    expect(statics.transforms.map((t) => t.child_frame_id)).toContain('robot1/head_camera_optical_frame');
    sendAt(r, 0, ['wheel_joint']);
    expect(lastTf(r).transforms[0]).toMatchObject({ header: { frame_id: 'robot1/arm' }, child_frame_id: 'robot1/wheel' });

    expect(r.bridge.setParams({ frame_prefix: 'robot2/' })).toEqual({ successful: true, reason: '' });
    const again = r.transport.messages<TFMessage>('/tf_static');
    expect(again).toHaveLength(2);
    expect(again[1]!.transforms.every((t) => t.child_frame_id.startsWith('robot2/'))).toBe(true);
    sendAt(r, 1000, ['wheel_joint']);
    expect(lastTf(r).transforms[0]!.child_frame_id).toBe('robot2/wheel');
  });

  it('world_frame: a fixed root hangs from it at its offset; a free root is left to a simulator', () => {
    const fixedRoot: RobotModel = {
      ...sampleRobot(),
      links: sampleRobot().links.map((l, i) => (i === 0 ? { ...l, joint: joint('base', 'fixed') } : l)),
    };
    const r = rig(fixedRoot, { world_frame: 'world' });
    const world = r.transport.last<TFMessage>('/tf_static')!.transforms.find((t) => t.header.frame_id === 'world')!;
    expect(world.child_frame_id).toBe('base');
    expect(poseError(transformToPose(world), fixedRoot.links[0]!.offset)).toBeLessThan(1e-12);

    const free = rig(sampleRobot(), { world_frame: 'world' });
    expect(free.transport.last<TFMessage>('/tf_static')!.transforms.some((t) => t.header.frame_id === 'world')).toBe(false);
    expect(free.transport.logs.some((l) => l.level === 'info' && /not publishing world -> base/.test(l.message))).toBe(true);
  });

  it('free_root_frame: a free root hangs from it at its initial pose on /tf_static (MoveIt virtual joint); a fixed root needs none (info); a taken name is refused with a warning', () => {
    const model = sampleRobot();
    const offset = model.links[0]!.offset;
    expect(offset.translation).not.toEqual([0, 0, 0]);
    const r = rig(model, { free_root_frame: 'world', frame_prefix: 'r1/' });
    const world = r.transport.last<TFMessage>('/tf_static')!.transforms.filter((t) => t.header.frame_id === 'r1/world');
    expect(world.map((t) => t.child_frame_id)).toEqual(['r1/base']);
    expect(poseError(transformToPose(world[0]!), offset)).toBeLessThan(1e-12);
    expect(r.transport.logs.some((l) => l.level === 'info' && /publishing world -> base on \/tf_static/.test(l.message))).toBe(true);
    // Turned off at run time: /tf_static goes out again without it.
    expect(r.bridge.setParams({ free_root_frame: '' }).successful).toBe(true);
    expect(r.transport.last<TFMessage>('/tf_static')!.transforms.some((t) => t.header.frame_id === 'r1/world')).toBe(false);

    const fixedRoot: RobotModel = { ...model, links: model.links.map((l, i) => (i === 0 ? { ...l, joint: joint('base', 'fixed') } : l)) };
    const fixed = rig(fixedRoot, { free_root_frame: 'world' });
    expect(fixed.transport.last<TFMessage>('/tf_static')!.transforms.some((t) => t.header.frame_id === 'world')).toBe(false);
    expect(fixed.transport.logs.some((l) => l.level === 'info' && /free_root_frame 'world' is not used: the root link 'base' is not free/.test(l.message))).toBe(true);
    const taken = rig(model, { free_root_frame: 'arm' });
    expect(taken.transport.logs.some((l) => l.level === 'warn' && /free_root_frame 'arm' is ignored: it is already a frame/.test(l.message))).toBe(true);
    expect(taken.transport.last<TFMessage>('/tf_static')!.transforms.some((t) => t.child_frame_id === 'base')).toBe(false);
    expect(validateParam('free_root_frame', 'a b')).toMatch(/may contain only/);
  });
});

describe("robot_state_publisher's joint_states rules", () => {
  it('publish_frequency 20 Hz: a joint is republished only 50 ms (floor(1000/f) ms) after its last publication', () => {
    const r = rig(sampleRobot());
    sendAt(r, 0, ['shoulder']);
    sendAt(r, 10, ['shoulder']);
    sendAt(r, 49, ['shoulder']);
    expect(tfCount(r)).toBe(1);
    sendAt(r, 50, ['shoulder']);
    expect(tfCount(r)).toBe(2);
    // A joint never published before goes out at once; a message goes out when its least recently
    // published joint is due, and then carries all of its joints.
    sendAt(r, 51, ['slide']);
    expect(tfCount(r)).toBe(3);
    sendAt(r, 60, ['shoulder', 'slide']);
    expect(tfCount(r)).toBe(3);
    sendAt(r, 100, ['shoulder', 'slide']);
    expect(tfCount(r)).toBe(4);
    expect(lastTf(r).transforms.map((t) => t.child_frame_id)).toEqual(['arm', 'slider']);
  });

  it('publish_frequency 3 Hz uses whole milliseconds (333 ms), and a run-time change applies to the next message', () => {
    const r = rig(sampleRobot(), { publish_frequency: 3 });
    sendAt(r, 0, ['shoulder']);
    sendAt(r, 332, ['shoulder']);
    expect(tfCount(r)).toBe(1);
    sendAt(r, 333, ['shoulder']);
    expect(tfCount(r)).toBe(2);
    expect(r.bridge.setParams({ publish_frequency: 1000 }).successful).toBe(true);
    sendAt(r, 334, ['shoulder']);
    expect(tfCount(r)).toBe(3);
  });

  it('publish_frequency 0 publishes every message; ignore_timestamp publishes even repeated stamps', () => {
    const zero = rig(sampleRobot(), { publish_frequency: 0 });
    for (let ms = 0; ms < 5; ms++) sendAt(zero, ms, ['shoulder']);
    expect(tfCount(zero)).toBe(5);
    const ignore = rig(sampleRobot(), { ignore_timestamp: true });
    for (let k = 0; k < 4; k++) sendAt(ignore, 0, ['shoulder']);
    expect(tfCount(ignore)).toBe(4);
  });

  it('time going backwards (a replayed bag) clears the timestamp cache and says so', () => {
    const r = rig(sampleRobot());
    sendAt(r, 0, ['shoulder']);
    sendAt(r, 10, ['shoulder']);
    expect(tfCount(r)).toBe(1);
    // The replay's first message: stamped in its own time, before every cached stamp, and published at once.
    r.transport.setTime(at(T0 - 1));
    const stamp = at(T0 - 1, 20_000_000);
    r.transport.inject('joint_states', jointState(stamp, ['shoulder'], [0.2]));
    expect(tfCount(r)).toBe(2);
    expect(lastTf(r).transforms[0]!.header.stamp).toEqual(stamp);
    expect(r.transport.logs.filter((l) => l.level === 'warn' && /Moved backwards in time/.test(l.message))).toHaveLength(1);
  });

  it('unknown joints are ignored, NaN/Inf positions skipped, the rest still published', () => {
    const r = rig(sampleRobot());
    sendAt(r, 0, ['nope', 'shoulder', 'slide', 'wheel_joint', 'tool'], [1, NaN, 0.1, Infinity, 0]);
    expect(lastTf(r).transforms.map((t) => t.child_frame_id)).toEqual(['slider']);
    const warnings = r.transport.logs.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings.some((w) => /unknown joint 'nope'/.test(w))).toBe(true);
    expect(warnings.some((w) => /'shoulder'.*NaN/.test(w))).toBe(true);
    expect(warnings.some((w) => /'wheel_joint'.*Infinity/.test(w))).toBe(true);
    // A fixed joint is a joint of the model: naming it is no error, it just has nothing to move.
    expect(warnings.some((w) => /'tool'/.test(w))).toBe(false);
  });

  it('name/position length mismatch drops the message (an error); an empty position list is a warning', () => {
    const r = rig(sampleRobot());
    sendAt(r, 0, ['shoulder', 'slide'], [0.1]);
    sendAt(r, 100, ['shoulder'], []);
    expect(tfCount(r)).toBe(0);
    expect(r.transport.logs.some((l) => l.level === 'error' && /2 names but 1 positions/.test(l.message))).toBe(true);
    expect(r.transport.logs.some((l) => l.level === 'warn' && /position member was empty/.test(l.message))).toBe(true);
  });

  it('repeated warnings are throttled to one per 5 s, counting what was held back; malformed messages never throw', () => {
    const r = rig(sampleRobot());
    for (let k = 0; k < 20; k++) sendAt(r, k * 100, ['ghost'], [0]);
    const ghost = () => r.transport.logs.filter((l) => /ghost/.test(l.message));
    expect(ghost()).toHaveLength(1);
    // Warnings are paced on wall time (setTime moves only the node clock).
    r.transport.advanceWall(5000);
    sendAt(r, 5000, ['ghost'], [0]);
    expect(ghost()).toHaveLength(2);
    expect(ghost()[1]!.message).toMatch(/19 more like this/);
    // joint_states arrive as CDR bytes: malformed ones are bytes that do not read as a JointState.
    const good = peerEncode(MessageType.JointState, jointState(at(T0 + 6), ['shoulder'], [0.1]));
    for (const bytes of [new Uint8Array(0), Uint8Array.of(0, 1, 0, 0, 7), good.subarray(0, good.length - 9), Uint8Array.of(0, 3, 0, 0, 1, 2, 3, 4)]) {
      expect(() => r.transport.inject('joint_states', bytes)).not.toThrow();
    }
    expect(r.transport.logs.filter((l) => /malformed JointState/.test(l.message))).toHaveLength(1);
  });
});

describe('initial joint positions (publish_joint_states)', () => {
  it('publishes every moving joint at 10 Hz with overrides, drives /tf, and stops when another node publishes', () => {
    const r = rig(sampleRobot(), { publish_joint_states: true, initial_joint_positions: ['slide=0.05'] });
    r.transport.advance(1000);
    const own = r.transport.messages<JointState>('joint_states');
    expect(own).toHaveLength(10);
    // The track too: its surface frame turns with it (docs/urdf.md), as joint_state_publisher would publish it.
    expect(own[0]!.name).toEqual(['shoulder', 'wheel_joint', 'slide', 'free_slide', 'track']);
    expect(own[0]!.position).toEqual([0.3, 0, 0.05, 0, 0]);
    for (const m of own) expect(checkMessage(MessageType.JointState, m)).toEqual([]);
    const tf = lastTf(r);
    const arm = tf.transforms.find((t) => t.child_frame_id === 'arm')!;
    expect(poseError(transformToPose(arm), jointPose(sampleRobot().links[1]!, 0.3))).toBeLessThan(1e-12);

    // Our own message coming back over ROS is not "another publisher".
    r.transport.inject('joint_states', own[own.length - 1]);
    r.transport.advance(200);
    expect(r.transport.messages('joint_states')).toHaveLength(12);

    sendAt(r, 0, ['shoulder'], [1.0]);
    const after = r.transport.messages('joint_states').length;
    r.transport.advance(1000);
    expect(r.transport.messages('joint_states')).toHaveLength(after);
    expect(r.transport.logs.some((l) => /another node publishes joint_states/.test(l.message))).toBe(true);
  });
});

describe('initial joint positions at run time', () => {
  it('a new initial_joint_positions applies to the next message without republishing the description', () => {
    const r = rig(sampleRobot(), { publish_joint_states: true });
    r.transport.advance(100);
    expect(r.bridge.setParams({ initial_joint_positions: ['wheel_joint=1.5', 'nope=1'] }).successful).toBe(true);
    r.transport.advance(100);
    const last = r.transport.last<JointState>('joint_states')!;
    expect(last.position).toEqual([0.3, 1.5, 0, 0, 0]);
    expect(r.transport.messages('robot_description')).toHaveLength(1);
    expect(r.transport.logs.some((l) => l.level === 'warn' && /'nope', which is not a moving joint/.test(l.message))).toBe(true);
    expect(r.bridge.setParams({ publish_joint_states: false }).successful).toBe(true);
    const count = r.transport.messages('joint_states').length;
    r.transport.advance(1000);
    expect(r.transport.messages('joint_states')).toHaveLength(count);
  });
});

describe('parameters', () => {
  it('refuses invalid values with a reason and keeps the old ones', () => {
    const r = rig(sampleRobot());
    const cases: [string, unknown, RegExp][] = [
      ['publish_frequency', 1500, /between 0 and 1000/],
      ['publish_frequency', -1, /between 0 and 1000/],
      ['publish_frequency', 'fast', /must be a number/],
      ['frame_prefix', 'robot 1/', /may contain only/],
      ['body_file', '', /must name a model file/],
      ['initial_joint_positions', ['shoulder'], /not JOINT=VALUE/],
      ['initial_joint_positions', ['shoulder=abc'], /not a finite number/],
      ['device_input_topics', ['camera'], /not DEVICE=TOPIC/],
      ['no_such_parameter', 1, /unknown parameter/],
    ];
    for (const [name, value, reason] of cases) {
      const result = r.bridge.setParams({ [name]: value });
      expect(result.successful, name).toBe(false);
      expect(result.reason).toMatch(reason);
    }
    // Atomic: one bad value refuses the whole set.
    expect(r.bridge.setParams({ ignore_timestamp: true, publish_frequency: 5000 }).successful).toBe(false);
    expect(r.bridge.params().ignore_timestamp).toBe(false);
    expect(r.bridge.params().publish_frequency).toBe(20);
  });

  it('every parameter has a documented spec whose default validates', () => {
    for (const s of paramSpecs) {
      expect(s.description.length, s.name).toBeGreaterThan(20);
      if (s.name !== 'body_file') expect(validateParam(s.name, s.default), s.name).toBeNull();
    }
  });

  it('device relay restarts (stop, then start) after each load and on a device parameter change', () => {
    const events: string[] = [];
    let n = 0;
    const r = rig(sampleRobot(), {}, {
      startDevices: (ctx) => {
        const id = ++n;
        events.push(`start${id}:${ctx.framePrefix}:${ctx.params.undoUpstreamScaling}:${ctx.frames.map((f) => f.frame).join(',')}`);
        return () => events.push(`stop${id}`);
      },
    });
    r.bridge.setParams({ undo_upstream_scaling: false });
    r.bridge.setParams({ frame_prefix: 'x/' });
    r.bridge.stop();
    expect(events).toEqual([
      'start1::true:head_camera,lidar,wrist',
      'stop1',
      'start2::false:head_camera,lidar,wrist',
      'stop2',
      'start3:x/:false:head_camera,lidar,wrist',
      'stop3',
    ]);
  });

  it('the real device relay follows frame_prefix and device parameters, one upstream subscription at a time', () => {
    const r = rig(sampleRobot(), { frame_prefix: 'p/' }, { startDevices: undefined });
    const wrench = (fx: number) => ({
      header: { stamp: at(T0), frame_id: 'wrist' },
      wrench: { force: { x: fx, y: 0, z: 0 }, torque: { x: 0, y: 0, z: 0 } },
    });
    expect(r.transport.inject('/sample/wrist', wrench(0.002))).toBe(1);
    const out = () => r.transport.last<{ header: { frame_id: string }; wrench: { force: { x: number } } }>('wrist/wrench')!;
    expect(out().header.frame_id).toBe('p/wrist');
    expect(out().wrench.force.x).toBeCloseTo(2, 12); // choreonoid_ros's kN undone by default
    expect(r.bridge.setParams({ frame_prefix: 'q/', undo_upstream_scaling: false }).successful).toBe(true);
    expect(r.transport.inject('/sample/wrist', wrench(0.002))).toBe(1);
    expect(out().header.frame_id).toBe('q/wrist');
    expect(out().wrench.force.x).toBe(0.002);
    expect(r.bridge.setParams({ device_input_topics: ['wrist=/sim/ft'] }).successful).toBe(true);
    expect(r.transport.inject('/sample/wrist', wrench(1))).toBe(0);
    expect(r.transport.inject('/sim/ft', wrench(1))).toBe(1);
    r.bridge.stop();
    expect(r.transport.active().subscriptions).toBe(0);
  });

  it('stop releases the subscription and every timer', () => {
    const r = rig(sampleRobot(), { publish_joint_states: true, watch_body_file: true }, { fileSignature: () => 'x' });
    // The initial positions, the file watch and the watch on joint_states going silent.
    expect(r.transport.active()).toEqual({ subscriptions: 1, timers: 3 });
    r.bridge.stop();
    expect(r.transport.active()).toEqual({ subscriptions: 0, timers: 0 });
  });
});

describe('hot reload', () => {
  // A stand-in loader (the bridge is loader-agnostic): a RobotModel as JSON, ModelLoadError with a location when broken.
  const dir = mkdtempSync(join(tmpdir(), 'body-bridge-reload-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let mtime = 1_700_000_000;
  const write = (name: string, content: string): string => {
    const file = join(dir, name);
    writeFileSync(file, content);
    utimesSync(file, mtime, ++mtime);
    return file;
  };
  const modelJson = (name: string, extraLink = false): string => {
    const m = sampleRobot();
    m.name = name;
    if (extraLink) m.links.push(link('extra', 'base', joint('extra_joint', 'revolute'), pose([0, 0, 1])));
    return JSON.stringify(m, (_k, v) => (v === Infinity ? 1e308 : v === -Infinity ? -1e308 : v));
  };
  const loadJson = (file: string): RobotModel => {
    const text = readFileSync(file, 'utf8');
    try {
      return JSON.parse(text) as RobotModel;
    } catch (e) {
      return failAt({ file, path: 'links', line: 3, column: 7 }, `expected a model (${(e as Error).message})`);
    }
  };
  const reloadRig = (file: string) => {
    const r = rig(sampleRobot(), { body_file: file, watch_body_file: true, watch_period: 1 }, { loadModel: loadJson, fileSignature });
    return r;
  };
  const descriptions = (r: ReturnType<typeof rig>) => r.transport.messages<StringMsg>('robot_description').map((m) => m.data);

  it('a file changed on disk is reloaded: new description, new /tf_static, new joints', () => {
    const file = write('a.json', modelJson('first'));
    const r = reloadRig(file);
    expect(descriptions(r)).toEqual(['<robot name="first"/>']);
    r.transport.advance(3000);
    expect(descriptions(r)).toHaveLength(1); // unchanged file: nothing happens
    write('a.json', modelJson('second', true));
    r.transport.advance(1000);
    expect(descriptions(r)).toEqual(['<robot name="first"/>', '<robot name="second"/>']);
    expect(r.transport.messages('/tf_static')).toHaveLength(2);
    sendAt(r, 0, ['extra_joint'], [0.5]);
    expect(lastTf(r).transforms[0]!.child_frame_id).toBe('extra');
  });

  it('a broken file keeps the last good model serving and logs the located error once', () => {
    const file = write('b.json', modelJson('good'));
    const r = reloadRig(file);
    write('b.json', '{ "links": [ oops');
    r.transport.advance(5000);
    const errors = r.transport.logs.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain(`${file}:3:7: error: expected a model`);
    expect(errors[0]!.message).toContain('(at links)');
    expect(errors[0]!.message).toMatch(/still serving the last good model/);
    expect(descriptions(r)).toEqual(['<robot name="good"/>']);
    sendAt(r, 0, ['shoulder'], [0.2]);
    expect(lastTf(r).transforms[0]!.child_frame_id).toBe('arm');
    write('b.json', modelJson('fixed'));
    r.transport.advance(1000);
    expect(descriptions(r)).toEqual(['<robot name="good"/>', '<robot name="fixed"/>']);
  });

  it('setting body_file to a broken file is refused with the located reason; to a good one, served at once', () => {
    const good = write('c.json', modelJson('c'));
    const broken = write('c-broken.json', 'not json');
    const other = write('d.json', modelJson('d'));
    const r = reloadRig(good);
    const refused = r.bridge.setParams({ body_file: broken });
    expect(refused.successful).toBe(false);
    expect(refused.reason).toContain(`${broken}:3:7: error:`);
    expect(r.bridge.params().body_file).toBe(good);
    expect(r.bridge.setParams({ body_file: other })).toEqual({ successful: true, reason: '' });
    expect(descriptions(r)).toEqual(['<robot name="c"/>', '<robot name="d"/>']);
    expect(r.bridge.served()!.file).toBe(other);
  });

  it('a node started on a broken file stays up and serves the file once it is fixed', () => {
    const file = write('e.json', '{');
    const r = reloadRig(file);
    expect(r.bridge.served()).toBeNull();
    expect(r.transport.logs.some((l) => l.level === 'error' && l.message.includes(`${file}:3:7`))).toBe(true);
    sendAt(r, 0, ['shoulder']);
    expect(tfCount(r)).toBe(0);
    write('e.json', modelJson('e'));
    r.transport.advance(1000);
    expect(descriptions(r)).toEqual(['<robot name="e"/>']);
  });
});
