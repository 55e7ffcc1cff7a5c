// The node's CDR codecs (src/cdr) against the independent one (@foxglove/rosmsg2-serialization with
// ROS 2 Humble's .msg definitions), both directions: what we write must be byte for byte what the
// peer writes and decode to the message we meant; what the peer writes must read back as it was.
import { describe, expect, it } from 'vitest';
import { writeCameraInfo } from '../src/cdr/camera-info.js';
import { CdrError } from '../src/cdr/core.js';
import { readImage, writeImage } from '../src/cdr/image.js';
import { readImu, writeImu } from '../src/cdr/imu.js';
import { jointStateReader, writeJointState } from '../src/cdr/joint-state.js';
import { readLaserScan, writeLaserScan } from '../src/cdr/laser-scan.js';
import { readPointCloud2, writePointCloud2 } from '../src/cdr/point-cloud2.js';
import { readTfMessage, tfMessageWriter } from '../src/cdr/tf-message.js';
import { readWrenchStamped, writeWrenchStamped } from '../src/cdr/wrench-stamped.js';
import type { CameraInfo, Image, Imu, JointState, LaserScan, PointCloud2, TFMessage, WrenchStamped } from '../src/messages/messages.js';
import { asciiOnly, peerDecode, peerEncode, plain } from './support/cdr-peer.js';

const writeTfMessage = (m: TFMessage): Uint8Array => tfMessageWriter()(m.transforms);

const NON_ASCII = 'カメラ_é_😀';
const header = (frame_id: string, sec = 12, nanosec = 345_678_901) => ({ stamp: { sec, nanosec }, frame_id });

/** Bytes that are not all zero, so a copy to the wrong place or a missed copy shows. */
const pattern = (n: number, seed = 7): Uint8Array => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
};

const image = (frame: string, width: number, height: number, encoding: string, bpp: number): Image => ({
  header: header(frame),
  height,
  width,
  encoding,
  is_bigendian: 0,
  step: width * bpp,
  data: pattern(width * height * bpp),
});

const images: [string, Image][] = [
  ['empty', image('', 0, 0, '', 1)],
  ['odd sizes and an odd-length frame id', image('cam', 3, 1, 'rgb8', 3)],
  ['non-ASCII frame id', image(NON_ASCII, 5, 3, 'mono8', 1)],
  ['1920×1080 rgb8', image('camera_optical', 1920, 1080, 'rgb8', 3)],
  ['640×480 32FC1', image('depth_optical', 640, 480, '32FC1', 4)],
];

const field = (name: string, offset: number, datatype = 7) => ({ name, offset, datatype, count: 1 });
const cloud = (frame: string, fields: PointCloud2['fields'], width: number, pointStep: number, dense: boolean): PointCloud2 => ({
  header: header(frame),
  height: 1,
  width,
  fields,
  is_bigendian: false,
  point_step: pointStep,
  row_step: pointStep * width,
  data: pattern(width * pointStep),
  is_dense: dense,
});

const clouds: [string, PointCloud2][] = [
  ['no fields, no points', cloud('', [], 0, 0, true)],
  ['odd-length field names and data', cloud(NON_ASCII, [field('x', 0), field('intensity', 4, 2), field('ab', 5, 1)], 13, 7, false)],
  ['640×480 xyzrgb', cloud('cam', [field('x', 0), field('y', 4), field('z', 8), field('rgb', 12)], 640 * 480, 16, true)],
];

const scan = (frame: string, ranges: number[], intensities: number[]): LaserScan => ({
  header: header(frame),
  angle_min: -1.25,
  angle_max: 1.5,
  angle_increment: 0.25,
  time_increment: 0,
  scan_time: 0.125, // float32 fields: values float32 holds exactly
  range_min: 0.5,
  range_max: 30,
  ranges: Float32Array.from(ranges),
  intensities: Float32Array.from(intensities),
});

const scans: [string, LaserScan][] = [
  ['empty', scan('', [], [])],
  ['one range, odd intensities', scan('laser', [2.5], [1, 2, 3])],
  ['non-ASCII frame, infinities', scan(NON_ASCII, [1, Infinity, 0.5, -Infinity, NaN], [])],
];

const imu = (frame: string): Imu => ({
  header: header(frame),
  orientation: { x: 0, y: 0, z: 0, w: 1 },
  orientation_covariance: [-1, 0, 0, 0, 0, 0, 0, 0, 0],
  angular_velocity: { x: 0.25, y: -1e-9, z: 3 },
  angular_velocity_covariance: [0, 0, 0, 0, 0, 0, 0, 0, 0],
  linear_acceleration: { x: 0, y: -9.80665, z: 1e300 },
  linear_acceleration_covariance: [1, 2, 3, 4, 5, 6, 7, 8, 9],
});

