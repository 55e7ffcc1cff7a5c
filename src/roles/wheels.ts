// A base's drive read off the model: the wheels (or pseudo continuous tracks) on each side of a free-floating
// base, and what diff_drive_controller needs to drive them — the radius and the distance between the sides,
// which a hand-written configuration types in; here they come from the geometry the simulator rolls on.
// Which joints are drive wheels is decided in roles.ts; this file measures them.
//
// - Radius: a wheel's collision geometry (its link's and that of links fixed to it), as far as it reaches
//   from the joint axis — the part that touches the floor. A cylinder whose axis is the joint axis, or a
//   sphere centred on it, gives it exactly; a mesh (STL, OBJ, COLLADA) round about the axis gives its rim;
//   any other shape gives its extent, with a warning, because the axle's height then depends on its angle.
// - A pseudo continuous track: Choreonoid takes its command as the belt's surface speed in m/s — the AIST
//   simulator's ConstraintForceSolver adds dq_target × (axis × contact normal) to the track's velocity at each
//   contact, and BodySystemInterface's `velocity` mode writes dq_target (JointVelocity), found by joint name with
//   or without a joint id (Body::joint(name)). diff_drive_controller turns a base speed v into a wheel speed
//   v / wheel_radius: with wheel_radius 1 m that is the belt speed itself. The track's link does not turn (its
//   q and dq stay as they were), so the drive's odometry comes from its commands.
// - Tread: the axial middle of the shape that gives the radius (a track: its link origin); separation = the
//   distance between the sides' mean treads along the common axis (what turns the base).
// - Left, right, forward: REP-103 — the base's +x is forward, +y left. A wheel whose axis points to −y turns
//   backwards for a positive command: its side's radius multiplier is −1, which diff_drive_controller applies
//   to the commands and the odometry. Several wheels on a side (skid steer) share one multiplier, so they must
//   share the axis direction and the radius.
import { linkWorldPoses } from '../kinematics/forward.js';
import { add, cross, dot, mulVec, norm, normalize, scale, sub, transpose, mulMat } from '../model/math.js';
import type { Diagnostic, Link, Pose, RobotModel, Vec3 } from '../model/types.js';
import { collisionShape } from '../urdf/collision-geometry.js';

/** m: how far apart two axes may lie and still be one axis; also the radius tolerance. */
export const COAXIAL_TOLERANCE = 1e-4;
/** How parallel two axes must be (|sin| of the angle between them). */
export const PARALLEL_TOLERANCE = 1e-6;
/** Wheels on one side whose radii differ by more than this fraction cannot turn at one speed without slipping. */
export const RADIUS_SPREAD = 0.02;
/** m: a track's "radius" for diff_drive_controller (its command is a surface speed). */
export const TRACK_RADIUS = 1;

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
  /** Whether that shape is round about the axis (cylinder or sphere on it, a round mesh, a track). */
  round: boolean;
  /** rad/s (a track: m/s); Infinity when the model gives none. */
  velocityLimit: number;
}

export interface DiffDrive {
  base: string;
  /** Wheels, or pseudo continuous tracks (radius TRACK_RADIUS, commands in m/s). */
  kind: 'wheels' | 'tracks';
  /** Front to back on each side. */
  left: Wheel[];
  right: Wheel[];
  /** m, between the sides' treads along the axis. */
  separation: number;
  /** m: the mean of the wheels' radii. */
  radius: number;
  /** Each side's radius / radius, negative where its axis points right (−y). */
  leftMultiplier: number;
  rightMultiplier: number;
  /** Sum of every link's mass (kg): what the wheels push. */
  mass: number;
}

export interface DriveAnalysis {
  drive: DiffDrive | null;
  /** The joints the drive commands (empty without a drive). */
  wheels: string[];
  /** Candidates the drive could not take, and why (a joint: the reason). */
  leftOut: Map<string, string>;
  notes: string[];
  warnings: Diagnostic[];
}

