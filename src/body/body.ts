// The top level of a .body file (StdBodyLoader::readBody): header, `links` (Link, ContinuousTrack,
// SubBody), the link tree, and `extra_joints`. Sub-bodies are read by the same function.
import { basename, dirname, resolve } from 'node:path';
import { failAt, formatDiagnostic, ModelLoadError } from '../model/errors.js';
import { normalize } from '../model/math.js';
import type { LoadLimits, LoadOptions } from '../model/options.js';
import type { Diagnostic, ExtraJoint, RobotModel, SourceLocation } from '../model/types.js';
import { loadVrmlModel } from '../vrml/index.js';
import { readRotation, warn, type BodyContext, type IncludeBudget } from './context.js';
import { cloneLinkDraft, traverse, type DeviceDraft, type ExtraJointDraft, type LinkDraft } from './draft.js';
import { readLinkContents, setJointId, setJointName, setLinkName, type BodyState } from './links.js';
import { resolveResourcePath } from './resources.js';
import { detachSelectedNodes } from './vrml-resources.js';
import { asInt, asMap, asNumber, asSeq, asString, asVec3, get, intAt, stringAt } from './values.js';
import { readYamlFile, sortedEntries, type YMap } from './yaml-tree.js';

/** A body as read, before names are final (a parent body may still prefix them). */
export interface LoadedBody {
  name: string;
  root: LinkDraft;
  /** Traverse order. */
  links: LinkDraft[];
  /** Reading order (a top-level body sorts them by link afterwards). */
  devices: DeviceDraft[];
  extraJoints: ExtraJointDraft[];
}

export type ReadResult = { kind: 'body'; body: LoadedBody } | { kind: 'model'; model: RobotModel };

interface LinkInfo {
  link: LinkDraft;
  parent: string;
  node: YMap;
}

interface ReadState extends BodyState {
  infos: LinkInfo[];
  extraJoints: ExtraJointDraft[];
  subBodies: Map<string, LoadedBody>;
  isSub: boolean;
}

export function readBodyFile(
  file: string,
  options: LoadOptions,
  limits: LoadLimits,
  budget: IncludeBudget,
  warnings: Diagnostic[],
  isSub: boolean,
): ReadResult {
  const yaml = readYamlFile(file, limits, warnings);
  const ctx: BodyContext = { file, baseDir: dirname(file), degree: true, yaml, options, limits, budget, warnings, vrmlExtractions: [], geometries: new Map() };
  const top = asMap(yaml.root, 'a mapping at the top of a body file');

  const formatNode = get(top, 'format');
  if (!formatNode) {
    const modelFile = get(top, ['model_file', 'modelFile']);
    if (!modelFile) failAt(top.loc, 'neither "format: ChoreonoidBody" nor "modelFile" is given');
    const path = resolve(dirname(file), asString(modelFile, 'a model file path'));
    if (!/\.wrl$/i.test(path)) failAt(modelFile.loc, `modelFile must name an OpenHRP .wrl file, got "${asString(modelFile)}"`);
    resolveResourcePath(ctx, path, modelFile.loc, { mustExist: true });
    budget.count += 1;
    return { kind: 'model', model: loadVrmlModel(path, options) };
  }
  if (asString(formatNode) !== 'ChoreonoidBody') failAt(formatNode.loc, `format "${asString(formatNode)}" cannot be loaded as a Choreonoid body (expected ChoreonoidBody)`);

  const versionNode = get(top, ['format_version', 'formatVersion']);
  if (!versionNode) failAt(top.loc, 'the format version is not given (format_version: 2.0)');
  const version = asNumber(versionNode, 'a format version number');
  if (version >= 2.1) failAt(versionNode.loc, `format version ${asString(versionNode)} is not supported (expected 1.0 or 2.0)`);
  const unitNode = get(top, ['angle_unit', 'angleUnit']);
  if (unitNode) {
    const unit = asString(unitNode);
    if (unit === 'radian') {
      if (version >= 2.0) failAt(unitNode.loc, 'angle_unit: radian is not allowed with format_version 2.0 (angles are in degrees)');
      ctx.degree = false;
    } else if (unit !== 'degree') {
      failAt(unitNode.loc, `angle_unit must be "degree" or "radian", got "${unit}"`);
    }
  }

  const state: ReadState = {
    ctx,
    linkMap: new Map(),
    jointNames: new Set(),
    jointIds: new Set(),
    devices: [],
    infos: [],
    extraJoints: [],
    subBodies: new Map(),
    isSub,
  };

  const linksNode = get(top, 'links');
  if (!linksNode) failAt(top.loc, 'there is no "links" list defining the links of the body');
  if (linksNode.kind === 'seq') {
    if (linksNode.items.length === 0) failAt(linksNode.loc, 'the "links" list is empty');
    for (const item of linksNode.items) readNodeInLinks(state, asMap(item, 'a link mapping'), '');
  } else if (linksNode.kind === 'map') {
    for (const [type, item] of sortedEntries(linksNode)) readNodeInLinks(state, asMap(item, 'a link mapping'), type);
  } else {
    failAt(linksNode.loc, 'expected "links" to be a list of links');
  }
  if (state.infos.length === 0) failAt(linksNode.loc, 'no link is defined');

  const rootNode = get(top, ['root_link', 'rootLink']);
  let root = state.infos[0]!.link;
  if (rootNode) {
    const name = asString(rootNode, 'a link name');
    const found = state.linkMap.get(name);
    if (!found) failAt(rootNode.loc, `root link "${name}" is not defined`);
    root = found;
  }
  buildTree(state, root);

  const links = traverse(root);
  detachSelectedNodes(ctx.vrmlExtractions, links);
  if (!isSub) warnMissingJointIds(state, linksNode.loc);
  readExtraJoints(state, top, links);
  return {
    kind: 'body',
    // Without `name`, Choreonoid names the model after the file (its stem).
    body: { name: stringAt(top, 'name') ?? basename(file).replace(/\.[^.]*$/, ''), root, links, devices: state.devices, extraJoints: state.extraJoints },
  };
}

