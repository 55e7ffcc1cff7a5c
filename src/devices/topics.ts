// Which standard topics each device gets, with message types and the frame their data is expressed
// in. One table shared by the bridge (what it advertises), `body-bridge info --json` and the docs,
// so the names a user sees listed are the names the node publishes.
import { MessageType, type MessageTypeName } from '../messages/messages.js';
import type { Device, DeviceType, RangeSensorParams, RobotModel } from '../model/types.js';
import type { DeviceFrames } from '../kinematics/device-frames.js';
import { uniqueNamer } from '../model/unique-name.js';

/** What a topic carries, independent of its name. */
export type TopicRole =
  | 'image'
  | 'camera_info'
  | 'depth_image'
  | 'depth_camera_info'
  | 'points'
  | 'scan'
  | 'imu'
  | 'wrench';

export interface DeviceTopic {
  role: TopicRole;
  /** Relative topic name, so the node's namespace and remapping apply. */
  name: string;
  type: MessageTypeName;
  /** The frame_id of its messages, without the node's frame_prefix. */
  frame: string;
}

export interface DeviceTopicSet {
  /** Index into model.devices (and into deviceFrames()). */
  device: number;
  type: DeviceType;
  /** The device frame name the topic names are derived from. */
  frame: string;
  /** First segment of every topic name: the device frame made a valid ROS name token. */
  base: string;
  topics: DeviceTopic[];
}

/**
 * A RangeSensor whose pitch range is zero scans one plane about its yaw axis, which LaserScan can
 * carry. One that also (or only) scans in pitch is published as a point cloud: a pitch-only line
 * does not lie in the scan frame's xy plane.
 */
export const isPlanarScan = (p: RangeSensorParams): boolean => p.num_pitch_samples <= 1 && p.pitch_range === 0;

/**
 * Turns a frame name into one ROS 2 name token: only [A-Za-z0-9_], not starting with a digit.
 * Choreonoid names such as `VLP-16` are valid TF frame ids but not valid topic names
 * (choreonoid_ros's getROS2Name makes the same '-' → '_' replacement).
 */
export function topicToken(name: string): string {
  const token = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (token === '') return 'device';
  return /^[0-9]/.test(token) ? `_${token}` : token;
}

function topicsFor(d: Device, f: DeviceFrames, base: string): DeviceTopic[] {
  const t = (role: TopicRole, suffix: string, type: MessageTypeName, frame: string): DeviceTopic => ({
    role,
    name: `${base}/${suffix}`,
    type,
    frame,
  });
  const optical = f.optical?.frame ?? f.frame;
  switch (d.type) {
    case 'Camera':
      if (d.params.image_type === 'NO_IMAGE') return [];
      return [t('image', 'image_raw', MessageType.Image, optical), t('camera_info', 'camera_info', MessageType.CameraInfo, optical)];
    case 'RangeCamera': {
      const depth = [
        t('depth_image', 'depth/image_raw', MessageType.Image, optical),
        t('depth_camera_info', 'depth/camera_info', MessageType.CameraInfo, optical),
        t('points', 'points', MessageType.PointCloud2, optical),
      ];
      // An unorganized cloud's camera sends no picture: Choreonoid fills its image with the colours of the valid
      // points, one row of them (GLRangeCameraSimulator::doStoreScreenImage); the colours ride in the cloud.
      if (d.params.image_type === 'NO_IMAGE' || !d.params.is_organized) return depth;
      return [t('image', 'image_raw', MessageType.Image, optical), t('camera_info', 'camera_info', MessageType.CameraInfo, optical), ...depth];
    }
    case 'RangeSensor': {
      const scan = f.scan?.frame ?? f.frame;
      return isPlanarScan(d.params)
        ? [t('scan', 'scan', MessageType.LaserScan, scan)]
        : [t('points', 'points', MessageType.PointCloud2, scan)];
    }
    case 'Imu':
    case 'AccelerationSensor':
    case 'RateGyroSensor':
      return [t('imu', 'imu', MessageType.Imu, f.frame)];
    case 'ForceSensor':
      return [t('wrench', 'wrench', MessageType.WrenchStamped, f.frame)];
    default:
      // Lights and data-less devices (HolderDevice, MarkerDevice, ...) have frames but no topics.
      return [];
  }
}

/** `name` resolved as rcl resolves a relative topic of a node in `namespace` (no private `~` names here). */
export function resolveTopic(name: string, namespace: string): string {
  if (name.startsWith('/')) return name;
  const ns = namespace === '' || namespace === '/' ? '' : `/${namespace.replace(/^\/+|\/+$/g, '')}`;
  return `${ns}/${name}`;
}

/** The suffix a relayed topic takes where its standard name is choreonoid_ros's own topic (see deviceTopics). */
export const RELAYED_SUFFIX = '_relayed';

/** Where the relay's topics go: the node's namespace, and the topics choreonoid_ros publishes, which they must not take. */
export interface RelayedNames {
  namespace: string;
  /** Absolute names of choreonoid_ros's topics (upstreamTopicNames). */
  upstream: ReadonlySet<string>;
}

/**
 * The topics of every device that produces sensor data, in model order. Topic bases are unique:
 * two frames that sanitise to the same token (`a-b`, `a_b`) get `_2`, `_3`, … like frame names do.
 *
 * With `names`: a node in choreonoid_ros's own namespace (a project's body, served where its BodyROS2Item
 * publishes) would relay a planar scan onto `<ns>/<device>/scan`, which is choreonoid_ros's scan itself — two
 * publishers of different frames on one topic, and a relay hearing its own output. Such a topic takes
 * RELAYED_SUFFIX (`<device>/scan_relayed`); no other standard name meets one of choreonoid_ros's.
 */
export function deviceTopics(model: RobotModel, frames: readonly DeviceFrames[], names?: RelayedNames): DeviceTopicSet[] {
  const baseName = uniqueNamer();
  const out: DeviceTopicSet[] = [];
  const free = (t: DeviceTopic): DeviceTopic =>
    names && names.upstream.has(resolveTopic(t.name, names.namespace)) ? { ...t, name: `${t.name}${RELAYED_SUFFIX}` } : t;
  for (const f of frames) {
    const d = model.devices[f.device];
    if (!d) continue;
    const topics = (b: string) => topicsFor(d, f, b);
    if (topics(topicToken(f.frame)).length === 0) continue;
    const base = baseName(topicToken(f.frame));
    out.push({ device: f.device, type: d.type, frame: f.frame, base, topics: topics(base).map(free) });
  }
  return out;
}

/** `prefix + frame`, as every frame_id the node writes (the frame_prefix parameter, e.g. `robot1/`). */
export const prefixed = (framePrefix: string, frame: string): string => `${framePrefix}${frame}`;
