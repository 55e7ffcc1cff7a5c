// The floor under bench/live's figures: an rclnodejs node doing no work of its own — it takes each
// message's CDR bytes (isRaw) and, in relay mode, publishes the same Buffer on another topic. Whatever
// it costs, rclnodejs and DDS cost body_bridge too.
//   node live-floor.js sink <type> <topic>
//   node live-floor.js relay <type> <from> <to>
//   node live-floor.js many relay:<type>:<from>:<to> sink:<type>:<topic> ...   (bench/live-sim.ts: every stream of a simulation in one node)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tfMessageWriter } from '../src/cdr/tf-message.js';
import { releaseBytes } from '../src/ros/lent-bytes.js';
import { loadRclnodejs, SPIN_TIMEOUT_MS } from '../src/ros/rclnodejs-transport.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

interface Follow {
  type: string;
  from: string;
  /** Where the bytes go again; none for a sink. */
  to?: string;
}

/** The streams a command line asks for, or why it is not understood. */
function follows(argv: readonly string[]): Follow[] | string {
  const [mode, ...rest] = argv;
  if (mode === 'sink' && rest.length === 2) return [{ type: rest[0]!, from: rest[1]! }];
  if (mode === 'relay' && rest.length === 3) return [{ type: rest[0]!, from: rest[1]!, to: rest[2]! }];
  if (mode !== 'many' || rest.length === 0) return 'usage: live-floor sink TYPE FROM | relay TYPE FROM TO | many relay:TYPE:FROM:TO|sink:TYPE:FROM ...';
  const out: Follow[] = [];
  for (const spec of rest) {
    const [kind, type, from, to] = spec.split(':');
    if (kind === 'sink' && type && from && to === undefined) out.push({ type, from });
    else if (kind === 'relay' && type && from && to) out.push({ type, from, to });
    else return `live-floor: not a stream: ${spec}`;
  }
  return out;
}

async function main(): Promise<void> {
  const streams = follows(process.argv.slice(2));
  if (typeof streams === 'string') throw new Error(streams);
  const loaded = await loadRclnodejs();
  if ('error' in loaded) throw new Error(loaded.error);
  const rcl: Any = loaded.rcl;
  await rcl.init();
  const options = new rcl.NodeOptions();
  options.enableRosout = false;
  // LIVE_FLOOR_PARAMETER_SERVICES=0: the floor without rclnodejs's parameter services (what each entity in a node's
  // wait set costs per message, measured against the default floor).
  if (process.env.LIVE_FLOOR_PARAMETER_SERVICES === '0') options.startParameterServices = false;
  // LIVE_FLOOR_IMPORT=FILE[,FILE…]: the floor with these modules loaded and kept (nothing of them run): what a
  // node's size (its code and heap) costs per message, against the default floor.
  const loadedModules = await Promise.all((process.env.LIVE_FLOOR_IMPORT ?? '').split(',').filter(Boolean).map((f) => import(pathToFileURL(resolve(f)).href)));
  const node = new rcl.Node(`live_floor_${process.pid}`, '', undefined, options);
  // body_bridge's QoS for these topics: SensorDataQoS in, best effort (devices) out.
  const qos = new rcl.QoS(rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST, 5, rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT);
  // As body_bridge's transport does, each message's bytes are freed once handled (src/ros/lent-bytes.ts, where the
  // process runs with the launcher's flags); LIVE_FLOOR_RELEASE=0 leaves them to V8's collector, as rclnodejs does.
  const release = process.env.LIVE_FLOOR_RELEASE !== '0';
  for (const s of streams) {
    const out = s.to !== undefined ? node.createPublisher(s.type, s.to, { qos }) : null;
    node.createSubscription(s.type, s.from, { qos, isRaw: true }, (bytes: Buffer) => {
      out?.publish(bytes);
      if (release) releaseBytes(bytes);
    });
  }
  // LIVE_FLOOR_TF=TOPIC:N:HZ: also publishes a TFMessage of N transforms on TOPIC at HZ (made once, stamped
  // anew), as the node publishes /tf from the joint_states it takes: what sending the node's output costs an
  // rclnodejs node, apart from computing it.
  const [tfTopic, tfCount, tfHz] = (process.env.LIVE_FLOOR_TF ?? '').split(':');
  let tfTimer: ReturnType<typeof setInterval> | null = null;
  if (tfTopic && Number(tfCount) > 0 && Number(tfHz) > 0) {
    const reliable = new rcl.QoS(rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST, 100, rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE);
    const tfPub = node.createPublisher('tf2_msgs/msg/TFMessage', tfTopic, { qos: reliable });
    const writeTf = tfMessageWriter();
    const transform = { translation: { x: 0.001, y: 0, z: 0.05 }, rotation: { x: 0, y: 0, z: 0.1, w: 0.995 } };
    const frames = Array.from({ length: Number(tfCount) }, (_, i) => ({ frame_id: i === 0 ? 'BASE' : `J${i}`, child_frame_id: `J${i + 1}` }));
    tfTimer = setInterval(() => {
      const ns = process.hrtime.bigint();
      const stamp = { sec: Number(ns / 1_000_000_000n), nanosec: Number(ns % 1_000_000_000n) };
      tfPub.publish(Buffer.from(writeTf(frames.map((f) => ({ header: { stamp, frame_id: f.frame_id }, child_frame_id: f.child_frame_id, transform })))));
    }, 1000 / Number(tfHz));
  }
  // LIVE_FLOOR_TIMERS=N: N wall timers (each every 0.25–2 s, as the node's watches), doing nothing: what entities
  // in a node's wait set that rarely fire cost per message.
  const steady = new rcl.Clock(rcl.ClockType.STEADY_TIME);
  // The timers' clock is kept alive as long as the node (a collected rclnodejs Clock frees the rcl clock its timers use).
  const timers = Array.from({ length: Number(process.env.LIVE_FLOOR_TIMERS ?? 0) }, (_, i) => node.createTimer(BigInt(250_000_000 * (1 + (i % 8))), () => undefined, steady));
  // The node's idle wait (src/ros/rclnodejs-transport.ts), so that the floor is what rclnodejs costs body_bridge;
  // LIVE_FLOOR_SPIN_MS=10 is rclnodejs's default.
  node.spin(Number(process.env.LIVE_FLOOR_SPIN_MS ?? SPIN_TIMEOUT_MS));
  if (loadedModules.length > 0) process.stderr.write(`live-floor: ${loadedModules.length} module(s) loaded\n`);
  const stop = (): void => {
    for (const t of timers) t.cancel();
    if (tfTimer) clearInterval(tfTimer);
    void steady;
    node.destroy();
    rcl.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
