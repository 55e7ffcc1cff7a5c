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

/**
 * The speed written for a joint the model leaves without a velocity limit. ROS tools need a finite
 * number, and MoveIt's time parametrisation moves a joint as fast as its limit allows, so the number
 * must be one a real joint can reach: half a turn per second for revolute joints, a metre per second
 * for prismatic ones (docs/urdf.md, docs/moveit.md).
 */
export const UNLIMITED_REVOLUTE_VELOCITY = Math.PI;
export const UNLIMITED_PRISMATIC_VELOCITY = 1;

/** A joint's velocity limit as one magnitude: the smaller end of its range, the default when unlimited. */
export function velocityLimit(joint: Joint, defaults: { revolute: number; prismatic: number } = defaultVelocities): number {
  const m = Math.min(Math.abs(joint.velocityLower), Math.abs(joint.velocityUpper));
  if (Number.isFinite(m)) return m;
  if (Number.isFinite(joint.velocityLower)) return Math.abs(joint.velocityLower);
  if (Number.isFinite(joint.velocityUpper)) return Math.abs(joint.velocityUpper);
  return joint.type === 'prismatic' ? defaults.prismatic : defaults.revolute;
}

const defaultVelocities = { revolute: UNLIMITED_REVOLUTE_VELOCITY, prismatic: UNLIMITED_PRISMATIC_VELOCITY };
