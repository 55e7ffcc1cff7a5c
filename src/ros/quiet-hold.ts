// When a raw subscriber says that nothing arriving in the next few ms can change its output (Transport.subscribeRaw's
// quiet period), a transport may stop waking for that topic until then: the middleware's queue keeps the newest
// messages, taken in one go afterwards. robot_state_publisher's rule is the case: at 1 kHz joint_states and
// publish_frequency 20, 49 of every 50 messages publish nothing, and for an rclnodejs node each message taken
// is a wake of its executor (a thread hand-over, the wait set rebuilt) that costs more than the message's own work.
// A hold costs wakes of its own (rclnodejs syncs its handles once to leave the topic out and once to take it
// back), so it is taken only where it saves several messages.

/**
 * A hold must skip at least this many messages at the topic's pace to be worth its own cost. Measured on Choreonoid's
 * rover (joint_states at 100 Hz beside /clock, ~4 messages a hold): holding cost a little more than it saved
 * (BENCHMARKS.md, 30 Nov 2026); at 1 kHz a hold skips ~43.
 */
export const MIN_MESSAGES_SKIPPED = 8;

/** The pace at which a subscription's messages wake the node, measured while it is not held. */
export interface WakePace {
  /** Wall time (ns) of the previous wake, or null (none yet, or the last one ended a hold). */
  lastWakeNs: bigint | null;
  /** Moving mean of the gap between wakes (ns); 0 until measured. */
  meanGapNs: number;
}

export const newWakePace = (): WakePace => ({ lastWakeNs: null, meanGapNs: 0 });

// An eighth of each new gap: a few dozen messages settle it, one late message does not swing it.
const WEIGHT = 1 / 8;

/** One wake of the subscription (its first message taken) at wall time `nowNs`. */
export function noteWake(pace: WakePace, nowNs: bigint): void {
  if (pace.lastWakeNs !== null) {
    const gap = Number(nowNs - pace.lastWakeNs);
    pace.meanGapNs = pace.meanGapNs === 0 ? gap : pace.meanGapNs + (gap - pace.meanGapNs) * WEIGHT;
  }
  pace.lastWakeNs = nowNs;
}

/** The wake after a hold measures the hold, not the topic's pace. */
export function forgetLastWake(pace: WakePace): void {
  pace.lastWakeNs = null;
}

/** Whether holding the topic for `quietMs` skips enough wakes at its measured pace to pay for itself. */
export function holdWorthIt(pace: WakePace, quietMs: number): boolean {
  if (!(quietMs > 0) || !(pace.meanGapNs > 0)) return false;
  return (quietMs * 1e6) / pace.meanGapNs >= MIN_MESSAGES_SKIPPED;
}
