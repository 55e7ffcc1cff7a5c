// The sensor conversions the node performs, set up on synthetic frames of the sizes the issue names.
// Frames carry realistic content (a tilted plane with a few invalid pixels / no-return beams) so
// that both the valid and the invalid branch of every conversion run.
import { identityPose } from '../src/model/math.js';
import type { CameraParams, Device, RangeCameraParams, RangeSensorParams, RobotModel } from '../src/model/types.js';
import { type Header, type Image, MessageType, type PointCloud2 } from '../src/ros/messages.js';
import { chainModel } from './chain.js';
import type { Resolved } from './subjects.js';
import { reasonOf, unavailable } from './subjects.js';
import type { SensorWork } from './sensors.js';

const header = (frame: string): Header => ({ stamp: { sec: 1, nanosec: 0 }, frame_id: frame });

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
 * A RangeCamera cloud as BodyROS2Item::updateRangeVisionSensor fills it: organized width×height,
 * x/y/z FLOAT32 at 0/4/8 with count 4, point_step 12, row_step 0 (it is computed before
 * point_step is set), points with infinite coordinates where there is no measurement.
 */
function upstreamCloud(width: number, height: number): PointCloud2 {
  const depth = depthFrame(width, height);
  const f = Math.min(width, height) / 2 / Math.tan(0.5);
  const xyz = new Float32Array(width * height * 3);
  for (let v = 0, i = 0; v < height; v++) {
    for (let u = 0; u < width; u++, i++) {
      const z = depth[i]!;
      if (Number.isNaN(z)) xyz[3 * i] = xyz[3 * i + 1] = xyz[3 * i + 2] = Infinity;
      else {
        xyz[3 * i] = ((u - (width - 1) / 2) * z) / f;
        xyz[3 * i + 1] = ((v - (height - 1) / 2) * z) / f;
        xyz[3 * i + 2] = z;
      }
    }
  }
  const field = (name: string, offset: number) => ({ name, offset, datatype: 7, count: 4 });
  return {
    header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'depth_camera' },
    height,
    width,
    fields: [field('x', 0), field('y', 4), field('z', 8)],
    is_bigendian: false,
    point_step: 12,
    row_step: 0,
    data: new Uint8Array(xyz.buffer),
    is_dense: true,
  };
}

export interface NamedWork {
  name: string;
  work: Resolved<SensorWork>;
}

export async function sensorWorks(): Promise<NamedWork[]> {
  let pc: typeof import('../src/devices/pointcloud.js') | undefined;
  let cam: typeof import('../src/devices/camera-info.js') | undefined;
  let scan: typeof import('../src/devices/scan.js') | undefined;
  const failures: string[] = [];
  try {
    pc = await import('../src/devices/pointcloud.js');
    cam = await import('../src/devices/camera-info.js');
    scan = await import('../src/devices/scan.js');
  } catch (error) {
    failures.push(`src/devices: ${reasonOf(error)}`);
  }

  const depth = (w: number, h: number): NamedWork => {
    const name = `depth ${w}×${h} 32FC1 → PointCloud2`;
    if (!pc || !cam) return { name, work: unavailable(failures[0] ?? 'src/devices missing') };
    const k = cam.cameraIntrinsics(cameraParams(w, h));
    if (!k) return { name, work: unavailable('cameraIntrinsics returned null for a pinhole camera') };
    const frame = depthFrame(w, h);
    const toCloud = pc.depthToPointCloud;
    return {
      name,
      work: {
        ok: true,
        value: { name, inputBytes: frame.byteLength, run: () => toCloud(frame, k, header('camera_optical_frame')).data.byteLength },
      },
    };
  };

  const rangeScan = (pitch: number, yaw: number): NamedWork => {
    const name = `range scan ${pitch}×${yaw} → PointCloud2`;
    if (!scan) return { name, work: unavailable(failures[0] ?? 'src/devices missing') };
    const p = rangeSensorParams(yaw, pitch);
    const ranges = scanFrame(yaw * pitch);
    const toCloud = scan.rangeScanToPointCloud;
    return {
      name,
      work: {
        ok: true,
        value: { name, inputBytes: ranges.byteLength, run: () => toCloud(p, ranges, header('lidar_scan_frame')).data.byteLength },
      },
    };
  };

  let relay: { bridge: typeof import('../src/devices/bridge.js'); frames: typeof import('../src/devices/frames.js'); mem: typeof import('../src/ros/memory-transport.js') } | undefined;
  try {
    relay = {
      bridge: await import('../src/devices/bridge.js'),
      frames: await import('../src/devices/frames.js'),
      mem: await import('../src/ros/memory-transport.js'),
    };
  } catch (error) {
    failures.push(`device relay: ${reasonOf(error)}`);
  }

  /**
   * One message injected where choreonoid_ros publishes, through the device relay on the in-memory
   * transport; the output size is the payload of every Image / PointCloud2 the relay publishes.
   */
  const relayed = (name: string, device: Device, inputType: string, message: Image | PointCloud2): NamedWork => {
    if (!relay) return { name, work: unavailable(failures[failures.length - 1] ?? 'device relay missing') };
    const model = bodyWith(device);
    const transport = relay.mem.createMemoryTransport();
    relay.bridge.startDeviceBridge({
      model,
      frames: relay.frames.deviceFrames(model),
      transport,
      framePrefix: '',
      params: relay.bridge.defaultDeviceBridgeParams,
    });
    const input = transport.topics().find((t) => t.direction === 'subscribe' && t.type === inputType);
    if (!input) return { name, work: unavailable(`the device relay subscribes to no ${inputType} for a ${device.type}`) };
    const run = (): number => {
      transport.clear();
      transport.inject(input.topic, message);
      let bytes = 0;
      for (const p of transport.published) {
        const data = (p.message as { data?: unknown }).data;
        if (data instanceof Uint8Array) bytes += data.byteLength;
      }
      if (bytes === 0) throw new Error(`the device relay published no data for ${input.topic}: ${transport.logs.map((l) => l.message).join('; ')}`);
      return bytes;
    };
    return { name, work: { ok: true, value: { name, inputBytes: message.data.byteLength, run } } };
  };

  const camera: Device = {
    type: 'Camera',
    name: 'camera',
    id: 0,
    link: 'base',
    pose: identityPose(),
    params: { ...cameraParams(1280, 720), image_type: 'COLOR_IMAGE', format: 'COLOR' },
  };
  const rangeCamera: Device = {
    type: 'RangeCamera',
    name: 'depth_camera',
    id: 1,
    link: 'base',
    pose: identityPose(),
    params: rangeCameraParams(640, 480),
  };

  return [
    depth(640, 480),
    depth(1280, 720),
    relayed('rgb8 1280×720 image relay (choreonoid_ros Image → Image + CameraInfo)', camera, MessageType.Image, upstreamImage(1280, 720)),
    rangeScan(64, 2048),
    relayed(
      'choreonoid_ros RangeCamera cloud 640×480 → PointCloud2 + depth Image + CameraInfo',
      rangeCamera,
      MessageType.PointCloud2,
      upstreamCloud(640, 480),
    ),
  ];
}
