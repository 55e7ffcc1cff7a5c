// A BodyItem's `data` as BodyItem::Impl::restore reads it (choreonoid/choreonoid src/BodyPlugin/BodyItem.cpp),
// step by step in its order: the model file, the current root pose, the initial state, the joint positions,
// fix_root, and the linkage to an owning body item.
import { statSync } from 'node:fs';
import { ModelLoadError, failAt } from '../model/errors.js';
import { composePose, mulVec, scale, transpose } from '../model/math.js';
import type { Device, Diagnostic, JointType, Mat3, Pose, RobotModel, SourceLocation, Vec3 } from '../model/types.js';
import { linkWorldPoses } from '../kinematics/forward.js';
import type { YMap } from '../body/yaml-tree.js';
import { findListing, numbersOf, radian, readBool, readDegreeAngleAxis, readMatrix3, readString, readVec3 } from './archive.js';
import { throughBodyState } from './body-state.js';
import { jointSlots } from './joint-order.js';
import { expandPath, type PathVariables } from './path-variables.js';
import type { BodyLinkage, LoadedProjectBody, ProjectBody } from './types.js';

/** Where an item sits in the tree, for its ProjectBody and its messages. */
export interface ItemPlace {
  itemName: string;
  itemPath: string;
  world: string | null;
  at: SourceLocation;
}

export interface BodyItemContext {
  vars: PathVariables;
  /** Loads a model (the caller caches: projects place one model many times). Throws ModelLoadError. */
  loadModel: (path: string) => RobotModel;
}

// The formats BodyItem's body file I/O answers to (BodyItemFileIO.cpp: CHOREONOID-BODY, alias OpenHRP-VRML-MODEL).
const BODY_FORMATS = new Set(['CHOREONOID-BODY', 'OpenHRP-VRML-MODEL']);

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

const isFixedJoint = (t: JointType): boolean => t === 'fixed' || t === 'pseudo_continuous_track';

/** The body item's state, or a failed body naming why Choreonoid would not restore it. */
export function restoreBodyItem(place: ItemPlace, data: YMap, ctx: BodyItemContext, owner: LoadedProjectBody | undefined): ProjectBody {
  const warnings: Diagnostic[] = [];
  const fileNode = readString(data, ['file', 'modelFile'], warnings);
  const common = {
    ...place,
    modelFile: fileNode?.value ?? null,
    path: null as string | null,
    warnings,
    ros: {},
  };
  const failed = (errors: Diagnostic[]): ProjectBody => ({ ...common, kind: 'failed', errors });
  try {
    if (!fileNode) {
      // Choreonoid keeps an empty body then; there is nothing to serve.
      return failed([{ severity: 'error', ...place.at, message: `body item "${place.itemName}" names no model file (file:)` }]);
    }
    const expanded = expandPath(fileNode.value, ctx.vars);
    if ('error' in expanded) failAt(fileNode.loc, `body item "${place.itemName}": ${expanded.error}`);
    common.path = expanded.path;
    const format = readString(data, 'format', warnings)?.value;
    if (format !== undefined && format !== '' && !BODY_FORMATS.has(format)) {
      const formatNode = data.entries.get('format')!;
      failAt(formatNode.loc, `body item "${place.itemName}": format ${format} is not a body model format body_bridge reads (CHOREONOID-BODY, OpenHRP-VRML-MODEL)`);
    }
    if (!isFile(expanded.path)) {
      failAt(fileNode.loc, `body item "${place.itemName}": model file ${expanded.path} not found${fileNode.value === expanded.path ? '' : ` (from "${fileNode.value}")`}`);
    }
    let model: RobotModel;
    try {
      model = ctx.loadModel(expanded.path);
    } catch (e) {
      if (!(e instanceof ModelLoadError)) throw e;
      return failed([{ severity: 'error', ...fileNode.loc, message: `body item "${place.itemName}": its model does not load` }, ...e.diagnostics]);
    }
    return { ...common, ...restoreState(place, data, model, owner, warnings) };
  } catch (e) {
    if (e instanceof ModelLoadError) return failed(e.diagnostics);
    throw e;
  }
}

type State = Pick<
  LoadedProjectBody,
  'kind' | 'model' | 'bodyName' | 'rootPose' | 'initialRootPose' | 'jointPositions' | 'initialJointPositions' | 'rootJointType' | 'fixedRoot' | 'staticModel' | 'linkage'
>;

