// The contract checker must itself be able to fail: a stand-in worker misbehaves in each way a
// loader can (hang, stack overflow, out of memory, stray TypeError, unlocated error, NaN in the
// model, two roots, dying) and each must come out as a violation; the well-behaved outcomes must not.
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { contractViolations, projectRoot, startLoadRunner } from './support/contract.js';

const runner = startLoadRunner({
  workerJs: join(projectRoot, 'test/hostile/misbehaving-worker.mjs'),
  timeoutMs: 3_000,
  maxOldSpaceMb: 64,
});
afterAll(() => runner.close());

const outcomeOf = (name: string) => runner.run({ file: `/cases/${name}`, options: {} });

describe('contract self-test', () => {
  test.each(['ok', 'located'])('%s → no violation', async (name) => {
    expect(contractViolations(await outcomeOf(name))).toEqual([]);
  });

  test.each([
    ['unlocated', /no line:column/],
    ['nofile', /no file/],
    ['ghostfile', /names a file that does not exist/],
    ['leaky', /leaks an internal value/],
    ['typeerror', /TypeError escaped/],
    ['stack', /RangeError escaped/],
    ['nan', /NaN at links\[0\]\.mass/],
    ['infinitePose', /Infinity at links\[0\]\.offset/],
    ['twoRoots', /parent null is not an earlier link/],
    ['hang', /hang: no answer within/],
    ['oom', /child process died/],
    ['exit', /child process died \(code 3/],
  ])('%s → violation %s', async (name, pattern) => {
    const violations = contractViolations(await outcomeOf(name));
    expect(violations.join('\n')).toMatch(pattern);
  });

  test('the runner recovers after a hang and a crash', async () => {
    await outcomeOf('hang');
    await outcomeOf('exit');
    expect(contractViolations(await outcomeOf('ok'))).toEqual([]);
  });
});
