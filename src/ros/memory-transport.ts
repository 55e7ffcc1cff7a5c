// An in-process Transport: the bridge runs on it unchanged in tests and in the dry run. Time and timers
// are manual (advance() moves the clock and fires due timers in order), so nothing depends on real sleeps.
// Wall time is a second manual clock: advance() moves both (a node without sim time), advanceWall() only
// wall time (a simulation paused on /clock).
import type { MessageTypeName, Time } from '../messages/messages.js';
import { releaseBytes } from './lent-bytes.js';
import { qosMismatch } from './qos.js';
import { forgetLastWake, holdWorthIt, newWakePace, noteWake, type WakePace } from './quiet-hold.js';
import { fullyQualifiedName } from './ros-args.js';
import type { Logger, Publisher, QoS, QuietMs, RawPublisher, Transport } from './transport.js';

/**
 * How the memory transport turns CDR bytes into messages and back, for tests that inspect what a raw
 * publisher sent or inject objects into a raw subscription. Tests pass an independent codec, so the
 * bytes the node writes are checked by a decoder that is not its own.
 */
export interface MessageCodec {
  decode(type: MessageTypeName, bytes: Uint8Array): unknown;
  encode(type: MessageTypeName, message: unknown): Uint8Array;
}

export interface Publication {
  topic: string;
  type: MessageTypeName;
  qos: QoS;
  /** The message; for a raw publication, its bytes decoded by the codec, or the bytes when there is none. */
  message: unknown;
  /** What a raw publisher sent. */
  bytes?: Uint8Array;
  /** Clock reading when it was published. */
  at: Time;
}

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  at: Time;
}

export interface TopicInfo {
  topic: string;
  type: MessageTypeName;
  qos: QoS;
  direction: 'publish' | 'subscribe';
}

interface Subscription {
  topic: string;
  type: MessageTypeName;
  qos: QoS;
  onMessage: (message: unknown) => void;
  active: boolean;
  /** Takes CDR bytes (subscribeRaw). */
  raw: boolean;
  /** How often it wakes (raw subscriptions, which may ask for a quiet period). */
  pace: WakePace;
  /** While held (quiet-hold.ts): what arrived meanwhile, the newest qos.depth of it, and the hold's timer. */
  held: { queue: Uint8Array[]; untilNs: bigint; end: () => void } | null;
}

interface ManualTimer {
  periodNs: bigint;
  nextNs: bigint;
  tick: () => void;
  active: boolean;
  order: number;
  /** On wall time (wallTimer) rather than the node clock. */
  wall: boolean;
}

export interface MemoryTransport extends Transport {
  /** Every publication, oldest first. */
  readonly published: Publication[];
  readonly logs: LogRecord[];
  /** Messages published on `topic`, oldest first. */
  messages<T>(topic: string): T[];
  /** The last message on `topic` (what a transient-local late joiner would get), or undefined. */
  last<T>(topic: string): T | undefined;
  /**
   * Delivers `message` to every active subscription of `topic` that a remote publisher with
   * `publisherQoS` (default reliable, volatile) would reach. Returns how many received it. A raw
   * subscription gets a Uint8Array as it is and any other message encoded by the codec (an error
   * without one); an object subscription gets a Uint8Array decoded by the codec.
   */
  inject(topic: string, message: unknown, publisherQoS?: QoS): number;
  /** How many messages on `topic` its subscriptions have taken (what a held one never took is not counted). */
  taken(topic: string): number;
  /** Publishers and subscriptions ever created, in creation order. */
  topics(): TopicInfo[];
  /** Number of active subscriptions and timers (to check that stop functions release everything). */
  active(): { subscriptions: number; timers: number };
  /**
   * Sets the node clock without firing timers (e.g. to simulate a bag replay jumping backwards). Wall time
   * follows forward moves, as it does for a node without sim time, and never goes back. On a jump back, timers
   * on the node clock fall due one period after the new time, as rcl's do.
   */
  setTime(t: Time): void;
  /** Moves the node clock and wall time forward by `ms`, firing every timer that falls due, in time order. */
  advance(ms: number): void;
  /** Moves wall time only (the node clock stands still, as under a paused /clock), firing due wall timers. */
  advanceWall(ms: number): void;
  /** Forgets recorded publications and logs (topics and subscriptions stay). */
  clear(): void;
  /**
   * The rest of the ROS graph as graphNodes() and publisherCount() see it, which a test edits: the other nodes'
   * fully qualified names, and their publishers per resolved topic (the transport's own are not counted).
   */
  readonly graph: { nodes: string[]; publishers: Map<string, number> };
}

const NS_PER_S = 1_000_000_000n;

export const timeToNs = (t: Time): bigint => BigInt(t.sec) * NS_PER_S + BigInt(t.nanosec);
export const nsToTime = (ns: bigint): Time => ({ sec: Number(ns / NS_PER_S), nanosec: Number(ns % NS_PER_S) });