const wrench = (frame: string): WrenchStamped => ({
  header: header(frame),
  wrench: { force: { x: 1, y: -2.5, z: 1000 }, torque: { x: 0, y: 0.125, z: -0 } },
});

const cameraInfo = (frame: string, d: number[]): CameraInfo => ({
  header: header(frame),
  height: 480,
  width: 640,
  distortion_model: 'plumb_bob',
  d,
  k: [500, 0, 319.5, 0, 500, 239.5, 0, 0, 1],
  r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  p: [500, 0, 319.5, 0, 0, 500, 239.5, 0, 0, 0, 1, 0],
  binning_x: 0,
  binning_y: 1,
  roi: { x_offset: 1, y_offset: 2, height: 3, width: 4, do_rectify: true },
});

const tf = (ids: string[]): TFMessage => ({
  transforms: ids.map((id, i) => ({
    header: header(i % 2 ? NON_ASCII : 'base_link', 1, i),
    child_frame_id: id,
    transform: { translation: { x: i, y: -i / 3, z: 0.5 }, rotation: { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 } },
  })),
});

const jointState = (names: string[], velocity: number[] = [], effort: number[] = []): JointState => ({
  header: header('', 7, 999_999_999),
  name: names,
  position: names.map((_, i) => i * 0.1 - 1),
  velocity,
  effort,
});

// [type, case name, message, our writer]
const written: [string, string, unknown, (m: never) => Uint8Array][] = [
  ...images.map(([n, m]): [string, string, unknown, (m: never) => Uint8Array] => ['sensor_msgs/msg/Image', n, m, writeImage]),
  ...clouds.map(([n, m]): [string, string, unknown, (m: never) => Uint8Array] => ['sensor_msgs/msg/PointCloud2', n, m, writePointCloud2]),
  ...scans.map(([n, m]): [string, string, unknown, (m: never) => Uint8Array] => ['sensor_msgs/msg/LaserScan', n, m, writeLaserScan]),
  ['sensor_msgs/msg/Imu', 'measured and unmeasured', imu('imu'), writeImu],
  ['sensor_msgs/msg/Imu', 'non-ASCII frame', imu(NON_ASCII), writeImu],
  ['geometry_msgs/msg/WrenchStamped', 'plain', wrench('ft'), writeWrenchStamped],
  ['geometry_msgs/msg/WrenchStamped', 'odd-length non-ASCII frame', wrench(NON_ASCII + 'x'), writeWrenchStamped],
  ['sensor_msgs/msg/CameraInfo', 'no distortion coefficients', cameraInfo('cam', []), writeCameraInfo],
  ['sensor_msgs/msg/CameraInfo', 'plumb_bob, non-ASCII frame', cameraInfo(NON_ASCII, [0.1, 0, 0, 0, -0.2]), writeCameraInfo],
  ['tf2_msgs/msg/TFMessage', 'no transforms', tf([]), writeTfMessage],
  ['tf2_msgs/msg/TFMessage', 'odd and non-ASCII frame ids', tf(['a', 'link_12', NON_ASCII, 'x'.repeat(257)]), writeTfMessage],
  ['sensor_msgs/msg/JointState', 'no joints', jointState([]), writeJointState],
  ['sensor_msgs/msg/JointState', 'odd names, velocity and effort', jointState(['j', 'joint_two', NON_ASCII], [1, 2, 3], [0.5, 0, -1]), writeJointState],
];

describe('CDR writers against @foxglove/rosmsg2-serialization', () => {
  it.each(written)('%s: %s', (type, _name, message, write) => {
    const ours = write(message as never);
    // Byte for byte what the independent writer produces (little-endian CDR, zeroed padding), where
    // that writer is right …
    if (asciiOnly(message)) expect(Buffer.from(ours).equals(Buffer.from(peerEncode(type, message)))).toBe(true);
    // … and decoding to the message we meant.
    expect(plain(peerDecode(type, ours))).toEqual(plain(message));
  });

  it('keeps writing the same bytes with its cache of encoded frame ids', () => {
    const write = tfMessageWriter();
    const a = tf(['a', NON_ASCII]);
    const b = tf([NON_ASCII, 'b', 'a']);
    for (const m of [a, b, a]) expect(plain(peerDecode('tf2_msgs/msg/TFMessage', write(m.transforms)))).toEqual(plain(m));
  });
});

