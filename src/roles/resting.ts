// How a free body comes to rest on the floor from its model pose. Where its centre of mass lies outside what it
// stands on (the support polygon of its lowest points), it tips over the nearest edge, or corner, of that polygon
// until another point of it meets the floor, and again until the centre of mass is over what it then stands on.
// The joints stay at their initial positions (a body whose PDs hold them). WRS2018's Spreader.body stands on a
// small box under its base with its centre of mass 0.22 m ahead of it: Choreonoid rests it turned 17° forward
// (the corpus sweep, 30 Nov 2026), and gains designed only at the model's attitude left its wedges' axes, vertical
// there, loaded by gravity once tilted.
import { linkWorldPoses } from '../kinematics/forward.js';
import { add, axisAngle, cross, identity3, mulMat, mulVec, norm, normalize, sub } from '../model/math.js';
import type { Mat3, RobotModel, Vec3 } from '../model/types.js';
import { collisionShape } from '../urdf/collision-geometry.js';
import { convexHull, insideMargin } from './support.js';

/** m: points this close to the lowest one stand on the floor (a face flat on it, within its tessellation). */
export const REST_CONTACT = 1e-3;
/** Tipping steps at most: each puts one more point on the floor. */
const MAX_STEPS = 8;

export interface RestingAttitude {
  /** World rotation from the model's attitude to the one it rests in (identity: it stands as modelled). */
  rotation: Mat3;
  /** rad: the angle of that rotation. */
  angle: number;
  /** The tipping steps, each about a horizontal axis through an edge or corner of the support polygon. */
  steps: { axis: Vec3; angle: number }[];
  /** False where a step found nothing to stop it (a ball, a body with no geometry beyond the edge): it rolls on. */
  rests: boolean;
}

/**
 * The attitude a free-floating body rests in on a level floor, its joints at their initial positions; null for a
 * fixed root, a body without collision geometry or without mass. Its sub-bodies (links on free joints below the
 * root) fall on their own and are left out.
 */
export function restingAttitude(model: RobotModel, divisions = 16): RestingAttitude | null {
  const root = model.links[0];
  if (!root || root.joint.type !== 'free') return null;
  const inBody = new Set<string>();
  for (const l of model.links) if (l.parent === null || (l.joint.type !== 'free' && inBody.has(l.parent))) inBody.add(l.name);
  const q = new Map(model.links.filter((l) => l.parent !== null && Number.isFinite(l.joint.initial)).map((l) => [l.joint.name, l.joint.initial]));
  const poses = linkWorldPoses(model, q);
  let points: Vec3[] = [];
  let mass = 0;
  let com: Vec3 = [0, 0, 0];
  for (const link of model.links) {
    if (!inBody.has(link.name)) continue;
    const pose = poses.get(link.name)!;
    if (link.mass > 0) {
      com = add(com, mulVec([[link.mass, 0, 0], [0, link.mass, 0], [0, 0, link.mass]], add(pose.translation, mulVec(pose.rotation, link.centerOfMass))));
      mass += link.mass;
    }
    for (const shape of link.collisions) {
      const c = collisionShape(shape, divisions, 'urdf', { collada: true });
      if (c === null || typeof c === 'string') continue;
      const rotation = mulMat(pose.rotation, c.pose.rotation);
      const origin = add(pose.translation, mulVec(pose.rotation, c.pose.translation));
      const p = c.mesh.positions;
      for (let i = 0; i < p.length; i += 3) points.push(add(origin, mulVec(rotation, [p[i]!, p[i + 1]!, p[i + 2]!])));
    }
  }
  if (points.length === 0 || !(mass > 0)) return null;
  com = [com[0] / mass, com[1] / mass, com[2] / mass];

  let rotation = identity3();
  const steps: RestingAttitude['steps'] = [];
  for (let step = 0; step < MAX_STEPS; step++) {
    let ground = Infinity;
    for (const p of points) ground = Math.min(ground, p[2]);
    const contact = points.filter((p) => p[2] <= ground + REST_CONTACT);
    const hull = convexHull(contact.map((p) => [p[0], p[1]] as [number, number]));
    if (hull.length >= 3 && insideMargin(hull, com[0], com[1]) >= 0) return { rotation, angle: rotationAngle(rotation), steps, rests: true };
    // The pivot: the point of the support polygon nearest the centre of mass; the body tips about the horizontal
    // axis through it square to the way the centre of mass lies from it (along the edge, where that point is on one).
    const pivot2 = nearestOnPolygon(hull, com[0], com[1]);
    const out: Vec3 = [com[0] - pivot2[0], com[1] - pivot2[1], 0];
    if (norm(out) < 1e-12) return { rotation, angle: rotationAngle(rotation), steps, rests: true };
    // Rotating about `axis` by a positive angle takes `out` downward.
    const axis = normalize(cross([0, 0, 1], out));
    const pivot: Vec3 = [pivot2[0], pivot2[1], ground];
    // Each point's height above the floor as it turns by θ: A·cos θ + B·sin θ (the axis horizontal); it meets the
    // floor first at θ = atan2(A, −B), where B < 0 (it goes down).
    let angle = Infinity;
    for (const p of points) {
      const r = sub(p, pivot);
      const along = r[0] * axis[0] + r[1] * axis[1];
      const perp: Vec3 = [r[0] - along * axis[0], r[1] - along * axis[1], r[2]];
      if (norm(perp) < 1e-9) continue;
      const a = perp[2];
      const b = cross(axis, perp)[2];
      if (b >= -1e-12) continue;
      const theta = Math.atan2(a, -b);
      if (theta > 1e-9) angle = Math.min(angle, theta);
    }
    if (!Number.isFinite(angle)) return { rotation, angle: rotationAngle(rotation), steps, rests: false };
    const turn = axisAngle(axis, angle);
    const about = (p: Vec3): Vec3 => add(pivot, mulVec(turn, sub(p, pivot)));
    points = points.map(about);
    com = about(com);
    rotation = mulMat(turn, rotation);
    steps.push({ axis, angle });
  }
  return { rotation, angle: rotationAngle(rotation), steps, rests: false };
}

const rotationAngle = (r: Mat3): number => Math.acos(Math.min(1, Math.max(-1, (r[0][0] + r[1][1] + r[2][2] - 1) / 2)));

/** The point of a convex polygon (or of a segment or a point, for fewer vertices) nearest to (x, y). */
function nearestOnPolygon(hull: readonly [number, number][], x: number, y: number): [number, number] {
  if (hull.length === 1) return hull[0]!;
  let best: [number, number] = hull[0]!;
  let bestD = Infinity;
  const n = hull.length === 2 ? 1 : hull.length;
  for (let i = 0; i < n; i++) {
    const [ax, ay] = hull[i]!;
    const [bx, by] = hull[(i + 1) % hull.length]!;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len2));
    const p: [number, number] = [ax + t * dx, ay + t * dy];
    const d = Math.hypot(p[0] - x, p[1] - y);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}
