// The complete frame tree of a model — links, device frames, optical and scan frames — in one list
// that the URDF writer, `body-bridge tf` and the node's TF broadcaster all walk, so they cannot disagree.
import { deviceFrames } from './device-frames.js';
import { composePose, identityPose } from '../model/math.js';
import type { Link, Pose, RobotModel } from '../model/types.js';
import { type JointPositions, jointPose } from './forward.js';

export type FrameKind = 'link' | 'device' | 'optical' | 'scan';

export interface Frame {
  name: string;
  /** Parent frame; null only for the root link. */
  parent: string | null;
  kind: FrameKind;
  /** For link frames: the link (its joint places it in the parent). */
  link?: Link;
  /** For device, optical and scan frames: the fixed pose in the parent. */
  origin?: Pose;
  /** True when the frame moves relative to its parent (revolute or prismatic joint). */
  moving: boolean;
}

export const isMovingJoint = (link: Link): boolean =>
  link.parent !== null && (link.joint.type === 'revolute' || link.joint.type === 'prismatic');

/** Parents always come before their children. */
export function frameTree(model: RobotModel): Frame[] {
  const frames: Frame[] = model.links.map((link) => ({
    name: link.name,
    parent: link.parent,
    kind: 'link',
    link,
    moving: isMovingJoint(link),
  }));
  for (const d of deviceFrames(model)) {
    frames.push({ name: d.frame, parent: d.link, kind: 'device', origin: d.pose, moving: false });
    if (d.optical) {
      frames.push({
        name: d.optical.frame,
        parent: d.frame,
        kind: 'optical',
        origin: { translation: [0, 0, 0], rotation: d.optical.rotation },
        moving: false,
      });
    }
    if (d.scan) {
      frames.push({
        name: d.scan.frame,
        parent: d.frame,
        kind: 'scan',
        origin: { translation: [0, 0, 0], rotation: d.scan.rotation },
        moving: false,
      });
    }
  }
  return frames;
}

/** A frame's pose in its parent for the given joint positions (the root link: identity). */
export function localPose(frame: Frame, q: JointPositions): Pose {
  if (frame.link) {
    return frame.link.parent === null ? identityPose() : jointPose(frame.link, q.get(frame.link.joint.name) ?? 0);
  }
  return frame.origin ?? identityPose();
}

/** Every frame's pose in its parent and in the root link's frame. */
export function framePoses(frames: readonly Frame[], q: JointPositions): Map<string, { local: Pose; root: Pose }> {
  const out = new Map<string, { local: Pose; root: Pose }>();
  for (const f of frames) {
    const local = localPose(f, q);
    const parent = f.parent === null ? undefined : out.get(f.parent);
    out.set(f.name, { local, root: parent ? composePose(parent.root, local) : local });
  }
  return out;
}
