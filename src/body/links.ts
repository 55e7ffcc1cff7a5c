// One link's own keys (StdBodyLoader::readLinkContents / readJointContents): name, offset, joint,
// limits with Choreonoid's degree rules, elements, and link-level mass.
import { failAt } from '../model/errors.js';
import type { JointType, Vec3 } from '../model/types.js';
import { degreeToRadian, readRotation, readTranslation, toRadian, warn, type BodyContext } from './context.js';
import { type DeviceDraft, type LinkDraft, newLinkDraft, type RigidBody } from './draft.js';
import { readElementContents } from './elements.js';
import { combineRigidBodies, readInertiaValue, readMass } from './mass.js';
import { asInt, asNumber, asNumberOrOverflow, asString, asVec3, get, numberAt } from './values.js';
import type { YMap, YNode } from './yaml-tree.js';

/** What every link of one body shares while it is read. */
export interface BodyState {
  ctx: BodyContext;
  linkMap: Map<string, LinkDraft>;
  jointNames: Set<string>;
  /** Joint ids seen so far, for Choreonoid's missing / duplicated id warnings. */
  jointIds: Set<number>;
  devices: DeviceDraft[];
}

export function setLinkName(state: BodyState, link: LinkDraft, name: string, where: YNode | YMap): void {
  if (state.linkMap.has(name)) failAt(where.loc, `duplicate link name "${name}"`);
  link.name = name;
  state.linkMap.set(name, link);
}

export function setJointName(state: BodyState, link: LinkDraft, name: string, where: YNode | YMap): void {
  if (state.jointNames.has(name)) failAt(where.loc, `duplicate joint name "${name}"`);
  link.jointName = name;
  state.jointNames.add(name);
}

export function setJointId(state: BodyState, link: LinkDraft, id: number, where: YNode | YMap): void {
  link.joint.id = id >= 0 ? id : null;
  if (id < 0) return;
  if (state.jointIds.has(id)) warn(state.ctx, where.loc, `joint id ${id} of link "${link.name}" is used more than once`);
  state.jointIds.add(id);
}

const JOINT_TYPES: Record<string, JointType> = {
  revolute: 'revolute',
  prismatic: 'prismatic',
  slide: 'prismatic',
  free: 'free',
  fixed: 'fixed',
  pseudo_continuous_track: 'pseudo_continuous_track',
  pseudoContinuousTrack: 'pseudo_continuous_track',
};

const AXES: Record<string, Vec3> = {
  X: [1, 0, 0],
  '-X': [-1, 0, 0],
  Y: [0, 1, 0],
  '-Y': [0, -1, 0],
  Z: [0, 0, 1],
  '-Z': [0, 0, -1],
};

const ACTUATION_MODES = new Set([
  'joint_effort', 'jointEffort', 'jointTorque', 'jointForce', 'joint_displacement', 'jointDisplacement', 'jointAngle',
  'joint_velocity', 'jointVelocity', 'jointSurfaceVelocity', 'link_position', 'linkPosition',
]);

/** A limit value: a number or `unlimited` (±Infinity; Choreonoid's ±DBL_MAX). */
function readLimit(n: YNode, upper: boolean): number {
  if (n.kind === 'scalar' && n.value === 'unlimited') return upper ? Infinity : -Infinity;
  return asNumberOrOverflow(n, 'a number or "unlimited"');
}

function readAxis(n: YNode): Vec3 {
  if (n.kind === 'seq') return asVec3(n, 'a joint axis [x, y, z]');
  if (n.kind === 'scalar') {
    const axis = AXES[n.value.toUpperCase()];
    if (axis) return [...axis];
  }
  return failAt(n.loc, 'expected a joint axis: [x, y, z] or one of X, Y, Z, -X, -Y, -Z');
}

// Unlimited values are never converted from degrees.
const convert = (x: number): number => (Number.isFinite(x) ? degreeToRadian(x) : x);

