// The pairs of links MoveIt need not check against each other, computed as MoveIt's Setup Assistant
// does (moveit_setup_srdf_plugins, compute_default_collisions.cpp), in the same order:
//   1. adjacent: joined by a joint, or through links without collision geometry;
//   2. default: in collision at the home pose (the assistant uses its default state; we use the state
//      the SRDF calls home, so a robot that starts in contact plans from there);
//   3. always: in collision in at least `minCollisionFraction` of a batch of 200 random states,
//      batches repeated until one finds nothing new;
//   4. never: not once in collision over `samples` random states (the assistant's default 10,000).
// Random states are uniform within the limits the URDF states (continuous joints: [−π, π]) and come
// from a seeded generator, so a seed gives the same matrix on every machine.
import { Matrix4 } from 'three';
import { isMovingJoint } from '../kinematics/frames.js';
import { type JointPositions, linkWorldPoses } from '../kinematics/forward.js';
import type { Link, Pose, RobotModel } from '../model/types.js';
import { DEFAULT_PRISMATIC_RANGE } from '../urdf/index.js';
import { type CollisionGeometryOptions, type LinkGeometry, linkGeometries } from '../urdf/collision-geometry.js';
import { type CollisionScene, collisionScene, linksCollide, placeLinks, prepareLinks } from './collision-check.js';

export type DisableReason = 'Adjacent' | 'Default' | 'Always' | 'Never';

export interface DisabledPair {
  /** link1 < link2 (code-unit order, as the assistant sorts them). */
  link1: string;
  link2: string;
  reason: DisableReason;
}

export interface CollisionMatrixOptions extends CollisionGeometryOptions {
  /** Random states for the "never" test. Default 10,000 (the Setup Assistant's). */
  samples?: number;
  /** Seed of the random states. Default 0. */
  seed?: number;
  /** Fraction of a batch in collision that makes a pair "always". Default 0.95 (the assistant's). */
  minCollisionFraction?: number;
  /** Joint positions of the home state (joints not named: 0). */
  home?: JointPositions;
  /** Clock for the reported duration; default performance.now. */
  now?: () => number;
}

export interface CollisionMatrix {
  disabled: DisabledPair[];
  /** Links that have collision geometry (the ones MoveIt pairs up). */
  links: string[];
  /** Pairs left enabled ("sometimes in collision"). */
  enabled: [string, string][];
  /** Links whose geometry could not be read (pairs with them are only ever disabled as adjacent), with why. */
  incomplete: { link: string; why: string[] }[];
  /** Random states checked: in the "always" batches and in the "never" test. */
  alwaysSamples: number;
  neverSamples: number;
  /** Milliseconds for the whole computation and for the "never" test alone. */
  millis: number;
  neverMillis: number;
}

export const DEFAULT_SAMPLES = 10000;
const SMALL_TRIAL_COUNT = 200;

/** mulberry32: a small, well-mixed 32-bit generator; enough for sampling joint angles. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The range MoveIt samples a joint in: the URDF's limits (continuous: [−π, π]; unlimited prismatic: the URDF's ±1e6 m). */
export function samplingRange(link: Link): [number, number] {
  const j = link.joint;
  if (j.type === 'revolute') return Number.isFinite(j.lower) && Number.isFinite(j.upper) ? [j.lower, j.upper] : [-Math.PI, Math.PI];
  return [Number.isFinite(j.lower) ? j.lower : -DEFAULT_PRISMATIC_RANGE, Number.isFinite(j.upper) ? j.upper : DEFAULT_PRISMATIC_RANGE];
}

/** A generator of random joint states within the limits, one uniform draw per moving joint in model order. */
export function stateSampler(model: RobotModel, seed: number): () => Map<string, number> {
  const random = seededRandom(seed);
  const joints = model.links.filter(isMovingJoint).map((l) => ({ name: l.joint.name, range: samplingRange(l) }));
  return () => new Map(joints.map(({ name, range: [lo, hi] }) => [name, lo + (hi - lo) * random()]));
}

/** One key per unordered link pair. */
export const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** Adjacent pairs: links joined by a joint, or through links without geometry (which pass their neighbours on to each other). */
export function adjacentPairs(model: RobotModel, hasGeometry: (link: string) => boolean): Set<string> {
  const graph = new Map<string, Set<string>>(model.links.map((l) => [l.name, new Set<string>()]));
  for (const l of model.links) {
    if (l.parent === null) continue;
    graph.get(l.name)?.add(l.parent);
    graph.get(l.parent)?.add(l.name);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [link, neighbours] of graph) {
      if (hasGeometry(link)) continue;
      const list = [...neighbours];
      for (const a of list) {
        for (const b of list) {
          if (a !== b && !graph.get(a)!.has(b)) {
            graph.get(a)!.add(b);
            changed = true;
          }
        }
      }
    }
  }
  const out = new Set<string>();
  for (const [a, neighbours] of graph) for (const b of neighbours) if (hasGeometry(a) && hasGeometry(b) && a !== b) out.add(pairKey(a, b));
  return out;
}

