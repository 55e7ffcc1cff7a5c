// The real node on a real ROS 2 graph, checked the way a ROS user would: with ROS 2's own command-line
// tools (ros2 param, ros2 node, ros2 launch, colcon), robot_state_publisher as the peer for /tf, and an
// rclnodejs node of the test's own on the receiving side. Needs a sourced ROS 2 (AMENT_PREFIX_PATH) and an
// rclnodejs built for it (npm ci with ROS 2 sourced); elsewhere the whole file is skipped, and says why.
// Each case starts its own body_bridge process in a namespace of its own, so the cases do not see each other.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRclnodejs } from '../src/ros/rclnodejs-transport.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { installedPackage, ownRosDomain, closeObserver, observerNode } from './support/live-rig.js';
import { skipWithout } from './support/peer-skip.js';
import { findRobotStatePublisher, type Lookup, missing } from './support/peers.js';

ownRosDomain('ros-live');

// The live graph: a sourced ROS 2, and rclnodejs built against it by `npm ci` run with it sourced.
const rosInstall = 'source a ROS 2 (its setup.bash), then run npm ci so that rclnodejs builds against it (docs/peers.md)';
const loaded = process.env.AMENT_PREFIX_PATH ? await loadRclnodejs() : null;
const liveRos: Lookup<object> = !process.env.AMENT_PREFIX_PATH
  ? missing('ROS 2 with rclnodejs', 'ros', 'AMENT_PREFIX_PATH is not set (no ROS 2 is sourced)', rosInstall)
  : loaded && 'error' in loaded
    ? missing('ROS 2 with rclnodejs', 'ros', loaded.error, rosInstall)
    : { ok: true };
const withoutRos = skipWithout(liveRos);
// robot_state_publisher is looked for only where the graph is there: elsewhere the line above says it all.
const withoutRsp = withoutRos || skipWithout(findRobotStatePublisher());

