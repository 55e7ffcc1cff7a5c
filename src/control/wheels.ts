// A differential drive read off the model: a free-floating base (a mobile robot) carrying two wheel joints
// on one axis. diff_drive_controller needs the wheel radius and the distance between the wheels, which a
// hand-written configuration types in; here they come from the geometry the simulator rolls on.
//
// - A wheel: a revolute joint without position limits, rigidly attached to the root link (only fixed joints
//   between), with no moving joint below it. A caster's wheel hangs below its swivel joint and is not one.
// - Radius: the wheel's collision geometry (its link's and that of links fixed to it), as far as it reaches
//   from the joint axis — the part that touches the floor. A cylinder whose axis is the joint axis, or a
//   sphere centred on it, gives it exactly; any other shape (a box, an off-axis cylinder, a mesh) gives its
//   extent, with a warning, because the distance from axis to floor then depends on the wheel's angle.
// - Tread: the axial middle of the shape that gives the radius; separation = the distance between the two
//   treads along the common axis (the contact points' distance, which is what turns the base).
// - Left, right, forward: REP-103 — the base's +x is forward, +y left. A wheel whose axis points to −y
//   turns backwards for a positive command: its radius multiplier is −1, which diff_drive_controller
//   applies to both the command and the odometry.
import { linkWorldPoses } from '../kinematics/forward.js';
import { isMovingJoint } from '../kinematics/frames.js';
import { add, cross, dot, mulVec, norm, normalize, scale, sub, transpose, mulMat } from '../model/math.js';
import type { Diagnostic, Link, Pose, RobotModel, Vec3 } from '../model/types.js';
import { collisionShape } from '../moveit/collision-geometry.js';

/** m: how far apart two axes may lie and still be one axis; also the radius tolerance. */
export const COAXIAL_TOLERANCE = 1e-4;
/** How parallel two axes must be (|sin| of the angle between them). */
export const PARALLEL_TOLERANCE = 1e-6;

export interface Wheel {
  joint: string;
  link: string;
  radius: number;
  /** The middle of the tread in the base (root link) frame. */
  tread: Vec3;
  /** The joint axis, unit, in the base frame. */
  axis: Vec3;
  /** What gave the radius: `a cylinder about the axis`, `a sphere on the axis`, `the extent of a box` ... */
  radiusFrom: string;
  /** Whether that shape is round about the axis (cylinder or sphere on it). */
  round: boolean;
  /** rad/s; Infinity when the model gives none. */
  velocityLimit: number;
}

export interface DiffDrive {
  base: string;
  left: Wheel;
  right: Wheel;
  /** m, between the treads along the axis. */
  separation: number;
  /** m: the mean of the two wheels' radii. */
  radius: number;
  /** Each wheel's radius / radius, negative where the wheel's axis points right (−y). */
  leftMultiplier: number;
  rightMultiplier: number;
  /** Sum of every link's mass (kg): what the wheels push. */
  mass: number;
}

export interface DriveAnalysis {
  drive: DiffDrive | null;
  /** The joints taken as drive wheels (empty without a drive). */
  wheels: string[];
  /**
   * With a drive, the other wheels' joints — a caster's swivel and wheel, a trailing wheel: an unlimited
   * revolute joint fixed to the base whose subtree moves only on such joints. They must turn freely: held
   * still, they would drag sideways whenever the base turns.
   */
  passive: string[];
  notes: string[];
  warnings: Diagnostic[];
}

const subtreeLinks = (model: RobotModel, top: string): Link[] => {
  const below = new Set([top]);
  const out: Link[] = [];
  for (const l of model.links) {
    if (l.name === top || (l.parent !== null && below.has(l.parent))) {
      below.add(l.name);
      out.push(l);
    }
  }
  return out;
};

/** Revolute joints without position limits, fixed to the root, with nothing moving below them. */
function wheelCandidates(model: RobotModel): Link[] {
  const byName = new Map(model.links.map((l) => [l.name, l]));
  const rigidToRoot = (l: Link): boolean => {
    for (let p = l.parent === null ? undefined : byName.get(l.parent); p; p = p.parent === null ? undefined : byName.get(p.parent)) {
      if (p.parent !== null && p.joint.type !== 'fixed') return false;
    }
    return true;
  };
  return model.links.filter(
    (l) =>
      l.parent !== null &&
      l.joint.type === 'revolute' &&
      !Number.isFinite(l.joint.lower) &&
      !Number.isFinite(l.joint.upper) &&
      rigidToRoot(l) &&
      !subtreeLinks(model, l.name).some((c) => c !== l && isMovingJoint(c)),
  );
}

