// OpenHRP model (Humanoid / Joint / Segment / ExtraJoint / sensor PROTO instances) → RobotModel,
// with the semantics of Choreonoid's VRMLBodyLoader: link = Joint (named by its DEF), Segments
// combined into the link's mass properties, sensors placed through the Transforms above them.
import { defaultJoint } from '../model/joint.js';
import { basename, extname } from 'node:path';
import { failAt } from '../model/errors.js';
import { add, composeAffine, identity3, identityPose, mulMat, scale, transformPoint, transpose } from '../model/math.js';
import type { Affine, Device, Diagnostic, ExtraJoint, Joint, JointType, Link, Mat3, RobotModel, Shape, SourceLocation, Vec3 } from '../model/types.js';
import { firstFreeName } from '../model/unique-name.js';
import type { VrmlNode } from './ast.js';
import { DEVICE_PROTOS, readDevice } from './devices.js';
import { getField, getFloat, getInt, getNodes, getNumbers, getRotation, getString, getVec3, locate, nodeLabel } from './fields.js';
import { collectShapes, type ShapeBudget } from './shapes.js';
import { identityAffine, isIdentityAffine, transformAffine } from './transform.js';

interface LoaderState {
  warnings: Diagnostic[];
  budget: ShapeBudget;
  loadShapes: boolean;
  links: Link[];
  devices: Device[];
  /** jointId → first link that claimed it, and where. */
  jointIds: Map<number, { name: string; at: SourceLocation }>;
  names: Set<string>;
}

/** Per-link accumulation while its Joint's subtree is read (VRMLBodyLoaderImpl::LinkInfo). */
interface LinkAccumulator {
  link: Link;
  mass: number;
  com: Vec3;
  inertia: number[][];
  segments: { c: Vec3; m: number }[];
  visuals: Shape[];
  collisions: Shape[];
  surfaceUsed: boolean;
}

type Role = 'joint' | 'segment' | 'surface' | 'device' | 'humanoid' | 'extraJoint';

const roleOf = (protoName: string): Role | undefined => {
  if (protoName === 'Joint') return 'joint';
  if (protoName === 'Segment') return 'segment';
  if (protoName === 'Surface') return 'surface';
  if (protoName === 'Humanoid') return 'humanoid';
  if (protoName === 'ExtraJoint') return 'extraJoint';
  return DEVICE_PROTOS.has(protoName) ? 'device' : undefined;
};

export interface OpenHrpInput {
  file: string;
  nodes: VrmlNode[];
  warnings: Diagnostic[];
  budget: ShapeBudget;
  loadShapes: boolean;
}

export function buildRobotModel({ file, nodes, warnings, budget, loadShapes }: OpenHrpInput): RobotModel {
  const st: LoaderState = { warnings, budget, loadShapes, links: [], devices: [], jointIds: new Map(), names: new Set() };
  const humanoids = nodes.filter((n) => n.proto && n.type === 'Humanoid');
  const extraJointNodes = nodes.filter((n) => n.proto && n.type === 'ExtraJoint');
  if (humanoids.length > 1) failAt(locate(humanoids[1]!, nodeLabel(humanoids[1]!)), 'more than one Humanoid node');
  const humanoid = humanoids[0];
  let rootJoint: VrmlNode | undefined;
  let rootPath: string;
  let name: string;
  if (humanoid) {
    const hpath = nodeLabel(humanoid);
    const body = getNodes(humanoid, hpath, 'humanoidBody');
    if (body.length !== 1) {
      failAt(locate(humanoid, hpath, 'humanoidBody'), `the Humanoid's humanoidBody must hold exactly one Joint node, it holds ${body.length} nodes`);
    }
    rootJoint = body[0]!;
    if (!rootJoint.proto || rootJoint.type !== 'Joint') {
      failAt(locate(rootJoint, `${hpath}.humanoidBody`), `the Humanoid's humanoidBody must be a Joint node, not ${rootJoint.type}`);
    }
    rootPath = `${hpath}.humanoidBody`;
    name = humanoid.defName || getString(humanoid, hpath, 'name', '') || stem(file);
  } else {
    // Not in Choreonoid (which loads a file without Humanoid as one shape-only link): a bare Joint
    // tree at the top level is read as the body it describes.
    const joints = nodes.filter((n) => n.proto && n.type === 'Joint');
    if (joints.length > 1) failAt(locate(joints[1]!, nodeLabel(joints[1]!)), 'more than one top-level Joint node and no Humanoid');
    rootJoint = joints[0];
    rootPath = '';
    name = stem(file);
  }
  if (!rootJoint) return shapeOnlyModel(file, nodes, st, name);

  const root = readJoint(rootJoint, rootPath, null, st);
  // Choreonoid's link order is a pre-order walk; readJoint records links as it enters them.
  reportJointIds(st);
  const linkNames = new Set(st.links.map((l) => l.name));
  const extraJoints = extraJointNodes.flatMap((n) => readExtraJoint(n, nodeLabel(n), linkNames, st));
  return {
    name,
    sourceFile: file,
    format: 'wrl',
    root: root.name,
    links: st.links,
    devices: st.devices,
    extraJoints,
    warnings,
  };
}

