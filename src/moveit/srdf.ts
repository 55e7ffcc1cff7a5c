// The semantic robot description (SRDF) MoveIt reads beside the URDF: planning groups, a home state,
// end effectors, the virtual joint of a free-floating base and the collision pairs to skip. The element
// order is the one MoveIt's Setup Assistant writes.
import { isMovingJoint } from '../kinematics/frames.js';
import type { RobotModel } from '../model/types.js';
import { num } from '../urdf/format.js';
import { type XmlNode, el, serialize } from '../urdf/xml.js';
import type { DisabledPair } from './collision-matrix.js';
import type { EndEffector, PlanningGroup } from './groups.js';

export interface VirtualJoint {
  name: string;
  type: 'floating' | 'planar' | 'fixed';
  parentFrame: string;
  childLink: string;
}

export interface GroupState {
  name: string;
  group: string;
  values: [string, number][];
}

export interface SemanticDescription {
  robot: string;
  groups: PlanningGroup[];
  states: GroupState[];
  endEffectors: EndEffector[];
  virtualJoints: VirtualJoint[];
  disabled: DisabledPair[];
}

export const HOME_STATE = 'home';
export const VIRTUAL_JOINT = 'virtual_joint';

/** The virtual joint for a free-floating root (none for a fixed one: the URDF's root stays MoveIt's root). */
export function virtualJointFor(model: RobotModel, parentFrame: string): VirtualJoint | null {
  const root = model.links[0];
  if (!root || root.joint.type !== 'free') return null;
  return { name: VIRTUAL_JOINT, type: 'floating', parentFrame, childLink: root.name };
}

/** Each moving joint at its initial position, clamped into its limits (MoveIt rejects a state outside them). */
export function homePositions(model: RobotModel): [string, number][] {
  return model.links.filter(isMovingJoint).map((l) => {
    const j = l.joint;
    const q = Number.isFinite(j.initial) ? j.initial : 0;
    return [j.name, Math.min(Math.max(q, j.lower), j.upper)];
  });
}

/** The home state for a group: the values of the joints the group holds (through a chain, joints or subgroups). */
export function homeState(group: PlanningGroup, home: readonly [string, number][], model: RobotModel): GroupState {
  const joints = groupJoints(group, model, new Map());
  return { name: HOME_STATE, group: group.name, values: home.filter(([n]) => joints.has(n)) };
}

/** A link and every link below it (the ones its joint moves), parents first: RobotModel.links is in depth-first pre-order. */
export function linksBelow(model: RobotModel, root: string): RobotModel['links'] {
  const below = new Set([root]);
  return model.links.filter((l) => {
    if (l.name !== root && (l.parent === null || !below.has(l.parent))) return false;
    below.add(l.name);
    return true;
  });
}

/**
 * The links of a chain from its tip up to (not including) its base, tip first, and whether the walk reached the
 * base (false when the tip is not below it). Each link stands for its parent joint.
 */
export function chainPath(model: RobotModel, chain: { base: string; tip: string }): { links: RobotModel['links']; reachedBase: boolean } {
  const byLink = new Map(model.links.map((l) => [l.name, l]));
  const links: RobotModel['links'] = [];
  let l = byLink.get(chain.tip);
  for (; l && l.name !== chain.base && l.parent !== null; l = byLink.get(l.parent)) links.push(l);
  return { links, reachedBase: l !== undefined && l.name === chain.base };
}

/** The joint names a group covers: its chain's joints, its joints, its links' joints. */
export function groupJoints(group: PlanningGroup, model: RobotModel, groups: ReadonlyMap<string, PlanningGroup>, seen = new Set<string>()): Set<string> {
  const byLink = new Map(model.links.map((l) => [l.name, l]));
  const out = new Set(group.joints);
  for (const l of group.links) {
    const link = byLink.get(l);
    if (link && link.parent !== null) out.add(link.joint.name);
  }
  if (group.chain) for (const l of chainPath(model, group.chain).links) out.add(l.joint.name);
  seen.add(group.name);
  for (const s of group.subgroups) {
    const sub = groups.get(s);
    if (sub && !seen.has(s)) for (const j of groupJoints(sub, model, groups, seen)) out.add(j);
  }
  return out;
}

export function toSrdf(d: SemanticDescription, comment?: string): string {
  const groups: XmlNode[] = d.groups.map((g) =>
    el('group', { name: g.name }, [
      ...g.links.map((n) => el('link', { name: n })),
      ...g.joints.map((n) => el('joint', { name: n })),
      ...(g.chain ? [el('chain', { base_link: g.chain.base, tip_link: g.chain.tip })] : []),
      ...g.subgroups.map((n) => el('group', { name: n })),
    ]),
  );
  const states = d.states.map((s) =>
    el('group_state', { name: s.name, group: s.group }, s.values.map(([n, v]) => el('joint', { name: n, value: num(v) }))),
  );
  const ees = d.endEffectors.map((e) =>
    el('end_effector', { name: e.name, parent_link: e.parentLink, group: e.group, ...(e.parentGroup ? { parent_group: e.parentGroup } : {}) }),
  );
  const vjs = d.virtualJoints.map((v) => el('virtual_joint', { name: v.name, type: v.type, parent_frame: v.parentFrame, child_link: v.childLink }));
  const pairs = d.disabled.map((p) => el('disable_collisions', { link1: p.link1, link2: p.link2, reason: p.reason }));
  return serialize(
    el('robot', { name: d.robot }, [...(comment ? [{ comment }] : []), ...groups, ...states, ...ees, ...vjs, ...pairs]),
  );
}
