// A Choreonoid simulation stopped and started again, on the in-memory transport: /clock (the node clock) and
// every stamp jump back to zero while the node runs on. The node must carry on at once, without a restart:
// /tf for the first joint_states of the new run, stamped with it and no transform of the old run after it;
// every relayed sensor with its new stamps; CameraInfo on its own again while no image comes (rcl's timers
// follow a jump back). The model is the live test's Checker (test/live/choreonoid), the inputs shaped as
// choreonoid_ros's BodyROS2Item sends them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { loadRobotModel } from '../src/load.js';
import type { CameraInfo, Imu, LaserScan, TFMessage, Time } from '../src/messages/messages.js';
import { startDeviceRelay } from '../src/ros/device-relay.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { ROBOT_BODY, SCENE_DIR } from './live/choreonoid/scene.js';
import { peerCodec } from './support/cdr-peer.js';
import { jointState, rig } from './support/ros-rig.js';

const stampOf = (sec: number): Time => ({ sec: Math.trunc(sec), nanosec: Math.trunc((sec - Math.trunc(sec)) * 1e9) });
const seconds = (t: Time): number => t.sec + t.nanosec * 1e-9;

describe('a simulation started again from time zero', () => {
  const model = loadRobotModel(join(SCENE_DIR, ROBOT_BODY));

  it('/tf and every relayed sensor follow the new run at once; nothing of the old run comes after it', () => {
    const r = rig(model, { publish_frequency: 20 }, { startDevices: startDeviceRelay });
    const t = r.transport;
    const image = (stamp: Time) => ({ header: { stamp, frame_id: 'ColorCamera' }, height: 240, width: 320, encoding: 'rgb8', is_bigendian: 0, step: 960, data: new Uint8Array(320 * 240 * 3) });
    const accel = (stamp: Time) => ({
      header: { stamp, frame_id: 'BodyAccel' },
      orientation: { x: 0, y: 0, z: 0, w: 1 },
      orientation_covariance: new Array(9).fill(0),
      angular_velocity: { x: 0, y: 0, z: 0 },
      angular_velocity_covariance: new Array(9).fill(0),
      // choreonoid_ros divides by 10; mounted upside down.
      linear_acceleration: { x: 0, y: 0, z: -0.980665 },
      linear_acceleration_covariance: new Array(9).fill(0),
    });
    const scan = (stamp: Time) => ({
      header: { stamp, frame_id: 'Scanner2D' },
      angle_min: -2.094,
      angle_max: 2.094,
      angle_increment: 0.00873,
      time_increment: 0,
      scan_time: 0,
      range_min: 0.1,
      range_max: 10,
      ranges: new Array(481).fill(3),
      intensities: [],
    });
    /** One step of choreonoid_ros at simulation time s: joint_states at 100 Hz, the sensors at their rates. */
    const step = (s: number, pan: number): void => {
      t.setTime(stampOf(s + 0.0005));
      const stamp = stampOf(s);
      t.inject('joint_states', jointState(stamp, ['PAN', 'TILT'], [pan, 0]));
      const ms = Math.round(s * 1000);
      if (ms % 100 === 0) {
        t.inject('/Checker/ColorCamera', image(stamp));
        t.inject('/Checker/Scanner2D/scan', scan(stamp));
      }
      t.inject('/Checker/BodyAccel', accel(stamp));
    };
    for (let ms = 10; ms <= 12_000; ms += 10) step(ms / 1000, 0.3);
    const before = t.published.length;
    // publish_frequency 20 Hz: the last /tf of the run within 50 ms of its end.
    expect(seconds(t.last<TFMessage>('/tf')!.transforms[0]!.header.stamp)).toBeGreaterThan(11.94);

    // Stopped: /clock stands still; then started again from zero with the head elsewhere.
    t.advanceWall(3000);
    for (let ms = 10; ms <= 500; ms += 10) step(ms / 1000, -0.4);
    const after = t.published.slice(before);
    const tf = after.filter((p) => p.topic === '/tf').map((p) => p.message as TFMessage);
    // The new run is on /tf within one publish interval: as robot_state_publisher, a joint not yet published
    // since the clock went back counts as published at time 0, so the first stamp at or after 1 / 20 Hz goes out.
    expect(tf.length).toBeGreaterThan(5);
    const first = tf[0]!.transforms.find((x) => x.child_frame_id === 'PAN_link')!;
    expect(seconds(first.header.stamp)).toBeCloseTo(0.05, 6);
    expect(first.transform.rotation.z).toBeCloseTo(Math.sin(-0.4 / 2), 9);
    // No transform of the old run after the new one began.
    expect(tf.flatMap((m) => m.transforms).filter((x) => seconds(x.header.stamp) > 1)).toEqual([]);
    // Every relayed topic carries the new run's stamps.
    for (const topic of ['ColorCamera/image_raw', 'ColorCamera/camera_info', 'Scanner2D/scan', 'BodyAccel/imu']) {
      const msgs = after.filter((p) => p.topic === topic).map((p) => p.message as { header: { stamp: Time } });
      expect(msgs.length, topic).toBeGreaterThan(0);
      expect(seconds(msgs[0]!.header.stamp), topic).toBeCloseTo(topic.startsWith('BodyAccel') ? 0.01 : 0.1, 6);
      expect(msgs.every((m) => seconds(m.header.stamp) < 1), topic).toBe(true);
    }
    expect(after.filter((p) => p.topic === 'BodyAccel/imu').map((p) => (p.message as Imu).linear_acceleration.z)[0]).toBeCloseTo(-9.80665, 9);
    expect((after.find((p) => p.topic === 'Scanner2D/scan')!.message as LaserScan).angle_min).toBeCloseTo(-Math.PI * 2 / 3, 6);
    // No warning about stamps ahead of the clock or the like; the one about time going back at most, and the one
    // that says joint_states stopped (the simulation stood still for 3 s of wall time): once.
    const warnings = t.logs.filter((l) => l.level === 'warn' || l.level === 'error').map((l) => l.message);
    expect(warnings.filter((m) => /^\/joint_states stopped: no message for 2 s/.test(m))).toHaveLength(1);
    expect(warnings.filter((m) => !/backwards|moved back|^\/joint_states stopped: no message for 2 s/.test(m))).toEqual([]);
  });

  it('CameraInfo goes on alone at the frame rate after the clock jumps back, while no image comes (rcl timers follow a jump back)', () => {
    const t = createMemoryTransport({ start: stampOf(12), codec: peerCodec });
    const stop = startDeviceRelay({ model, frames: deviceFrames(model), transport: t, framePrefix: '', params: { inputNamespace: '', inputTopics: {}, undoUpstreamScaling: true, cameraInfoWithoutImages: true } });
    t.advance(500);
    expect(t.messages('ColorCamera/camera_info').length).toBe(5);
    t.clear();
    t.setTime(stampOf(0.001));
    t.advance(500);
    const infos = t.messages<CameraInfo>('ColorCamera/camera_info');
    // ColorCamera at 10 Hz: five in half a second, stamped with the new run's time.
    expect(infos.length).toBe(5);
    expect(infos.map((i) => +seconds(i.header.stamp).toFixed(3))).toEqual([0.101, 0.201, 0.301, 0.401, 0.501]);
    stop();
  });
});