function buildTree(state: ReadState, root: LinkDraft): void {
  for (const info of state.infos) {
    const { link, parent } = info;
    const where = get(info.node, 'parent') ?? info.node;
    if (parent === '') {
      if (link !== root) failAt(info.node.loc, `the parent of link "${link.name}" is not given (only the root link has no parent)`);
      continue;
    }
    const parentLink = state.linkMap.get(parent);
    if (!parentLink) failAt(where.loc, `parent link "${parent}" of link "${link.name}" is not defined`);
    // A cycle: the new parent already hangs below this link.
    for (let p: LinkDraft | null = parentLink; p; p = p.parent) {
      if (p === link) failAt(where.loc, `making "${parent}" the parent of "${link.name}" creates a cycle`);
    }
    if (link.parent) link.parent.children = link.parent.children.filter((c) => c !== link);
    link.parent = parentLink;
    parentLink.children.push(link);
  }
  if (root.parent) failAt(root.source.path ? root.source : { file: state.ctx.file }, `root link "${root.name}" must not have a parent`);
}

/** Choreonoid's "Joint ID n is not specified", placed at the links list. */
function warnMissingJointIds(state: ReadState, where: SourceLocation): void {
  const ids = [...state.jointIds];
  const max = ids.length > 0 ? Math.max(...ids) : -1;
  for (let i = 0; i <= max; i++) {
    if (!state.jointIds.has(i)) warn(state.ctx, where, `joint id ${i} is not given to any joint (ids should be 0..${max} without gaps)`);
  }
}

function readNodeInLinks(state: ReadState, map: YMap, keyType: string): void {
  const typeNode = get(map, 'type');
  const type = typeNode ? asString(typeNode) : keyType;
  if (typeNode && keyType !== '' && type !== keyType) {
    failAt(typeNode.loc, `the node type "${type}" differs from the type "${keyType}" given by its key`);
  }
  if (type === '' || type === 'Link') {
    const parentNode = get(map, 'parent');
    const link = readLinkContents(state, map);
    state.infos.push({ link, parent: parentNode ? asString(parentNode, 'a parent link name') : '', node: map });
  } else if (type === 'ContinuousTrack') {
    readContinuousTrack(state, map);
  } else if (type === 'SubBody') {
    readSubBody(state, map);
  } else if (type === 'Skip') {
    // nothing
  } else {
    failAt(
      (typeNode ?? map).loc,
      `a ${type} node cannot be an entry of "links" (expected Link, SubBody or ContinuousTrack; devices and shapes belong in a link's "elements" — check the indentation)`,
    );
  }
}

