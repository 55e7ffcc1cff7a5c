// The neutral model → an equivalent URDF document (plus the mesh files it refers to). Nothing is
// written (see write.ts); the only files read are the referenced mesh files (each once, to warn about
// those rviz cannot load; .stl/.obj ones again when they must be baked, and copies) and, for
// package:// URIs, package.xml files.
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { type Frame, frameTree, isTrack } from '../kinematics/frames.js';
import type { Diagnostic, Joint, Link, Material, Pose, RobotModel, Shape, SourceLocation } from '../model/types.js';
import { type MeshFormat, type GeometryContext, shapeGeometry } from './geometry.js';
import type { MeshFile } from './mesh-file.js';
import { meshReferenceCheck } from './mesh-warnings.js';
import { num, originElement, vec, xyzElement } from './format.js';
import { type MeshUriStyle, fileUri, packageRoots, packageUri } from './uris.js';
import { type XmlElement, type XmlNode, el, hasInvalidXmlChars, serialize } from './xml.js';
import { impossibleInertia } from '../model/inertia.js';
import { uniqueNamer } from '../model/unique-name.js';
import { velocityLimit } from '../model/joint.js';

export interface UrdfOptions {
  /** Directory the generated meshes are written to (their URIs point there). */
  meshDir: string;
  /**
   * `file` (default): absolute file:// URIs. `package`: package:// where the file lies in a ROS package on the
   * path. `relative`: paths relative to `urdfDir` (a URDF moved together with its meshes still finds them).
   */
  meshUris?: MeshUriStyle | 'relative';
  /** Where the URDF will be written; `relative` URIs start from there. */
  urdfDir?: string;
  /** `stl`: referenced OBJ meshes become binary STL in the mesh directory (colour kept as a material). Default `keep`. */
  meshFormat?: MeshFormat;
  /** Copy referenced mesh files (with their material and texture files) into the mesh directory. */
  copyResources?: boolean;
  /** Extra package roots for `package` URIs, searched before ROS_PACKAGE_PATH and AMENT_PREFIX_PATH. */
  packagePath?: string[];
  /** '' or absent: the root link is the URDF root. Otherwise a link of this name joined to the root (see docs/urdf.md). */
  worldFrame?: string;
  /** Effort written for joints whose effort is unlimited. Default 1e6 (N·m or N). */
  defaultEffort?: number;
  /**
   * Velocity written for joints whose velocity is unlimited. Default: π rad/s for revolute joints,
   * 1 m/s for prismatic ones (UNLIMITED_REVOLUTE_VELOCITY, UNLIMITED_PRISMATIC_VELOCITY).
   */
  defaultVelocity?: number;
  /** Position bound written for an unlimited side of a prismatic joint. Default 1e6 m. */
  unlimitedPrismaticRange?: number;
  /** Segments around round shapes that are turned into meshes. Default 32. */
  divisions?: number;
  /** Environment for ROS_PACKAGE_PATH / AMENT_PREFIX_PATH; default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface UrdfResult {
  xml: string;
  meshes: MeshFile[];
  warnings: Diagnostic[];
  /** Absolute mesh directory the URIs refer to. */
  meshDir: string;
}

export type { MeshFile } from './mesh-file.js';

/** Namespace of the extension elements that keep what URDF has no element for. */
export const EXTENSION_NAMESPACE = 'urn:body-bridge:urdf-extension:1';
const X = 'body_bridge:';

export const DEFAULT_EFFORT = 1e6;
export const DEFAULT_PRISMATIC_RANGE = 1e6;

