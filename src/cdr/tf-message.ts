// tf2_msgs/TFMessage, written for /tf at every joint_states message that moves a joint, and for
// /tf_static. Frame ids are the same strings message after message: each is encoded to UTF-8 once.
import type { TFMessage, TransformStamped } from '../ros/messages.js';
import { type CdrOut, cdrReader, encodedString, f64, fixed, readCount, readHeader, readString, serialize, time, u32, utf8 } from './core.js';

const TYPE = 'tf2_msgs/TFMessage';

/** Distinct frame ids kept encoded; a model has far fewer, so this only bounds a pathological caller. */
const MAX_CACHED_IDS = 4096;

/** A writer that keeps the encoded frame ids it has seen; one per publisher. */
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
  return (transforms) =>
    serialize((o: CdrOut) => {
      u32(o, transforms.length);
      for (let i = 0; i < transforms.length; i++) {
        const t = transforms[i]!;
        time(o, t.header.stamp);
        encodedString(o, id(t.header.frame_id));
        encodedString(o, id(t.child_frame_id));
        const { translation: v, rotation: q } = t.transform;
        f64(o, v.x);
        f64(o, v.y);
        f64(o, v.z);
        f64(o, q.x);
        f64(o, q.y);
        f64(o, q.z);
        f64(o, q.w);
      }
    });
}

export const writeTfMessage = (m: TFMessage): Uint8Array => tfMessageWriter()(m.transforms);

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
