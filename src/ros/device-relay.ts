// The relay from choreonoid_ros to standard sensor topics. choreonoid_ros's BodyROS2Item publishes
// each device under `/<body>/<device>` with frame_id = the bare device name, its own coordinate and
// unit conventions (see upstream.ts); this turns every message into what a ROS perception stack
// expects: frame_ids that exist in our TF tree (with frame_prefix), CameraInfo next to every image,
// a depth image and standard-layout clouds for range cameras, LaserScan in the scan frame, SI units.
import { Buffer } from 'node:buffer';
import { writeCameraInfo } from '../cdr/camera-info.js';
import { utf8 } from '../cdr/core.js';
import { frameIdSplicer, writeStamp } from '../cdr/header-splice.js';
import { readImage, writeImage } from '../cdr/image.js';
import { readImu, writeImu } from '../cdr/imu.js';
import { readLaserScan, writeLaserScan } from '../cdr/laser-scan.js';
import { readPointCloud2, writePointCloud2 } from '../cdr/point-cloud2.js';
import { readWrenchStamped, writeWrenchStamped } from '../cdr/wrench-stamped.js';
import { transpose } from '../model/math.js';
import type { CameraParams, Device, RangeCameraParams, RangeSensorParams, RobotModel } from '../model/types.js';
import { type Header, type Image, MessageType, type Time } from '../messages/messages.js';
import { standaloneTimer } from './standalone-timer.js';
import { type RawPublisher, sensorDataQoS, type Transport } from './transport.js';
import { cameraInfo, cameraIntrinsics, type Intrinsics, renderedImageSize } from '../devices/camera-info.js';
import type { DeviceFrames } from '../kinematics/device-frames.js';
import { type ImuDeviceType, imuMessage, scaleVector, wrenchMessage } from '../devices/inertial.js';
import { cloudLayout, depthImage, pointCloud, rangeCameraFromCloud, rangeCameraShape, rotateCloud, uninitializedBuffer } from '../devices/pointcloud.js';
import { laserScan } from '../devices/scan.js';
import { type DeviceTopicSet, deviceTopics, isPlanarScan, prefixed, RELAYED_SUFFIX, type TopicRole } from '../devices/topics.js';
import { defaultInputNamespace, UPSTREAM_SCALE, upstreamBase, upstreamTopicNames, upstreamTopics } from '../devices/upstream.js';

export interface RelayParams {
  /**
   * Namespace choreonoid_ros publishes the body's devices under (its BodyROS2Item node's name).
   * Empty: `/<body name>` with '-' → '_', which is what BodyROS2Item uses for a BodyItem that keeps
   * its default name.
   */
  inputNamespace: string;
  /**
   * Per-device input base topic, by device name (or device frame name, which is how a nameless
   * device is reached): replaces `<inputNamespace>/<device>`; the `/point_cloud` and `/scan`
   * subtopics are appended to it as choreonoid_ros does.
   */
  inputTopics: Record<string, string>;
  /**
   * Multiply choreonoid_ros's force/torque by 1000 and its linear acceleration by 10, undoing the
   * non-SI scaling of BodyROS2Item::updateForceSensor / updateAccelSensor / updateImu. Turn off
   * when the upstream publisher is already SI (a fixed choreonoid_ros, or another source).
   */
  undoUpstreamScaling: boolean;
  /** Publish CameraInfo on its own, at the camera's frame rate, while no image arrives (rviz frustums). */
  cameraInfoWithoutImages: boolean;
}

export const defaultRelayParams: RelayParams = {
  inputNamespace: '',
  inputTopics: {},
  undoUpstreamScaling: true,
  cameraInfoWithoutImages: true,
};

export interface RelayContext {
  model: RobotModel;
  frames: DeviceFrames[];
  transport: Transport;
  framePrefix: string;
  params: RelayParams;
}

/** Encodings choreonoid_ros writes (rgb8 / mono8 by channel count) plus other plain 8-bit ones. */
const BYTES_PER_PIXEL: Record<string, number> = { rgb8: 3, bgr8: 3, mono8: 1, rgba8: 4, bgra8: 4 };

