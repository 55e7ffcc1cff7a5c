// The limits of src/model/options.ts and how to raise them (docs/errors-and-limits.md): defaults, the
// BODY_BRIDGE_MAX_* environment variables, and LoadOptions.limits, most specific winning.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { defaultLimits, limitEnvironment, resolveLimits } from '../src/model/options.js';
import { baseBody, caseDir, expectLoads, scratchRoot } from './hostile/case-kit.js';
import { describeOutcome, runCase, startLoadRunner } from './support/contract.js';

describe('resolveLimits', () => {
  test('the documented defaults', () => {
    expect(resolveLimits({}, {})).toEqual({
      maxFileBytes: 64 * 1024 * 1024,
      maxAliases: 10_000,
      maxDepth: 1_000,
      maxIncludedFiles: 10_000,
      maxTriangles: 20_000_000,
    });
  });

  test('each BODY_BRIDGE_MAX_* variable sets its limit', () => {
    const env = {
      BODY_BRIDGE_MAX_FILE_BYTES: '268435456',
      BODY_BRIDGE_MAX_ALIASES: '50000',
      BODY_BRIDGE_MAX_DEPTH: '2000',
      BODY_BRIDGE_MAX_INCLUDED_FILES: '20000',
      BODY_BRIDGE_MAX_TRIANGLES: '100000000',
    };
    expect(resolveLimits({}, env)).toEqual({
      maxFileBytes: 268435456,
      maxAliases: 50000,
      maxDepth: 2000,
      maxIncludedFiles: 20000,
      maxTriangles: 100000000,
    });
    expect(Object.values(limitEnvironment).sort()).toEqual(Object.keys(env).sort());
  });

  test('LoadOptions.limits wins over the environment', () => {
    expect(resolveLimits({ limits: { maxDepth: 10 } }, { BODY_BRIDGE_MAX_DEPTH: '2000' }).maxDepth).toBe(10);
  });

  test.each(['', ' ', '0', '-5', '1.5', '1e9', 'lots', '99999999999999999999'])('an environment value %j that is not a positive integer is ignored', (value) => {
    expect(resolveLimits({}, { BODY_BRIDGE_MAX_DEPTH: value }).maxDepth).toBe(defaultLimits.maxDepth);
  });
});

describe('raising and lowering limits from the environment reaches the loaders', () => {
  test('BODY_BRIDGE_MAX_FILE_BYTES=1000 → arm.body (over 1000 bytes) fails with an error naming the limit; unset, it loads', async () => {
    expect(Buffer.byteLength(baseBody)).toBeGreaterThan(1000);
    const scratch = scratchRoot('limits');
    const lowered = startLoadRunner({ env: { ...process.env, BODY_BRIDGE_MAX_FILE_BYTES: '1000' } });
    const plain = startLoadRunner({ env: { ...process.env, BODY_BRIDGE_MAX_FILE_BYTES: '' } });
    try {
      const dir = caseDir(scratch.root, { 'robot.body': baseBody });
      const file = join(dir, 'robot.body');
      // Where the error is located is the contract's business (hostile-big has the file-size case); here: the limit applies.
      const run = await runCase(lowered, { file, caseDir: join(dir, '..'), urdf: false });
      expect(run.outcome.kind, describeOutcome(run.outcome)).toBe('load-error');
      if (run.outcome.kind === 'load-error') expect(run.outcome.diagnostics[0]?.message).toMatch(/\b1000\b/);
      expectLoads(await runCase(plain, { file, caseDir: join(dir, '..'), urdf: false }));
    } finally {
      lowered.close();
      plain.close();
      scratch.dispose();
    }
  });
});
