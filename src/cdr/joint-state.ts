// sensor_msgs/JointState. The node reads it at the publisher's rate (1 kHz is common), so the reader
// takes only the stamp, the names and the positions, and decodes the names only when their bytes
// differ from the previous message's: a publisher sends the same names in the same order every time,
// and then no string is built per name per message.
import type { CdrReader } from '@foxglove/cdr';
import type { JointState, Time } from '../ros/messages.js';
import { type CdrOut, cdrReader, CdrError, f64Seq, fixed, header, readCount, readFloat64s, readHeader, readString, serialize, string, u32 } from './core.js';

const TYPE = 'sensor_msgs/JointState';

/** What the node needs of a JointState: views valid only until the message's bytes are reused. */
export interface JointStateView {
  header: { stamp: Time; frame_id: string };
  /** Shared between messages with the same names: never modify it. */
  name: readonly string[];
  position: Float64Array;
}

/** The byte range of the names sequence's elements, after walking the lengths without decoding. */
function skipNames(r: CdrReader, count: number): void {
  for (let i = 0; i < count; i++) {
    const length = fixed(r, `${TYPE}.name[${i}]`, () => r.uint32());
    if (length > r.byteLength - r.offset) throw new CdrError(`${TYPE}.name[${i}]: needs ${length} bytes, ${r.byteLength - r.offset} left`);
    r.seek(length);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A reader that remembers the last names it decoded; one per subscription. */
export function jointStateReader(): (bytes: Uint8Array) => JointStateView {
  let lastNameBytes: Uint8Array = new Uint8Array(0);
  let lastCount = -1;
  let lastNames: readonly string[] = [];
  return (bytes) => {
    const r = cdrReader(bytes, TYPE);
    const head = readHeader(r, TYPE);
    const count = readCount(r, 4, `${TYPE}.name`, 4);
    const start = r.offset;
    skipNames(r, count);
    const region = bytes.subarray(start, r.offset);
    if (count !== lastCount || !sameBytes(region, lastNameBytes)) {
      const end = r.offset;
      r.seekTo(start);
      const names: string[] = new Array<string>(count);
      for (let i = 0; i < count; i++) names[i] = readString(r, `${TYPE}.name[${i}]`);
      r.seekTo(end);
      lastNames = names;
      lastCount = count;
      // A copy: a Buffer's slice() would be a view on bytes the transport may reuse.
      lastNameBytes = new Uint8Array(region);
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
