// What choreonoid_ros publishes for a body, read from its source (choreonoid/choreonoid_ros,
// src/plugin/BodyROS2Item.cpp, master at 3716c75). The relay subscribes to these and republishes
// standard messages; everything here is evidence-backed so the relay can undo it.
import type { Device, RobotModel } from '../model/types.js';

/**
 * BodyROS2Item::initializeRosNode names its node after the BodyItem (Choreonoid's default item name
 * is the body's name) with '-' replaced by '_', and getROS2Name gives every device topic as
 * `<node's fully qualified name>/<device name>`, again with '-' → '_'. So by default the input
 * namespace is `/<body name>`.
 */
export function defaultInputNamespace(bodyName: string): string {
  return `/${bodyName}`.replace(/-/g, '_');
}

/** Where choreonoid_ros publishes a device's data, given the device's base topic `<ns>/<device name>`. */
export interface UpstreamTopics {
  /** sensor_msgs/Image via image_transport (raw transport: the base name itself); every Camera and RangeCamera. */
  image: string;
  /** PointCloud2: `<base>/point_cloud` for RangeCameras and RangeSensors with pitch_range > 0. */
  pointCloud: string;
  /** LaserScan: `<base>/scan` for RangeSensors with pitch_range = 0. */
  scan: string;
  /** Imu (RateGyroSensor, AccelerationSensor, Imu) and WrenchStamped (ForceSensor): the base name. */
  data: string;
}

export function upstreamBase(namespace: string, device: Device): string | null {
  if (device.name === '') return null;
  const ns = namespace.endsWith('/') ? namespace.slice(0, -1) : namespace;
  return `${ns}/${device.name}`.replace(/-/g, '_');
}

export function upstreamTopics(base: string): UpstreamTopics {
  return { image: base, pointCloud: `${base}/point_cloud`, scan: `${base}/scan`, data: base };
}

/**
 * Factors choreonoid_ros multiplies SI values by before publishing (upstream = SI × factor):
 * - force and torque: BodyROS2Item::updateForceSensor writes `sensor->F()[i] / 1000.0` (kN, kN·m);
 * - linear acceleration: updateAccelSensor and updateImu write `sensor->dv()[i] / 10.0`;
 * - angular velocity: updateRateGyroSensor and updateImu copy `sensor->w()` unchanged (rad/s).
 * Choreonoid's own values are SI (ForceSensor::F in N and N·m, AccelerationSensor::dv in m/s²).
 */
export const UPSTREAM_SCALE = {
  force: 1 / 1000,
  torque: 1 / 1000,
  linearAcceleration: 1 / 10,
  angularVelocity: 1,
} as const;

/**
 * Every topic choreonoid_ros may publish for the model's devices (absolute names): `inputNamespace` ('' = the
 * default, `/<body name>`) or a device's own input topic (by device name) as the relay reads them.
 */
export function upstreamTopicNames(model: RobotModel, inputNamespace: string, inputTopics: Readonly<Record<string, string>> = {}): Set<string> {
  const namespace = inputNamespace !== '' ? inputNamespace : model.name !== '' ? defaultInputNamespace(model.name) : '';
  const out = new Set<string>();
  for (const d of model.devices) {
    const base = (d.name !== '' ? inputTopics[d.name] : undefined) ?? (namespace !== '' ? upstreamBase(namespace, d) : null);
    if (base === null) continue;
    const t = upstreamTopics(base);
    for (const name of [t.image, t.pointCloud, t.scan, t.data]) out.add(name);
  }
  return out;
}