/** Every device message crosses the transport as CDR bytes: read and written by src/cdr. */
type Publishers = Partial<Record<TopicRole, RawPublisher>>;

interface Relay {
  transport: Transport;
  framePrefix: string;
  params: RelayParams;
  stops: (() => void)[];
  /** Warns once per key, so a stream of bad messages does not flood the log. */
  warnOnce: (key: string, message: string) => void;
}

const header = (stamp: Time, frameId: string): Header => ({ stamp: { sec: stamp.sec, nanosec: stamp.nanosec }, frame_id: frameId });

/** Subscribes to `topic`'s CDR bytes, read by `read`; a message that does not read is dropped with a warning. */
function subscribe<T>(
  relay: Relay,
  topic: string,
  type: Parameters<Transport['subscribe']>[1],
  label: string,
  read: (bytes: Uint8Array) => T,
  handle: (m: T, bytes: Uint8Array) => void,
): void {
  const onBytes = (bytes: Uint8Array): void => {
    // A malformed message from outside must never take the node down.
    try {
      handle(read(bytes), bytes);
    } catch (e) {
      relay.warnOnce(`${label}:exception`, `${label}: dropped a message from ${topic}: ${(e as Error).message}`);
    }
  };
  try {
    relay.stops.push(relay.transport.subscribeRaw(topic, type, sensorDataQoS, onBytes));
  } catch (e) {
    // An input name ROS rejects (a device name with spaces, a bad inputNamespace) loses that
    // device's data, not the node.
    relay.transport.log.warn(`${label}: cannot subscribe to ${topic}: ${(e as Error).message}`);
  }
}

/** Checks an incoming image; returns why it is unusable, or null. */
function imageProblem(m: Image): string | null {
  if (!(m.width > 0 && m.height > 0)) return `empty image (${m.width}×${m.height})`;
  const bpp = BYTES_PER_PIXEL[m.encoding];
  if (bpp === undefined) return `unsupported encoding "${m.encoding}"`;
  if (m.step < m.width * bpp) return `step ${m.step} < width ${m.width} × ${bpp}`;
  if (m.data.length !== m.step * m.height) return `data length ${m.data.length} ≠ step ${m.step} × height ${m.height}`;
  return null;
}

/**
 * CameraInfo for a camera and a timer that publishes it on its own while no image comes. The
 * returned function is called with every image's stamp and publishes the CameraInfo with it.
 */
function cameraInfoStream(
  relay: Relay,
  params: CameraParams,
  frameId: string,
  publisher: RawPublisher,
): (stamp: Time) => void {
  // Everything but the stamp is the camera's: serialized once, the stamp written in place for each message.
  const bytes = writeCameraInfo(cameraInfo(params, header({ sec: 0, nanosec: 0 }, frameId)));
  const publish = (stamp: Time): void => {
    writeStamp(bytes, stamp);
    publisher.publish(bytes);
  };
  // Standalone CameraInfo exists so rviz can draw the frustum; a non-pinhole (fisheye) camera's
  // CameraInfo is "uncalibrated" and draws nothing, so it only goes out with images.
  const rate = params.frame_rate;
  if (!(relay.params.cameraInfoWithoutImages && rate > 0 && Number.isFinite(rate) && cameraIntrinsics(params) !== null)) return publish;
  // At most 1 kHz, whatever frame_rate a file declares.
  const alone = standaloneTimer((ms, tick) => relay.transport.timer(ms, tick), Math.max(1, 1000 / rate), () => publish(relay.transport.now()));
  relay.stops.push(alone.stop);
  return (stamp) => {
    alone.streamed();
    publish(stamp);
  };
}

