// What each joint carries, from the model's own mass properties: the numbers a PD loop inside the
// simulator must be designed for.
//
// At a configuration q the rigid-body dynamics are M(q)·ddq + c(q, dq) + g(q) = u. Choreonoid's forward
// dynamics (ForwardDynamicsABM, and CBM alike) add each joint's equivalent rotor inertia
// Jm2 = rotor_inertia · gear_ratio² to that joint's own diagonal element, so it belongs to M here too.
//
// - heaviest: the largest M_jj + Jm2 over the sampled configurations — the inertia the joint turns when
//   every other joint holds still (the composite rigid body of its subtree about its axis, plus the
//   rotor). A loop tuned for a bandwidth at its heaviest load is faster, never slower, elsewhere.
// - M(q) itself at every sample: M⁻¹ is how the body answers a torque when nothing else holds it — what a
//   fast transient sees, and so what decides whether the discrete loop is stable at the simulation step
//   (gains.ts). A free root's six degrees of freedom are part of M for that reason.
// - A free joint below the root cuts the tree: Choreonoid's dynamics make the link beyond it the root of a body of
//   its own (DyBody::initializeSubBodies starts a DySubBody at every free-joint link; ForwardDynamicsABM skips
//   free-joint children when it sums a link's articulated inertia and forces), so nothing beyond it loads the joints
//   above it. Here it has six degrees of freedom of its own, as a free root does (CollapsedCeilingF.body: the 10 kg
//   BOARING_TARGET on its free joint is no load of the 0.1 kg BOARING_BASE's prismatic joint).
// - gravity: the largest |g_j(q)| — the torque (or force) the joint must hold against gravity, which a
//   PD without gravity compensation pays for with a steady error g_j / P.
//
// M_jj depends only on the joints below j, g_j on every joint: sampling the whole configuration covers
// both. Configurations: the model's initial one (clamped into the limits) and `samples` drawn uniformly
// within the limits (a joint without limits over [−π, π]; a prismatic one without limits stays at its
// initial position), from a seeded generator so the same model gives the same numbers.
import { linkWorldPoses } from '../kinematics/forward.js';
import { isMovingJoint } from '../kinematics/frames.js';
import { standingContact } from '../roles/ground.js';
import { add, cross, dot, mulMat, mulVec, normalize, transpose } from '../model/math.js';
import type { Link, Mat3, RobotModel, Vec3 } from '../model/types.js';
import { seededRandom } from '../moveit/collision-matrix.js';

/** Choreonoid's standard gravity (AISTSimulatorItem's default, m/s²). */
export const GRAVITY = 9.80665;

export const DEFAULT_LOAD_SAMPLES = 200;

/** N·m or N: a gravity load below this is rounding, not a load. */
const GRAVITY_FLOOR = 1e-9;

export interface JointLoad {
  joint: string;
  type: 'revolute' | 'prismatic';
  /** Jm2 = rotor_inertia · gear_ratio² (kg·m² or kg). */
  rotor: number;
  /** max over the samples of M_jj + Jm2 (kg·m² or kg). */
  heaviest: number;
  /** max over the samples of the torque (N·m) or force (N) gravity puts on the joint. */
  gravity: number;
}

export interface LoadOptions {
  /** Random configurations besides the initial one (default DEFAULT_LOAD_SAMPLES). */
  samples?: number;
  seed?: number;
}

/**
 * One degree of freedom: a moving joint, or one of a free joint's six (world axes through its link's origin): the
 * root's, or a free joint's below it, whose link is the root of a sub-body (see the header).
 */
interface Dof {
  kind: 'revolute' | 'prismatic';
  /** The link whose joint this is (its subtree moves); null for a free joint's six. */
  link: Link | null;
  /** For a free joint's six: the link it moves (the root of its sub-body) and the world axis. */
  base?: Link;
  worldAxis?: Vec3;
  rotor: number;
}

/** Body mass properties in the world at one configuration. */
interface Body {
  mass: number;
  /** Centre of mass in the world. */
  com: Vec3;
  /** Inertia about the centre of mass, world axes. */
  inertia: Mat3;
}

/** The initial position clamped into the joint's limits. */
const home = (l: Link): number => Math.min(Math.max(l.joint.initial, l.joint.lower), l.joint.upper);

