// Runs one scenario of test/hostile/node-scenarios.ts in a child process (compiled with src/) with a
// time bound and --expose-gc, on a fresh copy of the base model, and returns its JSON report.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledTree } from '../support/contract.js';
import { hostileModels, MB } from './case-kit.js';

const roots: string[] = [];

export function disposeScenarios(): void {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
}

// biome-ignore lint/suspicious/noExplicitAny: the report is JSON from the child; the assertions give it its shape.
export type Report = any;

export function scenario(name: string, timeoutMs = 120_000): Report {
  const work = mkdtempSync(join(tmpdir(), `bb-node-${name}-`));
  roots.push(work);
  copyFileSync(join(hostileModels, 'arm.body'), join(work, 'robot.body'));
  copyFileSync(join(hostileModels, 'parts.wrl'), join(work, 'parts.wrl'));
  const script = join(compiledTree(), 'test/hostile/node-scenarios.js');
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=512', script, name, work, join(work, 'robot.body')], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * MB,
  });
  if (r.error) throw new Error(`scenario ${name}: ${r.error.message} (a hang is a failure)`);
  if (r.status !== 0) throw new Error(`scenario ${name} died (${r.status ?? r.signal}): ${r.stderr.slice(-3000)}`);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '{}');
}
