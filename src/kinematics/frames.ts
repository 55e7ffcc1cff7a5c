// The complete frame tree of a model — links, device frames, optical and scan frames — in one list
// that the URDF writer, `body-bridge tf` and the node's TF broadcaster all walk, so they cannot disagree.
import { deviceFrames } from './device-frames.js';
import { composePose, identityPose } from '../model/math.js';
import { uniqueNamer } from '../model/unique-name.js';
import type { Link, Pose, RobotModel } from '../model/types.js';
import { type JointPositions, jointPose } from './forward.js';

export type FrameKind = 'link' | 'track' | 'device' | 'optical' | 'scan';

export interface Frame {
  name: string;
  /** Parent frame; null only for the root link. */
  parent: string | null;
  kind: FrameKind;
  /** For link and track frames: the link (its joint places it in the parent; a track frame's is made up, see trackSurface). */
  link?: Link;
  /** For device, optical and scan frames: the fixed pose in the parent. */
  origin?: Pose;
  /** True when the frame moves relative to its parent (revolute or prismatic joint). */
  moving: boolean;
}

/** A track surface frame is its link's name and this (`LeftTrack_surface`), or the first free `_2`, `_3`, … of it. */
export const TRACK_SURFACE_SUFFIX = '_surface';

export const isMovingJoint = (link: Link): boolean =>
  link.parent !== null && (link.joint.type === 'revolute' || link.joint.type === 'prismatic');

/** A pseudo continuous track below the root: its link is fixed, its joint name goes to its surface (trackSurface). */
export const isTrack = (link: Link): boolean => link.parent !== null && link.joint.type === 'pseudo_continuous_track';

// An axis for a track surface whose link gives none (a VRML crawler's jointAxis may be 0 0 0): a continuous
// joint needs one, and with a zero axis Choreonoid moves no surface, so any unit axis says the same.
const NO_AXIS_SURFACE: Link['joint']['axis'] = [0, 1, 0];

/**
 * A pseudo continuous track's surface, as a link of its own on a continuous joint that carries the track's
 * joint name. Choreonoid drives a track by that joint's velocity, which moves the belt's surface and never the
 * link: for kinematics the track link is fixed (Link::isFixedJoint). ros2_control addresses the track by the
 * joint name (choreonoid_ros looks it up with Body::joint) and refuses a fixed joint of that name (Jazzy's
 * hardware_interface: "Fixed joints do not make sense in ros2_control"), so the name goes to this massless,
 * shapeless child at the track link's origin, turning about the track's axis; the link keeps its place and
 * shapes on a fixed joint. Choreonoid never integrates a track's position, so the surface frame stays put.
 */
export function trackSurface(track: Link, name: string): Link {
  const zero = track.joint.axis.every((x) => x === 0);
  return {
    name,
    parent: track.name,
    joint: {
      ...track.joint,
      type: 'revolute',
      axis: zero ? NO_AXIS_SURFACE : track.joint.axis,
      lower: -Infinity,
      upper: Infinity,
      initial: 0,
    },
    offset: identityPose(),
    mass: 0,
    centerOfMass: [0, 0, 0],
    inertia: [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    visuals: [],
    collisions: [],
    ...(track.source ? { source: track.source } : {}),
  };
}

/** Parents always come before their children. */
export function frameTree(model: RobotModel): Frame[] {
  const frames: Frame[] = model.links.map((link) => ({
    name: link.name,
    parent: link.parent,
    kind: 'link',
    link,
    moving: isMovingJoint(link),
  }));
  const devices = deviceFrames(model);
  // Surfaces are named after every device frame, so adding them renamed no device frame.
  const claim = uniqueNamer([
    ...model.links.map((l) => l.name),
    ...devices.flatMap((d) => [d.frame, ...(d.optical ? [d.optical.frame] : []), ...(d.scan ? [d.scan.frame] : [])]),
  ]);
  for (const link of model.links.filter(isTrack)) {
    const surface = trackSurface(link, claim(`${link.name}${TRACK_SURFACE_SUFFIX}`));
    frames.push({ name: surface.name, parent: link.name, kind: 'track', link: surface, moving: true });
  }
  for (const d of devices) {
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