export function toUrdf(model: RobotModel, options: UrdfOptions): UrdfResult {
  const warnings: Diagnostic[] = [];
  const warn = (message: string, where?: SourceLocation): void => {
    warnings.push({ file: model.sourceFile, ...where, severity: 'warning', message });
  };
  const meshDir = resolve(options.meshDir);
  const roots = options.meshUris === 'package' ? packageRoots(options.packagePath, options.env ?? process.env) : [];
  const notInPackage = new Set<string>();
  const urdfDir = resolve(options.urdfDir ?? '.');
  const relativeUri = (path: string): string => relative(urdfDir, path).split(sep).map(encodeURIComponent).join('/');
  const uriOf = (path: string): string => {
    if (options.meshUris === 'relative') return relativeUri(path);
    if (options.meshUris !== 'package') return fileUri(path);
    const uri = packageUri(path, roots);
    if (uri) return uri;
    if (!notInPackage.has(path)) {
      notInPackage.add(path);
      warn(`${path} is not inside a ROS package on the package path; referenced by a file:// URI`);
    }
    return fileUri(path);
  };
  // Generated meshes all live in meshDir: resolve its URI once (one warning at most).
  const meshDirUri = ((): string => {
    if (options.meshUris === 'relative') return relativeUri(meshDir) || '.';
    if (options.meshUris !== 'package') return fileUri(meshDir);
    const probe = packageUri(join(meshDir, 'mesh.stl'), roots);
    if (probe) return probe.slice(0, -'/mesh.stl'.length);
    warn(`mesh directory ${meshDir} is not inside a ROS package on the package path; generated meshes are referenced by file:// URIs`);
    return fileUri(meshDir);
  })();
  const ctx: GeometryContext = {
    meshUri: (name) => `${meshDirUri}/${name}`,
    resourceUri: uriOf,
    divisions: options.divisions ?? 32,
    meshFormat: options.meshFormat ?? 'keep',
    copyResources: options.copyResources ?? false,
    uncopied: new Set(),
    meshes: new Map(),
    checkMesh: meshReferenceCheck(warn),
    warn,
  };
  const limits = {
    effort: options.defaultEffort ?? DEFAULT_EFFORT,
    velocity: options.defaultVelocity,
    prismatic: options.unlimitedPrismaticRange ?? DEFAULT_PRISMATIC_RANGE,
  };

  for (const name of [model.name, ...model.links.map((l) => l.name)]) {
    if (hasInvalidXmlChars(name)) warn(`name ${JSON.stringify(name)} has characters XML cannot carry; written with U+FFFD`);
  }

  const materials = new Map<string, string>();
  const materialName = (m: Material): string => {
    const rgba = [...m.diffuseColor, 1 - m.transparency].map((x) => Math.min(1, Math.max(0, x)));
    const key = vec(rgba);
    let name = materials.get(key);
    if (name === undefined) {
      name = `rgba_${rgba.map(num).join('_')}`;
      materials.set(key, name);
    }
    return name;
  };

  // URDF joint names must be unique; Choreonoid's usually are, generated ones must not collide.
  const jointName = uniqueNamer();
  const claimJoint = (wanted: string, fromModel = false, where?: SourceLocation): string => {
    const name = jointName(wanted);
    if (name !== wanted && fromModel) warn(`joint name "${wanted}" is used twice; the second one is written as "${name}"`, where);
    return name;
  };

  const frames = frameTree(model);
  const body: XmlNode[] = [];
  const extensions: XmlNode[] = [];
  const worldFrame = options.worldFrame ?? '';
  const root = model.links[0];
  if (worldFrame !== '') {
    if (frames.some((f) => f.name === worldFrame)) {
      throw new RangeError(`world frame "${worldFrame}" is already a frame of the model; choose another name`);
    }
    body.push(el('link', { name: worldFrame }));
  }
  // Link joints first, so that their names win over generated device-joint names. A track's joint name goes
  // to its surface (frames.ts, trackSurface); the track link hangs from its parent by a fixed `<joint>_mount`.
  const linkJoints = new Map<string, string>();
  const isTrackLink = (f: Frame): boolean => f.kind === 'link' && f.link !== undefined && isTrack(f.link);
  for (const f of frames) {
    if (f.link && f.link.parent !== null && !isTrackLink(f)) linkJoints.set(f.name, claimJoint(f.link.joint.name, true, f.link.source));
  }
  for (const f of frames.filter(isTrackLink)) linkJoints.set(f.name, claimJoint(`${f.link!.joint.name}_mount`));

  for (const frame of frames) {
    try {
      addFrame(frame);
    } catch (e) {
      if (e instanceof RangeError) throw new RangeError(`frame "${frame.name}": ${e.message}`);
      throw e;
    }
  }

  function addFrame(frame: Frame): void {
    if (frame.kind === 'track' && frame.link) {
      body.push(el('link', { name: frame.name }));
      body.push(jointElement(frame.link, linkJoints.get(frame.name)!, limits, warn));
    } else if (frame.kind === 'link' && frame.link) {
      body.push(linkElement(frame.link, ctx, materialName));
      if (frame.link.parent === null) {
        if (worldFrame !== '' && root) body.push(worldJoint(root, worldFrame, claimJoint(`${worldFrame}_to_${root.name}`), warn));
      } else {
        body.push(jointElement(frame.link, linkJoints.get(frame.name)!, limits, warn));
      }
      // A track's Choreonoid data goes with the joint of its name, the surface's.
      const surface = isTrackLink(frame) ? frames.find((f) => f.kind === 'track' && f.parent === frame.name) : undefined;
      const ext = jointExtension(frame.link, linkJoints.get(surface?.name ?? frame.name));
      if (ext) extensions.push(ext);
    } else {
      body.push(el('link', { name: frame.name }));
      body.push(fixedFrameJoint(frame, claimJoint(`${frame.name}_joint`)));
    }
  }

  if (model.extraJoints.length > 0) {
    warn(`${model.extraJoints.length} extra joint(s) (closed loops) cannot be expressed in URDF; kept as ${X}extra_joint elements`);
    for (const x of model.extraJoints) {
      const attrs: Record<string, string> = { type: x.type, link1: x.link1, link2: x.link2 };
      if (x.name !== undefined) attrs.name = x.name;
      extensions.push(
        el(`${X}extra_joint`, attrs, [
          xyzElement(`${X}axis`, x.axis),
          el(`${X}pose1`, attrsOf(originElement(x.localPose1)!)),
          el(`${X}pose2`, attrsOf(originElement(x.localPose2)!)),
        ]),
      );
    }
  }

  const materialElements = [...materials].map(([rgba, name]) => el('material', { name }, [el('color', { rgba })]));
  const doc = el('robot', { name: urdfRobotName(model), [`xmlns:body_bridge`]: EXTENSION_NAMESPACE }, [
    { comment: `Generated by body_bridge from ${model.sourceFile}. Mapping rules: docs/urdf.md.` },
    ...materialElements,
    ...body,
    ...extensions,
  ]);
  return { xml: serialize(doc), meshes: [...ctx.meshes.values()], warnings, meshDir };
}

