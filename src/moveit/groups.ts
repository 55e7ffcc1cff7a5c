// Planning groups read off the kinematic tree, the way a person would set them up in MoveIt's Setup
// Assistant: one chain per limb (the serial run of moving joints from a branching link to an end),
// a hand where a few short finger chains follow an arm, a head, the flippers or the steering joints as one
// group each, and one group holding every joint MoveIt may move. Joints whose role (roles/roles.ts) is to
// drive, steer or roll the base — wheels, tracks, casters — or that nothing commands are in no group: MoveIt
// plans no wheel.
import type { RobotModel } from '../model/types.js';
import { uniqueNamer } from '../model/unique-name.js';
import { MOBILITY_ROLES, type RoleAnalysis, inferRoles } from '../roles/roles.js';
import { type Segment, isHand, jointsUnder, segmentsOf } from '../roles/tree.js';

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

/**
 * Groups for a model as ROS sees it (after applyRosConventions). `originalName` maps a link name back
 * to the model's own, so a group named after its end link reads like the model.
 */
export function inferGroups(model: RobotModel, originalName: (link: string) => string = (n) => n, roles: RoleAnalysis = inferRoles(model)): InferredGroups {
  const notes: string[] = [];
  const chains: { segment: Segment; limb: string | null; hand: Segment[] | null; head: boolean }[] = [];
  const roleOf = new Map(roles.joints.map((r) => [r.joint, r]));
  const own = (role: string): string[] => roles.joints.filter((r) => r.role === role && r.actuated).map((r) => r.joint);
  // Chains are made of the joints a limb role (head, arm, gripper, leg, joint) gives; the rest only connect.
  const limbJoint = (l: { parent: string | null; joint: { name: string } }): boolean => {
    const r = l.parent === null ? undefined : roleOf.get(l.joint.name);
    return r !== undefined && r.actuated && !MOBILITY_ROLES.has(r.role) && r.role !== 'flipper' && r.role !== 'steering';
  };
  const left = roles.joints.filter((r) => MOBILITY_ROLES.has(r.role) || !r.actuated);
  if (left.length > 0) notes.push(`in no group: ${left.map((r) => `${r.joint} (${r.actuated ? r.role : `${r.role}, free`})`).join(', ')} — MoveIt plans no wheel, track, caster or free joint`);
  const visit = (s: Segment): void => {
    const hand = isHand(s) ? s.below : null;
    const head = s.joints.length > 0 && jointsUnder(s).every((j) => roleOf.get(j)?.role === 'head');
    if (s.joints.length > 0) chains.push({ segment: s, limb: limbName(s.joints), hand, head });
    if (!hand && !head) s.below.forEach(visit);
  };
  segmentsOf(model, limbJoint).forEach(visit);

  const taken = new Set<string>();
  const name = uniqueNamer([WHOLE_BODY_GROUP]);
  const limbs = chains.filter((c) => !c.head);
  const sole = limbs.length === 1 && limbs[0]!.limb === null && limbs[0]!.segment.joints.length >= 3 ? limbs[0] : undefined;
  const groups: PlanningGroup[] = [];
  const endEffectors: EndEffector[] = [];
  for (const c of chains) {
    const s = c.segment;
    const soleArm = c === sole;
    const wanted = c.head && c.limb === null && !taken.has('head') ? 'head' : soleArm ? 'arm' : c.limb !== null && !taken.has(c.limb) ? c.limb : originalName(s.tip);
    taken.add(wanted);
    const groupName = name(wanted);
    groups.push({ name: groupName, chain: { base: s.base, tip: s.tip }, joints: [], links: [], subgroups: [] });
    notes.push(
      `group ${groupName}: chain ${s.base} → ${s.tip} (${s.joints.length} joint${s.joints.length === 1 ? '' : 's'}), named ` +
        (soleArm ? 'arm (the only limb)' : wanted === 'head' ? 'head (its joints are the head’s)' : c.limb === wanted ? 'after its joints (Choreonoid limb name)' : 'after its end link'),
    );
    if (c.hand) {
      const handName = name(groupName === 'arm' ? 'hand' : /^[RL]ARM$/.test(groupName) ? `${groupName[0]}HAND` : `${groupName}_hand`);
      const joints = c.hand.flatMap(jointsUnder);
      groups.push({ name: handName, joints, links: [], subgroups: [] });
      endEffectors.push({ name: handName, parentLink: s.tip, group: handName, parentGroup: groupName });
      notes.push(`group ${handName}: the ${joints.length} finger joint(s) after ${s.tip} (${joints.join(', ')}); end effector ${handName} on ${s.tip}`);
    }
  }
  for (const [role, group] of [['flipper', 'flippers'], ['steering', 'steering']] as const) {
    const joints = own(role);
    if (joints.length === 0) continue;
    const groupName = name(group);
    groups.push({ name: groupName, joints, links: [], subgroups: [] });
    notes.push(`group ${groupName}: the ${role} joints (${joints.join(', ')})`);
  }
  const moving = roles.joints.filter((r) => r.actuated && !MOBILITY_ROLES.has(r.role)).map((r) => r.joint);
  if (moving.length > 0) {
    groups.push({ name: WHOLE_BODY_GROUP, joints: moving, links: [], subgroups: [] });
    notes.push(`group ${WHOLE_BODY_GROUP}: all ${moving.length} joints MoveIt may move`);
  } else {
    notes.push('no planning groups: the model has no joint MoveIt may move');
  }
  return { groups, endEffectors, notes };
}