function relayImage(
  relay: Relay,
  params: CameraParams,
  label: string,
  topic: string,
  frameId: string,
  image: RawPublisher,
  info: (stamp: Time) => void,
): void {
  const splice = frameIdSplicer(utf8(frameId));
  const size = renderedImageSize(params);
  subscribe(relay, topic, MessageType.Image, label, readImage, (m, bytes) => {
    // The size check drops an image of the wrong size (a producer that disagrees with the model).
    const problem = imageProblem(m) ?? (m.width !== size.width || m.height !== size.height ? `size ${m.width}×${m.height}, the camera sends ${size.width}×${size.height}` : null);
    if (problem) {
      relay.warnOnce(`${label}:image`, `${label}: dropped an image from ${topic}: ${problem}`);
      return;
    }
    // The image goes out as it came but for its frame_id: the incoming bytes (the pixels viewed there, the
    // last field) copied once behind the new header.
    image.publish(splice(bytes, m.data.byteOffset - bytes.byteOffset + m.data.byteLength));
    info(m.header.stamp);
  });
}

function startCamera(relay: Relay, d: Extract<Device, { type: 'Camera' }>, set: DeviceTopicSet, pubs: Publishers, input: string | null): void {
  const frameId = prefixed(relay.framePrefix, set.topics[0]!.frame);
  const info = cameraInfoStream(relay, d.params, frameId, pubs.camera_info!);
  if (input) relayImage(relay, d.params, set.frame, upstreamTopics(input).image, frameId, pubs.image!, info);
}

function startRangeCamera(relay: Relay, d: Extract<Device, { type: 'RangeCamera' }>, set: DeviceTopicSet, pubs: Publishers, input: string | null): void {
  const p: RangeCameraParams = d.params;
  const frameId = prefixed(relay.framePrefix, set.topics.find((t) => t.role === 'points')!.frame);
  // The picture topics are there only for an organized colour camera (devices/topics.ts): an unorganized one
  // sends one row of point colours, which ride in the cloud's rgb instead.
  const color = set.topics.some((t) => t.role === 'image');
  const depthInfo = cameraInfoStream(relay, p, frameId, pubs.depth_camera_info!);
  if (color) {
    const info = cameraInfoStream(relay, p, frameId, pubs.camera_info!);
    if (input) relayImage(relay, d.params, set.frame, upstreamTopics(input).image, frameId, pubs.image!, info);
  }
  const k = cameraIntrinsics(p);
  if (!input || !k) return;
  const topic = upstreamTopics(input).pointCloud;
  const pointsPub = pubs.points!;
  const depthPub = pubs.depth_image!;
  let out: RangeOutput | null = null;
  subscribe(relay, topic, MessageType.PointCloud2, set.frame, readPointCloud2, (m) => {
    const layout = cloudLayout(m);
    if (typeof layout === 'string') {
      relay.warnOnce(`${set.frame}:cloud`, `${set.frame}: dropped a cloud from ${topic}: ${layout}`);
      return;
    }
    // choreonoid_ros's range-camera points are already in our optical frame: GLRangeCameraSimulator
    // stores Ro·p (p in the GL render frame, device·Ro), and updateRangeVisionSensor applies Roᵀ
    // and then (x, −y, −z), i.e. coordinates in device·Ro·diag(1, −1, −1) — the optical frame.
    const shape = rangeCameraShape(layout, k, color);
    if (out === null || out.count !== layout.count || out.rgb !== shape.rgb) out = rangeOutput(layout.count, shape, k, frameId);
    const converted = rangeCameraFromCloud(m, layout, k, header(m.header.stamp, frameId), color, { points: out.pointsData, depth: out.depthData });
    // Sized by the same shape, so written in place; anything else would publish the previous frame's payload.
    if (converted.points.data !== out.pointsData || converted.depth !== out.depthData) throw new Error('the conversion did not write into the outgoing messages');
    writeStamp(out.points, m.header.stamp);
    out.points[out.points.byteLength - 1] = converted.points.is_dense ? 1 : 0;
    writeStamp(out.depth, m.header.stamp);
    pointsPub.publish(out.points);
    depthPub.publish(out.depth);
    depthInfo(m.header.stamp);
  });
}

/**
 * A range camera's outgoing cloud and depth image, serialized once for their shape: the conversion writes its
 * points and depths straight into the messages' payloads, and each frame then sets only the stamps and
 * is_dense. (Converting into buffers of its own and serializing them took two more passes over 6 MB a frame.)
 */
