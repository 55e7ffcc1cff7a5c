// P and D for every joint whose loop runs at the simulation step, from what the joint carries
// (joint-loads.ts), for a stated bandwidth and damping ratio:
//
//   position_pd (and effort, whose PD the joint_trajectory_controller computes):
//     P = max(I·ω², G / s)      I: heaviest inertia, ω = 2π·bandwidth, G: largest gravity load (for a
//     D = 2·ζ·√(P·I)            limb standing on the ground, or the body it carries, if larger),
//                               s: the largest static error (sag) allowed without gravity compensation
//   velocity_pd: P = I·ω, D = 0 (a first-order velocity loop; D multiplies the last step's
//     acceleration in BodySystemInterface, which only adds a one-step-delayed term)
//
// Then the discrete loop is made stable. Choreonoid holds the torque computed at the start of a step over
// the whole step and integrates with semi-implicit Euler (AISTSimulatorItem's default); for one mode of
// stiffness k, damping c and inertia m that is stable iff α + 2β < 4, α = k·T²/m, β = c·T/m. With several
// joints the modes are those of M⁻¹K and M⁻¹D, where M⁻¹ is the inverse joint-space inertia with every
// degree of freedom that is not held by the simulator free (a free root included): a joint whose own
// inertia is large can still share a fast mode with light ones. So over every sampled configuration
//
//   margin = T²·λmax(M⁻¹K) + 2T·λmax(M⁻¹D)   must stay ≤ STABILITY_TARGET (2: half the bound)
//
// and where it does not, the damping of the joints in the offending mode (its eigenvector) is lowered
// until it does: damping, not stiffness, is what the step cannot carry (it acts at once), while the
// stiffness keeps the sag within s. User gains are never changed; a margin they break is reported.
import type { JointLoad, Loads } from './joint-loads.js';
import { inverseSpd, largestEigenvalue, scaledSymmetric, submatrix, symmetricEigen } from './linear-algebra.js';
import type { ControlMode, JointMode } from './modes.js';

/** Hz: a tenth of a second to respond, well inside what MoveIt's time-parametrised trajectories ask. */
export const DEFAULT_BANDWIDTH = 10;
/** Damping ratio at the heaviest load: the usual 5 % overshoot, least time to settle. */
export const DEFAULT_DAMPING = 0.7;
/** rad or m: the largest static error gravity may cause (1 mm at a metre's reach). */
export const DEFAULT_MAX_SAG = 1e-3;
/** s: the AIST simulator's step the launch uses (Choreonoid's samples use 1 ms with PD control). */
export const DEFAULT_TIME_STEP = 0.001;
/** α + 2β for semi-implicit Euler with a torque held over the step: stable below 4. */
export const STABILITY_BOUND = 4;
/** What the design keeps to: half the bound, for what the linear model leaves out (contacts, velocity terms, states between samples). */
export const STABILITY_TARGET = 2;

export interface GainOptions {
  /** Hz (default DEFAULT_BANDWIDTH). */
  bandwidth?: number;
  /** ζ at the heaviest load (default DEFAULT_DAMPING). */
  damping?: number;
  /** rad or m (default DEFAULT_MAX_SAG). */
  maxSag?: number;
  /** s (default DEFAULT_TIME_STEP). */
  timeStep?: number;
}

/** Gains a user gives for a joint (either may be absent: the model's then). */
export interface UserGains {
  p?: number;
  d?: number;
}

export type PdMode = 'position_pd' | 'velocity_pd' | 'effort';

/** Modes whose loop runs every step with gains: inside Choreonoid (`_pd`) or in the trajectory controller (effort). */
export const isPdMode = (mode: ControlMode): mode is PdMode => mode === 'position_pd' || mode === 'velocity_pd' || mode === 'effort';

/** A gain lowered by less than 1 % is reported as kept. */
const LOWERED = 0.99;

/** Modes the simulator holds itself (high gain): their joints are not free degrees of freedom. */
const isHighGain = (mode: ControlMode): boolean => mode === 'position' || mode === 'velocity';