/** The pose of `pose` in the frame `frame` (both in the world). */
const relative = (frame: Pose, pose: Pose): Pose => {
  const rt = transpose(frame.rotation);
  return { translation: mulVec(rt, sub(pose.translation, frame.translation)), rotation: mulMat(rt, pose.rotation) };
};

interface Reach {
  radius: number;
  /** Along the axis, from the joint origin. */
  tread: number;
  from: string;
  round: boolean;
}

/** Rim vertices must agree on their distance from the axis to this fraction, and leave no gap wider than RIM_GAP around it, for a mesh to be a round tyre. */
export const RIM_SPREAD = 0.01;
export const RIM_GAP = Math.PI / 6;

/**
 * A mesh's reach from the axis: its outermost vertices (within RIM_SPREAD of the farthest). Round when they go
 * all the way round the axis — a tyre modelled as a polygon mesh, as OpenHRP models do. The radius is the
 * farthest vertex's distance either way: a polygon's vertices lie on the circle it stands for.
 */
function meshRim(points: readonly { radial: Vec3; along: number }[], axis: Vec3): { radius: number; tread: number; round: boolean; count: number } {
  const far = Math.max(...points.map((q) => norm(q.radial)), 0);
  const rim = points.filter((q) => norm(q.radial) >= far * (1 - RIM_SPREAD));
  const along = points.map((q) => q.along);
  const tread = (Math.min(...along) + Math.max(...along)) / 2;
  if (rim.length < 6 || !(far > 0)) return { radius: far, tread, round: false, count: rim.length };
  // Angles of the rim vertices about the axis, in a frame across it.
  const u = normalize(rim[0]!.radial);
  const w = cross(axis, u);
  const angles = rim.map((q) => Math.atan2(dot(q.radial, w), dot(q.radial, u))).sort((x, y) => x - y);
  const gaps = angles.map((t, i) => (i + 1 < angles.length ? angles[i + 1]! : angles[0]! + 2 * Math.PI) - t);
  return { radius: far, tread, round: Math.max(...gaps) <= RIM_GAP, count: rim.length };
}

/** How far a wheel's collision geometry reaches from its axis (through the link origin, direction `axis`, link frame). */
function wheelReach(model: RobotModel, wheel: Link, warn: (message: string) => void): Reach | null {
  const a = normalize(wheel.joint.axis);
  const poses = linkWorldPoses(model);
  const wheelPose = poses.get(wheel.name)!;
  let best: Reach | null = null;
  let shapes = 0;
  for (const link of subtreeLinks(model, wheel.name)) {
    const inWheel = relative(wheelPose, poses.get(link.name)!);
    for (const shape of link.collisions) {
      const c = collisionShape(shape, 32);
      if (c === null) continue;
      if (typeof c === 'string') {
        warn(`a collision shape of ${link.name} cannot be read for the wheel radius: ${c}`);
        continue;
      }
      shapes++;
      const pose: Pose = { translation: add(inWheel.translation, mulVec(inWheel.rotation, c.pose.translation)), rotation: mulMat(inWheel.rotation, c.pose.rotation) };
      const centre = pose.translation;
      const offAxis = norm(cross(centre, a));
      let reach: Reach;
      if (c.primitive?.kind === 'cylinder' && norm(cross(mulVec(pose.rotation, [0, 0, 1]), a)) < PARALLEL_TOLERANCE && offAxis < COAXIAL_TOLERANCE) {
        reach = { radius: c.primitive.radius, tread: dot(centre, a), from: 'a cylinder about the axis', round: true };
      } else if (c.primitive?.kind === 'sphere' && offAxis < COAXIAL_TOLERANCE) {
        reach = { radius: c.primitive.radius, tread: dot(centre, a), from: 'a sphere on the axis', round: true };
      } else {
        // The outermost vertices of the surface; the tread at the middle of the shape's axial extent.
        const p = c.mesh.positions;
        const points: { radial: Vec3; along: number }[] = [];
        for (let i = 0; i < p.length; i += 3) {
          const v = add(centre, mulVec(pose.rotation, [p[i]!, p[i + 1]!, p[i + 2]!]));
          const along = dot(v, a);
          points.push({ radial: sub(v, scale(a, along)), along });
        }
        const kind = c.primitive ? (c.primitive.kind === 'cylinder' ? 'a cylinder off the axis' : c.primitive.kind === 'sphere' ? 'a sphere off the axis' : 'a box') : 'a mesh';
        const rim = meshRim(points, a);
        reach = rim.round
          ? { radius: rim.radius, tread: rim.tread, from: `${kind} round about the axis (${rim.count} rim vertices)`, round: true }
          : { radius: rim.radius, tread: rim.tread, from: `the extent of ${kind}`, round: false };
      }
      if (best === null || reach.radius > best.radius + COAXIAL_TOLERANCE || (Math.abs(reach.radius - best.radius) <= COAXIAL_TOLERANCE && reach.round && !best.round)) best = reach;
    }
  }
  if (shapes === 0 && best === null) return null;
  return best;
}

