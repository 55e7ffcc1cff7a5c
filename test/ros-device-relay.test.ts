// The relay end to end on the in-memory transport. Inputs are built the way choreonoid_ros fills
// them (choreonoid/choreonoid_ros src/plugin/BodyROS2Item.cpp, master 3716c75) from data shaped as
// Choreonoid produces it (GLRangeCameraSimulator::doStoreScreenImage, RangeSensor::getSphericalAngle):
// topic /<body>/<device>, frame_id = device name, x/y/z fields with count 4, rgb UINT32, forces in
// kN, accelerations divided by 10. Outputs are checked field by field, geometrically through TF, and
// every published message against the ROS 2 definitions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBodyFile } from '../src/body/index.js';
import { defaultRelayParams, type RelayParams, startDeviceRelay } from '../src/ros/device-relay.js';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { frameTree, framePoses } from '../src/kinematics/frames.js';
import { axisAngle, diag, mulMat, mulVec } from '../src/model/math.js';
import type { Device, Mat3, RangeCameraParams, RangeSensorParams, RobotModel, Vec3 } from '../src/model/types.js';
import { type CameraInfo, type Image, type Imu, type LaserScan, MessageType, type PointCloud2, type Time, type WrenchStamped } from '../src/messages/messages.js';
import { createMemoryTransport, type MemoryTransport } from '../src/ros/memory-transport.js';
import { peerCodec, peerEncode } from './support/cdr-peer.js';
import { checkMessage } from './support/msgcheck.js';
import { modelFromOracle, oracleEntry } from './support/oracle-devices.js';
import { R_OPTICAL } from './support/rotations.js';
import { scratchDir } from './support/temp-dir.js';


const PREFIX = 'r1/';

/** BodyROS2Item::getStampMsgFromSec. */
const stampFromSec = (sec: number): Time => ({ sec: Math.trunc(sec), nanosec: Math.trunc((sec - Math.trunc(sec)) * 1e9) });

function load(file: string, edit?: (m: RobotModel) => void): RobotModel {
  const model = modelFromOracle(oracleEntry(file).oracle);
  edit?.(model);
  return model;
}

function start(model: RobotModel, params: Partial<RelayParams> = {}): { t: MemoryTransport; stop: () => void } {
  const t = createMemoryTransport({ codec: peerCodec });
  const stop = startDeviceRelay({ model, frames: deviceFrames(model), transport: t, framePrefix: PREFIX, params: { ...defaultRelayParams, ...params } });
  return { t, stop };
}

/** Every message the bridge published is a valid ROS 2 message of its declared type. */
function expectAllValid(t: MemoryTransport): void {
  expect(t.published.length).toBeGreaterThan(0);
  for (const p of t.published) expect(checkMessage(p.type, p.message), `${p.topic}`).toEqual([]);
}

/** A TF frame's rotation in its parent (zero configuration), i.e. what /tf_static carries. */
function localRotation(model: RobotModel, frame: string): Mat3 {
  return framePoses(frameTree(model), new Map()).get(frame)!.local.rotation;
}

const f32 = (v: Vec3): Vec3 => [Math.fround(v[0]), Math.fround(v[1]), Math.fround(v[2])];

function expectNear(a: Vec3, b: Vec3, tol: number, what: string): void {
  for (let i = 0; i < 3; i++) expect(Math.abs(a[i]! - b[i]!), `${what}: ${a} vs ${b}`).toBeLessThan(tol);
}

function readXyz(c: PointCloud2, i: number): Vec3 {
  const v = new DataView(c.data.buffer, c.data.byteOffset, c.data.byteLength);
  const at = (name: string) => v.getFloat32(i * c.point_step + c.fields.find((f) => f.name === name)!.offset, !c.is_bigendian);
  return [at('x'), at('y'), at('z')];
}

// ---- RangeCamera ---------------------------------------------------------------------------------

interface ChoreonoidRangeFrame {
  /** RangeCamera::points(): device-frame coordinates (Ro·p_render), float32. */
  points: Vec3[];
  /** The render-frame point of each, NaN for invalid pixels. */
  render: Vec3[];
  /** Where the pixel's centre ray meets the surface, in the device frame (Ro·p): what a point should be. */
  centre: Vec3[];
  colors: number[][];
  /** Render-frame view depth per stored point (NaN: invalid). */
  depth: number[];
  /** Row-major image index (top row first) of the pixel each point came from. */
  pixel: number[];
}

