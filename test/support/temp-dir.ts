// The one way tests get scratch space: a fresh folder under the run's temporary directory (see
// temp-guard.ts), removed after the file's tests whatever they did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A new folder for this test file, removed in afterAll. Call at the top level or in a describe block. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `body` with a fresh folder and removes it afterwards, also when `body` throws. */
export async function withScratchDir<T>(prefix: string, body: (dir: string) => Promise<T> | T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
