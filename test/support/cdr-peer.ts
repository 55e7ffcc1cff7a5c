// The independent CDR codec the node's own is checked against: @foxglove/rosmsg2-serialization driven
// by the ROS 2 Humble .msg definitions shipped in @foxglove/rosmsg-msgs-common.
import { createHash } from 'node:crypto';
import { ros2humble } from '@foxglove/rosmsg-msgs-common';
import { MessageReader, MessageWriter } from '@foxglove/rosmsg2-serialization';

type Definition = { name?: string; definitions: { type: string; isComplex?: boolean }[] };
const DEFINITIONS = ros2humble as unknown as Record<string, Definition>;

/** `sensor_msgs/msg/Image` (rclnodejs spelling) and `sensor_msgs/Image` name the same type. */
const normalize = (type: string): string => type.replace('/msg/', '/');

/** The root definition followed by every complex type it reaches, as MessageReader/Writer want them. */
function definitionsOf(type: string): Definition[] {
  const root = DEFINITIONS[normalize(type)];
  if (!root) throw new Error(`no Humble definition for ${type}`);
  const out: Definition[] = [{ definitions: root.definitions }];
  const seen = new Set<string>();
  const visit = (d: Definition): void => {
    for (const f of d.definitions) {
      if (!f.isComplex || seen.has(f.type)) continue;
      seen.add(f.type);
      const sub = DEFINITIONS[f.type];
      if (!sub) throw new Error(`no Humble definition for ${f.type}`);
      out.push({ name: f.type, definitions: sub.definitions });
      visit(sub);
    }
  };
  visit(root);
  return out;
}

const readers = new Map<string, MessageReader>();
const writers = new Map<string, MessageWriter>();

export function peerDecode<T = Record<string, unknown>>(type: string, bytes: Uint8Array): T {
  let r = readers.get(type);
  if (!r) readers.set(type, (r = new MessageReader(definitionsOf(type) as never)));
  return r.readMessage<T>(bytes);
}

/**
 * Whether the peer's writer can be trusted with `message`: @foxglove/cdr's CdrWriter.string sizes a
 * string by its UTF-16 length, so a non-ASCII string comes out cut short (its reader is right).
 */
export function asciiOnly(message: unknown): boolean {
  if (typeof message === 'string') return /^[\x00-\x7f]*$/.test(message);
  if (ArrayBuffer.isView(message)) return true;
  if (Array.isArray(message)) return message.every(asciiOnly);
  if (message && typeof message === 'object') return Object.values(message).every(asciiOnly);
  return true;
}

export function peerEncode(type: string, message: unknown): Uint8Array {
  if (!asciiOnly(message)) throw new Error('the peer writer garbles non-ASCII strings (see asciiOnly)');
  let w = writers.get(type);
  if (!w) writers.set(type, (w = new MessageWriter(definitionsOf(type) as never)));
  return w.writeMessage(message);
}

/**
 * Typed arrays as plain arrays, so decoded messages compare with hand-written ones; byte payloads as
 * their length and digest, which compare megabytes at once.
 */
export function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return `${value.byteLength} bytes, sha1 ${createHash('sha1').update(value).digest('hex')}`;
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** float64[] as the plain arrays our message shapes declare; float32[] and uint8[] stay typed. */
function asShapes(value: unknown): unknown {
  if (value instanceof Float64Array) return Array.from(value);
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map(asShapes);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asShapes(v)]));
  return value;
}

/**
 * The memory transport's codec for tests: what the node publishes as bytes is decoded, and what a test
 * injects is encoded, by the independent implementation. Non-ASCII strings, which its writer garbles,
 * are refused rather than sent wrong.
 */
export const peerCodec = {
  decode: (type: string, bytes: Uint8Array): unknown => asShapes(peerDecode(type, bytes)),
  encode: (type: string, message: unknown): Uint8Array => peerEncode(type, message),
};