/** GLRangeCameraSimulator::doStoreScreenImage for a scene whose view depth at GL pixel (x, y) is depthAt(x, y). */
function simulateRangeCamera(p: RangeCameraParams, depthAt: (x: number, y: number) => number | null): ChoreonoidRangeFrame {
  const w = p.width;
  const h = p.height;
  const aspect = w / h;
  const fovy = aspect >= 1 ? p.field_of_view : 2 * Math.atan(Math.tan(p.field_of_view / 2) / aspect);
  const ty = Math.tan(fovy / 2);
  const ro = p.optical_frame_rotation;
  const cx = Math.floor(w / 2);
  const cy = Math.floor(h / 2);
  const out: ChoreonoidRangeFrame = { points: [], render: [], centre: [], colors: [], depth: [], pixel: [] };
  for (let y = h - 1; y >= 0; --y) {
    for (let x = 0; x < w; x++) {
      const d = depthAt(x, y);
      const color = [(x * 3) % 256, (y * 5) % 256, (x + y) % 256];
      if (d !== null) {
        // Choreonoid unprojects the depth measured at the pixel's centre through its left and lower edge.
        const render: Vec3 = [(2 * x / w - 1) * d * ty * aspect, (2 * y / h - 1) * d * ty, -d];
        out.points.push(f32(mulVec(ro, f32(render))));
        out.render.push(render);
        out.centre.push(mulVec(ro, [(2 * (x + 0.5) / w - 1) * d * ty * aspect, (2 * (y + 0.5) / h - 1) * d * ty, -d]));
        out.depth.push(d);
        out.colors.push(color);
        out.pixel.push((h - 1 - y) * w + x);
      } else if (p.is_organized) {
        const inf: Vec3 = [x === cx ? 0 : (x - cx) * Infinity, y === cy ? 0 : (y - cy) * Infinity, Infinity];
        out.points.push(mulVec(ro, inf));
        out.render.push([NaN, NaN, NaN]);
        out.centre.push([NaN, NaN, NaN]);
        out.depth.push(NaN);
        out.colors.push(color);
        out.pixel.push((h - 1 - y) * w + x);
      }
    }
  }
  return out;
}

/** BodyROS2Item::updateRangeVisionSensor. */
function choreonoidRosRangeCloud(p: RangeCameraParams, name: string, frame: ChoreonoidRangeFrame, stamp: Time): PointCloud2 {
  const color = p.image_type === 'COLOR_IMAGE';
  const n = frame.points.length;
  const step = color ? 16 : 12;
  const data = new Uint8Array(n * step);
  const view = new DataView(data.buffer);
  const ro = p.optical_frame_rotation;
  const isIdentity = ro.every((row, i) => row.every((v, j) => v === (i === j ? 1 : 0)));
  frame.points.forEach((pt, i) => {
    // Roᵀ·point (in float), then Choreonoid camera → ROS: (x, −y, −z).
    const q = isIdentity ? pt : f32(mulVec([[ro[0][0], ro[1][0], ro[2][0]], [ro[0][1], ro[1][1], ro[2][1]], [ro[0][2], ro[1][2], ro[2][2]]], pt));
    view.setFloat32(i * step, q[0], true);
    view.setFloat32(i * step + 4, -q[1], true);
    view.setFloat32(i * step + 8, -q[2], true);
    if (color) {
      const [r, g, b] = frame.colors[i]!;
      view.setUint32(i * step + 12, (r! << 16) | (g! << 8) | b!, true);
    }
  });
  const organizedImage = color && p.is_organized;
  const fields = [
    { name: 'x', offset: 0, datatype: 7, count: 4 },
    { name: 'y', offset: 4, datatype: 7, count: 4 },
    { name: 'z', offset: 8, datatype: 7, count: 4 },
  ];
  if (color) fields.push({ name: 'rgb', offset: 12, datatype: 6, count: 1 });
  // With a colour image the cloud takes the image's size (w×h organized, n×1 otherwise); without, n×1.
  const width = organizedImage ? p.width : n;
  const height = organizedImage ? p.height : 1;
  return { header: { stamp, frame_id: name }, height, width, fields, is_bigendian: false, point_step: step, row_step: step * width, data, is_dense: !frame.depth.some(Number.isNaN) };
}