/**
 * A message's bytes from the independent writer; for non-ASCII strings, which it garbles, from ours,
 * whose output the independent reader has checked above.
 */
const WRITERS: Record<string, (m: never) => Uint8Array> = {
  'sensor_msgs/msg/Image': writeImage,
  'sensor_msgs/msg/PointCloud2': writePointCloud2,
  'sensor_msgs/msg/LaserScan': writeLaserScan,
  'sensor_msgs/msg/Imu': writeImu,
  'geometry_msgs/msg/WrenchStamped': writeWrenchStamped,
  'sensor_msgs/msg/JointState': writeJointState,
  'tf2_msgs/msg/TFMessage': writeTfMessage,
};
const encode = (type: string, m: unknown): Uint8Array => {
  if (asciiOnly(m)) return peerEncode(type, m);
  const bytes = WRITERS[type]!(m as never);
  expect(plain(peerDecode(type, bytes))).toEqual(plain(m));
  return bytes;
};

describe('CDR readers against @foxglove/rosmsg2-serialization', () => {
  it.each(images)('Image: %s, pixels viewed in place', (_name, m) => {
    const bytes = encode('sensor_msgs/msg/Image', m);
    const read = readImage(bytes);
    expect(plain(read)).toEqual(plain(m));
    expect(read.data.buffer).toBe(bytes.buffer);
  });

  it.each(clouds)('PointCloud2: %s, points viewed in place', (_name, m) => {
    const bytes = encode('sensor_msgs/msg/PointCloud2', m);
    const read = readPointCloud2(bytes);
    expect(plain(read)).toEqual(plain(m));
    expect(read.data.buffer).toBe(bytes.buffer);
  });

  it.each(scans)('LaserScan: %s', (_name, m) => {
    const read = readLaserScan(encode('sensor_msgs/msg/LaserScan', m));
    expect(read).toEqual({ header: m.header, ranges: m.ranges });
  });

  it('Imu: the header and the two measured vectors', () => {
    for (const m of [imu('imu'), imu(NON_ASCII)]) {
      expect(readImu(encode('sensor_msgs/msg/Imu', m))).toEqual({ header: m.header, angular_velocity: m.angular_velocity, linear_acceleration: m.linear_acceleration });
    }
  });

  it('TFMessage: empty, odd and non-ASCII frame ids', () => {
    for (const m of [tf([]), tf(['a', 'link_12', NON_ASCII, 'x'.repeat(257)])]) expect(readTfMessage(encode('tf2_msgs/msg/TFMessage', m))).toEqual(m);
  });

  it('WrenchStamped', () => {
    for (const m of [wrench('ft'), wrench(NON_ASCII + 'x')]) expect(readWrenchStamped(encode('geometry_msgs/msg/WrenchStamped', m))).toEqual(m);
  });

  it('JointState: stamp, names and positions, names decoded again only when their bytes change', () => {
    const read = jointStateReader();
    const names = ['j', 'joint_two', NON_ASCII, 'z'.repeat(63)];
    const first = read(encode('sensor_msgs/msg/JointState', jointState(names, [1, 2, 3, 4], [])));
    expect(first.header).toEqual(header('', 7, 999_999_999));
    expect(first.name).toEqual(names);
    expect(Array.from(first.position)).toEqual(jointState(names).position);
    const m2 = { ...jointState(names), position: [4, 3, 2, 1] };
    const second = read(encode('sensor_msgs/msg/JointState', m2));
    expect(second.name).toBe(first.name); // the same array: no string built for this message
    expect(Array.from(second.position)).toEqual([4, 3, 2, 1]);
    // One byte of one name differs: decoded afresh.
    const changed = [...names.slice(0, 3), 'z'.repeat(62) + 'y'];
    const third = read(encode('sensor_msgs/msg/JointState', jointState(changed)));
    expect(third.name).toEqual(changed);
    expect(third.name).not.toBe(first.name);
    // Fewer names whose bytes are a prefix of the cached ones.
    expect(read(encode('sensor_msgs/msg/JointState', jointState(changed.slice(0, 2)))).name).toEqual(changed.slice(0, 2));
    expect(read(encode('sensor_msgs/msg/JointState', jointState([]))).name).toEqual([]);
  });

  it('JointState: a frame_id of any length, a changing count and big-endian bytes read as the peer wrote them', () => {
    const read = jointStateReader();
    for (const frame of ['base', 'b', 'ab', 'abc', NON_ASCII]) {
      for (const names of [['a'], ['a', 'bb', 'ccc'], []]) {
        const m = { ...jointState(names, [1], [2, 3]), header: header(frame, 3, 4) };
        const got = read(encode('sensor_msgs/msg/JointState', m));
        expect(got.header, `${frame} ${names}`).toEqual(m.header);
        expect(got.name).toEqual(names);
        expect(Array.from(got.position)).toEqual(m.position);
      }
    }
    // JointState {stamp 5.6, frame_id "b", name ["a"], position [1.5], velocity [], effort []} in CDR_BE, by hand.
    const be = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 2, 0x62, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0x61, 0, 0, 0, 0, 0, 0, 1, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect(plain(peerDecode('sensor_msgs/msg/JointState', be))).toEqual(plain({ header: header('b', 5, 6), name: ['a'], position: [1.5], velocity: [], effort: [] }));
    const got = read(be);
    expect([got.header, got.name, Array.from(got.position)]).toEqual([header('b', 5, 6), ['a'], [1.5]]);
  });

  it('JointState: the name cache holds its own copy, so a transport reusing its buffer cannot fool it', () => {
    const read = jointStateReader();
    const bytes = Buffer.from(encode('sensor_msgs/msg/JointState', jointState(['alpha', 'beta'])));
    expect(read(bytes).name).toEqual(['alpha', 'beta']);
    bytes.set(new TextEncoder().encode('gamma'), bytes.indexOf('alpha'));
    expect(read(bytes).name).toEqual(['gamma', 'beta']);
  });
});

