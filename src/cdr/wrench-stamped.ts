// geometry_msgs/WrenchStamped.
import type { CdrReader } from '@foxglove/cdr';
import type { Vector3, WrenchStamped } from '../messages/messages.js';
import { type CdrOut, cdrReader, f64, fixed, header, readHeader, serialize } from './core.js';

const TYPE = 'geometry_msgs/WrenchStamped';

const vector = (r: CdrReader): Vector3 => ({ x: r.float64(), y: r.float64(), z: r.float64() });

export function readWrenchStamped(bytes: Uint8Array): WrenchStamped {
  const r = cdrReader(bytes, TYPE);
  const head = readHeader(r, TYPE);
  return fixed(r, TYPE, () => {
    const force = vector(r);
    const torque = vector(r);
    return { header: head, wrench: { force, torque } };
  });
}

export function writeWrenchStamped(m: WrenchStamped): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    for (const v of [m.wrench.force, m.wrench.torque]) {
      f64(o, v.x);
      f64(o, v.y);
      f64(o, v.z);
    }
  });
}
