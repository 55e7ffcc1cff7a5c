// Measurement 2: JointState → TF throughput of the node's complete per-message work (bridge over
// the in-memory transport), against robot_state_publisher's per-message work on KDL in C++.
import type { RobotModel } from '../src/model/types.js';
import { writeJointState } from '../src/cdr/joint-state.js';
import type { JointState, TFMessage, Time, TransformStamped } from '../src/messages/messages.js';
import { writeStamp } from '../src/cdr/header-splice.js';
import { runKdlPeer } from './kdl.js';
import { type Repetitions, type Stats, mapStats, summarize } from './stats.js';

/** One running bridge for one model: feeds joint states in, collects what went out on /tf. */
export interface TfDriver {
  /** A serialized JointState (CDR) stamped `stamp`, as the node receives it from rclnodejs. */
  send(bytes: Uint8Array, stamp: Time): void;
  /** TF messages published on /tf since the last call; the driver forgets them. */
  drain(): TFMessage[];
  stop(): void;
}

export type StartTfDriver = (model: RobotModel) => TfDriver;

export interface TfCase {
  name: string;
  links: number;
  movingJoints: number;
  messages: number;
  /** JointState messages handled per second (median over repetitions, spread). */
  oursUpdatesPerSec: Stats;
  peerUpdatesPerSec: Stats;
  /** Transforms per message on each side (must agree: same work). */
  oursTransformsPerMessage: number;
  peerTransformsPerMessage: number;
  /** peer / ours updates per second: how many times slower body_bridge is than the KDL harness. */
  ratio: number;
  /** The last message's transforms compared, frame by frame, between the bridge and KDL. */
  agreement: { compared: number; missing: number; maxTranslationError: number; maxQuaternionError: number };
}

/** Deterministic positions in (−1.5, 1.5) rad/m, so every case and both sides see the same inputs. */
export function jointPositions(seed: number, messages: number, joints: number): number[][] {
  let s = seed >>> 0;
  const next = (): number => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: messages }, () => Array.from({ length: joints }, () => 3 * next() - 1.5));
}

export const movingJointNames = (model: RobotModel): string[] =>
  model.links
    .filter((l) => l.parent !== null && (l.joint.type === 'revolute' || l.joint.type === 'prismatic'))
    .map((l) => l.joint.name);

/** The last message's transforms of both sides, matched by child frame (q and −q count as equal). */
export function compareLast(ours: readonly TransformStamped[], theirs: ReturnType<typeof runKdlPeer>['last']): TfCase['agreement'] {
  const byChild = new Map(ours.map((t) => [t.child_frame_id, t]));
  let missing = 0;
  let compared = 0;
  let dt = 0;
  let dq = 0;
  for (const k of theirs) {
    const o = byChild.get(k.child);
    if (!o || o.header.frame_id !== k.parent) {
      missing++;
      continue;
    }
    compared++;
    const t = o.transform.translation;
    dt = Math.max(dt, Math.hypot(t.x - k.t[0], t.y - k.t[1], t.z - k.t[2]));
    const q = o.transform.rotation;
    // q and −q are the same rotation: compare with whichever sign is closer. (Not an angle via
    // acos: near 1 it turns a 1e-16 difference into 1e-8.)
    const minus = Math.hypot(q.x - k.q[0], q.y - k.q[1], q.z - k.q[2], q.w - k.q[3]);
    const plus = Math.hypot(q.x + k.q[0], q.y + k.q[1], q.z + k.q[2], q.w + k.q[3]);
    dq = Math.max(dq, Math.min(minus, plus));
  }
  missing += Math.max(0, ours.length - compared - missing);
  return { compared, missing, maxTranslationError: dt, maxQuaternionError: dq };
}

export interface TfCaseInput {
  name: string;
  model: RobotModel;
  urdf: string;
  messages: number;
  reps: Repetitions;
  kdlBinary: string;
  workDir: string;
}

/** Stamps 0.1 s apart: above the default 20 Hz publish_frequency, so every message publishes every moving joint. */
const STAMP_STEP_NS = 100_000_000;

export function measureTfCase(start: StartTfDriver, c: TfCaseInput): TfCase {
  const names = movingJointNames(c.model);
  const positions = jointPositions(0x5eed, c.messages, names.length);
  const peer = runKdlPeer(c.kdlBinary, c.workDir, c.name.replace(/[^A-Za-z0-9_.-]/g, '_'), c.urdf, names, positions, c.reps);

  const messages: JointState[] = positions.map((position) => ({
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' },
    name: names,
    position,
    velocity: [],
    effort: [],
  }));
  // Serialized once; each send writes its stamp in place, outside the node's work but inside the loop.
  const encoded = messages.map((m) => writeJointState(m));
  const driver = start(c.model);
  let stampNs = 1_000_000_000;
  let published = 0;
  let last: TFMessage | undefined;
  const seconds: number[] = [];
  try {
    for (let r = 0; r < c.reps.warmup + c.reps.reps; r++) {
      const t0 = performance.now();
      for (const bytes of encoded) {
        stampNs += STAMP_STEP_NS;
        const stamp = { sec: Math.floor(stampNs / 1e9), nanosec: stampNs % 1e9 };
        writeStamp(bytes, stamp);
        driver.send(bytes, stamp);
      }
      const t1 = performance.now();
      if (r >= c.reps.warmup) seconds.push((t1 - t0) / 1000);
      const out = driver.drain();
      for (const tf of out) published += tf.transforms.length;
      last = out[out.length - 1] ?? last;
    }
  } finally {
    driver.stop();
  }
  const totalMessages = c.messages * (c.reps.warmup + c.reps.reps);
  // A ratio only means something for the same work with the same answer: refuse it otherwise.
  const expected = names.length * totalMessages;
  if (published !== expected || peer.published_transforms !== expected) {
    throw new Error(
      `not the same work: ${names.length} moving joints × ${totalMessages} messages = ${expected} transforms expected, ` +
        `body_bridge published ${published}, the KDL harness ${peer.published_transforms}`,
    );
  }
  const agreement = compareLast(last?.transforms ?? [], peer.last);
  if (agreement.missing > 0 || agreement.compared !== names.length || agreement.maxTranslationError > 1e-9 || agreement.maxQuaternionError > 1e-9) {
    throw new Error(`not the same answer: the last message's transforms differ from KDL's (${JSON.stringify(agreement)})`);
  }
  const ours = mapStats(summarize(seconds), (s) => c.messages / s);
  const theirs = mapStats(summarize(peer.seconds), (s) => c.messages / s);
  return {
    name: c.name,
    links: c.model.links.length,
    movingJoints: names.length,
    messages: c.messages,
    oursUpdatesPerSec: ours,
    peerUpdatesPerSec: theirs,
    oursTransformsPerMessage: published / totalMessages,
    peerTransformsPerMessage: peer.published_transforms / totalMessages,
    ratio: theirs.median / ours.median,
    agreement,
  };
}
