// The sensor conversions the node performs, set up on synthetic frames of the sizes the issue names.
// Frames carry realistic content (a tilted plane with a few invalid pixels / no-return beams) so
// that both the valid and the invalid branch of every conversion run.
import type { CameraParams, RangeSensorParams } from '../src/model/types.js';
import type { Header } from '../src/ros/messages.js';
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

  return [depth(640, 480), depth(1280, 720), rangeScan(64, 2048)];
}