/** The URDF's robot name (the SRDF must carry the same). */
export const urdfRobotName = (model: RobotModel): string =>
  model.name !== '' ? model.name : basename(model.sourceFile, extname(model.sourceFile)) || 'robot';

const attrsOf = (e: XmlElement): Record<string, string> => Object.fromEntries(e.attributes);

function linkElement(link: Link, ctx: GeometryContext, materialName: (m: Material) => string): XmlElement {
  const children: XmlNode[] = [];
  const inertial = inertialElement(link);
  if (inertial) {
    children.push(inertial);
    const why = impossibleInertia(link.mass, link.inertia);
    if (why) ctx.warn(`link "${link.name}" has mass properties no rigid body has (${why}); written as given, but Gazebo (sdformat) refuses them`, link.source);
  }
  const shapeElement = (tag: 'visual' | 'collision', shape: Shape): XmlElement | null => {
    let g;
    try {
      g = shapeGeometry(shape, ctx);
    } catch (e) {
      // A shape with a non-finite size or transform is dropped; the link and its kinematics stay.
      if (!(e instanceof RangeError)) throw e;
      ctx.warn(`${tag} shape of link "${link.name}" left out: ${e.message}`, shape.source);
      return null;
    }
    if (!g) return null;
    const parts: XmlNode[] = [];
    const origin = originElement(g.origin, true);
    if (origin) parts.push(origin);
    parts.push(el('geometry', {}, [g.geometry]));
    const material = shape.material ?? g.material;
    if (tag === 'visual' && material) parts.push(el('material', { name: materialName(material) }));
    // Viewers index a link's visuals (and collisions) by name: shapes that share one get _2, _3, …
    return el(tag, shape.name ? { name: (tag === 'visual' ? visualName : collisionName)(shape.name) } : {}, parts);
  };
  const visualName = uniqueNamer();
  const collisionName = uniqueNamer();
  for (const s of link.visuals) {
    const e = shapeElement('visual', s);
    if (e) children.push(e);
  }
  for (const s of link.collisions) {
    const e = shapeElement('collision', s);
    if (e) children.push(e);
  }
  return el('link', { name: link.name }, children);
}

/** Links with neither mass nor inertia exist only as frames and carry no <inertial>. */
function inertialElement(link: Link): XmlElement | null {
  const I = link.inertia;
  if (link.mass === 0 && I.every((row) => row.every((x) => x === 0))) return null;
  return el('inertial', {}, [
    el('origin', { xyz: vec(link.centerOfMass), rpy: '0 0 0' }),
    el('mass', { value: num(link.mass) }),
    el('inertia', {
      ixx: num(I[0][0]),
      ixy: num(I[0][1]),
      ixz: num(I[0][2]),
      iyy: num(I[1][1]),
      iyz: num(I[1][2]),
      izz: num(I[2][2]),
    }),
  ]);
}

/** A limit's magnitude from a (lower, upper) range, or the fallback when both sides are unlimited. */
function magnitude(lower: number, upper: number, fallback: number): number {
  const m = Math.min(Math.abs(lower), Math.abs(upper));
  return Number.isFinite(m) ? m : Number.isFinite(lower) ? Math.abs(lower) : Number.isFinite(upper) ? Math.abs(upper) : fallback;
}

interface LimitDefaults {
  effort: number;
  /** Undefined: the per-type default of velocityLimit. */
  velocity: number | undefined;
  prismatic: number;
}