function restoreState(place: ItemPlace, data: YMap, model: RobotModel, owner: LoadedProjectBody | undefined, warnings: Diagnostic[]): State {
  const root = model.links[0]!;
  // Body::initializePosition puts the root at the model's own root pose and every joint at its initial position.
  let rootPose: Pose = root.offset;
  const p = readVec3(data, ['root_translation', 'rootPosition'], warnings);
  if (p) rootPose = { ...rootPose, translation: p };
  const r = readDegreeAngleAxis(data, 'root_rotation', warnings) ?? readMatrix3(data, 'rootAttitude', warnings);
  if (r) rootPose = { ...rootPose, rotation: r };

  // The initial state (where a simulation from the initial state starts) is rebuilt from the project alone: without
  // initial_root_* the root starts at the world origin, wherever root_translation puts it now. It holds the rotation
  // as a quaternion (body-state.ts).
  const initialRotation = readDegreeAngleAxis(data, 'initial_root_rotation', warnings) ?? readMatrix3(data, 'initialRootAttitude', warnings);
  const initialRootPose: Pose = {
    translation: readVec3(data, ['initial_root_translation', 'initialRootPosition'], warnings) ?? [0, 0, 0],
    rotation: initialRotation
      ? throughBodyState(initialRotation)
      : [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
  };

  const { current, initial } = restoreJointPositions(place, data, model, warnings);

  let rootJointType = root.joint.type;
  const fixRoot = readBool(data, 'fix_root', warnings, 'the old staticModel key or the model decides');
  const staticModelKey = fixRoot === undefined ? readBool(data, 'staticModel', warnings, 'the model decides') : undefined;
  const modelIsStatic = model.links.every((l) => isFixedJoint(l.joint.type));
  // Body::setRootLinkFixed: a free root becomes fixed and a fixed one free; the old staticModel: false frees only a static model.
  if (fixRoot === true || staticModelKey === true) {
    if (!isFixedJoint(rootJointType)) rootJointType = 'fixed';
  } else if (fixRoot === false || (staticModelKey === false && modelIsStatic)) {
    if (isFixedJoint(rootJointType)) rootJointType = 'free';
  }
  const fixedRoot = isFixedJoint(rootJointType);
  const staticModel = fixedRoot && model.links.slice(1).every((l) => isFixedJoint(l.joint.type));

  const linked = owner ? restoreLinkage(data, model, owner, warnings) : undefined;
  return {
    kind: 'loaded',
    model,
    // BodyItemBodyFileIO::load names the new Body after the item before loading; the model's `name` is its model name.
    bodyName: place.itemName !== '' ? place.itemName : model.name,
    rootPose: linked?.rootPose ?? rootPose,
    initialRootPose,
    jointPositions: current,
    initialJointPositions: initial,
    rootJointType,
    fixedRoot,
    staticModel,
    ...(linked ? { linkage: linked.linkage } : {}),
  };
}

/**
 * restoreNonRootLinkStates: joint_displacements (degrees for every joint, prismatic ones included: the writer
 * stores degree(q) for all) with initial_joint_displacements, else the older jointPositions / initialJointPositions
 * (radians). One value per Body::joint(i) slot; slots the list does not reach keep the model's initial position,
 * and joints the initial state does not cover start where they are.
 */
function restoreJointPositions(place: ItemPlace, data: YMap, model: RobotModel, warnings: Diagnostic[]): { current: Record<string, number>; initial: Record<string, number> } {
  const slots = jointSlots(model);
  const n = slots.names.length;
  const initialOf = new Map(model.links.map((l) => [l.joint.name, l.joint.initial]));
  const q = slots.names.map((name) => (name === null ? 0 : initialOf.get(name) ?? 0));
  let q0: number[] | undefined;

  const displacements = findListing(data, ['joint_displacements', 'jointDisplacements'], warnings, 'the older jointPositions is used');
  const initialDisplacements = findListing(data, ['initial_joint_displacements', 'initialJointDisplacements'], warnings);
  if (displacements) {
    const nj = Math.min(displacements.items.length, n);
    const values = numbersOf(displacements, nj).map(radian);
    const initialValues = initialDisplacements ? numbersOf(initialDisplacements, nj).map(radian) : [];
    q0 = [...q];
    for (let i = 0; i < nj; i++) {
      q[i] = values[i]!;
      q0[i] = i < initialValues.length ? initialValues[i]! : values[i]!;
    }
    for (let i = nj; i < n; i++) q0[i] = q[i]!;
  } else {
    const sizeWarning = (seq: { items: unknown[]; loc: SourceLocation }, what: string): void => {
      if (seq.items.length !== n && seq.items.length !== slots.identified) {
        warnings.push({ severity: 'warning', ...seq.loc, message: `${seq.items.length} ${what} for body item "${place.itemName}", whose model has ${n} joint${n === 1 ? '' : 's'}: Choreonoid reads the first ${Math.min(seq.items.length, n)} (it warns "Mismatched size")` });
      }
    };
    const positions = findListing(data, 'jointPositions', warnings);
    if (positions) {
      sizeWarning(positions, 'joint positions');
      numbersOf(positions, Math.min(positions.items.length, n)).forEach((v, i) => (q[i] = v));
    }
    const initialPositions = findListing(data, 'initialJointPositions', warnings);
    if (initialPositions) {
      sizeWarning(initialPositions, 'initial joint positions');
      q0 = [...q];
      numbersOf(initialPositions, Math.min(initialPositions.items.length, n)).forEach((v, i) => (q0![i] = v));
    }
  }
  const current: Record<string, number> = {};
  const initial: Record<string, number> = {};
  slots.names.forEach((name, i) => {
    if (name === null) return;
    current[name] = q[i]!;
    // Without a stored initial state for the joints, a simulation starts them where they are.
    initial[name] = q0 ? q0[i]! : q[i]!;
  });
  return { current, initial };
}

/**
 * parent_body_linkage under an owning body item (Coordinated unless the project says otherwise; the old
 * enable_attachment means Attached). The root then follows a link of the parent body (BodyItem::Impl::
 * updateParentBodyLinkageTo): an attached body without `parent_link` sits where its root's AttachmentDevice meets
 * a fitting HolderDevice of the parent; otherwise it follows `parent_link` (the parent's root when none) at
 * `local_translation` / `local_rotation` when given, else at the offset the loaded poses already have — so then
 * it stays where the project put it.
 */
function restoreLinkage(data: YMap, model: RobotModel, owner: LoadedProjectBody, warnings: Diagnostic[]): { linkage: BodyLinkage; rootPose?: Pose } | undefined {
  let kind: BodyLinkage['kind'] | 'unlinked' = 'coordinated';
  let translation: Vec3 | undefined;
  let rotation: Mat3 | undefined;
  const linkageNode = readString(data, 'parent_body_linkage', warnings);
  if (linkageNode) {
    const v = linkageNode.value;
    if (v !== 'unlinked' && v !== 'coordinated' && v !== 'attached') failAt(linkageNode.loc, `unknown parent body linkage "${v}" (unlinked, coordinated or attached)`);
    kind = v;
    if (kind !== 'unlinked') {
      translation = readVec3(data, ['local_translation'], warnings);
      rotation = readDegreeAngleAxis(data, 'local_rotation', warnings);
    }
  } else {
    const attachment = readBool(data, 'enable_attachment', warnings);
    if (attachment !== undefined) kind = attachment ? 'attached' : 'unlinked';
  }
  if (kind === 'unlinked') return undefined;
  const linkage: BodyLinkage = { parentItemPath: owner.itemPath, kind };
  const parentLinkNode = readString(data, 'parent_link', warnings);
  const named = parentLinkNode && parentLinkNode.value !== '' ? parentLinkNode.value : undefined;
  if (named !== undefined && !owner.model.links.some((l) => l.name === named)) {
    warnings.push({ severity: 'warning', ...parentLinkNode!.loc, message: `parent link "${named}" is not a link of body item "${owner.itemName}": the body is not linked to it` });
    return { linkage };
  }
  const linkPose = (name: string): Pose => linkWorldPoses(ownerModelAt(owner), new Map(Object.entries(owner.jointPositions))).get(name)!;
  if (named === undefined && kind === 'attached') {
    const fit = attachmentFit(model, owner.model);
    if (fit) {
      linkage.parentLink = fit.holder.link;
      return { linkage, rootPose: composePose(linkPose(fit.holder.link), composePose(fit.holder.pose, inversePose(fit.attachment.pose))) };
    }
  }
  linkage.parentLink = named ?? owner.model.root;
  if (translation === undefined && rotation === undefined) return { linkage };
  const modelRoot = model.links[0]!.offset;
  return { linkage, rootPose: composePose(linkPose(linkage.parentLink), { translation: translation ?? modelRoot.translation, rotation: rotation ?? modelRoot.rotation }) };
}

/**
 * BodyItem::Impl::findMatchedAttachmentAndHolder: the first AttachmentDevice on the root link, with the first
 * HolderDevice of the parent it fits (AttachmentDevice::isAttachableTo: a holder without categories takes any
 * attachment; otherwise the attachment's category must be one of the holder's).
 */
function attachmentFit(model: RobotModel, parent: RobotModel): { attachment: Device; holder: Device } | undefined {
  const holders = parent.devices.filter((d) => d.type === 'Other' && d.typeName === 'HolderDevice');
  for (const attachment of model.devices) {
    if (attachment.type !== 'Other' || attachment.typeName !== 'AttachmentDevice' || attachment.link !== model.root) continue;
    for (const holder of holders) {
      const holderCategories = holder.type === 'Other' ? holder.categories ?? [] : [];
      const category = attachment.categories?.[0];
      if (holderCategories.length === 0 || (category !== undefined && holderCategories.includes(category))) return { attachment, holder };
    }
  }
  return undefined;
}

/** The inverse of a rigid transform. */
function inversePose(p: Pose): Pose {
  const rt = transpose(p.rotation);
  return { translation: scale(mulVec(rt, p.translation), -1), rotation: rt };
}

/** The owner's model with its root where the project puts it now, for its links' world poses. */
function ownerModelAt(owner: LoadedProjectBody): RobotModel {
  const [root, ...rest] = owner.model.links;
  return { ...owner.model, links: [{ ...root!, offset: owner.rootPose }, ...rest] };
}