const stem = (file: string): string => basename(file, extname(file));

/** Choreonoid: a file without a Humanoid is one fixed link "Root" holding every shape. */
function shapeOnlyModel(file: string, nodes: VrmlNode[], st: LoaderState, name: string): RobotModel {
  const shapes: Shape[] = [];
  const sceneNodes = nodes.filter((n) => !(n.proto && n.type === 'ExtraJoint'));
  // Choreonoid makes the link from any scene (lights or fog alone included); only an empty file fails.
  if (sceneNodes.length === 0) failAt({ file, line: 1, column: 1 }, 'no Humanoid, Joint or scene node in the file: nothing can be loaded as a body');
  collectShapes(sceneNodes, identityAffine(), '', st.budget, shapes);
  const link: Link = {
    name: 'Root',
    parent: null,
    joint: baseJoint('Root', 'fixed'),
    offset: identityPose(),
    mass: 1,
    centerOfMass: [0, 0, 0],
    inertia: identity3(),
    visuals: st.loadShapes ? shapes : [],
    collisions: st.loadShapes ? [...shapes] : [],
    source: { file },
  };
  st.warnings.push({ severity: 'warning', message: 'no Humanoid node: the whole scene is loaded as one fixed link "Root"', file });
  return { name, sourceFile: file, format: 'wrl', root: 'Root', links: [link], devices: [], extraJoints: [], warnings: st.warnings };
}

const baseJoint = (name: string, type: JointType): Joint => defaultJoint(name, type, [0, 0, 0]);

const JOINT_TYPES: Record<string, JointType> = {
  fixed: 'fixed',
  free: 'free',
  rotate: 'revolute',
  slide: 'prismatic',
  pseudoContinuousTrack: 'pseudo_continuous_track',
  crawler: 'pseudo_continuous_track',
};

