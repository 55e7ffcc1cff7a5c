// Conversions on typed arrays, checked by reprojection and by reading the bytes as a ROS consumer
// would (PointCloud2 fields, PCL's rgb packing, LaserScan angle arithmetic).
import { describe, expect, it } from 'vitest';
import { cameraIntrinsics, type Intrinsics } from '../src/devices/camera-info.js';
import { imuMessage, wrenchMessage } from '../src/devices/inertial.js';
import { depthImage } from '../src/devices/pointcloud.js';
import { depthToPointCloud, rangeScanToPointCloud } from './support/reference-clouds.js';
import { laserScan } from '../src/devices/scan.js';
import type { CameraParams, RangeSensorParams } from '../src/model/types.js';
import type { PointCloud2 } from '../src/messages/messages.js';
import { checkMessage } from './support/msgcheck.js';

const header = { stamp: { sec: 7, nanosec: 8 }, frame_id: 'cam_optical_frame' };

const camera: CameraParams = {
  frame_rate: 30,
  on: true,
  optical_frame_rotation: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  width: 5,
  height: 4,
  field_of_view: 1.0,
  near_clip: 0.01,
  far_clip: 100,
  image_type: 'COLOR_IMAGE',
  lens_type: 'NORMAL_LENS',
  format: 'COLOR',
};

/** Reads field `name` of point i the way a consumer does: by the declared offset and datatype. */
function readField(c: PointCloud2, i: number, name: string): number {
  const f = c.fields.find((x) => x.name === name)!;
  const view = new DataView(c.data.buffer, c.data.byteOffset, c.data.byteLength);
  const at = i * c.point_step + f.offset;
  expect(f.datatype).toBe(7); // FLOAT32
  return view.getFloat32(at, !c.is_bigendian);
}

describe('depthToPointCloud', () => {
  const k = cameraIntrinsics(camera)!;
  const depth = new Float32Array(k.width * k.height);
  for (let i = 0; i < depth.length; i++) depth[i] = 0.5 + 0.25 * i;
  depth[3] = NaN;
  depth[7] = 0;
  depth[11] = Infinity;

  it('puts every valid pixel on its own ray at its depth; invalid pixels are NaN', () => {
    const cloud = depthToPointCloud(depth, k, header);
    expect(checkMessage('sensor_msgs/msg/PointCloud2', cloud)).toEqual([]);
    expect([cloud.width, cloud.height, cloud.point_step, cloud.is_dense]).toEqual([5, 4, 12, false]);
    expect(cloud.fields.map((f) => [f.name, f.offset, f.count])).toEqual([
      ['x', 0, 1],
      ['y', 4, 1],
      ['z', 8, 1],
    ]);
    for (let v = 0; v < k.height; v++) {
      for (let u = 0; u < k.width; u++) {
        const i = v * k.width + u;
        const [x, y, z] = ['x', 'y', 'z'].map((n) => readField(cloud, i, n)) as [number, number, number];
        if (i === 3 || i === 7 || i === 11) {
          expect([x, y, z].every(Number.isNaN)).toBe(true);
          continue;
        }
        expect(z).toBe(depth[i]);
        expect((k.fx * x) / z + k.cx).toBeCloseTo(u, 4);
        expect((k.fy * y) / z + k.cy).toBeCloseTo(v, 4);
      }
    }
  });

  it('is dense when every pixel has a depth', () => {
    expect(depthToPointCloud(new Float32Array(20).fill(2), k, header).is_dense).toBe(true);
  });

  it('packs rgb8 colour as PCL does (0x00RRGGBB in a 32-bit word), and mono8 as grey', () => {
    const rgb = new Uint8Array(k.width * k.height * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 7) % 256;
    const cloud = depthToPointCloud(depth, k, header, { data: rgb, channels: 3 });
    expect(checkMessage('sensor_msgs/msg/PointCloud2', cloud)).toEqual([]);
    const f = cloud.fields.find((x) => x.name === 'rgb')!;
    expect([f.offset, f.datatype, f.count, cloud.point_step]).toEqual([12, 7, 1, 16]);
    const view = new DataView(cloud.data.buffer, cloud.data.byteOffset);
    for (const i of [0, 3, 19]) {
      const word = view.getUint32(i * 16 + 12, !cloud.is_bigendian);
      expect([(word >>> 16) & 255, (word >>> 8) & 255, word & 255, word >>> 24]).toEqual([rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 0]);
    }
    const mono = depthToPointCloud(depth, k, header, { data: new Uint8Array(20).fill(77), channels: 1 });
    expect(new DataView(mono.data.buffer).getUint32(5 * 16 + 12, !mono.is_bigendian)).toBe((77 << 16) | (77 << 8) | 77);
  });

  it('rejects a depth image of the wrong size', () => {
    expect(() => depthToPointCloud(new Float32Array(19), k, header)).toThrow(RangeError);
  });

  it('depthImage wraps the floats as a 32FC1 image without copying', () => {
    const img = depthImage(depth, k.width, k.height, header);
    expect(checkMessage('sensor_msgs/msg/Image', img)).toEqual([]);
    expect([img.encoding, img.step]).toEqual(['32FC1', 20]);
    expect(img.data.buffer).toBe(depth.buffer);
    expect(new DataView(img.data.buffer).getFloat32(4 * 4, img.is_bigendian === 0)).toBe(depth[4]);
  });

  it('handles a real corpus-size frame (640×480) in one pass', () => {
    const big: Intrinsics = { width: 640, height: 480, fx: 500, fy: 500, cx: 319.5, cy: 239.5 };
    const cloud = depthToPointCloud(new Float32Array(640 * 480).fill(1.5), big, header);
    expect(cloud.data.byteLength).toBe(640 * 480 * 12);
    expect(readField(cloud, 640 * 480 - 1, 'z')).toBe(1.5);
  });
});

