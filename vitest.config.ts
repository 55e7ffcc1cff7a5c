import { defineConfig } from 'vitest/config';
import summaryReporter from './test/support/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Each run works in a temporary directory of its own and fails if a test leaves anything there.
    globalSetup: ['test/support/temp-guard.ts'],
    reporters: ['default', summaryReporter],
  },
});
