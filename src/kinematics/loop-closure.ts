// A closed loop's passive joints, solved so that the loop stays closed: the followers of a linkage whose driver
// is set. The tree (forward.ts) places each link by its own joint; a loop's extra joints (ball, hinge) pin points
// of two links together, which only the followers' values can keep. Used for the loads on a loop's driver
// (control/loop-loads.ts) and for where a linkage's links are when a goal is checked (the corpus sweep).
import type { ExtraJoint, RobotModel } from '../model/types.js';
import { add, mulVec, sub } from '../model/math.js';
import { linkWorldPoses } from './forward.js';

/** m: a loop counts as closed when every extra joint's two points lie this close. */
export const CLOSURE_TOLERANCE = 1e-7;
const MAX_ITERATIONS = 60;

/** The extra joints a loop closure can hold: those that pin two points together (a ball, a hinge). */
export const closingJoints = (model: RobotModel): ExtraJoint[] => model.extraJoints.filter((x) => x.type === 'ball' || x.type === 'hinge');

export const norm = (v: readonly number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** Each extra joint's two points apart (world, the root where the model puts it): 3 values per joint. */
export function loopResidual(model: RobotModel, loops: readonly ExtraJoint[], q: ReadonlyMap<string, number>): number[] {
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
export function closeLoops(model: RobotModel, loops: readonly ExtraJoint[], unknowns: readonly string[], q: ReadonlyMap<string, number>, reach: number): Map<string, number> | null {
  const x = new Map(q);
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    const r = loopResidual(model, loops, x);
    if (norm(r) < CLOSURE_TOLERANCE) return x;
    // Numerical Jacobian, one column per unknown.
    const columns = unknowns.map((j) => {
      const h = 1e-6;
      const moved = loopResidual(model, loops, new Map(x).set(j, (x.get(j) ?? 0) + h));
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
    if (norm(delta) < 1e-9) return norm(loopResidual(model, loops, x)) <= reach ? x : null;
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

