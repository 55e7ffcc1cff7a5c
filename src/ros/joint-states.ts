// What robot_state_publisher does with one sensor_msgs/JointState (callbackJointState in
// robot_state_publisher.cpp, rolling): drop a message whose name and position lengths differ; when the
// node's clock has gone backwards (a bag replayed from the start) forget when each joint was last
// published; publish only when the message's stamp is at least one publish interval after the least
// recently published of its joints (unless ignore_timestamp), then remember the stamp for every named
// joint. On top of that it skips — instead of publishing garbage — unknown joints and NaN/Inf values.
// Unlike robot_state_publisher, only the model's joints enter the timestamp cache: a publisher that
// names ever-new joints must not grow it, and a name the model lacks cannot be throttled meaningfully.
// And a stamp that is not a valid builtin_interfaces/Time (nanosec >= 1e9) or lies far ahead of the node
// clock is dropped: let into the cache it would hold /tf back until the clock caught up (for a stamp at
// 2^31 s, for good), and published it would make tf2 listeners refuse every later transform of those
// frames as older than their cache. Stamps that jump far back clear the cache, as the node clock going
// back does, and a message from before the clock went back, delivered after it, is not let in either.
import type { Time } from '../messages/messages.js';

/** What handleJointState reads of a sensor_msgs/JointState (src/cdr/joint-state.ts reads just this). */
export interface JointStateInput {
  header: { stamp: Time };
  name: readonly string[];
  position: ArrayLike<number>;
}

export interface ThrottleState {
  /** Joint name → stamp (ns) of the message that last published it. Changed only by handleJointState. */
  lastPublished: Map<string, bigint>;
  /** Node clock (ns) at the previous message, to detect time going backwards. */
  lastCallback: bigint | null;
  /** The node clock (ns) before it last went backwards, until it has caught up with it again (see STRAGGLER_LEAD_NS). */
  jumpedFrom: bigint | null;
  /**
   * What handleJointState worked out for the last names array it saw (the reader hands over the same array
   * while the names do not change): which names the model knows, and, while lastPublished has not changed
   * since (`version`), the least recent and oldest cached stamps over them. A publisher at 1 kHz with
   * publish_frequency 20 sends 50 messages per publish: 49 of them then need no lookup per joint.
   */
  names: NamesCache | null;
  /** Bumped whenever lastPublished changes. */
  version: number;
}

interface NamesCache {
  names: readonly string[];
  isKnownJoint: (name: string) => boolean;
  unknown: readonly string[];
  /** Per name, in message order: whether the model knows it. */
  known: readonly boolean[];
  /** lastPublished's version the two stamps below were taken at; -1 = not taken. */
  version: number;
  /** The least recent publication over the known names (0 for one never published). */
  leastRecent: bigint;
  /** The oldest cached stamp over the known names, null when none is cached. */
  oldestCached: bigint | null;
}

export const newThrottleState = (): ThrottleState => ({ lastPublished: new Map(), lastCallback: null, jumpedFrom: null, names: null, version: 0 });

/**
 * A message stamped this far (ns) ahead of a node clock that has just gone backwards, and no further past where the
 * clock was before, was sent before the jump and delivered after it (a simulation restarted under joint_states at
 * 1 kHz: the old run's last messages can come after the new run's first /clock). robot_state_publisher would
 * publish and cache it, and then hold /tf back until the new run's stamps passed it — the old run's whole length.
 * A live publisher's stamps lead the clock by a step or two, far less than this.
 */
export const STRAGGLER_LEAD_NS = 500_000_000n;

function namesCache(state: ThrottleState, names: readonly string[], isKnownJoint: (name: string) => boolean): NamesCache {
  const cached = state.names;
  if (cached !== null && cached.names === names && cached.isKnownJoint === isKnownJoint) return cached;
  const known = names.map((n) => isKnownJoint(n));
  const fresh: NamesCache = { names, isKnownJoint, unknown: names.filter((_, i) => !known[i]), known, version: -1, leastRecent: 0n, oldestCached: null };
  state.names = fresh;
  return fresh;
}

