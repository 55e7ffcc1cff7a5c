// The node stops taking joint_states while no message can make /tf publish (quietPeriodMs, quiet-hold.ts). What it
// publishes must not change: every stream below goes through the node on the memory transport, which holds a
// subscription as the rclnodejs transport does (the newest 5 kept meanwhile), and its /tf is compared with
// robot_state_publisher's rule applied here to every message sent: publish when the stamp reaches the least recent
// stamp its joints were published with, plus 1 / publish_frequency.
import { describe, expect, it } from 'vitest';
import type { TFMessage } from '../src/messages/messages.js';
import {
  handleJointState,
  newStampPace,
  newThrottleState,
  notePublished,
  QUIET_MARGIN_MS,
  QUIET_MAX_MS,
  QUIET_SHARE,
  quietPeriodMs,
} from '../src/ros/joint-states.js';
import { forgetLastWake, holdWorthIt, MIN_MESSAGES_SKIPPED, newWakePace, noteWake } from '../src/ros/quiet-hold.js';
import { at, jointState, rig } from './support/ros-rig.js';
import { sampleRobot } from './support/urdf-models.js';

const MS = 1_000_000n;
const T0 = 2000n * 1_000_000_000n;
const CHILD: Record<string, string> = { shoulder: 'arm', wheel_joint: 'wheel', slide: 'slider', free_slide: 'free_slider' };
const timeOf = (ns: bigint) => at(Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n));
const nsOf = (t: { sec: number; nanosec: number }): bigint => BigInt(t.sec) * 1_000_000_000n + BigInt(t.nanosec);

interface Source {
  joints: string[];
  /** Wall ms between its messages. */
  everyMs: number;
  fromMs?: number;
}

interface Stream {
  name: string;
  sources: Source[];
  ms: number;
  /** Stamp ms per wall ms. */
  rate?: number;
  /** Where stamps start, relative to the node clock (ns). */
  stampOffsetNs?: bigint;
  publishFrequency?: number;
  ignoreTimestamp?: boolean;
  /** The most of the messages sent that the node may take (default 0.4). */
  takes?: number;
}

type Sent = { stampNs: bigint; names: string[] };

/** robot_state_publisher's rule (Humble's JointStateListener::callbackJointState), over every message. */
function expected(sent: readonly Sent[], publishFrequency: number, ignoreTimestamp: boolean): string[] {
  const interval = BigInt(Math.floor(1000 / publishFrequency)) * MS;
  const last = new Map<string, bigint>();
  const out: string[] = [];
  for (const m of sent) {
    const least = m.names.reduce((min, n) => ((last.get(n) ?? 0n) < min ? (last.get(n) ?? 0n) : min), 1n << 62n);
    if (!ignoreTimestamp && m.stampNs < least + interval) continue;
    for (const n of m.names) last.set(n, m.stampNs);
    out.push(`${m.stampNs} ${m.names.map((n) => CHILD[n]).sort().join(',')}`);
  }
  return out;
}

function run(stream: Stream) {
  const r = rig(sampleRobot(), { publish_frequency: stream.publishFrequency ?? 20, ignore_timestamp: stream.ignoreTimestamp ?? false });
  const t = r.transport;
  const start = nsOf(t.now());
  const sent: Sent[] = [];
  for (let ms = 1; ms <= stream.ms; ms++) {
    t.advance(1);
    const stampNs = start + (stream.stampOffsetNs ?? 0n) + BigInt(Math.round(ms * (stream.rate ?? 1) * 1e6));
    for (const s of stream.sources) {
      if (ms < (s.fromMs ?? 0) || (ms - (s.fromMs ?? 0)) % s.everyMs !== 0) continue;
      t.inject('joint_states', jointState(timeOf(stampNs), s.joints, s.joints.map(() => 0.1)));
      sent.push({ stampNs, names: s.joints });
    }
  }
  const tf = t.published.filter((p) => p.topic === '/tf');
  const published = tf.map((p) => (p.message as TFMessage).transforms).map((ts) => `${nsOf(ts[0]!.header.stamp)} ${ts.map((x) => x.child_frame_id).sort().join(',')}`);
  // How long after its message arrived each /tf went out (the clock at publishing minus the stamp, for stamps on
  // the node clock): a hold that ended after the message it should have published on shows here.
  const latest = tf.reduce((max, p) => {
    const late = nsOf(p.at) - nsOf((p.message as TFMessage).transforms[0]!.header.stamp);
    return late > max ? late : max;
  }, 0n);
  return { published, sent, taken: t.taken('joint_states'), latest };
}

const ARM = { joints: ['shoulder', 'wheel_joint'], everyMs: 1 };