/** A chain of links approximating a track: the first free, the others revolute at joint_offset. */
function readContinuousTrack(state: ReadState, map: YMap): void {
  const parentNode = get(map, 'parent');
  if (!parentNode) failAt(map.loc, 'a ContinuousTrack needs a "parent"');
  let parent = asString(parentNode);
  const numNode = get(map, 'numJoints');
  if (!numNode) failAt(map.loc, 'a ContinuousTrack needs "numJoints"');
  const numJoints = asInt(numNode);
  if (numJoints < 3) failAt(numNode.loc, `numJoints must be at least 3, got ${numJoints}`);
  const offsetNode = get(map, ['joint_offset', 'jointOffset']);
  if (!offsetNode) failAt(map.loc, 'a ContinuousTrack needs "jointOffset"');
  const jointOffset = asVec3(offsetNode);
  const numOpen = numJoints - 1;
  const initial: number[] = new Array<number>(numOpen).fill(0);
  const anglesNode = get(map, 'initialJointAngles');
  if (anglesNode) {
    asSeq(anglesNode, 'a list of angles').items.slice(0, numOpen).forEach((n, i) => {
      initial[i] = state.ctx.degree ? (Math.PI / 180) * asNumber(n) : asNumber(n);
    });
  }
  const first = readLinkContents(state, map);
  const subsequent = cloneLinkDraft(first);
  first.joint.type = 'free';
  first.continuousTrack = numJoints;
  const add = (index: number, link: LinkDraft, angle: number): void => {
    setLinkName(state, link, `${link.name}${index}`, map);
    link.joint.initial = angle;
    state.infos.push({ link, parent, node: map });
    parent = link.name;
  };
  add(0, first, 0);
  subsequent.joint.type = 'revolute';
  subsequent.offset = { ...subsequent.offset, translation: jointOffset };
  for (let i = 0; i < numOpen; i++) add(i + 1, cloneLinkDraft(subsequent), initial[i]!);
}

/** A deep copy of a loaded body (links, tree, devices, extra joints), so each use can be renamed. */
function cloneBody(body: LoadedBody): LoadedBody {
  const copies = new Map<LinkDraft, LinkDraft>();
  for (const l of body.links) copies.set(l, cloneLinkDraft(l));
  for (const l of body.links) {
    const c = copies.get(l)!;
    c.parent = l.parent ? copies.get(l.parent) ?? null : null;
    c.children = l.children.map((k) => copies.get(k)!);
  }
  const map = (l: LinkDraft): LinkDraft => copies.get(l) ?? l;
  return {
    name: body.name,
    root: map(body.root),
    links: body.links.map(map),
    devices: body.devices.map((d) => ({ ...d, linkDraft: map(d.linkDraft) }) as DeviceDraft),
    extraJoints: body.extraJoints.map((x) => ({ ...x, link1: map(x.link1), link2: map(x.link2) })),
  };
}

/**
 * The body a SubBody's uri names, read once per file. Undefined where it cannot be loaded: Choreonoid then prints
 * that the sub-body "cannot be loaded" and leaves its links out, keeping the rest of the model
 * (StdBodyLoader::Impl::readSubBodyNode), and so do we, with a warning at the uri saying why. Including itself,
 * the include limits and a modelFile wrapper stay errors.
 */
function loadSubBody(state: ReadState, uri: string, at: SourceLocation): LoadedBody | undefined {
  const { ctx } = state;
  const leftOut = (e: unknown): undefined => {
    if (!(e instanceof ModelLoadError) || ctx.budget.count > ctx.limits.maxIncludedFiles) throw e;
    const d = e.diagnostics[0];
    // A missing file is reported at this very uri; an error inside the sub-body's file keeps its own place.
    const why = !d ? e.message : d.file === at.file && d.line === at.line ? d.message : formatDiagnostic(d);
    warn(ctx, at, `SubBody "${uri}" cannot be loaded, so its links are left out of the model (as Choreonoid does): ${why}`);
    return undefined;
  };
  let path: string;
  try {
    path = resolveResourcePath(ctx, uri, at, { mustExist: true })!;
  } catch (e) {
    // Only a file that is not there is Choreonoid's "cannot be loaded"; a uri we cannot read (a path variable,
    // another scheme) stays an error, since Choreonoid would have loaded the sub-body.
    if (resolveResourcePath(ctx, uri, at, { mustExist: false }) !== undefined) throw e;
    return leftOut(e);
  }
  if (path === ctx.file || ctx.budget.stack.includes(path)) failAt(at, `SubBody "${uri}" includes itself`);
  const known = state.subBodies.get(path);
  if (known) return known;
  ctx.budget.count += 1;
  if (ctx.budget.count > ctx.limits.maxIncludedFiles) failAt(at, `more than ${ctx.limits.maxIncludedFiles} files included by one model`);
  ctx.budget.stack.push(path);
  let result: ReturnType<typeof readBodyFile>;
  try {
    result = readBodyFile(path, ctx.options, ctx.limits, ctx.budget, ctx.warnings, true);
  } catch (e) {
    return leftOut(e);
  } finally {
    ctx.budget.stack.pop();
  }
  if (result.kind !== 'body') failAt(at, `SubBody "${uri}" must be a Choreonoid body file, not a modelFile wrapper`);
  state.subBodies.set(path, result.body);
  return result.body;
}