/** The cached stamps over the known names of `c`, from lastPublished as it is now. */
function cachedStamps(state: ThrottleState, c: NamesCache): NamesCache {
  if (c.version === state.version) return c;
  let leastRecent: bigint | null = null;
  let oldestCached: bigint | null = null;
  for (let i = 0; i < c.names.length; i++) {
    if (!c.known[i]) continue;
    const t = state.lastPublished.get(c.names[i]!);
    if (t !== undefined && (oldestCached === null || t < oldestCached)) oldestCached = t;
    // A joint never published counts as published at time 0, as in robot_state_publisher.
    const v = t ?? 0n;
    if (leastRecent === null || v < leastRecent) leastRecent = v;
  }
  c.leastRecent = leastRecent ?? 0n;
  c.oldestCached = oldestCached;
  c.version = state.version;
  return c;
}

export interface JointStateIssue {
  /** Groups repeated warnings for throttling, e.g. `unknown:elbow`. */
  key: string;
  level: 'warn' | 'error';
  message: string;
}

export interface JointStateResult {
  /** Joint positions to publish (known joints with finite values, in message order); null = nothing to publish. */
  publish: Map<string, number> | null;
  issues: JointStateIssue[];
}

export const stampNs = (t: Time): bigint => BigInt(t.sec) * 1_000_000_000n + BigInt(t.nanosec);

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** Why `t` is not a builtin_interfaces/Time (sec any int32, nanosec in [0, 1e9)), or null when it is. */
export function invalidStamp(t: Time): string | null {
  const { sec, nanosec } = t as { sec: unknown; nanosec: unknown };
  if (!Number.isInteger(sec) || (sec as number) < INT32_MIN || (sec as number) > INT32_MAX) return `sec ${String(sec).slice(0, 40)} is not an int32`;
  if (!Number.isInteger(nanosec) || (nanosec as number) < 0 || (nanosec as number) >= 1e9) {
    return `nanosec ${String(nanosec).slice(0, 40)} is not in [0, 1e9)`;
  }
  return null;
}

const seconds = (ns: bigint): string => (Number(ns) / 1e9).toFixed(3).replace(/\.?0+$/, '');

/** Names from a message go into log lines: a megabyte-long name must not become a megabyte-long line. */
export const MAX_LOGGED_NAME = 100;
/** How many unknown joint names one warning lists before summarising the rest as a count. */
export const MAX_LOGGED_NAMES = 5;

export function loggedName(name: string): string {
  const text = String(name);
  return text.length <= MAX_LOGGED_NAME ? `'${text}'` : `'${text.slice(0, MAX_LOGGED_NAME)}…' (${text.length} characters)`;
}

function unknownJointsIssue(names: readonly string[]): JointStateIssue {
  if (names.length === 1) return { key: 'unknown', level: 'warn', message: `ignoring unknown joint ${loggedName(names[0]!)} in joint_states` };
  const listed = names.slice(0, MAX_LOGGED_NAMES).map(loggedName).join(', ');
  const rest = names.length > MAX_LOGGED_NAMES ? `, … (${names.length - MAX_LOGGED_NAMES} more)` : '';
  return { key: 'unknown', level: 'warn', message: `ignoring ${names.length} unknown joints in joint_states: ${listed}${rest}` };
}

/** robot_state_publisher's interval: whole milliseconds of 1000 / publish_frequency; 0 Hz disables throttling. */
export function publishIntervalNs(publishFrequency: number): bigint {
  if (!(publishFrequency > 0)) return 0n;
  return BigInt(Math.floor(1000 / publishFrequency)) * 1_000_000n;
}

