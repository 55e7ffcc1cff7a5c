// Forward kinematics with Choreonoid's semantics (Body::calcForwardKinematics): the joint frame is
// the link frame, revolute R = R_parent·Rb·AngleAxis(q, a), prismatic p = p_parent + R_parent·(b + Rb·a·q).
import { add, axisAngle, mulMat, mulVec, scale } from '../model/math.js';
import type { Link, Pose, RobotModel } from '../model/types.js';

/** Joint positions by joint name (rad or m). Joints not named are at 0. */
export type JointPositions = ReadonlyMap<string, number>;

/** Pose of a link's frame in its parent's frame for joint position q. */
export function jointPose(link: Link, q: number): Pose {
  const { translation: b, rotation: rb } = link.offset;
  switch (link.joint.type) {
    case 'revolute':
      return { translation: b, rotation: mulMat(rb, axisAngle(link.joint.axis, q)) };
    case 'prismatic':
      return { translation: add(b, mulVec(rb, scale(link.joint.axis, q))), rotation: rb };
    default:
      return link.offset;
  }
}

/** Every link's pose in the world (the root sits at its offset, as Body::initializePosition places it). */
export function linkWorldPoses(model: RobotModel, q: JointPositions = new Map()): Map<string, Pose> {
  const poses = new Map<string, Pose>();
  for (const link of model.links) {
    const local = jointPose(link, q.get(link.joint.name) ?? 0);
    const parent = link.parent === null ? undefined : poses.get(link.parent);
    poses.set(
      link.name,
      parent === undefined
        ? local
        : {
            translation: add(parent.translation, mulVec(parent.rotation, local.translation)),
            rotation: mulMat(parent.rotation, local.rotation),
          },
    );
  }
  return poses;
}