const scanner = (over: Partial<RangeSensorParams> = {}): RangeSensorParams => ({
  frame_rate: 10,
  on: true,
  optical_frame_rotation: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  yaw_range: 2,
  min_yaw_angle: -1,
  max_yaw_angle: 1,
  yaw_step: 0.3,
  // Choreonoid: ⌊2 / 0.3⌋ + 1 = 7 samples, the last at −1 + 6·0.3 = 0.8.
  num_yaw_samples: 7,
  pitch_range: 0,
  min_pitch_angle: 0,
  max_pitch_angle: 0,
  pitch_step: 0,
  num_pitch_samples: 1,
  min_distance: 0.1,
  max_distance: 30,
  scan_rate: 10,
  detection_rate: 1,
  error_deviation: 0,
  ...over,
});

describe('laserScan', () => {
  it('labels Choreonoid samples in order, ending at the last sample when the step does not divide the range', () => {
    const ranges = [1, 2, Infinity, 4, 5, 6, 7];
    const scan = laserScan(scanner(), ranges, header);
    expect(checkMessage('sensor_msgs/msg/LaserScan', scan)).toEqual([]);
    expect(scan.angle_min).toBe(-1);
    expect(scan.angle_max).toBeCloseTo(0.8, 12);
    expect(scan.angle_increment).toBe(0.3);
    expect([scan.range_min, scan.range_max, scan.scan_time, scan.time_increment]).toEqual([0.1, 30, 0.1, 0]);
    expect(Array.from(scan.ranges)).toEqual(ranges);
    expect(scan.ranges).toBeInstanceOf(Float32Array);
    expect(scan.intensities.length).toBe(0);
  });

  it('keeps an asymmetric yaw range asymmetric', () => {
    const scan = laserScan(scanner({ min_yaw_angle: -0.2, max_yaw_angle: 1.3, yaw_range: 1.5, yaw_step: 0.5, num_yaw_samples: 4 }), new Float32Array(4), header);
    expect(scan.angle_min).toBe(-0.2);
    expect(scan.angle_max).toBeCloseTo(1.3, 12);
    expect(checkMessage('sensor_msgs/msg/LaserScan', scan)).toEqual([]);
  });
});

