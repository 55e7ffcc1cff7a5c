// The goals the sweep sends its trajectory controllers: random within the joints' limits, but goals a person (or
// MoveIt, with the floor in its scene) would send. A random joint vector can put a gripper into the floor or a
// link through its own body, and a standing body's random leg goals pull its feet out from under it: the body
// falls, and what is then judged is the fall, not the controllers (docs/corpus-sweep.md's rows before 30 Nov 2026,
// 05:00 UTC: standing humanoids fell, their roots turned 64–173°).
// So a draw is kept only when, at its goal and along the way there,
//   - no link that stood clear of the floor goes into it (the floor's top is z = 0, the generated project's),
//   - no pair of links that MoveIt's allowed collision matrix checks (or, where the generated project turns it on,
//     Choreonoid's self-collision) collides, unless it already did at the start,
// and the legs a free body stands on are not drawn at random at all: the root is lowered and shifted a random
// amount (a squat) and the legs' joints solved so that every foot keeps its place on the floor, the centre of mass
// staying over the feet. The first draw is the old random goal exactly, so that models whose goals were already
// clear keep them. Where no draw sent at once is clear (a latched door: its knob must turn before the door opens),
// the joints move one at a time, by way of a stop where that clears the way, each move checked the same way.
import { jointPose, linkWorldPoses } from '../src/kinematics/forward.js';
import { CLOSURE_TOLERANCE, closeLoops, closingJoints, loopResidual, norm } from '../src/kinematics/loop-closure.js';
import { inverseSpd } from '../src/control/linear-algebra.js';
import { composePose, mulMat, mulVec, transpose } from '../src/model/math.js';
import type { ExtraJoint, Link, Pose, RobotModel, Vec3 } from '../src/model/types.js';
import { computeCollisionMatrix, pairKey, seededRandom, selfCollisionChecker, type SelfCollisionChecker } from '../src/moveit/collision-matrix.js';
import { inversePose } from '../src/moveit/scene-objects.js';
import { chainPath, homePositions } from '../src/moveit/srdf.js';
import { loopsLinks } from '../src/roles/roles.js';
import { convexHull, insideMargin } from '../src/roles/support.js';
import { subtreeLinks } from '../src/roles/wheels.js';
import { type GoalJoint, randomGoal, trajectoryDuration } from './checks.js';

export { convexHull, insideMargin };

/** Draws tried before the sweep gives up and sends the last one (the result says so). */
export const GOAL_DRAWS = 400;
/** Then draws whose joints are tried one at a time, and the ways (one joint's move from one state) checked for each. */
export const STAGED_DRAWS = 20;
export const STAGE_CHECKS = 400;
/** Where a joint may be turned to near its stops on the way (a knob turned to unlatch): this fraction of its range inside them. */
export const STOP_INSET = 0.02;
/**
 * m: a link that starts at least this far above the floor must stay so; one nearer may not go lower than it starts.
 * Above the tessellation's error (a 32-gon lies within 0.5 % of a round shape's radius) for any radius under 0.6 m.
 */
export const FLOOR_CLEARANCE = 0.003;
/** m: a link whose lowest point starts within this of the floor stands on it (a foot, a wheel, a flipper). */
export const ON_FLOOR = 0.01;
/** Points along the way (besides the goal) where a draw is checked, evenly in time, and the early ones besides. */
export const PATH_CHECKS = 16;
export const EARLY_CHECKS = [1 / 128, 1 / 64, 1 / 32, 3 / 64];
/** The squat: the root lowered by up to this fraction of its height above the floor, shifted by up to SQUAT_SHIFT of it. */
export const SQUAT_DEPTH = 0.06;
export const SQUAT_SHIFT = 0.03;
/** m: the centre of mass stays at least this far inside the support polygon (or as far as it starts, if less). */
export const SUPPORT_MARGIN = 0.01;
/** How far a foot may stray from its place along the way, the root following the squat: m and rad. */
export const FOOT_DRIFT = { position: 0.005, angle: 0.02 };

export interface GoalController {
  name: string;
  joints: GoalJoint[];
}

