// Measurement 4 (parent side): runs memory-child.js in a fresh `node --expose-gc` process.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoryReply } from './memory-child.js';

export interface MemoryMeasurement extends MemoryReply {
  /** Corpus-relative name of the model. */
  model: string;
  messages: number;
  /** RSS and heap change from the first sample (10 % of the messages, after warm-up) to the last. */
  rssGrowthBytes: number;
  heapGrowthBytes: number;
  /** heapGrowthBytes / messages after the first sample: what a leak per message would show. */
  heapGrowthPerMessageBytes: number;
}

export function measureMemory(file: string, model: string, messages: number, meshDir: string): MemoryMeasurement {
  const child = join(dirname(fileURLToPath(import.meta.url)), 'memory-child.js');
  const r = spawnSync(process.execPath, ['--expose-gc', child, file, String(messages), meshDir], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`memory child failed: ${(r.stderr || r.error?.message || '').trim()}`);
  const reply = JSON.parse(r.stdout) as MemoryReply;
  const first = reply.samples[0];
  const last = reply.samples[reply.samples.length - 1];
  if (!first || !last) throw new Error('memory child returned no samples');
  const span = last.messages - first.messages;
  return {
    ...reply,
    model,
    messages,
    rssGrowthBytes: last.rssBytes - first.rssBytes,
    heapGrowthBytes: last.heapUsedBytes - first.heapUsedBytes,
    heapGrowthPerMessageBytes: span > 0 ? (last.heapUsedBytes - first.heapUsedBytes) / span : 0,
  };
}