/** Collision verdicts of link pairs at joint states: the checker the matrix and its tests share. */
export interface SelfCollisionChecker {
  links: string[];
  /** Places the robot at q; then `collide(i, j)` answers for links[i], links[j]. */
  place: (q: JointPositions) => void;
  collide: (i: number, j: number) => boolean;
  incomplete: { link: string; why: string[] }[];
  /** The geometry it checks: links with shapes, or with shapes it could not read. */
  geometries: LinkGeometry[];
}

export function selfCollisionChecker(model: RobotModel, options: CollisionGeometryOptions = {}): SelfCollisionChecker {
  const geometries = linkGeometries(model.links, options).filter((g) => g.shapes.length > 0 || g.missing.length > 0);
  const scene: CollisionScene = collisionScene(prepareLinks(geometries));
  const names = geometries.map((g) => g.link);
  const scratch = new Matrix4();
  const inverse = new Matrix4();
  return {
    links: names,
    place: (q) => {
      const poses = linkWorldPoses(model, q);
      placeLinks(scene, names.map((n) => poses.get(n) as Pose));
    },
    collide: (i, j) => linksCollide(scene, i, j, scratch, inverse),
    incomplete: geometries.filter((g) => g.missing.length > 0).map((g) => ({ link: g.link, why: g.missing })),
    geometries,
  };
}

/** The matrix; `checker`, when given, must have been made from the same model and options (it is reused, not rebuilt). */
export function computeCollisionMatrix(model: RobotModel, options: CollisionMatrixOptions = {}, given?: SelfCollisionChecker): CollisionMatrix {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const samples = options.samples ?? DEFAULT_SAMPLES;
  const fraction = options.minCollisionFraction ?? 0.95;
  const checker = given ?? selfCollisionChecker(model, options);
  const names = checker.links;
  const incompleteLinks = new Set(checker.incomplete.map((x) => x.link));
  const withGeometry = new Set(names);
  const reasons = new Map<string, DisableReason>();
  const adjacent = adjacentPairs(model, (l) => withGeometry.has(l));
  for (const k of adjacent) reasons.set(k, 'Adjacent');

  // Pairs still checked, as index pairs; pairs with unreadable geometry are never disabled by sampling.
  let candidates: [number, number][] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      if (!reasons.has(pairKey(names[i]!, names[j]!)) && !incompleteLinks.has(names[i]!) && !incompleteLinks.has(names[j]!)) candidates.push([i, j]);
    }
  }
  const disable = (pairs: [number, number][], reason: DisableReason): void => {
    for (const [i, j] of pairs) reasons.set(pairKey(names[i]!, names[j]!), reason);
    const gone = new Set(pairs);
    candidates = candidates.filter((p) => !gone.has(p));
  };

  checker.place(options.home ?? new Map());
  disable(candidates.filter(([i, j]) => checker.collide(i, j)), 'Default');

  const sample = stateSampler(model, options.seed ?? 0);
  const seen = new Set<[number, number]>();
  let alwaysSamples = 0;
  const limit = Math.floor(SMALL_TRIAL_COUNT * fraction);
  for (;;) {
    const counts = new Map<[number, number], number>();
    for (let t = 0; t < SMALL_TRIAL_COUNT && candidates.length > 0; t++) {
      checker.place(sample());
      alwaysSamples++;
      for (const p of candidates) {
        if (checker.collide(p[0], p[1])) {
          counts.set(p, (counts.get(p) ?? 0) + 1);
          seen.add(p);
        }
      }
    }
    const always = candidates.filter((p) => (counts.get(p) ?? 0) >= limit);
    if (always.length === 0) break;
    disable(always, 'Always');
  }

  const neverStart = now();
  let unseen = candidates.filter((p) => !seen.has(p));
  for (let t = 0; t < samples && unseen.length > 0; t++) {
    checker.place(sample());
    unseen = unseen.filter((p) => !checker.collide(p[0], p[1]));
  }
  // The assistant draws all its states even when every pair has been seen; drawing fewer changes no verdict.
  // No samples means no "never" test at all (the assistant's include_never_colliding = trials > 0).
  if (samples > 0) disable(unseen, 'Never');
  const end = now();

  const disabled: DisabledPair[] = [...reasons]
    .map(([k, reason]) => {
      const [link1, link2] = k.split('\u0000') as [string, string];
      return { link1, link2, reason };
    })
    .sort((a, b) => (a.link1 < b.link1 ? -1 : a.link1 > b.link1 ? 1 : a.link2 < b.link2 ? -1 : a.link2 > b.link2 ? 1 : 0));
  const enabled = candidates.map(([i, j]) => (names[i]! < names[j]! ? [names[i]!, names[j]!] : [names[j]!, names[i]!]) as [string, string]);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      if ((incompleteLinks.has(names[i]!) || incompleteLinks.has(names[j]!)) && !reasons.has(pairKey(names[i]!, names[j]!))) {
        enabled.push(names[i]! < names[j]! ? [names[i]!, names[j]!] : [names[j]!, names[i]!]);
      }
    }
  }
  return {
    disabled,
    links: names,
    enabled: enabled.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)),
    incomplete: checker.incomplete,
    alwaysSamples,
    neverSamples: samples,
    millis: end - start,
    neverMillis: end - neverStart,
  };
}