/** What is computed once per model. */
export interface GoalSetup {
  model: RobotModel;
  /** Joints whose role is `leg`. */
  legs: ReadonlySet<string>;
  checker: SelfCollisionChecker;
  /** Index pairs into checker.links checked for collision: MoveIt's allowed collision matrix's enabled ones, and Choreonoid's where its self-collision is on. */
  enabled: [number, number][];
  /**
   * Links whose pose at a goal FK cannot tell: on or below a free joint under the root (bodies of their own in the
   * simulation) or a passive joint that no closed loop sets (what contact makes of it), so not checked.
   */
  loose: ReadonlySet<string>;
  /**
   * A closed loop's passive joints (its followers), solved at every checked state so that its ball and hinge extra
   * joints stay within `reach` (m, the least the model's own initial pose reaches): DoubleArmV7-Upper's fingers,
   * which its PUSHROD swings down through the hand's linkage, are checked against the floor. Null without such a loop.
   */
  closure: { loops: ExtraJoint[]; followers: string[]; reach: number; joints: string[]; home: Map<string, number> } | null;
  /**
   * Per link with geometry FK places, the points of its collision geometry (link frame) that are extreme along 26
   * directions: the lowest point of the link in any attitude, to the tessellation's fineness, without every vertex
   * of a mesh at every state checked.
   */
  extremes: Map<string, Vec3[]>;
}

const DIRECTIONS: Vec3[] = [];
for (const x of [-1, 0, 1]) for (const y of [-1, 0, 1]) for (const z of [-1, 0, 1]) if (x || y || z) DIRECTIONS.push([x, y, z]);

export function goalSetup(whole: RobotModel, legs: ReadonlySet<string>, passive: ReadonlySet<string> = new Set()): GoalSetup {
  // Where the generated project turns Choreonoid's self-collision on (a body with free parts, src/cli/control.ts),
  // Choreonoid checks every pair of links but a parent and its child (BodyCollisionLinkFilter, excludeTreeDepth 1):
  // those pairs, not only MoveIt's, then stop a joint on its way.
  const selfCollision = whole.links.slice(1).some((l) => l.joint.type === 'free');
  const model = planningModel(whole, legs);
  const checker = selfCollisionChecker(model);
  const matrix = computeCollisionMatrix(model, { home: new Map(homePositions(model)) }, checker);
  const enabledKeys = new Set(matrix.enabled.map(([a, b]) => pairKey(a, b)));
  const closure = loopClosure(model, passive);
  const followers = new Set(closure?.followers ?? []);
  const loose = new Set<string>();
  for (const l of model.links) if (l.parent !== null && (l.joint.type === 'free' || (passive.has(l.joint.name) && !followers.has(l.joint.name)) || loose.has(l.parent))) loose.add(l.name);
  const parentOf = new Map(model.links.map((l) => [l.name, l.parent]));
  const adjacent = (a: string, b: string): boolean => parentOf.get(a) === b || parentOf.get(b) === a;
  const enabled: [number, number][] = [];
  const names = checker.links;
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const [a, b] = [names[i]!, names[j]!];
      if (loose.has(a) || loose.has(b)) continue;
      if (enabledKeys.has(pairKey(a, b)) || (selfCollision && !adjacent(a, b))) enabled.push([i, j]);
    }
  }
  const extremes = new Map<string, Vec3[]>();
  for (const g of checker.geometries) {
    if (loose.has(g.link) || g.shapes.length === 0) continue;
    const best = DIRECTIONS.map(() => ({ d: -Infinity, p: [0, 0, 0] as Vec3 }));
    for (const shape of g.shapes) {
      const v = shape.mesh.positions;
      for (let i = 0; i < v.length; i += 3) {
        const t = mulVec(shape.pose.rotation, [v[i]!, v[i + 1]!, v[i + 2]!]);
        const p: Vec3 = [t[0] + shape.pose.translation[0], t[1] + shape.pose.translation[1], t[2] + shape.pose.translation[2]];
        DIRECTIONS.forEach((d, k) => {
          const along = d[0] * p[0] + d[1] * p[1] + d[2] * p[2];
          if (along > best[k]!.d) best[k] = { d: along, p };
        });
      }
    }
    extremes.set(g.link, [...new Set(best.map((b) => b.p))]);
  }
  return { model, legs, checker, enabled, loose, extremes, closure };
}

/** The passive joints of `model`'s ball- and hinge-closed loops, where the loops close at its initial pose. */
function loopClosure(model: RobotModel, passive: ReadonlySet<string>): GoalSetup['closure'] {
  const loops = closingJoints(model);
  const inLoop = new Set(loopsLinks(model, loops).map((l) => l.joint.name));
  const followers = [...passive].filter((j) => inLoop.has(j));
  if (followers.length === 0) return null;
  const home = new Map(model.links.filter((l) => l.parent !== null).map((l) => [l.joint.name, Number.isFinite(l.joint.initial) ? l.joint.initial : 0]));
  const closed = closeLoops(model, loops, followers, home, Infinity);
  return closed ? { loops, followers, reach: norm(loopResidual(model, loops, closed)) + CLOSURE_TOLERANCE, joints: [...inLoop], home } : null;
}

