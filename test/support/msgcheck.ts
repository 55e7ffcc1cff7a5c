// Strict check of a plain message object against the ROS 2 .msg definitions shipped in
// @foxglove/rosmsg-msgs-common (Jazzy; Humble's definitions of these types are the same): every
// field present with the right primitive type and range, fixed-size arrays of exactly their length,
// no unknown fields, plus the consistency rules the .msg comments state for Image, PointCloud2,
// CameraInfo and LaserScan. Returns a list of problems; empty means the message is valid.
// Exported for every test that checks published messages (devices, TF, joint states, strings).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@foxglove/rosmsg';
import { ros2humble, ros2jazzy } from '@foxglove/rosmsg-msgs-common';
import { findMessagePackages } from './peers.js';

interface FieldDef {
  name: string;
  type: string;
  isComplex?: boolean;
  isArray?: boolean;
  arrayLength?: number;
  arrayUpperBound?: number;
  isConstant?: boolean;
}
type Definitions = Record<string, { name: string; definitions: FieldDef[] }>;

/** The packages of moveit_msgs/PlanningScene's closure that @foxglove/rosmsg-msgs-common does not carry. */
export const INSTALLED_ONLY = ['moveit_msgs', 'octomap_msgs', 'object_recognition_msgs'] as const;

/**
 * Their definitions as the sourced ROS 2 installed them (share/<package>/msg/*.msg), parsed by @foxglove/rosmsg;
 * empty without a ROS 2 that has them (findMessagePackages says why). A type named without its package
 * (`RobotState` in PlanningScene.msg) is of the file's own package, as in rosidl.
 */
export function installedDefinitions(dirs: Record<string, string>): Definitions {
  const out: Definitions = {};
  for (const [pkg, dir] of Object.entries(dirs)) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.msg'))) {
      const name = `${pkg}/${file.slice(0, -'.msg'.length)}`;
      const [def] = parse(readFileSync(join(dir, file), 'utf8'), { ros2: true, skipTypeFixup: true });
      const definitions = def!.definitions.map((f) => (f.isComplex && !f.type.includes('/') ? { ...f, type: `${pkg}/${f.type}` } : f));
      out[name] = { name, definitions: definitions as FieldDef[] };
    }
  }
  return out;
}

/** The installed moveit_msgs closure: a peer lookup for the tests that check those messages. */
export const installedMoveitMessages = findMessagePackages(INSTALLED_ONLY);
const installed = installedMoveitMessages.ok ? installedDefinitions(installedMoveitMessages.dirs) : {};

export type Distro = 'jazzy' | 'humble';
// The installed definitions are of the one sourced distribution; a check against the other distribution
// of a type only they define reads them too (moveit_msgs' fields are the same on Humble and Jazzy).
const DISTROS: Record<Distro, Definitions> = {
  jazzy: { ...(ros2jazzy as unknown as Definitions), ...installed },
  humble: { ...(ros2humble as unknown as Definitions), ...installed },
};

/** `sensor_msgs/msg/Image` (rclnodejs spelling) and `sensor_msgs/Image` both name the same type. */
export const normalizeType = (type: string): string => type.replace('/msg/', '/');

