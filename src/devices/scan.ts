// RangeSensor data in the scan frame (x along yaw 0, z up the yaw axis; see kinematics/device-frames.ts). Choreonoid
// gives sample i the angles of RangeSensor::getSphericalAngle (choreonoid src/Body/RangeSensor.h):
// yaw = min_yaw_angle + (i mod n_yaw)·yaw_step, pitch = min_pitch_angle + ⌊i / n_yaw⌋·pitch_step, with
// yaw counter-clockwise about the sensor's up axis. In the scan frame that direction is
// (cos p·cos y, cos p·sin y, sin p), so LaserScan angles are Choreonoid's yaw angles unchanged.
import type { Header, LaserScan } from '../messages/messages.js';
import type { RangeSensorParams } from '../model/types.js';

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