describe('RangeCamera relay', () => {
  const scene = (x: number, y: number): number | null => ((x + 3 * y) % 11 === 0 ? null : 1 + 0.01 * x + 0.02 * y);

  const cases: [string, string, 'gl' | 'cv' | 'robotics' | null][] = [
    ['choreonoid/share/model/Tank/Tank.body', 'Kinect', null],
    ['choreonoid/share/model/Tank/Tank.body', 'Kinect', 'gl'],
    ['choreonoid/share/model/Tank/Tank.body', 'Kinect', 'cv'],
    ['openhrp3/sample/model/simple_vehicle_with_camera.wrl', 'VISION_SENSOR1', null],
  ];
  for (const [file, name, mode] of cases) {
    it(`${name} of ${file}${mode ? ` as ${mode}` : ''}: points land on their pixels' centre rays at Choreonoid's depth, depth image and CameraInfo follow`, () => {
      const model = load(file, (m) => {
        const d = m.devices.find((x) => x.name === name) as Extract<Device, { type: 'RangeCamera' }>;
        if (mode) d.params = { ...d.params, optical_frame_rotation: R_OPTICAL[mode] };
      });
      const d = model.devices.find((x) => x.name === name) as Extract<Device, { type: 'RangeCamera' }>;
      const p = d.params;
      const { t, stop } = start(model);
      const stamp = stampFromSec(12.345);
      const frame = simulateRangeCamera(p, scene);
      expect(t.inject(`/${model.name}/${name}/point_cloud`, choreonoidRosRangeCloud(p, name, frame, stamp))).toBe(1);

      const points = t.last<PointCloud2>(`${name}/points`)!;
      const depth = t.last<Image>(`${name}/depth/image_raw`)!;
      const info = t.last<CameraInfo>(`${name}/depth/camera_info`)!;
      expect(points.header).toEqual({ stamp, frame_id: `${PREFIX}${name}_optical_frame` });
      expect(depth.header).toEqual(points.header);
      expect(info.header).toEqual(points.header);
      expect([points.width, points.height, points.is_dense]).toEqual([p.width, p.height, false]);
      expect(points.fields.map((f) => [f.name, f.offset, f.datatype, f.count])).toEqual(
        [['x', 0, 7, 1], ['y', 4, 7, 1], ['z', 8, 7, 1], ...(p.image_type === 'COLOR_IMAGE' ? [['rgb', 12, 7, 1]] : [])],
      );
      expect([depth.width, depth.height, depth.encoding]).toEqual([p.width, p.height, '32FC1']);
      expect([info.width, info.height]).toEqual([p.width, p.height]);

      // Through TF: the optical frame's rotation in the device frame maps our points onto Choreonoid's surface
      // points, each on its pixel's centre ray (Choreonoid's own are half a pixel off, through the pixel's edge).
      const rOptical = localRotation(model, `${name}_optical_frame`);
      const depths = new Float32Array(depth.data.buffer, depth.data.byteOffset, p.width * p.height);
      const view = new DataView(points.data.buffer, points.data.byteOffset);
      let valid = 0;
      const problems: string[] = [];
      frame.centre.forEach((surface, i) => {
        const ours = readXyz(points, i);
        if (Number.isNaN(frame.depth[i]!)) {
          if (!ours.every(Number.isNaN) || !Number.isNaN(depths[i]!)) problems.push(`pixel ${i}: invalid in Choreonoid, ours ${ours} / ${depths[i]}`);
          return;
        }
        valid++;
        const inDevice = mulVec(rOptical, ours);
        if (inDevice.some((v, j) => Math.abs(v - surface[j]!) > 1e-5)) problems.push(`pixel ${i}: ${inDevice} vs ${surface}`);
        // Pixel for pixel with CameraInfo: the point is K⁻¹·(u, v, 1)·depth.
        const [u, v] = [i % p.width, Math.floor(i / p.width)];
        const [fx, cx, fy, cy] = [info.k[0]!, info.k[2]!, info.k[4]!, info.k[5]!];
        const fromInfo = [((u - cx) * depths[i]!) / fx, ((v - cy) * depths[i]!) / fy, depths[i]!];
        if (fromInfo.some((c, j) => Math.abs(c - ours[j]!) > 1e-6)) problems.push(`pixel ${i}: ${ours} vs CameraInfo's ${fromInfo}`);
        if (Math.abs(depths[i]! - frame.depth[i]!) > 1e-5) problems.push(`pixel ${i}: depth ${depths[i]} vs ${frame.depth[i]}`);
        if (p.image_type === 'COLOR_IMAGE') {
          const word = view.getUint32(i * points.point_step + 12, true);
          const rgb = [(word >>> 16) & 255, (word >>> 8) & 255, word & 255];
          if (rgb.some((c, j) => c !== frame.colors[i]![j])) problems.push(`pixel ${i}: rgb ${rgb} vs ${frame.colors[i]}`);
        }
      });
      expect(problems.slice(0, 5)).toEqual([]);
      expect(valid).toBeGreaterThan(0.85 * p.width * p.height);
      expectAllValid(t);
      stop();
    });
  }

  it('an unorganized cloud (is_organized: false) keeps its points, each moved onto its pixel centre ray, and projects them into the depth image', () => {
    const model = load('choreonoid/share/model/Tank/Tank.body', (m) => {
      const d = m.devices.find((x) => x.name === 'Kinect') as Extract<Device, { type: 'RangeCamera' }>;
      d.params = { ...d.params, is_organized: false };
    });
    const p = (model.devices.find((x) => x.name === 'Kinect') as Extract<Device, { type: 'RangeCamera' }>).params;
    const { t } = start(model);
    const frame = simulateRangeCamera(p, scene);
    t.inject('/Tank/Kinect/point_cloud', choreonoidRosRangeCloud(p, 'Kinect', frame, stampFromSec(1)));
    const points = t.last<PointCloud2>('Kinect/points')!;
    expect([points.width, points.height, points.is_dense]).toEqual([frame.points.length, 1, true]);
    const rOptical = localRotation(model, 'Kinect_optical_frame');
    const problems: string[] = [];
    frame.centre.forEach((c, i) => {
      const inDevice = mulVec(rOptical, readXyz(points, i));
      if (inDevice.some((v, j) => Math.abs(v - c[j]!) > 1e-5)) problems.push(`point ${i}: ${inDevice} vs ${c}`);
    });
    // Each point's depth lands in the pixel Choreonoid computed it from; the others stay NaN.
    const depth = t.last<Image>('Kinect/depth/image_raw')!;
    const depths = new Float32Array(depth.data.buffer, depth.data.byteOffset, p.width * p.height);
    const expected = new Float32Array(p.width * p.height).fill(NaN);
    frame.pixel.forEach((px, i) => (expected[px] = frame.depth[i]!));
    for (let px = 0; px < expected.length; px++) {
      const a = depths[px]!;
      const b = expected[px]!;
      if (Number.isNaN(a) !== Number.isNaN(b) || Math.abs(a - b) > 1e-5) problems.push(`pixel ${px}: depth ${a} vs ${b}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expectAllValid(t);
  });

  it('relays the colour image with CameraInfo, and sends CameraInfo alone at the frame rate while no image comes', () => {
    const model = load('choreonoid/share/model/Tank/Tank.body');
    const { t, stop } = start(model);
    t.advance(100); // 30 Hz: three periods without images
    expect(t.messages('Kinect/camera_info').length).toBe(3);
    expect(t.messages('Kinect/depth/camera_info').length).toBe(3);
    expect(t.messages('Kinect/image_raw').length).toBe(0);
    // Theta is a dual-fisheye camera: its CameraInfo is "uncalibrated" and only accompanies images.
    expect(t.messages('Theta/camera_info').length).toBe(0);
    const standalone = t.last<CameraInfo>('Kinect/camera_info')!;
    expect(standalone.header).toEqual({ stamp: { sec: 1000, nanosec: 99_999_999 }, frame_id: `${PREFIX}Kinect_optical_frame` });

    t.clear();
    const stamp = stampFromSec(5.5);
    const data = new Uint8Array(320 * 240 * 3).map((_, i) => i % 251);
    // updateVisionSensor: rgb8 for 3 components, step = width × components, frame_id = device name.
    t.inject('/Tank/Kinect', { header: { stamp, frame_id: 'Kinect' }, height: 240, width: 320, encoding: 'rgb8', is_bigendian: 0, step: 960, data });
    const image = t.last<Image>('Kinect/image_raw')!;
    const { data: relayed, ...fields } = image;
    expect(fields).toEqual({ header: { stamp, frame_id: `${PREFIX}Kinect_optical_frame` }, height: 240, width: 320, encoding: 'rgb8', is_bigendian: 0, step: 960 });
    // Copied once, from the incoming CDR bytes into the outgoing ones.
    expect(Buffer.from(relayed).equals(Buffer.from(data))).toBe(true);
    expect(t.last<CameraInfo>('Kinect/camera_info')!.header.stamp).toEqual(stamp);
    // An image in every period: no extra CameraInfo on the colour topic.
    t.advance(1000 / 30);
    t.inject('/Tank/Kinect', { header: { stamp, frame_id: 'Kinect' }, height: 240, width: 320, encoding: 'rgb8', is_bigendian: 0, step: 960, data });
    t.advance(1000 / 30);
    expect(t.messages('Kinect/camera_info').length).toBe(2);
    expectAllValid(t);
    stop();
    expect(t.active()).toEqual({ subscriptions: 0, timers: 0 });
  });
});

// ---- Cameras ---------------------------------------------------------------------------------------

describe('Fisheye camera relay', () => {
  const dir = scratchDir('bb-fisheye-');
  // Independent reference: choreonoid src/GLVisionSimulatorPlugin/GLFisheyeCameraSimulator.cpp sizes its
  // output from resolutionX alone: width × width (FISHEYE), width × width/2 (DUAL_FISHEYE). Tank's Theta
  // is DUAL_FISHEYE with width 720, height 480 in TankBody.body, and Choreonoid sends it 720×360.
  const cases: [lens: string, width: number, height: number, sent: [number, number], wrong: [number, number]][] = [
    ['DUAL_FISHEYE', 720, 480, [720, 360], [720, 480]],
    ['DUAL_FISHEYE', 641, 480, [641, 320], [641, 321]],
    ['FISHEYE', 640, 480, [640, 640], [640, 480]],
    ['NORMAL', 640, 480, [640, 480], [640, 640]],
  ];
  it.each(cases)('%s %i×%i: relays the %j images Choreonoid renders, with a CameraInfo of that size, and drops %j', (lens, width, height, sent, wrong) => {
    const text = [
      'format: ChoreonoidBody', 'format_version: 2.0', 'name: Eye', 'links:', '  - name: BASE', '    joint_type: free',
      '    elements:', '      - type: Camera', '        name: Eye', '        format: COLOR', `        lens_type: ${lens}`,
      '        field_of_view: 170', `        width: ${width}`, `        height: ${height}`, '        frame_rate: 30',
    ].join('\n');
    const file = join(dir, `eye-${lens}-${width}.body`);
    writeFileSync(file, text);
    const model = loadBodyFile(file);
    const { t, stop } = start(model, { cameraInfoWithoutImages: false });
    const stamp = stampFromSec(3);
    const image = ([w, h]: [number, number]) => ({ header: { stamp, frame_id: 'Eye' }, height: h, width: w, encoding: 'rgb8', is_bigendian: 0, step: w * 3, data: new Uint8Array(w * h * 3) });
    t.inject('/Eye/Eye', image(wrong));
    expect(t.published.length).toBe(0);
    expect(t.logs.filter((l) => l.level === 'warn').map((l) => l.message).join('\n')).toContain(`the camera sends ${sent[0]}×${sent[1]}`);
    t.inject('/Eye/Eye', image(sent));
    const out = t.last<Image>('Eye/image_raw')!;
    expect([out.width, out.height]).toEqual(sent);
    const info = t.last<CameraInfo>('Eye/camera_info')!;
    expect([info.width, info.height]).toEqual(sent);
    expectAllValid(t);
    stop();
  });
});

describe('Camera relay', () => {
  it('republishes images in the optical frame, drops malformed ones with one warning, and stops cleanly', () => {
    const model = load('openhrp3/sample/model/sample1.wrl');
    const { t, stop } = start(model, { cameraInfoWithoutImages: false });
    const topics = t.topics();
    expect(topics.filter((x) => x.direction === 'subscribe').map((x) => x.topic)).toEqual(
      expect.arrayContaining(['/SampleRobot/VISION_SENSOR1', '/SampleRobot/VISION_SENSOR2', '/SampleRobot/gsensor', '/SampleRobot/lhsensor']),
    );
    for (const x of topics) expect(x.qos.reliability).toBe('best_effort');
    const stamp = stampFromSec(2);
    const mono = { header: { stamp, frame_id: 'VISION_SENSOR1' }, height: 240, width: 320, encoding: 'mono8', is_bigendian: 0, step: 320, data: new Uint8Array(320 * 240) };
    t.inject('/SampleRobot/VISION_SENSOR1', mono);
    expect(t.last<Image>('VISION_SENSOR1/image_raw')!.header.frame_id).toBe(`${PREFIX}VISION_SENSOR1_optical_frame`);
    const info = t.last<CameraInfo>('VISION_SENSOR1/camera_info')!;
    expect(info.header).toEqual({ stamp, frame_id: `${PREFIX}VISION_SENSOR1_optical_frame` });
    expect(info.k[0]).toBeCloseTo(120 / Math.tan(0.785398 / 2), 9);

    t.clear();
    t.inject('/SampleRobot/VISION_SENSOR1', { ...mono, data: new Uint8Array(100) });
    t.inject('/SampleRobot/VISION_SENSOR1', { ...mono, data: new Uint8Array(100) });
    // A well-formed image of another size cannot go out with this camera's CameraInfo.
    t.inject('/SampleRobot/VISION_SENSOR1', { ...mono, width: 160, step: 160, data: new Uint8Array(160 * 240) });
    // choreonoid_ros publishes a 0×0 image with an empty encoding for cameras without an image.
    t.inject('/SampleRobot/VISION_SENSOR1', { ...mono, width: 0, height: 0, step: 0, encoding: '', data: new Uint8Array(0) });
    expect(t.published.length).toBe(0);
    // One warning per device and kind of problem, not one per message.
    expect(t.logs.filter((l) => l.level === 'warn').length).toBe(1);
    // No timers were started, and no CameraInfo goes out on its own.
    t.advance(500);
    expect(t.published.length).toBe(0);
    stop();
    expect(t.active()).toEqual({ subscriptions: 0, timers: 0 });
  });

  it('honours inputNamespace and per-device inputTopics', () => {
    const model = load('openhrp3/sample/model/sample1.wrl');
    const { t } = start(model, { inputNamespace: '/sim/robot', inputTopics: { VISION_SENSOR2: '/custom/eye' } });
    const subs = t.topics().filter((x) => x.direction === 'subscribe').map((x) => x.topic);
    expect(subs).toContain('/sim/robot/VISION_SENSOR1');
    expect(subs).toContain('/custom/eye');
    expect(subs).not.toContain('/sim/robot/VISION_SENSOR2');
    expect(t.logs.filter((l) => l.level === 'warn')).toEqual([]);
    const typo = start(model, { inputTopics: { VISION_SENSOR9: '/x' } }).t;
    // A nameless device has no choreonoid_ros topic, but can be given one by its frame name.
    const nameless = load('openhrp3/sample/model/sample1.wrl', (m) => {
      m.devices.find((d) => d.name === 'gsensor')!.name = '';
    });
    const n = start(nameless, { inputTopics: { [`${nameless.devices.find((d) => d.name === '')!.link}_AccelerationSensor`]: '/acc' } }).t;
    expect(n.topics().filter((x) => x.direction === 'subscribe').map((x) => x.topic)).toContain('/acc');
    expect(n.logs.filter((l) => l.level === 'warn')).toEqual([]);
    expect(typo.logs.map((l) => l.message)).toEqual([expect.stringContaining('no device named "VISION_SENSOR9"')]);
  });

  it('reads a cloud whose data arrives as a plain number array', () => {
    const model = load('choreonoid/share/model/Tank/Tank.body');
    const { t } = start(model);
    const p = (model.devices.find((x) => x.name === 'VLP-16') as Extract<Device, { type: 'RangeSensor' }>).params;
    const q = f32(choreonoidSamplePoint(p, 5, 2));
    const bytes = new Uint8Array(new Float32Array(q).buffer);
    const cloud = {
      header: { stamp: stampFromSec(1), frame_id: 'VLP-16' },
      height: 1,
      width: 1,
      fields: ['x', 'y', 'z'].map((name, j) => ({ name, offset: 4 * j, datatype: 7, count: 4 })),
      is_bigendian: false,
      point_step: 12,
      row_step: 12,
      data: Array.from(bytes),
      is_dense: true,
    };
    t.inject('/Tank/VLP_16/point_cloud', cloud);
    const out = t.last<PointCloud2>('VLP_16/points')!;
    expectNear(mulVec(localRotation(model, 'VLP-16_scan_frame'), readXyz(out, 0)), q, 1e-6, 'point');
  });
});

// ---- RangeSensor -----------------------------------------------------------------------------------

/** Choreonoid's sample i in the device frame: Ro·(r cos p sin(−yaw), r sin p, −r cos p cos yaw). */
function choreonoidSamplePoint(p: RangeSensorParams, i: number, r: number): Vec3 {
  const n = Math.max(1, p.num_yaw_samples);
  const yaw = p.min_yaw_angle + (i % n) * p.yaw_step;
  const pitch = p.min_pitch_angle + Math.floor(i / n) * p.pitch_step;
  const render = mulVec(mulMat(axisAngle([0, 1, 0], yaw), axisAngle([1, 0, 0], pitch)), [0, 0, -r]);
  return mulVec(p.optical_frame_rotation, render);
}

describe('RangeSensor relay', () => {
  it('VLP-16: a 3D scan arrives in the scan frame, each point where Choreonoid measured it', () => {
    const model = load('choreonoid/share/model/Tank/Tank.body');
    const p = (model.devices.find((x) => x.name === 'VLP-16') as Extract<Device, { type: 'RangeSensor' }>).params;
    const { t } = start(model);
    const n = p.num_yaw_samples * p.num_pitch_samples;
    const ranges = Array.from({ length: n }, (_, i) => (i % 17 === 0 ? Infinity : 1 + (i % 13) * 0.1));
    // update3DRangeSensor: only samples within max_distance, as float32 x/y/z (count 4), height 1.
    const kept = ranges.map((r, i) => [r, i] as const).filter(([r]) => r <= p.max_distance);
    const data = new Uint8Array(kept.length * 12);
    const view = new DataView(data.buffer);
    kept.forEach(([r, i], k) => {
      const q = f32(choreonoidSamplePoint(p, i, r));
      q.forEach((v, j) => view.setFloat32(k * 12 + 4 * j, v, true));
    });
    const stamp = stampFromSec(3.25);
    const upstream: PointCloud2 = {
      header: { stamp, frame_id: 'VLP-16' },
      height: 1,
      width: kept.length,
      fields: ['x', 'y', 'z'].map((name, j) => ({ name, offset: 4 * j, datatype: 7, count: 4 })),
      is_bigendian: false,
      point_step: 12,
      row_step: data.length,
      data,
      is_dense: true,
    };
    expect(t.inject('/Tank/VLP_16/point_cloud', upstream)).toBe(1);
    const out = t.last<PointCloud2>('VLP_16/points')!;
    expect(out.header).toEqual({ stamp, frame_id: `${PREFIX}VLP-16_scan_frame` });
    expect([out.width, out.height]).toEqual([kept.length, 1]);
    const rScan = localRotation(model, 'VLP-16_scan_frame');
    const problems: string[] = [];
    kept.forEach(([r, i], k) => {
      const ours = mulVec(rScan, readXyz(out, k));
      const theirs = choreonoidSamplePoint(p, i, r);
      if (ours.some((v, j) => Math.abs(v - theirs[j]!) > 1e-5)) problems.push(`sample ${i}: ${ours} vs ${theirs}`);
    });
    expect(problems.slice(0, 5)).toEqual([]);
    expectAllValid(t);
  });

  for (const mode of ['gl', 'cv', 'robotics'] as const) {
    it(`planar scan with an asymmetric yaw range (${mode}): angles from the model, beams where Choreonoid's samples are`, () => {
      const model = load('openhrp3/sample/model/RH2/RH2_withoutArm_withObstacleSensor.wrl', (m) => {
        const d = m.devices.find((x) => x.name === 'URG_SENSOR0') as Extract<Device, { type: 'RangeSensor' }>;
        d.params = { ...d.params, optical_frame_rotation: R_OPTICAL[mode], min_yaw_angle: -0.4, max_yaw_angle: 2.0, yaw_range: 2.4, yaw_step: 0.05, num_yaw_samples: 49 };
      });
      const p = (model.devices.find((x) => x.name === 'URG_SENSOR0') as Extract<Device, { type: 'RangeSensor' }>).params;
      const { t } = start(model);
      const ranges = Float32Array.from({ length: 49 }, (_, i) => (i % 9 === 4 ? Infinity : 0.5 + 0.1 * i));
      const stamp = stampFromSec(8);
      // updateRangeSensor: symmetric angles from yaw_range, frame_id = device name, no intensities.
      const upstream: LaserScan = {
        header: { stamp, frame_id: 'URG_SENSOR0' },
        angle_min: -1.2,
        angle_max: 1.2,
        angle_increment: 0.05,
        time_increment: 0,
        scan_time: 0,
        range_min: p.min_distance,
        range_max: p.max_distance,
        ranges,
        intensities: [],
      };
      const body = model.name;
      expect(t.inject(`/${body}/URG_SENSOR0/scan`, upstream)).toBe(1);
      const scan = t.last<LaserScan>('URG_SENSOR0/scan')!;
      expect(scan.header).toEqual({ stamp, frame_id: `${PREFIX}URG_SENSOR0_scan_frame` });
      // LaserScan's angles are float32 on the wire.
      expect(scan.angle_min).toBe(Math.fround(-0.4));
      expect(scan.angle_max).toBeCloseTo(2.0, 9);
      expect(scan.angle_increment).toBe(Math.fround(0.05));
      expect([scan.range_min, scan.range_max]).toEqual([p.min_distance, p.max_distance].map(Math.fround));
      expect(Array.from(scan.ranges)).toEqual(Array.from(ranges));
      const rScan = localRotation(model, 'URG_SENSOR0_scan_frame');
      for (let i = 0; i < 49; i++) {
        const r = scan.ranges[i]!;
        if (!Number.isFinite(r)) continue;
        const a = scan.angle_min + i * scan.angle_increment;
        expectNear(mulVec(rScan, [r * Math.cos(a), r * Math.sin(a), 0]), choreonoidSamplePoint(p, i, r), 1e-5, `beam ${i}`);
      }
      expectAllValid(t);
    });
  }

  it("in choreonoid_ros's own namespace (a project's body) the scan is relayed on <device>/scan_relayed, never onto choreonoid_ros's scan", () => {
    const model = load('openhrp3/sample/model/RH2/RH2_withoutArm_withObstacleSensor.wrl');
    const ns = `/${model.name}`;
    const t = createMemoryTransport({ codec: peerCodec, namespace: ns });
    const stop = startDeviceRelay({ model, frames: deviceFrames(model), transport: t, framePrefix: PREFIX, params: { ...defaultRelayParams, inputNamespace: ns } });
    const scanTopics = t.topics().filter((x) => x.type === 'sensor_msgs/msg/LaserScan');
    // Heard on choreonoid_ros's name, said on ours: /RH2.../URG_SENSOR0/scan_relayed once resolved in the namespace.
    expect(scanTopics.map((x) => [x.direction, x.topic])).toEqual([
      ['publish', 'URG_SENSOR0/scan_relayed'],
      ['subscribe', `${ns}/URG_SENSOR0/scan`],
    ]);
    const upstream: LaserScan = {
      header: { stamp: stampFromSec(1), frame_id: 'URG_SENSOR0' },
      angle_min: -1,
      angle_max: 1,
      angle_increment: 0.5,
      time_increment: 0,
      scan_time: 0,
      range_min: 0.1,
      range_max: 4,
      ranges: Float32Array.from([1, 1, 1, 1, 1]),
      intensities: [],
    };
    expect(t.inject(`${ns}/URG_SENSOR0/scan`, upstream)).toBe(1);
    expect(t.last<LaserScan>('URG_SENSOR0/scan_relayed')!.header.frame_id).toBe(`${PREFIX}URG_SENSOR0_scan_frame`);
    expect(t.logs.some((l) => l.level === 'info' && /URG_SENSOR0: relayed on URG_SENSOR0\/scan_relayed/.test(l.message))).toBe(true);
    stop();
    // Anywhere else the standard name stays (the case above): / and choreonoid_ros's /<body>.
    const elsewhere = createMemoryTransport({ codec: peerCodec, namespace: '/r1' });
    startDeviceRelay({ model, frames: deviceFrames(model), transport: elsewhere, framePrefix: PREFIX, params: { ...defaultRelayParams, inputNamespace: ns } });
    expect(elsewhere.topics().filter((x) => x.direction === 'publish' && x.type === 'sensor_msgs/msg/LaserScan').map((x) => x.topic)).toEqual(['URG_SENSOR0/scan']);
  });
});

// ---- Inertial and force sensors ---------------------------------------------------------------------

describe('Imu, acceleration, gyro and force relay', () => {
  const header = (name: string) => ({ stamp: stampFromSec(4.5), frame_id: name });
  /** What rclcpp's default-constructed sensor_msgs::msg::Imu holds before BodyROS2Item fills it. */
  const blankImu = (name: string): Imu => ({
    header: header(name),
    orientation: { x: 0, y: 0, z: 0, w: 1 },
    orientation_covariance: new Array(9).fill(0),
    angular_velocity: { x: 0, y: 0, z: 0 },
    angular_velocity_covariance: new Array(9).fill(0),
    linear_acceleration: { x: 0, y: 0, z: 0 },
    linear_acceleration_covariance: new Array(9).fill(0),
  });
  const dv = { x: 0.5, y: -1.5, z: 9.80665 };
  const w = { x: 0.01, y: 0.02, z: -0.03 };
  const F = { x: 12, y: -3, z: 600 };
  const tau = { x: 1.5, y: -2.5, z: 0.25 };

  function feed(t: MemoryTransport): void {
    // updateAccelSensor: dv / 10; updateRateGyroSensor: w; updateImu: both; updateForceSensor: F / 1000.
    t.inject('/SR1/WaistAccelSensor', { ...blankImu('WaistAccelSensor'), linear_acceleration: { x: dv.x / 10, y: dv.y / 10, z: dv.z / 10 } });
    t.inject('/SR1/WaistGyro', { ...blankImu('WaistGyro'), angular_velocity: w });
    t.inject('/SR1/WaistIMU', { ...blankImu('WaistIMU'), angular_velocity: w, linear_acceleration: { x: dv.x / 10, y: dv.y / 10, z: dv.z / 10 } });
    const wrench: WrenchStamped = {
      header: header('LeftAnkleForceSensor'),
      wrench: { force: { x: F.x / 1000, y: F.y / 1000, z: F.z / 1000 }, torque: { x: tau.x / 1000, y: tau.y / 1000, z: tau.z / 1000 } },
    };
    t.inject('/SR1/LeftAnkleForceSensor', wrench);
  }

  const close = (a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }) => {
    expect(a.x).toBeCloseTo(b.x, 12);
    expect(a.y).toBeCloseTo(b.y, 12);
    expect(a.z).toBeCloseTo(b.z, 12);
  };

  it('undoes choreonoid_ros scaling by default and marks what each device does not measure', () => {
    const { t } = start(load('choreonoid/share/model/SR1/SR1.body'));
    feed(t);
    const accel = t.last<Imu>('WaistAccelSensor/imu')!;
    const gyro = t.last<Imu>('WaistGyro/imu')!;
    const imu = t.last<Imu>('WaistIMU/imu')!;
    const wrench = t.last<WrenchStamped>('LeftAnkleForceSensor/wrench')!;
    expect(accel.header).toEqual({ stamp: stampFromSec(4.5), frame_id: `${PREFIX}WaistAccelSensor` });
    close(accel.linear_acceleration, dv);
    expect([accel.orientation_covariance[0], accel.angular_velocity_covariance[0], accel.linear_acceleration_covariance[0]]).toEqual([-1, -1, 0]);
    close(gyro.angular_velocity, w);
    expect([gyro.orientation_covariance[0], gyro.angular_velocity_covariance[0], gyro.linear_acceleration_covariance[0]]).toEqual([-1, 0, -1]);
    close(imu.angular_velocity, w);
    close(imu.linear_acceleration, dv);
    expect([imu.orientation_covariance[0], imu.angular_velocity_covariance[0], imu.linear_acceleration_covariance[0]]).toEqual([-1, 0, 0]);
    expect(wrench.header.frame_id).toBe(`${PREFIX}LeftAnkleForceSensor`);
    close(wrench.wrench.force, F);
    close(wrench.wrench.torque, tau);
    expectAllValid(t);
  });

  it('passes values through unchanged when undoUpstreamScaling is off', () => {
    const { t } = start(load('choreonoid/share/model/SR1/SR1.body'), { undoUpstreamScaling: false });
    feed(t);
    close(t.last<Imu>('WaistAccelSensor/imu')!.linear_acceleration, { x: dv.x / 10, y: dv.y / 10, z: dv.z / 10 });
    close(t.last<WrenchStamped>('LeftAnkleForceSensor/wrench')!.wrench.force, { x: F.x / 1000, y: F.y / 1000, z: F.z / 1000 });
  });

  it('keeps running when the transport rejects an input topic name', () => {
    const model = load('choreonoid/share/model/SR1/SR1.body');
    const t = createMemoryTransport({ codec: peerCodec });
    const picky = {
      ...t,
      subscribeRaw: ((topic, type, qos, cb) => {
        if (topic.includes('Gyro')) throw new Error('invalid topic name');
        return t.subscribeRaw(topic, type, qos, cb);
      }) as typeof t.subscribeRaw,
    };
    const stop = startDeviceRelay({ model, frames: deviceFrames(model), transport: picky, framePrefix: '', params: defaultRelayParams });
    expect(t.logs.some((l) => l.level === 'warn' && l.message.includes('/SR1/WaistGyro'))).toBe(true);
    t.inject('/SR1/WaistIMU', blankImu('WaistIMU'));
    expect(t.messages('WaistIMU/imu').length).toBe(1);
    stop();
    expect(t.active()).toEqual({ subscriptions: 0, timers: 0 });
  });

  it('survives hostile input without throwing out of a callback', () => {
    const { t } = start(load('choreonoid/share/model/Tank/Tank.body'));
    // Inputs arrive as CDR bytes: a truncated Imu, a cloud that reads but makes no sense, bytes that are no message.
    const imu = peerEncode(MessageType.Imu, blankImu('ACCEL_SENSOR'));
    expect(() => t.inject('/Tank/ACCEL_SENSOR', imu.subarray(0, 60))).not.toThrow();
    const cloud = { header: header('x'), height: 1, width: 1, fields: [], is_bigendian: false, point_step: 0, row_step: 0, data: new Uint8Array(3), is_dense: true };
    expect(() => t.inject('/Tank/Kinect/point_cloud', peerEncode(MessageType.PointCloud2, cloud))).not.toThrow();
    expect(() => t.inject('/Tank/Kinect', Uint8Array.of(0, 1, 0, 0, 255, 255, 255, 255))).not.toThrow();
    expect(t.messages('ACCEL_SENSOR/imu').length + t.messages('Kinect/points').length).toBe(0);
    expect(t.logs.filter((l) => l.level === 'warn').length).toBeGreaterThanOrEqual(2);
  });
});
