// A whole Choreonoid project served to ROS 2 by one command, against Choreonoid itself (test/live/world/):
//   ros2 launch body_bridge project.launch.py project_file:=World.cnoid start_choreonoid:=true ...
// The project holds two robots — Choreonoid's PA10 bolted to the floor, playing a motion of two held poses, and
// the Rover, a free root that drops onto the floor, with a camera, a laser scanner and an IMU — and three
// obstacles at known poses (pillar, cabinet, wall) on a floor. Choreonoid runs headless (--no-window, started by
// the launch with its simulation: /clock from the project's WorldROS2Item), with a probe inside that logs every
// body's link poses as Choreonoid holds them; the Rover's pose source is its ground truth from that log.
// - /clock comes from the simulation the launch started;
// - every body's /tf chain from `world` equals the link poses Choreonoid reports at the same simulation time;
// - every relayed sensor topic carries its body's prefixed frame, and that frame reaches `world`;
// - rviz2 (the launch's generated view) logs no warning, and draws every body (each one's colour, the floor
//   against the same view with nothing served).
// Then MoveIt (moveit.launch.py project_file:= robot:=Arm) among the obstacles: a goal whose straight joint-space
// path passes through the pillar is planned around it — FCL (test/peers/fcl_collide.cpp) finds no contact between
// the arm and the obstacles' own geometry at any state of the returned trajectory — and once the pillar is taken
// out of the project file the same goal plans straight through where it stood.
// Skipped, with the reason, where ROS 2, rclnodejs, choreonoid_ros, Xvfb, rviz2, ImageMagick (the Choreonoid
// part) or move_group, FCL and a C++ compiler (the MoveIt part) are absent. Figures go to build/live-world/.
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mat3 } from '../src/model/types.js';
import { projectRoot } from './support/oracle.js';
import { type Any, differingPixels, guiEnv, installedPackage, isModelWarning, liveRos, processGroup, sleep, sourced, startXvfb, waitFor, type XDisplay, ownRosDomain, closeObserver, observerNode } from './support/live-rig.js';
import { skipWithout } from './support/peer-skip.js';
import { probeCommand } from './support/simulation-live.js';
import { everyOnPath, findChoreonoidRos, findImageMagick, findMoveGroup, findRviz2, findXvfb, rosPython } from './support/peers.js';
import { fclCollisions, fclPeers, type ObstacleBox } from './support/moveit-peers.js';
import { poseFromMatrix16, rotationAngle, stampSeconds, TfBuffer } from './live/choreonoid/geometry.js';
import { ARM, ARM_BODY, ARM_POSES, CABINET, FLOOR, MOTION_FILE, motionSeq, OBSTACLES, PILLAR, PROJECT_FILE, projectText, ROVER, ROVER_POSE_TOPIC, ROVER_REST_Z, SCENE_DIR, SETTLE, WALL } from './live/world/scene.js';

ownRosDomain('ros-live-world');

const ros = await liveRos();
// The peers are looked for only where the graph is there: elsewhere the first line says it all.
const skipChoreonoid = skipWithout(ros) || skipWithout(findChoreonoidRos(), findXvfb(), findRviz2(), findImageMagick());
const skipMoveit = skipWithout(ros) || skipWithout(findMoveGroup(), ...fclPeers());

const reportDir = join(projectRoot, 'build', 'live-world');
const report: Record<string, Any> = {};

/** The bodies' files beside the project, and the motion the arm plays. */
function writeScene(dir: string, options: { pillar?: boolean } = {}): string {
  for (const f of [...OBSTACLES.map((o) => o.file), 'Rover.body', 'probe.py']) copyFileSync(join(SCENE_DIR, f), join(dir, f));
  writeFileSync(join(dir, MOTION_FILE), motionSeq());
  const project = join(dir, PROJECT_FILE);
  writeFileSync(project, projectText(options));
  return project;
}

/**
 * The frame body_bridge publishes for a link: the root keeps its name, and every other link of these models is
 * named like its joint (no joint_name is given), so it is `<link>_link` (link_names: distinct), behind the body's
 * prefix (its body item name and '/').
 */
const frameOf = (body: string, link: string, root: string): string => `${body}/${link === root ? link : `${link}_link`}`;

/** A unit quaternion of a rotation matrix (Shepperd), for the ground truth the test publishes. */
function quaternionOf(m: Mat3): { x: number; y: number; z: number; w: number } {
  const t = m[0][0] + m[1][1] + m[2][2];
  if (t > 0) {
    const s = Math.sqrt(t + 1) * 2;
    return { w: s / 4, x: (m[2][1] - m[1][2]) / s, y: (m[0][2] - m[2][0]) / s, z: (m[1][0] - m[0][1]) / s };
  }
  if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const s = Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
    return { w: (m[2][1] - m[1][2]) / s, x: s / 4, y: (m[0][1] + m[1][0]) / s, z: (m[0][2] + m[2][0]) / s };
  }
  if (m[1][1] > m[2][2]) {
    const s = Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
    return { w: (m[0][2] - m[2][0]) / s, x: (m[0][1] + m[1][0]) / s, y: s / 4, z: (m[1][2] + m[2][1]) / s };
  }
  const s = Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
  return { w: (m[1][0] - m[0][1]) / s, x: (m[0][2] + m[2][0]) / s, y: (m[1][2] + m[2][1]) / s, z: s / 4 };
}

