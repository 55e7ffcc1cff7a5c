// What robot_state_publisher does with one sensor_msgs/JointState (callbackJointState in
// robot_state_publisher.cpp, rolling): drop a message whose name and position lengths differ; when the
// node's clock has gone backwards (a bag replayed from the start) forget when each joint was last
// published; publish only when the message's stamp is at least one publish interval after the least
// recently published of its joints (unless ignore_timestamp), then remember the stamp for every named
// joint. On top of that it skips — instead of publishing garbage — unknown joints and NaN/Inf values.
import type { JointState, Time } from './messages.js';

export interface ThrottleState {
  /** Joint name → stamp (ns) of the message that last published it. */
  lastPublished: Map<string, bigint>;
  /** Node clock (ns) at the previous message, to detect time going backwards. */
  lastCallback: bigint | null;
}

export const newThrottleState = (): ThrottleState => ({ lastPublished: new Map(), lastCallback: null });

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

/** robot_state_publisher's interval: whole milliseconds of 1000 / publish_frequency; 0 Hz disables throttling. */
export function publishIntervalNs(publishFrequency: number): bigint {
  if (!(publishFrequency > 0)) return 0n;
  return BigInt(Math.floor(1000 / publishFrequency)) * 1_000_000n;
}

export function handleJointState(
  state: ThrottleState,
  msg: JointState,
  nowNs: bigint,
  options: { publishFrequency: number; ignoreTimestamp: boolean; isKnownJoint: (name: string) => boolean },
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
            message: `ignored a JointState message about joint(s) "${names[0] ?? ''}"(,...) whose position member was empty`,
          }
        : {
            key: 'length-mismatch',
            level: 'error',
            message: `ignored an invalid JointState message: ${names.length} names but ${positions.length} positions`,
          },
    );
    return { publish: null, issues };
  }

  if (state.lastCallback !== null && state.lastCallback > nowNs) {
    issues.push({ key: 'backwards', level: 'warn', message: 'Moved backwards in time, re-publishing joint transforms!' });
    state.lastPublished.clear();
  }
  state.lastCallback = nowNs;

  // A joint never published counts as published at time 0, as in robot_state_publisher.
  let leastRecent = nowNs;
  for (const name of names) {
    const t = state.lastPublished.get(name) ?? 0n;
    if (t < leastRecent) leastRecent = t;
  }
  const stamp = stampNs(msg.header.stamp);
  if (!options.ignoreTimestamp && stamp < leastRecent + publishIntervalNs(options.publishFrequency)) {
    return { publish: null, issues };
  }

  const publish = new Map<string, number>();
  names.forEach((name, i) => {
    const q = positions[i]!;
    if (!options.isKnownJoint(name)) {
      issues.push({ key: `unknown:${name}`, level: 'warn', message: `ignoring unknown joint '${name}' in joint_states` });
    } else if (!Number.isFinite(q)) {
      issues.push({ key: `nonfinite:${name}`, level: 'warn', message: `skipping joint '${name}': position ${q} is not finite` });
    } else {
      publish.set(name, q);
    }
  });
  for (const name of names) state.lastPublished.set(name, stamp);
  return { publish, issues };
}

/** Lets each kind of warning through at most once per `periodNs`, counting what it held back. */
export function createWarningThrottle(periodNs: bigint): (key: string, nowNs: bigint) => { emit: boolean; suppressed: number } {
  const seen = new Map<string, { at: bigint; suppressed: number }>();
  return (key, nowNs) => {
    const entry = seen.get(key);
    if (entry && nowNs >= entry.at && nowNs - entry.at < periodNs) {
      entry.suppressed++;
      return { emit: false, suppressed: entry.suppressed };
    }
    const suppressed = entry?.suppressed ?? 0;
    seen.set(key, { at: nowNs, suppressed: 0 });
    return { emit: true, suppressed };
  };
}