/** A length as people write it: a few significant digits, no trailing zeros. */
const short = (x: number, digits = 3): string => String(Number(x.toPrecision(digits)));

const where = (model: RobotModel, link: Link): Pick<Diagnostic, 'file' | 'line' | 'column' | 'path'> => ({ file: model.sourceFile, ...link.source });

/** The model's differential drive, if it has one (see the header), with what was inferred and what is doubtful. */
export function analyseDrive(model: RobotModel): DriveAnalysis {
  const notes: string[] = [];
  const warnings: Diagnostic[] = [];
  const none = (): DriveAnalysis => ({ drive: null, wheels: [], passive: [], notes, warnings });
  const root = model.links[0];
  if (!root || root.joint.type !== 'free') return none();
  const candidates = wheelCandidates(model);
  if (candidates.length === 0) return none();
  const warnAt = (link: Link, message: string): void => {
    warnings.push({ ...where(model, link), severity: 'warning', message });
  };
  const poses = linkWorldPoses(model);
  const base = poses.get(root.name)!;
  const inBase = (l: Link): Pose => relative(base, poses.get(l.name)!);
  const axisOf = (l: Link): Vec3 => normalize(mulVec(inBase(l).rotation, l.joint.axis));
  const coaxial = (a: Link, b: Link): boolean => {
    const ax = axisOf(a);
    return norm(cross(ax, axisOf(b))) < PARALLEL_TOLERANCE && norm(cross(sub(inBase(b).translation, inBase(a).translation), ax)) < COAXIAL_TOLERANCE;
  };
  let pair: [Link, Link] | null = null;
  if (candidates.length === 2) pair = [candidates[0]!, candidates[1]!];
  else {
    const pairs: [Link, Link][] = [];
    for (let i = 0; i < candidates.length; i++) for (let j = i + 1; j < candidates.length; j++) if (coaxial(candidates[i]!, candidates[j]!)) pairs.push([candidates[i]!, candidates[j]!]);
    if (pairs.length === 1) {
      pair = pairs[0]!;
      notes.push(`drive wheels ${pair[0].joint.name} and ${pair[1].joint.name}: the one coaxial pair among ${candidates.length} unlimited joints on the base (${candidates.map((c) => c.joint.name).join(', ')})`);
    } else {
      warnAt(root, `${candidates.length} wheel-like joints on the base (${candidates.map((c) => c.joint.name).join(', ')}) and ${pairs.length} coaxial pairs among them: no diff_drive_controller (it drives one pair of wheels on one axis)`);
      return none();
    }
  }
  const [a, b] = pair;
  if (norm(cross(axisOf(a), axisOf(b))) >= PARALLEL_TOLERANCE) {
    warnAt(b, `wheel joints ${a.joint.name} and ${b.joint.name} turn about axes that are not parallel: no diff_drive_controller`);
    return none();
  }
  const wheelOf = (l: Link): Wheel | null => {
    const reach = wheelReach(model, l, (m) => warnAt(l, m));
    if (reach === null || !(reach.radius > 0)) {
      warnAt(l, `wheel ${l.joint.name} has no collision shape to give its radius (nothing of it touches the floor): no diff_drive_controller`);
      return null;
    }
    if (!reach.round) warnAt(l, `wheel ${l.joint.name}: radius ${short(reach.radius, 4)} m from ${reach.from}, not a cylinder about its axis: the height of its axle depends on its angle`);
    const pose = inBase(l);
    const axis = axisOf(l);
    const v = Math.min(Math.abs(l.joint.velocityLower), Math.abs(l.joint.velocityUpper));
    return { joint: l.joint.name, link: l.name, radius: reach.radius, tread: add(pose.translation, scale(axis, reach.tread)), axis, radiusFrom: reach.from, round: reach.round, velocityLimit: v };
  };
  const wa = wheelOf(a);
  const wb = wheelOf(b);
  if (!wa || !wb) return none();
  const axis = wa.axis;
  const offset = norm(cross(sub(wb.tread, wa.tread), axis));
  if (offset >= COAXIAL_TOLERANCE) {
    warnAt(b, `wheels ${a.joint.name} and ${b.joint.name} are parallel but not on one axis (${short(offset)} m apart across it): diff_drive_controller assumes one axle; separation taken along the axis`);
  }
  if (Math.abs(axis[1]) < 0.99) {
    warnAt(a, `the wheel axis is not along the base's y axis (${axis.map((x) => x.toFixed(3)).join(', ')} in ${root.name}): diff_drive_controller drives along the base's x axis, which is then not where the wheels roll`);
  }
  const [left, right] = wa.tread[1] >= wb.tread[1] ? [wa, wb] : [wb, wa];
  const separation = Math.abs(dot(sub(left.tread, right.tread), axis));
  if (!(separation > COAXIAL_TOLERANCE)) {
    warnAt(b, `wheels ${a.joint.name} and ${b.joint.name} have no distance between them along their axis: no diff_drive_controller`);
    return none();
  }
  const radius = (left.radius + right.radius) / 2;
  if (Math.abs(left.radius - right.radius) > COAXIAL_TOLERANCE) {
    warnAt(b, `wheel radii differ: ${left.joint} ${left.radius} m, ${right.joint} ${right.radius} m; wheel_radius is their mean and each wheel's radius multiplier corrects it`);
  }
  const sign = (w: Wheel): number => (w.axis[1] >= 0 ? 1 : -1);
  for (const w of [left, right]) {
    if (sign(w) < 0) notes.push(`${w.joint}: its axis points to the base's right, so a positive command turns it backwards; radius multiplier −1`);
  }
  const drive: DiffDrive = {
    base: root.name,
    left,
    right,
    separation,
    radius,
    leftMultiplier: (sign(left) * left.radius) / radius,
    rightMultiplier: (sign(right) * right.radius) / radius,
    mass: model.links.reduce((m, l) => m + l.mass, 0),
  };
  notes.push(
    `differential drive: left ${left.joint}, right ${right.joint}; wheel_radius ${radius} m (${left.radiusFrom}${left.radiusFrom === right.radiusFrom ? '' : `; ${right.radiusFrom}`}), ` +
      `wheel_separation ${separation} m (between the treads along the axis)`,
  );
  const passive = casterJoints(model, new Set([left.joint, right.joint]));
  if (passive.length > 0) notes.push(`free-rolling: ${passive.join(', ')} (casters and other wheels on the base; no controller, no torque)`);
  return { drive, wheels: [left.joint, right.joint], passive, notes, warnings };
}

/** Joints of the base's other wheels (see DriveAnalysis.passive), in model order. */
function casterJoints(model: RobotModel, drive: ReadonlySet<string>): string[] {
  const unlimited = (l: Link): boolean => l.joint.type === 'revolute' && !Number.isFinite(l.joint.lower) && !Number.isFinite(l.joint.upper);
  const byName = new Map(model.links.map((l) => [l.name, l]));
  const rigidToRoot = (l: Link): boolean => {
    for (let p = l.parent === null ? undefined : byName.get(l.parent); p; p = p.parent === null ? undefined : byName.get(p.parent)) {
      if (p.parent !== null && p.joint.type !== 'fixed') return false;
    }
    return true;
  };
  const out = new Set<string>();
  for (const top of model.links) {
    if (top.parent === null || !unlimited(top) || drive.has(top.joint.name) || !rigidToRoot(top)) continue;
    const moving = subtreeLinks(model, top.name).filter(isMovingJoint);
    if (moving.every(unlimited)) for (const l of moving) out.add(l.joint.name);
  }
  return model.links.filter((l) => out.has(l.joint.name)).map((l) => l.joint.name);
}