function jointElement(
  link: Link,
  name: string,
  defaults: LimitDefaults,
  warn: (m: string, w?: SourceLocation) => void,
): XmlElement {
  const j = link.joint;
  const where = link.source;
  const effort = num(magnitude(j.effortLower, j.effortUpper, defaults.effort));
  const velocity = num(
    defaults.velocity === undefined ? velocityLimit(j) : velocityLimit(j, { revolute: defaults.velocity, prismatic: defaults.velocity }),
  );
  let type: string;
  let limit: XmlElement | null = null;
  switch (j.type) {
    case 'revolute':
      if (Number.isFinite(j.lower) && Number.isFinite(j.upper)) {
        type = 'revolute';
        limit = el('limit', { lower: num(j.lower), upper: num(j.upper), effort, velocity });
      } else {
        if (Number.isFinite(j.lower) || Number.isFinite(j.upper)) {
          warn(`joint "${j.name}" is limited on one side only; URDF cannot say that, written as continuous`, where);
        }
        type = 'continuous';
        limit = el('limit', { effort, velocity });
      }
      break;
    case 'prismatic': {
      type = 'prismatic';
      const lower = Number.isFinite(j.lower) ? j.lower : -defaults.prismatic;
      const upper = Number.isFinite(j.upper) ? j.upper : defaults.prismatic;
      limit = el('limit', { lower: num(lower), upper: num(upper), effort, velocity });
      break;
    }
    case 'free':
      type = 'floating';
      warn(`joint "${name}" is floating (a free body in the model): kdl_parser and robot_state_publisher treat it as fixed, and Gazebo (sdformat) cannot read it`, link.source);
      break;
    case 'pseudo_continuous_track':
    case 'fixed':
      type = 'fixed';
      break;
  }
  const children: XmlNode[] = [
    originElement(link.offset)!,
    el('parent', { link: link.parent! }),
    el('child', { link: link.name }),
  ];
  if (j.type === 'revolute' || j.type === 'prismatic') children.push(xyzElement('axis', j.axis));
  if (limit) children.push(limit);
  return el('joint', { name, type }, children);
}

function worldJoint(root: Link, world: string, name: string, warn: (m: string, w?: SourceLocation) => void): XmlElement {
  const type = root.joint.type === 'free' ? 'floating' : 'fixed';
  if (root.joint.type !== 'free' && root.joint.type !== 'fixed') {
    warn(`root link "${root.name}" has a ${root.joint.type} joint; joined to the world frame as fixed`, root.source);
  }
  return el('joint', { name, type }, [originElement(root.offset)!, el('parent', { link: world }), el('child', { link: root.name })]);
}

function fixedFrameJoint(frame: Frame, name: string): XmlElement {
  const origin: Pose = frame.origin ?? { translation: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };
  return el('joint', { name, type: 'fixed' }, [
    originElement(origin)!,
    el('parent', { link: frame.parent! }),
    el('child', { link: frame.name }),
  ]);
}

/** What URDF has no field for: Choreonoid joint id and type, initial position, rotor inertia, gear ratio, other joint data. */
function jointExtension(link: Link, urdfName: string | undefined): XmlElement | null {
  const j: Joint = link.joint;
  const attrs: Record<string, string> = {};
  if (j.id !== null) attrs.id = String(j.id);
  if (j.type === 'pseudo_continuous_track') attrs.type = j.type;
  if (j.initial !== 0 && Number.isFinite(j.initial)) attrs.initial_position = num(j.initial);
  if (j.rotorInertia !== 0 && Number.isFinite(j.rotorInertia)) attrs.rotor_inertia = num(j.rotorInertia);
  if (j.gearRatio !== 1 && Number.isFinite(j.gearRatio)) attrs.gear_ratio = num(j.gearRatio);
  if (Number.isFinite(j.effortLower) && Number.isFinite(j.effortUpper) && j.effortLower !== -j.effortUpper) {
    attrs.effort_lower = num(j.effortLower);
    attrs.effort_upper = num(j.effortUpper);
  }
  if (Number.isFinite(j.velocityLower) && Number.isFinite(j.velocityUpper) && j.velocityLower !== -j.velocityUpper) {
    attrs.velocity_lower = num(j.velocityLower);
    attrs.velocity_upper = num(j.velocityUpper);
  }
  const extras = Object.entries(j.extras ?? {}).filter(([, v]) => Number.isFinite(v));
  if (Object.keys(attrs).length === 0 && extras.length === 0) return null;
  const head: Record<string, string> = urdfName !== undefined ? { name: urdfName } : { link: link.name };
  return el(
    `${X}joint`,
    { ...head, ...attrs },
    extras.map(([k, v]) => el(`${X}data`, { name: k, value: num(v) })),
  );
}
