// Benchmarks send the same serialized message many times with a new stamp each time: written in place,
// so the timed loop holds only the node's work.
import type { Time } from '../src/messages/messages.js';

/** Writes `stamp` into a little-endian CDR message that starts with a std_msgs/Header (it follows the encapsulation header). */
export function stampBytes(bytes: Uint8Array, stamp: Time): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setInt32(4, stamp.sec, true);
  view.setUint32(8, stamp.nanosec, true);
}
