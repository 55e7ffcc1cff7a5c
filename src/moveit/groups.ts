// Planning groups read off the kinematic tree, the way a person would set them up in MoveIt's Setup
// Assistant: one chain per limb (the serial run of moving joints from a branching link to an end),
// a hand where a few short finger chains follow an arm, and one group holding every moving joint.
import { isMovingJoint } from '../kinematics/frames.js';
import type { Link, RobotModel } from '../model/types.js';
import { uniqueNamer } from '../model/unique-name.js';

export interface PlanningGroup {
  name: string;
  /** A serial chain from base_link to tip_link (KDL-solvable): kinematics.yaml gets a solver for it. */
  chain?: { base: string; tip: string };
  joints: string[];
  links: string[];
  subgroups: string[];
}

export interface EndEffector {
  name: string;
  parentLink: string;
  group: string;
  parentGroup?: string;
}

export interface InferredGroups {
  groups: PlanningGroup[];
  endEffectors: EndEffector[];
  /** One line per decision, for the README. */
  notes: string[];
}

export const WHOLE_BODY_GROUP = 'whole_body';

/** A serial run of links below `base`, ending at a leaf or at a link where the tree branches. */
interface Segment {
  base: string;
  tip: string;
  joints: string[];
  /** Segments hanging below tip (empty at a leaf). */
  below: Segment[];
}

const SIDES: [RegExp, string][] = [
  [/^(R(?=ARM|LEG|HAND|_)|RIGHT)/, 'R'],
  [/^(L(?=ARM|LEG|HAND|_)|LEFT)/, 'L'],
];
const PARTS: [RegExp, string][] = [
  [/ARM|SHOULDER|ELBOW|WRIST/, 'ARM'],
  [/LEG|HIP|KNEE|ANKLE|TOE|CROTCH/, 'LEG'],
  [/HEAD|NECK/, 'HEAD'],
];

/**
 * Choreonoid's usual limb names (RARM, LARM, RLEG, LLEG, HEAD) when every joint of a chain says the
 * same side and part (R_SHOULDER_P, RARM_ELBOW, ...); null otherwise.
 */
export function limbName(jointNames: readonly string[]): string | null {
  let found: string | null = null;
  for (const raw of jointNames) {
    const n = raw.toUpperCase();
    const side = SIDES.find(([re]) => re.test(n))?.[1] ?? '';
    const part = PARTS.find(([re]) => re.test(n))?.[1];
    if (part === undefined) return null;
    const name = part === 'HEAD' ? (side === '' ? 'HEAD' : null) : side === '' ? null : `${side}${part}`;
    if (name === null || (found !== null && found !== name)) return null;
    found = name;
  }
  return found;
}

function segmentsOf(model: RobotModel): Segment[] {
  const children = new Map<string, Link[]>();
  for (const l of model.links) if (l.parent !== null) children.set(l.parent, [...(children.get(l.parent) ?? []), l]);
  const movingBelow = new Map<string, boolean>();
  for (const l of [...model.links].reverse()) {
    movingBelow.set(l.name, (children.get(l.name) ?? []).some((c) => isMovingJoint(c) || movingBelow.get(c.name)));
  }
  const relevant = (name: string): Link[] => (children.get(name) ?? []).filter((c) => isMovingJoint(c) || movingBelow.get(c.name));
  const walk = (base: string, first: Link): Segment => {
    const joints: string[] = [];
    let cur = first;
    for (;;) {
      if (isMovingJoint(cur)) joints.push(cur.joint.name);
      const next = relevant(cur.name);
      if (next.length !== 1) return { base, tip: cur.name, joints, below: next.map((c) => walk(cur.name, c)) };
      cur = next[0]!;
    }
  };
  const root = model.links[0];
  return root ? relevant(root.name).map((c) => walk(root.name, c)) : [];
}

