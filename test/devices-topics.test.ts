// Topics and CameraInfo for every device in the corpus (models built from Choreonoid's own loader
// output), checked against the table and, for the intrinsics, against projection geometry.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadRobotModel } from '../src/load.js';
import { projectRoot } from './support/oracle.js';
import { cameraInfo, cameraIntrinsics, renderedImageSize } from '../src/devices/camera-info.js';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { deviceTopics, topicToken } from '../src/devices/topics.js';
import { frameTree } from '../src/kinematics/frames.js';
import type { CameraParams, Device, RobotModel } from '../src/model/types.js';
import { checkMessage } from './support/msgcheck.js';
import { modelFromOracle, oracleEntriesWithDevices, oracleEntry } from './support/oracle-devices.js';

const header = { stamp: { sec: 3, nanosec: 4 }, frame_id: 'cam_optical_frame' };

/** The table: topic suffix → message type, and which frame the data is in. */
function expectedTopics(d: Device): [string, string, 'optical' | 'scan' | 'device'][] {
  switch (d.type) {
    case 'Camera':
      return [
        ['image_raw', 'sensor_msgs/msg/Image', 'optical'],
        ['camera_info', 'sensor_msgs/msg/CameraInfo', 'optical'],
      ];
    case 'RangeCamera': {
      const depth: [string, string, 'optical'][] = [
        ['depth/image_raw', 'sensor_msgs/msg/Image', 'optical'],
        ['depth/camera_info', 'sensor_msgs/msg/CameraInfo', 'optical'],
        ['points', 'sensor_msgs/msg/PointCloud2', 'optical'],
      ];
      // An unorganized cloud's "image" is one row of point colours (Choreonoid's GLRangeCameraSimulator): no picture.
      return d.params.image_type === 'COLOR_IMAGE' && d.params.is_organized
        ? [['image_raw', 'sensor_msgs/msg/Image', 'optical'], ['camera_info', 'sensor_msgs/msg/CameraInfo', 'optical'], ...depth]
        : depth;
    }
    case 'RangeSensor':
      return d.params.pitch_range === 0 ? [['scan', 'sensor_msgs/msg/LaserScan', 'scan']] : [['points', 'sensor_msgs/msg/PointCloud2', 'scan']];
    case 'Imu':
    case 'AccelerationSensor':
    case 'RateGyroSensor':
      return [['imu', 'sensor_msgs/msg/Imu', 'device']];
    case 'ForceSensor':
      return [['wrench', 'geometry_msgs/msg/WrenchStamped', 'device']];
    default:
      return [];
  }
}

/** ROS 2 relative topic names: tokens of [A-Za-z0-9_] that do not start with a digit. */
const VALID_RELATIVE_TOPIC = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*$/;

