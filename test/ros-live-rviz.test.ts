// rviz2 beside the node, as a user runs it: `ros2 launch body_bridge display.launch.py body_file:=X` under
// Xvfb, with the package built by colcon. For each model: rviz2's own log has no warning or error, and a
// screenshot differs from rviz2 showing the same generated configuration with no robot served (the empty
// scene) where the robot is drawn; for robots with cameras, range cameras, scanners and force sensors fed with
// choreonoid_ros-shaped messages, the relayed image (a solid colour no robot has) fills an Image panel, a
// point cloud of another such colour is drawn, and so are the scan and the wrench. Skipped, with the reason,
// where ROS 2, rviz2, Xvfb or ImageMagick's `import` is absent (test/support/peers.ts finds them). Screenshots are kept in build/live-rviz/.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import {
  type Any,
  differingPixels,
  guiEnv,
  installedPackage,
  isModelWarning,
  liveRos,
  pixelsOfColour,
  processGroup,
  sleep,
  sourced,
  startXvfb,
  waitFor,
  type XDisplay,
  ownRosDomain,
  closeObserver,
  observerNode,
} from './support/live-rig.js';
import { skipWithout } from './support/peer-skip.js';
import { findImageMagick, findRviz2, findXvfb, found } from './support/peers.js';

ownRosDomain('ros-live-rviz');

const ros = await liveRos();
const withoutRos = skipWithout(ros);
// The GUI peers are looked for only where the graph is there: elsewhere the line above says it all.
const skip = withoutRos || skipWithout(findRviz2(), findXvfb(), findImageMagick());

const MAGENTA: [number, number, number] = [255, 0, 255];
const GREEN: [number, number, number] = [0, 255, 0];
const shots = join(projectRoot, 'build', 'live-rviz');
// rviz2 and Mesa on 2 shared cores: the first frames take a while.
const SETTLE_MS = 12_000;

/** rviz2 lines of a launch log that are warnings or errors (ros2 launch prefixes each line with [rviz2-N]). */
const rvizComplaints = (log: string): string[] =>
  log.split('\n').filter((l) => /^\[rviz2-\d+\]/.test(l) && /\[(WARN|ERROR|FATAL)\]|\bERROR\b|Could not|No transform/.test(l));

/** body_bridge lines of a launch log that are warnings or errors, but for those about the user's model itself (isModelWarning). */
const bridgeComplaints = (log: string): string[] =>
  log.split('\n').filter((l) => /^\[body_bridge-\d+\]/.test(l) && /\[(WARN|ERROR|FATAL)\]/.test(l) && !isModelWarning(l));

