// `npm run bench:live`: the node on a real ROS 2 graph, its CPU read from /proc while this process
// sends the load, beside robot_state_publisher on the same URDF and the same messages where there is
// a peer. Needs a sourced ROS 2 (with robot_state_publisher), rclnodejs built for it and `npm run build`.
// Cases (each in its own node process, so one case's idle work does not bill another):
//   tf     — 40-joint joint_states at 1 kHz for 10 s, publish_frequency 20, /tf subscribed on both;
//   cloud  — 640×480 COLOR_DEPTH clouds as choreonoid_ros writes them, 30 Hz (LIVE_CLOUD_HZ) for 10 s; every cloud
//            must come out as a cloud, a depth image and a CameraInfo;
//   image  — 640×480 rgb8 images, 30 Hz for 10 s; each comes out with its CameraInfo.
// Beside the node, in the same window: the peer (robot_state_publisher on the same joint_states; topic_tools'
// C++ relay of the same input topic) and the floor (bench/live-floor.ts: rclnodejs taking the bytes, relaying
// them unchanged). Every relay's output is subscribed here, so each one sends what it relays. The ratios
// node / peer and node / floor are taken within one run: the machine's load moves absolute figures.
// Large best-effort messages on loopback need a socket receive buffer that holds a whole frame: this
// script adds Cyclone's SocketReceiveBufferSize to CYCLONEDDS_URI for every process (docs/ros.md).
// Prints a Markdown table; --json FILE also writes the figures.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeJointState } from '../src/cdr/joint-state.js';
import { writePointCloud2 } from '../src/cdr/point-cloud2.js';
import { writeImage } from '../src/cdr/image.js';
import { loadRclnodejs, SPIN_TIMEOUT_MS } from '../src/ros/rclnodejs-transport.js';
import { writeStamp } from '../src/cdr/header-splice.js';
import { findRobotStatePublisher, findTopicToolsRelay, found } from '../test/support/peers.js';
import { launcherNodeFlags } from '../test/support/node-flags.js';
import { withMallocTunables } from '../src/ros/malloc-tunables.js';
import { cpuSeconds, cycloneUri, loadAverage, pageFaults, type Proc, sleep, start, stop, threadCpuSeconds, threadDelta, waitFor } from './live-procs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'ros', 'main.js');
const FLOOR = join(import.meta.dirname, 'live-floor.js');
const SECONDS = Number(process.env.LIVE_SECONDS ?? 10);
/** Extra node options for the body_bridge processes, e.g. LIVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'. */
const NODE_ARGS = (process.env.LIVE_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The flags the installed launcher gives the node (test/support/node-flags.ts), for the node and its floor alike. */
const NODE_FLAGS = launcherNodeFlags();
const JOINTS = 40;
/**
 * The clouds' rate: four 5 MB streams (the input, the node's cloud, the floor's and the C++ relay's) at 30 Hz
 * are more than a loaded 2-core machine carries over loopback, and then the processes compared handle
 * different numbers of clouds; a lower rate keeps the comparison to the same work.
 */
const CLOUD_HZ = Number(process.env.LIVE_CLOUD_HZ ?? 30);
/** LIVE_REPEAT=N runs the selected cases N times, alternating, and adds the median ratios. */
const REPEAT = Math.max(1, Number(process.env.LIVE_REPEAT ?? 1));
/**
 * The node runs with the glibc malloc settings its installed launcher gives it (src/ros/malloc-tunables.ts), and
 * the floor with the same, so node / floor is body_bridge's own work; LIVE_MALLOC_TUNABLES=0 runs both with
 * glibc's defaults. The C++ peers run as `ros2 run` starts them.
 */
const MALLOC_TUNED = process.env.LIVE_MALLOC_TUNABLES !== '0';

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

function largestGapMs(stamps: Iterable<bigint>): number {
  const sorted = [...stamps].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let largest = 0n;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! - sorted[i - 1]! > largest) largest = sorted[i]! - sorted[i - 1]!;
  return round1(Number(largest) / 1e6);
}