const stampOf = (t: number): { sec: number; nanosec: number } => {
  const ns = Math.round(t * 1e9);
  return { sec: Math.floor(ns / 1e9), nanosec: ns % 1e9 };
};

/**
 * rviz2 lines of a launch log that are warnings or errors (ros2 launch prefixes each line with [rviz2-N]), and the
 * messages its displays dropped, which rviz logs at INFO: a sensor message it could not place in `world` (seen
 * live while a gap in the Rover's /tf lasted: "queue is full"). Not a message stamped before the first transform
 * of its frame reached rviz ("earlier than all the data in the transform cache"): that is the start of the
 * cache, the scan relayed from Choreonoid's first step before the Rover's first pose (seen once in CI at 0.4 s),
 * which no gap can cause later, the cache holding 10 s.
 */
const rvizComplaints = (log: string): string[] =>
  log
    .split('\n')
    .filter((l) => /^\[rviz2-\d+\]/.test(l) && /\[(WARN|ERROR|FATAL)\]|\bERROR\b|Could not|No transform|Message Filter dropping/.test(l))
    .filter((l) => !/Message Filter dropping message: .* for reason 'the timestamp on the message is earlier than all the data in the transform cache'$/.test(l));
/** body_bridge lines that are warnings or errors, but for the user's-model ones (isModelWarning). */
const bridgeComplaints = (log: string): string[] =>
  log.split('\n').filter((l) => /^\[body_bridge-\d+\]/.test(l) && /\[(WARN|ERROR|FATAL)\]/.test(l) && !isModelWarning(l));

/** Pixel classes by hue, as rviz shades the bodies' colours (lit faces brighter, others darker). */
const CLASSES: Record<string, (r: number, g: number, b: number) => boolean> = {
  red: (r, g, b) => r > 70 && r > 2.5 * g && r > 2.5 * b,
  blue: (r, g, b) => b > 70 && b > 2.5 * r && b > 2 * g,
  magenta: (r, g, b) => r > 70 && b > 70 && r > 2.5 * g && b > 2.5 * g,
  yellow: (r, g, b) => r > 90 && g > 70 && r > 3 * b && g > 3 * b,
  // PA10's pale green (0.6 0.9 0.6) and greenish white (0.85 0.9 0.85), shaded: green a little above red and blue.
  green: (r, g, b) => g > 90 && g >= r + 6 && g >= b + 6 && Math.abs(r - b) <= 6,
};

function classCounts(shot: Buffer, width: number, box: { x: number; y: number; w: number; h: number }): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(Object.keys(CLASSES).map((k) => [k, 0]));
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) {
      const i = (y * width + x) * 3;
      for (const [k, f] of Object.entries(CLASSES)) if (f(shot[i]!, shot[i + 1]!, shot[i + 2]!)) out[k]!++;
    }
  }
  return out;
}

interface ProbeSample {
  wall: number;
  sim: number;
  running: boolean;
  bodies: Record<string, { q: Record<string, number>; links: Record<string, number[]> }>;
}