/**
 * `q` with the loops' followers solved, starting from their values in `from`; null where the loops do not close.
 * Solved with the rest of the body at its initial pose: the loops' shape depends on their own joints alone, and a
 * loop a metre out along a turned arm, in world coordinates, carries rounding its Gauss–Newton steps do not settle
 * below (DoubleArmV7's hand: 7 of 200 random arm poses did not converge).
 */
function closed(setup: GoalSetup, q: ReadonlyMap<string, number>, from: ReadonlyMap<string, number> = q): Map<string, number> | null {
  if (!setup.closure) return new Map(q);
  const { loops, followers, reach, joints, home } = setup.closure;
  const guess = new Map(home);
  for (const j of joints) guess.set(j, q.get(j) ?? home.get(j) ?? 0);
  for (const j of followers) guess.set(j, from.get(j) ?? 0);
  const solved = closeLoops(setup.model, loops, followers, guess, reach);
  if (!solved) return null;
  const out = new Map(q);
  for (const j of followers) out.set(j, solved.get(j)!);
  return out;
}

/** One joint's move to a value, the others holding. */
export interface JointMove {
  joint: string;
  to: number;
  /** The move is to near one of its stops, on the way (not to its goal). */
  stop: boolean;
}

/** One point of a controller's trajectory: s from its start, and where its joints are then. */
export interface GoalPoint {
  time: number;
  positions: Record<string, number>;
}

/**
 * The model the goals are planned on: the whole model, or, where a fixed root carries the body the legs stand with
 * on a free joint (SR1-floor-box.body: the robot on the model's own Floor link), that body alone, rooted at its
 * free-joint link. It is a body of its own in the simulation, placed where Choreonoid has its root, and stands on
 * the floor at z = 0 as a free root does; the rest of the model (the floor it stands on) is no part of its motion.
 */
export function planningModel(model: RobotModel, legs: ReadonlySet<string>): RobotModel {
  if (model.links[0]?.joint.type === 'free' || legs.size === 0) return model;
  for (const top of model.links.filter((l) => l.parent !== null && l.joint.type === 'free')) {
    const links = subtreeLinks(model, top.name);
    const names = new Set(links.map((l) => l.name));
    if (![...legs].every((j) => links.some((l) => l.joint.name === j))) continue;
    return {
      ...model,
      links: links.map((l) => (l === top ? { ...l, parent: null } : l)),
      extraJoints: model.extraJoints.filter((x) => names.has(x.link1) && names.has(x.link2)),
      devices: model.devices.filter((d) => names.has(d.link)),
    };
  }
  return model;
}

export interface GoalPlan {
  /** Per controller, in the order given: joint → goal. */
  goals: Record<string, number>[];
  /** Per controller: s the trajectory takes (the legs of one squat share one). */
  durations: number[];
  /**
   * Per controller, its trajectory's points: the goal alone at its duration, or, where the joints move one at a
   * time (`moves`), a point at the start and at the end of each of its joints' moves, holding between them.
   */
  points: GoalPoint[][];
  /** Where no draw sent at once was clear: the moves, one joint at a time, that reach the goals (null: all at once). */
  moves: JointMove[] | null;
  /** Draws made; 1 when the first, random, draw was kept. */
  draws: number;
  /** False when no draw passed: the last is sent, and `rejected` says why. */
  found: boolean;
  /** m, world: where the legs' goals put the root relative to where it stood (null: no squat). */
  squat: Vec3 | null;
  /** Why the draws were rejected, counted. */
  rejected: Record<string, number>;
  /** Planning passed its deadline before a draw was clear: the last draw made is sent. */
  timedOut?: boolean;
}

// ---- poses ----

const shifted = (p: Pose, d: Vec3): Pose => ({ rotation: p.rotation, translation: [p.translation[0] + d[0], p.translation[1] + d[1], p.translation[2] + d[2]] });

/** World poses of the links at q with the root at `root` (world). */
function worldPoses(model: RobotModel, q: ReadonlyMap<string, number>, root: Pose): Map<string, Pose> {
  const local = linkWorldPoses(model, q);
  const w = composePose(root, inversePose(local.get(model.links[0]!.name)!));
  const out = new Map<string, Pose>();
  for (const [name, p] of local) out.set(name, composePose(w, p));
  return out;
}

/** Angle of the rotation a·bᵀ (rad). */
function angleBetween(a: Pose['rotation'], b: Pose['rotation']): number {
  let trace = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) trace += a[i]![k]! * b[i]![k]!;
  return Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2)));
}

