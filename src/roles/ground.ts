// Which links touch the ground when the body stands at its initial pose: the lowest points of its collision
// geometry. A wheel, a track or a foot is what the body stands on; what carries nothing that touches the
// ground (a turret, an arm) is not. Choreonoid's world is z-up, as REP-103's.
import { linkWorldPoses } from '../kinematics/forward.js';
import { add, mulMat, mulVec } from '../model/math.js';
import type { RobotModel, Vec3 } from '../model/types.js';
import { collisionShape } from '../urdf/collision-geometry.js';
import { subtreeLinks } from './wheels.js';

/** m: a link whose lowest point lies within this of the body's lowest point touches the ground. */
export const GROUND_TOLERANCE = 0.01;

export interface GroundContact {
  /** z of the lowest collision point (m, world frame, initial pose); NaN without collision geometry. */
  ground: number;
  /** Links whose collision geometry reaches down to the ground. */
  touching: Set<string>;
  /** Each link's lowest collision point (links without geometry are absent). */
  lowest: Map<string, number>;
}

/** Ground contact at the model's initial joint positions; `divisions`: of a curved primitive's tessellation. */
export function groundContact(model: RobotModel, divisions = 16): GroundContact {
  const { ground, touching, lowest } = groundContactAt(model, divisions);
  return { ground, touching, lowest };
}

/**
 * The same, and each touching link's contact points: the vertices of its collision geometry within
 * GROUND_TOLERANCE of the ground (world x, y, z at the initial joint positions) — a sole's outline, a wheel's
 * bottom. What a standing body's weight can rest on.
 */
export function groundContactAt(model: RobotModel, divisions = 16, within?: string): GroundContact & { points: Map<string, Vec3[]> } {
  const q = new Map(model.links.filter((l) => l.parent !== null && Number.isFinite(l.joint.initial)).map((l) => [l.joint.name, l.joint.initial]));
  const poses = linkWorldPoses(model, q);
  const lowest = new Map<string, number>();
  const vertices = new Map<string, Vec3[]>();
  const inside = within === undefined ? null : new Set(subtreeLinks(model, within).map((l) => l.name));
  for (const link of model.links) {
    if (inside && !inside.has(link.name)) continue;
    const pose = poses.get(link.name)!;
    let low = Infinity;
    for (const shape of link.collisions) {
      const c = collisionShape(shape, divisions, 'urdf', { collada: true });
      if (c === null || typeof c === 'string') continue;
      // The shape's world pose once, then one row of it per vertex for its height.
      const rotation = mulMat(pose.rotation, c.pose.rotation);
      const [r0, r1, r2] = rotation[2];
      const origin = add(pose.translation, mulVec(pose.rotation, c.pose.translation));
      const p = c.mesh.positions;
      const list = vertices.get(link.name) ?? [];
      for (let i = 0; i < p.length; i += 3) {
        const z = origin[2] + r0 * p[i]! + r1 * p[i + 1]! + r2 * p[i + 2]!;
        if (z < low) low = z;
        // Only the height of every vertex is needed; where it lies, only for those near the ground (below).
        if (z <= low + GROUND_TOLERANCE) list.push(add(origin, mulVec(rotation, [p[i]!, p[i + 1]!, p[i + 2]!])));
      }
      vertices.set(link.name, list);
    }
    if (Number.isFinite(low)) lowest.set(link.name, low);
  }
  const ground = lowest.size === 0 ? NaN : Math.min(...lowest.values());
  const touching = new Set([...lowest].filter(([, z]) => z <= ground + GROUND_TOLERANCE).map(([name]) => name));
  const points = new Map([...touching].map((name) => [name, (vertices.get(name) ?? []).filter((v) => v[2] <= ground + GROUND_TOLERANCE)]));
  return { ground, touching, lowest, points };
}

/**
 * What the standing bodies of a model stand on: a free-floating model's lowest points (groundContactAt); on a fixed
 * root, each body hung from it by a free joint — a body of its own in Choreonoid's dynamics — on its own lowest
 * points (SR1-floor-box.body: the robot on the model's own Floor link, its fixed root). Null where nothing stands:
 * a fixed model without free parts, bolted where it is.
 */
export function standingContact(model: RobotModel, divisions = 16): (GroundContact & { points: Map<string, Vec3[]> }) | null {
  const root = model.links[0];
  if (!root) return null;
  if (root.joint.type === 'free') return groundContactAt(model, divisions);
  const bodies = model.links.filter((l) => l.parent !== null && l.joint.type === 'free');
  if (bodies.length === 0) return null;
  const parts = bodies.map((b) => groundContactAt(model, divisions, b.name));
  return {
    ground: Math.min(...parts.map((p) => p.ground).filter(Number.isFinite)),
    touching: new Set(parts.flatMap((p) => [...p.touching])),
    lowest: new Map(parts.flatMap((p) => [...p.lowest])),
    points: new Map(parts.flatMap((p) => [...p.points])),
  };
}

/**
 * m: how far above the floor a lifted body's lowest collision point starts (it settles onto it in a few ms), and
 * how deep a body may reach into the floor unlifted: the contact takes up a fraction of a millimetre (HRP4C.body's
 * soles stand 0.15 mm into it), not a link sunk in it.
 */
export const FLOOR_CLEARANCE = 0.001;

/**
 * m: how far above the floor a free body may start and still drop onto it as modelled. From 1 cm it meets the floor
 * at 0.44 m/s; SR1.body's soles, 5 mm up as Choreonoid's own projects start it, stay where the model puts them.
 * DoubleArmV7-Upper.body (the upper body its tracked siblings carry) starts 0.1645 m up, and its hand's linkage
 * spins past its joints' limits as it lands.
 */
export const FLOOR_DROP = 0.01;

/**
 * How far a free body must rise (negative: come down) from its model pose for its lowest collision geometry
 * (initial joint positions) to rest on a floor whose top is z = 0: 0 when that geometry is within FLOOR_CLEARANCE
 * below the floor and FLOOR_DROP above it, or the body has no collision geometry. A body whose root is at z = 0 with
 * links below it (HandyRockDrill.body, ContinuousTrackVehicle.body) would start inside the floor and fall through
 * it. Either way it is placed FLOOR_CLEARANCE above it. Curved primitives at 64 divisions, whose polygon lies
 * within 0.12 % of the radius of the true surface: the clearance covers that for radii up to about 0.8 m.
 */
export function floorLift(model: RobotModel): number {
  const ground = groundContact(model, 64).ground;
  if (!Number.isFinite(ground)) return 0;
  return ground < -FLOOR_CLEARANCE || ground > FLOOR_DROP ? FLOOR_CLEARANCE - ground : 0;
}
