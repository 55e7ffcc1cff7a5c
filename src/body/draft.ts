// Links and devices while a body is being read. Links stay mutable objects until the tree is built
// because sub-bodies rename them and devices, extra joints and children refer to them by identity.
import { defaultJoint } from '../model/joint.js';
import { identity3, identityPose } from '../model/math.js';
import type { Device, ExtraJoint, Joint, Link, Mat3, Pose, Shape, SourceLocation, Vec3 } from '../model/types.js';

export interface LinkDraft {
  name: string;
  /** `joint_name` when given (Choreonoid's jointSpecificName). */
  jointName?: string;
  joint: Omit<Joint, 'name'>;
  offset: Pose;
  mass: number;
  centerOfMass: Vec3;
  inertia: Mat3;
  visuals: Shape[];
  collisions: Shape[];
  parent: LinkDraft | null;
  children: LinkDraft[];
  source: SourceLocation;
  /** On a ContinuousTrack node's first shoe only: the node's numJoints (see Link.continuousTrack). */
  continuousTrack?: number;
  /** See Link.pluginNodes. */
  pluginNodes?: string[];
}

/** A RigidBody node's mass properties in the link frame (centre of mass, mass, inertia about the CoM). */
export interface RigidBody {
  c: Vec3;
  m: number;
  I: Mat3;
}

export type DeviceDraft = Omit<Device, 'link'> & { linkDraft: LinkDraft };

export type ExtraJointDraft = Omit<ExtraJoint, 'link1' | 'link2'> & { link1: LinkDraft; link2: LinkDraft };

/** Choreonoid's Link() defaults: fixed joint about +Z, mass 1, identity inertia, everything unlimited. */
export function newLinkDraft(source: SourceLocation): LinkDraft {
  return {
    name: '',
    joint: defaultJoint('', 'fixed'),
    offset: identityPose(),
    mass: 1,
    centerOfMass: [0, 0, 0],
    inertia: identity3(),
    visuals: [],
    collisions: [],
    parent: null,
    children: [],
    source,
  };
}

/** A copy that shares shapes (as Choreonoid's Link::clone shares scene nodes) but not structure. */
export function cloneLinkDraft(l: LinkDraft): LinkDraft {
  return {
    ...l,
    joint: { ...l.joint, axis: [...l.joint.axis] },
    offset: { translation: [...l.offset.translation], rotation: l.offset.rotation.map((r) => [...r]) as Mat3 },
    centerOfMass: [...l.centerOfMass],
    inertia: l.inertia.map((r) => [...r]) as Mat3,
    visuals: [...l.visuals],
    collisions: [...l.collisions],
    parent: null,
    children: [],
  };
}

/** Links in Choreonoid's traverse order: depth-first pre-order, children in the order they were appended. */
export function traverse(root: LinkDraft): LinkDraft[] {
  const out: LinkDraft[] = [];
  const stack: LinkDraft[] = [root];
  while (stack.length > 0) {
    const l = stack.pop()!;
    out.push(l);
    for (let i = l.children.length - 1; i >= 0; i--) stack.push(l.children[i]!);
  }
  return out;
}

export function finishLink(l: LinkDraft): Link {
  return {
    name: l.name,
    parent: l.parent ? l.parent.name : null,
    joint: { ...l.joint, name: l.jointName ?? l.name },
    offset: l.offset,
    mass: l.mass,
    centerOfMass: l.centerOfMass,
    inertia: l.inertia,
    visuals: l.visuals,
    collisions: l.collisions,
    source: l.source,
    ...(l.continuousTrack !== undefined ? { continuousTrack: l.continuousTrack } : {}),
    ...(l.pluginNodes !== undefined ? { pluginNodes: l.pluginNodes } : {}),
  };
}