/** The rotation vector (axis·angle) of r: the orientation error IK drives to zero. */
function rotationVector(r: Pose['rotation']): Vec3 {
  const v: Vec3 = [r[2][1] - r[1][2], r[0][2] - r[2][0], r[1][0] - r[0][1]];
  const s = Math.hypot(v[0], v[1], v[2]) / 2;
  const c = (r[0][0] + r[1][1] + r[2][2] - 1) / 2;
  const angle = Math.atan2(s, c);
  if (s < 1e-12) return [0, 0, 0];
  const k = angle / (2 * s);
  return [v[0] * k, v[1] * k, v[2] * k];
}

// ---- what a pose is checked for ----

/** The lowest point of each link's collision geometry (world z), for the links with geometry that FK places. */
function lowestPoints(setup: GoalSetup, poses: ReadonlyMap<string, Pose>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [link, points] of setup.extremes) {
    const p = poses.get(link)!;
    const [a, b, c] = p.rotation[2];
    let low = Infinity;
    for (const v of points) low = Math.min(low, p.translation[2] + a * v[0] + b * v[1] + c * v[2]);
    out.set(link, low);
  }
  return out;
}

/** The body's centre of mass (world), links FK places only. */
function centreOfMass(model: RobotModel, poses: ReadonlyMap<string, Pose>, loose: ReadonlySet<string>): Vec3 {
  let m = 0;
  const c: Vec3 = [0, 0, 0];
  for (const l of model.links) {
    if (loose.has(l.name) || !(l.mass > 0)) continue;
    const p = poses.get(l.name)!;
    const x = mulVec(p.rotation, l.centerOfMass);
    c[0] += l.mass * (p.translation[0] + x[0]);
    c[1] += l.mass * (p.translation[1] + x[1]);
    c[2] += l.mass * (p.translation[2] + x[2]);
    m += l.mass;
  }
  return m > 0 ? [c[0] / m, c[1] / m, c[2] / m] : [NaN, NaN, NaN];
}


/** The support polygon: the floor-level points of the links the body stands on. */
function supportPolygon(setup: GoalSetup, poses: ReadonlyMap<string, Pose>, onFloor: ReadonlySet<string>): [number, number][] {
  const pts: [number, number][] = [];
  for (const g of setup.checker.geometries) {
    if (!onFloor.has(g.link)) continue;
    const p = poses.get(g.link)!;
    for (const s of g.shapes) {
      const r = mulMat(p.rotation, s.pose.rotation);
      const t = mulVec(p.rotation, s.pose.translation);
      const v = s.mesh.positions;
      for (let i = 0; i < v.length; i += 3) {
        const w = mulVec(r, [v[i]!, v[i + 1]!, v[i + 2]!]);
        const z = p.translation[2] + t[2] + w[2];
        if (z <= ON_FLOOR) pts.push([p.translation[0] + t[0] + w[0], p.translation[1] + t[1] + w[1]]);
      }
    }
  }
  return convexHull(pts);
}

// ---- the legs' squat ----

/** The joints from the root down to `link` (root first). */
const chainJoints = (model: RobotModel, link: string): Link[] => chainPath(model, { base: model.links[0]!.name, tip: link }).links.reverse();

/** The pose of a chain's last link relative to the root's model pose (the root at its offset), chain root first. */
function chainPose(model: RobotModel, chain: readonly Link[], q: ReadonlyMap<string, number>): Pose {
  let p: Pose = model.links[0]!.offset;
  for (const l of chain) p = composePose(p, jointPose(l, q.get(l.joint.name) ?? 0));
  return p;
}

/** m, rad: how far from their targets `solveFeet` leaves the feet. */
export interface FootError {
  position: number;
  angle: number;
}

/**
 * Damped least squares on the joints `vars`, kept within their limits, toward each `targets` link's pose (model
 * frame, the root at its model pose): the nearest q it finds within 100 steps, and how far the feet stay from
 * their targets there (a leg with fewer than six joints may not reach a target at all). A leg stretched straight
 * is singular: the steps would never bend its knee. So when the start does not converge, a second start 0.1 rad
 * toward the middle of every joint's range (bent) is tried, and the better kept.
 */
export function solveFeet(
  model: RobotModel,
  start: ReadonlyMap<string, number>,
  vars: readonly Link[],
  targets: ReadonlyMap<string, Pose>,
): { q: Map<string, number>; error: FootError } {
  const first = descend(model, new Map(start), vars, targets);
  if (first.error.position < 1e-5 && first.error.angle < 1e-4) return first;
  const bent = new Map(start);
  for (const l of vars) {
    const v = bent.get(l.joint.name) ?? 0;
    const middle = Number.isFinite(l.joint.lower) && Number.isFinite(l.joint.upper) ? (l.joint.lower + l.joint.upper) / 2 : v;
    bent.set(l.joint.name, v + Math.sign(middle - v) * Math.min(0.1, Math.abs(middle - v)));
  }
  const second = descend(model, bent, vars, targets);
  return second.error.position + 0.1 * second.error.angle < first.error.position + 0.1 * first.error.angle ? second : first;
}