describe('CDR readers on bad bytes', () => {
  const readers: [string, unknown, (b: Uint8Array) => unknown][] = [
    ['sensor_msgs/msg/Image', images[2]![1], readImage],
    ['sensor_msgs/msg/PointCloud2', clouds[1]![1], readPointCloud2],
    ['sensor_msgs/msg/LaserScan', scans[2]![1], readLaserScan],
    ['sensor_msgs/msg/Imu', imu('imu'), readImu],
    ['geometry_msgs/msg/WrenchStamped', wrench('ft'), readWrenchStamped],
    ['sensor_msgs/msg/JointState', jointState(['a', 'bb', 'ccc']), jointStateReader()],
    ['tf2_msgs/msg/TFMessage', tf(['a', 'bb']), readTfMessage],
  ];

  it.each(readers)('%s: every truncation is a CdrError, never a read past the end', (type, message, read) => {
    const bytes = encode(type, message);
    // Inside a larger buffer, as a transport's pool would hand it over: the bytes after the message
    // must not be taken for its tail.
    const pool = new Uint8Array(bytes.length + 64).fill(0x41);
    pool.set(bytes);
    for (let n = 0; n < bytes.length; n++) {
      let error: unknown = null;
      try {
        read(pool.subarray(0, n));
      } catch (e) {
        error = e;
      }
      // Trailing padding or unread fields may be cut without harm: then the result must still be right.
      if (error === null) continue;
      expect(error, `${type} cut to ${n} bytes`).toBeInstanceOf(CdrError);
    }
  });

  it('a length far past the end and an unknown encapsulation are CdrErrors', () => {
    const bytes = encode('sensor_msgs/msg/Image', images[1]![1]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(bytes.length - 9 - 4, 0xffffffff, true); // data's length
    expect(() => readImage(huge)).toThrow(CdrError);
    const pl = bytes.slice();
    pl[1] = 3; // PL_CDR_LE
    expect(() => readImage(pl)).toThrow(/encapsulation/);
    expect(view.getUint8(1)).toBe(1);
  });

  it('big-endian CDR reads as well', () => {
    // The same Image written big-endian by hand: encapsulation CDR_BE, then the fields in order.
    const frame = new TextEncoder().encode('cam');
    const parts: number[] = [0, 0, 0, 0];
    const u32 = (v: number) => parts.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
    const pad = (n: number) => {
      while ((parts.length - 4) % n) parts.push(0);
    };
    u32(5);
    u32(6);
    u32(frame.length + 1);
    parts.push(...frame, 0);
    pad(4);
    u32(1);
    u32(2);
    u32(6);
    parts.push(...new TextEncoder().encode('mono8'), 0);
    parts.push(0);
    pad(4);
    u32(2);
    u32(2);
    parts.push(9, 8);
    const read = readImage(Uint8Array.from(parts));
    expect(read).toEqual({ header: header('cam', 5, 6), height: 1, width: 2, encoding: 'mono8', is_bigendian: 0, step: 2, data: Uint8Array.of(9, 8) });
  });
});
