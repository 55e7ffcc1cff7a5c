// Builds the small C++ programs that drive a peer library (test/peers/*.cpp, bench/*.cpp) into build/.
// A binary is reused while its source is older and it was built with the same command: the flags change
// when the peers do (a ROS 2 sourced or not), and an old binary would then test another library.
// Plain Node: the benchmarks use it too.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CompileFlags } from './peers.js';

export interface Harness {
  cxx: string;
  source: string;
  binary: string;
  flags: CompileFlags;
  /** Before the peer's flags (-O2, …); a -std=… here is overridden by one in the peer's cflags, so put it in `after`. */
  before?: string[];
  after?: string[];
}

export function compileHarness(h: Harness): string {
  const args = [...(h.before ?? []), '-o', `${h.binary}.${process.pid}`, h.source, ...h.flags.cflags, ...h.flags.libs, ...(h.after ?? [])];
  const stampFile = `${h.binary}.cmd`;
  const stamp = JSON.stringify([h.cxx, ...args.filter((a) => !a.startsWith(h.binary))]);
  const fresh =
    existsSync(h.binary) &&
    statSync(h.binary).mtimeMs >= statSync(h.source).mtimeMs &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp;
  if (fresh) return h.binary;
  mkdirSync(dirname(h.binary), { recursive: true });
  try {
    execFileSync(h.cxx, args, { stdio: 'pipe' });
  } catch (error) {
    rmSync(`${h.binary}.${process.pid}`, { force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`${h.cxx} ${args.join(' ')} failed:\n${stderr.slice(-4000)}`);
  }
  // Other test files may build the same harness at the same time: each writes its own file and renames it.
  renameSync(`${h.binary}.${process.pid}`, h.binary);
  writeFileSync(stampFile, stamp);
  return h.binary;
}