const run = promisify(execFile);
const tag = `bb${process.pid}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

interface Proc {
  child: ChildProcess;
  output(): string;
}

describe.skipIf(withoutRos)('body_bridge on a live ROS 2 graph', () => {
  let rcl: Any;
  let node: Any;
  const procs: Proc[] = [];
  // Made in beforeAll: a skipped suite still runs this describe body, and must leave nothing behind.
  let scratch = '';
  const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
  const tank = join(corpusDir, 'choreonoid/share/model/Tank/Tank.body');
  const sampleArm = join(projectRoot, 'models', 'sample_arm.body');
  const mainJs = join(projectRoot, 'dist', 'ros', 'main.js');

  const waitFor = <T>(what: string, ms: number, poll: () => T | undefined, log: () => string = () => ''): Promise<T> =>
    new Promise((resolve, reject) => {
      const start = Date.now();
      const tick = (): void => {
        const v = poll();
        if (v !== undefined) return resolve(v);
        if (Date.now() - start > ms) return reject(new Error(`timed out waiting for ${what}\n${log()}`));
        setTimeout(tick, 50);
      };
      tick();
    });

  /** Starts a process whose output is kept; it is stopped (SIGTERM) after the suite. */
  const start = (cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Proc => {
    let out = '';
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    const p = { child, output: () => out };
    procs.push(p);
    return p;
  };
  const bridge = (args: string[]): Proc => start(process.execPath, [mainJs, ...args]);
  /** robot_state_publisher in namespace `ns` on `urdf`, with these parameters besides (YAML scalars as written). */
  const robotStatePublisher = (ns: string, urdf: string, parameters: Record<string, string>): Proc => {
    const file = join(scratch, `rsp${ns.replace(/\//g, '_')}.yaml`);
    const lines = Object.entries(parameters).map(([k, v]) => `    ${k}: ${v}\n`).join('');
    writeFileSync(file, `${ns}/robot_state_publisher:\n  ros__parameters:\n${lines}    robot_description: ${JSON.stringify(urdf)}\n`);
    return start('ros2', ['run', 'robot_state_publisher', 'robot_state_publisher', '--ros-args', '-r', `__ns:=${ns}`, '--params-file', file]);
  };
  /** Ctrl-C on a ros2 launch: SIGINT to its process group; it must end cleanly within 10 s and leave nothing. */
  const ctrlC = async (launch: Proc): Promise<void> => {
    const group = launch.child.pid!;
    const exited = new Promise<number | null>((r) => launch.child.once('exit', (code) => r(code)));
    const sent = Date.now();
    process.kill(-group, 'SIGINT');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
    expect(code, launch.output()).not.toBe('hung');
    expect((Date.now() - sent) / 1000, launch.output()).toBeLessThan(10);
    expect(launch.output()).toMatch(/\[body_bridge-1\]: process has finished cleanly/);
    expect(launch.output()).not.toMatch(/escalating|failed to terminate|SIGTERM|SIGKILL|process has died/);
    await new Promise((r) => setTimeout(r, 500));
    const left = (() => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    })();
    expect(left, 'a process of the launch still runs after it exited').toBe(false);
  };
  const stop = async (p: Proc): Promise<void> => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return;
    const exited = new Promise((r) => p.child.once('exit', r));
    // The whole process group: ros2 launch's children too.
    process.kill(-p.child.pid!, 'SIGTERM');
    await exited;
  };
  const ros2 = async (...args: string[]): Promise<string> => {
    try {
      const { stdout, stderr } = await run('ros2', args, { timeout: 60_000, encoding: 'utf8' });
      return stdout + stderr;
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      return `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`;
    }
  };
  const latched = () => new rcl.QoS(1, 1, 1, 1);
  const collect = (type: string, topic: string, qos?: Any): Any[] => {
    const got: Any[] = [];
    node.createSubscription(type, topic, qos ? { qos } : {}, (m: Any) => got.push(m));
    return got;
  };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'body-bridge-live-'));
    requireShared();
    if (!existsSync(mainJs)) throw new Error('run npm run build first');
    rcl = (loaded as { rcl: Any }).rcl;
    node = await observerNode(rcl, 'live-test');
    node.spin();
  });

  afterAll(async () => {
    for (const p of procs) await stop(p);
    await ros2('daemon', 'stop');
    closeObserver(rcl, node);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  describe('one robot, configured by an FQN-keyed params file', () => {
    const NS = `/${tag}_one`;
    const FQN = `${NS}/body_bridge`;
    let p: Proc;
    const descriptions: string[] = [];
    const statics: Any[] = [];

    beforeAll(() => {
      node.createSubscription('std_msgs/msg/String', `${NS}/robot_description`, { qos: latched() }, (m: Any) => descriptions.push(m.data));
      node.createSubscription('tf2_msgs/msg/TFMessage', '/tf_static', { qos: new rcl.QoS(1, 100, 1, 1) }, (m: Any) => statics.push(m));
      // Keyed by the fully qualified node name, as launch_ros writes parameter files.
      const params = join(scratch, 'one.yaml');
      writeFileSync(params, `${FQN}:\n  ros__parameters:\n    frame_prefix: live/\n    publish_joint_states: false\n    mesh_dir: ${join(scratch, 'meshes')}\n`);
      p = bridge([pa10, '--ros-args', '-r', `__ns:=${NS}`, '--params-file', params]);
    });

    it('serves robot_description (transient local) and /tf_static with the prefix from the params file', async () => {
      const xml = await waitFor('robot_description', 30_000, () => descriptions[0], p.output);
      expect(xml).toContain('<robot name="PA10"');
      const tf = await waitFor('/tf_static from body_bridge', 30_000, () => statics.find((m) => m.transforms.some((t: Any) => t.child_frame_id.startsWith('live/'))));
      expect(tf.transforms.every((t: Any) => t.header.frame_id.startsWith('live/'))).toBe(true);
    });

    it('turns joint_states into /tf stamped with the message stamp', async () => {
      const pub = node.createPublisher('sensor_msgs/msg/JointState', `${NS}/joint_states`);
      const received = collect('tf2_msgs/msg/TFMessage', '/tf');
      const stamp = node.now().toMsg();
      const found = await waitFor('/tf for J1', 30_000, () => {
        pub.publish({ header: { stamp, frame_id: '' }, name: ['J1'], position: [0.5], velocity: [], effort: [] });
        return received.find((m) => m.transforms.some((t: Any) => t.child_frame_id === 'live/J1_link'));
      });
      const t = found.transforms.find((x: Any) => x.child_frame_id === 'live/J1_link');
      expect(t.header.stamp).toEqual(stamp);
    });

    it('ros2 param: get, describe, set and refused values with their reasons', async () => {
      await waitFor('robot_description', 30_000, () => descriptions[0], p.output);
      expect(await ros2('param', 'get', FQN, 'frame_prefix')).toMatch(/String value is: live\//);
      expect(await ros2('param', 'get', FQN, 'publish_frequency')).toMatch(/Double value is: 20(\.0)?/);
      expect(await ros2('param', 'get', FQN, 'robot_description')).toContain('<robot name="PA10"');
      const describeOut = await ros2('param', 'describe', FQN, 'robot_description', 'publish_frequency');
      expect(describeOut).toMatch(/Parameter name: robot_description[\s\S]*Read only: true/);
      expect(describeOut).toMatch(/Parameter name: publish_frequency\s+Type: double\s+Description: Hz/);
      expect(await ros2('param', 'set', FQN, 'robot_description', '<robot name="x"/>')).toMatch(/Setting parameter failed/);
      expect(await ros2('param', 'set', FQN, 'publish_frequency', '5000.0')).toMatch(/Setting parameter failed: .*between 0 and 1000/);
      expect(await ros2('param', 'set', FQN, 'publish_frequency', '50.0')).toMatch(/Set parameter successful/);
      expect(await ros2('param', 'get', FQN, 'publish_frequency')).toMatch(/Double value is: 50(\.0)?/);
      const listed = await ros2('param', 'list', FQN);
      for (const name of ['body_file', 'frame_prefix', 'watch_period', 'robot_description', 'use_sim_time']) expect(listed).toContain(`  ${name}`);
    });

    it('publish_robot_description_semantic: the SRDF on robot_description_semantic (transient local) and as a read-only parameter, as move_group reads them', async () => {
      const semantics: string[] = [];
      node.createSubscription('std_msgs/msg/String', `${NS}/robot_description_semantic`, { qos: latched() }, (m: Any) => semantics.push(m.data));
      expect(await ros2('param', 'set', FQN, 'collision_samples', '200.0')).toMatch(/Set parameter successful/);
      expect(await ros2('param', 'set', FQN, 'publish_robot_description_semantic', 'true')).toMatch(/Set parameter successful/);
      const srdf = await waitFor('robot_description_semantic', 30_000, () => semantics[0], p.output);
      expect(srdf).toContain('<robot name="PA10">');
      expect(srdf).toMatch(/<group name="arm">\s*<chain base_link="BASE" tip_link="J7_link"\/>/);
      expect(srdf).toContain('reason="Adjacent"');
      const param = await ros2('param', 'get', FQN, 'robot_description_semantic');
      expect(param).toContain('<group name="arm">');
      expect(await ros2('param', 'describe', FQN, 'robot_description_semantic')).toMatch(/Read only: true/);
      expect(await ros2('param', 'set', FQN, 'robot_description_semantic', '<robot name="x"/>')).toMatch(/Setting parameter failed/);
    });

    it('frame_prefix set at run time re-publishes /tf_static under the new prefix', async () => {
      expect(await ros2('param', 'set', FQN, 'frame_prefix', 'r2/')).toMatch(/Set parameter successful/);
      const tf = await waitFor('/tf_static with r2/', 30_000, () => statics.find((m) => m.transforms.some((t: Any) => t.child_frame_id.startsWith('r2/'))), p.output);
      expect(tf.transforms.every((t: Any) => t.header.frame_id.startsWith('r2/'))).toBe(true);
    });

    it('body_file switched to another model: new description on topic and parameter; to a broken file: refused with the located error', async () => {
      expect(await ros2('param', 'set', FQN, 'body_file', tank)).toMatch(/Set parameter successful/);
      await waitFor('Tank on robot_description', 30_000, () => descriptions.find((d) => d.includes('<robot name="Tank"')), p.output);
      expect(await ros2('param', 'get', FQN, 'robot_description')).toContain('<robot name="Tank"');
      const broken = join(scratch, 'broken.body');
      writeFileSync(broken, 'format: ChoreonoidBody\nformat_version: 2.0\nname: broken\nlinks: 12\n');
      const refused = await ros2('param', 'set', FQN, 'body_file', broken);
      expect(refused).toMatch(/Setting parameter failed/);
      expect(refused).toContain(`${broken}:`);
      expect(await ros2('param', 'get', FQN, 'body_file')).toContain(tank);
      expect(await ros2('param', 'get', FQN, 'robot_description')).toContain('<robot name="Tank"');
    });
  });

  it('a clean start logs no warning or error (not rcl\'s "Publisher already registered"), and /rosout carries the node\'s log', async () => {
    const NS = `/${tag}_clean`;
    const rosout = collect('rcl_interfaces/msg/Log', '/rosout', new rcl.QoS(1, 1000, 1, 1));
    const descriptions = collect('std_msgs/msg/String', `${NS}/robot_description`, latched());
    const p = bridge([sampleArm, '--ros-args', '-r', `__ns:=${NS}`, '-p', `mesh_dir:=${join(scratch, 'meshes-clean')}`]);
    await waitFor('robot_description', 30_000, () => descriptions[0], p.output);
    const fromNode = await waitFor('the node on /rosout', 30_000, () => {
      const mine = rosout.filter((m) => m.name === `${NS.slice(1)}.body_bridge`);
      return mine.some((m) => m.msg.includes('Robot initialized')) ? mine : undefined;
    }, p.output);
    expect(fromNode.map((m: Any) => m.msg).join('\n')).toContain(sampleArm);
    // Two seconds of running (joint_states at 10 Hz, CameraInfo, the file watch) before judging the log.
    await new Promise((r) => setTimeout(r, 2000));
    const out = p.output();
    expect(out).not.toMatch(/Publisher already registered/);
    expect(out).not.toMatch(/\[(WARN|ERROR|FATAL)\]/);
    expect(out).toMatch(/\[INFO\].*Robot initialized: SampleArm/);
    expect(fromNode.every((m: Any) => m.level <= 20)).toBe(true);
  });

  it.skipIf(withoutRsp)('/tf equals robot_state_publisher\'s on the same URDF and the same joint_states', async () => {
    const A = `/${tag}_bb`;
    const B = `/${tag}_rsp`;
    const descriptions = collect('std_msgs/msg/String', `${A}/robot_description`, latched());
    const tf = collect('tf2_msgs/msg/TFMessage', '/tf', new rcl.QoS(1, 1000, 1, 2));
    const statics = collect('tf2_msgs/msg/TFMessage', '/tf_static', new rcl.QoS(1, 100, 1, 1));
    const p = bridge([pa10, '--ros-args', '-r', `__ns:=${A}`, '-p', 'frame_prefix:=bb/', '-p', 'publish_joint_states:=false', '-p', 'publish_frequency:=0.0', '-p', `mesh_dir:=${join(scratch, 'meshes-rsp')}`]);
    const urdf: string = await waitFor('robot_description', 30_000, () => descriptions[0]?.data, p.output);
    const rsp = robotStatePublisher(B, urdf, { frame_prefix: 'rsp/' });
    // Both fixed trees first.
    await waitFor('rsp /tf_static', 30_000, () => statics.find((m) => m.transforms.some((t: Any) => t.child_frame_id.startsWith('rsp/'))), rsp.output);
    const toBb = node.createPublisher('sensor_msgs/msg/JointState', `${A}/joint_states`);
    const toRsp = node.createPublisher('sensor_msgs/msg/JointState', `${B}/joint_states`);
    const joints = ['J1', 'J2', 'J3', 'J4', 'J5', 'J6', 'J7'];
    const poses = [
      [0.3, -0.7, 1.1, 0.2, -1.4, 0.9, 0.05],
      [-1.2, 0.4, -0.3, 1.5, 0.6, -0.8, 2.0],
    ];
    for (const [i, position] of poses.entries()) {
      const stamp = { sec: 1000 + i, nanosec: 123456789 };
      const msg = { header: { stamp, frame_id: '' }, name: joints, position, velocity: [], effort: [] };
      const frameOf = (prefix: string) => (m: Any) => m.transforms.filter((t: Any) => t.child_frame_id.startsWith(prefix) && t.header.stamp.sec === stamp.sec);
      const both = await waitFor(`both /tf for pose ${i}`, 30_000, () => {
        toBb.publish(msg);
        toRsp.publish(msg);
        const bb = tf.flatMap(frameOf('bb/'));
        const rs = tf.flatMap(frameOf('rsp/'));
        return bb.length >= joints.length && rs.length >= joints.length ? { bb, rs } : undefined;
      }, () => p.output() + rsp.output());
      const byChild = (ts: Any[], prefix: string) => new Map<string, Any>(ts.map((t: Any) => [t.child_frame_id.slice(prefix.length), t]));
      const bb = byChild(both.bb, 'bb/');
      const rs = byChild(both.rs, 'rsp/');
      expect([...bb.keys()].sort()).toEqual([...rs.keys()].sort());
      let worst = 0;
      for (const [child, t] of rs) {
        const mine = bb.get(child)!;
        expect(mine.header.frame_id.slice(3)).toBe(t.header.frame_id.slice(4));
        expect(mine.header.stamp).toEqual(t.header.stamp);
        const a = mine.transform;
        const b = t.transform;
        // q and -q are the same rotation.
        const sign = Math.sign(a.rotation.w * b.rotation.w + a.rotation.x * b.rotation.x + a.rotation.y * b.rotation.y + a.rotation.z * b.rotation.z) || 1;
        for (const k of ['x', 'y', 'z'] as const) worst = Math.max(worst, Math.abs(a.translation[k] - b.translation[k]));
        for (const k of ['x', 'y', 'z', 'w'] as const) worst = Math.max(worst, Math.abs(a.rotation[k] - sign * b.rotation[k]));
      }
      console.log(`live: /tf of body_bridge vs robot_state_publisher, PA10 pose ${i}: ${rs.size} frames, largest difference ${worst}`);
      expect(worst).toBeLessThan(1e-12);
    }
    // The fixed trees agree as well.
    const fixed = (prefix: string) =>
      new Map<string, Any>(statics.flatMap((m) => m.transforms).filter((t: Any) => t.child_frame_id.startsWith(prefix)).map((t: Any) => [t.child_frame_id.slice(prefix.length), t.transform]));
    const bbFixed = fixed('bb/');
    const rsFixed = fixed('rsp/');
    expect(rsFixed.size).toBeGreaterThan(0);
    for (const [child, t] of rsFixed) {
      expect(bbFixed.has(child), child).toBe(true);
      expect(Math.abs(bbFixed.get(child).translation.z - t.translation.z)).toBeLessThan(1e-12);
    }
  });

  it.skipIf(withoutRsp)("at 1 kHz joint_states and publish_frequency 20, /tf comes from the same messages as robot_state_publisher's (the node leaves most untaken)", async () => {
    const A = `/${tag}_bbk`;
    const B = `/${tag}_rspk`;
    const descriptions = collect('std_msgs/msg/String', `${A}/robot_description`, latched());
    // The first transform's child frame says whose it is; its stamp is the message's.
    const stamps = { bb: [] as bigint[], rs: [] as bigint[] };
    node.createSubscription('tf2_msgs/msg/TFMessage', '/tf', { qos: new rcl.QoS(1, 1000, 1, 2) }, (m: Any) => {
      const t = m.transforms[0];
      const ns = BigInt(t.header.stamp.sec) * 1_000_000_000n + BigInt(t.header.stamp.nanosec);
      if (t.child_frame_id.startsWith('bbk/')) stamps.bb.push(ns);
      else if (t.child_frame_id.startsWith('rsk/')) stamps.rs.push(ns);
    });
    const p = bridge([pa10, '--ros-args', '-r', `__ns:=${A}`, '-p', 'frame_prefix:=bbk/', '-p', 'publish_joint_states:=false', '-p', 'publish_frequency:=20.0', '-p', `mesh_dir:=${join(scratch, 'meshes-rspk')}`]);
    const urdf: string = await waitFor('robot_description', 30_000, () => descriptions[0]?.data, p.output);
    const rsp = robotStatePublisher(B, urdf, { frame_prefix: 'rsk/', publish_frequency: '20.0' });
    const toBb = node.createPublisher('sensor_msgs/msg/JointState', `${A}/joint_states`);
    const toRsp = node.createPublisher('sensor_msgs/msg/JointState', `${B}/joint_states`);
    const joints = ['J1', 'J2', 'J3', 'J4', 'J5', 'J6', 'J7'];
    // Stamped with wall time (the node's clock here), in ns from one reading of the epoch.
    const epochNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
    const send = (i: number): bigint => {
      const ns = epochNs + process.hrtime.bigint();
      const stamp = { sec: Number(ns / 1_000_000_000n), nanosec: Number(ns % 1_000_000_000n) };
      const msg = { header: { stamp, frame_id: '' }, name: joints, position: joints.map((_, j) => Math.sin(i * 0.001 + j)), velocity: [], effort: [] };
      toBb.publish(msg);
      toRsp.publish(msg);
      return ns;
    };
    await waitFor('/tf from both', 30_000, () => (send(0), stamps.bb.length > 0 && stamps.rs.length > 0 ? true : undefined), () => p.output() + rsp.output());
    // A pause longer than the publish interval: both then publish on the stream's first message, and from there
    // on the rule picks the same messages for both, unless one of them loses or skips one it should have taken.
    await new Promise((r) => setTimeout(r, 300));
    const from = epochNs + process.hrtime.bigint();
    let sent = 0;
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      // About 1 kHz: a message whenever a millisecond has passed, the event loop turning in between.
      const next = process.hrtime.bigint() + 1_000_000n;
      send(++sent);
      while (process.hrtime.bigint() < next) await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 300));
    const bb = stamps.bb.filter((t) => t >= from);
    const rs = new Set(stamps.rs.filter((t) => t >= from));
    const shared = bb.filter((t) => rs.has(t)).length;
    const gaps = bb.slice(1).map((t, i) => Number(t - bb[i]!) / 1e6);
    console.log(`live: 1 kHz joint_states for 3 s (${sent} sent): /tf from body_bridge ${bb.length}, robot_state_publisher ${rs.size}, same stamps ${shared}; body_bridge's gaps ${Math.min(...gaps).toFixed(1)}–${Math.max(...gaps).toFixed(1)} ms`);
    expect(sent).toBeGreaterThan(1500);
    expect(rs.size).toBeGreaterThan(50);
    // One message lost by either side on the way (best effort) moves the rest of that side's picks: allow a little.
    expect(shared).toBeGreaterThanOrEqual(rs.size * 0.9);
    expect(Math.abs(bb.length - rs.size)).toBeLessThanOrEqual(2);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(50);
    await stop(rsp);
    await stop(p);
  });

  it('remapping, __ns, __node and a wildcard params file; two robots side by side with their own prefixes', async () => {
    const W = `/${tag}_w`;
    const params = join(scratch, 'wild.yaml');
    // Wildcards, as in a fleet's params file: every node called arm, in any namespace.
    writeFileSync(params, `/**/arm:\n  ros__parameters:\n    frame_prefix: w1/\n    publish_joint_states: false\n    mesh_dir: ${join(scratch, 'meshes-w')}\n`);
    const d1 = collect('std_msgs/msg/String', `${W}/robot_description`, latched());
    const d2 = collect('std_msgs/msg/String', `/${tag}_r2/robot_description`, latched());
    const tf = collect('tf2_msgs/msg/TFMessage', '/tf');
    const p1 = bridge([pa10, '--ros-args', '-r', `__ns:=${W}`, '-r', '__node:=arm', '-r', `joint_states:=/${tag}_sim/joint_states`, '--params-file', params]);
    const p2 = bridge([tank, '--ros-args', '-r', `__ns:=/${tag}_r2`, '-p', 'frame_prefix:=r2/', '-p', 'publish_joint_states:=false', '-p', `mesh_dir:=${join(scratch, 'meshes-r2')}`]);
    expect(await waitFor('/w robot_description', 30_000, () => d1[0]?.data, p1.output)).toContain('<robot name="PA10"');
    expect(await waitFor('/r2 robot_description', 30_000, () => d2[0]?.data, p2.output)).toContain('<robot name="Tank"');
    const nodes = await ros2('node', 'list');
    expect(nodes).toContain(`${W}/arm`);
    expect(nodes).toContain(`/${tag}_r2/body_bridge`);
    const sim = node.createPublisher('sensor_msgs/msg/JointState', `/${tag}_sim/joint_states`);
    const r2js = node.createPublisher('sensor_msgs/msg/JointState', `/${tag}_r2/joint_states`);
    const stamp = node.now().toMsg();
    await waitFor('/tf from both robots', 30_000, () => {
      sim.publish({ header: { stamp, frame_id: '' }, name: ['J1'], position: [0.25], velocity: [], effort: [] });
      r2js.publish({ header: { stamp, frame_id: '' }, name: ['TURRET_Y'], position: [0.25], velocity: [], effort: [] });
      const children = new Set(tf.flatMap((m) => m.transforms.map((t: Any) => t.child_frame_id)));
      return children.has('w1/J1_link') && children.has('r2/TURRET_Y_link') ? true : undefined;
    }, () => p1.output() + p2.output());
    expect(await ros2('param', 'get', `${W}/arm`, 'frame_prefix')).toMatch(/String value is: w1\//);
  });

  it('use_sim_time: stamps come from /clock, and with /clock standing still an edit of the body file still reloads', async () => {
    const NS = `/${tag}_sim`;
    const file = join(scratch, 'sim.body');
    copyFileSync(sampleArm, file);
    const clock = node.createPublisher('rosgraph_msgs/msg/Clock', '/clock');
    const simTime = { sec: 42, nanosec: 500 };
    const timer = setInterval(() => clock.publish({ clock: simTime }), 100);
    try {
      const states = collect('sensor_msgs/msg/JointState', `${NS}/joint_states`);
      const descriptions = collect('std_msgs/msg/String', `${NS}/robot_description`, latched());
      const p = bridge([file, '--ros-args', '-r', `__ns:=${NS}`, '-p', 'use_sim_time:=true', '-p', 'watch_period:=0.2', '-p', `mesh_dir:=${join(scratch, 'meshes-sim')}`]);
      await waitFor('robot_description', 30_000, () => descriptions[0], p.output);
      // The initial joint positions are stamped with the simulation's time.
      const first = await waitFor('joint_states at sim time', 30_000, () => states.find((m) => m.header.stamp.sec === simTime.sec), p.output);
      expect(first.header.stamp).toEqual(simTime);
      // The simulation is paused (/clock keeps saying 42.0000005): an edit reloads all the same.
      const text = readFileSync(file, 'utf8').replace(/^name: *SampleArm/m, 'name: SampleArmEdited');
      expect(text).toContain('SampleArmEdited');
      writeFileSync(file, text);
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const edited: string = await waitFor('the edited model on robot_description', 30_000, () => descriptions.map((d) => d.data).find((d: string) => d.includes('SampleArmEdited')), p.output);
      expect(edited).toContain('<robot name="SampleArmEdited"');
      expect(p.output()).toMatch(/file changed on disk/);
    } finally {
      clearInterval(timer);
    }
  });

  it('REP-105 from odometry: placement_topic with placement_odom_frame puts world → <prefix>odom on /tf_static where the body starts, and <prefix>odom → root on /tf per nav_msgs/Odometry, its pose as it is', async () => {
    const NS = `/${tag}_odom`;
    const statics = collect('tf2_msgs/msg/TFMessage', '/tf_static', new rcl.QoS(1, 100, 1, 1));
    const tf = collect('tf2_msgs/msg/TFMessage', '/tf');
    const p = bridge([
      tank, '--ros-args', '-r', `__ns:=${NS}`, '-p', 'frame_prefix:=m1/', '-p', 'publish_joint_states:=false', '-p', `mesh_dir:=${join(scratch, 'meshes-odom')}`,
      '-p', 'placement_frame:=world', '-p', 'placement:=[1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0]', '-p', 'placement_topic:=odom', '-p', 'placement_odom_frame:=odom',
    ]);
    const startPose = await waitFor('world → m1/odom on /tf_static', 30_000, () => statics.flatMap((m) => m.transforms).find((t: Any) => t.header.frame_id === 'world' && t.child_frame_id === 'm1/odom'), p.output);
    expect(startPose.transform.translation).toEqual({ x: 1, y: 2, z: 0 });
    const odom = node.createPublisher('nav_msgs/msg/Odometry', `${NS}/odom`);
    const stamp = node.now().toMsg();
    const zeros = new Array(36).fill(0);
    const moved = await waitFor('m1/odom → m1/CHASSIS on /tf', 30_000, () => {
      // The drive's own frame names (odom, base_link): the node's frames carry its prefix.
      odom.publish({
        header: { stamp, frame_id: 'odom' },
        child_frame_id: 'base_link',
        pose: { pose: { position: { x: 0.5, y: 0.25, z: 0 }, orientation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } }, covariance: zeros },
        twist: { twist: { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } }, covariance: zeros },
      });
      return tf.flatMap((m) => m.transforms).find((t: Any) => t.child_frame_id === 'm1/CHASSIS');
    }, p.output);
    expect(moved.header).toEqual({ stamp, frame_id: 'm1/odom' });
    expect(moved.transform.translation).toEqual({ x: 0.5, y: 0.25, z: 0 });
    expect(moved.transform.rotation.z).toBeCloseTo(Math.SQRT1_2, 12);
    // One parent for the root: nothing from world to it, static or live.
    expect([...statics, ...tf].flatMap((m) => m.transforms).filter((t: Any) => t.child_frame_id === 'm1/CHASSIS' && t.header.frame_id !== 'm1/odom')).toEqual([]);
    expect(p.output()).toMatch(/publishing world -> m1\/odom on \/tf_static where the body starts; m1\/odom -> m1\/CHASSIS follows odom \(nav_msgs\/Odometry, REP-105\)/);
    await stop(p);
  });

  it("relays every device type from choreonoid_ros-shaped messages: frame ids, CameraInfo, units, LaserScan angles", async () => {
    const NS = `/${tag}_dev`;
    const IN = `/${tag}_choreonoid`;
    const out = {
      image: collect('sensor_msgs/msg/Image', `${NS}/HEAD_CAMERA/image_raw`, new rcl.QoS(1, 5, 2, 2)),
      info: collect('sensor_msgs/msg/CameraInfo', `${NS}/HEAD_CAMERA/camera_info`, new rcl.QoS(1, 5, 2, 2)),
      scan: collect('sensor_msgs/msg/LaserScan', `${NS}/FRONT_LIDAR/scan`, new rcl.QoS(1, 5, 2, 2)),
      wrench: collect('geometry_msgs/msg/WrenchStamped', `${NS}/WRIST_FORCE/wrench`, new rcl.QoS(1, 5, 2, 2)),
      imu: collect('sensor_msgs/msg/Imu', `${NS}/IMU/imu`, new rcl.QoS(1, 5, 2, 2)),
    };
    const p = bridge([sampleArm, '--ros-args', '-r', `__ns:=${NS}`, '-p', 'frame_prefix:=d/', '-p', `device_input_namespace:=${IN}`, '-p', `mesh_dir:=${join(scratch, 'meshes-dev')}`]);
    const input = {
      image: node.createPublisher('sensor_msgs/msg/Image', `${IN}/HEAD_CAMERA`),
      scan: node.createPublisher('sensor_msgs/msg/LaserScan', `${IN}/FRONT_LIDAR/scan`),
      wrench: node.createPublisher('geometry_msgs/msg/WrenchStamped', `${IN}/WRIST_FORCE`),
      imu: node.createPublisher('sensor_msgs/msg/Imu', `${IN}/IMU`),
    };
    const stamp = { sec: 7, nanosec: 11 };
    const header = (frame: string) => ({ stamp, frame_id: frame });
    const w = 640;
    const h = 480;
    const pixels = new Uint8Array(w * h * 3).map((_, i) => i % 251);
    const ranges = Array.from({ length: 541 }, (_, i) => 1 + (i % 7) * 0.5);
    const fromStamp = (list: Any[]) => list.find((m) => m.header.stamp.sec === stamp.sec && m.header.stamp.nanosec === stamp.nanosec);
    await waitFor('every relayed device message', 60_000, () => {
      input.image.publish({ header: header('HEAD_CAMERA'), height: h, width: w, encoding: 'rgb8', is_bigendian: 0, step: w * 3, data: pixels });
      // choreonoid_ros labels a planar scan ∓yaw_range/2 whatever the model says, in the device frame.
      input.scan.publish({ header: header('FRONT_LIDAR'), angle_min: (-135 * Math.PI) / 180, angle_max: (135 * Math.PI) / 180, angle_increment: (0.5 * Math.PI) / 180, time_increment: 0, scan_time: 0.1, range_min: 0.05, range_max: 20, ranges, intensities: [] });
      // choreonoid_ros divides force and torque by 1000, and linear acceleration by 10.
      input.wrench.publish({ header: header('WRIST_FORCE'), wrench: { force: { x: 0.001, y: -0.002, z: 0.01 }, torque: { x: 0.0001, y: 0, z: -0.0003 } } });
      input.imu.publish({ header: header('IMU'), orientation: { x: 0, y: 0, z: 0, w: 1 }, orientation_covariance: new Array(9).fill(0), angular_velocity: { x: 0.1, y: 0.2, z: 0.3 }, angular_velocity_covariance: new Array(9).fill(0), linear_acceleration: { x: 0, y: 0, z: 0.981 }, linear_acceleration_covariance: new Array(9).fill(0) });
      return Object.values(out).every((list) => fromStamp(list)) ? true : undefined;
    }, p.output);
    const image = fromStamp(out.image);
    expect(image.header.frame_id).toBe('d/HEAD_CAMERA_optical_frame');
    expect([image.width, image.height, image.encoding]).toEqual([w, h, 'rgb8']);
    expect(Buffer.from(image.data).equals(Buffer.from(pixels))).toBe(true);
    const info = fromStamp(out.info);
    expect(info.header.frame_id).toBe('d/HEAD_CAMERA_optical_frame');
    expect([info.width, info.height, info.distortion_model]).toEqual([w, h, 'plumb_bob']);
    // Choreonoid's field_of_view (60°) spans the shorter side: fx = fy = (480 / 2) / tan(30°).
    const f = 240 / Math.tan(Math.PI / 6);
    expect(info.k[0]).toBeCloseTo(f, 6);
    expect(info.k[4]).toBeCloseTo(f, 6);
    expect([info.k[2], info.k[5]]).toEqual([(w - 1) / 2, (h - 1) / 2]);
    const scan = fromStamp(out.scan);
    expect(scan.header.frame_id).toBe('d/FRONT_LIDAR_scan_frame');
    expect(scan.angle_min).toBeCloseTo((-135 * Math.PI) / 180, 6);
    expect(scan.angle_max).toBeCloseTo((135 * Math.PI) / 180, 6);
    expect(Array.from(scan.ranges as Float32Array)).toEqual(Array.from(new Float32Array(ranges)));
    const wrench = fromStamp(out.wrench);
    expect(wrench.header.frame_id).toBe('d/WRIST_FORCE');
    expect(wrench.wrench.force.x).toBeCloseTo(1, 9);
    expect(wrench.wrench.force.z).toBeCloseTo(10, 9);
    expect(wrench.wrench.torque.z).toBeCloseTo(-0.3, 9);
    const imu = fromStamp(out.imu);
    expect(imu.header.frame_id).toBe('d/IMU');
    expect(imu.linear_acceleration.z).toBeCloseTo(9.81, 9);
    expect(imu.orientation_covariance[0]).toBe(-1);
    expect(imu.angular_velocity.z).toBeCloseTo(0.3, 9);
  });

  it('colcon build of the package, then ros2 launch body_bridge bridge.launch.py serves the model', { timeout: 1_500_000 }, async () => {
    // The package as a user would clone and build it (test/support/live-rig.ts: the repository's files, colcon).
    const setup = await installedPackage();
    const ws = join(setup, '..', '..');
    expect(readFileSync(join(ws, 'BUILT'), 'utf8')).not.toBe('');
    const NS = `${tag}_launch`;
    const descriptions = collect('std_msgs/msg/String', `/${NS}/robot_description`, latched());
    // launch_ros leaves its generated parameter files (launch_params_*) in TMPDIR: give it the scratch directory.
    const launchTmp = join(scratch, 'launch-tmp');
    mkdirSync(launchTmp);
    // No body_file: the installed package serves its bundled example from share/body_bridge/models.
    const launch = start('bash', ['-c', `source ${join(ws, 'install', 'setup.bash')} && exec ros2 launch body_bridge bridge.launch.py namespace:=${NS} frame_prefix:=${NS}/`], {
      ...process.env,
      TMPDIR: launchTmp,
    });
    const xml: string = await waitFor('robot_description from the launched node', 60_000, () => descriptions[0]?.data, launch.output);
    expect(xml).toContain('<robot name="SampleArm"');
    expect(launch.output()).toContain(join(ws, 'install', 'body_bridge', 'share', 'body_bridge', 'models', 'sample_arm.body'));
    expect(launch.output()).not.toMatch(/\[(WARN|ERROR)\]/);

    // Ctrl-C, as a terminal sends it: SIGINT to the whole foreground group. The node finishes cleanly, without
    // ros2 launch escalating to SIGTERM or SIGKILL, and nothing of the group is left behind: once it serves, and
    // once as it starts loading the model (seen once in a full run: killed by the signal, "process has died").
    await ctrlC(launch);
    const early = start('bash', ['-c', `source ${join(ws, 'install', 'setup.bash')} && exec ros2 launch body_bridge bridge.launch.py namespace:=${NS}_early`], {
      ...process.env,
      TMPDIR: launchTmp,
    });
    await waitFor('the node loading its model', 60_000, () => /\]: loading .* \(start\)/.test(early.output()) || undefined, early.output);
    await ctrlC(early);
  });
});
