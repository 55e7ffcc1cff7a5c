import type { Joint, JointType, Vec3 } from './types.js';

/** A joint as Choreonoid's Link() constructs it before a file says anything: unlimited everywhere, at 0, no rotor. */
export const defaultJoint = (name: string, type: JointType, axis: Vec3 = [0, 0, 1]): Joint => ({
  name,
  type,
  id: null,
  axis,
  lower: -Infinity,
  upper: Infinity,
  velocityLower: -Infinity,
  velocityUpper: Infinity,
  effortLower: -Infinity,
  effortUpper: Infinity,
  initial: 0,
  rotorInertia: 0,
  gearRatio: 1,
});
