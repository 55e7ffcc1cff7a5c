// Planning ranges: where a revolute joint cannot turn past some angle because its part of the robot then
// collides with the rest whatever the other joints do, the states beyond that angle are cut off from home —
// no path reaches them — yet lie within the model's limits. MoveIt samples goals there all the same (an IK
// solution a turn away is as valid as the near one), and a planner handed only such goals searches until it
// times out. A UR elbow is the known case: its ±360° range holds every pose twice, the second copy beyond the
// fold at ±180° (Universal Robots' own ROS description limits it to ±180° in joint_limits.yaml for this
// reason). MoveIt's joint_limits.yaml may narrow a joint's position limits (min_position / max_position);
// these are the ranges body_bridge writes there. The URDF keeps the model's limits.
//
// A barrier is an angle at which the joint's subtree is in collision with the rest of the robot (pairs the
// SRDF leaves checked) in every one of `barrierSamples` random states of the other joints — the sampled
// counterpart of "whatever the other joints do", as the Setup Assistant's "always in collision" is. The
// planning range runs from home to the first barrier on each side, searched on a coarse grid and then refined.
import type { JointPositions } from '../kinematics/forward.js';
import type { Link, RobotModel } from '../model/types.js';
import { type SelfCollisionChecker, stateSampler } from './collision-matrix.js';
import { linksBelow } from './srdf.js';

export interface PlanningRangeOptions {
  /** Random states of the other joints that must all collide for an angle to be a barrier. Default 500. */
  barrierSamples?: number;
  /** Seed of those states. Default 0. */
  seed?: number;
}

export interface PlanningRange {
  joint: string;
  /** The model's (and the URDF's) limits. */
  model: [number, number];
  /** The range written to joint_limits.yaml: from the barrier below home to the barrier above (a side without one keeps the model's limit). */
  lower: number;
  upper: number;
  /** The link pair found in collision at the lower and upper barrier in the most sampled states (empty on a side that keeps its limit). */
  lowerPairs: [string, string][];
  upperPairs: [string, string][];
}

export const DEFAULT_BARRIER_SAMPLES = 500;
/**
 * Only joints whose range is wider than a full turn are searched. There every angle comes twice, and a barrier
 * puts one copy of each beyond reach: an IK solver returns either copy of the goal (Jazzy's MoveIt seeds goal
 * sampling with the previous goal, so it keeps returning the same one). Within a narrower range, what lies
 * beyond a barrier has no copy on the near side: that goal is unreachable with or without a planning range.
 */
const FULL_TURN = 2 * Math.PI;
/** Grid of the first search (rad); a barrier narrower than this may be missed, which only leaves a range as wide as the model's. */
const COARSE_STEP = (5 * Math.PI) / 180;
/** Grid of the refinement (rad): the cut lies at most this far beyond the last angle some state passes. */
const FINE_STEP = Math.PI / 180;

/** The joints searched for barriers: revolute, with limits that span more than a full turn. */
export const turnsMoreThanOnce = (link: Link): boolean => {
  const j = link.joint;
  return j.type === 'revolute' && Number.isFinite(j.upper - j.lower) && j.upper - j.lower > FULL_TURN;
};

/**
 * The planning range of every revolute joint whose limits span more than a full turn and that has a barrier
 * within them; other joints are not listed. `checked(a, b)`: whether MoveIt checks the link pair (the SRDF does not disable it).
 */
export function planningRanges(
  model: RobotModel,
  checker: SelfCollisionChecker,
  checked: (a: string, b: string) => boolean,
  home: JointPositions,
  options: PlanningRangeOptions = {},
): PlanningRange[] {
  const samples = options.barrierSamples ?? DEFAULT_BARRIER_SAMPLES;
  if (samples <= 0) return [];
  const sample = stateSampler(model, options.seed ?? 0);
  const index = new Map(checker.links.map((n, i) => [n, i]));
  const out: PlanningRange[] = [];
  for (const link of model.links.filter(turnsMoreThanOnce)) {
    const j = link.joint;
    const below = new Set(linksBelow(model, link.name).map((l) => l.name));
    const pairs: [number, number][] = [];
    for (const a of checker.links) {
      if (!below.has(a)) continue;
      for (const b of checker.links) if (!below.has(b) && checked(a, b)) pairs.push([index.get(a)!, index.get(b)!]);
    }
    if (pairs.length === 0) continue;

    /**
     * How often each pair was the one found in collision at angle θ over the sampled states, or null as soon
     * as one state is free. The pair found last is tried first: it is the likeliest to collide again.
     */
    const barrier = (theta: number): Map<string, number> | null => {
      const counts = new Map<string, number>();
      for (let t = 0; t < samples; t++) {
        const q = sample();
        q.set(j.name, theta);
        checker.place(q);
        const hit = pairs.findIndex(([a, b]) => checker.collide(a, b));
        if (hit < 0) return null;
        const [a, b] = pairs[hit]!;
        if (hit > 0) pairs.unshift(...pairs.splice(hit, 1));
        const key = `${checker.links[a]}\u0000${checker.links[b]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    };
    const h = Math.min(Math.max(home.get(j.name) ?? 0, j.lower), j.upper);
    if (barrier(h) !== null) continue; // home itself is walled in: no side to keep
    /** First barrier from home towards `end`: coarse grid, then the fine grid within the last coarse step. */
    const firstBarrier = (end: number): { at: number; counts: Map<string, number> } | null => {
      const sign = Math.sign(end - h);
      if (sign === 0) return null;
      let free = h;
      for (let k = 1; ; k++) {
        const coarse = sign > 0 ? Math.min(h + k * COARSE_STEP, end) : Math.max(h - k * COARSE_STEP, end);
        const found = barrier(coarse);
        if (found) {
          for (let f = 1; ; f++) {
            const fine = free + sign * f * FINE_STEP;
            if (sign * (fine - coarse) >= 0) return { at: coarse, counts: found };
            const hit = barrier(fine);
            if (hit) return { at: fine, counts: hit };
          }
        }
        if (coarse === end) return null;
        free = coarse;
      }
    };
    // A barrier at the limit itself cuts nothing.
    const cutting = (b: ReturnType<typeof firstBarrier>, limit: number) => (b !== null && b.at !== limit ? b : null);
    const up = cutting(firstBarrier(j.upper), j.upper);
    const down = cutting(firstBarrier(j.lower), j.lower);
    if (!up && !down) continue;
    const commonest = (counts: Map<string, number> | undefined): [string, string][] => {
      if (!counts) return [];
      const most = Math.max(...counts.values());
      return [...counts]
        .filter(([, n]) => n === most)
        .map(([k]) => k.split('\u0000') as [string, string])
        .sort((x, y) => (x.join() < y.join() ? -1 : 1));
    };
    out.push({
      joint: j.name,
      model: [j.lower, j.upper],
      lower: down ? down.at : j.lower,
      upper: up ? up.at : j.upper,
      lowerPairs: commonest(down?.counts),
      upperPairs: commonest(up?.counts),
    });
  }
  return out;
}