const INT_RANGES: Record<string, [number, number]> = {
  int8: [-128, 127],
  uint8: [0, 255],
  byte: [0, 255],
  char: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

const TYPED_ARRAYS: Record<string, (v: unknown) => boolean> = {
  uint8: (v) => v instanceof Uint8Array,
  int8: (v) => v instanceof Int8Array,
  uint16: (v) => v instanceof Uint16Array,
  int16: (v) => v instanceof Int16Array,
  uint32: (v) => v instanceof Uint32Array,
  int32: (v) => v instanceof Int32Array,
  float32: (v) => v instanceof Float32Array,
  float64: (v) => v instanceof Float64Array,
};

function checkPrimitive(type: string, value: unknown, path: string, out: string[]): void {
  const range = INT_RANGES[type];
  if (range) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1]) {
      out.push(`${path}: expected ${type}, got ${describe(value)}`);
    }
    return;
  }
  switch (type) {
    case 'bool':
      if (typeof value !== 'boolean') out.push(`${path}: expected bool, got ${describe(value)}`);
      return;
    case 'float32':
    case 'float64':
      if (typeof value !== 'number') out.push(`${path}: expected ${type}, got ${describe(value)}`);
      return;
    case 'int64':
    case 'uint64':
      if (!(typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) || (type === 'uint64' && Number(value) < 0)) {
        out.push(`${path}: expected ${type}, got ${describe(value)}`);
      }
      return;
    case 'string':
    case 'wstring':
      if (typeof value !== 'string') out.push(`${path}: expected string, got ${describe(value)}`);
      return;
    case 'time':
    case 'duration':
      checkObject(
        [
          { name: 'sec', type: 'int32' },
          { name: 'nanosec', type: 'uint32' },
        ],
        value,
        path,
        out,
        {},
      );
      if (isRecord(value) && typeof value.nanosec === 'number' && value.nanosec >= 1e9) out.push(`${path}.nanosec: ${value.nanosec} ≥ 1e9`);
      return;
    default:
      out.push(`${path}: unknown primitive type ${type}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `array(${v.length})`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}`;
  if (typeof v === 'object') return 'object';
  return `${typeof v} ${String(v)}`;
}

function checkField(f: FieldDef, value: unknown, path: string, out: string[], defs: Definitions): void {
  if (value === undefined) {
    out.push(`${path}: missing`);
    return;
  }
  const element = (v: unknown, p: string): void => {
    if (f.isComplex) {
      const sub = defs[f.type];
      if (!sub) out.push(`${p}: unknown type ${f.type}`);
      else checkObject(sub.definitions, v, p, out, defs);
    } else {
      checkPrimitive(f.type, v, p, out);
    }
  };
  if (!f.isArray) {
    element(value, path);
    return;
  }
  let items: ArrayLike<unknown>;
  if (Array.isArray(value)) {
    items = value;
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const ok = TYPED_ARRAYS[f.type]?.(value) ?? false;
    if (!ok) {
      out.push(`${path}: ${value.constructor.name} cannot carry ${f.type}[]`);
      return;
    }
    items = value as unknown as ArrayLike<unknown>;
  } else {
    out.push(`${path}: expected ${f.type}[], got ${describe(value)}`);
    return;
  }
  if (f.arrayLength !== undefined && items.length !== f.arrayLength) {
    out.push(`${path}: expected exactly ${f.arrayLength} elements, got ${items.length}`);
  }
  if (f.arrayUpperBound !== undefined && items.length > f.arrayUpperBound) {
    out.push(`${path}: more than ${f.arrayUpperBound} elements (${items.length})`);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < items.length; i++) element(items[i], `${path}[${i}]`);
  }
}

function checkObject(fields: FieldDef[], value: unknown, path: string, out: string[], defs: Definitions): void {
  if (!isRecord(value)) {
    out.push(`${path}: expected a message object, got ${describe(value)}`);
    return;
  }
  const known = new Set<string>();
  for (const f of fields) {
    if (f.isConstant) continue;
    known.add(f.name);
    checkField(f, value[f.name], `${path}.${f.name}`, out, defs);
  }
  for (const key of Object.keys(value)) {
    if (!known.has(key)) out.push(`${path}.${key}: not a field of the message`);
  }
}

/** Bytes per pixel of the encodings sensor_msgs/image_encodings defines and we may publish or receive. */
const ENCODING_BYTES: Record<string, number> = {
  rgb8: 3,
  bgr8: 3,
  rgba8: 4,
  bgra8: 4,
  mono8: 1,
  mono16: 2,
  '8UC1': 1,
  '8UC3': 3,
  '16UC1': 2,
  '32FC1': 4,
  '64FC1': 8,
};
const POINT_FIELD_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 8: 8 };
const DISTORTION_LENGTH: Record<string, number> = { plumb_bob: 5, rational_polynomial: 8, equidistant: 4 };

const lengthOf = (v: unknown): number => (Array.isArray(v) || ArrayBuffer.isView(v) ? (v as ArrayLike<unknown>).length : -1);