/** Every moving joint at or below a segment, in tree order. */
const jointsUnder = (s: Segment): string[] => [...s.joints, ...s.below.flatMap(jointsUnder)];

/** A hand: a few short finger chains that branch off the end of an arm. */
const isHand = (arm: Segment): boolean =>
  arm.joints.length >= 3 &&
  arm.below.length >= 1 &&
  arm.below.every((f) => f.below.length === 0 && f.joints.length >= 1 && f.joints.length <= 4 && f.joints.length < arm.joints.length);

/**
 * Groups for a model as ROS sees it (after applyRosConventions). `originalName` maps a link name back
 * to the model's own, so a group named after its end link reads like the model.
 */
export function inferGroups(model: RobotModel, originalName: (link: string) => string = (n) => n): InferredGroups {
  const notes: string[] = [];
  const chains: { segment: Segment; limb: string | null; hand: Segment[] | null }[] = [];
  const byJoint = new Map(model.links.map((l) => [l.joint.name, l.joint]));
  // A wheel: a short leaf chain of joints without position limits. Nothing to plan for an arm there.
  const isWheel = (s: Segment): boolean =>
    s.below.length === 0 && s.joints.length <= 2 && s.joints.every((j) => { const x = byJoint.get(j); return x?.type === 'revolute' && !Number.isFinite(x.lower) && !Number.isFinite(x.upper); });
  const visit = (s: Segment): void => {
    const hand = isHand(s) ? s.below : null;
    if (isWheel(s)) notes.push(`no group for ${s.tip}: a wheel (${s.joints.join(', ')} without position limits); its joints are in ${WHOLE_BODY_GROUP}`);
    else if (s.joints.length > 0) chains.push({ segment: s, limb: limbName(s.joints), hand });
    if (!hand) s.below.forEach(visit);
  };
  segmentsOf(model).forEach(visit);

  const taken = new Set<string>();
  const name = uniqueNamer([WHOLE_BODY_GROUP]);
  const soleArm = chains.length === 1 && chains[0]!.limb === null && chains[0]!.segment.joints.length >= 3;
  const groups: PlanningGroup[] = [];
  const endEffectors: EndEffector[] = [];
  for (const c of chains) {
    const s = c.segment;
    const wanted = soleArm ? 'arm' : c.limb !== null && !taken.has(c.limb) ? c.limb : originalName(s.tip);
    taken.add(wanted);
    const groupName = name(wanted);
    groups.push({ name: groupName, chain: { base: s.base, tip: s.tip }, joints: [], links: [], subgroups: [] });
    notes.push(
      `group ${groupName}: chain ${s.base} → ${s.tip} (${s.joints.length} joint${s.joints.length === 1 ? '' : 's'}), named ` +
        (soleArm ? 'arm (the only limb)' : c.limb === wanted ? 'after its joints (Choreonoid limb name)' : 'after its end link'),
    );
    if (c.hand) {
      const handName = name(groupName === 'arm' ? 'hand' : /^[RL]ARM$/.test(groupName) ? `${groupName[0]}HAND` : `${groupName}_hand`);
      const joints = c.hand.flatMap(jointsUnder);
      groups.push({ name: handName, joints, links: [], subgroups: [] });
      endEffectors.push({ name: handName, parentLink: s.tip, group: handName, parentGroup: groupName });
      notes.push(`group ${handName}: the ${joints.length} finger joint(s) after ${s.tip} (${joints.join(', ')}); end effector ${handName} on ${s.tip}`);
    }
  }
  const moving = model.links.filter(isMovingJoint).map((l) => l.joint.name);
  if (moving.length > 0) {
    groups.push({ name: WHOLE_BODY_GROUP, joints: moving, links: [], subgroups: [] });
    notes.push(`group ${WHOLE_BODY_GROUP}: all ${moving.length} moving joints`);
  } else {
    notes.push('no planning groups: the model has no moving joints');
  }
  return { groups, endEffectors, notes };
}
