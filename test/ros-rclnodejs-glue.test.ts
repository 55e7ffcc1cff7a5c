// The rclnodejs layer without ROS 2: startRosNode against a recording stand-in of the part of
// rclnodejs's API it uses, with the semantics of rclnodejs 2.2's lib/node.js (a declared parameter
// takes its override unless told not to; a set is refused when the descriptor is read-only, then by
// the on-set callbacks). `npm run typecheck:ros` checks the same file against rclnodejs's own
// declarations; test/ros-live.test.ts runs it for real where ROS 2 is sourced.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { paramSpecs } from '../src/ros/params.js';
import { MAX_HOLD_SYNCS, SPIN_TIMEOUT_MS, startRosNode, waitSetOf } from '../src/ros/rclnodejs-transport.js';
import { latchedQoS, sensorDataQoS } from '../src/ros/transport.js';
import { fakeRclnodejs } from './support/fake-rclnodejs.js';
import { projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const scratch = scratchDir('body-bridge-glue-');

async function start(extraArgs: string[] = [], env: NodeJS.ProcessEnv = { ROS_DISTRO: 'humble' }) {
  const fake = fakeRclnodejs();
  const params = join(scratch, 'params.yaml');
  writeFileSync(params, '/r1/body_bridge:\n  ros__parameters:\n    frame_prefix: r1/\n    publish_frequency: 30\n    ignore_timestamp: true\n');
  const argv = ['node', 'main.js', 'model.body', '--ros-args', '-r', '__ns:=/r1', '--params-file', params, ...extraArgs];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const ros = await startRosNode(fake.rcl as any, argv, env);
  return { ...fake, ros, argv };
}

describe('rclnodejs glue', () => {
  it('hands rcl the whole command line and applies a params file keyed by the fully qualified name', async () => {
    const { state, ros, argv, calls } = await start();
    expect(state.initArgv).toEqual(argv);
    expect(calls).toContain('removeSignalHandlers');
    const overrides = Object.fromEntries(state.node!.options.parameterOverrides.map((p) => [p.name, [p.type, p.value]]));
    // An integer in YAML for a double parameter is declared as a double (rclnodejs would refuse the type otherwise).
    expect(overrides).toEqual({ frame_prefix: [4, 'r1/'], publish_frequency: [3, 30], ignore_timestamp: [1, true] });
    expect(ros.initialParams).toMatchObject({ frame_prefix: 'r1/', publish_frequency: 30, ignore_timestamp: true, watch_body_file: true });
  });

  it('a list of integers in YAML or -p for placement (a list of doubles) is declared as doubles', async () => {
    const file = join(scratch, 'placement.yaml');
    writeFileSync(file, '/**:\n  ros__parameters:\n    placement: [1, 2, 0, 0, 0, 0, 1]\n    placement_frame: world\n');
    const { state, ros } = await start(['--params-file', file]);
    const override = state.node!.options.parameterOverrides.find((p) => p.name === 'placement')!;
    expect([override.type, override.value]).toEqual([8, [1, 2, 0, 0, 0, 0, 1]]);
    expect(ros.initialParams).toMatchObject({ placement: [1, 2, 0, 0, 0, 0, 1], placement_frame: 'world' });
    const fromCommandLine = await start(['-p', 'placement:=[0, 0, 1, 0, 0, 0, 1]']);
    expect(fromCommandLine.ros.initialParams.placement).toEqual([0, 0, 1, 0, 0, 0, 1]);
  });

  it('an override of the wrong type is reported and the default used, without taking the node down', async () => {
    const { state, ros } = await start(['-p', 'frame_prefix:=7', '-p', 'watch_period:=2']);
    expect(ros.initialParams.frame_prefix).toBe('');
    expect(ros.initialParams.watch_period).toBe(2);
    expect(state.logs.some((l) => /^error: parameter frame_prefix: the given value was refused/.test(l))).toBe(true);
  });

  it('declares every parameter with its type and description, and robot_description read-only', async () => {
    const { state } = await start();
    const node = state.node!;
    const types: Record<string, number> = { string: 4, double: 3, bool: 1, string_array: 9, double_array: 8 };
    for (const s of paramSpecs) {
      const d = node.descriptors.get(s.name)!;
      expect(d.type, s.name).toBe(types[s.kind]);
      expect(d.description).toBe(s.description);
      expect(d.readOnly).toBe(false);
    }
    expect(node.descriptors.get('robot_description')!.readOnly).toBe(true);
  });

  it('mirrors the URDF into robot_description, which clients cannot set', async () => {
    const { state, ros } = await start();
    ros.onParameterChange(() => ({ successful: true, reason: '' }));
    ros.setRobotDescription('<robot name="a"/>');
    expect(state.node!.parameters.get('robot_description')!.value).toBe('<robot name="a"/>');
    expect(state.node!.descriptors.get('robot_description')!.readOnly).toBe(true);
    const refused = state.node!.setParameter({ name: 'robot_description', type: 4, value: 'x' });
    expect(refused.successful).toBe(false);
    expect(state.node!.parameters.get('robot_description')!.value).toBe('<robot name="a"/>');
  });

  it('mirrors the SRDF into robot_description_semantic, read-only like robot_description', async () => {
    const { state, ros } = await start();
    ros.onParameterChange(() => ({ successful: true, reason: '' }));
    expect(state.node!.descriptors.get('robot_description_semantic')!.readOnly).toBe(true);
    ros.setRobotDescriptionSemantic('<robot name="a"><group name="arm"/></robot>');
    expect(state.node!.parameters.get('robot_description_semantic')!.value).toBe('<robot name="a"><group name="arm"/></robot>');
    const refused = state.node!.setParameter({ name: 'robot_description_semantic', type: 4, value: 'x' });
    expect(refused.successful).toBe(false);
    expect(state.node!.parameters.get('robot_description_semantic')!.value).toBe('<robot name="a"><group name="arm"/></robot>');
  });

  it("routes clients' parameter sets to the bridge, whose verdict is ROS's", async () => {
    const { state, ros } = await start();
    const seen: Record<string, unknown>[] = [];
    ros.onParameterChange((changes) => {
      seen.push(changes);
      return changes.publish_frequency === 5000 ? { successful: false, reason: 'publish_frequency must be between 0 and 1000' } : { successful: true, reason: '' };
    });
    expect(state.node!.setParameter({ name: 'publish_frequency', type: 3, value: 10 }).successful).toBe(true);
    const refused = state.node!.setParameter({ name: 'publish_frequency', type: 3, value: 5000 });
    expect(refused).toEqual({ successful: false, reason: 'publish_frequency must be between 0 and 1000' });
    expect(state.node!.parameters.get('publish_frequency')!.value).toBe(10);
    expect(seen).toEqual([{ publish_frequency: 10 }, { publish_frequency: 5000 }]);
  });

  it('maps QoS, reuses a publisher per topic, and releases subscriptions and timers; time and logs pass through', async () => {
    const { state, ros } = await start();
    const t = ros.transport;
    const a = t.publisher('/tf_static', 'tf2_msgs/msg/TFMessage', latchedQoS);
    const b = t.publisher('/tf_static', 'tf2_msgs/msg/TFMessage', latchedQoS);
    a.publish({ transforms: [] });
    b.publish({ transforms: [] });
    expect(state.publishers).toHaveLength(1);
    // The subscriber count is rclnodejs's publisher's own (rcl_publisher_get_subscription_count).
    expect(a.subscriptionCount()).toBe(0);
    t.subscribe('/tf_static', 'tf2_msgs/msg/TFMessage', latchedQoS, () => undefined);
    expect(a.subscriptionCount()).toBe(1);
    state.subscriptions.pop();
    expect(state.publishers[0]).toMatchObject({ topic: '/tf_static', qos: { history: 1, depth: 1, reliability: 1, durability: 1 } });
    expect(state.publishers[0]!.published).toHaveLength(2);

    const got: unknown[] = [];
    const stop = t.subscribe('joint_states', 'sensor_msgs/msg/JointState', sensorDataQoS, (m) => got.push(m));
    const sub = state.subscriptions[0]!;
    expect(sub.options).toMatchObject({ enableTypedArray: true, qos: { depth: 5, reliability: 2, durability: 2 } });
    sub.callback({ name: ['j'] });
    expect(got).toEqual([{ name: ['j'] }]);
    stop();
    expect(sub.destroyed).toBe(true);

    // The raw path: Buffers go to rclnodejs's publish as they are (it sends them with
    // rcl_publish_serialized_message); other byte views are wrapped, not copied.
    const raw = t.rawPublisher('/tf', 'tf2_msgs/msg/TFMessage', latchedQoS);
    const buffer = Buffer.from([0, 1, 0, 0, 0, 0, 0, 0]);
    raw.publish(buffer);
    const view = new Uint8Array(16).subarray(4, 12);
    raw.publish(view);
    const sent = state.publishers.find((p) => p.topic === '/tf')!.published as Buffer[];
    expect(sent[0]).toBe(buffer);
    expect(Buffer.isBuffer(sent[1])).toBe(true);
    expect([sent[1]!.buffer, sent[1]!.byteOffset, sent[1]!.length]).toEqual([view.buffer, 4, 8]);
    const bytes: Uint8Array[] = [];
    const stopRaw = t.subscribeRaw('joint_states', 'sensor_msgs/msg/JointState', sensorDataQoS, (b) => bytes.push(b));
    const rawSub = state.subscriptions[state.subscriptions.length - 1]!;
    expect(rawSub.options).toMatchObject({ isRaw: true, qos: { depth: 5, reliability: 2, durability: 2 } });
    rawSub.callback(buffer);
    expect(bytes).toEqual([buffer]);
    stopRaw();
    expect(rawSub.destroyed).toBe(true);

    const stopTimer = t.timer(100, () => undefined);
    expect(state.timers[0]!.period).toBe(100_000_000n);
    expect(state.timers[0]!.clock).toBeNull();
    stopTimer();
    expect(state.timers[0]).toMatchObject({ cancelled: true, destroyed: true });
    // The wall timer is libuv's (steady, so a paused /clock does not hold it), not an rcl timer, which rclnodejs
    // would ask whether it is ready at every wake of the node.
    vi.useFakeTimers();
    try {
      let ticks = 0;
      const stopWall = t.wallTimer(500, () => ticks++);
      expect(state.timers).toHaveLength(1);
      vi.advanceTimersByTime(1250);
      expect(ticks).toBe(2);
      stopWall();
      vi.advanceTimersByTime(1000);
      expect(ticks).toBe(2);
    } finally {
      vi.useRealTimers();
    }
    const w0 = t.wallNowNs();
    expect(t.wallNowNs()).toBeGreaterThanOrEqual(w0);

    // The graph: names as rcl gives them (name and namespace) joined; a relative topic expanded by rclnodejs.
    expect(t.nodeName).toBe('/r1/body_bridge');
    state.graph.nodes.push({ name: 'body_bridge', namespace: '/r1' }, { name: 'choreonoid', namespace: '/' });
    expect(t.graphNodes()).toEqual(['/r1/body_bridge', '/r1/body_bridge', '/choreonoid']);
    state.graph.publishers.set('/clock', 2);
    state.graph.publishers.set('/r1/joint_states', 1);
    expect([t.publisherCount('/clock'), t.publisherCount('joint_states'), t.publisherCount('/joint_states')]).toEqual([2, 1, 0]);

    expect(t.now()).toEqual({ sec: 5, nanosec: 7 });
    t.log.warn('careful');
    expect(state.logs).toContain('warn: careful');
  });

  it('spins with a long idle wait, and wakes the wait before every entity it creates or destroys', async () => {
    const { ros, calls } = await start();
    const t = ros.transport;
    ros.spin();
    expect(calls.filter((c) => c.startsWith('spin'))).toEqual([`spin ${SPIN_TIMEOUT_MS}`]);
    expect(SPIN_TIMEOUT_MS).toBeGreaterThan(10); // rclnodejs's default, which wakes an idle node 100 times a second
    const from = calls.length;
    const stopRaw = t.subscribeRaw('camera/image', 'sensor_msgs/msg/Image', sensorDataQoS, () => undefined);
    const stop = t.subscribe('joint_states', 'sensor_msgs/msg/JointState', sensorDataQoS, () => undefined);
    const stopTimer = t.timer(100, () => undefined);
    stopRaw();
    stop();
    stopTimer();
    ros.shutdown();
    // rclnodejs syncs its handles in each of these under a lock the waiting executor holds: the wait ends first.
    expect(calls.slice(from)).toEqual([
      'trigger', 'createSubscription camera/image',
      'trigger', 'createSubscription joint_states',
      'trigger', 'createTimer',
      'trigger', 'destroySubscription',
      'trigger', 'destroySubscription',
      'trigger', 'destroyTimer',
      'trigger', 'destroy',
      'shutdown',
    ]);
  });

  it("frees a large message's bytes once its raw callback returns, even when the callback throws", async () => {
    const { state, ros } = await start();
    const seen: number[] = [];
    ros.transport.subscribeRaw('camera/image', 'sensor_msgs/msg/Image', sensorDataQoS, (b) => {
      seen.push(b.byteLength);
      if (seen.length === 2) throw new Error('a subscriber that failed');
    });
    const sub = state.subscriptions[state.subscriptions.length - 1]!;
    const image = Buffer.alloc(921_648);
    sub.callback(image);
    expect(seen).toEqual([921_648]);
    expect(image.byteLength).toBe(0);
    const again = Buffer.alloc(921_648);
    expect(() => sub.callback(again)).toThrow('a subscriber that failed');
    expect(again.byteLength).toBe(0);
    // A joint_states message is left to the collector.
    const small = Buffer.alloc(700);
    sub.callback(small);
    expect(small.byteLength).toBe(700);
  });

  it("takes the rest of a raw subscription's queue, up to its depth, each freed after its callback", async () => {
    const fake = fakeRclnodejs();
    const queue: Buffer[] = [];
    const taken: unknown[] = [];
    const binding = {
      rclTakeRaw: (handle: unknown) => {
        taken.push(handle);
        return queue.shift();
      },
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const ros = await startRosNode(fake.rcl as any, ['node', 'main.js'], { ROS_DISTRO: 'humble' }, binding);
    const seen: number[] = [];
    const kept: Uint8Array[] = [];
    ros.transport.subscribeRaw('imu', 'sensor_msgs/msg/Imu', sensorDataQoS, (b) => {
      seen.push(b[0]!);
      kept.push(b);
    });
    const sub = fake.state.subscriptions[fake.state.subscriptions.length - 1]! as (typeof fake.state.subscriptions)[number] & { handle?: unknown; isDestroyed?: () => boolean };
    sub.handle = 'imu-handle';
    sub.isDestroyed = () => sub.destroyed;
    const message = (i: number, size = 700): Buffer => Buffer.alloc(size, i);
    // Three waiting behind the one rclnodejs took: all four in this wake, then the queue is empty.
    queue.push(message(2), message(3), message(4));
    sub.callback(message(1));
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(taken).toEqual(['imu-handle', 'imu-handle', 'imu-handle', 'imu-handle']);
    // Never more than the queue's depth in one wake (SensorDataQoS: 5), so one busy topic cannot hold the executor.
    queue.push(...[6, 7, 8, 9, 10, 11].map((i) => message(i)));
    seen.length = 0;
    sub.callback(message(5));
    expect(seen).toEqual([5, 6, 7, 8, 9]);
    expect(queue).toHaveLength(2);
    // Large ones are freed after their own callback.
    queue.length = 0;
    kept.length = 0;
    queue.push(message(13, 100_000));
    sub.callback(message(12, 100_000));
    expect(kept.map((b) => b.byteLength)).toEqual([0, 0]);
    // A callback that ends the subscription (a reload) stops the taking.
    queue.push(message(15), message(16));
    seen.length = 0;
    const stop = ros.transport.subscribeRaw('imu2', 'sensor_msgs/msg/Imu', sensorDataQoS, (b) => {
      seen.push(b[0]!);
      stop();
    });
    const sub2 = fake.state.subscriptions[fake.state.subscriptions.length - 1]! as typeof sub;
    sub2.handle = 'imu2-handle';
    sub2.isDestroyed = () => sub2.destroyed;
    sub2.callback(message(14));
    expect(seen).toEqual([14]);
    expect(queue).toHaveLength(2);
  });

  it("holds a raw subscription out of the executor's wait set for the quiet period its callback returns, when that skips enough", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'hrtime'] });
    try {
      const { state, ros, calls } = await start();
      const node = state.node as unknown as { _subscriptions: unknown[] };
      let quiet = 40;
      const seen: number[] = [];
      const stop = ros.transport.subscribeRaw('joint_states', 'sensor_msgs/msg/JointState', sensorDataQoS, (b) => {
        seen.push(b[0]!);
        return quiet;
      });
      const sub = state.subscriptions[state.subscriptions.length - 1]!;
      // The first wake has no pace to go by; at one message a millisecond, 40 ms skips 40 of them: held.
      sub.callback(Buffer.alloc(700, 1));
      expect(node._subscriptions).toContain(sub);
      vi.advanceTimersByTime(1);
      const from = calls.length;
      sub.callback(Buffer.alloc(700, 2));
      expect(node._subscriptions).not.toContain(sub);
      // Left from inside the callback, where the executor's thread waits outside rcl_wait: no wake needed.
      expect(calls.slice(from)).toEqual(['syncHandles 0']);
      vi.advanceTimersByTime(39);
      expect(node._subscriptions).not.toContain(sub);
      vi.advanceTimersByTime(1);
      // Back for the next message, the executor's wait ended first (its lock holds the sync).
      expect(node._subscriptions).toContain(sub);
      expect(calls.slice(from + 1)).toEqual(['trigger', 'syncHandles 1']);
      // The wake that ends a hold does not count the hold's 40 ms as the pace (a mean of ~6 ms would make a 10 ms
      // hold skip under two messages): still one message a millisecond, so 10 ms is worth holding.
      quiet = 10;
      sub.callback(Buffer.alloc(700, 3));
      expect(node._subscriptions).not.toContain(sub);
      vi.advanceTimersByTime(10);
      expect(node._subscriptions).toContain(sub);
      // Too short to pay for itself at this pace (5 ms: five messages).
      quiet = 5;
      vi.advanceTimersByTime(1);
      sub.callback(Buffer.alloc(700, 4));
      expect(node._subscriptions).toContain(sub);
      // Nothing asked: nothing held.
      quiet = undefined as unknown as number;
      vi.advanceTimersByTime(1);
      sub.callback(Buffer.alloc(700, 5));
      expect(node._subscriptions).toContain(sub);
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      // Ended while held: back in the list for rclnodejs to take out and destroy, no timer left behind.
      quiet = 40;
      vi.advanceTimersByTime(1);
      sub.callback(Buffer.alloc(700, 6));
      expect(node._subscriptions).not.toContain(sub);
      stop();
      expect(sub.destroyed).toBe(true);
      expect(node._subscriptions).not.toContain(sub);
      expect(vi.getTimerCount()).toBe(0);
      // Shut down while one is held: the hold's timer goes with the node.
      const stop2 = ros.transport.subscribeRaw('joint_states', 'sensor_msgs/msg/JointState', sensorDataQoS, () => 40);
      const sub2 = state.subscriptions[state.subscriptions.length - 1]!;
      sub2.callback(Buffer.alloc(700));
      vi.advanceTimersByTime(1);
      sub2.callback(Buffer.alloc(700));
      expect(node._subscriptions).not.toContain(sub2);
      ros.shutdown();
      expect(vi.getTimerCount()).toBe(0);
      expect(node._subscriptions).toContain(sub2);
      void stop2;
    } finally {
      vi.useRealTimers();
    }
  });

  it("never holds where rclnodejs's wait set is not a node's _subscriptions, and stops holding before its sync count could overflow", () => {
    expect(waitSetOf({})).toBeNull();
    expect(waitSetOf({ _subscriptions: [] })).toBeNull();
    const syncs: number[] = [];
    const node = { _subscriptions: ['a'] as unknown[], syncHandles: () => syncs.push(1) };
    const waitSet = waitSetOf(node)!;
    expect(waitSet.leave('b')).toBe(false);
    expect(waitSet.leave('a')).toBe(true);
    expect(node._subscriptions).toEqual([]);
    waitSet.rejoin('a');
    waitSet.rejoin('a');
    expect(node._subscriptions).toEqual(['a']);
    expect(syncs).toHaveLength(2);
    // uv_sem_post aborts past 2^31 - 1 posts nobody took: holds stop at 2^30 syncs.
    expect(MAX_HOLD_SYNCS).toBeLessThan(2 ** 31 - 1);
    const capped = waitSetOf({ _subscriptions: ['a'], syncHandles: () => undefined }, 3)!;
    expect(capped.leave('a')).toBe(true);
    capped.rejoin('a');
    expect(capped.leave('a')).toBe(false);
  });

  it('leaves the /rosout publisher to rcl where rcl_node_init creates it (up to Iron), to rclnodejs from Jazzy on', async () => {
    for (const [distro, rclnodejsRegisters] of [['humble', false], ['iron', false], ['jazzy', true], ['kilted', true], [undefined, true]] as const) {
      const { state } = await start([], distro ? { ROS_DISTRO: distro } : {});
      expect(state.node!.options.enableRosout, String(distro)).toBe(rclnodejsRegisters);
    }
  });
});

// rclnodejs installs only where a ROS 2 is sourced; README's test command starts with the main build, so that build
// must compile without it (its type import is then unresolved, any): a callback parameter typed only through
// rclnodejs is an implicit any there, an error that a machine with ROS 2 never shows.
describe('the main build without rclnodejs installed', () => {
  it('compiles: the sources, tsconfig.json and package.json beside every installed package but rclnodejs', () => {
    const dir = join(scratch, 'without-rclnodejs');
    const modules = join(dir, 'node_modules');
    mkdirSync(modules, { recursive: true });
    cpSync(join(projectRoot, 'src'), join(dir, 'src'), { recursive: true });
    for (const file of ['tsconfig.json', 'package.json']) cpSync(join(projectRoot, file), join(dir, file));
    for (const name of readdirSync(join(projectRoot, 'node_modules'))) {
      if (name !== 'rclnodejs') symlinkSync(join(projectRoot, 'node_modules', name), join(modules, name));
    }
    const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);
});
