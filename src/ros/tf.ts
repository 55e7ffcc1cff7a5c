// TF messages from the shared frame tree (src/kinematics/frames.ts), so /tf, /tf_static, the URDF and
// `body-bridge tf` name and place every frame the same way. Split as robot_state_publisher splits it:
// joints that move go to /tf per joint_states message; everything fixed goes to /tf_static once per load.
import { type Frame, localPose } from '../kinematics/frames.js';
import { type JointPositions, jointPose } from '../kinematics/forward.js';
import { quat, vec3 } from 'gl-matrix';
import { canonicalSign, quaternionFromMatrix } from '../model/math.js';
import type { Pose, RobotModel } from '../model/types.js';
import type { Quaternion, Time, Transform, TransformStamped, Vector3 } from '../messages/messages.js';
import type { Placement } from './placement.js';

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

/**
 * The stand-in parent of a free root (parameter free_root_frame): a floating joint has no transform until a
 * simulator or localisation publishes one, and MoveIt's floating virtual joint waits for it. Published at the
 * body's initial root pose (Choreonoid's root offset). Null with a reason when it does not apply.
 */
export function freeRootParent(
  model: RobotModel,
  frame: string,
  frames: readonly Frame[],
): { frame: string } | { reason: string; level: 'info' | 'warn' } | null {
  if (frame === '') return null;
  const root = model.links[0];
  // A launch file may set it for every robot (moveit.launch.py does): a fixed root simply needs none.
  if (!root || root.joint.type !== 'free') return { reason: `free_root_frame '${frame}' is not used: the root link '${model.root}' is not free`, level: 'info' };
  if (frames.some((f) => f.name === frame)) return { reason: `free_root_frame '${frame}' is ignored: it is already a frame of the model`, level: 'warn' };
  return { frame };
}

/**
 * Every fixed edge of the tree (fixed joints, free non-root links at their offset, device/optical/scan frames),
 * and the root's static placement in a shared frame (placement.ts), whose name is never prefixed.
 */