/** The invariants each type's .msg comments state, beyond the field types. */
function checkSemantics(type: string, m: Record<string, unknown>, out: string[]): void {
  const num = (k: string): number => (typeof m[k] === 'number' ? (m[k] as number) : NaN);
  if ('header' in m && isRecord(m.header) && type !== 'sensor_msgs/JointState' && m.header.frame_id === '') {
    out.push('header.frame_id: empty (sensor data must name the frame it is expressed in)');
  }
  switch (type) {
    case 'sensor_msgs/Image': {
      const bpp = ENCODING_BYTES[String(m.encoding)];
      if (bpp === undefined) out.push(`encoding: unknown "${String(m.encoding)}"`);
      else if (num('step') < num('width') * bpp) out.push(`step ${num('step')} < width × ${bpp}`);
      if (lengthOf(m.data) !== num('step') * num('height')) out.push(`data length ${lengthOf(m.data)} ≠ step × height = ${num('step') * num('height')}`);
      break;
    }
    case 'sensor_msgs/PointCloud2': {
      const step = num('point_step');
      const fields = Array.isArray(m.fields) ? (m.fields as Record<string, number | string>[]) : [];
      const names = new Set<string>();
      for (const f of fields) {
        const size = POINT_FIELD_BYTES[f.datatype as number];
        if (size === undefined) out.push(`fields.${String(f.name)}: datatype ${String(f.datatype)} is not a PointField constant`);
        else if ((f.offset as number) + size * (f.count as number) > step) out.push(`fields.${String(f.name)}: offset ${String(f.offset)} + ${size}×${String(f.count)} exceeds point_step ${step}`);
        if (!((f.count as number) >= 1)) out.push(`fields.${String(f.name)}: count ${String(f.count)}`);
        if (names.has(String(f.name))) out.push(`fields: duplicate "${String(f.name)}"`);
        names.add(String(f.name));
      }
      if (num('row_step') !== step * num('width')) out.push(`row_step ${num('row_step')} ≠ point_step × width = ${step * num('width')}`);
      if (lengthOf(m.data) !== num('row_step') * num('height')) out.push(`data length ${lengthOf(m.data)} ≠ row_step × height = ${num('row_step') * num('height')}`);
      break;
    }
    case 'sensor_msgs/CameraInfo': {
      const expected = DISTORTION_LENGTH[String(m.distortion_model)];
      if (expected !== undefined && lengthOf(m.d) !== expected) out.push(`d: ${String(m.distortion_model)} needs ${expected} coefficients, got ${lengthOf(m.d)}`);
      const k = m.k as number[];
      if (Array.isArray(k) && k.length === 9 && k[0] !== 0 && (k[8] !== 1 || k[3] !== 0 || k[6] !== 0 || k[7] !== 0)) out.push('k: not an upper-triangular camera matrix with k[8] = 1');
      break;
    }
    case 'sensor_msgs/LaserScan': {
      const n = lengthOf(m.ranges);
      const inc = num('angle_increment');
      const span = num('angle_min') + Math.max(0, n - 1) * inc;
      if (n > 0 && Math.abs(span - num('angle_max')) > 1e-5 * Math.max(1, Math.abs(num('angle_max')))) {
        out.push(`angle_max ${num('angle_max')} ≠ angle_min + (n − 1)·angle_increment = ${span}`);
      }
      const ni = lengthOf(m.intensities);
      if (ni !== 0 && ni !== n) out.push(`intensities: ${ni} values for ${n} ranges`);
      if (!(num('range_min') <= num('range_max'))) out.push('range_min > range_max');
      break;
    }
    case 'sensor_msgs/JointState': {
      const n = lengthOf(m.name);
      for (const k of ['position', 'velocity', 'effort']) {
        const l = lengthOf(m[k]);
        if (l !== 0 && l !== n) out.push(`${k}: ${l} values for ${n} names`);
      }
      break;
    }
    case 'tf2_msgs/TFMessage': {
      const transforms = Array.isArray(m.transforms) ? (m.transforms as Record<string, Record<string, Record<string, number>>>[]) : [];
      transforms.forEach((t, i) => {
        const q = t.transform?.rotation;
        if (q && Math.abs(Math.hypot(q.x ?? NaN, q.y ?? NaN, q.z ?? NaN, q.w ?? NaN) - 1) > 1e-6) out.push(`transforms[${i}].transform.rotation: not a unit quaternion`);
        if ((t as unknown as { child_frame_id: string }).child_frame_id === '') out.push(`transforms[${i}].child_frame_id: empty`);
      });
      break;
    }
    default:
      break;
  }
}

/** Problems of `message` as a `type` message (`pkg/msg/Type` or `pkg/Type`); [] when valid. */
export function checkMessage(type: string, message: unknown, distro: Distro = 'jazzy'): string[] {
  const defs = DISTROS[distro];
  const name = normalizeType(type);
  const def = defs[name];
  if (!def) return [`${type}: no such message type in ROS 2 ${distro}`];
  const out: string[] = [];
  checkObject(def.definitions, message, name, out, defs);
  if (out.length === 0 && isRecord(message)) checkSemantics(name, message, out);
  return out;
}