describe.skipIf(skip)('display.launch.py: rviz2 shows the model and its sensors', () => {
  let rcl: Any;
  let node: Any;
  let setup = '';
  let x: XDisplay;
  let scratch = '';
  const procs = processGroup();

  beforeAll(async () => {
    requireShared();
    rcl = found(ros).rcl;
    mkdirSync(shots, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'bb-live-rviz-'));
    setup = await installedPackage();
    x = await startXvfb();
    node = await observerNode(rcl, 'rviz-test');
    node.spin();
  }, 1_500_000);

  afterAll(async () => {
    await procs.stopAll();
    await x?.stop();
    closeObserver(rcl, node);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  interface Case {
    name: string;
    file: string;
    args?: string[];
    /** Feeds sensor data while rviz2 runs; returns the colours that must then be on screen. */
    feed?: (ns: string) => { tick(): void; colours: [number, number, number][] };
  }

  const sensorPub = (type: string, topic: string) => node.createPublisher(type, topic, { qos: new rcl.QoS(1, 5, 2, 2) });
  /** Stamped now, or at `stamp` (a simulation's time: what choreonoid_ros stamps its messages with under /clock). */
  const header = (frame: string, stamp?: { sec: number; nanosec: number }) => ({ stamp: stamp ?? node.now().toMsg(), frame_id: frame });
  const solidImage = (frame: string, w: number, h: number, rgb: [number, number, number], stamp?: { sec: number; nanosec: number }) => ({
    header: header(frame, stamp), height: h, width: w, encoding: 'rgb8', is_bigendian: 0, step: w * 3,
    data: new Uint8Array(w * h * 3).map((_, i) => rgb[i % 3]!),
  });
  /** A choreonoid_ros range-camera cloud (x/y/z with count 4, rgb as UINT32): a wall 1.5 m ahead of the camera, all one colour. */
  const wallCloud = (frame: string, w: number, h: number, rgb: [number, number, number], stamp?: { sec: number; nanosec: number }) => {
    const step = 16;
    const data = new Uint8Array(w * h * step);
    const view = new DataView(data.buffer);
    for (let v = 0; v < h; v++) {
      for (let u = 0; u < w; u++) {
        const i = (v * w + u) * step;
        // choreonoid_ros turns Choreonoid's camera frame (y up, looking along −z) into the optical one before
        // publishing (x right, y down, z forward: BodyROS2Item::updateRangeCamera), row by row from the top.
        view.setFloat32(i, ((u - w / 2) / w) * 1.5, true);
        view.setFloat32(i + 4, ((v - h / 2) / h) * 1.1, true);
        view.setFloat32(i + 8, 1.5, true);
        view.setUint32(i + 12, (rgb[0] << 16) | (rgb[1] << 8) | rgb[2], true);
      }
    }
    const fields = ['x', 'y', 'z'].map((name, j) => ({ name, offset: 4 * j, datatype: 7, count: 4 }));
    fields.push({ name: 'rgb', offset: 12, datatype: 6, count: 1 });
    return { header: header(frame, stamp), height: h, width: w, fields, is_bigendian: false, point_step: step, row_step: step * w, data, is_dense: true };
  };

  const tankFeed = () => {
    const kinect = sensorPub('sensor_msgs/msg/Image', '/Tank/Kinect');
    const cloud = sensorPub('sensor_msgs/msg/PointCloud2', '/Tank/Kinect/point_cloud');
    const theta = sensorPub('sensor_msgs/msg/Image', '/Tank/Theta');
    return {
      tick(stamp?: { sec: number; nanosec: number }) {
        kinect.publish(solidImage('Kinect', 320, 240, MAGENTA, stamp));
        cloud.publish(wallCloud('Kinect', 320, 240, GREEN, stamp));
        // Dual fisheye: Choreonoid sends width × width/2.
        theta.publish(solidImage('Theta', 720, 360, MAGENTA, stamp));
      },
      colours: [MAGENTA, GREEN],
    };
  };

  const cases: Case[] = [
    {
      name: 'SimpleTank',
      file: join(corpusDir, 'choreonoid/share/model/Tank/SimpleTank.body'),
      feed: () => {
        const image = sensorPub('sensor_msgs/msg/Image', '/SimpleTank/Camera');
        const cloud = sensorPub('sensor_msgs/msg/PointCloud2', '/SimpleTank/Camera/point_cloud');
        return { tick: () => (image.publish(solidImage('Camera', 320, 240, MAGENTA)), cloud.publish(wallCloud('Camera', 320, 240, GREEN))), colours: [MAGENTA, GREEN] };
      },
    },
    { name: 'Tank', file: join(corpusDir, 'choreonoid/share/model/Tank/Tank.body'), feed: tankFeed },
    { name: 'PA10', file: join(corpusDir, 'choreonoid/share/model/PA10/PA10.body') },
    { name: 'HRP4C', file: join(corpusDir, 'choreonoid/share/model/HRP4C/HRP4C.body') },
    { name: 'SR1-wrl', file: join(corpusDir, 'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl') },
    { name: 'UR10-collada', file: join(corpusDir, 'choreonoid/share/model/UniversalRobots/UR10.body') },
    {
      name: 'sample_arm-namespaced',
      file: join(projectRoot, 'models', 'sample_arm.body'),
      args: ['namespace:=r1', 'frame_prefix:=r1/'],
      feed: () => {
        const image = sensorPub('sensor_msgs/msg/Image', '/SampleArm/HEAD_CAMERA');
        const scan = sensorPub('sensor_msgs/msg/LaserScan', '/SampleArm/FRONT_LIDAR/scan');
        const wrench = sensorPub('geometry_msgs/msg/WrenchStamped', '/SampleArm/WRIST_FORCE');
        return {
          tick() {
            image.publish(solidImage('HEAD_CAMERA', 640, 480, MAGENTA));
            scan.publish({ header: header('FRONT_LIDAR'), angle_min: -2.356, angle_max: 2.356, angle_increment: 0.00873, time_increment: 0, scan_time: 0.1, range_min: 0.05, range_max: 20, ranges: new Array(541).fill(1.0), intensities: [] });
            wrench.publish({ header: header('WRIST_FORCE'), wrench: { force: { x: 0.02, y: 0, z: 0.05 }, torque: { x: 0, y: 0, z: 0.001 } } });
          },
          colours: [MAGENTA],
        };
      },
    },
    {
      name: 'Tank-sim-time',
      file: join(corpusDir, 'choreonoid/share/model/Tank/Tank.body'),
      args: ['joint_states_topic:=/Tank/joint_states', 'use_sim_time:=true'],
      feed: () => {
        const clock = node.createPublisher('rosgraph_msgs/msg/Clock', '/clock');
        const joints = node.createPublisher('sensor_msgs/msg/JointState', '/Tank/joint_states');
        const inner = tankFeed();
        let t = 100;
        return {
          tick() {
            t += 0.05;
            const ns = Math.round(t * 1e9);
            const stamp = { sec: Math.floor(ns / 1e9), nanosec: ns % 1e9 };
            clock.publish({ clock: stamp });
            joints.publish({ header: { stamp, frame_id: '' }, name: ['TURRET_Y', 'TURRET_P'], position: [0.3, -0.1], velocity: [], effort: [] });
            inner.tick(stamp);
          },
          colours: inner.colours,
        };
      },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: drawn with no rviz2 warning${c.feed ? ', with its sensors' : ''}`, async () => {
      const launchTmp = join(scratch, c.name);
      mkdirSync(launchTmp);
      const env = guiEnv(x.display, { TMPDIR: launchTmp });
      const launch = procs.start('bash', sourced(setup, `ros2 launch body_bridge display.launch.py body_file:=${c.file} ${(c.args ?? []).join(' ')}`), env);
      const feed = c.feed?.('');
      const started = Date.now();
      await waitFor('rviz2 and body_bridge up', 120_000, () => /\[rviz2-\d+\]/.test(launch.output()) && /Robot initialized/.test(launch.output()), launch.output);
      while (Date.now() - started < SETTLE_MS + 15_000) {
        feed?.tick();
        await sleep(100);
      }
      const withRobot = x.screenshot(join(shots, `${c.name}.png`));
      const log = launch.output();
      // The generated configuration, kept for the empty scene below: the launch deletes it when it shuts down.
      const config = readdirSync(launchTmp).find((f) => /^body_bridge_.*\.rviz$/.test(f));
      expect(config, log.slice(-3000)).toBeDefined();
      const kept = join(launchTmp, 'kept.rviz');
      copyFileSync(join(launchTmp, config!), kept);
      await procs.stopAll();
      expect(launch.child.exitCode === null || launch.child.exitCode === 0 || launch.child.signalCode !== null).toBe(true);
      expect(existsSync(join(launchTmp, config!)), 'the generated rviz configuration after the launch ended').toBe(false);

      // The empty scene: the same generated configuration, nothing served.
      const empty = procs.start('bash', sourced(setup, `rviz2 -d ${kept}`), env);
      await sleep(SETTLE_MS + 5_000);
      const emptyShot = x.screenshot(join(shots, `${c.name}-empty.png`));
      await procs.stopAll();

      expect(rvizComplaints(log), log.slice(-4000)).toEqual([]);
      expect(bridgeComplaints(log), log.slice(-4000)).toEqual([]);
      const changed = differingPixels(withRobot, emptyShot, x.width, { x: 0, y: 0, w: x.width, h: x.height });
      expect(changed, `${c.name}: pixels differing from the empty scene`).toBeGreaterThan(5000);
      for (const colour of feed?.colours ?? []) {
        expect(pixelsOfColour(withRobot, colour), `${c.name}: pixels of ${colour}`).toBeGreaterThan(500);
        expect(pixelsOfColour(emptyShot, colour)).toBeLessThan(50);
      }
      expect(existsSync(join(shots, `${c.name}.png`))).toBe(true);
      void empty;
    }, 300_000);
  }
});