describe.skipIf(skipChoreonoid)('project.launch.py serves a whole project, as Choreonoid simulates it', () => {
  let rcl: Any;
  let node: Any;
  let x: XDisplay;
  let scratch = '';
  let probeDir = '';
  let launchTmp = '';
  let keptRviz = '';
  let launch: ReturnType<ReturnType<typeof processGroup>['start']>;
  let withBodies: Buffer | null = null;
  let empty: Buffer | null = null;
  const procs = processGroup();
  // Six nodes and the test's ground truth publish /tf, each stamped with the simulation time as it saw it: none of
  // them restarts (the /clock check below holds time to one run), so no stamp behind another starts the buffer afresh.
  const tf = new TfBuffer(Infinity);
  const clock: { wall: number; stamp: number }[] = [];
  /** The Rover's ground truth as the test published it, and world -> Rover/CHASSIS as /tf brought it back. */
  const truthSent: { wall: number; stamp: number }[] = [];
  const roverTf: { wall: number; stamp: number }[] = [];
  /** Relayed topics of the Rover, with the frame_ids their messages carried. */
  const relayed: Record<string, { type: string; frame: string; frames: Set<string>; count: number }> = {
    '/Rover/Camera/image_raw': { type: 'sensor_msgs/msg/Image', frame: 'Rover/Camera_optical_frame', frames: new Set(), count: 0 },
    '/Rover/Camera/camera_info': { type: 'sensor_msgs/msg/CameraInfo', frame: 'Rover/Camera_optical_frame', frames: new Set(), count: 0 },
    // /Rover/Scanner/scan is choreonoid_ros's own scan, in the namespace the Rover's node shares with it.
    '/Rover/Scanner/scan_relayed': { type: 'sensor_msgs/msg/LaserScan', frame: 'Rover/Scanner_scan_frame', frames: new Set(), count: 0 },
    '/Rover/Imu/imu': { type: 'sensor_msgs/msg/Imu', frame: 'Rover/Imu', frames: new Set(), count: 0 },
  };
  const lastPose = ARM_POSES[ARM_POSES.length - 1]!;

  const probeLines = (file: string): Any[] =>
    existsSync(join(probeDir, file))
      ? readFileSync(join(probeDir, file), 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l))
      : [];
  const samples = (): ProbeSample[] => probeLines('probe.jsonl').filter((e) => e.bodies && e.running);
  const events = (): Any[] => probeLines('events.jsonl');
  const logs = (): string => `--- launch ---\n${launch?.output().slice(-6000) ?? ''}`;
  const simTime = (): number => (clock.length ? clock[clock.length - 1]!.stamp : -1);

  beforeAll(async () => {
    rcl = ros.rcl;
    mkdirSync(reportDir, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'bb-live-world-'));
    probeDir = join(scratch, 'probe');
    launchTmp = join(scratch, 'launch');
    const runtime = join(scratch, 'runtime');
    const sceneDir = join(scratch, 'scene');
    for (const d of [probeDir, launchTmp, sceneDir]) mkdirSync(d);
    mkdirSync(runtime, { mode: 0o700 });
    const project = writeScene(sceneDir);

    const setup = await installedPackage();
    x = await startXvfb(1400, 1000);
    node = await observerNode(rcl, 'world-test');
    const wall = (): number => Date.now() / 1000;
    node.createSubscription('tf2_msgs/msg/TFMessage', '/tf_static', { qos: new rcl.QoS(1, 100, 1, 1) }, (m: Any) => tf.add(m, true));
    node.createSubscription('tf2_msgs/msg/TFMessage', '/tf', { qos: new rcl.QoS(1, 1000, 1, 2) }, (m: Any) => {
      tf.add(m, false);
      for (const t of m.transforms) if (t.child_frame_id === `${ROVER}/CHASSIS`) roverTf.push({ wall: wall(), stamp: stampSeconds(t.header.stamp) });
    });
    node.createSubscription('rosgraph_msgs/msg/Clock', '/clock', { qos: new rcl.QoS(1, 10, 2, 2) }, (m: Any) => clock.push({ wall: wall(), stamp: stampSeconds(m.clock) }));
    for (const [topic, r] of Object.entries(relayed)) {
      // Raw: only the header's frame_id is read (CDR: 4 bytes of encapsulation, the stamp's 8, then the string's
      // length and characters), so a 1 kHz IMU stream costs the test's event loop next to nothing.
      node.createSubscription(r.type, topic, { qos: new rcl.QoS(1, 10, 2, 2), isRaw: true }, (b: Buffer) => {
        const n = b.readUInt32LE(12);
        r.frames.add(b.toString('utf8', 16, 16 + n - 1));
        r.count++;
      });
    }
    // The Rover's pose source: its ground truth, from Choreonoid's own log as it grows (only the new lines are
    // read: a backlog would be stamped in the past), stamped with the simulation time.
    const truth = node.createPublisher('geometry_msgs/msg/PoseStamped', ROVER_POSE_TOPIC);
    const log = join(probeDir, 'probe.jsonl');
    let offset = 0;
    let partial = '';
    const feed = setInterval(() => {
      if (!existsSync(log)) return;
      const size = statSync(log).size;
      if (size <= offset) return;
      const fd = openSync(log, 'r');
      const chunk = Buffer.alloc(size - offset);
      readSync(fd, chunk, 0, chunk.length, offset);
      closeSync(fd);
      offset = size;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const s = line.trim() === '' ? null : (JSON.parse(line) as ProbeSample & { event?: string });
        if (!s || s.event || !s.running) continue;
        const root = poseFromMatrix16(s.bodies[ROVER]!.links.CHASSIS!);
        const [px, py, pz] = root.translation;
        truth.publish({ header: { stamp: stampOf(s.sim), frame_id: 'world' }, pose: { position: { x: px, y: py, z: pz }, orientation: quaternionOf(root.rotation) } });
        truthSent.push({ wall: Date.now() / 1000, stamp: s.sim });
      }
    }, 20);
    node.spin();

    launch = procs.start(
      'bash',
      sourced(
        setup,
        `ros2 launch body_bridge project.launch.py project_file:=${project} start_choreonoid:=true choreonoid_args:=${join(sceneDir, 'probe.py')} ` +
          `placement_topics:=${ROVER}=${ROVER_POSE_TOPIC} placement_topic_types:=${ROVER}=pose_stamped`,
      ),
      guiEnv(x.display, { TMPDIR: launchTmp, BB_PROBE_DIR: probeDir, XDG_RUNTIME_DIR: runtime }),
      sceneDir,
    );
    try {
      await waitFor('Choreonoid (the probe inside it: the simulation running)', 300_000, () => events().some((e) => e.event === 'running') || launch.child.exitCode !== null, logs);
      await waitFor(`/clock from the WorldROS2Item past ${lastPose.from + SETTLE + 0.5} s`, 900_000, () => simTime() >= lastPose.from + SETTLE + 0.5 || launch.child.exitCode !== null, logs);
      // rviz2 draws with /clock: give it a few frames of the held pose, then the picture.
      await sleep(8000);
      withBodies = await x.capture(join(reportDir, 'world.png'));
      await waitFor(`/clock from the WorldROS2Item past ${lastPose.to} s`, 600_000, () => simTime() >= lastPose.to || launch.child.exitCode !== null, logs);
      // The generated view, kept for the empty scene: the launch deletes it when it shuts down.
      const config = readdirSync(launchTmp).find((f) => /^body_bridge_project_.*\.rviz$/.test(f));
      if (config) copyFileSync(join(launchTmp, config), (keptRviz = join(scratch, 'kept.rviz')));
      probeCommand(probeDir, 'quit');
      await waitFor('Choreonoid to quit (probe: command)', 60_000, () => events().some((e) => e.command === 'quit')).catch(() => undefined);
    } finally {
      clearInterval(feed);
      writeFileSync(join(reportDir, 'launch.log'), launch.output());
      await procs.stopAll();
    }
    // The same view with nothing served: what rviz2 draws of it without the bodies.
    if (keptRviz) {
      procs.start('bash', sourced(setup, `rviz2 -d ${keptRviz}`), guiEnv(x.display, { TMPDIR: launchTmp }));
      await sleep(20_000);
      empty = x.screenshot(join(reportDir, 'world-empty.png'));
      await procs.stopAll();
    }
  }, 1_800_000);

  afterAll(async () => {
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(join(reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (Object.keys(report).length > 0) console.log(`world live figures (build/live-world/report.json):\n${JSON.stringify(report, null, 1)}`);
    if (probeDir && existsSync(join(probeDir, 'probe.jsonl'))) copyFileSync(join(probeDir, 'probe.jsonl'), join(reportDir, 'probe.jsonl'));
    await procs.stopAll();
    await x?.stop();
    closeObserver(rcl, node);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('/clock comes from the simulation the launch started (--start-simulation), and the nodes run on it', () => {
    expect(clock.length, logs()).toBeGreaterThan(100);
    expect(simTime()).toBeGreaterThanOrEqual(lastPose.to);
    // Simulation time, not wall time: the first stamps are near zero; one run, never going back.
    expect(clock[0]!.stamp).toBeLessThan(5);
    expect(clock.filter((c, i) => i > 0 && c.stamp < clock[i - 1]!.stamp)).toEqual([]);
    report.clock = { messages: clock.length, last_s: simTime(), wall_s: +(clock[clock.length - 1]!.wall - clock[0]!.wall).toFixed(1) };
  });

  it("every body's /tf chain from world equals the link poses Choreonoid reports at the same simulation time", () => {
    const all = samples();
    expect(all.length, logs()).toBeGreaterThan(50);
    const roots: Record<string, string> = { Arm: 'BASE', Rover: 'CHASSIS', Floor: 'FLOOR', Pillar: 'PILLAR', Cabinet: 'PLINTH', Wall: 'WALL' };
    expect(Object.keys(all[0]!.bodies).sort()).toEqual(Object.keys(roots).sort());
    // The arm while it holds a pose; the Rover once it has landed; the rest always.
    const compared = (body: string, t: number): boolean =>
      body === ARM ? ARM_POSES.some((p) => t >= p.from + SETTLE && t <= p.to - 0.05) : body === ROVER ? t >= 1.5 : true;
    const figures: Record<string, { samples: number; links: number; max_translation_m: number; max_rotation_rad: number; missing: number; missingAt: Record<string, number[]> }> = {};
    // The launch starts the nodes beside Choreonoid, whose simulation may run a few tenths of a second on a loaded
    // machine before a node serves (seen live: the arm's first /tf at 0.48 s): a body is compared from the first
    // sample whose whole chain /tf holds, and from then on every sample must hold it. When each began, and the samples before.
    const servedFrom: Record<string, { sim: number; samplesBefore: number }> = {};
    for (const s of all) {
      for (const [body, { links }] of Object.entries(s.bodies)) {
        if (!compared(body, s.sim)) continue;
        const ours = Object.entries(links).map(([link, m]) => ({ link, m, pose: tf.poseIn('world', frameOf(body, link, roots[body]!), s.sim) }));
        const served = (servedFrom[body] ??= { sim: -1, samplesBefore: 0 });
        if (served.sim < 0) {
          if (ours.some((o) => !o.pose)) {
            served.samplesBefore++;
            continue;
          }
          served.sim = s.sim;
        }
        const f = (figures[body] ??= { samples: 0, links: Object.keys(links).length, max_translation_m: 0, max_rotation_rad: 0, missing: 0, missingAt: {} });
        f.samples++;
        for (const { link, m, pose } of ours) {
          if (!pose) {
            f.missing++;
            const at = (f.missingAt[link] ??= []);
            if (at.length < 20) at.push(s.sim);
            continue;
          }
          const cn = poseFromMatrix16(m);
          f.max_translation_m = Math.max(f.max_translation_m, Math.hypot(...([0, 1, 2].map((i) => cn.translation[i]! - pose.translation[i]!) as [number, number, number])));
          f.max_rotation_rad = Math.max(f.max_rotation_rad, rotationAngle(cn.rotation, pose.rotation));
        }
      }
    }
    // How far the Rover fell and settled: the static placement would have been off by this (the pose source follows it).
    const landed = all.filter((s) => s.sim >= 1.5).map((s) => poseFromMatrix16(s.bodies[ROVER]!.links.CHASSIS!).translation[2]);
    // Gaps of more than 0.2 s of simulation time in the Rover's ground truth, as sent and as it came back on /tf.
    const gaps = (xs: { wall: number; stamp: number }[]): number[][] =>
      xs.flatMap((x, i) => (i > 0 && x.stamp - xs[i - 1]!.stamp > 0.2 ? [[xs[i - 1]!.stamp, x.stamp, +(x.wall - xs[i - 1]!.wall).toFixed(3)]] : []));
    // The longest the feed went without sending (wall seconds, and the stamp after): a blocked feed sends its backlog in a burst.
    const pause = truthSent.reduce((worst, x, i) => (i > 0 && x.wall - truthSent[i - 1]!.wall > worst[0] ? [+(x.wall - truthSent[i - 1]!.wall).toFixed(3), x.stamp] : worst), [0, 0]);
    report.roverPoseSource = { sent: truthSent.length, cameBack: roverTf.length, longestSendPause: pause, gapsSent: gaps(truthSent).slice(0, 10), gapsBack: gaps(roverTf).slice(0, 10) };
    report.tf = { figures, servedFrom, rover_landed_z_m: landed.length ? landed[landed.length - 1] : null, rover_rest_z_m: ROVER_REST_Z };
    for (const [body, f] of Object.entries(figures)) {
      expect(f.samples, body).toBeGreaterThan(20);
      expect(f.missing, `${body}: link frames without a transform from world`).toBe(0);
      expect(f.max_translation_m, body).toBeLessThan(1e-6);
      expect(f.max_rotation_rad, body).toBeLessThan(1e-6);
    }
    expect(Object.keys(figures).sort()).toEqual(Object.keys(roots).sort());
    // Both of the arm's poses are compared: it serves with a second of its first hold left.
    expect(servedFrom[ARM]!.sim, 'the arm\'s first simulation time with its whole chain on /tf').toBeLessThan(ARM_POSES[0]!.to - 1);
  });

  it("every relayed sensor topic carries its body's prefixed frame, and that frame hangs from world", () => {
    const figures: Record<string, { messages: number; frames: string[] }> = {};
    for (const [topic, r] of Object.entries(relayed)) {
      figures[topic] = { messages: r.count, frames: [...r.frames] };
      expect(r.count, `${topic} ${logs()}`).toBeGreaterThan(0);
      expect([...r.frames], topic).toEqual([r.frame]);
      // Where the simulation held everything still (the arm's last pose), every sensor frame reaches world.
      expect(tf.poseIn('world', r.frame, lastPose.to - 0.5), `world -> ${r.frame} at ${lastPose.to - 0.5} s`).not.toBeNull();
    }
    report.sensors = figures;
  });

  it('rviz2 draws every body of the project with no warning', () => {
    const log = readFileSync(join(reportDir, 'launch.log'), 'utf8');
    expect(rvizComplaints(log), log.slice(-4000)).toEqual([]);
    expect(withBodies, 'a screenshot of the running view').not.toBeNull();
    expect(empty, 'a screenshot of the view with nothing served').not.toBeNull();
    // The 3D view, right of the displays panel.
    const view = { x: 470, y: 80, w: 900, h: 760 };
    const shown = classCounts(withBodies!, x.width, view);
    const without = classCounts(empty!, x.width, view);
    // The floor is a dark grey a few levels off rviz's background: compared closely.
    const differing = differingPixels(withBodies!, empty!, x.width, view, 6);
    report.rviz = { colours: shown, coloursWithNothingServed: without, pixelsDifferingFromEmpty: differing, bridgeComplaints: bridgeComplaints(log) };
    // One colour per body: the pillar, the cabinet, the wall, the Rover, the arm; the floor is the grey ground.
    for (const [colour, body] of [['red', PILLAR.name], ['blue', CABINET.name], ['magenta', WALL.name], ['yellow', ROVER], ['green', ARM]] as const) {
      expect(shown[colour], `${body} (${colour}) drawn`).toBeGreaterThan(300);
      expect(without[colour], `${colour} without the bodies`).toBeLessThan(30);
    }
    expect(differing, `${FLOOR.name} and the rest: pixels differing from the view with nothing served`).toBeGreaterThan(200_000);
    // body_bridge says nothing but that the Rover's pose source had not spoken yet while Choreonoid loaded.
    expect(bridgeComplaints(log).filter((l) => !/no message on \/Rover\/ground_truth yet/.test(l))).toEqual([]);
  });
});


const deg = (d: number): number => (d * Math.PI) / 180;
/** The arm's planning group and where it goes: from reaching out to its right (−y) at shoulder height to its left (+y). */
const GROUP = 'arm';
const START: Record<string, number> = { J1: 0, J2: deg(60), J3: 0, J4: deg(60), J5: 0, J6: 0, J7: 0 };
// J1 stops at ±177°: the arm cannot swing round behind; straight ahead (+x, J1 = 90°) stands the pillar.
const GOAL: Record<string, number> = { ...START, J1: deg(175) };
const SUCCESS = 1;
/** States FCL checks between two trajectory points (MoveIt itself checks every motion_step, 2 cm of any point). */
const SUBSTEPS = 10;

/** The obstacles' boxes in the arm's root frame: the arm stands at the world origin, unturned, so the world's. */
const OBSTACLE_BOXES: ObstacleBox[] = OBSTACLES.flatMap((o) => o.shapes.map((b) => ({ name: o.name, centre: b.centre, size: b.size })));

interface SceneProbeResult {
  objects: { id: string; frame: string; pose: number[]; primitives: number[][]; meshes: number }[];
  waited: number;
  start_valid: { valid: boolean; contacts: string[][] };
  goal_valid: { valid: boolean; contacts: string[][] };
  straight: { i: number; valid: boolean; contacts: string[][] }[];
  plan: { error_code: number; planning_time: number; joint_names: string[]; points: { t: number; p: number[] }[] };
}

describe.skipIf(skipMoveit)('moveit.launch.py project_file:= plans among the project\'s obstacles', () => {
  let rcl: Any;
  let node: Any;
  let scratch = '';
  let setup = '';
  let urdfFile = '';
  let launch: ReturnType<ReturnType<typeof processGroup>['start']>;
  const procs = processGroup();
  const moveit: Record<string, Any> = {};

  const probe = (request: unknown): Promise<SceneProbeResult> =>
    new Promise((resolve, reject) => {
      const p = spawn('bash', sourced(setup, `${rosPython()} ${join(projectRoot, 'test/peers/moveit_scene_probe.py')}`), { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => (out += String(d)));
      p.stderr.on('data', (d) => (err += String(d)));
      const timer = setTimeout(() => p.kill('SIGKILL'), 600_000);
      p.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(JSON.parse(out) as SceneProbeResult);
        else reject(new Error(`moveit_scene_probe.py exited ${code}:\n${err.slice(-4000)}\nlaunch log:\n${launch?.output().slice(-4000)}`));
      });
      p.stdin.end(JSON.stringify(request));
    });

  beforeAll(async () => {
    rcl = ros.rcl;
    mkdirSync(reportDir, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'bb-live-world-moveit-'));
    setup = await installedPackage();
    // After the suite's first part: its nodes may linger in the graph until their DDS leases run out.
    node = await observerNode(rcl, 'world-moveit-test', { alone: false });
    node.spin();
  }, 1_500_000);

  afterAll(async () => {
    await procs.stopAll();
    if (Object.keys(moveit).length > 0) {
      mkdirSync(reportDir, { recursive: true });
      writeFileSync(join(reportDir, 'moveit.json'), `${JSON.stringify(moveit, null, 2)}\n`);
      console.log(`world MoveIt figures (build/live-world/moveit.json):\n${JSON.stringify(moveit, null, 1)}`);
    }
    closeObserver(rcl, node);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /**
   * FCL's obstacles touched at every trajectory point (`waypoints`) and at SUBSTEPS states between each two
   * (`between`), against the obstacles' boxes each shrunk by `margin` on every side.
   */
  const touchedAlong = (joints: string[], points: number[][], margin = 0) => {
    const states: { q: Map<string, number>; waypoint: boolean }[] = [];
    for (let k = 0; k + 1 < points.length; k++) {
      for (let s = 0; s < SUBSTEPS; s++) states.push({ q: new Map(joints.map((j, i) => [j, points[k]![i]! + ((points[k + 1]![i]! - points[k]![i]!) * s) / SUBSTEPS])), waypoint: s === 0 });
    }
    states.push({ q: new Map(joints.map((j, i) => [j, points[points.length - 1]![i]!])), waypoint: true });
    const boxes = OBSTACLE_BOXES.map((b) => ({ ...b, size: b.size.map((v) => v - 2 * margin) as [number, number, number] }));
    const run = fclCollisions(urdfFile, states.map((s) => s.q), 1, boxes);
    expect(run.skipped.size, `shapes FCL could not read: ${[...run.skipped].join('; ')}`).toBe(0);
    const out = { states: states.length, waypoints: 0, waypointsTouching: 0, betweenTouching: 0, obstacles: new Set<string>() };
    run.hits.forEach((hits, i) => {
      const here = [...hits].flatMap((k) => k.split('\u0000')).filter((n) => n.startsWith('@'));
      if (states[i]!.waypoint) out.waypoints++;
      if (here.length > 0) {
        if (states[i]!.waypoint) out.waypointsTouching++;
        else out.betweenTouching++;
      }
      for (const n of here) out.obstacles.add(n.slice(1));
    });
    return out;
  };

  /** The smallest of a few margins (m) by which the obstacles must shrink for no state of the path to touch them. */
  const clearance = (joints: string[], points: number[][]): number | null =>
    [0, 0.002, 0.005, 0.01, 0.02].find((m) => { const t = touchedAlong(joints, points, m); return t.waypointsTouching + t.betweenTouching === 0; }) ?? null;

  /** How far (rad) the path strays from the straight line between its ends, at any point. */
  const strayFromStraight = (points: number[][]): number => {
    const a = points[0]!;
    const b = points[points.length - 1]!;
    const span = Math.max(...a.map((v, i) => Math.abs(b[i]! - v)));
    let worst = 0;
    for (const p of points) {
      // Where along the line the point is, by the joint that moves most (J1 here).
      const i = a.map((v, k) => Math.abs(b[k]! - v)).indexOf(span);
      const s = (p[i]! - a[i]!) / (b[i]! - a[i]!);
      worst = Math.max(worst, ...p.map((v, k) => Math.abs(v - (a[k]! + (b[k]! - a[k]!) * s))));
    }
    return worst;
  };

  it('a goal whose straight path passes through the pillar is planned around it; without the pillar in the project, straight through', async () => {
    expect(ARM_BODY.translation).toEqual([0, 0, 0]);
    expect(ARM_BODY.yawDeg).toBe(0);
    const sceneDir = join(scratch, 'scene');
    mkdirSync(sceneDir);
    const project = writeScene(sceneDir);
    const launchTmp = join(scratch, 'launch');
    mkdirSync(launchTmp);
    launch = procs.start('bash', sourced(setup, `ros2 launch body_bridge moveit.launch.py project_file:=${project} robot:=${ARM}`), { ...process.env, TMPDIR: launchTmp });
    await waitFor('move_group ready (You can start planning now!)', 300_000, () => launch.output().includes('You can start planning now!') || launch.child.exitCode !== null || /\[ERROR\] \[move_group-\d+\]: process has died/.test(launch.output()), launch.output);
    expect(launch.output(), launch.output().slice(-4000)).toContain('You can start planning now!');
    // The URDF move_group plans with, for FCL: the node's robot_description (meshes in its mesh folder).
    let urdf: string | undefined;
    const sub = node.createSubscription('std_msgs/msg/String', '/robot_description', { qos: new rcl.QoS(1, 1, 1, 1) }, (m: Any) => (urdf = m.data));
    await waitFor('body_bridge: /robot_description (latched)', 60_000, () => urdf);
    node.destroySubscription(sub);
    urdfFile = join(scratch, 'arm.urdf');
    writeFileSync(urdfFile, urdf!);

    const obstacleNames = OBSTACLES.map((o) => o.name);
    const request = { timeout: 120, scene_timeout: 120, planning_time: 10.0, group: GROUP, start: START, goal: GOAL, straight_steps: 50 };
    const around = await probe({ ...request, present: obstacleNames });
    // What MoveIt holds: the four static bodies, in the arm's root frame at their project poses; not the Rover.
    expect(around.objects.map((o) => o.id).sort()).toEqual([...obstacleNames].sort());
    for (const o of around.objects) {
      const truth = OBSTACLES.find((x) => x.name === o.id)!;
      expect(o.frame, o.id).toBe('BASE');
      expect(Math.hypot(...truth.translation.map((v, i) => v - o.pose[i]!)), o.id).toBeLessThan(1e-9);
    }
    expect(around.start_valid, 'the start state').toEqual({ valid: true, contacts: [] });
    expect(around.goal_valid, 'the goal state').toEqual({ valid: true, contacts: [] });
    // The straight line runs into the pillar: MoveIt says so, and so does FCL against the pillar's own box.
    const straightPoints = around.straight.map((s) => Object.keys(START).map((j) => START[j]! + ((GOAL[j]! - START[j]!) * s.i) / 50));
    const straightFcl = touchedAlong(Object.keys(START), straightPoints);
    const straightTouching = straightFcl.waypointsTouching + straightFcl.betweenTouching;
    const blocked = around.straight.filter((s) => !s.valid);
    expect(blocked.length, 'states of the straight line MoveIt finds in collision').toBeGreaterThan(0);
    expect(blocked.every((s) => s.contacts.some((c) => c.includes(PILLAR.name))), JSON.stringify(blocked.slice(0, 3))).toBe(true);
    expect([...straightFcl.obstacles]).toEqual([PILLAR.name]);

    expect(around.plan.error_code, launch.output().slice(-3000)).toBe(SUCCESS);
    const joints = around.plan.joint_names;
    const points = around.plan.points.map((p) => p.p);
    const end = points[points.length - 1]!;
    expect(Math.max(...joints.map((j, i) => Math.abs(end[i]! - (GOAL[j] ?? 0)))), 'the plan ends at the goal').toBeLessThan(2e-3);
    const aroundFcl = touchedAlong(joints, points);
    moveit.around = {
      objects: around.objects,
      sceneWaited_s: +around.waited.toFixed(2),
      straightStatesInCollision: { moveit: blocked.length, of: around.straight.length, fcl: straightTouching, fclStates: straightFcl.states },
      plan: { points: points.length, planning_time_s: around.plan.planning_time, duration_s: around.plan.points[around.plan.points.length - 1]!.t, strayFromStraight_rad: +strayFromStraight(points).toFixed(3) },
      fcl: { waypoints: aroundFcl.waypoints, waypointsTouching: aroundFcl.waypointsTouching, statesBetween: aroundFcl.states - aroundFcl.waypoints, betweenTouching: aroundFcl.betweenTouching, obstacles: [...aroundFcl.obstacles], clearsObstaclesShrunkBy_m: clearance(joints, points) },
    };
    // Every state of the returned trajectory is clear of every obstacle. Between two of them MoveIt checked the motion
    // every motion_step (2 cm of any point of the robot): a corner may graze a box there by less than that.
    expect(aroundFcl.waypointsTouching, `trajectory points touching ${[...aroundFcl.obstacles].join(', ')}`).toBe(0);
    expect(clearance(joints, points), 'the margin by which obstacles must shrink for no interpolated state to touch them').not.toBeNull();
    expect(clearance(joints, points)!).toBeLessThanOrEqual(0.01);

    // The pillar taken out of the project file: the node reads it again, MoveIt's scene loses it, the arm swings straight.
    writeFileSync(project, projectText({ pillar: false }));
    const through = await probe({ ...request, present: obstacleNames.filter((n) => n !== PILLAR.name), absent: [PILLAR.name] });
    expect(through.straight.every((s) => s.valid), 'the straight line, without the pillar').toBe(true);
    expect(through.plan.error_code).toBe(SUCCESS);
    const throughPoints = through.plan.points.map((p) => p.p);
    const throughFcl = touchedAlong(through.plan.joint_names, throughPoints);
    moveit.through = {
      objects: through.objects.map((o) => o.id),
      sceneWaited_s: +through.waited.toFixed(2),
      plan: { points: throughPoints.length, planning_time_s: through.plan.planning_time, strayFromStraight_rad: +strayFromStraight(throughPoints).toFixed(3) },
      fcl: { states: throughFcl.states, touchingWherePillarStood: throughFcl.waypointsTouching + throughFcl.betweenTouching, obstacles: [...throughFcl.obstacles] },
    };
    // It passes where the pillar stood: FCL finds the old pillar's box in its way, and nothing else.
    expect([...throughFcl.obstacles]).toEqual([PILLAR.name]);
    expect(strayFromStraight(throughPoints)).toBeLessThan(0.05);
    expect(launch.output()).toMatch(/planning scene .*1 removed \(Pillar\)/);
    // The Rover moves: left out of the scene, and said so. The floor, 1 cm below the arm's base, touches nothing.
    expect(launch.output()).toMatch(/'Rover' is left out of the planning scene: its root link 'CHASSIS' is not fixed/);
    expect(launch.output()).not.toMatch(/touches the robot's base/);
  }, 1_200_000);
});
