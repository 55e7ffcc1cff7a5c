// Imu and WrenchStamped messages of Choreonoid's inertial and force devices, in the device frame
// (Choreonoid's RateGyroSensor::w, AccelerationSensor::dv and ForceSensor::F are all expressed in
// the sensor's own frame).
import type { Header, Imu, Vector3, WrenchStamped } from '../messages/messages.js';

export type ImuDeviceType = 'Imu' | 'AccelerationSensor' | 'RateGyroSensor';

const UNKNOWN_COVARIANCE = (): number[] => [0, 0, 0, 0, 0, 0, 0, 0, 0];
/** sensor_msgs/Imu: "If you have no estimate for one of the data elements … set element 0 of the associated covariance matrix to -1". */
const NOT_MEASURED = (): number[] => [-1, 0, 0, 0, 0, 0, 0, 0, 0];

export const measuresAngularVelocity = (t: ImuDeviceType): boolean => t !== 'AccelerationSensor';
export const measuresLinearAcceleration = (t: ImuDeviceType): boolean => t !== 'RateGyroSensor';

/**
 * sensor_msgs/Imu of one device. No Choreonoid device estimates orientation, so orientation is the
 * identity quaternion marked unmeasured; angular velocity (rad/s) and linear acceleration (m/s²)
 * are filled when the device measures them and marked unmeasured otherwise. Covariances of measured
 * fields are all zero, which the message defines as "unknown".
 */
export function imuMessage(type: ImuDeviceType, header: Header, angularVelocity: Vector3, linearAcceleration: Vector3): Imu {
  const gyro = measuresAngularVelocity(type);
  const accel = measuresLinearAcceleration(type);
  return {
    header,
    orientation: { x: 0, y: 0, z: 0, w: 1 },
    orientation_covariance: NOT_MEASURED(),
    angular_velocity: gyro ? { ...angularVelocity } : { x: 0, y: 0, z: 0 },
    angular_velocity_covariance: gyro ? UNKNOWN_COVARIANCE() : NOT_MEASURED(),
    linear_acceleration: accel ? { ...linearAcceleration } : { x: 0, y: 0, z: 0 },
    linear_acceleration_covariance: accel ? UNKNOWN_COVARIANCE() : NOT_MEASURED(),
  };
}

/** geometry_msgs/WrenchStamped: force (N) and torque (N·m) at the sensor origin, sensor axes. */
export function wrenchMessage(header: Header, force: Vector3, torque: Vector3): WrenchStamped {
  return { header, wrench: { force: { ...force }, torque: { ...torque } } };
}

export const scaleVector = (v: Vector3, s: number): Vector3 => ({ x: v.x * s, y: v.y * s, z: v.z * s });
