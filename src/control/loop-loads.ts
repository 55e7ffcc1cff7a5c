// What gravity puts on the joint that drives a closed loop. The tree's dynamics (joint-loads.ts) see a loop as the
// open chains it is modelled with: the links that hang on the loop's far side by an extra joint load the driver
// only through that joint, which the tree does not have. DoubleArmV7's PUSHROD pushes its hand's two linkages
// (ball extra joints to the fingers): designed on the tree it held 16.7 N within its sag, and bore 31.6 N at rest
// in Choreonoid (the corpus sweep, 30 Nov 2026). Here the load is the derivative of the potential energy along
// the driver, the loop's passive joints solved at each value so that it stays closed (virtual work): exact for a
// loop whose followers carry no torque of their own, whatever its shape.
import { linkWorldPoses } from '../kinematics/forward.js';
import { add, mulVec, sub, transpose } from '../model/math.js';
import type { ExtraJoint, Link, RobotModel, Vec3 } from '../model/types.js';
import { loopLinks } from '../roles/roles.js';
import { GRAVITY } from './joint-loads.js';

/** m: a loop counts as closed when every extra joint's two points lie this close. */
export const CLOSURE_TOLERANCE = 1e-7;
/** rad or m: the driver's step for the potential's central difference. */
const STEP = 1e-4;
const MAX_ITERATIONS = 60;
/** Driver values at which the loop is solved, evenly over its range. */
const GRID = 33;

/** The extra joints a loop closure can hold: those that pin two points together (a ball, a hinge). */
const pins = (x: ExtraJoint): boolean => x.type === 'ball' || x.type === 'hinge';

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
  const loops = model.extraJoints.filter(pins);
  if (loops.length === 0 || drivers.length === 0 || configurations.length === 0) return out;
  const byName = new Map(model.links.map((l) => [l.name, l]));
  const inLoop = new Set<string>();
  const inLoops = new Set<string>();
  for (const x of loops) {
    for (const l of loopLinks(model, x.link1, x.link2)) {
      inLoop.add(l.joint.name);
      inLoops.add(l.name);
    }
  }
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
  const closedHome = close(part, loops, unknowns, home, Infinity);
  if (!closedHome) return out;
  const reach = norm(residual(part, loops, closedHome)) + CLOSURE_TOLERANCE;
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
      const at = close(part, loops, unknowns, new Map(from).set(j, value), reach);
      if (!at) {
        grid.push(null);
        continue;
      }
      from = at;
      const plus = close(part, loops, unknowns, new Map(at).set(j, value + STEP), reach);
      const minus = close(part, loops, unknowns, new Map(at).set(j, value - STEP), reach);
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

const norm = (v: readonly number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** Each extra joint's two points apart (world, the root where the model puts it): 3 values per joint. */
function residual(model: RobotModel, loops: readonly ExtraJoint[], q: ReadonlyMap<string, number>): number[] {
  const poses = linkWorldPoses(model, q);
  const out: number[] = [];
  for (const x of loops) {
    const p1 = poses.get(x.link1)!;
    const p2 = poses.get(x.link2)!;
    const a = add(p1.translation, mulVec(p1.rotation, x.localPose1.translation));
    const b = add(p2.translation, mulVec(p2.rotation, x.localPose2.translation));
    out.push(...sub(a, b));
  }
  return out;
}

/**
 * `q` with `unknowns` moved to the least residual of the loops (Gauss–Newton, damped), or null where that residual
 * stays above `reach` (m): the loops do not close there.
 */
function close(model: RobotModel, loops: readonly ExtraJoint[], unknowns: readonly string[], q: ReadonlyMap<string, number>, reach: number): Map<string, number> | null {
  const x = new Map(q);
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    const r = residual(model, loops, x);
    if (norm(r) < CLOSURE_TOLERANCE) return x;
    // Numerical Jacobian, one column per unknown.
    const columns = unknowns.map((j) => {
      const h = 1e-6;
      const moved = residual(model, loops, new Map(x).set(j, (x.get(j) ?? 0) + h));
      return moved.map((v, i) => (v - r[i]!) / h);
    });
    // (JᵀJ + λI) δ = −Jᵀr
    const n = unknowns.length;
    const a = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, k) => columns[i]!.reduce((s, v, m) => s + v * columns[k]![m]!, 0) + (i === k ? 1e-9 : 0)));
    const b = columns.map((c) => -c.reduce((s, v, m) => s + v * r[m]!, 0));
    const delta = solve(a, b);
    if (!delta) return null;
    unknowns.forEach((j, i) => x.set(j, (x.get(j) ?? 0) + delta[i]!));
    // At the least residual the step vanishes: closed if that residual is within reach.
    if (norm(delta) < 1e-9) return norm(residual(model, loops, x)) <= reach ? x : null;
  }
  return null;
}

/** Gaussian elimination with partial pivoting; null for a singular system. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-18) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
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

