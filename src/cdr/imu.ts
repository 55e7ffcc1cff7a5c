// sensor_msgs/Imu.
import type { CdrReader } from '@foxglove/cdr';
import type { Imu, Vector3 } from '../messages/messages.js';
import { type CdrOut, cdrReader, f64, f64Fixed, fixed, header, readHeader, serialize } from './core.js';

const TYPE = 'sensor_msgs/Imu';

const vector = (r: CdrReader): Vector3 => ({ x: r.float64(), y: r.float64(), z: r.float64() });

/** The header and the two measured vectors (what choreonoid_ros fills; orientation and covariances are skipped). */
export function readImu(bytes: Uint8Array): Pick<Imu, 'header' | 'angular_velocity' | 'linear_acceleration'> {
  const r = cdrReader(bytes, TYPE);
  const head = readHeader(r, TYPE);
  return fixed(r, TYPE, () => {
    for (let i = 0; i < 4 + 9; i++) r.float64(); // orientation, orientation_covariance
    const angular_velocity = vector(r);
    for (let i = 0; i < 9; i++) r.float64();
    const linear_acceleration = vector(r);
    return { header: head, angular_velocity, linear_acceleration };
  });
}

export function writeImu(m: Imu): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    const { orientation: q, angular_velocity: w, linear_acceleration: a } = m;
    f64(o, q.x);
    f64(o, q.y);
    f64(o, q.z);
    f64(o, q.w);
    f64Fixed(o, m.orientation_covariance, 9);
    f64(o, w.x);
    f64(o, w.y);
    f64(o, w.z);
    f64Fixed(o, m.angular_velocity_covariance, 9);
    f64(o, a.x);
    f64(o, a.y);
    f64(o, a.z);
    f64Fixed(o, m.linear_acceleration_covariance, 9);
  });
}
