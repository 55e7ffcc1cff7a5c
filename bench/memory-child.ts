// Measurement 4, run in its own process (`node --expose-gc`) so that the RSS figures belong to the
// bridge alone: peak RSS of the bridge serving one model, then RSS and heap while it handles
// joint-state messages, sampled after forced garbage collections.
//
// usage: node --expose-gc memory-child.js MODEL_FILE MESSAGES MESH_DIR   → one JSON object on stdout
import { movingJointNames, jointPositions } from './tf.js';
import type { JointState } from '../src/messages/messages.js';
import { resolveSubjects } from './subjects.js';
import { writeJointState } from '../src/cdr/joint-state.js';
import { writeStamp } from '../src/cdr/header-splice.js';

export interface MemorySample {
  messages: number;
  rssBytes: number;
  heapUsedBytes: number;
}

export interface MemoryReply {
  file: string;
  links: number;
  movingJoints: number;
  /** After startup and imports, before loading the model. */
  baselineRssBytes: number;
  /** Highest RSS of the process up to serving the model (getrusage ru_maxrss). */
  peakRssAfterLoadBytes: number;
  /** RSS after a full GC while serving the model. */
  servingRssBytes: number;
  samples: MemorySample[];
  /** Highest RSS of the whole run. */
  peakRssBytes: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

function collect(): void {
  // Two passes: the first may only schedule finalization of weak structures.
  gc!();
  gc!();
}

const sample = (messages: number): MemorySample => {
  collect();
  const m = process.memoryUsage();
  return { messages, rssBytes: m.rss, heapUsedBytes: m.heapUsed };
};

async function main(): Promise<void> {
  const [file, count, meshDir] = process.argv.slice(2);
  if (!gc || !file || !count || !meshDir) throw new Error('usage: node --expose-gc memory-child.js MODEL_FILE MESSAGES MESH_DIR');
  const total = Number(count);
  const { loadRobotModel, toUrdf, startRobotPublisher } = await resolveSubjects(meshDir);
  if (!loadRobotModel.ok) throw new Error(loadRobotModel.reason);
  if (!toUrdf.ok) throw new Error(toUrdf.reason);
  if (!startRobotPublisher.ok) throw new Error(startRobotPublisher.reason);

  collect();
  const baselineRssBytes = process.memoryUsage().rss;
  const driver = startRobotPublisher.value(file, loadRobotModel.value, toUrdf.value);
  const peakRssAfterLoadBytes = process.resourceUsage().maxRSS * 1024;
  const servingRssBytes = sample(0).rssBytes;

  const names = movingJointNames(driver.model);
  // Serialized once, as rclnodejs hands the node a JointState; each send writes its own stamp.
  const pool: Uint8Array[] = jointPositions(7, 100, names.length).map((position) =>
    writeJointState({ header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' }, name: names, position, velocity: [], effort: [] }),
  );
  const samples: MemorySample[] = [];
  const every = Math.max(1, Math.floor(total / 10));
  let stampNs = 1_000_000_000;
  for (let i = 1; i <= total; i++) {
    const bytes = pool[i % pool.length]!;
    stampNs += 100_000_000;
    const stamp = { sec: Math.floor(stampNs / 1e9), nanosec: stampNs % 1e9 };
    writeStamp(bytes, stamp);
    driver.send(bytes, stamp);
    // The in-memory transport records every publication (a real one sends and forgets): drop them.
    if (i % 1000 === 0) driver.drain();
    if (i % every === 0) {
      driver.drain();
      samples.push(sample(i));
    }
  }
  driver.stop();
  const reply: MemoryReply = {
    file,
    links: driver.model.links.length,
    movingJoints: names.length,
    baselineRssBytes,
    peakRssAfterLoadBytes,
    servingRssBytes,
    samples,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
