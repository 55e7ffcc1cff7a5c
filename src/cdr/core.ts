// What every codec shares: reading with @foxglove/cdr's CdrReader behind bounds checks (a hostile
// length must give a clear error, not a view into whatever follows the message in rclnodejs's buffer),
// and writing plain CDR (XCDR1, little-endian, as rmw_cyclonedds and rmw_fastrtps write it) in two
// passes over the same code: the first only measures, so the buffer is allocated once at its exact
// size and large payloads are copied once.
import { Buffer } from 'node:buffer';
import { CdrReader } from '@foxglove/cdr';
import type { Header, Time } from '../messages/messages.js';

/** The 4-byte encapsulation header; alignment counts from its end. */
const ENCAPSULATION_BYTES = 4;

/** A message's bytes are not what the codec expects (truncated, a length past the end, an unknown encapsulation). */
export class CdrError extends Error {
  override name = 'CdrError';
}

/** A reader over one serialized message; throws CdrError for anything but plain CDR (XCDR1) in either byte order. */
export function cdrReader(bytes: Uint8Array, type: string): CdrReader {
  if (bytes.byteLength < ENCAPSULATION_BYTES) throw new CdrError(`${type}: ${bytes.byteLength} bytes is no CDR message`);
  // CDR_BE = 0, CDR_LE = 1; the parameter-list and XCDR2 kinds are not what ROS 2's rmw layers send for these types.
  if (bytes[0] !== 0 || (bytes[1] !== 0 && bytes[1] !== 1)) {
    throw new CdrError(`${type}: unsupported CDR encapsulation 0x${bytes[0]!.toString(16)}${bytes[1]!.toString(16).padStart(2, '0')}`);
  }
  return new CdrReader(bytes);
}

function need(r: CdrReader, bytes: number, what: string): void {
  if (bytes > r.byteLength - r.offset) throw new CdrError(`${what}: needs ${bytes} bytes, ${Math.max(0, r.byteLength - r.offset)} left`);
}

/** Padding before a field aligned to `n`. */
const padding = (r: CdrReader, n: number): number => (n - ((r.offset - ENCAPSULATION_BYTES) % n)) % n;

/** A uint32 (a length or count), checked to be there. */
function readLength(r: CdrReader, what: string): number {
  need(r, padding(r, 4) + 4, what);
  return r.uint32();
}

/**
 * A sequence's element count, checked against the bytes left: each element takes at least
 * `elementBytes`, after padding the first to `alignment`.
 */
export function readCount(r: CdrReader, elementBytes: number, what: string, alignment = 1): number {
  const n = readLength(r, what);
  if (n > 0) need(r, padding(r, alignment) + n * elementBytes, what);
  return n;
}

export function readString(r: CdrReader, what: string): string {
  const length = readLength(r, what);
  need(r, length, what);
  return r.string(length);
}

/** A uint8[] as a view on the message's own bytes (no copy): valid as long as those bytes are. */
export function readBytes(r: CdrReader, what: string): Uint8Array {
  const n = readCount(r, 1, what);
  return r.uint8Array(n);
}

export function readFloat64s(r: CdrReader, what: string): Float64Array {
  return r.float64Array(readCount(r, 8, what, 8));
}

export function readFloat32s(r: CdrReader, what: string): Float32Array {
  return r.float32Array(readCount(r, 4, what, 4));
}

/** Reads fixed-size fields; DataView throws RangeError past the end, which reads as a truncated message. */
export function fixed<T>(r: CdrReader, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) throw new CdrError(`${what}: message ends early (${r.byteLength} bytes)`);
    throw error;
  }
}

function readTime(r: CdrReader, what: string): Time {
  return fixed(r, what, () => ({ sec: r.int32(), nanosec: r.uint32() }));
}

export function readHeader(r: CdrReader, type: string): Header {
  const stamp = readTime(r, `${type}.header.stamp`);
  return { stamp, frame_id: readString(r, `${type}.header.frame_id`) };
}

/**
 * The output of one message. `view` is null in the measuring pass: every write function then only
 * moves `offset`, so measuring and writing cannot disagree.
 */
export interface CdrOut {
  offset: number;
  view: DataView | null;
  bytes: Uint8Array | null;
}

const LITTLE = true;