export function staticTransforms(
  model: RobotModel,
  frames: readonly Frame[],
  stamp: Time,
  prefix: string,
  worldFrame = '',
  freeRootFrame = '',
  placement: Extract<Placement, { kind: 'static' }> | null = null,
): TransformStamped[] {
  const out: TransformStamped[] = [];
  if (placement) out.push({ header: { stamp: { ...stamp }, frame_id: placement.frame }, child_frame_id: placement.root, transform: poseToTransform(placement.pose) });
  const world = worldLink(model, worldFrame);
  const root = model.links[0];
  if (world?.static && root) out.push(stamped(world.frame, root.name, root.offset, stamp, prefix));
  const freeParent = freeRootParent(model, freeRootFrame, frames);
  if (freeParent && 'frame' in freeParent && root && freeParent.frame !== world?.frame) {
    out.push(stamped(freeParent.frame, root.name, root.offset, stamp, prefix));
  }
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

/**
 * What a moving frame needs per message, worked out once per load: the joint's offset rotation as a
 * quaternion (revolute: R = Rb·AngleAxis(a, q) is the quaternion q_b ⊗ q_axis(q), composed in scalars),
 * or its constant rotation's quaternion (prismatic) with Rb·a precomputed. No per-message matrices,
 * maps or arrays: the per-transform garbage was most of the node's TF time.
 */
interface MovingFrame {
  frame: Frame;
  parent: string;
  child: string;
  kind: 'revolute' | 'prismatic' | 'general';
  /** Offset translation b. */
  b: Float64Array;
  /** Offset rotation Rb, column-major as gl-matrix takes it (prismatic: b + Rb·(a·q) as jointPose places it). */
  r: Float64Array;
  /** The prefix the two frame ids below were last made with, and those ids (prefix + parent, prefix + child). */
  prefix: string;
  parentId: string;
  childId: string;
  /** Joint axis a. */
  axis: Float64Array;
  /**
   * The part of the transform that never changes, shared (frozen) by every message: the translation b
   * of a revolute joint, the rotation Rb of a prismatic one. Each object costs a few heap allocations
   * (V8 boxes double fields), and what a subscriber receives is its own copy either way.
   */
  constant: Readonly<Vector3> | Readonly<Quaternion>;
  /** Quaternion of Rb, as gl-matrix stores one (x, y, z, w). */
  q: Float64Array;
  /** Room for the per-message arithmetic, so publishing allocates nothing but the message. */
  scratch: Float64Array;
}

/** Moving frames by joint name, compiled for movingTransforms; build with compileMovingFrames. */
export interface MovingFrames {
  byJoint: ReadonlyMap<string, readonly MovingFrame[]>;
}

// A unit axis within this of length 1 makes AngleAxis a rotation to the last bits; any other (a VRML
// jointAxis taken as written, say) goes through the general path: localPose, the same math as `body-bridge tf`.
const UNIT_AXIS_TOLERANCE = 1e-12;

function compileFrame(f: Frame): MovingFrame {
  const link = f.link!;
  const { translation: b, rotation: rb } = link.offset;
  const [ax, ay, az] = link.joint.axis;
  const unit = Math.abs(ax * ax + ay * ay + az * az - 1) <= UNIT_AXIS_TOLERANCE;
  const kind = link.joint.type === 'prismatic' ? 'prismatic' : link.joint.type === 'revolute' && unit ? 'revolute' : 'general';
  const q = quaternionFromMatrix(rb);
  const constant = kind === 'prismatic' ? Object.freeze({ x: q.x, y: q.y, z: q.z, w: q.w }) : Object.freeze({ x: b[0], y: b[1], z: b[2] });
  return {
    constant,
    frame: f,
    parent: f.parent!,
    child: f.name,
    kind,
    prefix: '',
    parentId: f.parent!,
    childId: f.name,
    b: Float64Array.from(b),
    r: Float64Array.of(rb[0][0], rb[1][0], rb[2][0], rb[0][1], rb[1][1], rb[2][1], rb[0][2], rb[1][2], rb[2][2]),
    axis: Float64Array.of(ax, ay, az),
    q: Float64Array.of(q.x, q.y, q.z, q.w),
    scratch: new Float64Array(4),
  };
}

export function compileMovingFrames(byJoint: ReadonlyMap<string, readonly Frame[]>): MovingFrames {
  const compiled = new Map<string, MovingFrame[]>();
  for (const [joint, frames] of byJoint) compiled.set(joint, frames.map(compileFrame));
  return { byJoint: compiled };
}

/**
 * The rotation quaternionFromMatrix would give for R = Rb·AngleAxis(a, θ), computed as the quaternion
 * product q(Rb)·q(a, θ) in gl-matrix, with the same sign rule (canonicalSign), so the published
 * quaternions are the matrix path's, to rounding.
 */
function revoluteRotation(m: MovingFrame, theta: number): Quaternion {
  const { q, axis, scratch } = m;
  quat.multiply(scratch, q, quat.setAxisAngle(scratch, axis, theta));
  return canonicalSign(scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!);
}

function movingTransform(m: MovingFrame, q: number, stamp: Time, prefix: string): TransformStamped {
  // The prefixed ids are made once per prefix, not once per message.
  if (m.prefix !== prefix) {
    m.prefix = prefix;
    m.parentId = prefix + m.parent;
    m.childId = prefix + m.child;
  }
  const header = { stamp, frame_id: m.parentId };
  if (m.kind === 'revolute') {
    return {
      header,
      child_frame_id: m.childId,
      transform: { translation: m.constant as Vector3, rotation: revoluteRotation(m, q) },
    };
  }
  if (m.kind === 'prismatic') {
    // b + Rb·(a·q), in jointPose's order of operations.
    const t = m.scratch;
    vec3.add(t, m.b, vec3.transformMat3(t, vec3.scale(t, m.axis, q), m.r));
    return {
      header,
      child_frame_id: m.childId,
      transform: {
        translation: { x: t[0]!, y: t[1]!, z: t[2]! },
        rotation: m.constant as Quaternion,
      },
    };
  }
  return { header, child_frame_id: m.childId, transform: poseToTransform(jointPose(m.frame.link!, q)) };
}

/** /tf for the given joint positions: one transform per moving frame whose joint is named, in the given order. */
export function movingTransforms(
  moving: MovingFrames,
  positions: ReadonlyMap<string, number>,
  stamp: Time,
  prefix: string,
): TransformStamped[] {
  const out: TransformStamped[] = [];
  // One copy of the stamp, shared by the message's transforms (they all carry the same one), so the
  // caller's object is never aliased.
  const shared: Time = { sec: stamp.sec, nanosec: stamp.nanosec };
  for (const [joint, q] of positions) {
    const frames = moving.byJoint.get(joint);
    if (frames === undefined) continue;
    for (let i = 0; i < frames.length; i++) out.push(movingTransform(frames[i]!, q, shared, prefix));
  }
  return out;
}
