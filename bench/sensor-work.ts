// The device relay's real work, as the node runs it: the CDR bytes of a choreonoid_ros message in,
// the CDR bytes of every message the relay publishes for it out, through startDeviceRelay on the
// in-memory transport. Frames carry realistic content (a tilted plane with a few invalid pixels /
// no-return beams) so that both the valid and the invalid branch of every conversion run.
import { identityPose } from '../src/model/math.js';
import type { CameraParams, Device, RangeCameraParams, RangeSensorParams, RobotModel } from '../src/model/types.js';
import { writeImage } from '../src/cdr/image.js';
import { writeImu } from '../src/cdr/imu.js';
import { writeLaserScan } from '../src/cdr/laser-scan.js';
import { writePointCloud2 } from '../src/cdr/point-cloud2.js';
import { writeWrenchStamped } from '../src/cdr/wrench-stamped.js';
import { type Image, MessageType, type PointCloud2 } from '../src/messages/messages.js';
import { chainModel } from './chain.js';
import type { Resolved } from './subjects.js';
import { reasonOf, unavailable } from './subjects.js';
import type { SensorWork } from './sensors.js';

export function cameraParams(width: number, height: number): CameraParams {
  return {
    frame_rate: 30,
    on: true,
    optical_frame_rotation: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    width,
    height,
    field_of_view: 1.0,
    near_clip: 0.05,
    far_clip: 20,
    image_type: 'NO_IMAGE',
    lens_type: 'NORMAL_LENS',
    format: 'DEPTH',
  };
}

/** Depth in metres of a plane seen at an angle; every 97th pixel has no measurement. */
export function depthFrame(width: number, height: number): Float32Array {
  const d = new Float32Array(width * height);
  for (let v = 0, i = 0; v < height; v++) {
    for (let u = 0; u < width; u++, i++) d[i] = i % 97 === 0 ? NaN : 1 + (2 * u) / width + v / height;
  }
  return d;
}

export function rangeSensorParams(yawSamples: number, pitchSamples: number): RangeSensorParams {
  const yawRange = 2 * Math.PI * (1 - 1 / yawSamples);
  const pitchRange = (30 * Math.PI) / 180;
  return {
    frame_rate: 10,
    on: true,
    optical_frame_rotation: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    yaw_range: yawRange,
    min_yaw_angle: -yawRange / 2,
    max_yaw_angle: yawRange / 2,
    yaw_step: yawRange / (yawSamples - 1),
    num_yaw_samples: yawSamples,
    pitch_range: pitchRange,
    min_pitch_angle: -pitchRange / 2,
    max_pitch_angle: pitchRange / 2,
    pitch_step: pitchRange / (pitchSamples - 1),
    num_pitch_samples: pitchSamples,
    min_distance: 0.1,
    max_distance: 100,
    scan_rate: 10,
    detection_rate: 1,
    error_deviation: 0,
  };
}

/** Ranges in metres; every 101st beam has no return (+Inf, as Choreonoid reports it). */
export function scanFrame(n: number): Float32Array {
  const r = new Float32Array(n);
  for (let i = 0; i < n; i++) r[i] = i % 101 === 0 ? Infinity : 2 + 3 * Math.abs(Math.sin(i * 0.001));
  return r;
}

/** A one-link body carrying one device, as a loader would produce it. */
function bodyWith(device: Device): RobotModel {
  const model = chainModel(0);
  return { ...model, name: 'bench', sourceFile: '/synthetic/bench.body', devices: [device] };
}

const rangeCameraParams = (width: number, height: number): RangeCameraParams => ({
  ...cameraParams(width, height),
  min_distance: 0.1,
  max_distance: 10,
  is_organized: true,
  is_dense: false,
  detection_rate: 1,
  error_deviation: 0,
});

/** An rgb8 image as BodyROS2Item::updateVisionSensor fills it (frame_id = device name, step = 3·width). */
function upstreamImage(width: number, height: number): Image {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
  return {
    header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'camera' },
    height,
    width,
    encoding: 'rgb8',
    is_bigendian: 0,
    step: width * 3,
    data,
  };
}

/**
 * A COLOR_DEPTH RangeCamera cloud as BodyROS2Item::updateRangeVisionSensor fills it: organized
 * width×height, x/y/z FLOAT32 at 0/4/8 and rgb UINT32 at 12, each with count 4, point_step 16, row_step 0
 * (it is computed before point_step is set), points with infinite coordinates where there is no measurement.
 */
function upstreamCloud(width: number, height: number): PointCloud2 {
  const depth = depthFrame(width, height);
  const f = Math.min(width, height) / 2 / Math.tan(0.5);
  const buffer = new ArrayBuffer(width * height * 16);
  const xyz = new Float32Array(buffer);
  const rgb = new Uint32Array(buffer);
  for (let v = 0, i = 0; v < height; v++) {
    for (let u = 0; u < width; u++, i++) {
      const z = depth[i]!;
      if (Number.isNaN(z)) xyz[4 * i] = xyz[4 * i + 1] = xyz[4 * i + 2] = Infinity;
      else {
        xyz[4 * i] = ((u - (width - 1) / 2) * z) / f;
        xyz[4 * i + 1] = ((v - (height - 1) / 2) * z) / f;
        xyz[4 * i + 2] = z;
      }
      rgb[4 * i + 3] = (i * 2654435761) >>> 8;
    }
  }
  const field = (name: string, offset: number, datatype: number) => ({ name, offset, datatype, count: 4 });
  return {
    header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'depth_camera' },
    height,
    width,
    fields: [field('x', 0, 7), field('y', 4, 7), field('z', 8, 7), field('rgb', 12, 6)],
    is_bigendian: false,
    point_step: 16,
    row_step: 0,
    data: new Uint8Array(buffer),
    is_dense: true,
  };
}