function chainBody(): string {
  const axes = ['Z', 'Y', 'X'];
  const links = [`  - { name: BASE, joint_type: fixed, mass: 1.0, center_of_mass: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }`];
  for (let i = 1; i <= JOINTS; i++) {
    links.push(
      `  - { name: J${i}, parent: ${i === 1 ? 'BASE' : `J${i - 1}`}, translation: [0.001, 0, 0.05], joint_type: revolute, ` +
        `joint_axis: ${axes[i % 3]}, joint_id: ${i - 1}, joint_range: [-180, 180], mass: 0.1, center_of_mass: [0, 0, 0.025], inertia: [0.0001, 0, 0, 0.0001, 0, 0.0001] }`,
    );
  }
  return ['format: ChoreonoidBody', 'format_version: 2.0', 'angle_unit: degree', 'name: LiveChain', 'root_link: BASE', 'links:', ...links, ''].join('\n');
}

function cameraBody(): string {
  const cam = (name: string, format: string) =>
    `      - { type: Camera, name: ${name}, id: 0, format: ${format}, width: 640, height: 480, field_of_view: 60, ` +
    `near_clip_distance: 0.02, far_clip_distance: 50, min_distance: 0.1, max_distance: 10, frame_rate: 30 }`;
  return [
    'format: ChoreonoidBody',
    'format_version: 2.0',
    'angle_unit: degree',
    'name: LiveCameras',
    'root_link: BASE',
    'links:',
    '  - name: BASE',
    '    joint_type: fixed',
    '    mass: 1.0',
    '    center_of_mass: [0, 0, 0]',
    '    inertia: [0.01, 0, 0, 0.01, 0, 0.01]',
    '    elements:',
    cam('CAM', 'COLOR'),
    cam('RANGE', 'COLOR_DEPTH'),
    '',
  ].join('\n');
}

/** An organized 640×480 cloud as BodyROS2Item::updateRangeVisionSensor writes a COLOR_DEPTH one: x, y, z, rgb. */
function upstreamCloud(): Uint8Array {
  const w = 640;
  const h = 480;
  const f = 240 / Math.tan(Math.PI / 6);
  const buf = new ArrayBuffer(w * h * 16);
  const xyz = new Float32Array(buf);
  const rgb = new Uint32Array(buf);
  for (let v = 0, i = 0; v < h; v++) {
    for (let u = 0; u < w; u++, i++) {
      const z = i % 97 === 0 ? Infinity : 1 + (2 * u) / w + v / h;
      xyz[4 * i] = z === Infinity ? Infinity : ((u - (w - 1) / 2) * z) / f;
      xyz[4 * i + 1] = z === Infinity ? Infinity : ((v - (h - 1) / 2) * z) / f;
      xyz[4 * i + 2] = z;
      rgb[4 * i + 3] = (i * 2654435761) >>> 8;
    }
  }
  const field = (name: string, offset: number, datatype: number) => ({ name, offset, datatype, count: 4 });
  return writePointCloud2({
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'RANGE' },
    height: h,
    width: w,
    fields: [field('x', 0, 7), field('y', 4, 7), field('z', 8, 7), field('rgb', 12, 6)],
    is_bigendian: false,
    point_step: 16,
    row_step: 0,
    data: new Uint8Array(buf),
    is_dense: true,
  });
}

function upstreamImage(): Uint8Array {
  const data = new Uint8Array(640 * 480 * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
  return writeImage({ header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'CAM' }, height: 480, width: 640, encoding: 'rgb8', is_bigendian: 0, step: 1920, data });
}


/** Sends `send(i)` at `hz` for `seconds`, in bursts that catch up with the schedule; returns how many were sent. */
async function paced(hz: number, seconds: number, send: (i: number) => void): Promise<number> {
  const t0 = performance.now();
  const total = Math.round(hz * seconds);
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * hz) + 1);
    while (sent < due) send(sent++);
    await sleep(Math.max(0, ((sent / hz) * 1000 - (performance.now() - t0)) | 0));
  }
  return sent;
}