function readJoint(node: VrmlNode, parentPath: string, parent: Link | null, st: LoaderState): Link {
  const path = parentPath ? `${parentPath}/${nodeLabel(node)}` : nodeLabel(node);
  let name = node.defName ?? '';
  if (name === '') {
    name = getString(node, path, 'name', '');
    if (name === '' || st.names.has(name)) name = `joint${st.links.length}`;
    st.warnings.push({ severity: 'warning', message: `a Joint without DEF name is called "${name}"`, ...locate(node, path) });
  }
  if (st.names.has(name)) {
    // Choreonoid accepts a repeated DEF name (a later DEF shadows the earlier one); link names
    // must be unique downstream, so the repeat gets a suffix.
    const renamed = firstFreeName(st.names, name);
    st.warnings.push({ severity: 'warning', message: `a second Joint named "${name}" is called "${renamed}"`, ...locate(node, path) });
    name = renamed;
  }
  st.names.add(name);

  const typeLabel = getString(node, path, 'jointType', '');
  const type = JOINT_TYPES[typeLabel];
  if (!type) {
    failAt(locate(node, path, 'jointType'), `jointType "${typeLabel}" is not one of free, fixed, rotate, slide, crawler, pseudoContinuousTrack`);
  }
  if (typeLabel === 'crawler') {
    st.warnings.push({
      severity: 'warning',
      message: `jointType "crawler" of ${name} read as pseudo_continuous_track (Choreonoid accepts only "pseudoContinuousTrack")`,
      ...locate(node, path, 'jointType'),
    });
  }
  const joint = baseJoint(name, type);
  const id = getInt(node, path, 'jointId', -1);
  if (id >= 0) {
    joint.id = id;
    const owner = st.jointIds.get(id);
    if (owner !== undefined) {
      st.warnings.push({ severity: 'warning', message: `joint ID ${id} of ${name} is already used by ${owner.name}`, ...locate(node, path, 'jointId') });
    } else {
      st.jointIds.set(id, { name, at: locate(node, path, 'jointId') });
    }
  }
  // Choreonoid counts a pseudo continuous track as a fixed joint here and gives it a zero axis.
  if (type === 'revolute' || type === 'prismatic') {
    joint.axis = jointAxis(node, path);
    if (joint.axis.every((x) => x === 0)) {
      failAt(locate(node, path, 'jointAxis'), `the ${typeLabel} joint ${name} has the zero vector as jointAxis (expected a direction)`);
    }
  }
  joint.lower = limit(node, path, 'llimit', -Infinity);
  joint.upper = limit(node, path, 'ulimit', Infinity);
  joint.velocityLower = limit(node, path, 'lvlimit', -Infinity);
  joint.velocityUpper = limit(node, path, 'uvlimit', Infinity);
  for (const [lo, hi, l, u] of [[joint.lower, joint.upper, 'llimit', 'ulimit'], [joint.velocityLower, joint.velocityUpper, 'lvlimit', 'uvlimit']] as const) {
    if (lo > hi) failAt(locate(node, path, u), `${u} ${hi} is below ${l} ${lo} (expected lower ≤ upper)`);
  }
  const rotorInertia = getFloat(node, path, 'rotorInertia', 0);
  const gearRatio = getFloat(node, path, 'gearRatio', 1);
  joint.rotorInertia = rotorInertia;
  joint.gearRatio = gearRatio;
  const extras: Record<string, number> = {
    rotorResistor: getFloat(node, path, 'rotorResistor', 0),
    torqueConst: getFloat(node, path, 'torqueConst', 1),
    encoderPulse: getFloat(node, path, 'encoderPulse', 1),
  };
  const climit = limit(node, path, 'climit', Infinity);
  if (Number.isFinite(climit)) extras.climit = climit;
  if (getField(node, 'equivalentInertia')) {
    const eq = getFloat(node, path, 'equivalentInertia', 0);
    st.warnings.push({ severity: 'warning', message: 'the "equivalentInertia" field of the Joint node is obsolete', ...locate(node, path, 'equivalentInertia') });
    if (eq !== 0) {
      // Choreonoid then uses it as Jm2 directly; the model keeps Jm2 = gearRatio² · rotorInertia.
      extras.equivalentInertia = eq;
      extras.rotorInertia = rotorInertia;
      joint.rotorInertia = gearRatio !== 0 ? eq / (gearRatio * gearRatio) : eq;
      if (gearRatio === 0) joint.gearRatio = 1;
    }
  }
  joint.extras = extras;

  const link: Link = {
    name,
    parent: parent?.name ?? null,
    joint,
    offset: { translation: getVec3(node, path, 'translation', [0, 0, 0]), rotation: getRotation(node, path, 'rotation') },
    mass: 0,
    centerOfMass: [0, 0, 0],
    inertia: identity3(),
    visuals: [],
    collisions: [],
    source: { file: node.file, path, line: node.line, column: node.column },
  };
  st.links.push(link);

  const acc: LinkAccumulator = {
    link, mass: 0, com: [0, 0, 0], inertia: [[0, 0, 0], [0, 0, 0], [0, 0, 0]], segments: [], visuals: [], collisions: [], surfaceUsed: false,
  };
  readSubNodes(acc, getNodes(node, path, 'children'), new Set<Role>(['joint', 'segment', 'device']), identityAffine(), `${path}.children`, st);

  // Parallel-axis terms about the combined centre of mass, added after every Segment is in.
  const I = acc.inertia;
  for (const seg of acc.segments) {
    const [x, y, z] = [seg.c[0] - acc.com[0], seg.c[1] - acc.com[1], seg.c[2] - acc.com[2]];
    const m = seg.m;
    I[0]![0]! += m * (y * y + z * z);
    I[0]![1]! += -m * (x * y);
    I[0]![2]! += -m * (x * z);
    I[1]![0]! += -m * (y * x);
    I[1]![1]! += m * (z * z + x * x);
    I[1]![2]! += -m * (y * z);
    I[2]![0]! += -m * (z * x);
    I[2]![1]! += -m * (z * y);
    I[2]![2]! += m * (x * x + y * y);
  }
  if (![acc.mass, ...acc.com, ...I.flat()].every(Number.isFinite)) {
    failAt(link.source ?? { file: node.file }, "the Segments' mass properties combine to values too large to represent (not finite)");
  }
  link.mass = acc.mass;
  link.centerOfMass = acc.com;
  link.inertia = I as Mat3;
  link.visuals = acc.visuals;
  link.collisions = acc.surfaceUsed ? acc.collisions : [...acc.visuals];
  return link;
}