/** Pads to `n` (counted from the end of the encapsulation header), zeroing the padding. */
function align(o: CdrOut, n: number): void {
  const pad = (n - ((o.offset - ENCAPSULATION_BYTES) % n)) % n;
  if (pad > 0 && o.bytes) o.bytes.fill(0, o.offset, o.offset + pad);
  o.offset += pad;
}

export function u8(o: CdrOut, v: number): void {
  o.view?.setUint8(o.offset, v);
  o.offset += 1;
}

export function u32(o: CdrOut, v: number): void {
  align(o, 4);
  o.view?.setUint32(o.offset, v, LITTLE);
  o.offset += 4;
}

function i32(o: CdrOut, v: number): void {
  align(o, 4);
  o.view?.setInt32(o.offset, v, LITTLE);
  o.offset += 4;
}

export function f32(o: CdrOut, v: number): void {
  align(o, 4);
  o.view?.setFloat32(o.offset, v, LITTLE);
  o.offset += 4;
}

export function f64(o: CdrOut, v: number): void {
  align(o, 8);
  o.view?.setFloat64(o.offset, v, LITTLE);
  o.offset += 8;
}

/** A fixed-size float64[N] (no length), e.g. a covariance. */
export function f64Fixed(o: CdrOut, values: ArrayLike<number>, n: number): void {
  if (values.length !== n) throw new CdrError(`expected ${n} values, got ${values.length}`);
  for (let i = 0; i < n; i++) f64(o, values[i]!);
}

export function f64Seq(o: CdrOut, values: ArrayLike<number>): void {
  u32(o, values.length);
  if (values.length > 0) align(o, 8);
  if (!o.view) {
    o.offset += 8 * values.length;
    return;
  }
  for (let i = 0; i < values.length; i++, o.offset += 8) o.view.setFloat64(o.offset, values[i]!, LITTLE);
}

export function f32Seq(o: CdrOut, values: ArrayLike<number>): void {
  u32(o, values.length);
  if (!o.view) {
    o.offset += 4 * values.length;
    return;
  }
  for (let i = 0; i < values.length; i++, o.offset += 4) o.view.setFloat32(o.offset, values[i]!, LITTLE);
}

/** A uint8[]: the payload's one copy. */
export function byteSeq(o: CdrOut, data: Uint8Array): void {
  u32(o, data.byteLength);
  o.bytes?.set(data, o.offset);
  o.offset += data.byteLength;
}

const encoder = new TextEncoder();

/** A string's CDR content (UTF-8), to be encoded once and written many times. */
export const utf8 = (s: string): Uint8Array => encoder.encode(s);

/** A string already encoded as UTF-8: length (with the terminating NUL), bytes, NUL. */
function encodedString(o: CdrOut, encoded: Uint8Array): void {
  u32(o, encoded.byteLength + 1);
  if (o.bytes) {
    o.bytes.set(encoded, o.offset);
    o.bytes[o.offset + encoded.byteLength] = 0;
  }
  o.offset += encoded.byteLength + 1;
}

export function string(o: CdrOut, s: string): void {
  encodedString(o, utf8(s));
}

export function time(o: CdrOut, t: Time): void {
  i32(o, t.sec);
  u32(o, t.nanosec);
}

export function header(o: CdrOut, h: Header): void {
  time(o, h.stamp);
  string(o, h.frame_id);
}

/**
 * Runs `write` once to measure and once into a buffer of exactly that size: `into` when it has that
 * size (a publisher's previous output, which the transport has copied), else a new one. The buffer is
 * not zeroed (every byte is written: fields, payload copies and padding), and is a Node Buffer so a
 * transport can hand it to rclnodejs as it is.
 */
export function serialize(write: (o: CdrOut) => void, into?: Uint8Array): Uint8Array {
  const measure: CdrOut = { offset: ENCAPSULATION_BYTES, view: null, bytes: null };
  write(measure);
  const bytes = into !== undefined && into.byteLength === measure.offset ? into : Buffer.allocUnsafe(measure.offset);
  bytes[0] = 0;
  bytes[1] = 1; // CDR_LE
  bytes[2] = 0;
  bytes[3] = 0;
  const out: CdrOut = { offset: ENCAPSULATION_BYTES, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes };
  write(out);
  if (out.offset !== measure.offset) throw new Error(`CDR writer wrote ${out.offset} bytes after measuring ${measure.offset}`);
  return bytes;
}