describe('joint_states left untaken while they cannot change /tf', () => {
  it.each<Stream>([
    { name: 'one publisher at 1 kHz, stamps on the node clock', sources: [ARM], ms: 3000 },
    // Half the wall time between publishes, and the five kept in the queue are taken at the end of each hold.
    { name: 'a simulation at twice real time (sim-time stamps, a node on wall time)', sources: [ARM], ms: 3000, rate: 2, stampOffsetNs: -1000n * 1_000_000_000n, takes: 0.5 },
    { name: 'a simulation at half real time', sources: [ARM], ms: 3000, rate: 0.5, stampOffsetNs: -1000n * 1_000_000_000n },
    // Two chains of publishes, each due at its own time.
    { name: 'an arm at 1 kHz and a gripper at 100 Hz on the same topic', sources: [ARM, { joints: ['slide'], everyMs: 10 }], ms: 3000, takes: 0.45 },
    { name: 'publish_frequency 5', sources: [ARM], ms: 3000, publishFrequency: 5 },
    { name: 'publish_frequency 1 (holds never longer than QUIET_MAX_MS)', sources: [ARM], ms: 5000, publishFrequency: 1 },
  ])('$name: the same /tf as robot_state_publisher on every message, from a fraction of them', (stream) => {
    const { published, sent, taken, latest } = run(stream);
    expect(published).toEqual(expected(sent, stream.publishFrequency ?? 20, false));
    expect(published.length).toBeGreaterThanOrEqual(5);
    if (stream.stampOffsetNs === undefined) expect(latest).toBe(0n);
    expect(taken).toBeLessThan(sent.length * (stream.takes ?? 0.4));
  });

  it('ignore_timestamp: every message publishes, so every message is taken', () => {
    const stream: Stream = { name: '', sources: [ARM], ms: 500, ignoreTimestamp: true };
    const { published, sent, taken } = run(stream);
    expect(published).toEqual(expected(sent, 20, true));
    expect(taken).toBe(sent.length);
  });

  it('a publisher at 50 Hz: holds would skip too few messages to pay for themselves, so all are taken', () => {
    const { published, sent, taken } = run({ name: '', sources: [{ joints: ['shoulder'], everyMs: 20 }], ms: 2000 });
    expect(published).toEqual(expected(sent, 20, false));
    expect(taken).toBe(sent.length);
  });

  it('a publisher that starts later (joints not seen before) is on /tf within one publish interval, then follows the rule', () => {
    const late: Source = { joints: ['free_slide'], everyMs: 20, fromMs: 1501 };
    const { published, sent } = run({ name: '', sources: [ARM, late], ms: 3000 });
    const stampsOf = (child: string) => published.filter((p) => p.split(' ')[1] === child).map((p) => BigInt(p.split(' ')[0]!));
    const lateStamps = stampsOf('free_slider');
    const firstSent = sent.find((m) => m.names[0] === 'free_slide')!.stampNs;
    expect(lateStamps[0]! - firstSent).toBeLessThanOrEqual(50n * MS);
    for (let i = 1; i < lateStamps.length; i++) expect(lateStamps[i]! - lateStamps[i - 1]!).toBe(60n * MS);
    // The arm's /tf is what the rule gives over every message.
    expect(published.filter((p) => p.endsWith(' arm,wheel'))).toEqual(expected(sent.filter((m) => m.names[0] === 'shoulder'), 20, false));
  });
});