function jointAxis(node: VrmlNode, path: string): Vec3 {
  const f = getField(node, 'jointAxis');
  if (!f) return [0, 0, 1];
  if (f.type === 'SFString') {
    const label = f.value as string;
    if (label === 'X') return [1, 0, 0];
    if (label === 'Y') return [0, 1, 0];
    if (label === 'Z') return [0, 0, 1];
    failAt(locate(node, path, 'jointAxis'), `jointAxis "${label}" is not "X", "Y", "Z" or a vector`);
  }
  return getVec3(node, path, 'jointAxis', [0, 0, 1]);
}

/** ulimit and friends: the first value of an MFFloat (or an SFFloat); none means unlimited. */
function limit(node: VrmlNode, path: string, name: string, fallback: number): number {
  const values = getNumbers(node, path, name, ['MFFloat', 'SFFloat'], true);
  return values && values.length > 0 ? values[0]! : fallback;
}

function readSubNodes(acc: LinkAccumulator, nodes: VrmlNode[], accepted: Set<Role>, T: Affine, path: string, st: LoaderState): void {
  nodes.forEach((node, i) => {
    const here = `${path}[${i}]`;
    let traverse: VrmlNode | null = node;
    if (node.proto) {
      const role = roleOf(node.type);
      if (!role) {
        // Any other PROTO is what its body is.
        if (node.actual) readSubNodes(acc, [node.actual], accepted, T, here, st);
        return;
      } else {
        traverse = null;
        const p = `${here}/${nodeLabel(node)}`;
        if (!accepted.has(role)) failAt(locate(node, p), `a ${node.type} node cannot stand here`);
        switch (role) {
          case 'joint':
            if (!isIdentityAffine(T, 1e-12)) {
              failAt(locate(node, p), `Joint ${node.defName ?? ''} is inside a Transform; a Joint must be a direct child of a Joint (or Humanoid)`);
            }
            readJoint(node, here, acc.link, st);
            break;
          case 'segment':
            readSegment(acc, node, T, p, st);
            break;
          case 'surface':
            readSurface(acc, node, T, p, st);
            break;
          case 'device': {
            const device = readDevice(node, p, acc.link.name, T, st.warnings);
            if (device) {
              st.devices.push(device);
              if (st.loadShapes) collectShapes(getNodes(node, p, 'children'), composeAffine(T, devicePose(node, p)), p, st.budget, acc.visuals, node.defName);
            }
            break;
          }
          default:
            break;
        }
      }
    }
    if (!traverse) return;
    const p = `${here}/${nodeLabel(traverse)}`;
    switch (traverse.type) {
      case 'Transform':
        readSubNodes(acc, getNodes(traverse, p, 'children'), accepted, composeAffine(T, transformAffine(traverse, p)), `${p}.children`, st);
        break;
      case 'Group':
      case 'Anchor':
      case 'Billboard':
      case 'Collision':
        readSubNodes(acc, getNodes(traverse, p, 'children'), accepted, T, `${p}.children`, st);
        break;
      case 'Inline':
        if (traverse.inlined) readSubNodes(acc, traverse.inlined, accepted, T, p, st);
        break;
      default:
        break;
    }
  });
}

