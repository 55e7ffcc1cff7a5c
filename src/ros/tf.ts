// TF messages from the shared frame tree (src/kinematics/frames.ts), so /tf, /tf_static, the URDF and
// `body-bridge tf` name and place every frame the same way. Split as robot_state_publisher splits it:
// joints that move go to /tf per joint_states message; everything fixed goes to /tf_static once per load.
import { type Frame, localPose } from '../kinematics/frames.js';
import type { JointPositions } from '../kinematics/forward.js';
import { quaternionFromMatrix } from '../model/math.js';
import type { Pose, RobotModel } from '../model/types.js';
import type { Time, Transform, TransformStamped } from './messages.js';

export function poseToTransform(pose: Pose): Transform {
  const [x, y, z] = pose.translation;
  return { translation: { x, y, z }, rotation: quaternionFromMatrix(pose.rotation) };
}

const stamped = (parent: string, child: string, pose: Pose, stamp: Time, prefix: string): TransformStamped => ({
  header: { stamp: { ...stamp }, frame_id: prefix + parent },
  child_frame_id: prefix + child,
  transform: poseToTransform(pose),
});

const NO_JOINTS: JointPositions = new Map();

export interface WorldLink {
  /** The world frame's name (before the prefix). */
  frame: string;
  /** Whether world→root is published as a static transform. */
  static: boolean;
  /** Why not, when it is not. */
  reason?: string;
}

/**
 * How the world frame meets the root: a fixed root hangs from it at its offset (the body's initial
 * root pose) as the URDF's fixed joint says; a free root is a floating joint, which
 * robot_state_publisher skips too — its pose belongs to a simulator or localisation.
 */
export function worldLink(model: RobotModel, worldFrame: string): WorldLink | null {
  if (worldFrame === '') return null;
  const root = model.links[0];
  if (root?.joint.type === 'fixed') return { frame: worldFrame, static: true };
  return {
    frame: worldFrame,
    static: false,
    reason: `the root link '${model.root}' is free (a floating joint): ${worldFrame} -> ${model.root} must come from a simulator or localisation`,
  };
}

/** Every fixed edge of the tree (fixed joints, free non-root links at their offset, device/optical/scan frames). */
export function staticTransforms(
  model: RobotModel,
  frames: readonly Frame[],
  stamp: Time,
  prefix: string,
  worldFrame = '',
): TransformStamped[] {
  const out: TransformStamped[] = [];
  const world = worldLink(model, worldFrame);
  const root = model.links[0];
  if (world?.static && root) out.push(stamped(world.frame, root.name, root.offset, stamp, prefix));
  for (const f of frames) {
    if (f.parent === null || f.moving) continue;
    out.push(stamped(f.parent, f.name, localPose(f, NO_JOINTS), stamp, prefix));
  }
  return out;
}

/** The moving frames driven by each joint name (normally one). */
export function movingFramesByJoint(frames: readonly Frame[]): Map<string, Frame[]> {
  const byJoint = new Map<string, Frame[]>();
  for (const f of frames) {
    if (!f.moving || !f.link || f.parent === null) continue;
    const list = byJoint.get(f.link.joint.name) ?? [];
    list.push(f);
    byJoint.set(f.link.joint.name, list);
  }
  return byJoint;
}

/** /tf for the given joint positions: one transform per moving frame whose joint is named, in the given order. */
export function movingTransforms(
  byJoint: ReadonlyMap<string, readonly Frame[]>,
  positions: ReadonlyMap<string, number>,
  stamp: Time,
  prefix: string,
): TransformStamped[] {
  const out: TransformStamped[] = [];
  for (const [joint, q] of positions) {
    for (const f of byJoint.get(joint) ?? []) {
      out.push(stamped(f.parent!, f.name, localPose(f, new Map([[joint, q]])), stamp, prefix));
    }
  }
  return out;
}