interface RangeOutput {
  count: number;
  rgb: boolean;
  /** The serialized PointCloud2, and its points (4-byte aligned, as the conversion's float views need). */
  points: Uint8Array;
  pointsData: Uint8Array;
  /** The serialized 32FC1 depth Image, and its pixels. */
  depth: Uint8Array;
  depthData: Float32Array;
}

/** A copy of `bytes` that starts an ArrayBuffer of its own, so the 4-aligned CDR fields in it are aligned in memory. */
function ownBuffer(bytes: Uint8Array): Buffer {
  const out = Buffer.from(uninitializedBuffer(bytes.byteLength));
  out.set(bytes);
  return out;
}

function rangeOutput(count: number, shape: ReturnType<typeof rangeCameraShape>, k: Intrinsics, frameId: string): RangeOutput {
  const h = header({ sec: 0, nanosec: 0 }, frameId);
  const pointBytes = count * (shape.rgb ? 16 : 12);
  // PointCloud2 ends with its data and is_dense (one byte); Image ends with its data.
  const points = ownBuffer(writePointCloud2(pointCloud(h, shape.width, shape.height, shape.rgb, new Uint8Array(pointBytes), true)));
  const depth = ownBuffer(writeImage(depthImage(new Float32Array(k.width * k.height), k.width, k.height, h)));
  const depthBytes = k.width * k.height * 4;
  return {
    count,
    rgb: shape.rgb,
    points,
    pointsData: points.subarray(points.byteLength - 1 - pointBytes, points.byteLength - 1),
    depth,
    depthData: new Float32Array(depth.buffer, depth.byteOffset + depth.byteLength - depthBytes, k.width * k.height),
  };
}

function startRangeSensor(relay: Relay, d: Extract<Device, { type: 'RangeSensor' }>, f: DeviceFrames, set: DeviceTopicSet, pubs: Publishers, input: string | null): void {
  if (!input) return;
  const p: RangeSensorParams = d.params;
  const frameId = prefixed(relay.framePrefix, set.topics[0]!.frame);
  const topics = upstreamTopics(input);
  if (isPlanarScan(p)) {
    subscribe(relay, topics.scan, MessageType.LaserScan, set.frame, readLaserScan, (m) => {
      const n = m.ranges.length;
      if (n !== p.num_yaw_samples) {
        relay.warnOnce(`${set.frame}:count`, `${set.frame}: ${topics.scan} has ${n} ranges, the model ${p.num_yaw_samples}; angles follow the model's yaw_step`);
      }
      // choreonoid_ros writes angle_min = −yaw_range/2 whatever min_yaw_angle is, and frame_id = the
      // device frame, whose xy plane is not the scan plane; the ranges themselves are in
      // Choreonoid's sample order, which laserScan() labels with the model's angles.
      pubs.scan!.publish(writeLaserScan(laserScan(p, m.ranges, header(m.header.stamp, frameId))));
    });
  } else {
    // update3DRangeSensor writes Ro·p with p in the GL render frame: device-frame coordinates.
    // Re-express them in the scan frame, whose rotation in the device frame is f.scan.rotation.
    const toScan = transpose(f.scan!.rotation);
    subscribe(relay, topics.pointCloud, MessageType.PointCloud2, set.frame, readPointCloud2, (m) => {
      const layout = cloudLayout(m);
      if (typeof layout === 'string') {
        relay.warnOnce(`${set.frame}:cloud`, `${set.frame}: dropped a cloud from ${topics.pointCloud}: ${layout}`);
        return;
      }
      pubs.points!.publish(writePointCloud2(rotateCloud(m, layout, toScan, header(m.header.stamp, frameId))));
    });
  }
}