export function readJointContents(state: BodyState, link: LinkDraft, map: YMap): void {
  const { ctx } = state;
  const j = link.joint;
  const idNode = get(map, ['joint_id', 'jointId']);
  if (idNode) setJointId(state, link, asInt(idNode, 'an integer joint id'), idNode);

  const typeNode = get(map, ['joint_type', 'jointType']);
  if (typeNode) {
    const t = JOINT_TYPES[asString(typeNode)];
    if (!t) failAt(typeNode.loc, `unknown joint type "${asString(typeNode)}" (expected fixed, free, revolute, prismatic or pseudo_continuous_track)`);
    j.type = t;
  }
  const axisNode = get(map, ['joint_axis', 'jointAxis']);
  if (axisNode) j.axis = readAxis(axisNode);
  if (axisNode && j.type !== 'fixed' && j.type !== 'free' && j.axis.every((x) => x === 0)) {
    failAt(axisNode.loc, `the joint axis of a ${j.type} joint must be a non-zero vector`);
  }

  const modeNode = get(map, ['actuation_mode', 'actuationMode']);
  if (modeNode) {
    const mode = asString(modeNode);
    if (!ACTUATION_MODES.has(mode)) failAt(modeNode.loc, `unknown actuation mode "${mode}"`);
    // The deprecated mode turns the joint into a pseudo continuous track, as in Choreonoid.
    if (mode === 'jointSurfaceVelocity') j.type = 'pseudo_continuous_track';
  }

  const angleNode = get(map, ['joint_angle', 'jointAngle']);
  if (angleNode) j.initial = toRadian(ctx, asNumber(angleNode));
  const displacementNode = get(map, ['joint_displacement', 'jointDisplacement']);
  if (displacementNode) {
    const d = asNumber(displacementNode);
    j.initial = j.type === 'revolute' ? toRadian(ctx, d) : d;
  }

  const inDegrees = j.type === 'revolute' && ctx.degree;
  // Choreonoid resets the ranges on every read, so a SubBody entry without them makes them unlimited.
  let lower = -Infinity;
  let upper = Infinity;
  const rangeNode = get(map, ['joint_range', 'jointRange']);
  if (rangeNode) {
    if (rangeNode.kind === 'scalar') {
      upper = readLimit(rangeNode, true);
      lower = -upper;
    } else if (rangeNode.kind === 'seq') {
      if (rangeNode.items.length !== 2) failAt(rangeNode.loc, `expected joint_range [lower, upper], got ${rangeNode.items.length} elements`);
      lower = readLimit(rangeNode.items[0]!, false);
      upper = readLimit(rangeNode.items[1]!, true);
    } else {
      failAt(rangeNode.loc, 'expected joint_range as [lower, upper], a number or "unlimited"');
    }
  }
  if (rangeNode && lower > upper) {
    failAt(rangeNode.loc, `joint_range lower limit ${lower} is greater than the upper limit ${upper}`);
  }
  j.lower = inDegrees ? convert(lower) : lower;
  j.upper = inDegrees ? convert(upper) : upper;

  let vLower = -Infinity;
  let vUpper = Infinity;
  const maxVelocity = get(map, ['max_joint_velocity', 'maxJointVelocity']);
  if (maxVelocity) {
    vUpper = readLimit(maxVelocity, true);
    vLower = -vUpper;
  } else {
    const vRange = get(map, ['joint_velocity_range', 'jointVelocityRange']);
    if (vRange) {
      if (vRange.kind !== 'seq' || vRange.items.length !== 2) failAt(vRange.loc, 'expected joint_velocity_range [lower, upper]');
      vLower = readLimit(vRange.items[0]!, false);
      vUpper = readLimit(vRange.items[1]!, true);
    }
  }
  j.velocityLower = inDegrees ? convert(vLower) : vLower;
  j.velocityUpper = inDegrees ? convert(vUpper) : vUpper;

  const effort = get(map, 'max_joint_effort');
  if (effort) {
    const e = readLimit(effort, true);
    j.effortLower = -e;
    j.effortUpper = e;
  }

  const axisInertia = numberAt(map, 'joint_axis_inertia');
  if (axisInertia !== undefined) {
    j.rotorInertia = axisInertia;
    j.gearRatio = 1;
  } else {
    j.rotorInertia = numberAt(map, ['rotor_inertia', 'rotorInertia']) ?? 0;
    j.gearRatio = numberAt(map, ['gear_ratio', 'gearRatio']) ?? 1;
  }
}

/**
 * Reads a link node. With `existing` (a SubBody's root) only the offset, joint and elements are
 * read over it, as Choreonoid does; names and mass stay the sub-body's.
 */
export function readLinkContents(state: BodyState, map: YMap, existing?: LinkDraft): LinkDraft {
  const { ctx } = state;
  const link = existing ?? newLinkDraft(map.loc);
  if (!existing) {
    const nameNode = get(map, 'name');
    if (!nameNode) failAt(map.loc, 'a link needs a "name"');
    const name = asString(nameNode, 'a link name');
    if (name === '') failAt(nameNode.loc, 'a link name must not be empty');
    setLinkName(state, link, name, nameNode);
    const jointNameNode = get(map, 'joint_name');
    // An empty joint_name means none: Choreonoid's Link::jointName() falls back to the link name.
    const jointName = jointNameNode ? asString(jointNameNode, 'a joint name') : '';
    if (jointNameNode && jointName !== '') setJointName(state, link, jointName, jointNameNode);
  }
  const p = readTranslation(map);
  if (p) link.offset = { ...link.offset, translation: p };
  const r = readRotation(ctx, map);
  if (r) link.offset = { ...link.offset, rotation: r };

  readJointContents(state, link, map);

  const rigidBodies: RigidBody[] = [];
  const elements = get(map, 'elements');
  if (elements) {
    readElementContents(
      {
        ctx,
        link,
        transform: { linear: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] },
        mode: 'both',
        name: link.name,
        rigidBodies,
        devices: state.devices,
        depth: 0,
      },
      elements,
    );
  }

  if (!existing) {
    const comNode = get(map, ['center_of_mass', 'centerOfMass']);
    const massNode = get(map, 'mass');
    const inertiaNode = get(map, 'inertia');
    if (comNode || massNode || inertiaNode) {
      // Alone, the link-level values fill gaps with the link defaults; next to RigidBody nodes, with zeros.
      const alone = rigidBodies.length === 0;
      rigidBodies.push({
        c: comNode ? asVec3(comNode, 'a center of mass [x, y, z]') : alone ? link.centerOfMass : [0, 0, 0],
        m: massNode ? readMass(massNode) : alone ? link.mass : 0,
        I: inertiaNode ? readInertiaValue(ctx, inertiaNode) : alone ? link.inertia : [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
      });
    }
    if (rigidBodies.length > 0) {
      const combined = combineRigidBodies(rigidBodies);
      const values = [combined.mass, ...combined.centerOfMass, ...combined.inertia.flat()];
      if (!values.every(Number.isFinite)) {
        failAt((massNode ?? comNode ?? inertiaNode ?? map).loc, `the mass properties of link "${link.name}" overflow when combined (values too large)`);
      }
      link.mass = combined.mass;
      link.centerOfMass = combined.centerOfMass;
      link.inertia = combined.inertia;
    }
    if (get(map, 'import')) {
      warn(ctx, get(map, 'import')!.loc, '"import" is kept as link information only; as in Choreonoid it does not change the link (use a "<<" merge key to reuse values)');
    }
  }
  return link;
}
