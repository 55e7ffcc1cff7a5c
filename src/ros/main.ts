#!/usr/bin/env node
// The body_bridge node's entry. Ctrl-C under ros2 launch reaches the node twice (from the terminal to the whole
// process group, then forwarded by launch) and can come while the modules still load, which takes a second or
// more on a busy machine. A signal that fell through to Node's default ends the node by the signal, and launch
// reports "process has died" instead of a clean finish; so the handlers go in before anything else is imported.
import type { Running } from './run-node.js';

const running: Running = { stop: null };
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  running.stop?.();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const { runNode } = await import('./run-node.js');
runNode(process.argv, running).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`body_bridge: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
