// The flags the installed launcher (cmake/body_bridge.in) gives the node, found for a Node the way the launcher
// finds them: a flag goes in where that Node accepts it. The tests run with them (vitest.config.ts), and the live
// benchmarks start the node and its floor with them, so both see the runtime the node has under ros2 run.
import { spawnSync } from 'node:child_process';
import { TRANSFER_FLAG } from '../../src/ros/lent-bytes.js';

export function launcherNodeFlags(node: string = process.execPath): string[] {
  return spawnSync(node, [TRANSFER_FLAG, '-e', ''], { stdio: 'ignore' }).status === 0 ? [TRANSFER_FLAG] : [];
}
