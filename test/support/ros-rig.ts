// Shared by the test/ros-*.test.ts files: a bridge on the memory transport, and TF composition done
// independently of src/kinematics (quaternions back to matrices, walked edge by edge).
import { startRobotPublisher, type RobotPublisher, type RobotPublisherDeps } from '../../src/ros/robot-publisher.js';
import { createMemoryTransport, type MemoryTransport } from '../../src/ros/memory-transport.js';
import { peerCodec } from './cdr-peer.js';
import type { JointState, Time, TFMessage, TransformStamped } from '../../src/messages/messages.js';
import type { NodeParams } from '../../src/ros/params.js';
import { matrixFromQuaternion } from './rotations.js';
import type { Mat3, Pose, RobotModel, Vec3 } from '../../src/model/types.js';

export interface Rig {
  transport: MemoryTransport;
  bridge: RobotPublisher;
}

/** A bridge serving `model` (whatever body_file says) with a stand-in URDF, unless deps override. */
export function rig(model: RobotModel, params: Partial<NodeParams> = {}, deps: Partial<RobotPublisherDeps> = {}): Rig {
  const transport = createMemoryTransport({ codec: peerCodec });
  const bridge = startRobotPublisher(
    {
      transport,
      loadModel: () => model,
      describe: (m) => ({ xml: `<robot name="${m.name}"/>`, warnings: [] }),
      startDevices: () => () => undefined,
      ...deps,
    },
    { body_file: model.sourceFile || 'model.body', publish_joint_states: false, watch_body_file: false, ...params },
  );
  return { transport, bridge };
}

export const jointState = (stamp: Time, names: string[], position: number[]): JointState => ({
  header: { stamp, frame_id: '' },
  name: names,
  position,
  velocity: [],
  effort: [],
});

export const at = (sec: number, nanosec = 0): Time => ({ sec, nanosec });

export function tfMessages(t: MemoryTransport, topic: '/tf' | '/tf_static'): TFMessage[] {
  return t.messages<TFMessage>(topic);
}

function mul(a: Mat3, b: Mat3): Mat3 {
  const r = [0, 1, 2].map((i) => [0, 1, 2].map((j) => a[i]![0] * b[0]![j]! + a[i]![1] * b[1]![j]! + a[i]![2] * b[2]![j]!));
  return r as Mat3;
}
const apply = (m: Mat3, v: Vec3): Vec3 => [0, 1, 2].map((i) => m[i]![0] * v[0] + m[i]![1] * v[1] + m[i]![2] * v[2]) as Vec3;

export function transformToPose(t: TransformStamped): Pose {
  const { x, y, z } = t.transform.translation;
  return { translation: [x, y, z], rotation: matrixFromQuaternion(t.transform.rotation) };
}

/**
 * Each frame's pose in `root` from a set of parent→child transforms, as a TF listener would compose
 * them. Throws on a frame reachable twice or a cycle.
 */
export function composeTree(transforms: readonly TransformStamped[], root: string): Map<string, Pose> {
  const byParent = new Map<string, TransformStamped[]>();
  const children = new Set<string>();
  for (const t of transforms) {
    if (children.has(t.child_frame_id)) throw new Error(`frame ${t.child_frame_id} has two parents`);
    children.add(t.child_frame_id);
    byParent.set(t.header.frame_id, [...(byParent.get(t.header.frame_id) ?? []), t]);
  }
  const out = new Map<string, Pose>([[root, { translation: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }]]);
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    const p = out.get(parent)!;
    for (const t of byParent.get(parent) ?? []) {
      const local = transformToPose(t);
      const tr = apply(p.rotation, local.translation);
      out.set(t.child_frame_id, {
        translation: [p.translation[0] + tr[0], p.translation[1] + tr[1], p.translation[2] + tr[2]],
        rotation: mul(p.rotation, local.rotation),
      });
      queue.push(t.child_frame_id);
    }
  }
  return out;
}

/** The pose of `b` seen from `a`'s frame, both given in a common frame: a⁻¹·b. */
export function relative(a: { position: Vec3; rotation: Mat3 }, b: { position: Vec3; rotation: Mat3 }): Pose {
  const rt = [0, 1, 2].map((i) => [0, 1, 2].map((j) => a.rotation[j]![i]!)) as Mat3;
  const d: Vec3 = [b.position[0] - a.position[0], b.position[1] - a.position[1], b.position[2] - a.position[2]];
  return { translation: apply(rt, d), rotation: mul(rt, b.rotation) };
}

/** Largest absolute difference between two poses' translations and rotation entries. */
export function poseError(a: Pose, b: Pose): number {
  let e = 0;
  for (let i = 0; i < 3; i++) {
    e = Math.max(e, Math.abs(a.translation[i]! - b.translation[i]!));
    for (let j = 0; j < 3; j++) e = Math.max(e, Math.abs(a.rotation[i]![j]! - b.rotation[i]![j]!));
  }
  return e;
}
