// sensor_msgs/JointState. The node reads it at the publisher's rate (1 kHz is common), so the reader
// takes only the stamp, the names and the positions, and decodes the names only when their bytes
// differ from the previous message's: a publisher sends the same names in the same order every time,
// and then no string is built per name per message.
import { Buffer } from 'node:buffer';
import type { JointState, Time } from '../messages/messages.js';
import { type CdrOut, cdrReader, CdrError, f64Seq, header, readCount, readFloat64s, readHeader, readString, serialize, string, u32 } from './core.js';

const TYPE = 'sensor_msgs/JointState';

/** What the node needs of a JointState: views valid only until the reader's next message. */
export interface JointStateView {
  header: { stamp: Time; frame_id: string };
  /** Shared between messages with the same names: never modify it. */
  name: readonly string[];
  /** The reader's own array, written over by its next message. */
  position: Float64Array;
}

const decoder = new TextDecoder();
const align4 = (o: number): number => (o + 3) & ~3; // offsets from the buffer's start: the encapsulation header is 4 bytes
const align8 = (o: number): number => ((o + 3) & ~7) + 4;

function ends(what: string, bytes: Uint8Array): CdrError {
  return new CdrError(`${TYPE}.${what}: message ends early (${bytes.byteLength} bytes)`);
}

/**
 * Walks the names' lengths without decoding them; returns where the sequence ends. (DataView reads in a
 * plain loop: this runs per name per message, so no closures or reader calls.)
 */
function skipNames(bytes: Uint8Array, view: DataView, little: boolean, start: number, count: number): number {
  let o = start;
  for (let i = 0; i < count; i++) {
    o = align4(o);
    if (o + 4 > bytes.byteLength) throw ends(`name[${i}]`, bytes);
    const length = view.getUint32(o, little);
    o += 4 + length;
    if (o > bytes.byteLength) throw new CdrError(`${TYPE}.name[${i}]: needs ${length} bytes, ${bytes.byteLength - o + length} left`);
  }
  return o;
}


/**
 * A reader that remembers the last names it decoded and reuses its positions array; one per subscription.
 * It runs once per message at the publisher's rate, so it reads the fixed layout with one DataView instead
 * of a CdrReader (a reader object, a view and a copy of the positions per message, which the live node's
 * profile showed), with the same bounds checks; anything irregular goes through core.ts's reader.
 */
export function jointStateReader(): (bytes: Uint8Array) => JointStateView {
  // A copy: the transport may reuse the message's bytes.
  let lastNameBytes = Buffer.alloc(0);
  let lastCount = -1;
  let lastNames: readonly string[] = [];
  let position = new Float64Array(0);
  return (bytes) => {
    if (bytes.byteLength < 16 || bytes[0] !== 0 || (bytes[1] !== 0 && bytes[1] !== 1)) return readIrregular(bytes);
    const little = bytes[1] === 1;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const stamp = { sec: view.getInt32(4, little), nanosec: view.getUint32(8, little) };
    const frameLength = view.getUint32(12, little);
    if (16 + frameLength > bytes.byteLength) return readIrregular(bytes);
    // An empty frame_id (the usual one) is a length of 1: the NUL.
    const frameId = frameLength > 1 ? decoder.decode(bytes.subarray(16, 16 + frameLength - 1)) : '';
    let o = align4(16 + frameLength);
    if (o + 4 > bytes.byteLength) throw ends('name', bytes);
    const count = view.getUint32(o, little);
    if (count * 4 > bytes.byteLength - o - 4) throw new CdrError(`${TYPE}.name: needs ${count * 4} bytes, ${bytes.byteLength - o - 4} left`);
    const start = o + 4;
    const end = skipNames(bytes, view, little, start, count);
    // One memcmp (Buffer.compare over a range allocates nothing).
    if (count !== lastCount || end - start !== lastNameBytes.byteLength || lastNameBytes.compare(bytes, start, end) !== 0) {
      const r = cdrReader(bytes, TYPE);
      r.seekTo(start);
      const names: string[] = new Array<string>(count);
      for (let i = 0; i < count; i++) names[i] = readString(r, `${TYPE}.name[${i}]`);
      lastNames = names;
      lastCount = count;
      lastNameBytes = Buffer.from(bytes.subarray(start, end)); // a copy: Buffer.from copies a Uint8Array
    }
    o = align4(end);
    if (o + 4 > bytes.byteLength) throw ends('position', bytes);
    const n = view.getUint32(o, little);
    o = n > 0 ? align8(o + 4) : o + 4;
    if (n * 8 > bytes.byteLength - o) throw new CdrError(`${TYPE}.position: needs ${n * 8} bytes, ${Math.max(0, bytes.byteLength - o)} left`);
    if (position.length !== n) position = new Float64Array(n);
    for (let i = 0; i < n; i++) position[i] = view.getFloat64(o + 8 * i, little);
    // velocity and effort are not read: the node does not use them.
    return { header: { stamp, frame_id: frameId }, name: lastNames, position };
  };
}

/** A message too short to hold a header, or in an encapsulation we do not read: core.ts's reader says what is wrong. */
function readIrregular(bytes: Uint8Array): JointStateView {
  const r = cdrReader(bytes, TYPE);
  const head = readHeader(r, TYPE);
  const count = readCount(r, 4, `${TYPE}.name`, 4);
  const name: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) name[i] = readString(r, `${TYPE}.name[${i}]`);
  return { header: head, name, position: readFloat64s(r, `${TYPE}.position`).slice() };
}

export function writeJointState(m: JointState): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    u32(o, m.name.length);
    for (const n of m.name) string(o, n);
    f64Seq(o, m.position);
    f64Seq(o, m.velocity);
    f64Seq(o, m.effort);
  });
}