/** Where a joint is sampled (see the header). */
function sampleRange(l: Link): [number, number] {
  const j = l.joint;
  if (j.type === 'revolute') return [Number.isFinite(j.lower) ? j.lower : -Math.PI, Number.isFinite(j.upper) ? j.upper : Math.PI];
  const h = home(l);
  return [Number.isFinite(j.lower) ? j.lower : h, Number.isFinite(j.upper) ? j.upper : h];
}

export interface JointSpaceDynamics {
  /** Moving joints in model order; M's first rows and columns (a free root's six follow, then each free joint's below it). */
  joints: string[];
  /** Joint-space inertia matrix with each joint's Jm2 on its diagonal. */
  inertia: number[][];
  /** Torque or force each joint holds against gravity (positive: gravity pulls the joint negative). */
  gravity: number[];
}

/** Dofs of the model: the moving joints in model order, then six for each free joint (the root's first), in model order. */
function degreesOfFreedom(model: RobotModel): Dof[] {
  const dofs: Dof[] = model.links.filter(isMovingJoint).map((l) => ({
    kind: l.joint.type as 'revolute' | 'prismatic',
    link: l,
    rotor: l.joint.rotorInertia * l.joint.gearRatio * l.joint.gearRatio,
  }));
  const axes: Vec3[] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (const base of model.links.filter((l) => l.joint.type === 'free')) {
    for (const kind of ['prismatic', 'revolute'] as const) for (const worldAxis of axes) dofs.push({ kind, link: null, base, worldAxis, rotor: 0 });
  }
  return dofs;
}

/**
 * M(q) and g(q) at one configuration (joint positions by name; absent joints at 0), from each link's
 * Jacobian: M = Σ_k m_k·Jv_kᵀ·Jv_k + Jw_kᵀ·I_k·Jw_k over the links, with Jm2 added on the diagonal.
 */
export function jointSpaceDynamics(model: RobotModel, q: ReadonlyMap<string, number>): JointSpaceDynamics {
  const dofs = degreesOfFreedom(model);
  const poses = linkWorldPoses(model, q);
  const dofOfLink = new Map<string, number>();
  dofs.forEach((d, i) => {
    if (d.link) dofOfLink.set(d.link.name, i);
  });
  const freeDofs = (base: Link): number[] => dofs.map((d, i) => (d.base === base ? i : -1)).filter((i) => i >= 0);
  // The DOFs that move each link: its ancestors' joints (and its own) up to its sub-body's root, and that root's
  // six when its joint is free. A free joint's link starts a sub-body: its parent's DOFs do not move it.
  const movers = new Map<string, number[]>();
  for (const l of model.links) {
    const above = l.parent === null || l.joint.type === 'free' ? freeDofs(l) : movers.get(l.parent)!;
    const own = dofOfLink.get(l.name);
    movers.set(l.name, own === undefined ? above : [...above, own]);
  }
  // Each DOF's axis and a point on it, in the world (the joint frame is the link frame).
  const axisOf = dofs.map((d) => (d.link ? mulVec(poses.get(d.link.name)!.rotation, d.link.joint.axis) : d.worldAxis!));
  const pointOf = dofs.map((d) => poses.get((d.link ?? d.base!).name)!.translation);
  const n = dofs.length;
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const gravity = new Array<number>(n).fill(0);
  for (const l of model.links) {
    const pose = poses.get(l.name)!;
    const body: Body = {
      mass: l.mass,
      com: add(pose.translation, mulVec(pose.rotation, l.centerOfMass)),
      inertia: mulMat(mulMat(pose.rotation, l.inertia), transpose(pose.rotation)),
    };
    if (body.mass === 0 && l.inertia.every((r) => r.every((x) => x === 0))) continue;
    const ids = movers.get(l.name)!;
    const jv: Vec3[] = [];
    const jw: (Vec3 | null)[] = [];
    for (const d of ids) {
      const a = axisOf[d]!;
      if (dofs[d]!.kind === 'revolute') {
        jv.push(cross(a, [body.com[0] - pointOf[d]![0], body.com[1] - pointOf[d]![1], body.com[2] - pointOf[d]![2]]));
        jw.push(a);
      } else {
        jv.push(a);
        jw.push(null);
      }
    }
    ids.forEach((d, i) => {
      // Holding torque: the work gravity does through this DOF, m·g·(Jv)_z, with g pointing down.
      gravity[d] = gravity[d]! + body.mass * GRAVITY * jv[i]![2];
      for (let k = 0; k <= i; k++) {
        const e = ids[k]!;
        let v = body.mass * dot(jv[i]!, jv[k]!);
        const wi = jw[i], wk = jw[k];
        if (wi && wk) v += dot(wi, mulVec(body.inertia, wk));
        m[d]![e] = m[d]![e]! + v;
        if (d !== e) m[e]![d] = m[e]![d]! + v;
      }
    });
  }
  dofs.forEach((d, i) => {
    m[i]![i] = m[i]![i]! + d.rotor;
  });
  const joints = dofs.filter((d) => d.link).map((d) => d.link!.joint.name);
  return { joints, inertia: m, gravity: gravity.slice(0, joints.length) };
}

