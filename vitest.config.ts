import { defineConfig } from 'vitest/config';
import summaryReporter from './test/support/summary-reporter.js';
import { launcherNodeFlags } from './test/support/node-flags.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The node's runtime as its launcher gives it: the transports then free a message's bytes after its callback,
    // and a subscriber that kept them would see them empty.
    execArgv: launcherNodeFlags(),
    // Each run works in a temporary directory of its own and fails if a test leaves anything there.
    globalSetup: ['test/support/temp-guard.ts'],
    reporters: ['default', summaryReporter],
  },
});
