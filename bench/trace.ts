// Which files a load reads, so the peer parses the same bytes. The loaders import readFileSync /
// openSync from node:fs as named ESM bindings; patching the CommonJS module object and calling
// syncBuiltinESMExports() updates those bindings for the duration of one traced call.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

function pathOf(target: unknown): string | undefined {
  if (typeof target === 'string') return resolve(target);
  if (target instanceof URL) return fileURLToPath(target);
  if (Buffer.isBuffer(target)) return resolve(target.toString());
  return undefined;
}

/** Runs `run` and returns the absolute paths of every file it read (in first-read order). */
export function traceReads<T>(run: () => T): { result: T; files: string[] } {
  const files = new Set<string>();
  const note = (target: unknown): void => {
    const p = pathOf(target);
    if (p !== undefined) files.add(p);
  };
  const originalRead = fs.readFileSync;
  const originalOpen = fs.openSync;
  fs.readFileSync = ((target: unknown, ...rest: unknown[]) => {
    note(target);
    return (originalRead as (...a: unknown[]) => unknown)(target, ...rest);
  }) as typeof fs.readFileSync;
  fs.openSync = ((target: unknown, ...rest: unknown[]) => {
    note(target);
    return (originalOpen as (...a: unknown[]) => unknown)(target, ...rest);
  }) as typeof fs.openSync;
  syncBuiltinESMExports();
  try {
    return { result: run(), files: [...files] };
  } finally {
    fs.readFileSync = originalRead;
    fs.openSync = originalOpen;
    syncBuiltinESMExports();
  }
}