export function createMemoryTransport(
  options: {
    start?: Time;
    /** The node's namespace (default '/'). */
    namespace?: string;
    /** The node's name (default 'body_bridge'). */
    name?: string;
    echoLog?: Logger;
    /** Decodes raw publications and encodes objects injected into raw subscriptions (see MessageCodec). */
    codec?: MessageCodec;
    /**
     * False: record a raw publisher's bytes without copying them, for benchmarks that only count them
     * (the publisher may write over them next time). Default true, as rcl copies on publish.
     */
    copyRaw?: boolean;
  } = {},
): MemoryTransport {
  const codec = options.codec;
  let nowNs = timeToNs(options.start ?? { sec: 1000, nanosec: 0 });
  let wallNs = nowNs;
  const published: Publication[] = [];
  const logs: LogRecord[] = [];
  const subscriptions: Subscription[] = [];
  const timers: ManualTimer[] = [];
  const topicList: TopicInfo[] = [];
  let timerOrder = 0;

  const record = (level: LogRecord['level']) => (message: string) => {
    logs.push({ level, message, at: nsToTime(nowNs) });
    options.echoLog?.[level](message);
  };

  const addTimer = (periodMs: number, tick: () => void, wall: boolean): (() => void) => {
    const periodNs = BigInt(Math.max(1, Math.round(periodMs * 1e6)));
    const timer: ManualTimer = { periodNs, nextNs: (wall ? wallNs : nowNs) + periodNs, tick, active: true, order: timerOrder++, wall };
    timers.push(timer);
    return () => {
      timer.active = false;
    };
  };

  /** Moves wall time (and the node clock when `nodeClockMoves`) by `ms`, firing due timers in time order. */
  const run = (ms: number, nodeClockMoves: boolean): void => {
    const span = BigInt(Math.round(ms * 1e6));
    const nodeStart = nowNs;
    const wallStart = wallNs;
    // Both clocks move together, so a timer's due time is compared as an offset into this step.
    const offsetOf = (t: ManualTimer): bigint => t.nextNs - (t.wall ? wallStart : nodeStart);
    for (;;) {
      let due: ManualTimer | undefined;
      for (const t of timers) {
        if (!t.active || (!t.wall && !nodeClockMoves) || offsetOf(t) > span) continue;
        if (!due || offsetOf(t) < offsetOf(due) || (offsetOf(t) === offsetOf(due) && t.order < due.order)) due = t;
      }
      if (!due) break;
      const offset = offsetOf(due);
      if (nodeClockMoves) nowNs = nodeStart + offset;
      wallNs = wallStart + offset;
      due.nextNs += due.periodNs;
      due.tick();
    }
    if (nodeClockMoves) nowNs = nodeStart + span;
    wallNs = wallStart + span;
  };

  // A raw subscription is held as rclnodejs's transport holds one: once a message's quiet period would skip
  // enough messages at the pace they have been arriving on the wall clock. What arrives meanwhile waits in a queue
  // that keeps the newest qos.depth (KEEP_LAST), delivered in one go when the period ends.
  const takenByTopic = new Map<string, number>();
  const countTaken = (s: Subscription): void => void takenByTopic.set(s.topic, (takenByTopic.get(s.topic) ?? 0) + 1);
  const deliverRaw = (s: Subscription, bytes: Uint8Array, wake: boolean): QuietMs => {
    countTaken(s);
    if (wake) noteWake(s.pace, wallNs);
    return (s.onMessage as (b: Uint8Array) => QuietMs)(bytes);
  };
  const holdIfWorthIt = (s: Subscription, quiet: QuietMs): void => {
    if (typeof quiet !== 'number' || !s.active || s.held !== null || !holdWorthIt(s.pace, quiet)) return;
    const stop = addTimer(quiet, () => endHold(s), true);
    s.held = { queue: [], untilNs: wallNs + BigInt(Math.round(quiet * 1e6)), end: stop };
  };
  const endHold = (s: Subscription): void => {
    const held = s.held;
    if (held === null) return;
    held.end();
    s.held = null;
    forgetLastWake(s.pace);
    let quiet: QuietMs = undefined;
    held.queue.forEach((bytes, i) => {
      if (!s.active) return;
      try {
        quiet = deliverRaw(s, bytes, i === 0);
      } finally {
        // The queue's own copies, freed after the callback as rclnodejs's transport frees what it takes.
        releaseBytes(bytes);
      }
    });
    holdIfWorthIt(s, quiet);
  };

  const asDelivered = (s: Subscription, message: unknown): unknown => {
    const isBytes = message instanceof Uint8Array;
    if (s.raw === isBytes) return message;
    if (!codec) throw new Error(`memory transport: ${s.topic} takes ${s.raw ? 'CDR bytes' : 'objects'}; inject them, or give the transport a codec`);
    return s.raw ? codec.encode(s.type, message) : codec.decode(s.type, message as Uint8Array);
  };

  const namespace = options.namespace ?? '/';
  const nodeName = fullyQualifiedName(namespace, options.name ?? 'body_bridge');
  const graph = { nodes: [] as string[], publishers: new Map<string, number>() };
  const transport: MemoryTransport = {
    namespace,
    nodeName,
    graph,
    graphNodes: () => [nodeName, ...graph.nodes],
    publisherCount: (topic: string) => graph.publishers.get(topic.startsWith('/') ? topic : fullyQualifiedName(namespace, topic)) ?? 0,
    published,
    logs,
    log: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    publisher<T>(topic: string, type: MessageTypeName, qos: QoS): Publisher<T> {
      topicList.push({ topic, type, qos, direction: 'publish' });
      return {
        topic,
        publish(message: T): void {
          published.push({ topic, type, qos, message, at: nsToTime(nowNs) });
        },
        // The subscriptions made on this transport (a test's stand-in for a remote node) that DDS would match.
        subscriptionCount: () => subscriptions.filter((s) => s.active && s.topic === topic && qosMismatch(qos, s.qos) === null).length,
      };
    },
    rawPublisher(topic: string, type: MessageTypeName, qos: QoS): RawPublisher {
      topicList.push({ topic, type, qos, direction: 'publish' });
      return {
        topic,
        publish(bytes: Uint8Array): void {
          // Copied, as rcl's publish copies: the caller may reuse its buffer. (A Buffer's slice() is a view,
          // hence the explicit copy.)
          const sent = options.copyRaw === false ? bytes : new Uint8Array(bytes);
          published.push({ topic, type, qos, message: codec ? codec.decode(type, sent) : sent, bytes: sent, at: nsToTime(nowNs) });
        },
      };
    },
    subscribeRaw(topic: string, type: MessageTypeName, qos: QoS, onBytes: (bytes: Uint8Array) => QuietMs): () => void {
      topicList.push({ topic, type, qos, direction: 'subscribe' });
      const sub: Subscription = { topic, type, qos, onMessage: onBytes as (m: unknown) => void, active: true, raw: true, pace: newWakePace(), held: null };
      subscriptions.push(sub);
      return () => {
        sub.active = false;
        sub.held?.end();
        sub.held = null;
      };
    },
    subscribe<T>(topic: string, type: MessageTypeName, qos: QoS, onMessage: (message: T) => void): () => void {
      topicList.push({ topic, type, qos, direction: 'subscribe' });
      const sub: Subscription = { topic, type, qos, onMessage: onMessage as (m: unknown) => void, active: true, raw: false, pace: newWakePace(), held: null };
      subscriptions.push(sub);
      return () => {
        sub.active = false;
      };
    },
    timer: (periodMs, tick) => addTimer(periodMs, tick, false),
    wallTimer: (periodMs, tick) => addTimer(periodMs, tick, true),
    now: () => nsToTime(nowNs),
    wallNowNs: () => wallNs,
    messages<T>(topic: string): T[] {
      return published.filter((p) => p.topic === topic).map((p) => p.message as T);
    },
    last<T>(topic: string): T | undefined {
      for (let i = published.length - 1; i >= 0; i--) {
        const p = published[i]!;
        if (p.topic === topic) return p.message as T;
      }
      return undefined;
    },
    inject(topic: string, message: unknown, publisherQoS: QoS = { reliability: 'reliable', durability: 'volatile', depth: 10 }): number {
      // Snapshot: a callback may subscribe or unsubscribe (a reload does).
      const receivers = subscriptions.filter((s) => s.active && s.topic === topic && qosMismatch(publisherQoS, s.qos) === null);
      for (const s of receivers) {
        if (!s.active) continue;
        const delivered = asDelivered(s, message);
        // A hold ends with wall time, also where setTime moved it (which fires no timer).
        if (s.held !== null && wallNs >= s.held.untilNs) endHold(s);
        if (s.held !== null) {
          // Kept as the middleware keeps it: its own copy, the oldest dropped past the queue's depth.
          s.held.queue.push(delivered === message ? new Uint8Array(delivered as Uint8Array) : (delivered as Uint8Array));
          if (s.held.queue.length > s.qos.depth) s.held.queue.shift();
          continue;
        }
        try {
          if (s.raw) holdIfWorthIt(s, deliverRaw(s, delivered as Uint8Array, true));
          else {
            countTaken(s);
            s.onMessage(delivered);
          }
        } finally {
          // Bytes encoded here are freed after the callback, as rclnodejs's transport frees the Buffers it takes.
          if (delivered !== message && delivered instanceof Uint8Array) releaseBytes(delivered);
        }
      }
      return receivers.length;
    },
    taken: (topic) => takenByTopic.get(topic) ?? 0,
    topics: () => [...topicList],
    active: () => ({
      subscriptions: subscriptions.filter((s) => s.active).length,
      timers: timers.filter((t) => t.active).length,
    }),
    setTime(t: Time): void {
      const ns = timeToNs(t);
      if (ns > nowNs) wallNs += ns - nowNs;
      // rcl's timers on ROS time, when the clock jumps back (a simulation started again): the next call comes
      // one period after the new time (rcl/timer.c, _rcl_timer_time_jump), not when the clock has caught up.
      if (ns < nowNs) for (const timer of timers) if (!timer.wall && timer.nextNs > ns + timer.periodNs) timer.nextNs = ns + timer.periodNs;
      nowNs = ns;
    },
    advance: (ms) => run(ms, true),
    advanceWall: (ms) => run(ms, false),
    clear(): void {
      published.length = 0;
      logs.length = 0;
    },
  };
  return transport;
}
