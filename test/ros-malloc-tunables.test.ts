// The node's glibc malloc settings (src/ros/malloc-tunables.ts) and the installed launcher that applies them
// (cmake/body_bridge.in): the launcher, run by sh, must export what withMallocTunables computes, keep a
// user's own values, and glibc must parse them (ld.so lists each tunable as it read it).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MALLOC_TUNABLES, withMallocTunables } from '../src/ros/malloc-tunables.js';

const scratch = mkdtempSync(join(tmpdir(), 'bb-malloc-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The launcher installed under a fake prefix, with a stand-in for node that prints GLIBC_TUNABLES. */
function launcherTunables(env: NodeJS.ProcessEnv): string {
  const bin = join(scratch, 'lib', 'body_bridge');
  mkdirSync(bin, { recursive: true });
  const launcher = join(bin, 'body_bridge');
  writeFileSync(launcher, readFileSync(join(import.meta.dirname, '..', 'cmake', 'body_bridge.in'), 'utf8').replaceAll('@PROJECT_NAME@', 'body_bridge'));
  chmodSync(launcher, 0o755);
  const fakeNode = join(scratch, 'fake-node');
  writeFileSync(fakeNode, '#!/bin/sh\nprintf %s "$GLIBC_TUNABLES"\n');
  chmodSync(fakeNode, 0o755);
  const { GLIBC_TUNABLES: _, ...rest } = process.env;
  return execFileSync('sh', [launcher, '--ros-args'], { env: { ...rest, ...env, BODY_BRIDGE_NODE: fakeNode }, encoding: 'utf8' });
}

describe('withMallocTunables', () => {
  it('adds both settings to an empty environment', () => {
    expect(withMallocTunables(undefined)).toBe('glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864');
    expect(withMallocTunables('')).toBe(withMallocTunables(undefined));
  });

  it("keeps the user's own value and other tunables", () => {
    expect(withMallocTunables('glibc.malloc.trim_threshold=1000:glibc.pthread.rseq=0')).toBe(
      'glibc.malloc.trim_threshold=1000:glibc.pthread.rseq=0:glibc.malloc.mmap_threshold=33554432',
    );
  });

  it('does not take a longer name for ours', () => {
    expect(withMallocTunables('glibc.malloc.mmap_threshold_x=1')).toContain('glibc.malloc.mmap_threshold=33554432');
  });
});

describe('the installed launcher', () => {
  for (const current of [undefined, 'glibc.malloc.trim_threshold=1000:glibc.pthread.rseq=0', 'glibc.malloc.mmap_threshold=4096', 'glibc.malloc.mmap_threshold_x=1']) {
    it(`exports what withMallocTunables gives for GLIBC_TUNABLES=${current ?? '(unset)'}`, () => {
      expect(launcherTunables(current === undefined ? {} : { GLIBC_TUNABLES: current })).toBe(withMallocTunables(current));
    });
  }
});

describe('glibc', () => {
  // ld.so --list-tunables prints each tunable's value as glibc parsed it (glibc ≥ 2.33). malloc then ignores an
  // mmap_threshold above its cap (half of a 64 MB heap on 64-bit) without a word, so that is checked too.
  const ldso = ['/lib64/ld-linux-x86-64.so.2', '/lib/ld-linux-aarch64.so.1'].find((p) => spawnSync('test', ['-x', p]).status === 0);
  it.skipIf(ldso === undefined)('takes both values', () => {
    const listed = execFileSync(ldso!, ['--list-tunables'], { env: { GLIBC_TUNABLES: withMallocTunables(undefined) }, encoding: 'utf8' });
    for (const [name, value] of MALLOC_TUNABLES) {
      const line = listed.split('\n').find((l) => l.startsWith(`${name}:`));
      expect(line, name).toBeDefined();
      expect(Number.parseInt(line!.split(':')[1]!.trim(), 16), name).toBe(value);
    }
    expect(MALLOC_TUNABLES.find(([n]) => n === 'glibc.malloc.mmap_threshold')![1]).toBeLessThanOrEqual(32 * 1024 * 1024);
  });
});