export interface JointGains {
  joint: string;
  mode: PdMode;
  p: number;
  d: number;
  pFrom: 'bandwidth' | 'sag' | 'user';
  dFrom: 'model' | 'user';
  /** The model's damping (velocity_pd: its P) was lowered by more than 1 % to keep the loop stable at the step. */
  dLowered: boolean;
  load: JointLoad;
  /**
   * The static load the design holds (N·m or N): the gravity on what the joint carries in the air, or, for a limb that
   * stands on the ground, the body it carries through it, or, for a steering joint, its tyre's friction turning on
   * the floor, where that is larger (joint-loads.ts, carriedLoads and scrubLoads).
   */
  held: number;
  heldFrom: 'gravity' | 'body' | 'tyre';
  /** The heaviest inertia the design used (the load's, plus what the caller added: a wheel's share of the body). */
  inertia: number;
  /** The lightest inertia the joint feels (1/(M⁻¹)_jj over the samples, given the other joints' modes). */
  lightest: number;
  /** Hz at the heaviest inertia: √(P/I)/2π (position), P/I/2π (velocity). */
  bandwidth: number;
  /** ζ at the heaviest inertia (position loops). */
  damping: number;
  /** Position loops: the largest static error, held/P (rad or m). Velocity loops: the drift under the largest gravity load, G/P (rad/s or m/s). */
  sag: number;
  /** Position loops: D/P (s), the error per unit of speed while moving (the loop damps the speed itself, not its error). */
  lag: number;
}

export interface GainDesign {
  joints: JointGains[];
  /** The worst T²·λmax(M⁻¹K) + 2T·λmax(M⁻¹D) over the samples (stable below STABILITY_BOUND). */
  margin: number;
  /** Its two terms at the worst sample. */
  stiffnessTerm: number;
  dampingTerm: number;
  options: Required<GainOptions>;
  warnings: string[];
}

interface Evaluation {
  margin: number;
  alpha: number;
  beta: number;
}

const pick = (options: GainOptions): Required<GainOptions> => ({
  bandwidth: options.bandwidth ?? DEFAULT_BANDWIDTH,
  damping: options.damping ?? DEFAULT_DAMPING,
  maxSag: options.maxSag ?? DEFAULT_MAX_SAG,
  timeStep: options.timeStep ?? DEFAULT_TIME_STEP,
});

/** The formulas' gains for every joint with a loop (see the header), before the stability step. */
function formulaGains(
  loads: Loads,
  modes: readonly JointMode[],
  o: Required<GainOptions>,
  user: ReadonlyMap<string, UserGains>,
  extraInertia: ReadonlyMap<string, number>,
  carried: ReadonlyMap<string, number>,
  tyre: ReadonlyMap<string, number>,
  warnings: string[],
): { gains: JointGains[]; index: number[] } {
  const modeOf = new Map(modes.map((m) => [m.joint, m.mode]));
  const passive = new Set(modes.filter((m) => m.from === 'passive').map((m) => m.joint));
  const omega = 2 * Math.PI * o.bandwidth;
  const gains: JointGains[] = [];
  const index: number[] = [];
  loads.joints.forEach((load, j) => {
    const mode = modeOf.get(load.joint);
    // A free caster (effort, commanded by nothing) has no loop: no gains.
    if (mode === undefined || !isPdMode(mode) || passive.has(load.joint)) return;
    const inertia = load.heaviest + (extraInertia.get(load.joint) ?? 0);
    const body = mode === 'velocity_pd' ? 0 : (carried.get(load.joint) ?? 0);
    const scrub = mode === 'velocity_pd' ? 0 : (tyre.get(load.joint) ?? 0);
    const held = Math.max(load.gravity, body, scrub);
    const heldFrom: JointGains['heldFrom'] = held === load.gravity ? 'gravity' : held === body ? 'body' : 'tyre';
    const given = user.get(load.joint) ?? {};
    let p: number;
    let pFrom: JointGains['pFrom'];
    let d: number;
    if (mode === 'velocity_pd') {
      p = given.p ?? inertia * omega;
      pFrom = given.p !== undefined ? 'user' : 'bandwidth';
      d = given.d ?? 0;
    } else {
      const stiff = inertia * omega * omega;
      const holding = held / o.maxSag;
      p = given.p ?? Math.max(stiff, holding);
      pFrom = given.p !== undefined ? 'user' : holding > stiff ? 'sag' : 'bandwidth';
      d = given.d ?? 2 * o.damping * Math.sqrt(p * inertia);
    }
    if (!(inertia > 0)) warnings.push(`${load.joint}: carries no mass, inertia or rotor about its axis; the simulator cannot move it, and gains mean nothing there`);
    index.push(j);
    gains.push({ joint: load.joint, mode, p, d, pFrom, dFrom: given.d !== undefined ? 'user' : 'model', dLowered: false, load, held, heldFrom, inertia, lightest: Infinity, bandwidth: 0, damping: 0, sag: 0, lag: 0 });
  });
  return { gains, index };
}