function descend(model: RobotModel, q: Map<string, number>, vars: readonly Link[], targets: ReadonlyMap<string, Pose>): { q: Map<string, number>; error: FootError } {
  const chains = [...targets.keys()].map((link) => chainJoints(model, link));
  const error = (qq: ReadonlyMap<string, number>): number[] => {
    const e: number[] = [];
    [...targets.values()].forEach((t, k) => {
      const p = chainPose(model, chains[k]!, qq);
      e.push(t.translation[0] - p.translation[0], t.translation[1] - p.translation[1], t.translation[2] - p.translation[2]);
      e.push(...rotationVector(mulMat(t.rotation, transpose(p.rotation))));
    });
    return e;
  };
  const measure = (e: readonly number[]): FootError => {
    const out = { position: 0, angle: 0 };
    for (let k = 0; k < e.length; k += 6) {
      out.position = Math.max(out.position, Math.hypot(e[k]!, e[k + 1]!, e[k + 2]!));
      out.angle = Math.max(out.angle, Math.hypot(e[k + 3]!, e[k + 4]!, e[k + 5]!));
    }
    return out;
  };
  const h = 1e-6;
  let best = { q: new Map(q), error: measure(error(q)) };
  for (let iter = 0; iter < 100; iter++) {
    const e = error(q);
    const now = measure(e);
    if (now.position + 0.1 * now.angle < best.error.position + 0.1 * best.error.angle) best = { q: new Map(q), error: now };
    if (now.position < 1e-6 && now.angle < 1e-5) break;
    const jac: number[][] = vars.map((l) => {
      const qq = new Map(q);
      qq.set(l.joint.name, (q.get(l.joint.name) ?? 0) + h);
      return error(qq).map((x, k) => (e[k]! - x) / h);
    });
    // (JᵀJ + λ²I) dq = Jᵀ e, J's columns being jac's rows.
    const a = vars.map((_, i) => vars.map((__, j) => jac[i]!.reduce((s, x, k) => s + x * jac[j]![k]!, 0) + (i === j ? 1e-4 : 0)));
    const inv = inverseSpd(a);
    if (!inv) break;
    const b = jac.map((col) => col.reduce((s, x, k) => s + x * e[k]!, 0));
    vars.forEach((l, i) => {
      const v = (q.get(l.joint.name) ?? 0) + inv[i]!.reduce((s, x, j) => s + x * b[j]!, 0);
      q.set(l.joint.name, Math.min(l.joint.upper, Math.max(l.joint.lower, v)));
    });
  }
  return best;
}

// ---- the plan ----

const smooth = (s: number): number => (s >= 1 ? 1 : s <= 0 ? 0 : s * s * (3 - 2 * s));

/**
 * Goals for every controller at once, and the time each takes; `root`: the root's world pose now (Choreonoid's).
 * `deadline` (performance.now() ms): planning holds the event loop (the simulation's clock is read after it), so past
 * it no more draws are made and the last one is sent, said so (`timedOut`).
 */
