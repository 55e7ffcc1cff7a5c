// Where the body stands in a frame several bodies share (parameter placement_frame: a Choreonoid project's
// `world`). The frame is never prefixed — it is common to every body, while each body's own frames carry
// its frame_prefix — and only the root link hangs from it:
//
// - a fixed root stands where `placement` says (or at the body's initial root pose), for good: /tf_static;
// - a free root with placement_odom_frame (REP-105): placement_frame → odom on /tf_static at `placement` —
//   where the body starts, which is where its drive's odometry starts counting — and odom → root left to the
//   drive (diff_drive_controller publishes it); nothing for the root, so it has one parent;
// - a free root without placement_topic: the same on /tf_static, with a warning, since the body moves in
//   the simulation while that transform does not;
// - a free root with placement_topic: one /tf transform per message, stamped with the message's stamp —
//   nav_msgs/Odometry counts from where the body started (diff_drive_controller's odometry starts at zero
//   where the robot stands), so the root's pose is the start pose composed with the odometry pose;
//   geometry_msgs/PoseStamped gives the root's pose in placement_frame itself;
// - odometry on placement_topic with placement_odom_frame (REP-105, a project's driven body): placement_frame →
//   odom on /tf_static where the body starts, and odom → root per message, the odometry pose as it is.
//
// Pure functions: the decision from the parameters and the model, and a message's pose.
import type { Frame } from '../kinematics/frames.js';
import { composePose } from '../model/math.js';
import type { Mat3, Pose, RobotModel } from '../model/types.js';
import type { Odometry, PoseStamped, Pose as PoseMsg, Time } from '../messages/messages.js';
import { invalidStamp, loggedName } from './joint-states.js';
import type { NodeParams, PlacementTopicType } from './params.js';

export type Placement =
  /**
   * placement_frame → `root` on /tf_static. `live`: false for a free root (the transform does not follow the
   * body). With placement_odom_frame, `root` is the odometry frame, which the root hangs from.
   */
  | { kind: 'static'; frame: string; root: string; pose: Pose; live: boolean }
  /**
   * placement_frame → root on /tf per message of `topic`; `start` is where the body started (odometry's origin).
   * With `odom` (odometry only): placement_frame → odom on /tf_static at `start`, and odom → root per message.
   */
  | { kind: 'topic'; frame: string; root: string; start: Pose; topic: string; type: PlacementTopicType; odom?: string };

export interface PlacementNote {
  level: 'info' | 'warn';
  message: string;
}

export interface PlacementDecision {
  placement: Placement | null;
  /** What the node should say about it (once per serve or parameter change). */
  notes: PlacementNote[];
}