/** The device node's own Transform (translation, rotation), under which its children shapes hang. */
function devicePose(node: VrmlNode, path: string): Affine {
  return { linear: getRotation(node, path, 'rotation'), translation: getVec3(node, path, 'translation', [0, 0, 0]) };
}

function readSegment(acc: LinkAccumulator, node: VrmlNode, T: Affine, path: string, st: LoaderState): void {
  const m = getFloat(node, path, 'mass', 0);
  if (m < 0) failAt(locate(node, path, 'mass'), `Segment mass ${m} is negative (expected a mass ≥ 0)`);
  const c = transformPoint(T, getVec3(node, path, 'centerOfMass', [0, 0, 0]));
  // Finite inputs can still overflow once combined (m·c, m·c² with m = 1e308): refuse rather than hand NaN to URDF and TF.
  if (![acc.mass + m, ...c.map((x) => m * x), ...c.map((x) => m * x * x)].every(Number.isFinite)) {
    failAt(locate(node, path, 'mass'), 'the mass and centerOfMass combine to values too large to represent (not finite)');
  }
  if (acc.mass + m > 0) acc.com = scale(add(scale(c, m), scale(acc.com, acc.mass)), 1 / (acc.mass + m));
  acc.mass += m;
  acc.segments.push({ c, m });
  const moments = getNumbers(node, path, 'momentsOfInertia', ['MFFloat']) ?? [0, 0, 0, 0, 0, 0, 0, 0, 0];
  if (moments.length < 9) {
    failAt(locate(node, path, 'momentsOfInertia'), `momentsOfInertia needs 9 values (a 3×3 matrix), it has ${moments.length}`);
  }
  const local: Mat3 = [
    [moments[0]!, moments[1]!, moments[2]!],
    [moments[3]!, moments[4]!, moments[5]!],
    [moments[6]!, moments[7]!, moments[8]!],
  ];
  const rotated = mulMat(mulMat(T.linear, local), transpose(T.linear));
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) acc.inertia[i]![j]! += rotated[i]![j]!;

  const children = getNodes(node, path, 'children');
  readSubNodes(acc, children, new Set<Role>(['surface', 'device']), T, `${path}.children`, st);
  if (st.loadShapes) collectSegmentShapes(children, T, path, st, acc.visuals, node.defName);
}

/** A Segment renders its children; a Surface inside it renders its visual part only. */
function collectSegmentShapes(children: VrmlNode[], T: Affine, path: string, st: LoaderState, out: Shape[], name?: string): void {
  for (const child of children) {
    if (child.proto && child.type === 'Surface') {
      collectShapes(getNodes(child, path, 'visual'), T, path, st.budget, out, child.defName ?? name);
    } else if (child.proto && roleOf(child.type) === 'device') {
      // Device shapes are added with the device (as Choreonoid's readDeviceNode does).
    } else {
      collectShapes([child], T, `${path}.children`, st.budget, out, name);
    }
  }
}

function readSurface(acc: LinkAccumulator, node: VrmlNode, T: Affine, path: string, st: LoaderState): void {
  acc.surfaceUsed = true;
  // Nothing OpenHRP-specific may stand inside a Surface.
  readSubNodes(acc, getNodes(node, path, 'visual'), new Set(), T, `${path}.visual`, st);
  const collision = getNodes(node, path, 'collision');
  readSubNodes(acc, collision, new Set(), T, `${path}.collision`, st);
  if (st.loadShapes) collectShapes(collision, T, `${path}.collision`, st.budget, acc.collisions, node.defName);
}