function startImu(relay: Relay, type: ImuDeviceType, set: DeviceTopicSet, pubs: Publishers, input: string | null): void {
  if (!input) return;
  const frameId = prefixed(relay.framePrefix, set.topics[0]!.frame);
  const accelScale = relay.params.undoUpstreamScaling ? 1 / UPSTREAM_SCALE.linearAcceleration : 1;
  const gyroScale = relay.params.undoUpstreamScaling ? 1 / UPSTREAM_SCALE.angularVelocity : 1;
  subscribe(relay, upstreamTopics(input).data, MessageType.Imu, set.frame, readImu, (m) => {
    pubs.imu!.publish(
      writeImu(imuMessage(type, header(m.header.stamp, frameId), scaleVector(m.angular_velocity, gyroScale), scaleVector(m.linear_acceleration, accelScale))),
    );
  });
}

function startForceSensor(relay: Relay, set: DeviceTopicSet, pubs: Publishers, input: string | null): void {
  if (!input) return;
  const frameId = prefixed(relay.framePrefix, set.topics[0]!.frame);
  const forceScale = relay.params.undoUpstreamScaling ? 1 / UPSTREAM_SCALE.force : 1;
  const torqueScale = relay.params.undoUpstreamScaling ? 1 / UPSTREAM_SCALE.torque : 1;
  subscribe(relay, upstreamTopics(input).data, MessageType.WrenchStamped, set.frame, readWrenchStamped, (m) => {
    pubs.wrench!.publish(
      writeWrenchStamped(wrenchMessage(header(m.header.stamp, frameId), scaleVector(m.wrench.force, forceScale), scaleVector(m.wrench.torque, torqueScale))),
    );
  });
}

/**
 * Advertises every device topic of the model and relays choreonoid_ros's data onto them. Returns
 * the function that ends every subscription and timer (the node calls it before a reload).
 */
export function startDeviceRelay(ctx: RelayContext): () => void {
  const { model, frames, transport } = ctx;
  const params: RelayParams = { ...defaultRelayParams, ...ctx.params };
  const warned = new Set<string>();
  const relay: Relay = {
    transport,
    framePrefix: ctx.framePrefix,
    params,
    stops: [],
    warnOnce: (key, message) => {
      if (warned.has(key)) return;
      warned.add(key);
      transport.log.warn(message);
    },
  };
  const namespace = params.inputNamespace !== '' ? params.inputNamespace : model.name !== '' ? defaultInputNamespace(model.name) : '';
  const framesByDevice = new Map(frames.map((f) => [f.device, f]));
  const knownKeys = new Set([...model.devices.map((d) => d.name), ...frames.map((f) => f.frame)]);
  for (const name of Object.keys(params.inputTopics)) {
    if (!knownKeys.has(name)) transport.log.warn(`inputTopics: the model has no device named "${name}"`);
  }
  const upstream = upstreamTopicNames(model, params.inputNamespace, params.inputTopics);
  for (const set of deviceTopics(model, frames, { namespace: transport.namespace, upstream })) {
    for (const t of set.topics) {
      if (t.name.endsWith(RELAYED_SUFFIX)) transport.log.info(`${set.frame}: relayed on ${t.name}: its standard name is choreonoid_ros's own topic in this namespace`);
    }
    const d = model.devices[set.device]!;
    const f = framesByDevice.get(set.device)!;
    const pubs: Publishers = {};
    for (const t of set.topics) pubs[t.role] = transport.rawPublisher(t.name, t.type, sensorDataQoS);
    const override = (d.name !== '' ? params.inputTopics[d.name] : undefined) ?? params.inputTopics[set.frame];
    const input = override ?? (namespace !== '' ? upstreamBase(namespace, d) : null);
    if (input === null) {
      transport.log.warn(`${set.frame}: no input topic (nameless device or body); set inputTopics to relay its data`);
    }
    switch (d.type) {
      case 'Camera':
        startCamera(relay, d, set, pubs, input);
        break;
      case 'RangeCamera':
        startRangeCamera(relay, d, set, pubs, input);
        break;
      case 'RangeSensor':
        startRangeSensor(relay, d, f, set, pubs, input);
        break;
      case 'Imu':
      case 'AccelerationSensor':
      case 'RateGyroSensor':
        startImu(relay, d.type, set, pubs, input);
        break;
      case 'ForceSensor':
        startForceSensor(relay, set, pubs, input);
        break;
      default:
        break;
    }
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const stop of relay.stops) stop();
  };
}