/** The configurations the loads are taken over: the initial one, then `samples` random ones. */
export function loadConfigurations(model: RobotModel, options: LoadOptions = {}): Map<string, number>[] {
  const moving = model.links.filter(isMovingJoint);
  const random = seededRandom(options.seed ?? 0);
  const out = [new Map(moving.map((l) => [l.joint.name, home(l)]))];
  for (let s = 0; s < (options.samples ?? DEFAULT_LOAD_SAMPLES); s++) {
    out.push(new Map(moving.map((l) => {
      const [lo, hi] = sampleRange(l);
      return [l.joint.name, lo + (hi - lo) * random()];
    })));
  }
  return out;
}

export interface Loads {
  /** Each moving joint's load, in model order. */
  joints: JointLoad[];
  /** M(q) and g(q) at each configuration (the initial one first). */
  samples: JointSpaceDynamics[];
}

/** Each moving joint's load over the configurations (see the header), and the dynamics at each. */
export function jointLoads(model: RobotModel, options: LoadOptions = {}): Loads {
  const moving = model.links.filter(isMovingJoint);
  const joints: JointLoad[] = moving.map((l) => ({
    joint: l.joint.name,
    type: l.joint.type as 'revolute' | 'prismatic',
    rotor: l.joint.rotorInertia * l.joint.gearRatio * l.joint.gearRatio,
    heaviest: 0,
    gravity: 0,
  }));
  const samples = loadConfigurations(model, options).map((q) => jointSpaceDynamics(model, q));
  for (const dyn of samples) {
    joints.forEach((load, j) => {
      load.heaviest = Math.max(load.heaviest, dyn.inertia[j]![j]!);
      load.gravity = Math.max(load.gravity, Math.abs(dyn.gravity[j]!));
    });
  }
  // Rounding leaves ~1e-18 N·m on joints gravity cannot turn (a vertical axis): that is none.
  for (const load of joints) if (load.gravity < GRAVITY_FLOOR) load.gravity = 0;
  return { joints, samples };
}

/** The body standing at its initial configuration: its links' poses, its ground contact points, and which link lies below which. */
function standingPose(model: RobotModel) {
  const moving = model.links.filter(isMovingJoint);
  const poses = linkWorldPoses(model, new Map(moving.map((l) => [l.joint.name, home(l)])));
  const byName = new Map(model.links.map((l) => [l.name, l]));
  const inSubtree = (l: Link, top: Link): boolean => {
    for (let at: Link | undefined = l; at; at = at.parent === null ? undefined : byName.get(at.parent)) if (at === top) return true;
    return false;
  };
  return { moving, poses, contact: standingContact(model)?.points ?? new Map<string, Vec3[]>(), byName, inSubtree };
}

/**
 * What each of `joints` holds up when the body stands on the limb it is part of: the torque (N·m) or force (N)
 * gravity puts on the joint from everything on the root's side of it within its body — the rest of the body,
 * carried through the ground contact below the joint as if that contact alone bore it (standing on one leg: a
 * walking body's stance, a flipper lifting the chassis). gravity (above) is the other side, the limb held in the
 * air. At the pose the body stands in (the initial configuration, clamped into the limits), that weight acts where
 * its centre of mass is; but a body that stays standing may carry it anywhere over what it stands on — leaning,
 * squatting, holding an arm out — so the load is the larger of that and the weight over the contact point (a
 * sole's corner, ground.ts) farthest from the joint's axis. A body standing straight over its ankles (SR1.wrl)
 * loads them with almost nothing at its initial pose, and bore 4.8–6.8 N·m squatting with its arms at random goals
 * (the corpus sweep, 30 Nov 2026). A free joint bounds the body as in the dynamics (a sub-body is no load).
 */
