// The only file that touches rclnodejs. It is loaded lazily so that body_bridge installs and runs
// (dry run, CLI, tests) where ROS 2 and rclnodejs are absent; tsconfig.ros.json type-checks this file
// against rclnodejs's own declarations (`npm run typecheck:ros`).
// @ts-ignore -- rclnodejs is an optional dependency: where it is not installed this type import is unresolved (any) in the main build.
import type * as Rcl from 'rclnodejs';
import { Buffer } from 'node:buffer';
import type { MessageTypeName, Time } from '../messages/messages.js';
import { releaseBytes } from './lent-bytes.js';
import { type ParamKind, type ParamValue, paramSpecs, specOf } from './params.js';
import { fullyQualifiedName, parameterOverrides, parseRosArgs } from './ros-args.js';
import { forgetLastWake, holdWorthIt, newWakePace, noteWake } from './quiet-hold.js';
import type { Logger, Publisher, QoS, QuietMs, RawPublisher, Transport } from './transport.js';

type RclModule = typeof Rcl;

export const NODE_NAME = 'body_bridge';

/**
 * How long rclnodejs's wait thread sleeps in rcl_wait when nothing is ready. At rclnodejs's default, 10 ms, an
 * idle node wakes 100 times a second to rebuild and wait on its wait set: 0.14 CPU-s per 10 s on this machine with
 * nothing arriving, against 0.05 at 100 ms and 0.049 at 1 s (BENCHMARKS.md, 30 Nov 2026); between two 30 Hz images
 * it woke twice for nothing. A longer wait delays nothing that arrives (messages, rcl timers and guard conditions end
 * it), but rclnodejs's handle sync, run on every entity created or destroyed, takes a lock that the wait thread holds
 * while it waits: so the transport wakes it first (the node's wake guard condition), and what it does not wake waits
 * at most this long.
 */
export const SPIN_TIMEOUT_MS = 100;

/** rclnodejs's native binding, as far as this file reads it. */
export interface RclNative {
  clockGetNow?: (clockHandle: unknown) => bigint;
  /** rcl_take_serialized_message into a new Buffer; undefined when nothing is waiting. */
  rclTakeRaw?: (subscriptionHandle: unknown) => Buffer | undefined;
}

/**
 * rclnodejs's native binding, reached through its exported lib/native_loader.js (the addon rclnodejs itself
 * loaded), or null where that is not there. A non-literal specifier, as in loadRclnodejs: the main build must not
 * resolve the optional package.
 */
async function rclNative(): Promise<RclNative | null> {
  try {
    const specifier = 'rclnodejs/lib/native_loader.js';
    return ((await import(specifier)) as { default?: RclNative }).default ?? null;
  } catch {
    return null;
  }
}

/**
 * A reader of the node's clock in nanoseconds. node.now() wraps every reading in an rclnodejs Time, which
 * allocates a native time point released by a finalizer: 3–6 µs a call on this machine, against 0.1–0.4 µs for
 * rcl's reading of the same clock (rcl_clock_get_now, the binding's clockGetNow), and at joint_states' 1 kHz
 * those Times were the largest item of the node's own per-message time in a profile of the live node. The
 * binding is reached through rclnodejs's exported lib/native_loader.js (the same loaded addon); where it is
 * not there, or disagrees with node.now(), node.now() it is.
 */
function nodeClockReader(node: Rcl.Node, native: RclNative | null): () => bigint {
  const viaTime = (): bigint => node.now().nanoseconds;
  const handle = (node.getClock() as unknown as { handle?: unknown }).handle;
  if (handle === undefined) return viaTime;
  try {
    const getNow = native?.clockGetNow;
    if (typeof getNow !== 'function') return viaTime;
    const direct = (): bigint => getNow(handle);
    // The same clock: a reading between two of node.now()'s (a clock that jumps, /clock under sim time, may
    // move between them; then the check simply keeps node.now()).
    const before = viaTime();
    const reading = direct();
    const after = viaTime();
    return typeof reading === 'bigint' && reading >= before && reading <= after ? direct : viaTime;
  } catch {
    return viaTime;
  }
}