/** The link and every link below it, in model order. */
export const subtreeLinks = (model: RobotModel, top: string): Link[] => {
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
      const c = collisionShape(shape, 32, 'urdf', { collada: true });
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


/**
 * A wheel measured in the base (root link) frame: its radius from its collision geometry, its tread and axis.
 * Null when no collision shape gives a radius; a shape not round about the axis is warned about.
 */
export function measureWheel(model: RobotModel, l: Link, warn: (message: string) => void): Wheel | null {
  const poses = linkWorldPoses(model);
  const pose = relative(poses.get(model.links[0]!.name)!, poses.get(l.name)!);
  const axis = normalize(mulVec(pose.rotation, l.joint.axis));
  const reach = wheelReach(model, l, warn);
  if (reach === null || !(reach.radius > 0)) return null;
  if (!reach.round) warn(`wheel ${l.joint.name}: radius ${short(reach.radius, 4)} m from ${reach.from}, not a cylinder about its axis: the height of its axle depends on its angle`);
  return { joint: l.joint.name, link: l.name, radius: reach.radius, tread: add(pose.translation, scale(axis, reach.tread)), axis, radiusFrom: reach.from, round: reach.round, velocityLimit: velocityOf(l) };
}

/** A length as people write it: a few significant digits, no trailing zeros. */
export const short = (x: number, digits = 3): string => String(Number(x.toPrecision(digits)));

const where = (model: RobotModel, link: Link): Pick<Diagnostic, 'file' | 'line' | 'column' | 'path'> => ({ file: model.sourceFile, ...link.source });

const velocityOf = (l: Link): number => Math.min(Math.abs(l.joint.velocityLower), Math.abs(l.joint.velocityUpper));

/**
 * diff_drive_controller for these drive candidates (wheels, or tracks) of the root: split left and right of
 * the base's x axis, measured, and checked for what one controller needs (one axis, one radius and one axis
 * direction per side, as many on each side). Null drive, with the reason, when they cannot make one.
 */
export function diffDrive(model: RobotModel, candidates: readonly Link[], kind: 'wheels' | 'tracks'): DriveAnalysis {
  const notes: string[] = [];
  const warnings: Diagnostic[] = [];
  const leftOut = new Map<string, string>();
  const root = model.links[0]!;
  const none = (reason: string, at: Link = root): DriveAnalysis => {
    warnings.push({ ...where(model, at), severity: 'warning', message: reason });
    return { drive: null, wheels: [], leftOut, notes, warnings };
  };
  const warnAt = (link: Link, message: string): void => {
    warnings.push({ ...where(model, link), severity: 'warning', message });
  };
  const poses = linkWorldPoses(model);
  const base = poses.get(root.name)!;
  const inBase = (l: Link): Pose => relative(base, poses.get(l.name)!);
  const measured: Wheel[] = [];
  for (const l of candidates) {
    const pose = inBase(l);
    const axis = normalize(mulVec(pose.rotation, l.joint.axis));
    if (kind === 'tracks') {
      measured.push({
        joint: l.joint.name, link: l.name, radius: TRACK_RADIUS, tread: pose.translation, axis,
        radiusFrom: 'a pseudo continuous track (its command is the belt speed in m/s)', round: true, velocityLimit: velocityOf(l),
      });
      continue;
    }
    const wheel = measureWheel(model, l, (m) => warnAt(l, m));
    if (wheel === null) {
      leftOut.set(l.joint.name, 'no collision shape gives its radius');
      warnAt(l, `wheel ${l.joint.name} has no collision shape body_bridge can read for its radius: no diff_drive_controller for it`);
      continue;
    }
    measured.push(wheel);
  }
  const across = measured.filter((w) => Math.abs(w.axis[1]) >= 0.99);
  for (const w of measured) {
    if (!across.includes(w)) leftOut.set(w.joint, `its axis (${w.axis.map((x) => x.toFixed(3)).join(', ')} in ${root.name}) is not along the base's y axis, across which diff_drive_controller drives`);
  }
  let left = across.filter((w) => w.tread[1] > COAXIAL_TOLERANCE);
  let right = across.filter((w) => w.tread[1] < -COAXIAL_TOLERANCE);
  for (const w of across) if (!left.includes(w) && !right.includes(w)) leftOut.set(w.joint, `it sits on the base's centre line (y = 0): neither left nor right`);
  if (left.length === 0 || right.length === 0) {
    return none(`no ${kind === 'tracks' ? 'track' : 'wheel'} pair across the base (${left.length} left, ${right.length} right of ${root.name}'s x axis${measured.length < candidates.length ? `, ${candidates.length - measured.length} without a radius` : ''}): no diff_drive_controller`);
  }
  // One radius per side: the most common one (wheels of another size slip at its speed; they roll free).
  const mainRadius = (side: Wheel[]): number => {
    let best = side[0]!.radius;
    let count = 0;
    for (const w of side) {
      const n = side.filter((o) => Math.abs(o.radius - w.radius) <= RADIUS_SPREAD * w.radius).length;
      if (n > count || (n === count && w.radius > best)) [best, count] = [w.radius, n];
    }
    return best;
  };
  const keep = (side: Wheel[]): Wheel[] => {
    const r = mainRadius(side);
    const sign = Math.sign(side.filter((w) => Math.abs(w.radius - r) <= RADIUS_SPREAD * r)[0]!.axis[1]);
    return side.filter((w) => {
      if (Math.abs(w.radius - r) > RADIUS_SPREAD * r) {
        leftOut.set(w.joint, `its radius ${short(w.radius, 4)} m differs from its side's drive wheels' ${short(r, 4)} m: at their speed it would slip`);
        return false;
      }
      if (Math.sign(w.axis[1]) !== sign) {
        leftOut.set(w.joint, `its axis points the other way from its side's other wheels: diff_drive_controller has one radius multiplier per side`);
        return false;
      }
      return true;
    });
  };
  left = keep(left);
  right = keep(right);
  if (left.length !== right.length) {
    return none(`${left.length} drive ${kind} on the left and ${right.length} on the right (${[...left, ...right].map((w) => w.joint).join(', ')}): diff_drive_controller needs as many on each side; no diff_drive_controller`);
  }
  const front = (a: Wheel, b: Wheel): number => b.tread[0] - a.tread[0];
  left.sort(front);
  right.sort(front);
  const axis: Vec3 = [0, 1, 0];
  const mean = (ws: Wheel[], f: (w: Wheel) => number): number => ws.reduce((s, w) => s + f(w), 0) / ws.length;
  const separation = Math.abs(mean(left, (w) => dot(w.tread, axis)) - mean(right, (w) => dot(w.tread, axis)));
  const radius = mean([...left, ...right], (w) => w.radius);
  const leftRadius = mean(left, (w) => w.radius);
  const rightRadius = mean(right, (w) => w.radius);
  if (kind === 'wheels' && Math.abs(leftRadius - rightRadius) > COAXIAL_TOLERANCE) {
    warnAt(root, `wheel radii differ between the sides: left ${short(leftRadius, 4)} m, right ${short(rightRadius, 4)} m; wheel_radius is their mean and each side's radius multiplier corrects it`);
  }
  if (left.length === 1) {
    const offset = Math.abs(left[0]!.tread[0] - right[0]!.tread[0]) + Math.abs(left[0]!.tread[2] - right[0]!.tread[2]);
    if (offset >= COAXIAL_TOLERANCE) warnAt(root, `wheels ${left[0]!.joint} and ${right[0]!.joint} are parallel but not on one axis (${short(offset)} m apart across it): diff_drive_controller assumes one axle; separation taken along the axis`);
  }
  const sign = (ws: Wheel[]): number => (ws[0]!.axis[1] >= 0 ? 1 : -1);
  for (const [side, ws] of [['left', left], ['right', right]] as const) {
    if (sign(ws) < 0) notes.push(`${ws.map((w) => w.joint).join(', ')} (${side}): ${ws.length === 1 ? 'its axis points' : 'their axes point'} to the base's right, so a positive command turns ${ws.length === 1 ? 'it' : 'them'} backwards; radius multiplier −1`);
  }
  const drive: DiffDrive = {
    base: root.name,
    kind,
    left,
    right,
    separation,
    radius,
    leftMultiplier: (sign(left) * leftRadius) / radius,
    rightMultiplier: (sign(right) * rightRadius) / radius,
    mass: model.links.reduce((m, l) => m + l.mass, 0),
  };
  const names = (ws: Wheel[]): string => ws.map((w) => w.joint).join(', ');
  notes.push(
    kind === 'tracks'
      ? `tracked drive: left ${names(left)}, right ${names(right)}; wheel_radius ${TRACK_RADIUS} m (a track's command is its belt speed in m/s), wheel_separation ${short(separation, 6)} m (between the tracks' centres)`
      : `${left.length === 1 ? 'differential' : `skid-steer (${left.length} wheels per side)`} drive: left ${names(left)}, right ${names(right)}; wheel_radius ${short(radius, 6)} m (${left[0]!.radiusFrom}), ` +
          `wheel_separation ${short(separation, 6)} m (between the treads along the axis)`,
  );
  return { drive, wheels: [...left, ...right].map((w) => w.joint), leftOut, notes, warnings };
}