/**
 * At each sample, the inverse inertia the loop joints see (rows and columns `index` of M⁻¹, with M over the free
 * degrees of freedom: every joint but those the simulator holds in a high-gain mode, and a free root's six).
 */
function freeInverseInertias(loads: Loads, modes: readonly JointMode[], index: readonly number[], warnings: string[]): number[][][] {
  const modeOf = new Map(modes.map((m) => [m.joint, m.mode]));
  const nJoints = loads.joints.length;
  const free: number[] = [];
  for (let i = 0; i < (loads.samples[0]?.inertia.length ?? 0); i++) {
    const mode = i < nJoints ? modeOf.get(loads.joints[i]!.joint) : undefined;
    if (i >= nJoints || mode === undefined || !isHighGain(mode)) free.push(i);
  }
  const inFree = index.map((j) => free.indexOf(j));
  const inverses: number[][][] = [];
  let singular = 0;
  for (const s of loads.samples) {
    const inv = inverseSpd(submatrix(s.inertia, free));
    if (inv) inverses.push(submatrix(inv, inFree));
    else singular++;
  }
  if (singular > 0) warnings.push(`the joint-space inertia is singular at ${singular} of ${loads.samples.length} sampled configurations (a part of the body without mass); the stability check skips them`);
  return inverses;
}

/**
 * Lowers `gain` (damping, or stiffness) of the joints `may` allows in every mode of w·gain whose term
 * (weight × eigenvalue) exceeds `allowed`: each joint by ratio^(its share of the mode's eigenvector / the
 * largest share), so the joints a mode lives in take the cut, and modes that come in clusters (a row of like
 * joints) are cut at once. Returns whether anything was cut.
 */
function lowerModes(w: number[][], gain: number[], weight: number, allowed: number, may: (i: number) => boolean): boolean {
  const { values, vectors } = symmetricEigen(scaledSymmetric(w, gain.map(Math.sqrt)));
  const factor = gain.map(() => 1);
  let any = false;
  values.forEach((value, k) => {
    const term = weight * value;
    if (!(term > allowed)) return;
    const ratio = Math.max(allowed / term, 0.05);
    const share = vectors[k]!.map((v) => v * v);
    const top = Math.max(...share.filter((_, i) => may(i)), 0);
    if (top === 0) return;
    share.forEach((sh, i) => {
      if (may(i)) factor[i] = Math.min(factor[i]!, ratio ** (sh / top));
    });
    any = true;
  });
  factor.forEach((f, i) => (gain[i] = gain[i]! * f));
  return any;
}

/**
 * The stability step (see the header) on `stiffness` and `damping` (velocity loops: their P is a damping),
 * in place; returns the worst sample's evaluation after it.
 */
function stabilise(inverses: readonly number[][][], stiffness: number[], damping: number[], mayStiffen: (i: number) => boolean, mayDamp: (i: number) => boolean, T: number): Evaluation | null {
  const evaluate = (w: number[][]): Evaluation => {
    const alpha = T * T * largestEigenvalue(scaledSymmetric(w, stiffness.map(Math.sqrt)));
    const beta = T * largestEigenvalue(scaledSymmetric(w, damping.map(Math.sqrt)));
    return { margin: alpha + 2 * beta, alpha, beta };
  };
  const worstOf = (): Evaluation | null =>
    inverses.reduce<Evaluation | null>((worst, w) => {
      const e = evaluate(w);
      return worst === null || e.margin > worst.margin ? e : worst;
    }, null);
  // The few worst samples are worked on first (a pass over all of them costs two eigenproblems per sample),
  // then all of them re-checked.
  let worst = worstOf();
  for (let round = 0; worst !== null && worst.margin > STABILITY_TARGET && round < 20; round++) {
    const ranked = inverses.map((w) => ({ w, m: evaluate(w).margin })).sort((a, b) => b.m - a.m);
    const working = ranked.filter((r) => r.m > STABILITY_TARGET).slice(0, 8).map((r) => r.w);
    let changed = false;
    for (let step = 0; step < 50; step++) {
      let cut = false;
      for (const w of working) {
        const e = evaluate(w);
        if (e.margin <= STABILITY_TARGET) continue;
        // Room left for damping once the stiffness term is counted; a stiffness term over half the target leaves too little.
        if (e.alpha > STABILITY_TARGET / 2) cut = lowerModes(w, stiffness, T * T, STABILITY_TARGET / 2, mayStiffen) || cut;
        const room = STABILITY_TARGET - Math.min(e.alpha, STABILITY_TARGET / 2);
        cut = lowerModes(w, damping, 2 * T, room, mayDamp) || cut;
      }
      if (!cut) break;
      changed = true;
    }
    worst = worstOf();
    if (!changed) break; // nothing adjustable is left to lower
  }
  return worst;
}