export function handleJointState(
  state: ThrottleState,
  msg: JointStateInput,
  nowNs: bigint,
  options: {
    publishFrequency: number;
    ignoreTimestamp: boolean;
    isKnownJoint: (name: string) => boolean;
    /**
     * How far (ns) a stamp may lie ahead of the node clock (further: dropped) or behind the cached stamps of
     * its joints (further: the cache is cleared); 0 = no such checks (robot_state_publisher).
     */
    stampToleranceNs?: bigint;
  },
): JointStateResult {
  const issues: JointStateIssue[] = [];
  const names = msg.name ?? [];
  const positions = msg.position ?? [];
  if (names.length !== positions.length) {
    issues.push(
      positions.length === 0
        ? {
            key: 'empty-position',
            level: 'warn',
            message: `ignored a JointState message about joint(s) ${loggedName(names[0] ?? '')}(,...) whose position member was empty`,
          }
        : {
            key: 'length-mismatch',
            level: 'error',
            message: `ignored an invalid JointState message: ${names.length} names but ${positions.length} positions`,
          },
    );
    return { publish: null, issues };
  }

  const bad = invalidStamp(msg.header.stamp);
  if (bad) {
    issues.push({ key: 'invalid-stamp', level: 'warn', message: `ignored a JointState message with an invalid stamp: ${bad}` });
    return { publish: null, issues };
  }
  const stamp = stampNs(msg.header.stamp);

  if (state.lastCallback !== null && state.lastCallback > nowNs) {
    issues.push({ key: 'backwards', level: 'warn', message: 'Moved backwards in time, re-publishing joint transforms!' });
    state.lastPublished.clear();
    state.version++;
    state.jumpedFrom = state.jumpedFrom !== null && state.jumpedFrom > state.lastCallback ? state.jumpedFrom : state.lastCallback;
  }
  state.lastCallback = nowNs;
  if (state.jumpedFrom !== null && nowNs >= state.jumpedFrom) state.jumpedFrom = null;
  // The old run went on a little past the last message this node saw of it: up to the same lead past that point.
  if (state.jumpedFrom !== null && !options.ignoreTimestamp && stamp - nowNs > STRAGGLER_LEAD_NS && stamp <= state.jumpedFrom + STRAGGLER_LEAD_NS) {
    return { publish: null, issues };
  }

  // A node clock at 0 is sim time before the first /clock message: nothing to measure the stamp against.
  // ignore_timestamp is usually set because a publisher's clock cannot be trusted: its word is kept, the
  // stamps are neither checked nor cached against.
  const maxLead = options.ignoreTimestamp ? 0n : (options.stampToleranceNs ?? 0n);
  if (maxLead > 0n && nowNs > 0n && stamp - nowNs > maxLead) {
    issues.push({
      key: 'future-stamp',
      level: 'warn',
      message:
        `ignored a JointState message stamped ${seconds(stamp - nowNs)} s ahead of the node clock (more than ` +
        `stamp_tolerance = ${seconds(maxLead)} s): check the publisher's clock and use_sim_time`,
    });
    return { publish: null, issues };
  }

  // One warning per message (and the warning throttle makes it one per window), however many names it
  // has; the model's joints are all the throttle below looks at.
  const c = namesCache(state, names, options.isKnownJoint);
  if (c.unknown.length > 0) issues.push(unknownJointsIssue(c.unknown));
  if (c.unknown.length === names.length) return { publish: null, issues };

  const { leastRecent: cachedLeast, oldestCached } = cachedStamps(state, c);
  let leastRecent = cachedLeast < nowNs ? cachedLeast : nowNs;
  // The publisher's time went back by more than reordering explains (a simulation restarted, a bag looping,
  // while this node runs on wall time): forget the cache as for the node clock going back, or /tf would
  // wait for the stamps to catch up with the old ones.
  if (maxLead > 0n && oldestCached !== null && oldestCached - stamp > maxLead) {
    issues.push({
      key: 'stamps-backwards',
      level: 'warn',
      message: `joint_states stamps moved back ${seconds(oldestCached - stamp)} s (a restarted publisher or a looping bag?), re-publishing joint transforms`,
    });
    state.lastPublished.clear();
    state.version++;
    leastRecent = 0n;
  }
  if (!options.ignoreTimestamp && stamp < leastRecent + publishIntervalNs(options.publishFrequency)) {
    return { publish: null, issues };
  }

  const publish = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    if (!c.known[i]) continue;
    const name = names[i]!;
    const q = positions[i]!;
    if (!Number.isFinite(q)) {
      issues.push({ key: `nonfinite:${name}`, level: 'warn', message: `skipping joint ${loggedName(name)}: position ${String(q).slice(0, 40)} is not finite` });
    } else {
      publish.set(name, q);
    }
    state.lastPublished.set(name, stamp);
  }
  state.version++;
  return { publish, issues };
}

/**
 * How fast joint_states stamps advance against wall time, from the last two messages that published: a simulation
 * may run faster or slower than real time, and quietPeriodMs turns stamp time into wall time with it.
 */
export interface StampPace {
  /** Stamp and wall time (ns) of the last message that published, or null. */
  last: { stampNs: bigint; wallNs: bigint } | null;
  /** Stamp ns per wall ns over the last two such messages, or null (not measured, or not usable). */
  rate: number | null;
  /** The least recent stamp in lastPublished as of the throttle's `version` (-1: not worked out). */
  leastRecent: { version: number; ns: bigint | null };
}

export const newStampPace = (): StampPace => ({ last: null, rate: null, leastRecent: { version: -1, ns: null } });