export function carriedLoads(model: RobotModel, joints: readonly string[]): Map<string, number> {
  const wanted = new Set(joints);
  const out = new Map<string, number>();
  if (wanted.size === 0) return out;
  const { moving, poses, contact, byName, inSubtree } = standingPose(model);
  // Each link's body (the root, or the free-joint link above it), found once for all the joints asked about.
  const bodyOf = new Map<string, string>();
  for (const l of model.links) bodyOf.set(l.name, l.parent === null || l.joint.type === 'free' ? l.name : bodyOf.get(l.parent)!);
  for (const j of moving.filter((l) => wanted.has(l.joint.name))) {
    const pose = poses.get(j.name)!;
    const axis = mulVec(pose.rotation, j.joint.axis);
    const body = bodyOf.get(j.name);
    // As gravity above: m·g·(Jv)_z, Jv the velocity the joint gives the point (here the rest of the body moving against the fixed limb).
    const lever = (point: Vec3): number =>
      j.joint.type === 'revolute' ? cross(axis, [point[0] - pose.translation[0], point[1] - pose.translation[1], point[2] - pose.translation[2]])[2] : axis[2];
    let held = 0;
    let weight = 0;
    for (const l of model.links) {
      if (bodyOf.get(l.name) !== body || inSubtree(l, j)) continue;
      const p = poses.get(l.name)!;
      held += l.mass * GRAVITY * lever(add(p.translation, mulVec(p.rotation, l.centerOfMass)));
      weight += l.mass * GRAVITY;
    }
    // The same weight over each point this limb stands on, below the joint.
    let over = 0;
    for (const [link, points] of contact) {
      if (!inSubtree(byName.get(link)!, j)) continue;
      for (const v of points) over = Math.max(over, Math.abs(weight * lever(v)));
    }
    const load = Math.max(Math.abs(held), over);
    out.set(j.joint.name, load < GRAVITY_FLOOR ? 0 : load);
  }
  return out;
}

/**
 * What each steering joint of `joints` holds against when its wheel stands on the floor: the friction of the tyre
 * turning about the steering axis on its contact, at most `friction` × the weight on it × the farthest contact point
 * from the axis (ground.ts's points at the initial pose). The weight is the whole body's, as carriedLoads takes it:
 * how the body shares out over its wheels the statics of three or four contacts decide, and a bound is what the
 * design holds. Without it a steering joint's design load is 0 (its axis vertical) and P comes from the bandwidth
 * alone: simple_vehicle_with_rangesensor.wrl's STEERING ended 2.5 mrad from its goal, the tyre holding it, and its
 * siblings 1.8–1.97 of their 2 mrad (the corpus sweep, 30 Nov 2026).
 */
export function scrubLoads(model: RobotModel, joints: readonly string[], friction: number): Map<string, number> {
  const wanted = new Set(joints);
  const out = new Map<string, number>();
  if (wanted.size === 0) return out;
  const { moving, poses, contact, byName, inSubtree } = standingPose(model);
  const weight = model.links.reduce((m, l) => m + l.mass, 0) * GRAVITY;
  for (const j of moving.filter((l) => wanted.has(l.joint.name) && l.joint.type === 'revolute')) {
    const pose = poses.get(j.name)!;
    const axis = normalize(mulVec(pose.rotation, j.joint.axis));
    let reach = 0;
    for (const [link, points] of contact) {
      if (!inSubtree(byName.get(link)!, j)) continue;
      for (const v of points) {
        // The point's distance from the axis line.
        const d: Vec3 = [v[0] - pose.translation[0], v[1] - pose.translation[1], v[2] - pose.translation[2]];
        const along = dot(d, axis);
        reach = Math.max(reach, Math.hypot(d[0] - along * axis[0], d[1] - along * axis[1], d[2] - along * axis[2]));
      }
    }
    const load = friction * weight * reach;
    if (load >= GRAVITY_FLOOR) out.set(j.joint.name, load);
  }
  return out;
}