function readSubBody(state: ReadState, map: YMap): void {
  const uriNode = get(map, 'uri');
  if (!uriNode) failAt(map.loc, 'a SubBody needs a "uri"');
  const sub = loadSubBody(state, asString(uriNode), uriNode.loc);
  if (!sub) return;
  const clone = cloneBody(sub);
  const prefix = stringAt(map, 'prefix') ?? '';
  const suffix = stringAt(map, 'suffix') ?? '';
  const devicePrefix = stringAt(map, ['device_prefix', 'devicePrefix']) ?? prefix;
  const idOffset = intAt(map, ['joint_id_offset', 'jointIdOffset']) ?? 0;
  for (const link of clone.links) {
    setLinkName(state, link, prefix + link.name + suffix, map);
    if (link.joint.id !== null) setJointId(state, link, link.joint.id + idOffset, map);
    if (link.jointName !== undefined) {
      const jointName = link.jointName;
      link.jointName = undefined;
      setJointName(state, link, prefix + jointName + suffix, map);
    }
  }
  state.extraJoints.push(...clone.extraJoints);
  for (const d of clone.devices) state.devices.push({ ...d, name: devicePrefix + d.name } as DeviceDraft);
  const parentNode = get(map, 'parent');
  state.infos.push({ link: clone.root, parent: parentNode ? asString(parentNode) : '', node: map });
  readLinkContents(state, map, clone.root);
}

const EXTRA_TYPES = new Set(['fixed', 'hinge', 'ball', 'piston']);

function readExtraJoints(state: ReadState, top: YMap, links: LinkDraft[]): void {
  const node = get(top, ['extra_joints', 'extraJoints']);
  if (!node || node.kind !== 'seq') return;
  const byName = new Map(links.map((l) => [l.name, l]));
  for (const item of node.items) {
    const map = asMap(item, 'an extra joint mapping');
    const link = (keys: string[], n: number): LinkDraft => {
      const nameNode = get(map, keys);
      if (!nameNode) failAt(map.loc, `link${n}_name is not given`);
      const l = byName.get(asString(nameNode));
      if (!l) failAt(nameNode.loc, `link "${asString(nameNode)}" given as link${n}_name is not defined`);
      return l;
    };
    const link1 = link(['link1_name', 'link1Name'], 1);
    const link2 = link(['link2_name', 'link2Name'], 2);
    const typeNode = get(map, ['joint_type', 'jointType']);
    if (!typeNode) failAt(map.loc, 'an extra joint needs a "joint_type" (fixed, hinge, ball or piston)');
    const type = asString(typeNode);
    if (!EXTRA_TYPES.has(type)) failAt(typeNode.loc, `extra joint type "${type}" is not available (expected fixed, hinge, ball or piston)`);
    let axis: ExtraJoint['axis'] = [1, 0, 0];
    if (type === 'hinge' || type === 'piston') {
      const axisNode = get(map, ['axis', 'jointAxis']);
      if (axisNode) axis = normalize(asVec3(axisNode, 'an axis [x, y, z]'));
    }
    const vec = (keys: string[]) => {
      const n = get(map, keys);
      return n ? asVec3(n) : undefined;
    };
    const joint: ExtraJointDraft = {
      type: type as ExtraJoint['type'],
      link1,
      link2,
      axis,
      localPose1: { translation: vec(['translation_in_link1', 'link1LocalPos']) ?? [0, 0, 0], rotation: readRotation(state.ctx, map, 'rotation_in_link1') ?? [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
      localPose2: { translation: vec(['translation_in_link2', 'link2LocalPos']) ?? [0, 0, 0], rotation: readRotation(state.ctx, map, 'rotation_in_link2') ?? [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
      source: map.loc,
    };
    const name = stringAt(map, 'name');
    if (name !== undefined) joint.name = name;
    state.extraJoints.push(joint);
  }
}