export interface LiveCase {
  name: string;
  seconds: number;
  /** CPU seconds of the node over the measured window. */
  nodeCpuS: number;
  /** The same by thread name (the JavaScript thread is the process's own name, `node`). */
  nodeThreads: Record<string, number>;
  peer?: { name: string; cpuS: number; threads: Record<string, number> };
  /**
   * The same traffic through an rclnodejs node that does nothing of its own (bench/live-floor.ts): taking
   * the bytes (joint_states), or taking them and publishing them again unchanged (relays).
   */
  floorCpuS: number;
  floorThreads: Record<string, number>;
  sent: number;
  received: Record<string, number>;
  /** Page faults over the window, per process. */
  faults: { node: number; peer: number; floor: number };
}

async function main(): Promise<void> {
  if (!process.env.AMENT_PREFIX_PATH) throw new Error('source ROS 2 first (AMENT_PREFIX_PATH is not set)');
  if (!existsSync(MAIN)) throw new Error('run npm run build first');
  const loadAtStart = loadAverage();
  const loaded = await loadRclnodejs();
  if ('error' in loaded) throw new Error(loaded.error);
  const rcl: Any = loaded.rcl;
  const rsp = found(findRobotStatePublisher()).exe;
  const relayExe = found(findTopicToolsRelay()).exe;
  const only = new Set((process.argv.find((a) => a.startsWith('--only='))?.slice(7) ?? 'tf,cloud,image').split(','));
  const jsonOut = process.argv.find((a) => a.startsWith('--json='))?.slice(7);

  process.env.CYCLONEDDS_URI = cycloneUri();
  const env = { ...process.env };
  const jsEnv = MALLOC_TUNED ? { ...env, GLIBC_TUNABLES: withMallocTunables(env.GLIBC_TUNABLES) } : env;
  const scratch = mkdtempSync(join(tmpdir(), 'body-bridge-live-bench-'));
  const procs: Proc[] = [];
  const tag = `bbl${process.pid}`;
  await rcl.init();
  const options = new rcl.NodeOptions();
  // rcl already made this node's /rosout publisher on Humble (see rclCreatesRosoutPublisher).
  options.enableRosout = false;
  const node = new rcl.Node(`live_bench_${process.pid}`, '', undefined, options);
  node.spin();
  const sensorQoS = new rcl.QoS(rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST, 5, rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT);
  const latched = new rcl.QoS(1, 1, 1, 1);
  const results: LiveCase[] = [];
  const bridge = (body: string, ns: string, params: string[]): Proc => {
    const p = start(process.execPath, [...NODE_FLAGS, ...NODE_ARGS, MAIN, body, '--ros-args', '-r', `__ns:=${ns}`, '-p', `mesh_dir:=${join(scratch, `meshes${ns.replace(/\//g, '_')}`)}`, ...params.flatMap((x) => ['-p', x])], jsEnv);
    procs.push(p);
    return p;
  };
  const tfCount = { bb: 0, rs: 0 };
  // Each /tf's stamp (its first transform's, at byte 8) → how long after that stamp it arrived here (ms): the
  // joint_states carry the wall time they were sent at, so this is the message's whole trip, and the stamps say
  // whether both published on the same joint_states messages.
  const tfArrivals = { bb: new Map<bigint, number>(), rs: new Map<bigint, number>() };
  const arrival = (b: Buffer, into: Map<bigint, number>): void => {
    const stamp = BigInt(b.readInt32LE(8)) * 1_000_000_000n + BigInt(b.readUInt32LE(12));
    into.set(stamp, Number(BigInt(Date.now()) * 1_000_000n - stamp) / 1e6);
  };
  // Counted on the bytes: the first transform's frame id starts at byte 20 (header, count, stamp, length).
  node.createSubscription('tf2_msgs/msg/TFMessage', '/tf', { qos: new rcl.QoS(1, 100, 1, 2), isRaw: true }, (b: Buffer) => {
    if (b[20] === 0x62 && b[21] === 0x62 && b[22] === 0x2f) {
      tfCount.bb++;
      arrival(b, tfArrivals.bb);
    } else if (b[20] === 0x72 && b[21] === 0x73 && b[22] === 0x2f) {
      tfCount.rs++;
      arrival(b, tfArrivals.rs);
    }
  });
  try {
    const tfCase = async (run: string): Promise<void> => {
      const body = join(scratch, 'chain.body');
      writeFileSync(body, chainBody());
      const A = `/${tag}${run}_bb`;
      const B = `/${tag}${run}_rsp`;
      const descriptions: string[] = [];
      node.createSubscription('std_msgs/msg/String', `${A}/robot_description`, { qos: latched }, (m: Any) => descriptions.push(m.data));
      const bb = bridge(body, A, ['frame_prefix:=bb/', 'publish_joint_states:=false', 'publish_frequency:=20.0']);
      const urdf = await waitFor('robot_description', 60_000, () => descriptions[0], bb.output);
      const params = join(scratch, 'rsp.yaml');
      writeFileSync(params, `${B}/robot_state_publisher:\n  ros__parameters:\n    frame_prefix: rs/\n    publish_frequency: 20.0\n    robot_description: ${JSON.stringify(urdf)}\n`);
      const peer = start(rsp, ['--ros-args', '-r', `__ns:=${B}`, '--params-file', params], env);
      procs.push(peer);
      const toBb = node.createPublisher('sensor_msgs/msg/JointState', `${A}/joint_states`);
      const toRsp = node.createPublisher('sensor_msgs/msg/JointState', `${B}/joint_states`);
      const F = `/${tag}${run}_floor`;
      // LIVE_FLOOR_TF=1: the floor also sends a /tf of the node's size at its rate, subscribed here as /tf is
      // (what sending the node's output costs, apart from computing it).
      const floorTf = process.env.LIVE_FLOOR_TF === '1' ? `${F}/tf` : null;
      if (floorTf) node.createSubscription('tf2_msgs/msg/TFMessage', floorTf, { qos: new rcl.QoS(1, 100, 1, 2), isRaw: true }, () => undefined);
      const floorEnv = floorTf ? { ...jsEnv, LIVE_FLOOR_TF: `${floorTf}:${JOINTS}:20` } : jsEnv;
      const floor = start(process.execPath, [...NODE_FLAGS, FLOOR, 'sink', 'sensor_msgs/msg/JointState', `${F}/joint_states`], floorEnv);
      procs.push(floor);
      const toFloor = node.createPublisher('sensor_msgs/msg/JointState', `${F}/joint_states`);
      const names = Array.from({ length: JOINTS }, (_, i) => `J${i + 1}`);
      const send = (i: number): void => {
        const ns = BigInt(Date.now()) * 1_000_000n;
        const bytes = writeJointState({
          header: { stamp: { sec: Number(ns / 1_000_000_000n), nanosec: Number(ns % 1_000_000_000n) }, frame_id: '' },
          name: names,
          position: names.map((_, j) => Math.sin(i * 0.001 + j)),
          velocity: [],
          effort: [],
        }) as Buffer;
        toBb.publish(bytes);
        toRsp.publish(bytes);
        toFloor.publish(bytes);
      };
      // Both publish /tf before the window opens (discovery done, caches warm).
      await waitFor('/tf from both', 60_000, () => {
        send(0);
        return tfCount.bb > 0 && tfCount.rs > 0 ? true : undefined;
      }, () => bb.output() + peer.output());
      await paced(1000, 2, send);
      tfArrivals.bb.clear();
      tfArrivals.rs.clear();
      const before = {
        bb: cpuSeconds(bb.child.pid!),
        rs: cpuSeconds(peer.child.pid!),
        floor: cpuSeconds(floor.child.pid!),
        faults: { node: pageFaults(bb.child.pid!), peer: pageFaults(peer.child.pid!), floor: pageFaults(floor.child.pid!) },
        tf: { ...tfCount },
        threads: threadCpuSeconds(bb.child.pid!),
        rsThreads: threadCpuSeconds(peer.child.pid!),
        floorThreads: threadCpuSeconds(floor.child.pid!),
      };
      const sent = await paced(1000, SECONDS, send);
      await sleep(200);
      results.push({
        name: `${JOINTS}-joint joint_states at 1 kHz, publish_frequency 20`,
        seconds: SECONDS,
        nodeCpuS: cpuSeconds(bb.child.pid!) - before.bb,
        nodeThreads: threadDelta(threadCpuSeconds(bb.child.pid!), before.threads),
        peer: { name: 'robot_state_publisher', cpuS: cpuSeconds(peer.child.pid!) - before.rs, threads: threadDelta(threadCpuSeconds(peer.child.pid!), before.rsThreads) },
        floorCpuS: cpuSeconds(floor.child.pid!) - before.floor,
        floorThreads: threadDelta(threadCpuSeconds(floor.child.pid!), before.floorThreads),
        sent,
        received: {
          '/tf from body_bridge': tfCount.bb - before.tf.bb,
          '/tf from robot_state_publisher': tfCount.rs - before.tf.rs,
          // robot_state_publisher publishes on the first message 50 ms past the last one it published on; a node
          // that took that message late, or lost it, shows a longer gap here (and a longer trip below).
          'largest gap between /tf stamps ms, body_bridge': largestGapMs(tfArrivals.bb.keys()),
          'robot_state_publisher': largestGapMs(tfArrivals.rs.keys()),
          'ms from stamp to /tf here, body_bridge median': round1(median([...tfArrivals.bb.values()])),
          'robot_state_publisher median': round1(median([...tfArrivals.rs.values()])),
          'body_bridge max': round1(Math.max(...tfArrivals.bb.values())),
          'robot_state_publisher max': round1(Math.max(...tfArrivals.rs.values())),
        },
        faults: { node: pageFaults(bb.child.pid!) - before.faults.node, peer: pageFaults(peer.child.pid!) - before.faults.peer, floor: pageFaults(floor.child.pid!) - before.faults.floor },
      });
      await stop(bb);
      await stop(peer);
      await stop(floor);
    };

    const cameraCase = async (
      run: string,
      name: string,
      device: 'CAM' | 'RANGE',
      input: Uint8Array,
      inputTopic: string,
      hz: number,
      type: string,
      outputs: Record<string, [topic: string, type: string]>,
    ): Promise<void> => {
      const body = join(scratch, 'cameras.body');
      writeFileSync(body, cameraBody());
      const NS = `/${tag}${run}_${device.toLowerCase()}`;
      const IN = `/${tag}${run}_in_${device.toLowerCase()}`;
      const counts: Record<string, number> = {};
      // Only what answers our frames, which are stamped 1 s + frame number ns.
      const ours = (b: Buffer): boolean => new DataView(b.buffer, b.byteOffset, b.byteLength).getInt32(4, true) === 1;
      for (const [label, [topic, outType]] of Object.entries(outputs)) {
        counts[label] = 0;
        node.createSubscription(outType, `${NS}/${topic}`, { qos: sensorQoS, isRaw: true }, (b: Buffer) => void (ours(b) && counts[label]!++));
      }
      // Only the relay: no standalone CameraInfo, and no initial joint_states (joint_state_publisher's 10 Hz for a
      // first look, stopped in a simulation by its own joint_states), which the C++ relay and the floor do not send.
      const p = bridge(body, NS, [`device_input_namespace:=${IN}`, 'camera_info_without_images:=false', 'publish_joint_states:=false']);
      const floorOut = `/${tag}${run}_floor_${device.toLowerCase()}`;
      const floor = start(process.execPath, [...NODE_FLAGS, FLOOR, 'relay', type, `${IN}/${inputTopic}`, floorOut], jsEnv);
      procs.push(floor);
      // topic_tools' C++ relay of the same input: the same bytes out again, from C++ (rclcpp's generic subscription and publisher).
      const relayOut = `/${tag}${run}_cpp_relay_${device.toLowerCase()}`;
      const relay = start(relayExe, [`${IN}/${inputTopic}`, relayOut], env);
      procs.push(relay);
      const passed = { floor: 0, relay: 0 };
      node.createSubscription(type, floorOut, { qos: sensorQoS, isRaw: true }, (b: Buffer) => void (ours(b) && passed.floor++));
      node.createSubscription(type, relayOut, { qos: sensorQoS, isRaw: true }, (b: Buffer) => void (ours(b) && passed.relay++));
      const pub = node.createPublisher(type, `${IN}/${inputTopic}`, { qos: sensorQoS });
      const send = (i: number): void => {
        writeStamp(input, { sec: 1, nanosec: i });
        pub.publish(input as Buffer);
      };
      await waitFor(`${name}: the first output of the node, the floor and the C++ relay`, 60_000, () => {
        send(999_999);
        return Object.values(counts).every((c) => c > 0) && passed.floor > 0 && passed.relay > 0 ? true : undefined;
      }, () => p.output() + relay.output());
      await sleep(500);
      for (const k of Object.keys(counts)) counts[k] = 0;
      passed.floor = 0;
      passed.relay = 0;
      const pids = { node: p.child.pid!, floor: floor.child.pid!, relay: relay.child.pid! };
      const before = { node: cpuSeconds(pids.node), floor: cpuSeconds(pids.floor), relay: cpuSeconds(pids.relay) };
      const beforeFaults = { node: pageFaults(pids.node), floor: pageFaults(pids.floor), relay: pageFaults(pids.relay) };
      const beforeThreads = { node: threadCpuSeconds(pids.node), floor: threadCpuSeconds(pids.floor), relay: threadCpuSeconds(pids.relay) };
      const sent = await paced(hz, SECONDS, send);
      await sleep(500);
      results.push({
        name,
        seconds: SECONDS,
        nodeCpuS: cpuSeconds(pids.node) - before.node,
        nodeThreads: threadDelta(threadCpuSeconds(pids.node), beforeThreads.node),
        peer: { name: 'topic_tools relay (C++)', cpuS: cpuSeconds(pids.relay) - before.relay, threads: threadDelta(threadCpuSeconds(pids.relay), beforeThreads.relay) },
        floorCpuS: cpuSeconds(pids.floor) - before.floor,
        floorThreads: threadDelta(threadCpuSeconds(pids.floor), beforeThreads.floor),
        sent,
        received: { ...counts, 'floor relay': passed.floor, 'C++ relay': passed.relay },
        faults: { node: pageFaults(pids.node) - beforeFaults.node, peer: pageFaults(pids.relay) - beforeFaults.relay, floor: pageFaults(pids.floor) - beforeFaults.floor },
      });
      await stop(p);
      await stop(floor);
      await stop(relay);
    };
    // Repeated runs alternate the cases, so a change in the machine's load reaches each of them.
    for (let i = 0; i < REPEAT; i++) {
      const run = `r${i}`;
      if (only.has('tf')) await tfCase(run);
      if (only.has('cloud')) {
        await cameraCase(run, `640×480 COLOR_DEPTH cloud relay at ${CLOUD_HZ} Hz`, 'RANGE', upstreamCloud(), 'RANGE/point_cloud', CLOUD_HZ, 'sensor_msgs/msg/PointCloud2', {
          points: ['RANGE/points', 'sensor_msgs/msg/PointCloud2'],
          'depth image': ['RANGE/depth/image_raw', 'sensor_msgs/msg/Image'],
          'depth CameraInfo': ['RANGE/depth/camera_info', 'sensor_msgs/msg/CameraInfo'],
        });
      }
      if (only.has('image')) {
        await cameraCase(run, '640×480 rgb8 image relay at 30 Hz', 'CAM', upstreamImage(), 'CAM', 30, 'sensor_msgs/msg/Image', {
          image: ['CAM/image_raw', 'sensor_msgs/msg/Image'],
          CameraInfo: ['CAM/camera_info', 'sensor_msgs/msg/CameraInfo'],
        });
      }
    }
  } finally {
    for (const p of procs) await stop(p);
    node.destroy();
    rcl.shutdown();
    rmSync(scratch, { recursive: true, force: true });
  }

  const ratio = (a: number, b: number | undefined): string => (b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : '—');
  const lines = [
    `load average (1, 5, 15 min) at the start ${loadAtStart}, at the end ${loadAverage()}; node and floor with ${MALLOC_TUNED ? `GLIBC_TUNABLES=${jsEnv.GLIBC_TUNABLES}` : "glibc malloc's defaults"}, ` +
      `node flags [${NODE_FLAGS.join(' ')}], floor ${process.env.LIVE_FLOOR_RELEASE === '0' ? 'keeping' : 'releasing'} what it took, spinning at ${process.env.LIVE_FLOOR_SPIN_MS ?? SPIN_TIMEOUT_MS} ms`,
    '',
    '| case | body_bridge CPU-s | % of a core | peer | peer CPU-s | node / peer | floor CPU-s | node / floor | sent | received |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const received = Object.entries(r.received).map(([k, v]) => `${k}: ${v}`).join(', ');
    lines.push(
      `| ${r.name}, ${r.seconds} s | ${r.nodeCpuS.toFixed(2)} | ${((100 * r.nodeCpuS) / r.seconds).toFixed(1)} % | ${r.peer?.name ?? '—'} | ` +
        `${r.peer ? r.peer.cpuS.toFixed(2) : '—'} | ${ratio(r.nodeCpuS, r.peer?.cpuS)} | ${r.floorCpuS.toFixed(2)} | ${ratio(r.nodeCpuS, r.floorCpuS)} | ${r.sent} | ${received} |`,
    );
  }
  if (REPEAT > 1) {
    lines.push('', '| case | runs | node / peer (median, range) | node / floor (median, range) |', '|---|---|---|---|');
    for (const name of [...new Set(results.map((r) => r.name))]) {
      const runs = results.filter((r) => r.name === name);
      const toPeer = runs.filter((r) => r.peer && r.peer.cpuS > 0).map((r) => r.nodeCpuS / r.peer!.cpuS);
      const toFloor = runs.filter((r) => r.floorCpuS > 0).map((r) => r.nodeCpuS / r.floorCpuS);
      const span = (xs: number[]): string => (xs.length ? `${median(xs).toFixed(2)}× (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})` : '—');
      lines.push(`| ${name} | ${runs.length} | ${span(toPeer)} | ${span(toFloor)} |`);
    }
  }
  console.log(lines.join('\n'));
  console.log('');
  console.log('CPU-s by thread (node; peer; floor):');
  const threads = (t: Record<string, number> | undefined): string => (t ? Object.entries(t).map(([k, v]) => `${k} ${v}`).join(', ') : '—');
  for (const r of results) console.log(`  ${r.name}: ${threads(r.nodeThreads)}; ${threads(r.peer?.threads)}; ${threads(r.floorThreads)}`);
  console.log('Page faults (node; peer; floor):');
  for (const r of results) console.log(`  ${r.name}: ${r.faults.node}; ${r.faults.peer}; ${r.faults.floor}`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ cycloneddsUri: process.env.CYCLONEDDS_URI, glibcTunables: MALLOC_TUNED ? jsEnv.GLIBC_TUNABLES : null, loadAverage: { start: loadAtStart, end: loadAverage() }, results }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