/**
 * ExtraJoint → a closed-link constraint. The spec's types constrain the relative position of the two
 * points: "xyz" all three axes (a ball joint), "xy" the two axes orthogonal to jointAxis (the point
 * may slide along jointAxis: Choreonoid's piston, which is what the legacy ClosedLinkSample.wrl
 * writes for the same mechanism), "z" only along jointAxis (a plane constraint, which no extra joint
 * type carries: dropped with a warning). Choreonoid's own names piston/ball (and fixed/hinge of the
 * body format) are taken as they are.
 */
function readExtraJoint(node: VrmlNode, path: string, links: Set<string>, st: LoaderState): ExtraJoint[] {
  const link1 = getString(node, path, 'link1Name', '');
  const link2 = getString(node, path, 'link2Name', '');
  for (const [field, value] of [['link1Name', link1], ['link2Name', link2]] as const) {
    if (!links.has(value)) failAt(locate(node, path, field), `${field} "${value}" is not a link of this model`);
  }
  const label = getString(node, path, 'jointType', 'xyz');
  const axisField = getVec3(node, path, 'jointAxis', [1, 0, 0]);
  const name = node.defName;
  let type: ExtraJoint['type'];
  let axis: Vec3 = axisField;
  switch (label) {
    case 'piston':
    case 'hinge':
      type = label;
      break;
    case 'fixed':
      type = 'fixed';
      break;
    case 'ball':
    case 'xyz':
      type = 'ball';
      axis = [1, 0, 0];
      break;
    case 'xy':
      type = 'piston';
      st.warnings.push({
        severity: 'warning',
        message: `ExtraJoint ${name ?? ''} (${link1}–${link2}) of type "xy" is kept as a piston extra joint (slides along jointAxis); it closes a kinematic loop that URDF cannot express`,
        ...locate(node, path, 'jointType'),
      });
      break;
    case 'z':
      st.warnings.push({
        severity: 'warning',
        message: `ExtraJoint ${name ?? ''} (${link1}–${link2}) of type "z" constrains one axis only; no extra joint type expresses that, so it is dropped`,
        ...locate(node, path, 'jointType'),
      });
      return [];
    default:
      failAt(locate(node, path, 'jointType'), `ExtraJoint jointType "${label}" is not one of xyz, xy, z, ball, piston, hinge, fixed`);
  }
  if (label !== 'xy') {
    st.warnings.push({
      severity: 'warning',
      message: `ExtraJoint ${name ?? ''} closes a kinematic loop between ${link1} and ${link2}, which URDF cannot express`,
      ...locate(node, path),
    });
  }
  const extra: ExtraJoint = {
    type,
    link1,
    link2,
    axis,
    localPose1: { translation: getVec3(node, path, 'link1LocalPos', [0, 0, 0]), rotation: identity3() },
    localPose2: { translation: getVec3(node, path, 'link2LocalPos', [0, 0, 0]), rotation: identity3() },
    source: { file: node.file, path, line: node.line, column: node.column },
  };
  if (name) extra.name = name;
  return [extra];
}

/**
 * Choreonoid's warning for each gap in the joint ID sequence; past 100 missing IDs (a stray huge
 * jointId) the rest are summed up in one warning instead of one per number. Each is located at the
 * jointId that jumps the gap: that is the line a user edits (or the joints it skipped need one).
 */
function reportJointIds(st: LoaderState): void {
  const ids = [...st.jointIds.keys()].sort((a, b) => a - b);
  let reported = 0;
  let missing = 0;
  let expected = 0;
  for (const id of ids) {
    const { at } = st.jointIds.get(id)!;
    for (let i = expected; i < id && reported < 100; i++, reported++) {
      st.warnings.push({ severity: 'warning', message: `joint ID ${i} is not specified`, ...at });
    }
    missing += id - expected;
    expected = id + 1;
  }
  if (missing > reported) {
    st.warnings.push({ severity: 'warning', message: `${missing - reported} more joint IDs below ${expected} are not specified`, ...st.jointIds.get(expected - 1)!.at });
  }
}