export interface NamedWork {
  name: string;
  work: Resolved<SensorWork>;
}

export async function sensorWorks(): Promise<NamedWork[]> {
  let relay: { bridge: typeof import('../src/ros/device-relay.js'); frames: typeof import('../src/kinematics/device-frames.js'); mem: typeof import('../src/ros/memory-transport.js') } | undefined;
  let failure = '';
  try {
    relay = {
      bridge: await import('../src/ros/device-relay.js'),
      frames: await import('../src/kinematics/device-frames.js'),
      mem: await import('../src/ros/memory-transport.js'),
    };
  } catch (error) {
    failure = `device relay: ${reasonOf(error)}`;
  }

  /**
   * One message's CDR bytes injected where choreonoid_ros publishes, through the device relay on the
   * in-memory transport; the output size is the CDR bytes of every message the relay publishes for it.
   */
  const relayed = (name: string, device: Device, inputType: string, input: Uint8Array): NamedWork => {
    if (!relay) return { name, work: unavailable(failure) };
    const model = bodyWith(device);
    // The publications are only counted: no copy of each on the way (rclnodejs hands them to DDS).
    const transport = relay.mem.createMemoryTransport({ copyRaw: false });
    relay.bridge.startDeviceRelay({
      model,
      frames: relay.frames.deviceFrames(model),
      transport,
      framePrefix: '',
      params: { ...relay.bridge.defaultRelayParams, cameraInfoWithoutImages: false },
    });
    const topic = transport.topics().find((t) => t.direction === 'subscribe' && t.type === inputType);
    if (!topic) return { name, work: unavailable(`the device relay subscribes to no ${inputType} for a ${device.type}`) };
    const run = (): number => {
      transport.clear();
      transport.inject(topic.topic, input);
      let bytes = 0;
      for (const p of transport.published) bytes += p.bytes?.byteLength ?? 0;
      if (bytes === 0) throw new Error(`the device relay published nothing for ${topic.topic}: ${transport.logs.map((l) => l.message).join('; ')}`);
      return bytes;
    };
    return { name, work: { ok: true, value: { name, inputBytes: input.byteLength, run } } };
  };

  const device = (type: Device['type'], params: unknown): Device =>
    ({ type, name: 'sensor', id: 0, link: 'base', pose: identityPose(), params }) as Device;
  const stamped = { stamp: { sec: 1, nanosec: 0 }, frame_id: 'sensor' };
  const scan = rangeSensorParams(1081, 1);
  const planar = { ...scan, pitch_range: 0, num_pitch_samples: 1, min_pitch_angle: 0, max_pitch_angle: 0, pitch_step: 0 };
  const vector = { x: 0.01, y: -0.02, z: 0.981 };
  const covariance = new Array<number>(9).fill(0);

  return [
    relayed(
      'rgb8 640×480 image relay (Image → Image + CameraInfo)',
      device('Camera', { ...cameraParams(640, 480), image_type: 'COLOR_IMAGE', format: 'COLOR' }),
      MessageType.Image,
      writeImage(upstreamImage(640, 480)),
    ),
    relayed(
      'COLOR_DEPTH RangeCamera cloud 640×480 relay (PointCloud2 → PointCloud2 + depth Image + CameraInfo)',
      device('RangeCamera', { ...rangeCameraParams(640, 480), image_type: 'COLOR_IMAGE', format: 'COLOR_DEPTH' }),
      MessageType.PointCloud2,
      writePointCloud2(upstreamCloud(640, 480)),
    ),
    relayed(
      'planar scan 1081 beams relay (LaserScan → LaserScan)',
      device('RangeSensor', planar),
      MessageType.LaserScan,
      writeLaserScan({
        header: stamped,
        angle_min: planar.min_yaw_angle,
        angle_max: planar.max_yaw_angle,
        angle_increment: planar.yaw_step,
        time_increment: 0,
        scan_time: 0.1,
        range_min: planar.min_distance,
        range_max: planar.max_distance,
        ranges: scanFrame(1081),
        intensities: [],
      }),
    ),
    relayed(
      'Imu relay (Imu → Imu)',
      device('Imu', { on: true }),
      MessageType.Imu,
      writeImu({
        header: stamped,
        orientation: { x: 0, y: 0, z: 0, w: 1 },
        orientation_covariance: covariance,
        angular_velocity: vector,
        angular_velocity_covariance: covariance,
        linear_acceleration: vector,
        linear_acceleration_covariance: covariance,
      }),
    ),
    relayed(
      'ForceSensor relay (WrenchStamped → WrenchStamped)',
      device('ForceSensor', { on: true }),
      MessageType.WrenchStamped,
      writeWrenchStamped({ header: stamped, wrench: { force: vector, torque: vector } }),
    ),
  ];
}