/** The rotation of a unit quaternion (normalised first: the parameter accepts a norm within 1e-3 of 1). */
export function rotationOfQuaternion(qx: number, qy: number, qz: number, qw: number): Mat3 {
  const n = Math.hypot(qx, qy, qz, qw);
  const x = qx / n, y = qy / n, z = qz / n, w = qw / n;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** The `placement` parameter ([x, y, z, qx, qy, qz, qw], validated) as a pose; [] = the body's initial root pose. */
export function placementPose(values: readonly number[], model: RobotModel): Pose {
  if (values.length !== 7) return model.links[0]!.offset;
  const [x, y, z, qx, qy, qz, qw] = values as [number, number, number, number, number, number, number];
  return { translation: [x, y, z], rotation: rotationOfQuaternion(qx, qy, qz, qw) };
}

/** How the served model's root is placed under the parameters (validateCombination has already passed). */
export function placementOf(model: RobotModel, frames: readonly Frame[], p: NodeParams): PlacementDecision {
  const notes: PlacementNote[] = [];
  const root = model.links[0];
  if (p.placement_frame === '' || !root) {
    const unused = [p.placement.length > 0 ? 'placement' : '', p.placement_topic !== '' ? 'placement_topic' : ''].filter((n) => n !== '');
    if (unused.length > 0) notes.push({ level: 'info', message: `${unused.join(' and ')} not used: placement_frame is ''` });
    return { placement: null, notes };
  }
  const frame = p.placement_frame;
  const clash = frames.find((f) => p.frame_prefix + f.name === frame);
  if (clash) {
    notes.push({ level: 'warn', message: `placement_frame '${frame}' is ignored: it is already a frame of the model (${clash.name} with frame_prefix '${p.frame_prefix}')` });
    return { placement: null, notes };
  }
  const rootFrame = p.frame_prefix + root.name;
  const odom = p.frame_prefix + p.placement_odom_frame;
  const pose = placementPose(p.placement, model);
  if (root.joint.type !== 'free') {
    if (p.placement_odom_frame !== '') {
      notes.push({ level: 'warn', message: `placement_odom_frame '${p.placement_odom_frame}' is not used: the root link '${root.name}' is fixed, it has no odometry` });
    }
    if (p.placement_topic !== '') {
      notes.push({ level: 'warn', message: `placement_topic '${p.placement_topic}' is not used: the root link '${root.name}' is fixed, its placement is static` });
    }
    notes.push({ level: 'info', message: `publishing ${frame} -> ${rootFrame} on /tf_static (placement)` });
    return { placement: { kind: 'static', frame, root: rootFrame, pose, live: true }, notes };
  }
  if (p.placement_topic === '' && p.placement_odom_frame !== '') {
    notes.push({ level: 'info', message: `publishing ${frame} -> ${odom} on /tf_static where the body starts; ${odom} -> ${rootFrame} comes from its drive's odometry (REP-105)` });
    return { placement: { kind: 'static', frame, root: odom, pose, live: true }, notes };
  }
  if (p.placement_topic === '') {
    notes.push({
      level: 'warn',
      message:
        `the free root '${root.name}' is published at a fixed pose in ${frame} (/tf_static): it does not follow the body as it moves. ` +
        `Name its pose source with placement_topic (nav_msgs/Odometry such as diff_drive_controller's odom, or geometry_msgs/PoseStamped with placement_topic_type pose_stamped)`,
    });
    return { placement: { kind: 'static', frame, root: rootFrame, pose, live: false }, notes };
  }
  const type = p.placement_topic_type as PlacementTopicType;
  if (p.placement_odom_frame !== '' && type === 'odometry') {
    notes.push({ level: 'info', message: `publishing ${frame} -> ${odom} on /tf_static where the body starts; ${odom} -> ${rootFrame} follows ${p.placement_topic} (nav_msgs/Odometry, REP-105); nothing is published for it until its first message` });
    return { placement: { kind: 'topic', frame, root: rootFrame, start: pose, topic: p.placement_topic, type, odom }, notes };
  }
  if (p.placement_odom_frame !== '') {
    notes.push({ level: 'info', message: `placement_odom_frame '${p.placement_odom_frame}' is not used: placement_topic gives the root its pose in ${frame} (one parent)` });
  }
  const source = type === 'odometry' ? 'nav_msgs/Odometry, from where the body started' : `geometry_msgs/PoseStamped in ${frame}`;
  notes.push({ level: 'info', message: `${frame} -> ${rootFrame} follows ${p.placement_topic} (${source}); nothing is published for it until its first message` });
  return { placement: { kind: 'topic', frame, root: rootFrame, start: pose, topic: p.placement_topic, type }, notes };
}

/** The part of a placement that goes on /tf_static: a static placement, or placement_frame → odom of a followed odometry. */
export function staticPlacement(placement: Placement | null): Extract<Placement, { kind: 'static' }> | null {
  if (placement?.kind === 'static') return placement;
  if (placement?.kind === 'topic' && placement.odom !== undefined) return { kind: 'static', frame: placement.frame, root: placement.odom, pose: placement.start, live: true };
  return null;
}

/** The frame a followed pose is published in: the odometry frame under REP-105, else placement_frame. */
export const placementParent = (placement: Extract<Placement, { kind: 'topic' }>): string => placement.odom ?? placement.frame;

/** Smallest quaternion norm taken for a rotation; below it the message carries no orientation. */
const MIN_QUATERNION_NORM = 1e-6;

const finite = (...xs: unknown[]): boolean => xs.every((x) => typeof x === 'number' && Number.isFinite(x));

/** A geometry_msgs/Pose as a model pose, or why it is not one (with the kind of problem, for throttling). */
function poseOfMsg(m: PoseMsg | undefined): Pose | { key: string; reason: string } {
  const p = m?.position, q = m?.orientation;
  if (!p || !q || !finite(p.x, p.y, p.z)) return { key: 'position', reason: 'its position is missing or not finite' };
  if (!finite(q.x, q.y, q.z, q.w) || Math.hypot(q.x, q.y, q.z, q.w) < MIN_QUATERNION_NORM) {
    return { key: 'orientation', reason: 'its orientation is not a rotation (a zero or non-finite quaternion)' };
  }
  return { translation: [p.x, p.y, p.z], rotation: rotationOfQuaternion(q.x, q.y, q.z, q.w) };
}

export type PlacementUpdate = { pose: Pose; stamp: Time } | { key: string; reason: string };

/** The root's pose in placementParent from one message of placement_topic, or why the message is dropped. */
export function placementFromMessage(placement: Extract<Placement, { kind: 'topic' }>, message: unknown): PlacementUpdate {
  const m = message as Partial<Odometry & PoseStamped> | null;
  const stamp = m?.header?.stamp;
  if (!stamp) return { key: 'no-stamp', reason: 'it has no header stamp' };
  const bad = invalidStamp(stamp);
  if (bad) return { key: 'stamp', reason: `its stamp is invalid: ${bad}` };
  if (placement.type === 'odometry') {
    const pose = poseOfMsg((m as Partial<Odometry>).pose?.pose);
    if ('reason' in pose) return pose;
    return { pose: placement.odom !== undefined ? pose : composePose(placement.start, pose), stamp: { sec: stamp.sec, nanosec: stamp.nanosec } };
  }
  const frameId = m?.header?.frame_id ?? '';
  if (frameId !== '' && frameId !== placement.frame) {
    return { key: 'frame', reason: `it is in frame ${loggedName(frameId)}, not placement_frame '${placement.frame}' (no transform is looked up)` };
  }
  const pose = poseOfMsg((m as Partial<PoseStamped>).pose);
  if ('reason' in pose) return pose;
  return { pose, stamp: { sec: stamp.sec, nanosec: stamp.nanosec } };
}