describe('rangeScanToPointCloud', () => {
  const p = scanner({ pitch_range: 0.4, min_pitch_angle: -0.2, max_pitch_angle: 0.2, pitch_step: 0.2, num_pitch_samples: 3 });

  it('is organized by pitch rows and yaw columns; no-return samples are NaN', () => {
    const ranges = new Float64Array(21).fill(2);
    ranges[5] = Infinity;
    ranges[6] = 31; // beyond max_distance
    const cloud = rangeScanToPointCloud(p, ranges, header);
    expect(checkMessage('sensor_msgs/msg/PointCloud2', cloud)).toEqual([]);
    expect([cloud.width, cloud.height, cloud.is_dense]).toEqual([7, 3, false]);
    for (let i = 0; i < 21; i++) {
      const [x, y, z] = ['x', 'y', 'z'].map((n) => readField(cloud, i, n)) as [number, number, number];
      if (i === 5 || i === 6) {
        expect([x, y, z].every(Number.isNaN)).toBe(true);
        continue;
      }
      const yaw = -1 + (i % 7) * 0.3;
      const pitch = -0.2 + Math.floor(i / 7) * 0.2;
      expect(Math.hypot(x, y, z)).toBeCloseTo(2, 5);
      expect(Math.atan2(y, x)).toBeCloseTo(yaw, 5);
      expect(Math.asin(z / 2)).toBeCloseTo(pitch, 5);
    }
  });

  it('rejects a sample count that does not match the sensor', () => {
    expect(() => rangeScanToPointCloud(p, new Float64Array(20), header)).toThrow(RangeError);
  });
});

describe('Imu and WrenchStamped', () => {
  const w = { x: 0.1, y: -0.2, z: 0.3 };
  const a = { x: 1, y: 2, z: 9.8 };
  it('marks what each device type does not measure with covariance[0] = −1', () => {
    const imu = imuMessage('Imu', header, w, a);
    const gyro = imuMessage('RateGyroSensor', header, w, a);
    const accel = imuMessage('AccelerationSensor', header, w, a);
    for (const m of [imu, gyro, accel]) {
      expect(checkMessage('sensor_msgs/msg/Imu', m)).toEqual([]);
      expect(m.orientation_covariance[0]).toBe(-1);
      expect(m.orientation).toEqual({ x: 0, y: 0, z: 0, w: 1 });
    }
    expect([imu.angular_velocity, imu.linear_acceleration]).toEqual([w, a]);
    expect([imu.angular_velocity_covariance[0], imu.linear_acceleration_covariance[0]]).toEqual([0, 0]);
    expect([gyro.angular_velocity, gyro.angular_velocity_covariance[0], gyro.linear_acceleration_covariance[0]]).toEqual([w, 0, -1]);
    expect([accel.linear_acceleration, accel.linear_acceleration_covariance[0], accel.angular_velocity_covariance[0]]).toEqual([a, 0, -1]);
  });

  it('WrenchStamped carries force and torque', () => {
    const m = wrenchMessage(header, a, w);
    expect(checkMessage('geometry_msgs/msg/WrenchStamped', m)).toEqual([]);
    expect(m.wrench).toEqual({ force: a, torque: w });
  });
});

describe('properties', () => {
  it('every depth pixel of any pinhole camera lands on its own ray at its depth', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 64 }),
        fc.double({ min: 0.05, max: 3.0, noNaN: true }),
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        (width, height, fov, z) => {
          const k = cameraIntrinsics({ ...camera, width, height, field_of_view: fov })!;
          const cloud = depthToPointCloud(new Float32Array(width * height).fill(z), k, header);
          if (checkMessage('sensor_msgs/msg/PointCloud2', cloud).length > 0) return false;
          const xyz = new Float32Array(cloud.data.buffer);
          const zf = Math.fround(z);
          for (const i of [0, width * height - 1, Math.floor((width * height) / 2)]) {
            const u = i % width;
            const v = Math.floor(i / width);
            const [x, y, zz] = [xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!];
            if (zz !== zf) return false;
            if (Math.abs((k.fx * x) / zz + k.cx - u) > 1e-3 || Math.abs((k.fy * y) / zz + k.cy - v) > 1e-3) return false;
          }
          return true;
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it('LaserScan angle arithmetic reproduces every Choreonoid sample angle', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(
        fc.double({ min: -Math.PI, max: 0, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.double({ min: 0.001, max: 0.5, noNaN: true }),
        (min, max, step) => {
          // RangeSensor::setYawStep: n = ⌊range/step + 1e-7⌋ + 1.
          const n = Math.floor((max - min) / step + 1e-7) + 1;
          const scan = laserScan(scanner({ min_yaw_angle: min, max_yaw_angle: max, yaw_range: max - min, yaw_step: step, num_yaw_samples: n }), new Float32Array(n), header);
          if (checkMessage('sensor_msgs/msg/LaserScan', scan).length > 0) return false;
          for (const i of [0, n - 1, Math.floor(n / 3)]) {
            if (Math.abs(scan.angle_min + i * scan.angle_increment - (min + i * step)) > 1e-9) return false;
          }
          return scan.angle_max <= max + 1e-7;
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