/** Why ROS 2 cannot be used in this process, or null when it can. */
export function rosUnavailableReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (!env.AMENT_PREFIX_PATH) return 'ROS 2 is not sourced (AMENT_PREFIX_PATH is not set; run `source /opt/ros/<distro>/setup.bash`)';
  return null;
}

/** rclnodejs, or the reason it cannot be loaded (not installed, or its native module was not built). */
export async function loadRclnodejs(): Promise<{ rcl: RclModule } | { error: string }> {
  // A non-literal specifier keeps the main build from resolving the optional package.
  const specifier = 'rclnodejs';
  try {
    const mod = (await import(specifier)) as { default?: RclModule } & RclModule;
    return { rcl: mod.default ?? mod };
  } catch (error) {
    return { error: `rclnodejs cannot be loaded: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * Whether rcl_node_init itself creates the node's /rosout publisher, as rcl does up to Iron (from Jazzy
 * on the client library does). rclnodejs 2.x creates it once more unless its node option enableRosout is
 * off, and rcl then warns "Publisher already registered for provided node name" at every start.
 */
export function rclCreatesRosoutPublisher(distro: string | undefined): boolean {
  return ['foxy', 'galactic', 'humble', 'iron'].includes((distro ?? '').toLowerCase());
}

// rcl_interfaces/msg/ParameterType values (stable across ROS 2 distributions).
const PARAMETER_BOOL = 1;
const PARAMETER_INTEGER = 2;
const PARAMETER_DOUBLE = 3;
const PARAMETER_STRING = 4;
const PARAMETER_BOOL_ARRAY = 6;
const PARAMETER_INTEGER_ARRAY = 7;
const PARAMETER_DOUBLE_ARRAY = 8;
const PARAMETER_STRING_ARRAY = 9;

const KIND_TYPE: Record<ParamKind, number> = {
  string: PARAMETER_STRING,
  double: PARAMETER_DOUBLE,
  bool: PARAMETER_BOOL,
  string_array: PARAMETER_STRING_ARRAY,
  double_array: PARAMETER_DOUBLE_ARRAY,
};

/** A message type name as rclnodejs's declarations spell the ones they know. */
type RclTypeName = Parameters<Rcl.Node['createPublisher']>[0];
/**
 * rclnodejs declares the message types it generated when it was built against the sourced ROS 2; moveit_msgs
 * is among those only where that ROS 2 has it, and the declarations the type check here uses (made without a
 * ROS 2: scripts/rclnodejs-types.mjs) cannot know it. src/messages/messages.ts types what we send, and the message checks hold it to the installed
 * definitions (test/support/msgcheck.ts).
 */
const rclType = (type: MessageTypeName): RclTypeName => type as unknown as RclTypeName;

/**
 * rcl_publisher_get_subscription_count through rclnodejs: 2.2 has it as a getter, though its declarations say a
 * method (and calling the getter's number throws inside a timer, which aborts the process); either is read.
 */
export function subscriptionCountOf(publisher: object): number {
  const count = (publisher as { subscriptionCount?: unknown }).subscriptionCount;
  return typeof count === 'function' ? Number((count as () => unknown).call(publisher)) : Number(count);
}

/** A ROS parameter for a plain value: the declared kind when we know the name, inferred otherwise. */
function toParameter(rcl: RclModule, name: string, value: unknown): Rcl.Parameter | null {
  const spec = specOf(name);
  const make = (type: number, v: unknown): Rcl.Parameter => new rcl.Parameter(name, type as Rcl.ParameterType, v);
  if (spec?.kind === 'double' && (typeof value === 'number' || typeof value === 'bigint')) return make(PARAMETER_DOUBLE, Number(value));
  // A YAML list of integers ([1, 2, 0, 0, 0, 0, 1]) for a list of doubles: declared as doubles, or rclnodejs refuses the type.
  if (spec?.kind === 'double_array' && Array.isArray(value) && value.every((v) => typeof v === 'number' || typeof v === 'bigint')) {
    return make(PARAMETER_DOUBLE_ARRAY, value.map(Number));
  }
  if (typeof value === 'boolean') return make(PARAMETER_BOOL, value);
  if (typeof value === 'string') return make(PARAMETER_STRING, value);
  if (typeof value === 'bigint') return make(PARAMETER_INTEGER, value);
  if (typeof value === 'number') return Number.isInteger(value) ? make(PARAMETER_INTEGER, BigInt(value)) : make(PARAMETER_DOUBLE, value);
  if (Array.isArray(value) && value.length > 0) {
    if (value.every((v) => typeof v === 'string')) return make(PARAMETER_STRING_ARRAY, value);
    if (value.every((v) => typeof v === 'boolean')) return make(PARAMETER_BOOL_ARRAY, value);
    if (value.every((v) => typeof v === 'number' && Number.isInteger(v))) return make(PARAMETER_INTEGER_ARRAY, value.map((v) => BigInt(v)));
    if (value.every((v) => typeof v === 'number')) return make(PARAMETER_DOUBLE_ARRAY, value);
  }
  if (Array.isArray(value) && value.length === 0 && spec?.kind === 'string_array') return make(PARAMETER_STRING_ARRAY, []);
  return null;
}

/** A ROS parameter's value as plain data (integers as numbers). */
export function fromParameterValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromParameterValue);
  // Numeric lists may come as typed arrays.
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<number | bigint>, (v) => Number(v));
  return value;
}

/** How many handle syncs the holds may make in one process (see waitSetOf). */
export const MAX_HOLD_SYNCS = 2 ** 30;

/**
 * Where rclnodejs's executor gets the subscriptions it waits on: HandleManager::SynchronizeHandles reads the node's
 * `_subscriptions` array when `syncHandles()` is called, so a subscription taken out of it and synced no longer
 * wakes the executor, and its messages wait in the middleware's queue (quiet-hold.ts). Null where rclnodejs is not
 * built that way (another version, the tests' stand-in without it): subscriptions are then never held.
 */
export function waitSetOf(node: unknown, maxSyncs = MAX_HOLD_SYNCS): { leave(sub: unknown): boolean; rejoin(sub: unknown): void } | null {
  const internals = node as { _subscriptions?: unknown; syncHandles?: unknown };
  if (!Array.isArray(internals._subscriptions) || typeof internals.syncHandles !== 'function') return null;
  const list = (): unknown[] => internals._subscriptions as unknown[];
  const sync = (): void => (internals.syncHandles as () => void).call(node);
  // Each sync posts a libuv semaphore that the executor's thread only takes when it meets a sync in progress;
  // uv_sem_post aborts once a semaphore passes SEM_VALUE_MAX (2^31 - 1). Two syncs per hold at 20 holds a second
  // would get there in about 600 days: holds stop well before.
  let syncsLeft = maxSyncs;
  return {
    leave(sub): boolean {
      const at = list().indexOf(sub);
      if (at < 0 || syncsLeft < 2) return false;
      syncsLeft -= 2;
      list().splice(at, 1);
      sync();
      return true;
    },
    rejoin(sub): void {
      if (list().includes(sub)) return;
      list().push(sub);
      sync();
    },
  };
}

function toRclQoS(rcl: RclModule, qos: QoS): Rcl.QoS {
  return new rcl.QoS(
    rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
    qos.depth,
    qos.reliability === 'reliable'
      ? rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE
      : rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT,
    qos.durability === 'transient_local'
      ? rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL
      : rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
  );
}

export interface RosNode {
  rcl: RclModule;
  node: Rcl.Node;
  transport: Transport;
  /** Our parameters' values after overrides (params files, -p), as plain data. */
  initialParams: Record<string, ParamValue>;
  /** Routes run-time parameter changes to `apply`; its verdict is ROS's. Call once the bridge runs. */
  onParameterChange(apply: (changes: Record<string, unknown>) => { successful: boolean; reason: string }): void;
  /** Mirrors the served URDF into the robot_description parameter. */
  setRobotDescription(xml: string): void;
  /** Mirrors the served SRDF into the robot_description_semantic parameter. */
  setRobotDescriptionSemantic(srdf: string): void;
  /** Sets one of our parameters from inside (before onParameterChange is wired, e.g. body_file from the command line). */
  setParameter(name: string, value: unknown): void;
  /** Hands the node to rclnodejs's executor (SPIN_TIMEOUT_MS between idle wakes). */
  spin(): void;
  shutdown(): void;
}

/** rcl init with the process's ROS arguments, the node, its parameters and a Transport over it. */
export async function startRosNode(
  rcl: RclModule,
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
  /** rclnodejs's native binding; by default the one rclnodejs loaded, for a node of rclnodejs itself. */
  binding?: RclNative | null,
): Promise<RosNode> {
  // rcl sees the whole command line, so remapping, __ns, __node, --params-file and --log-level apply.
  await rcl.init(undefined, [...argv]);
  // main.ts stops the bridge before shutting rcl down.
  rcl.removeSignalHandlers();
  const args = parseRosArgs(argv.slice(2), NODE_NAME);
  const overrides = parameterOverrides(args);

  const options = new rcl.NodeOptions();
  options.parameterOverrides = [...overrides]
    .map(([name, value]) => toParameter(rcl, name, value))
    .filter((p): p is Rcl.Parameter => p !== null);
  // One /rosout publisher per node: where rcl made it already, rclnodejs must not register a second.
  options.enableRosout = !rclCreatesRosoutPublisher(env.ROS_DISTRO);
  const node = new rcl.Node(NODE_NAME, '', undefined, options);
  const logger = node.getLogger();
  // Triggered before every entity the transport creates or destroys once the node spins: it ends the executor's
  // rcl_wait, which would otherwise hold rclnodejs's handle sync (and this thread) for up to SPIN_TIMEOUT_MS.
  const wakeGuard = node.createGuardCondition(() => undefined);
  const changingEntities = <T>(change: () => T): T => {
    wakeGuard.trigger();
    return change();
  };
  const waitSet = waitSetOf(node);
  // A held subscription's rejoin, pending on a libuv timer: run before the node goes.
  const heldSubscriptions = new Set<() => void>();
  const expected = fullyQualifiedName(args.namespace, args.name);
  if (node.getFullyQualifiedName() !== expected) {
    logger.warn(`node is ${node.getFullyQualifiedName()}, parameters files were matched for ${expected}`);
  }

  const initialParams: Record<string, ParamValue> = {};
  for (const spec of paramSpecs) {
    const type = KIND_TYPE[spec.kind] as Rcl.ParameterType;
    const descriptor = new rcl.ParameterDescriptor(spec.name, type, spec.description, false);
    const parameter = new rcl.Parameter(spec.name, type, spec.default);
    let declared: Rcl.Parameter;
    try {
      declared = node.declareParameter(parameter, descriptor);
    } catch (error) {
      // An override of the wrong type (a number for a string, ...) must not take the node down.
      const reason = error instanceof Error ? error.message : String(error);
      logger.error(`parameter ${spec.name}: the given value was refused (${reason}); using the default ${JSON.stringify(spec.default)}`);
      declared = node.declareParameter(parameter, descriptor, true);
    }
    initialParams[spec.name] = fromParameterValue(declared.value) as ParamValue;
  }
  // robot_description (and robot_description_semantic) follow body_file: read-only for every client
  // (ros2 param describe says so and rclnodejs refuses their sets), lifted only for the instant this
  // process mirrors a reload into them.
  let settingDescription = false;
  const readOnlyDescription = (name: string, text: string): void => {
    const descriptor = new rcl.ParameterDescriptor(name, PARAMETER_STRING as Rcl.ParameterType, text, true);
    Object.defineProperty(descriptor, 'readOnly', { get: () => !settingDescription });
    node.declareParameter(new rcl.Parameter(name, PARAMETER_STRING as Rcl.ParameterType, ''), descriptor, true);
  };
  readOnlyDescription('robot_description', 'URDF of the served model (read-only: set body_file to change it)');
  readOnlyDescription('robot_description_semantic', 'MoveIt SRDF of the served model when publish_robot_description_semantic is true (read-only)');
  const DESCRIPTIONS = new Set(['robot_description', 'robot_description_semantic']);
  const mirror = (name: string, text: string): void => {
    settingDescription = true;
    try {
      const result = node.setParameter(new rcl.Parameter(name, PARAMETER_STRING as Rcl.ParameterType, text));
      if (!result.successful) log.warn(`could not update the ${name} parameter: ${result.reason}`);
    } finally {
      settingDescription = false;
    }
  };

  const log: Logger = {
    debug: (m) => void logger.debug(m),
    info: (m) => void logger.info(m),
    warn: (m) => void logger.warn(m),
    error: (m) => void logger.error(m),
  };

  // The device relay asks for its publishers again after every reload; one rclnodejs publisher per
  // topic, type and QoS serves them all instead of piling up publishers on the graph.
  const publishers = new Map<string, Rcl.Publisher<RclTypeName>>();
  const publisherFor = (topic: string, type: MessageTypeName, qos: QoS): Rcl.Publisher<RclTypeName> => {
    const key = JSON.stringify([topic, type, qos]);
    let pub = publishers.get(key);
    if (!pub) {
      pub = node.createPublisher(rclType(type), topic, { qos: toRclQoS(rcl, qos) });
      publishers.set(key, pub);
    }
    return pub;
  };
  // Only a node of rclnodejs itself has native handles (its clock's among them) to hand to the binding.
  const ofRclnodejs = (node.getClock() as unknown as { handle?: unknown }).handle !== undefined;
  const native = binding !== undefined ? binding : ofRclnodejs ? await rclNative() : null;
  const nowNs = nodeClockReader(node, native);
  const takeRaw = typeof native?.rclTakeRaw === 'function' ? native.rclTakeRaw : null;
  const transport: Transport = {
    namespace: node.namespace(),
    publisher<T>(topic: string, type: MessageTypeName, qos: QoS): Publisher<T> {
      const target = publisherFor(topic, type, qos);
      return {
        topic,
        publish: (message: T) => target.publish(message as Parameters<typeof target.publish>[0]),
        subscriptionCount: () => subscriptionCountOf(target),
      };
    },
    rawPublisher(topic: string, type: MessageTypeName, qos: QoS): RawPublisher {
      const target = publisherFor(topic, type, qos);
      return {
        topic,
        // rclnodejs hands a Buffer to rcl_publish_serialized_message as it is (anything else it would
        // convert field by field); the middleware has copied it when rcl returns. src/cdr's writers
        // make Buffers, so this wraps nothing in the usual case.
        publish: (bytes: Uint8Array) =>
          target.publish(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
      };
    },
    subscribeRaw(topic: string, type: MessageTypeName, qos: QoS, onBytes: (bytes: Uint8Array) => QuietMs): () => void {
      // isRaw: rcl_take_serialized_message, handed over as a Buffer of the CDR bytes (a copy rclnodejs owns and
      // never reads again), whose memory is freed as soon as the callback is done with it (lent-bytes.ts).
      const lend = (bytes: Buffer): QuietMs => {
        try {
          return onBytes(bytes);
        } finally {
          releaseBytes(bytes);
        }
      };
      const pace = newWakePace();
      let held: NodeJS.Timeout | null = null;
      // rclnodejs takes one message per subscription each time its executor wakes; the rest of the queue is taken
      // here, up to its depth, so that a burst (a simulator's IMU at 250 Hz) is not dropped from a best-effort
      // queue of 5 while the executor goes round again.
      const take = (message: unknown): void => {
        noteWake(pace, process.hrtime.bigint());
        let quiet = lend(message as Buffer);
        for (let left = takeRaw ? qos.depth - 1 : 0; left > 0 && !sub.isDestroyed(); left--) {
          const more = takeRaw!((sub as unknown as { handle: unknown }).handle);
          if (more === undefined) break;
          quiet = lend(more);
        }
        if (typeof quiet === 'number' && held === null && !sub.isDestroyed() && holdWorthIt(pace, quiet)) hold(quiet);
      };
      // Called from the subscription's own callback: the executor's thread waits for it to return, outside
      // rcl_wait, so leaving the wait set needs no wake.
      const hold = (ms: number): void => {
        if (!waitSet?.leave(sub)) return;
        held = setTimeout(rejoin, ms);
        heldSubscriptions.add(rejoin);
      };
      const rejoin = (): void => {
        if (held === null) return;
        clearTimeout(held);
        held = null;
        heldSubscriptions.delete(rejoin);
        forgetLastWake(pace);
        if (!sub.isDestroyed()) changingEntities(() => waitSet?.rejoin(sub));
      };
      const sub = changingEntities(() => node.createSubscription(rclType(type), topic, { qos: toRclQoS(rcl, qos), isRaw: true }, take));
      return () => {
        rejoin();
        changingEntities(() => node.destroySubscription(sub));
      };
    },
    subscribe<T>(topic: string, type: MessageTypeName, qos: QoS, onMessage: (message: T) => void): () => void {
      const sub = changingEntities(() =>
        node.createSubscription(rclType(type), topic, { qos: toRclQoS(rcl, qos), enableTypedArray: true }, (message: unknown) => onMessage(message as T)),
      );
      return () => changingEntities(() => node.destroySubscription(sub));
    },
    timer(periodMs: number, tick: () => void): () => void {
      const timer = changingEntities(() => node.createTimer(BigInt(Math.max(1, Math.round(periodMs * 1e6))), () => tick()));
      return () => {
        timer.cancel();
        changingEntities(() => node.destroyTimer(timer));
      };
    },
    wallTimer(periodMs: number, tick: () => void): () => void {
      // libuv's timer (its monotonic clock: steady, deaf to /clock, as rclcpp's create_wall_timer), not an rcl one:
      // rclnodejs asks every timer of the node whether it is ready each time anything wakes its executor, so each
      // rcl timer costs at every joint_states message. Six idle rcl timers in the benchmark's floor took it from
      // 1.28× to 1.15× of the node (BENCHMARKS.md, 30 Nov 2026); these watches tick every 0.25–2 s.
      const interval = setInterval(tick, Math.max(1, periodMs));
      return () => clearInterval(interval);
    },
    wallNowNs: () => process.hrtime.bigint(),
    nodeName: node.getFullyQualifiedName(),
    graphNodes: () => node.getNodeNamesAndNamespaces().map((n: { name: string; namespace: string }) => fullyQualifiedName(n.namespace, n.name)),
    publisherCount: (topic: string) => node.countPublishers(topic),
    now(): Time {
      const ns = nowNs();
      return { sec: Number(ns / 1_000_000_000n), nanosec: Number(ns % 1_000_000_000n) };
    },
    log,
  };

  return {
    rcl,
    node,
    transport,
    initialParams,
    onParameterChange(apply): void {
      node.addOnSetParametersCallback((parameters: Rcl.Parameter[]) => {
        const changes: Record<string, unknown> = {};
        for (const p of parameters) {
          if (DESCRIPTIONS.has(p.name)) {
            // Only reaches here while this process updates it (the descriptor is read-only otherwise).
            if (!settingDescription) return { successful: false, reason: `${p.name} is read-only: set body_file instead` };
          } else if (specOf(p.name)) {
            changes[p.name] = fromParameterValue(p.value);
          }
        }
        if (Object.keys(changes).length === 0) return { successful: true, reason: '' };
        return apply(changes);
      });
    },
    setRobotDescription: (xml: string): void => mirror('robot_description', xml),
    setRobotDescriptionSemantic: (srdf: string): void => mirror('robot_description_semantic', srdf),
    setParameter(name: string, value: unknown): void {
      const parameter = toParameter(rcl, name, value);
      const result = parameter ? node.setParameter(parameter) : { successful: false, reason: `unsupported value for ${name}` };
      if (!result.successful) log.warn(`could not set ${name}: ${result.reason}`);
    },
    spin: (): void => node.spin(SPIN_TIMEOUT_MS),
    shutdown(): void {
      for (const rejoin of [...heldSubscriptions]) rejoin();
      // The executor's thread is joined on shutdown once its rcl_wait returns.
      changingEntities(() => node.destroy());
      if (!rcl.isShutdown()) rcl.shutdown();
    },
  };
}
