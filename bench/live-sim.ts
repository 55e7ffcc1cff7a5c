// `npm run bench:live-sim`: body_bridge on the real streams of a Choreonoid simulation, beside C++ nodes doing
// the same job on the same topics in the same window. Choreonoid (choreonoid_ros's `choreonoid`, under Xvfb with
// Mesa's software OpenGL) simulates one model at a time in a small scene (floor, wall, box: something for the
// sensors to see) with the AIST simulator, GLVisionSimulator, BodyROS2Item and WorldROS2Item (/clock); the
// simulation is started with --start-simulation and left running. Models:
//   rover — test/models/roles/pantilt-rover.body, our model of Choreonoid's ROS 2 mobile-robot tutorial robot
//           (a LiDAR, LaserScan of 541 rays at 10 Hz, and a 64×48 colour camera at 30 Hz on a pan/tilt head);
//   tank  — the corpus's choreonoid/share/model/Tank/Tank.body (its Kinect: COLOR_DEPTH 320×240 at 30 Hz, an
//           image and a cloud per frame; its Theta and VLP-16 are off in the model, so Choreonoid sends nothing
//           for them).
// Measured over LIVE_SECONDS (20) windows, LIVE_REPEAT (3) of them in one simulation, each process's CPU from /proc:
//   body_bridge — the built node (dist/ros/main.js, with the malloc tunables of its installed launcher) serving
//                 the same body file in sim time: /tf from the body's joint_states, and every device relayed;
//   C++ peers   — topic_tools' relay of every device input topic Choreonoid publishes, plus robot_state_publisher
//                 on the same joint_states with body_bridge's URDF: what a C++ graph runs for the same job;
//   floor       — one rclnodejs node relaying the same inputs unchanged and taking the joint_states and /clock
//                 (which body_bridge takes in sim time) (bench/live-floor.ts many), with the same malloc tunables.
// Every output of all three is subscribed by this script, so each one sends what it makes. Choreonoid's own
// CPU and the load average go with every window: they are what the machine was doing.
// Needs ROS 2 sourced with choreonoid_ros, topic_tools and robot_state_publisher, Xvfb, and `npm run build`.
// Prints a Markdown table; --json=FILE writes the figures; --only=rover or --only=tank.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadRobotModel } from '../src/load.js';
import { loadRclnodejs } from '../src/ros/rclnodejs-transport.js';
import { withMallocTunables } from '../src/ros/malloc-tunables.js';
import { corpusDir } from '../test/support/oracle.js';
import { guiEnv, startXvfb } from '../test/support/live-rig.js';
import { findChoreonoidRos, findRobotStatePublisher, findTopicToolsRelay, found } from '../test/support/peers.js';
import { launcherNodeFlags } from '../test/support/node-flags.js';
import { cpuSeconds, cycloneUri, loadAverage, pageFaults, type Proc, sleep, start, stop, waitFor } from './live-procs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'ros', 'main.js');
const FLOOR = join(import.meta.dirname, 'live-floor.js');
const SCENE = join(ROOT, 'test', 'live', 'choreonoid');
const SECONDS = Number(process.env.LIVE_SECONDS ?? 20);
const REPEAT = Math.max(1, Number(process.env.LIVE_REPEAT ?? 3));
const NODE_ARGS = (process.env.LIVE_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The flags the installed launcher gives the node (test/support/node-flags.ts), for the node and its floor alike. */
const NODE_FLAGS = launcherNodeFlags();
const MALLOC_TUNED = process.env.LIVE_MALLOC_TUNABLES !== '0';
/** How long Choreonoid gets to load, render its first frames and send every stream. */
const START_MS = 240_000;

interface SimModel {
  key: string;
  file: string;
}

const MODELS: SimModel[] = [
  { key: 'rover', file: join(ROOT, 'test', 'models', 'roles', 'pantilt-rover.body') },
  { key: 'tank', file: join(corpusDir, 'choreonoid', 'share', 'model', 'Tank', 'Tank.body') },
];

/** The device message types choreonoid_ros publishes (BodyROS2Item), which the relays carry. */
const DEVICE_TYPES = new Set(['sensor_msgs/msg/Image', 'sensor_msgs/msg/PointCloud2', 'sensor_msgs/msg/LaserScan', 'sensor_msgs/msg/Imu', 'geometry_msgs/msg/WrenchStamped']);
/** What body_bridge's outputs are subscribed as (its device topics, CameraInfo and /tf). */
const OUTPUT_TYPES = new Set([...DEVICE_TYPES, 'sensor_msgs/msg/CameraInfo', 'tf2_msgs/msg/TFMessage']);

/** A body item in Choreonoid's project format; `extra` are further data lines (already indented). */
function bodyItem(id: number, name: string, file: string, at: [number, number, number], children = '', extra: string[] = []): string {
  const pose = `[ ${at.join(', ')} ]`;
  return [
    `        -`,
    `          id: ${id}`,
    `          name: "${name}"`,
    `          plugin: Body`,
    `          class: BodyItem`,
    `          is_checked: true`,
    `          data:`,
    `            file: "${file}"`,
    `            format: CHOREONOID-BODY`,
    `            root_translation: ${pose}`,
    `            root_rotation: [ 0, 0, 1, 0 ]`,
    `            initial_root_translation: ${pose}`,
    `            initial_root_rotation: [ 0, 0, 1, 0 ]`,
    `            fix_root: true`,
    `            collision_detection: false`,
    `            lock_location: true`,
    ...extra,
    ...(children ? [`          children:`, children] : []),
  ].join('\n');
}

/**
 * The scene: the robot fixed above the floor (a still base, so every window sees the same streams), a wall 3 m
 * ahead and a box to its front left, the AIST simulator at 1 ms in real time and GLVisionSimulator as the live
 * Choreonoid suite runs it (test/live/choreonoid/Checker.cnoid).
 */
function project(robotName: string, robotFile: string, sceneDir: string): string {
  const ros = [`            -`, `              id: 4`, `              name: "BodyROS2"`, `              plugin: ROS2`, `              class: BodyROS2Item`, `              data:`, `                joint_state_update_rate: 100`].join('\n');
  return [
    'items:',
    '  id: 0',
    '  name: "RootItem"',
    '  plugin: Base',
    '  class: RootItem',
    '  is_builtin_item: true',
    '  children:',
    '    -',
    '      id: 1',
    '      name: "World"',
    '      plugin: Body',
    '      class: WorldItem',
    '      is_checked: true',
    '      data:',
    '        collision_detection: false',
    '        collision_detector: AISTCollisionDetector',
    '        default_material_table_file: "${SHARE}/default/materials.yaml"',
    '      children:',
    '        -',
    '          id: 2',
    '          name: "WorldROS2"',
    '          plugin: ROS2',
    '          class: WorldROS2Item',
    '          data:',
    '            max_clock_publishing_rate: 100',
    bodyItem(3, robotName, robotFile, [0, 0, 0.15], ros, ['            scene_sensitive: true']),
    bodyItem(7, 'Floor', join(sceneDir, 'Floor.body'), [1.5, 0, -0.05]),
    bodyItem(8, 'Wall', join(sceneDir, 'Wall.body'), [3.3, 0.2, 1.0]),
    bodyItem(9, 'Box', join(sceneDir, 'Box.body'), [1.7, 0.75, 0.25]),
    '        -',
    '          id: 10',
    '          name: "AISTSimulator"',
    '          plugin: Body',
    '          class: AISTSimulatorItem',
    '          data:',
    '            time_step: 0.001',
    '            realtime_sync_mode: compensatory',
    '            recording: "off"',
    '            time_range_mode: unlimited',
    '            is_active_control_time_range_mode: false',
    '            output_all_link_positions: true',
    '            dynamics_mode: "Forward dynamics"',
    '            gravity: [ 0, 0, -9.80665 ]',
    '          children:',
    '            -',
    '              id: 11',
    '              name: "GLVisionSimulator"',
    '              plugin: Body',
    '              class: GLVisionSimulatorItem',
    '              data:',
    '                max_frame_rate: 1000',
    '                max_latency: 1',
    '                record_vision_data: false',
    '                thread_mode: Sensor',
    '                best_effort: false',
    '                all_scene_objects: false',
    '                range_sensor_precision_ratio: 2',
    '                depth_error: 0',
    '                enable_head_light: true',
    '                enable_additional_lights: true',
    '                antialiasing: false',
    '',
  ].join('\n');
}

export interface SimWindow {
  seconds: number;
  load: string;
  cpuS: { body_bridge: number; relays: number; robot_state_publisher: number; floor: number; choreonoid: number };
  faults: { body_bridge: number; relays: number; robot_state_publisher: number; floor: number };
  /** Messages per second: what came from Choreonoid, and what each of the three sent. */
  rates: { inputs: Record<string, number>; body_bridge: Record<string, number>; relays: number; floor: number };
}

export interface SimResult {
  model: string;
  file: string;
  inputs: Record<string, string>;
  windows: SimWindow[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function simulate(rcl: Any, node: Any, m: SimModel, scratch: string, display: string): Promise<SimResult> {
  const model = loadRobotModel(m.file);
  const body = model.name;
  const bodyNs = `/${body}`.replace(/-/g, '_');
  const dir = join(scratch, m.key);
  const runtime = join(dir, 'xdg');
  mkdirSync(runtime, { recursive: true });
  chmodSync(runtime, 0o700);
  for (const f of ['Floor.body', 'Wall.body', 'Box.body']) copyFileSync(join(SCENE, f), join(dir, f));
  writeFileSync(join(dir, 'scene.cnoid'), project(body, m.file, dir));
  const procs: Proc[] = [];
  const env = { ...process.env };
  const jsEnv = MALLOC_TUNED ? { ...env, GLIBC_TUNABLES: withMallocTunables(env.GLIBC_TUNABLES) } : env;
  const sensorQoS = new rcl.QoS(rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST, 5, rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT);
  const subs: Any[] = [];
  const counter = (topic: string, type: string, count: (b: Buffer) => void): void => {
    subs.push(node.createSubscription(type, topic, { qos: sensorQoS, isRaw: true }, count));
  };
  try {
    const choreonoid = start(found(findChoreonoidRos()).exe, [join(dir, 'scene.cnoid'), '--start-simulation'], guiEnv(display, { XDG_RUNTIME_DIR: runtime }));
    procs.push(choreonoid);
    // The inputs: every device topic Choreonoid publishes under the body's namespace (its node's), with data.
    const inputCounts: Record<string, number> = {};
    const inputs: Record<string, string> = {};
    const deviceNames = model.devices.map((d) => `${bodyNs}/${d.name}`.replace(/-/g, '_'));
    await waitFor(`Choreonoid's device topics of ${body}`, START_MS, () => {
      for (const { name, types } of node.getTopicNamesAndTypes() as { name: string; types: string[] }[]) {
        const type = types.find((t) => DEVICE_TYPES.has(t));
        if (!type || inputs[name] || !deviceNames.some((d) => name === d || name.startsWith(`${d}/`))) continue;
        inputs[name] = type;
        inputCounts[name] = 0;
        counter(name, type, () => void inputCounts[name]!++);
      }
      return Object.values(inputCounts).some((c) => c > 0) ? true : undefined;
    }, choreonoid.output);
    // Choreonoid makes the publishers of every device as the simulation starts; a few seconds more for the
    // slowest renderer's first frame.
    await sleep(5000);

    // body_bridge as a user runs it beside choreonoid_ros.
    const NS = '/bb_sim';
    const descriptions: string[] = [];
    subs.push(node.createSubscription('std_msgs/msg/String', `${NS}/robot_description`, { qos: new rcl.QoS(1, 1, 1, 1) }, (msg: Any) => descriptions.push(msg.data)));
    const bb = start(
      process.execPath,
      [...NODE_FLAGS, ...NODE_ARGS, MAIN, m.file, '--ros-args', '-r', `__ns:=${NS}`, '-r', `joint_states:=${bodyNs}/joint_states`, '-p', 'use_sim_time:=true', '-p', `mesh_dir:=${join(dir, 'meshes')}`],
      jsEnv,
    );
    procs.push(bb);
    const urdf = await waitFor('robot_description', 60_000, () => descriptions[0], bb.output);
    // The C++ peers: one topic_tools relay per input, robot_state_publisher on the same joint_states.
    const relayExe = found(findTopicToolsRelay()).exe;
    const inputList = Object.keys(inputs);
    const relayed = { relays: 0, floor: 0 };
    const relays = inputList.map((input, i) => {
      const p = start(relayExe, [input, `/bb_sim_cpp/t${i}`], env);
      procs.push(p);
      counter(`/bb_sim_cpp/t${i}`, inputs[input]!, () => void relayed.relays++);
      return p;
    });
    const params = join(dir, 'rsp.yaml');
    writeFileSync(params, `/bb_sim_rsp/robot_state_publisher:\n  ros__parameters:\n    frame_prefix: rs/\n    use_sim_time: true\n    robot_description: ${JSON.stringify(urdf)}\n`);
    const rsp = start(found(findRobotStatePublisher()).exe, ['--ros-args', '-r', '__ns:=/bb_sim_rsp', '-r', `joint_states:=${bodyNs}/joint_states`, '--params-file', params], env);
    procs.push(rsp);
    const floor = start(
      process.execPath,
      [...NODE_FLAGS, FLOOR, 'many', ...inputList.map((input, i) => `relay:${inputs[input]}:${input}:/bb_sim_floor/t${i}`), `sink:sensor_msgs/msg/JointState:${bodyNs}/joint_states`, 'sink:rosgraph_msgs/msg/Clock:/clock'],
      jsEnv,
    );
    procs.push(floor);
    inputList.forEach((input, i) => counter(`/bb_sim_floor/t${i}`, inputs[input]!, () => void relayed.floor++));
    // body_bridge's outputs, from the graph once it has made them.
    const bbCounts: Record<string, number> = {};
    await sleep(5000);
    for (const { name, types } of node.getPublisherNamesAndTypesByNode('body_bridge', NS) as { name: string; types: string[] }[]) {
      const type = types.find((t) => OUTPUT_TYPES.has(t));
      if (!type || name.startsWith(`${NS}/_`)) continue;
      bbCounts[name] = 0;
      // /tf carries both TF publishers': body_bridge's frames have no prefix, robot_state_publisher's start rs/.
      const ours = type === 'tf2_msgs/msg/TFMessage' ? (b: Buffer): boolean => !(b[20] === 0x72 && b[21] === 0x73 && b[22] === 0x2f) : (): boolean => true;
      counter(name, type, (b) => void (ours(b) && bbCounts[name]!++));
    }
    await sleep(5000);

    const pids = { body_bridge: bb.child.pid!, relays: relays.map((r) => r.child.pid!), robot_state_publisher: rsp.child.pid!, floor: floor.child.pid!, choreonoid: choreonoid.child.pid! };
    const cpuNow = () => ({
      body_bridge: cpuSeconds(pids.body_bridge),
      relays: pids.relays.reduce((a, p) => a + cpuSeconds(p), 0),
      robot_state_publisher: cpuSeconds(pids.robot_state_publisher),
      floor: cpuSeconds(pids.floor),
      choreonoid: cpuSeconds(pids.choreonoid),
    });
    const faultsNow = () => ({
      body_bridge: pageFaults(pids.body_bridge),
      relays: pids.relays.reduce((a, p) => a + pageFaults(p), 0),
      robot_state_publisher: pageFaults(pids.robot_state_publisher),
      floor: pageFaults(pids.floor),
    });
    const windows: SimWindow[] = [];
    for (let w = 0; w < REPEAT; w++) {
      for (const p of procs) if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`a process ended during the run:\n${p.output().slice(-3000)}`);
      const counts0 = { inputs: { ...inputCounts }, bb: { ...bbCounts }, ...relayed };
      const cpu0 = cpuNow();
      const faults0 = faultsNow();
      const t0 = performance.now();
      await sleep(SECONDS * 1000);
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = cpuNow();
      const faults1 = faultsNow();
      const per = (a: number, b: number): number => Math.round(((a - b) / seconds) * 10) / 10;
      const delta = <K extends string>(a: Record<K, number>, b: Record<K, number>): Record<K, number> =>
        Object.fromEntries(Object.keys(a).map((k) => [k, Math.round((a[k as K] - b[k as K]) * 100) / 100])) as Record<K, number>;
      windows.push({
        seconds,
        load: loadAverage(),
        cpuS: delta(cpu1, cpu0),
        faults: delta(faults1, faults0),
        rates: {
          inputs: Object.fromEntries(Object.entries(inputCounts).map(([k, v]) => [k, per(v, counts0.inputs[k]!)])),
          body_bridge: Object.fromEntries(Object.entries(bbCounts).map(([k, v]) => [k, per(v, counts0.bb[k]!)])),
          relays: per(relayed.relays, counts0.relays),
          floor: per(relayed.floor, counts0.floor),
        },
      });
    }
    return { model: body, file: m.file, inputs, windows };
  } finally {
    for (const s of subs) node.destroySubscription(s);
    for (const p of procs.reverse()) await stop(p);
  }
}

function report(results: SimResult[], loadAtStart: string): string {
  const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
  const lines = [
    `load average (1, 5, 15 min) at the start ${loadAtStart}, at the end ${loadAverage()}; body_bridge and the floor with ${MALLOC_TUNED ? 'the launcher\'s malloc tunables' : "glibc malloc's defaults"}`,
    '',
    '| model | window | load (1 min) | Choreonoid CPU-s | body_bridge CPU-s | relays + rsp CPU-s | node / (relays + rsp) | relays CPU-s | rsp CPU-s | floor CPU-s | node / floor | inputs msg/s | body_bridge out msg/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    r.windows.forEach((w, i) => {
      const peers = w.cpuS.relays + w.cpuS.robot_state_publisher;
      const inputs = Object.entries(w.rates.inputs).map(([k, v]) => `${k} ${v}`).join(', ');
      const outs = Object.values(w.rates.body_bridge).reduce((a, b) => a + b, 0).toFixed(0);
      lines.push(
        `| ${r.model} | ${i + 1}: ${w.seconds.toFixed(1)} s | ${w.load.split(' ')[0]} | ${w.cpuS.choreonoid.toFixed(2)} | ${w.cpuS.body_bridge.toFixed(2)} | ${peers.toFixed(2)} | ${ratio(w.cpuS.body_bridge, peers)} | ` +
          `${w.cpuS.relays.toFixed(2)} | ${w.cpuS.robot_state_publisher.toFixed(2)} | ${w.cpuS.floor.toFixed(2)} | ${ratio(w.cpuS.body_bridge, w.cpuS.floor)} | ${inputs} | ${outs} |`,
      );
    });
  }
  lines.push('', '| model | windows | node / (relays + rsp), median (range) | node / floor, median (range) |', '|---|---|---|---|');
  for (const r of results) {
    const span = (xs: number[]): string => `${median(xs).toFixed(2)}× (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
    const toPeers = r.windows.map((w) => w.cpuS.body_bridge / (w.cpuS.relays + w.cpuS.robot_state_publisher));
    const toFloor = r.windows.map((w) => w.cpuS.body_bridge / w.cpuS.floor);
    lines.push(`| ${r.model} | ${r.windows.length} | ${span(toPeers)} | ${span(toFloor)} |`);
  }
  lines.push('', 'body_bridge\'s outputs (msg/s, last window):');
  for (const r of results) lines.push(`  ${r.model}: ${Object.entries(r.windows.at(-1)!.rates.body_bridge).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push('', 'Page faults per window (body_bridge; relays; rsp; floor):');
  for (const r of results) lines.push(`  ${r.model}: ${r.windows.map((w) => `${w.faults.body_bridge}; ${w.faults.relays}; ${w.faults.robot_state_publisher}; ${w.faults.floor}`).join(' | ')}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!process.env.AMENT_PREFIX_PATH) throw new Error('source ROS 2 first (AMENT_PREFIX_PATH is not set)');
  if (!existsSync(MAIN)) throw new Error('run npm run build first');
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
  const jsonOut = process.argv.find((a) => a.startsWith('--json='))?.slice(7);
  const models = MODELS.filter((m) => !only || only.includes(m.key));
  for (const m of models) if (!existsSync(m.file)) throw new Error(`${m.key}: no ${m.file}`);
  const loadAtStart = loadAverage();
  process.env.CYCLONEDDS_URI = cycloneUri();
  const loaded = await loadRclnodejs();
  if ('error' in loaded) throw new Error(loaded.error);
  const rcl: Any = loaded.rcl;
  await rcl.init();
  const options = new rcl.NodeOptions();
  options.enableRosout = false;
  const node = new rcl.Node(`live_sim_bench_${process.pid}`, '', undefined, options);
  node.spin();
  const scratch = mkdtempSync(join(tmpdir(), 'body-bridge-live-sim-'));
  const x = await startXvfb(1024, 768);
  const results: SimResult[] = [];
  try {
    for (const m of models) {
      mkdirSync(join(scratch, m.key), { recursive: true });
      results.push(await simulate(rcl, node, m, scratch, x.display));
    }
  } finally {
    await x.stop();
    node.destroy();
    rcl.shutdown();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(report(results, loadAtStart));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ cycloneddsUri: process.env.CYCLONEDDS_URI, mallocTunables: MALLOC_TUNED, loadAtStart, results }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
