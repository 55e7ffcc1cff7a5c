#!/usr/bin/env node
// The body_bridge node (`ros2 run body_bridge body_bridge`, `npm start`). With a sourced ROS 2 and a
// loadable rclnodejs it serves the model; otherwise it runs the same bridge in memory as a dry run,
// prints what it would publish and says why ROS 2 was not used.
import { resolve } from 'node:path';
import { dryRun, startupMode } from './dry-run.js';
import { bundledExample, startNode } from './node.js';
import { type NodeParams, paramSpecs } from './params.js';
import { loadRclnodejs, NODE_NAME, rosUnavailableReason } from './rclnodejs-transport.js';
import { parameterOverrides, parseRosArgs } from './ros-args.js';

const USAGE = `usage: body_bridge [BODY_FILE] [--dry-run] [--ros-args -p body_file:=FILE -p NAME:=VALUE ... --params-file FILE]

Publishes robot_description, /tf and /tf_static for a Choreonoid .body/.yaml or OpenHRP .wrl model
(robot_state_publisher's behaviour) and relays its sensors. Without a sourced ROS 2, or with --dry-run,
it prints a dry run: what it would publish. With ROS 2 sourced but rclnodejs not built for it, it fails.
Parameters:
${paramSpecs.map((s) => `  ${s.name} (${s.kind}, default ${JSON.stringify(s.default)}): ${s.description}`).join('\n')}`;

async function main(argv: string[]): Promise<number> {
  const args = parseRosArgs(argv.slice(2), NODE_NAME);
  if (args.rest.includes('--help') || args.rest.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const positional = args.rest.find((a) => !a.startsWith('-'));

  const rosUnavailable = rosUnavailableReason();
  const dryRunAsked = args.rest.includes('--dry-run');
  const loaded = rosUnavailable === null && !dryRunAsked ? await loadRclnodejs() : null;
  const start = startupMode({ rosUnavailable, rclnodejsError: loaded && 'error' in loaded ? loaded.error : null, dryRunAsked });
  if (start.mode === 'error') {
    console.error(start.message);
    return 1;
  }

  if (start.mode === 'dry-run' || !loaded || 'error' in loaded) {
    const why = start.mode === 'dry-run' ? start.why : null;
    const overrides = Object.fromEntries(parameterOverrides(args)) as Partial<NodeParams>;
    const bodyFile = overrides.body_file || positional || bundledExample();
    if (!bodyFile) {
      console.error(`body_bridge dry run: ${why}; and no body file was given (BODY_FILE or -p body_file:=...) nor found in models/`);
      return 1;
    }
    const report = dryRun({ ...overrides, body_file: resolve(bodyFile) }, why ?? 'ROS 2 is not available');
    console.log(report.text);
    return report.ok ? 0 : 1;
  }

  // Handled from before the node starts, and for good: Ctrl-C under ros2 launch arrives twice (from the terminal
  // to the whole group, then forwarded by launch), possibly while the model still loads. A signal that fell
  // through to Node's default would end the node by the signal, and launch would report "process has died"
  // instead of a clean finish.
  let node: Awaited<ReturnType<typeof startNode>> | null = null;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    node?.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  node = await startNode(loaded.rcl, argv);
  node.ros.node.spin();
  return -1; // keep running: spin() drives the node from the event loop
}

main(process.argv).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`body_bridge: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