describe('quietPeriodMs', () => {
  const options = { publishFrequency: 20, ignoreTimestamp: false };
  /** A throttle that has just published `names` at `stampMs`, its pace measured from a publish 50 ms of wall time earlier. */
  const published = (stampMs: number, rate = 1, names = ['a', 'b']) => {
    const state = newThrottleState();
    const pace = newStampPace();
    const stamp = T0 + BigInt(stampMs) * MS;
    notePublished(pace, stamp - BigInt(Math.round(50 * rate)) * MS, 0n);
    notePublished(pace, stamp, 50n * MS);
    for (const n of names) state.lastPublished.set(n, stamp);
    state.version++;
    return { state, pace, stamp };
  };
  const full = 50 * QUIET_SHARE - QUIET_MARGIN_MS;

  it.each([
    ['just published at real-time pace', 1, 0, full],
    ['10 ms later', 1, 10, 40 * QUIET_SHARE - QUIET_MARGIN_MS],
    ['stamps at twice wall time: half the wall time', 2, 0, 25 * QUIET_SHARE - QUIET_MARGIN_MS],
    ['stamps at half wall time: no longer than at real time', 0.5, 0, full],
    ['within the margin of the next publish', 1, 48, 0],
    ['past it', 1, 60, 0],
  ])('%s', (_name, rate, laterMs, ms) => {
    const { state, pace, stamp } = published(0, rate as number);
    const at = stamp + BigInt(laterMs as number) * MS;
    expect(quietPeriodMs(state, pace, at, at + MS, options)).toBeCloseTo(ms as number, 6);
  });

  it('the least recent joint sets the end: a second publisher whose joints are due sooner', () => {
    const { state, pace, stamp } = published(0);
    state.lastPublished.set('gripper', stamp - 30n * MS);
    state.version++;
    expect(quietPeriodMs(state, pace, stamp, stamp, options)).toBeCloseTo(20 * QUIET_SHARE - QUIET_MARGIN_MS, 6);
  });

  it('none without a measured pace, with ignore_timestamp, without publish_frequency, after time went back, or with stamps ahead of the node clock', () => {
    const { state, pace, stamp } = published(0);
    expect(quietPeriodMs(state, newStampPace(), stamp, stamp, options)).toBe(0);
    expect(quietPeriodMs(state, pace, stamp, stamp, { ...options, ignoreTimestamp: true })).toBe(0);
    expect(quietPeriodMs(state, pace, stamp, stamp, { ...options, publishFrequency: 0 })).toBe(0);
    // robot_state_publisher also measures against the node clock when stamps lead it: a message may publish sooner.
    expect(quietPeriodMs(state, pace, stamp, stamp - 25n * MS, options)).toBe(0);
    expect(quietPeriodMs(state, pace, stamp, stamp - 24n * MS, options)).toBeGreaterThan(0);
    expect(quietPeriodMs(newThrottleState(), pace, stamp, stamp, options)).toBe(0);
    const jumped = published(0);
    jumped.state.jumpedFrom = jumped.stamp;
    expect(quietPeriodMs(jumped.state, jumped.pace, jumped.stamp, jumped.stamp, options)).toBe(0);
    // Stamps racing far ahead of wall time (a replay at full speed): no pace to trust.
    const racing = published(0, 60);
    expect(quietPeriodMs(racing.state, racing.pace, racing.stamp, racing.stamp + 100n * MS, options)).toBe(0);
  });

  it('never longer than one publish interval nor QUIET_MAX_MS', () => {
    const { state, pace, stamp } = published(0);
    expect(quietPeriodMs(state, pace, stamp, stamp, { ...options, publishFrequency: 1 })).toBe(QUIET_MAX_MS);
    expect(quietPeriodMs(state, pace, stamp, stamp, { ...options, publishFrequency: 15 })).toBeCloseTo(66 * QUIET_SHARE - QUIET_MARGIN_MS, 6);
  });

  it('the pace is measured only over publishes at least a millisecond of wall time apart, stamps moving forward', () => {
    const pace = newStampPace();
    notePublished(pace, T0, 0n);
    expect(pace.rate).toBeNull();
    notePublished(pace, T0 + 50n * MS, 500_000n);
    expect(pace.rate).toBeNull();
    notePublished(pace, T0 + 100n * MS, 50n * MS);
    expect(pace.rate).toBeCloseTo(50 / 49.5, 9);
    notePublished(pace, T0, 100n * MS);
    expect(pace.rate).toBeNull();
  });

  it('agrees with handleJointState: no message within the period publishes', () => {
    const state = newThrottleState();
    const pace = newStampPace();
    const rules = { ...options, isKnownJoint: () => true };
    const msg = (ms: number) => ({ header: { stamp: timeOf(T0 + BigInt(ms) * MS), frame_id: '' }, name: ['a'], position: [0] });
    for (const ms of [0, 50]) {
      expect(handleJointState(state, msg(ms), T0 + BigInt(ms) * MS, rules).publish).not.toBeNull();
      notePublished(pace, T0 + BigInt(ms) * MS, BigInt(ms) * MS);
    }
    const quiet = quietPeriodMs(state, pace, T0 + 50n * MS, T0 + 50n * MS, options);
    expect(quiet).toBeGreaterThan(40);
    for (let ms = 51; ms < 50 + quiet; ms++) expect(handleJointState(state, msg(ms), T0 + BigInt(ms) * MS, rules).publish, `${ms}`).toBeNull();
    expect(handleJointState(state, msg(100), T0 + 100n * MS, rules).publish).not.toBeNull();
  });
});

describe('whether a hold pays for itself', () => {
  it.each([
    [1, 40, true],
    [1, MIN_MESSAGES_SKIPPED, true],
    [1, MIN_MESSAGES_SKIPPED - 0.5, false],
    [5, 43, true],
    [10, 43, false],
    [20, 43, false],
    [1, 0, false],
  ])('messages every %s ms, quiet for %s ms: %s', (gapMs, quietMs, worth) => {
    const pace = newWakePace();
    for (let i = 0; i < 20; i++) noteWake(pace, BigInt(i * gapMs) * MS);
    expect(holdWorthIt(pace, quietMs)).toBe(worth);
  });

  it('not before the pace is measured, and the wake that ends a hold does not count the hold as a gap', () => {
    const pace = newWakePace();
    noteWake(pace, 0n);
    expect(holdWorthIt(pace, 40)).toBe(false);
    for (let i = 1; i < 20; i++) noteWake(pace, BigInt(i) * MS);
    expect(pace.meanGapNs).toBeCloseTo(1e6, 0);
    forgetLastWake(pace);
    noteWake(pace, 60n * MS);
    expect(pace.meanGapNs).toBeCloseTo(1e6, 0);
    // A slower publisher moves the mean an eighth of the way per message.
    noteWake(pace, 69n * MS);
    expect(pace.meanGapNs).toBeCloseTo(2e6, 0);
  });
});
