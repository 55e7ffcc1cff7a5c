// RangeSensor data in the scan frame (x along yaw 0, z up the yaw axis; see frames.ts). Choreonoid
// gives sample i the angles of RangeSensor::getSphericalAngle (choreonoid src/Body/RangeSensor.h):
// yaw = min_yaw_angle + (i mod n_yaw)·yaw_step, pitch = min_pitch_angle + ⌊i / n_yaw⌋·pitch_step, with
// yaw counter-clockwise about the sensor's up axis. In the scan frame that direction is
// (cos p·cos y, cos p·sin y, sin p), so LaserScan angles are Choreonoid's yaw angles unchanged.
import type { Header, LaserScan, PointCloud2 } from '../messages/messages.js';
import type { RangeSensorParams } from '../model/types.js';
import { HOST_IS_BIG_ENDIAN, uninitializedBuffer, XYZ_FIELDS } from './pointcloud.js';

/**
 * A planar scan → LaserScan. The first range is Choreonoid's first sample (the right end at
 * min_yaw_angle), angles grow counter-clockwise by yaw_step, and an asymmetric yaw range keeps its
 * asymmetry: angle_max is the last sample's angle, min_yaw_angle + (n − 1)·yaw_step, which can fall
 * short of max_yaw_angle when yaw_step does not divide the range (Choreonoid then takes
 * ⌊range/step⌋ + 1 samples). Out-of-range returns stay as given (+Inf: no return, REP 117).
 */
export function laserScan(p: RangeSensorParams, ranges: ArrayLike<number>, header: Header): LaserScan {
  const n = ranges.length;
  const out = new Float32Array(n);
  if (ranges instanceof Float32Array || ranges instanceof Float64Array || Array.isArray(ranges)) out.set(ranges);
  else for (let i = 0; i < n; i++) out[i] = ranges[i]!;
  const scanTime = p.scan_rate > 0 ? 1 / p.scan_rate : 0;
  return {
    header,
    angle_min: p.min_yaw_angle,
    angle_max: p.min_yaw_angle + Math.max(0, n - 1) * p.yaw_step,
    angle_increment: p.yaw_step,
    // Choreonoid renders a whole scan at one instant.
    time_increment: 0,
    scan_time: scanTime,
    range_min: p.min_distance,
    range_max: p.max_distance,
    ranges: out,
    intensities: new Float32Array(0),
  };
}

interface YawTable {
  minYaw: number;
  step: number;
  cos: Float64Array;
  sin: Float64Array;
}

/**
 * The cosines and sines of a sensor's yaw angles, computed once per scan geometry rather than once per
 * scan (2 × num_yaw_samples trigonometric calls were a tenth of a 64×2048 conversion). A few geometries
 * are remembered, matched on the values themselves, so a changed parameter can never meet a stale table.
 */
const yawTables: YawTable[] = [];
const MAX_YAW_TABLES = 8;

function yawTable(minYaw: number, step: number, n: number): YawTable {
  for (const t of yawTables) if (Object.is(t.minYaw, minYaw) && Object.is(t.step, step) && t.cos.length === n) return t;
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const yaw = minYaw + i * step;
    cos[i] = Math.cos(yaw);
    sin[i] = Math.sin(yaw);
  }
  const table = { minYaw, step, cos, sin };
  if (yawTables.length >= MAX_YAW_TABLES) yawTables.shift();
  yawTables.push(table);
  return table;
}

/**
 * A full RangeSensor sample array (yaw fastest, then pitch) → an organized cloud in the scan frame,
 * num_pitch_samples rows of num_yaw_samples points. Samples without a return (+Inf, Choreonoid's no-return value, or
 * anything beyond max_distance, which choreonoid_ros also drops) are NaN points.
 */
export function rangeScanToPointCloud(p: RangeSensorParams, ranges: ArrayLike<number>, header: Header): PointCloud2 {
  const nYaw = Math.max(1, p.num_yaw_samples);
  const nPitch = Math.max(1, p.num_pitch_samples);
  if (ranges.length !== nYaw * nPitch) {
    throw new RangeError(`range sensor has ${nYaw}×${nPitch} samples, got ${ranges.length}`);
  }
  const { cos: cy, sin: sy } = yawTable(p.min_yaw_angle, p.yaw_step, nYaw);
  // Every point is written below (xyz or NaN).
  const buffer = uninitializedBuffer(nYaw * nPitch * 12);
  const out = new Float32Array(buffer);
  const max = p.max_distance;
  let dense = true;
  let i = 0;
  let o = 0;
  for (let j = 0; j < nPitch; j++) {
    const pitch = p.min_pitch_angle + j * p.pitch_step;
    const cp = Math.cos(pitch);
    const sp = Math.sin(pitch);
    for (let k = 0; k < nYaw; k++, i++, o += 3) {
      const r = ranges[i]!;
      if (r >= 0 && r <= max) {
        const rc = r * cp;
        out[o] = rc * cy[k]!;
        out[o + 1] = rc * sy[k]!;
        out[o + 2] = r * sp;
      } else {
        out[o] = out[o + 1] = out[o + 2] = NaN;
        dense = false;
      }
    }
  }
  return {
    header,
    height: nPitch,
    width: nYaw,
    fields: XYZ_FIELDS.map((f) => ({ ...f })),
    is_bigendian: HOST_IS_BIG_ENDIAN,
    point_step: 12,
    row_step: 12 * nYaw,
    data: new Uint8Array(buffer),
    is_dense: dense,
  };
}