/** Records a message that published /tf, stamped `stampNs`, handled at wall time `wallNs`. */
export function notePublished(pace: StampPace, stampNs: bigint, wallNs: bigint): void {
  const last = pace.last;
  const wall = last === null ? 0n : wallNs - last.wallNs;
  pace.rate = last !== null && wall >= QUIET_MIN_PACE_SPAN_NS && stampNs > last.stampNs ? Number(stampNs - last.stampNs) / Number(wall) : null;
  pace.last = { stampNs, wallNs };
}

/** The pace is measured over at least this much wall time (a burst handled in one go says nothing about it). */
export const QUIET_MIN_PACE_SPAN_NS = 1_000_000n;
/** Stamps faster than this many times wall time: no quiet period (a replay at full speed, a clock gone wild). */
export const QUIET_MAX_RATE = 50;
/** The quiet period ends this share of the time to the next publish early, and QUIET_MARGIN_MS more. */
export const QUIET_SHARE = 0.9;
export const QUIET_MARGIN_MS = 2;
/** Never longer than this, whatever publish_frequency says: the node's other watches see joint_states often enough. */
export const QUIET_MAX_MS = 100;

/**
 * For how many ms of wall time after the message stamped `stampNs` no joint_states message can make /tf publish
 * under handleJointState's rule (Transport.subscribeRaw's quiet period), or 0. A message publishes once its stamp
 * reaches the least recent cached stamp of its joints plus the publish interval, so none can before the least
 * recent over every joint published so far plus the interval. Stamp time becomes wall time at the measured pace
 * (at least real time, so a simulation slower than real time only shortens it). None while the stamps run ahead
 * of the node clock by half an interval (robot_state_publisher also measures against the clock then), nor with
 * ignore_timestamp (every message publishes). What it leaves out: a message naming joints never seen before
 * (a second publisher starting) waits for the period's end, at most one publish interval.
 */
export function quietPeriodMs(
  state: ThrottleState,
  pace: StampPace,
  stampNs: bigint,
  nowNs: bigint,
  options: { publishFrequency: number; ignoreTimestamp: boolean },
): number {
  const interval = publishIntervalNs(options.publishFrequency);
  if (options.ignoreTimestamp || interval === 0n || pace.rate === null || pace.rate > QUIET_MAX_RATE) return 0;
  if (state.jumpedFrom !== null || state.lastPublished.size === 0 || stampNs - nowNs >= interval / 2n) return 0;
  if (pace.leastRecent.version !== state.version) {
    let least: bigint | null = null;
    for (const t of state.lastPublished.values()) if (least === null || t < least) least = t;
    pace.leastRecent = { version: state.version, ns: least };
  }
  const untilNs = pace.leastRecent.ns! + interval - stampNs;
  if (untilNs <= 0n) return 0;
  const ms = (Number(untilNs) / 1e6 / Math.max(1, pace.rate)) * QUIET_SHARE - QUIET_MARGIN_MS;
  return ms > 0 ? Math.min(ms, QUIET_MAX_MS, Number(interval) / 1e6) : 0;
}

/** How many kinds of warning the throttle remembers; beyond that, expired and then oldest kinds are forgotten. */
export const MAX_WARNING_KINDS = 256;

/** Lets each kind of warning through at most once per `periodNs`, counting what it held back. */
export function createWarningThrottle(
  periodNs: bigint,
  maxKinds = MAX_WARNING_KINDS,
): (key: string, nowNs: bigint) => { emit: boolean; suppressed: number } {
  const seen = new Map<string, { at: bigint; suppressed: number }>();
  const inWindow = (at: bigint, nowNs: bigint): boolean => nowNs >= at && nowNs - at < periodNs;
  const makeRoom = (nowNs: bigint): void => {
    for (const [key, entry] of seen) if (!inWindow(entry.at, nowNs)) seen.delete(key);
    // Still full of live windows: the oldest kind goes (Map order is insertion order), so at worst
    // one of its warnings comes early.
    while (seen.size >= maxKinds) seen.delete(seen.keys().next().value as string);
  };
  return (key, nowNs) => {
    const entry = seen.get(key);
    if (entry && inWindow(entry.at, nowNs)) {
      entry.suppressed++;
      return { emit: false, suppressed: entry.suppressed };
    }
    const suppressed = entry?.suppressed ?? 0;
    seen.delete(key);
    if (seen.size >= maxKinds) makeRoom(nowNs);
    seen.set(key, { at: nowNs, suppressed: 0 });
    return { emit: true, suppressed };
  };
}
