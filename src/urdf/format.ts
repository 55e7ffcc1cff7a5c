// Number spelling in the URDF: the shortest decimal that reads back as the same double (what
// Number#toString gives), so kdl_parser reproduces our values bit for bit.
import { rpyFromMatrix } from '../model/math.js';
import type { Pose, Vec3 } from '../model/types.js';
import { type XmlElement, el } from './xml.js';

export function num(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot write ${x} into a URDF number`);
  return Object.is(x, -0) ? '0' : String(x);
}

export const vec = (v: readonly number[]): string => v.map(num).join(' ');

const isZero = (v: readonly number[]): boolean => v.every((x) => x === 0);

/** <origin>; left out when `optional` and the pose is the identity. */
export function originElement(pose: Pose, optional = false): XmlElement | null {
  const rpy = rpyFromMatrix(pose.rotation);
  if (optional && isZero(pose.translation) && isZero(rpy)) return null;
  return el('origin', { xyz: vec(pose.translation), rpy: vec(rpy) });
}

export const xyzElement = (name: string, v: Vec3): XmlElement => el(name, { xyz: vec(v) });
