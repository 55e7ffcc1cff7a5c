// The node as it runs on ROS 2: rclnodejs node and parameters (rclnodejs-transport.ts) joined to the
// bridge, with robot_description mirrored into its parameter and parameter changes routed to the bridge.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDomainWatch } from './domain-watch.js';
import { loadRobotModel } from '../load.js';
import { type RobotPublisher, startRobotPublisher } from './robot-publisher.js';
import { describeModel } from './description.js';
import { fileSignature } from './dry-run.js';
import type { NodeParams } from './params.js';
import { NODE_NAME, type RosNode, startRosNode } from './rclnodejs-transport.js';
import { parseRosArgs } from './ros-args.js';

/** The bundled example: $BODY_BRIDGE_MODELS (set by the ROS launcher) or the package's models/ directory. */
export function bundledExample(env: NodeJS.ProcessEnv = process.env): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const dirs = [env.BODY_BRIDGE_MODELS, resolve(here, '../../models')].filter((d): d is string => !!d);
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir)
      .filter((f) => /\.(body|wrl)$/i.test(f))
      .sort();
    if (files[0]) return join(dir, files[0]);
  }
  return null;
}

export interface RunningNode {
  ros: RosNode;
  bridge: RobotPublisher;
  stop(): void;
}

/** Starts the node on an initialised-to-be rclnodejs; the caller spins it. */
export async function startNode(rcl: Parameters<typeof startRosNode>[0], argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<RunningNode> {
  const positional = parseRosArgs(argv.slice(2), NODE_NAME).rest.find((a) => !a.startsWith('-'));
  const ros = await startRosNode(rcl, argv, env);
  const initial = { ...ros.initialParams } as Partial<NodeParams>;
  if (!initial.body_file) {
    // A first look needs no arguments: the command line's file, else the bundled example.
    const file = positional ? resolve(positional) : bundledExample(env);
    if (file) {
      if (!positional) ros.transport.log.info(`body_file is not set: serving the bundled example ${file}`);
      initial.body_file = file;
      ros.setParameter('body_file', file);
    }
  }
  const bridge = startRobotPublisher(
    {
      transport: ros.transport,
      loadModel: (f) => loadRobotModel(f),
      describe: (m, p) => describeModel(m, p, env),
      fileSignature,
      onDescription: (xml) => ros.setRobotDescription(xml),
      onSemantic: (srdf) => ros.setRobotDescriptionSemantic(srdf),
    },
    initial,
  );
  ros.onParameterChange((changes) => bridge.setParams(changes));
  const stopDomainWatch = startDomainWatch(ros.transport, env.ROS_DOMAIN_ID);
  return {
    ros,
    bridge,
    stop(): void {
      stopDomainWatch();
      bridge.stop();
      ros.shutdown();
    },
  };
}
