// Messages the relay passes on with only their std_msgs/Header changed: the stamp written into bytes already
// serialized, or the incoming bytes with another frame_id spliced in. Decoding a 0.9 MB image and encoding it
// again (two sizing and writing passes, the frame id encoded per message) was most of an image relay's own
// work; a splice is one copy of the bytes after the header into a buffer kept per topic.
import { Buffer } from 'node:buffer';
import type { Time } from '../messages/messages.js';
import { CdrError } from './core.js';

/** Where a std_msgs/Header's fields sit: stamp right after the 4-byte encapsulation header, then frame_id's length. */
const STAMP_AT = 4;
const FRAME_ID_LENGTH_AT = 12;
const FRAME_ID_AT = 16;

/** Offsets from the buffer's start: the encapsulation header is 4 bytes, so 4-alignment is the body's. */
const align4 = (o: number): number => (o + 3) & ~3;

const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Writes `stamp` over the header stamp of a serialized message that starts with a std_msgs/Header, in its byte order. */
export function writeStamp(bytes: Uint8Array, stamp: Time): void {
  const little = bytes[1] === 1;
  const view = viewOf(bytes);
  view.setInt32(STAMP_AT, stamp.sec, little);
  view.setUint32(STAMP_AT + 4, stamp.nanosec, little);
}

/**
 * A splicer for one output topic: each call returns a serialized message's bytes up to `end` with its header's
 * frame_id replaced by `frameId` (UTF-8, no NUL), the stamp and everything after the header as they came, in
 * the message's own byte order. Only for types whose fields after the header align to at most 4 bytes
 * (sensor_msgs/Image, PointCloud2, ...): the part after the header then keeps its layout when it moves by a
 * multiple of 4, which it does when the frame_id's length changes, so it is copied as it is. The output buffer is
 * reused while the size stays (the transport has copied it once publish returns); every byte of it is written.
 * The caller has read the message (so it is CDR) and knows where its last field ends (`end`).
 */
export function frameIdSplicer(frameId: Uint8Array): (bytes: Uint8Array, end: number) => Uint8Array {
  const idEnd = FRAME_ID_AT + frameId.byteLength + 1;
  const tailAt = align4(idEnd);
  let last: Buffer | null = null;
  return (bytes, end) => {
    const little = bytes[1] === 1;
    const from = align4(FRAME_ID_AT + viewOf(bytes).getUint32(FRAME_ID_LENGTH_AT, little));
    if (from > end || end > bytes.byteLength) throw new CdrError(`header splice: the message's fields end at ${end}, its header at ${from}, of ${bytes.byteLength} bytes`);
    const size = tailAt + (end - from);
    const out = last !== null && last.byteLength === size ? last : Buffer.allocUnsafe(size);
    for (let i = 0; i < FRAME_ID_LENGTH_AT; i++) out[i] = bytes[i]!; // encapsulation and stamp
    viewOf(out).setUint32(FRAME_ID_LENGTH_AT, frameId.byteLength + 1, little);
    out.set(frameId, FRAME_ID_AT);
    out.fill(0, idEnd - 1, tailAt); // the NUL, and the padding a reused buffer must not keep from before
    out.set(bytes.subarray(from, end), tailAt);
    last = out;
    return out;
  };
}
