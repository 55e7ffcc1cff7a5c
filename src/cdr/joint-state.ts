// sensor_msgs/JointState. The node reads it at the publisher's rate (1 kHz is common), so the reader
// takes only the stamp, the names and the positions, and decodes the names only when their bytes
// differ from the previous message's: a publisher sends the same names in the same order every time,
// and then no string is built per name per message.
import { Buffer } from 'node:buffer';
import type { JointState, Time } from '../messages/messages.js';
import { type CdrOut, cdrReader, CdrError, f64Seq, header, readCount, readFloat64s, readHeader, readString, serialize, string, u32 } from './core.js';

const TYPE = 'sensor_msgs/JointState';

/** What the node needs of a JointState: views valid only until the message's bytes are reused. */
export interface JointStateView {
  header: { stamp: Time; frame_id: string };
  /** Shared between messages with the same names: never modify it. */
  name: readonly string[];
  position: Float64Array;
}

/**
 * Walks the names' lengths without decoding them; returns where the sequence ends. (DataView reads in a
 * plain loop: this runs per name per message, so no closures or reader calls.)
 */
function skipNames(bytes: Uint8Array, start: number, count: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[1] === 1;
  let o = start;
  for (let i = 0; i < count; i++) {
    o = (o + 3) & ~3; // 4-aligned from the end of the encapsulation header, which is 4 bytes long
    if (o + 4 > bytes.byteLength) throw new CdrError(`${TYPE}.name[${i}]: message ends early (${bytes.byteLength} bytes)`);
    const length = view.getUint32(o, little);
    o += 4 + length;
    if (o > bytes.byteLength) throw new CdrError(`${TYPE}.name[${i}]: needs ${length} bytes, ${bytes.byteLength - o + length} left`);
  }
  return o;
}

/** A reader that remembers the last names it decoded; one per subscription. */
export function jointStateReader(): (bytes: Uint8Array) => JointStateView {
  // A copy (Buffer.from copies a Uint8Array), compared with memcmp (Buffer.equals).
  let lastNameBytes: Buffer = Buffer.alloc(0);
  let lastCount = -1;
  let lastNames: readonly string[] = [];
  return (bytes) => {
    const r = cdrReader(bytes, TYPE);
    const head = readHeader(r, TYPE);
    const count = readCount(r, 4, `${TYPE}.name`, 4);
    const start = r.offset;
    const end = skipNames(bytes, start, count);
    const region = bytes.subarray(start, end);
    if (count !== lastCount || !lastNameBytes.equals(region)) {
      const names: string[] = new Array<string>(count);
      for (let i = 0; i < count; i++) names[i] = readString(r, `${TYPE}.name[${i}]`);
      lastNames = names;
      lastCount = count;
      lastNameBytes = Buffer.from(region);
    } else {
      r.seekTo(end); // the names are the previous message's: not decoded again
    }
    const position = readFloat64s(r, `${TYPE}.position`);
    // velocity and effort are not read: the node does not use them.
    return { header: head, name: lastNames, position };
  };
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
