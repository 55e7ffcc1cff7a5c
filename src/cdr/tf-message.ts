// tf2_msgs/TFMessage, written for /tf at every joint_states message that moves a joint, and for
// /tf_static. Frame ids are the same strings message after message: each is encoded to UTF-8 once.
import type { TFMessage, TransformStamped } from '../messages/messages.js';
import { Buffer } from 'node:buffer';
import { cdrReader, fixed, readCount, readHeader, readString, utf8 } from './core.js';

const TYPE = 'tf2_msgs/TFMessage';

/** Distinct frame ids kept encoded; a model has far fewer, so this only bounds a pathological caller. */
const MAX_CACHED_IDS = 4096;

/**
 * A writer that keeps the encoded frame ids it has seen; one per publisher. Written by hand rather than
 * with core.ts's two passes: /tf is the node's hottest output (hundreds of transforms per message at
 * joint_states' rate), and its layout is simple enough to size in one loop. The buffer comes zeroed, so
 * the padding needs no writes.
 */
export function tfMessageWriter(): (transforms: readonly TransformStamped[]) => Uint8Array {
  const encoded = new Map<string, Uint8Array>();
  const id = (s: string): Uint8Array => {
    let e = encoded.get(s);
    if (e === undefined) {
      if (encoded.size >= MAX_CACHED_IDS) encoded.clear();
      e = utf8(s);
      encoded.set(s, e);
    }
    return e;
  };
  // Offsets are absolute; CDR aligns relative to the end of the 4-byte encapsulation header.
  const align4 = (o: number): number => (o + 3) & ~3;
  const align8 = (o: number): number => ((o + 3) & ~7) + 4;
  return (transforms) => {
    const n = transforms.length;
    const parents: Uint8Array[] = new Array<Uint8Array>(n);
    const children: Uint8Array[] = new Array<Uint8Array>(n);
    let size = 8;
    for (let i = 0; i < n; i++) {
      const t = transforms[i]!;
      const parent = (parents[i] = id(t.header.frame_id));
      const child = (children[i] = id(t.child_frame_id));
      size = align4(size) + 8; // stamp
      size = align4(size) + 4 + parent.byteLength + 1;
      size = align4(size) + 4 + child.byteLength + 1;
      size = align8(size) + 56; // translation, rotation
    }
    const bytes = Buffer.alloc(size);
    const view = new DataView(bytes.buffer, bytes.byteOffset, size);
    bytes[1] = 1; // CDR_LE
    view.setUint32(4, n, true);
    let o = 8;
    for (let i = 0; i < n; i++) {
      const t = transforms[i]!;
      const parent = parents[i]!;
      const child = children[i]!;
      o = align4(o);
      view.setInt32(o, t.header.stamp.sec, true);
      view.setUint32(o + 4, t.header.stamp.nanosec, true);
      o += 8;
      view.setUint32(o, parent.byteLength + 1, true);
      bytes.set(parent, o + 4);
      o = align4(o + 4 + parent.byteLength + 1);
      view.setUint32(o, child.byteLength + 1, true);
      bytes.set(child, o + 4);
      o = align8(o + 4 + child.byteLength + 1);
      const { translation: v, rotation: q } = t.transform;
      view.setFloat64(o, v.x, true);
      view.setFloat64(o + 8, v.y, true);
      view.setFloat64(o + 16, v.z, true);
      view.setFloat64(o + 24, q.x, true);
      view.setFloat64(o + 32, q.y, true);
      view.setFloat64(o + 40, q.z, true);
      view.setFloat64(o + 48, q.w, true);
      o += 56;
    }
    return bytes;
  };
}

/** The whole message (the dry run reads back what the node would publish). */
export function readTfMessage(bytes: Uint8Array): TFMessage {
  const r = cdrReader(bytes, TYPE);
  // A transform is at least a stamp, two string lengths and seven float64: 72 bytes.
  const n = readCount(r, 72, `${TYPE}.transforms`, 4);
  const transforms: TransformStamped[] = [];
  for (let i = 0; i < n; i++) {
    const header = readHeader(r, `${TYPE}.transforms[${i}]`);
    const child_frame_id = readString(r, `${TYPE}.transforms[${i}].child_frame_id`);
    const transform = fixed(r, `${TYPE}.transforms[${i}].transform`, () => ({
      translation: { x: r.float64(), y: r.float64(), z: r.float64() },
      rotation: { x: r.float64(), y: r.float64(), z: r.float64(), w: r.float64() },
    }));
    transforms.push({ header, child_frame_id, transform });
  }
  return { transforms };
}