/**
 * Gains for every joint in a PD mode. `extraInertia` adds to a joint's heaviest inertia (a drive wheel
 * also turns its share of the body through the ground); `user` gains replace the model's.
 */
export function designGains(
  loads: Loads,
  modes: readonly JointMode[],
  options: GainOptions = {},
  user: ReadonlyMap<string, UserGains> = new Map(),
  extraInertia: ReadonlyMap<string, number> = new Map(),
  carried: ReadonlyMap<string, number> = new Map(),
  tyre: ReadonlyMap<string, number> = new Map(),
): GainDesign {
  const o = pick(options);
  const T = o.timeStep;
  const warnings: string[] = [];
  const { gains, index } = formulaGains(loads, modes, o, user, extraInertia, carried, tyre, warnings);
  const inverses = freeInverseInertias(loads, modes, index, warnings);
  for (const w of inverses) gains.forEach((g, i) => (g.lightest = Math.min(g.lightest, 1 / w[i]![i]!)));
  const stiffness = gains.map((g) => (g.mode === 'velocity_pd' ? 0 : g.p));
  const damping = gains.map((g) => (g.mode === 'velocity_pd' ? g.p : g.d));
  const worst = stabilise(
    inverses,
    stiffness,
    damping,
    (i) => gains[i]!.pFrom !== 'user' && gains[i]!.dFrom !== 'user' && gains[i]!.mode !== 'velocity_pd',
    (i) => (gains[i]!.mode === 'velocity_pd' ? gains[i]!.pFrom !== 'user' : gains[i]!.dFrom !== 'user'),
    T,
  );

  gains.forEach((g, i) => {
    if (g.mode === 'velocity_pd') {
      g.dLowered = g.pFrom !== 'user' && damping[i]! < g.p * LOWERED;
      g.p = damping[i]!;
      g.bandwidth = g.p / g.inertia / (2 * Math.PI);
      g.sag = g.load.gravity / g.p;
      if (g.d > 0 && g.d >= g.lightest) warnings.push(`${g.joint}: D ${g.d} ≥ its lightest inertia ${g.lightest.toPrecision(3)}: velocity_pd's D acts on the last step's acceleration, and the loop oscillates`);
      return;
    }
    g.dLowered = g.dFrom !== 'user' && damping[i]! < g.d * LOWERED;
    if (stiffness[i]! < g.p * LOWERED) warnings.push(`${g.joint}: P lowered from ${g.p.toPrecision(4)} to ${stiffness[i]!.toPrecision(4)} for stability at the ${T * 1000} ms step`);
    g.p = stiffness[i]!;
    g.d = damping[i]!;
    g.bandwidth = Math.sqrt(g.p / g.inertia) / (2 * Math.PI);
    g.damping = g.d / (2 * Math.sqrt(g.p * g.inertia));
    g.sag = g.held / g.p;
    g.lag = g.d / g.p;
  });
  const final = worst ?? { margin: 0, alpha: 0, beta: 0 };
  if (final.margin > STABILITY_TARGET) {
    warnings.push(
      `the loop's stability margin at the ${T * 1000} ms step is ${final.margin.toFixed(2)} (α ${final.alpha.toFixed(2)} + 2β ${(2 * final.beta).toFixed(2)}; ` +
        `unstable from ${STABILITY_BOUND}, the design keeps to ${STABILITY_TARGET})${gains.some((g) => g.pFrom === 'user' || g.dFrom === 'user') ? ': lower the gains given by the gains file' : ''}`,
    );
  }
  for (const g of gains) {
    if (g.mode !== 'velocity_pd' && g.pFrom !== 'user' && g.sag > o.maxSag * (1 + 1e-9)) {
      const what = g.heldFrom === 'body' ? 'sag under the body it carries through the ground' : g.heldFrom === 'tyre' ? "sag against the tyre's friction on the floor" : 'gravity sag';
      warnings.push(`${g.joint}: ${what} up to ${g.sag.toPrecision(3)} ${g.load.type === 'prismatic' ? 'm' : 'rad'}, over the ${o.maxSag} asked: P was lowered for stability`);
    }
  }
  return { joints: gains, margin: final.margin, stiffnessTerm: final.alpha, dampingTerm: final.beta, options: o, warnings };
}
