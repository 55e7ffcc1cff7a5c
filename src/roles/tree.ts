// The kinematic tree as limbs: serial runs of moving joints between branching links. Planning groups
// (moveit/groups.ts) and joint roles (roles.ts) read the same runs, so a head, an arm or a finger is one
// thing to both.
import { isMovingJoint } from '../kinematics/frames.js';
import type { Link, RobotModel } from '../model/types.js';

/** A serial run of links below `base`, ending at a leaf or at a link where the tree branches. */
export interface Segment {
  base: string;
  tip: string;
  joints: string[];
  /** Segments hanging below tip (empty at a leaf). */
  below: Segment[];
}

/**
 * The segments hanging from the root. `moves` says which links' joints count as moving (default: revolute
 * and prismatic ones); the others only connect, as fixed joints do.
 */
export function segmentsOf(model: RobotModel, moves: (link: Link) => boolean = isMovingJoint): Segment[] {
  const children = new Map<string, Link[]>();
  for (const l of model.links) if (l.parent !== null) children.set(l.parent, [...(children.get(l.parent) ?? []), l]);
  const movingBelow = new Map<string, boolean>();
  for (const l of [...model.links].reverse()) {
    movingBelow.set(l.name, (children.get(l.name) ?? []).some((c) => moves(c) || movingBelow.get(c.name)));
  }
  const relevant = (name: string): Link[] => (children.get(name) ?? []).filter((c) => moves(c) || movingBelow.get(c.name));
  const walk = (base: string, first: Link): Segment => {
    const joints: string[] = [];
    let cur = first;
    for (;;) {
      if (moves(cur)) joints.push(cur.joint.name);
      const next = relevant(cur.name);
      if (next.length !== 1) return { base, tip: cur.name, joints, below: next.map((c) => walk(cur.name, c)) };
      cur = next[0]!;
    }
  };
  const root = model.links[0];
  return root ? relevant(root.name).map((c) => walk(root.name, c)) : [];
}

/** Every moving joint at or below a segment, in tree order. */
export const jointsUnder = (s: Segment): string[] => [...s.joints, ...s.below.flatMap(jointsUnder)];

/** A hand: a few short finger chains that branch off the end of an arm. */
export const isHand = (arm: Segment): boolean =>
  arm.joints.length >= 3 &&
  arm.below.length >= 1 &&
  arm.below.every((f) => f.below.length === 0 && f.joints.length >= 1 && f.joints.length <= 4 && f.joints.length < arm.joints.length);

/** Whether `link` hangs from the root through fixed joints only (what `moves` calls moving breaks it). */
export function rigidToRoot(model: RobotModel, link: Link, moves: (link: Link) => boolean = isMovingJoint): boolean {
  const byName = new Map(model.links.map((l) => [l.name, l]));
  for (let p = link.parent === null ? undefined : byName.get(link.parent); p; p = p.parent === null ? undefined : byName.get(p.parent)) {
    if (p.parent !== null && (moves(p) || p.joint.type === 'free')) return false;
  }
  return true;
}
