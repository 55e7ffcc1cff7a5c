// The body_bridge node (`ros2 run body_bridge body_bridge`, `npm start`; entered through main.ts). With a sourced
// ROS 2 and a loadable rclnodejs it serves the model; otherwise it runs the same bridge in memory as a dry run,
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

/** What main.ts's signal handlers stop: the node once it runs. */
export interface Running {
  stop: (() => void) | null;
}

/** The node's life: an exit code, or -1 while it serves (spin drives it from the event loop). */
export async function runNode(argv: string[], running: Running): Promise<number> {
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

  const node = await startNode(loaded.rcl, argv);
  running.stop = () => node.stop();
  node.ros.spin();
  return -1; // keep running: spin() drives the node from the event loop
}