describe('deviceTopics over the corpus', () => {
  const entries = oracleEntriesWithDevices();

  it('finds every sensor device type in the corpus', () => {
    const seen = new Set<string>();
    for (const e of entries) {
      for (const d of modelFromOracle(e.oracle).devices) {
        seen.add(d.type === 'RangeSensor' ? (d.params.pitch_range === 0 ? 'RangeSensor/planar' : 'RangeSensor/3D') : d.type);
      }
    }
    for (const t of ['Camera', 'RangeCamera', 'RangeSensor/planar', 'RangeSensor/3D', 'ForceSensor', 'RateGyroSensor', 'AccelerationSensor', 'Imu']) {
      expect(seen, t).toContain(t);
    }
    expect(entries.length).toBeGreaterThan(40);
  });

  it('gives each device the topics, types and frames of the issue, with valid unique names', () => {
    let checked = 0;
    for (const e of entries) {
      const model = modelFromOracle(e.oracle);
      const frames = deviceFrames(model);
      const tree = new Set(frameTree(model).map((f) => f.name));
      const sets = deviceTopics(model, frames);
      const names = sets.flatMap((s) => s.topics.map((t) => t.name));
      expect(new Set(names).size, e.file).toBe(names.length);
      model.devices.forEach((d, i) => {
        const expected = expectedTopics(d);
        const set = sets.find((s) => s.device === i);
        if (expected.length === 0) {
          expect(set, `${e.file} ${d.name}`).toBeUndefined();
          return;
        }
        const f = frames[i]!;
        expect(set!.frame).toBe(f.frame);
        const got = set!.topics.map((t) => [t.name, t.type, t.frame]);
        const want = expected.map(([suffix, type, kind]) => [
          `${set!.base}/${suffix}`,
          type,
          kind === 'optical' ? f.optical!.frame : kind === 'scan' ? f.scan!.frame : f.frame,
        ]);
        expect(got.sort(), `${e.file} ${d.name}`).toEqual(want.sort());
        for (const t of set!.topics) {
          expect(t.name, `${e.file} ${d.name}`).toMatch(VALID_RELATIVE_TOPIC);
          expect(tree.has(t.frame), `${e.file}: frame ${t.frame} is not in the TF tree`).toBe(true);
          checked++;
        }
      });
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('an unorganized colour cloud (COLOR_POINT_CLOUD) has no image topic: Choreonoid sends its point colours as one row (seen: 18617×1 for a 160×120 camera)', () => {
    const model = loadRobotModel(join(projectRoot, 'test/live/choreonoid/Checker.body'));
    const sets = deviceTopics(model, deviceFrames(model));
    const roles = (name: string): string[] => sets.find((s) => model.devices[s.device]!.name === name)!.topics.map((t) => t.role).sort();
    expect(roles('PointCloudCamera')).toEqual(['depth_camera_info', 'depth_image', 'points']);
    expect(roles('DepthCamera')).toEqual(['camera_info', 'depth_camera_info', 'depth_image', 'image', 'points']);
  });

  it('names Tank topics after device frames, made valid ROS names', () => {
    const model = modelFromOracle(oracleEntry('choreonoid/share/model/Tank/Tank.body').oracle);
    const sets = deviceTopics(model, deviceFrames(model));
    const vlp = sets.find((s) => s.frame === 'VLP-16')!;
    expect(vlp.topics).toEqual([{ role: 'points', name: 'VLP_16/points', type: 'sensor_msgs/msg/PointCloud2', frame: 'VLP-16_scan_frame' }]);
    expect(sets.find((s) => s.frame === 'Kinect')!.topics.map((t) => t.name)).toEqual([
      'Kinect/image_raw',
      'Kinect/camera_info',
      'Kinect/depth/image_raw',
      'Kinect/depth/camera_info',
      'Kinect/points',
    ]);
    expect(sets.find((s) => s.frame === 'ACCEL_SENSOR')!.topics).toEqual([
      { role: 'imu', name: 'ACCEL_SENSOR/imu', type: 'sensor_msgs/msg/Imu', frame: 'ACCEL_SENSOR' },
    ]);
  });

  it('keeps topic bases unique when frame names sanitise alike, and valid for odd names', () => {
    expect(topicToken('VLP-16')).toBe('VLP_16');
    expect(topicToken('3D lidar')).toBe('_3D_lidar');
    expect(topicToken('')).toBe('device');
    const base = modelFromOracle(oracleEntry('choreonoid/share/model/Tank/Tank.body').oracle);
    const gyro = base.devices.find((d) => d.type === 'RateGyroSensor')!;
    const model: RobotModel = {
      ...base,
      devices: [
        { ...gyro, name: 'a-b' },
        { ...gyro, name: 'a_b' },
        { ...gyro, name: '' },
        { ...gyro, name: '9axis' },
      ],
    };
    const sets = deviceTopics(model, deviceFrames(model));
    expect(sets.map((s) => s.topics[0]!.name)).toEqual(['a_b/imu', 'a_b_2/imu', `${gyro.link}_RateGyroSensor/imu`, '_9axis/imu']);
    expect(sets.map((s) => s.topics[0]!.frame)).toEqual(['a-b', 'a_b', `${gyro.link}_RateGyroSensor`, '9axis']);
  });
});

describe('CameraInfo', () => {
  const camera = (file: string, name: string): CameraParams => {
    const d = modelFromOracle(oracleEntry(file).oracle).devices.find((x) => x.name === name)!;
    return (d as Extract<Device, { type: 'Camera' | 'RangeCamera' }>).params;
  };
  /** Pixel coordinates of an optical-frame ray through P = K·[I|0]. */
  const project = (p: number[], ray: [number, number, number]): [number, number] => {
    const x = p[0]! * ray[0] + p[1]! * ray[1] + p[2]! * ray[2];
    const y = p[4]! * ray[0] + p[5]! * ray[1] + p[6]! * ray[2];
    const w = p[8]! * ray[0] + p[9]! * ray[1] + p[10]! * ray[2];
    return [x / w, y / w];
  };

  it('maps the field of view onto the shorter image side, edge to edge, for every corpus camera', () => {
    let checked = 0;
    for (const e of oracleEntriesWithDevices()) {
      for (const d of modelFromOracle(e.oracle).devices) {
        if (d.type !== 'Camera' && d.type !== 'RangeCamera') continue;
        const p = d.params;
        const info = cameraInfo(p, header);
        expect(checkMessage('sensor_msgs/msg/CameraInfo', info), `${e.file} ${d.name}`).toEqual([]);
        // The size of the images the camera really sends (a fisheye's is not the file's height).
        const size = renderedImageSize(p);
        expect([info.width, info.height]).toEqual([size.width, size.height]);
        if (p.lens_type === 'NORMAL_LENS') expect(size).toEqual({ width: p.width, height: p.height });
        expect(info.distortion_model).toBe('plumb_bob');
        expect(info.d).toEqual([0, 0, 0, 0, 0]);
        if (p.lens_type !== 'NORMAL_LENS') {
          // Not a pinhole: CameraInfo's convention for "uncalibrated" is zero K, R and P.
          expect([...info.k, ...info.r, ...info.p].every((v) => v === 0)).toBe(true);
          continue;
        }
        const t = Math.tan(p.field_of_view / 2);
        const short = Math.min(p.width, p.height);
        // Rays at ±fov/2 along the shorter side hit the outer edges of the first and last pixel.
        if (p.height <= p.width) {
          const [, top] = project(info.p, [0, -t, 1]);
          const [, bottom] = project(info.p, [0, t, 1]);
          expect(top).toBeCloseTo(-0.5, 9);
          expect(bottom).toBeCloseTo(short - 0.5, 9);
        } else {
          const [left] = project(info.p, [-t, 0, 1]);
          expect(left).toBeCloseTo(-0.5, 9);
        }
        // Square pixels: the wider side spans tan(fov/2)·(long/short) the same way.
        const [left] = project(info.p, [-t * (p.width / short), 0, 1]);
        expect(left).toBeCloseTo(-0.5, 9);
        // The optical axis through the image centre.
        const [cu, cv] = project(info.p, [0, 0, 1]);
        expect([cu, cv]).toEqual([(p.width - 1) / 2, (p.height - 1) / 2]);
        expect(info.k).toEqual([info.p[0], 0, info.p[2], 0, info.p[5], info.p[6], 0, 0, 1]);
        expect(info.r).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
        expect(info.header).toBe(header);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('sample1 VISION_SENSOR1: fx = fy = 120 / tan(0.392699)', () => {
    const p = camera('openhrp3/sample/model/sample1.wrl', 'VISION_SENSOR1');
    const k = cameraIntrinsics(p)!;
    expect(k.fx).toBeCloseTo(289.7056, 3);
    expect(k.fy).toBe(k.fx);
    expect([k.cx, k.cy]).toEqual([159.5, 119.5]);
  });

  it('a portrait camera spans the field of view across its width', () => {
    const p = { ...camera('openhrp3/sample/model/sample1.wrl', 'VISION_SENSOR1'), width: 240, height: 320 };
    const [left] = project(cameraInfo(p, header).p, [-Math.tan(p.field_of_view / 2), 0, 1]);
    expect(left).toBeCloseTo(-0.5, 9);
  });
});

describe('deviceInfo (for info --json)', () => {
  it('lists Tank devices with frames and typed topics, prefixed', async () => {
    const { deviceInfo } = await import('../src/devices/info.js');
    const model = modelFromOracle(oracleEntry('choreonoid/share/model/Tank/Tank.body').oracle);
    const info = deviceInfo(model, deviceFrames(model), 'r1/');
    expect(info.map((d) => d.name)).toEqual(model.devices.map((d) => d.name));
    expect(info.find((d) => d.name === 'VLP-16')).toEqual({
      name: 'VLP-16',
      type: 'RangeSensor',
      link: 'TURRET_P',
      frames: { device: 'r1/VLP-16', optical: 'r1/VLP-16_optical_frame', scan: 'r1/VLP-16_scan_frame' },
      topics: [{ name: 'VLP_16/points', type: 'sensor_msgs/msg/PointCloud2', frame_id: 'r1/VLP-16_scan_frame' }],
    });
    expect(info.find((d) => d.name === 'Light')).toEqual({ name: 'Light', type: 'SpotLight', link: 'TURRET_P', frames: { device: 'r1/Light' }, topics: [] });
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });
});
