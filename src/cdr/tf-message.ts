// tf2_msgs/TFMessage, written for /tf at every joint_states message that moves a joint, and for
// /tf_static. Frame ids are the same strings message after message: each is encoded to UTF-8 once.
import type { TFMessage, TransformStamped } from '../ros/messages.js';
import { type CdrOut, encodedString, f64, serialize, time, u32, utf8 } from './core.js';

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