export function planGoals(setup: GoalSetup, controllers: readonly GoalController[], start: Readonly<Record<string, number>>, root: Pose, seed: number, deadline = Infinity): GoalPlan {
  const { model } = setup;
  const given = new Map(Object.entries(start));
  const q0 = closed(setup, given) ?? given;
  const poses0 = worldPoses(model, q0, root);
  const low0 = lowestPoints(setup, poses0);
  const onFloor = new Set([...low0].filter(([, z]) => z <= ON_FLOOR).map(([l]) => l));
  const commanded = new Map(controllers.flatMap((c) => c.joints.map((j) => [j.name, j] as const)));
  const free = model.links[0]!.joint.type === 'free';

  // The links a free body stands on through a commanded leg joint: their legs squat instead of being drawn.
  const feet = free ? [...onFloor].filter((l) => chainJoints(model, l).some((j) => setup.legs.has(j.joint.name) && commanded.has(j.joint.name))) : [];
  const squatLinks = [...new Map(feet.flatMap((f) => chainJoints(model, f).filter((l) => commanded.has(l.joint.name)).map((l) => [l.name, l] as const))).values()];
  const squatting = new Set(squatLinks.map((l) => l.joint.name));
  const hull = feet.length > 0 ? supportPolygon(setup, poses0, onFloor) : [];
  const com0 = centreOfMass(model, poses0, setup.loose);
  const margin0 = feet.length > 0 ? insideMargin(hull, com0[0], com0[1]) : Infinity;
  const needMargin = Math.min(SUPPORT_MARGIN, margin0);
  const height = root.translation[2] - Math.min(...low0.values());
  // The feet's poses in the model frame (root at its model pose), from which a squat's targets follow.
  const local0 = linkWorldPoses(model, q0);
  const toModel = composePose(local0.get(model.links[0]!.name)!, inversePose(root));
  const collidingAtStart = new Set<number>();
  setup.checker.place(q0);
  setup.enabled.forEach(([i, j], k) => {
    if (setup.checker.collide(i, j)) collidingAtStart.add(k);
  });

  const rejected: Record<string, number> = {};

  // The goal first, then the way there. The first steps are checked finer: a contact the body starts in (a latch
  // against its lock) is left within the first milliradians, which the even steps pass over (FireCabinet's KNOB
  // caught on LOCK with the door 2 mrad open).
  const fractions = [1, ...EARLY_CHECKS, ...Array.from({ length: PATH_CHECKS - 1 }, (_, k) => (k + 1) / PATH_CHECKS)];

  let last: { goals: Record<string, number>[]; durations: number[]; squat: Vec3 | null } | null = null;
  let timedOut = false;
  for (let draw = 0; draw < GOAL_DRAWS; draw++) {
    if (draw > 0 && performance.now() > deadline) {
      timedOut = true;
      break;
    }
    const goals = drawGoals(draw);
    let squat: Vec3 | null = null;
    if (feet.length > 0) {
      const random = seededRandom(seed + 104729 * (draw + 1));
      // Later draws squat less, the last ones not at all (the legs then hold where they stand); every other draw
      // straight down, which legs of fewer than six joints can follow where a shift sideways they cannot.
      const scale = draw < GOAL_DRAWS / 2 ? 1 : draw >= GOAL_DRAWS - 10 ? 0 : 2 - (2 * draw) / GOAL_DRAWS;
      const shift = draw % 2 === 0 ? SQUAT_SHIFT * height * scale : 0;
      squat = [(2 * random() - 1) * shift, (2 * random() - 1) * shift, -(0.25 + 0.75 * random()) * SQUAT_DEPTH * height * scale];
      // The root moves by `squat` in the world: in the model frame each foot moves by the opposite.
      const back = mulVec(toModel.rotation, [-squat[0], -squat[1], -squat[2]]);
      const targets = new Map(feet.map((f) => [f, shifted(local0.get(f)!, back)]));
      // The feet's remaining error is judged with the way there (a foot strays).
      const solved = solveFeet(model, q0, squatLinks, targets).q;
      goals.forEach((g, i) => {
        for (const j of controllers[i]!.joints) if (squatting.has(j.name)) g[j.name] = solved.get(j.name)!;
      });
    }
    const durations = controllers.map((c, i) => trajectoryDuration(c.joints, start, goals[i]!));
    // The legs of one squat move together: one duration for every controller with a squatting joint.
    const legTime = Math.max(0, ...controllers.map((c, i) => (c.joints.some((j) => squatting.has(j.name)) ? durations[i]! : 0)));
    controllers.forEach((c, i) => {
      if (c.joints.some((j) => squatting.has(j.name))) durations[i] = legTime;
    });
    last = { goals, durations, squat };
    const why = outsideLimits(goals) ?? clearAlong((f) => atOnce(goals, durations, squat, legTime, f));
    if (why === null) return { goals, durations, points: goalPoints(goals, durations), moves: null, draws: draw + 1, found: true, squat, rejected };
    rejected[why] = (rejected[why] ?? 0) + 1;
  }

  // No draw sent at once was clear: the joints one at a time, by way of their stops where that clears them (a door's
  // knob turned to unlatch before the door opens, a reel turned once the door is open). Not for a squat: its legs must move together.
  if (feet.length === 0 && !timedOut) {
    for (let draw = 0; draw < STAGED_DRAWS && performance.now() <= deadline; draw++) {
      const goals = drawGoals(draw);
      if (outsideLimits(goals) !== null) continue;
      const moves = jointMoves(goals);
      if (moves === null) continue;
      const { points, durations } = stagedPoints(goals, moves);
      return { goals, durations, points, moves, draws: GOAL_DRAWS + draw + 1, found: true, squat: null, rejected };
    }
  }
  const made = Object.values(rejected).reduce((a, b) => a + b, 0);
  return { ...last!, points: goalPoints(last!.goals, last!.durations), moves: null, draws: made, found: false, rejected, timedOut: performance.now() > deadline };

  // Draw 0 is randomGoal's, as the sweep drew before; later draws their own seeds.
  function drawGoals(draw: number): Record<string, number>[] {
    return controllers.map((c, i) => randomGoal(c.joints, start, draw === 0 ? seed + i : seed + i + 7919 * draw));
  }

  function outsideLimits(goals: readonly Record<string, number>[]): string | null {
    for (const [i, c] of controllers.entries()) {
      for (const j of c.joints) if (!(goals[i]![j.name]! >= j.lower && goals[i]![j.name]! <= j.upper)) return `${j.name} outside its limits`;
    }
    return null;
  }

  /** Where every controller is at fraction f of the longest trajectory, all sent at once. */
  function atOnce(goals: readonly Record<string, number>[], durations: readonly number[], squat: Vec3 | null, legTime: number, f: number): { q: Map<string, number>; root: Pose } {
    const t = f * Math.max(...durations);
    const q = new Map(q0);
    controllers.forEach((c, i) => {
      const s = smooth(t / durations[i]!);
      for (const j of c.joints) q.set(j.name, (start[j.name] ?? 0) + s * (goals[i]![j.name]! - (start[j.name] ?? 0)));
    });
    const legS = squat ? smooth(t / legTime) : 0;
    return { q, root: squat ? shifted(root, [legS * squat[0], legS * squat[1], legS * squat[2]]) : root };
  }

  /**
   * The states at `fractions` of the way, their loops' followers solved from the way's start onward, each from the
   * one before (a linkage has more than one closed shape for a driver value; the one it moves through is the one
   * nearest the last); null where a loop does not close.
   */
  function closedAlong(stateAt: (f: number) => { q: Map<string, number>; root: Pose }): { q: Map<string, number>; root: Pose }[] | null {
    const states = fractions.map(stateAt);
    if (!setup.closure) return states;
    let from = closed(setup, stateAt(0).q, q0);
    if (!from) return null;
    const order = fractions.map((_, i) => i).sort((a, b) => fractions[a]! - fractions[b]!);
    for (const i of order) {
      const q = closed(setup, states[i]!.q, from);
      if (!q) return null;
      states[i] = { ...states[i]!, q };
      from = q;
    }
    return states;
  }

  /** Why the way (states at `fractions` of it) is not clear, or null when it is; the cheap checks at every point before any collision is tested. */
  function clearAlong(stateAt: (f: number) => { q: Map<string, number>; root: Pose }): string | null {
    const states = closedAlong(stateAt);
    if (states === null) return 'a closed loop does not close';
    for (const state of states) {
      const poses = worldPoses(model, state.q, state.root);
      for (const [link, z] of lowestPoints(setup, poses)) {
        if (onFloor.has(link)) continue;
        if (z < Math.min(low0.get(link)!, FLOOR_CLEARANCE) - 1e-6) return `${link} into the floor`;
      }
      for (const f of feet) {
        const a = poses0.get(f)!;
        const b = poses.get(f)!;
        if (Math.hypot(a.translation[0] - b.translation[0], a.translation[1] - b.translation[1], a.translation[2] - b.translation[2]) > FOOT_DRIFT.position || angleBetween(a.rotation, b.rotation) > FOOT_DRIFT.angle) return `foot ${f} strays`;
      }
      if (feet.length > 0) {
        const com = centreOfMass(model, poses, setup.loose);
        if (insideMargin(hull, com[0], com[1]) < needMargin) return 'centre of mass off the feet';
      }
    }
    for (const state of states) {
      setup.checker.place(state.q);
      for (let e = 0; e < setup.enabled.length; e++) {
        if (collidingAtStart.has(e)) continue;
        const [i, j] = setup.enabled[e]!;
        if (setup.checker.collide(i, j)) return `${setup.checker.links[i]} hits ${setup.checker.links[j]}`;
      }
    }
    return null;
  }

  /**
   * Moves, one joint at a time, that take every joint to its goal clear of the floor and the body: a best-first
   * search over the states where each joint stands at its start, at its goal or near either end of its range (a
   * door's knob turned to its stop, the door opened, the knob let back to its goal), each move's way checked only
   * when the search reaches it (at most STAGE_CHECKS of them); null when none is found.
   */
  function jointMoves(goals: readonly Record<string, number>[]): JointMove[] | null {
    const target = new Map(goals.flatMap((g) => Object.entries(g)));
    const joints = controllers.flatMap((c) => c.joints).filter((j) => Math.abs(target.get(j.name)! - (start[j.name] ?? 0)) > 1e-9);
    // Per joint, the values it may stand at: index 0 its start, 1 its goal, then near its stops.
    const values = joints.map((j) => {
      const from = start[j.name] ?? 0;
      const ends = Number.isFinite(j.lower) && Number.isFinite(j.upper) ? [j.lower + STOP_INSET * (j.upper - j.lower), j.upper - STOP_INSET * (j.upper - j.lower)] : [];
      return [from, target.get(j.name)!, ...ends];
    });
    const key = (s: readonly number[]): string => s.join(',');
    const atGoal = (s: readonly number[]): number => s.filter((v) => v === 1).length;
    const qOf = (s: readonly number[]): Map<string, number> => {
      const q = new Map(q0);
      joints.forEach((j, k) => q.set(j.name, values[k]![s[k]!]!));
      return q;
    };
    const startState = joints.map(() => 0);
    const cameFrom = new Map<string, { from: string; move: JointMove }>([[key(startState), { from: '', move: { joint: '', to: 0, stop: false } }]]);
    // Fewest moves first, weighted toward states with more joints at their goal.
    const open: { state: number[]; moves: number }[] = [{ state: startState, moves: 0 }];
    const priority = (e: { state: number[]; moves: number }): number => e.moves + 2 * (joints.length - atGoal(e.state));
    let budget = STAGE_CHECKS;
    while (open.length > 0) {
      open.sort((x, y) => priority(x) - priority(y));
      const { state, moves } = open.shift()!;
      if (atGoal(state) === joints.length) {
        const path: JointMove[] = [];
        for (let k = key(state); cameFrom.get(k)!.from !== ''; k = cameFrom.get(k)!.from) path.unshift(cameFrom.get(k)!.move);
        return path;
      }
      const q = qOf(state);
      for (let k = 0; k < joints.length; k++) {
        // Its goal first, then its stops; never back to its start.
        for (let v = 1; v < values[k]!.length; v++) {
          if (v === state[k]) continue;
          const next = [...state];
          next[k] = v;
          if (cameFrom.has(key(next))) continue;
          if (budget-- <= 0) return null;
          const name = joints[k]!.name;
          const from = values[k]![state[k]!]!;
          const to = values[k]![v]!;
          if (clearAlong((f) => ({ q: new Map(q).set(name, from + smooth(f) * (to - from)), root })) !== null) continue;
          cameFrom.set(key(next), { from: key(state), move: { joint: name, to, stop: v > 1 } });
          open.push({ state: next, moves: moves + 1 });
        }
      }
    }
    return null;
  }

  /** Each controller's points when the joints move one at a time as `moves` say, each move taking its own trajectory time. */
  function stagedPoints(goals: readonly Record<string, number>[], moves: readonly JointMove[]): { points: GoalPoint[][]; durations: number[] } {
    const jointOf = new Map(controllers.flatMap((c) => c.joints.map((j) => [j.name, j] as const)));
    const at: Record<string, number> = { ...start };
    const turns: (JointMove & { from: number; until: number })[] = [];
    let t = 0;
    for (const m of moves) {
      const d = trajectoryDuration([jointOf.get(m.joint)!], at, { [m.joint]: m.to });
      turns.push({ ...m, from: t, until: t + d });
      at[m.joint] = m.to;
      t += d;
    }
    const points = controllers.map((c, i) => {
      const now: Record<string, number> = Object.fromEntries(c.joints.map((j) => [j.name, start[j.name] ?? 0]));
      const out: GoalPoint[] = [];
      for (const turn of turns) {
        if (!c.joints.some((j) => j.name === turn.joint)) continue;
        // Held where it is until its turn: a point at the turn's start, or the spline would move it during others'.
        if (turn.from > (out.at(-1)?.time ?? 0)) out.push({ time: turn.from, positions: { ...now } });
        now[turn.joint] = turn.to;
        out.push({ time: turn.until, positions: { ...now } });
      }
      // A controller whose joints all stay where they are: its goal, as when sent at once.
      return out.length > 0 ? out : [{ time: trajectoryDuration(c.joints, start, goals[i]!), positions: { ...goals[i]! } }];
    });
    return { points, durations: points.map((p) => p.at(-1)!.time) };
  }
}

/** Each controller's trajectory when all are sent at once: its goal, at its duration. */
function goalPoints(goals: readonly Record<string, number>[], durations: readonly number[]): GoalPoint[][] {
  return goals.map((g, i) => [{ time: durations[i]!, positions: { ...g } }]);
}
