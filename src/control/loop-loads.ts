// What gravity puts on the joint that drives a closed loop. The tree's dynamics (joint-loads.ts) see a loop as the
// open chains it is modelled with: the links that hang on the loop's far side by an extra joint load the driver
// only through that joint, which the tree does not have. DoubleArmV7's PUSHROD pushes its hand's two linkages
// (ball extra joints to the fingers): designed on the tree it held 16.7 N within its sag, and bore 31.6 N at rest
// in Choreonoid (the corpus sweep, 30 Nov 2026). Here the load is the derivative of the potential energy along
// the driver, the loop's passive joints solved at each value so that it stays closed (virtual work): exact for a
// loop whose followers carry no torque of their own, whatever its shape.
import { linkWorldPoses } from '../kinematics/forward.js';
import { CLOSURE_TOLERANCE, closeLoops, closingJoints, loopResidual, norm } from '../kinematics/loop-closure.js';
import { add, mulVec, sub, transpose } from '../model/math.js';
import type { Link, RobotModel, Vec3 } from '../model/types.js';
import { loopsLinks } from '../roles/roles.js';
import { GRAVITY } from './joint-loads.js';

/** rad or m: the driver's step for the potential's central difference. */
const STEP = 1e-4;
/** Driver values at which the loop is solved, evenly over its range. */
const GRID = 33;

/**
 * For each of `drivers` inside a loop closed by ball or hinge extra joints, the largest gravity load (N·m or N)
 * over `configurations` (the initial one first), the loop's `passive` followers solved to keep every such loop
 * closed; joints in no such loop are left out. The loop's own shape depends on the driver alone: what gravity does
 * with it, on how the rest of the body turns the loop's base. So the potential's derivative along the driver is
 * found once per driver value on a grid over its range (GRID values, in the loop base's frame), and each
 * configuration turns it into the world by its base link's attitude.
 */
export function loopLoads(model: RobotModel, drivers: readonly string[], passive: ReadonlySet<string>, configurations: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const out = new Map<string, number>();
  const loops = closingJoints(model);
  if (loops.length === 0 || drivers.length === 0 || configurations.length === 0) return out;
  const byName = new Map(model.links.map((l) => [l.name, l]));
  const members = loopsLinks(model, loops);
  const inLoop = new Set(members.map((l) => l.joint.name));
  const inLoops = new Set(members.map((l) => l.name));
  const unknowns = [...passive].filter((j) => inLoop.has(j));
  const driving = drivers.filter((j) => inLoop.has(j));
  if (unknowns.length === 0 || driving.length === 0) return out;

  // The loops' base: the link that carries every loop link (their common ancestor outside the loops).
  const ancestors = (name: string): string[] => {
    const path: string[] = [];
    for (let l = byName.get(name); l; l = l.parent === null ? undefined : byName.get(l.parent)) path.push(l.name);
    return path;
  };
  const common = [...inLoops].map(ancestors).reduce((a, b) => a.filter((n) => b.includes(n)));
  const base = common.find((n) => !inLoops.has(n));
  if (base === undefined) return out;
  // Forward kinematics of the base's chain and what it carries, nothing else.
  const carried = new Set<string>([base]);
  for (const l of model.links) if (l.parent !== null && carried.has(l.parent)) carried.add(l.name);
  const part: RobotModel = { ...model, links: model.links.filter((l) => carried.has(l.name) || ancestors(base).includes(l.name)) };
  const moving = part.links.filter((l) => carried.has(l.name) && l.name !== base);

  // A model's loop may not close exactly at its initial pose along what its joints cannot move (DoubleArmV7's finger
  // tips sit 6.5 mm off their links along the hinges' common axis): the least residual at the initial configuration
  // is what every other driver value must reach.
  const home = configurations[0]!;
  const closedHome = closeLoops(part, loops, unknowns, home, Infinity);
  if (!closedHome) return out;
  const reach = norm(loopResidual(part, loops, closedHome)) + CLOSURE_TOLERANCE;
  const baseHome = linkWorldPoses(part, closedHome).get(base)!.rotation;

  for (const j of driving) {
    const link = part.links.find((l) => l.joint.name === j)!;
    const lo = Number.isFinite(link.joint.lower) ? link.joint.lower : (home.get(j) ?? 0) - Math.PI;
    const hi = Number.isFinite(link.joint.upper) ? link.joint.upper : (home.get(j) ?? 0) + Math.PI;
    // Per grid value: Σ m·∂c/∂q (the body's first moment's derivative along the driver) in the base's frame, or
    // null where the loops do not close.
    const grid: (Vec3 | null)[] = [];
    let from = closedHome;
    for (let k = 0; k < GRID; k++) {
      const value = lo + ((hi - lo) * k) / (GRID - 1);
      const at = closeLoops(part, loops, unknowns, new Map(from).set(j, value), reach);
      if (!at) {
        grid.push(null);
        continue;
      }
      from = at;
      const plus = closeLoops(part, loops, unknowns, new Map(at).set(j, value + STEP), reach);
      const minus = closeLoops(part, loops, unknowns, new Map(at).set(j, value - STEP), reach);
      if (!plus || !minus) {
        grid.push(null);
        continue;
      }
      const d = sub(moment(part, moving, plus), moment(part, moving, minus));
      grid.push(mulVec(transpose(baseHome), [d[0] / (2 * STEP), d[1] / (2 * STEP), d[2] / (2 * STEP)]));
    }
    for (const q of configurations) {
      const value = q.get(j) ?? 0;
      const k = Math.round(((value - lo) / (hi - lo)) * (GRID - 1));
      const w = grid[Math.min(GRID - 1, Math.max(0, k))];
      if (!w) continue;
      const attitude = linkWorldPoses(part, q).get(base)!.rotation;
      const load = Math.abs(GRAVITY * mulVec(attitude, w)[2]);
      out.set(j, Math.max(out.get(j) ?? 0, load));
    }
  }
  return out;
}

/** Σ m·c over `links` (their first moment of mass, world, kg·m), the root where the model puts it. */
function moment(model: RobotModel, links: readonly Link[], q: ReadonlyMap<string, number>): Vec3 {
  const poses = linkWorldPoses(model, q);
  let m: Vec3 = [0, 0, 0];
  for (const l of links) {
    if (!(l.mass > 0)) continue;
    const p = poses.get(l.name)!;
    const c = add(p.translation, mulVec(p.rotation, l.centerOfMass));
    m = [m[0] + l.mass * c[0], m[1] + l.mass * c[1], m[2] + l.mass * c[2]];
  }
  return m;
}

