// The floor under bench/live's figures: an rclnodejs node doing no work of its own — it takes each
// message's CDR bytes (isRaw) and, in relay mode, publishes the same Buffer on another topic. Whatever
// it costs, rclnodejs and DDS cost body_bridge too.
//   node live-floor.js sink <type> <topic>
//   node live-floor.js relay <type> <from> <to>
import { loadRclnodejs } from '../src/ros/rclnodejs-transport.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function main(): Promise<void> {
  const [mode, type, from, to] = process.argv.slice(2);
  if (!type || !from || (mode !== 'sink' && mode !== 'relay') || (mode === 'relay' && !to)) throw new Error('usage: live-floor sink|relay TYPE FROM [TO]');
  const loaded = await loadRclnodejs();
  if ('error' in loaded) throw new Error(loaded.error);
  const rcl: Any = loaded.rcl;
  await rcl.init();
  const options = new rcl.NodeOptions();
  options.enableRosout = false;
  const node = new rcl.Node(`live_floor_${process.pid}`, '', undefined, options);
  // body_bridge's QoS for these topics: SensorDataQoS in, best effort (devices) out.
  const qos = new rcl.QoS(rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST, 5, rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT);
  const out = mode === 'relay' ? node.createPublisher(type, to, { qos }) : null;
  node.createSubscription(type, from, { qos, isRaw: true }, (bytes: Buffer) => out?.publish(bytes));
  node.spin();
  const stop = (): void => {
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
