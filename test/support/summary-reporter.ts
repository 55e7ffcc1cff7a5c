// Prints what was skipped for want of which peer (and how to install it), which live suites ran against which
// ROS 2 (live-summary.ts), then one plain closing line,
// `tests: N passed, N failed, N skipped`, that any CI log reader understands. That line stays last.
import type { Reporter, TestModule } from 'vitest/node';
import { liveSuitesSummary, type SuiteRun } from './live-summary.js';
import { formatNotes, readNotes } from './peer-notes.js';

const summaryReporter: Reporter = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const runs: SuiteRun[] = [];
    for (const module of testModules) {
      const run: SuiteRun = { file: module.moduleId, passed: 0, failed: 0, skipped: 0, millis: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') run.passed++;
        else if (state === 'failed') run.failed++;
        else run.skipped++;
      }
      // A file that fails to import has no tests but is still a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) run.failed++;
      const d = module.diagnostic();
      run.millis = d.collectDuration + d.duration;
      passed += run.passed;
      failed += run.failed;
      skipped += run.skipped;
      runs.push(run);
    }
    const notes = readNotes();
    const peers = formatNotes(notes, process.cwd());
    if (peers.length > 0) process.stdout.write(`\n${peers.join('\n')}\n`);
    const live = liveSuitesSummary(runs, notes, process.env, process.cwd());
    if (live.length > 0) process.stdout.write(`\n${live.join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  },
};

export default summaryReporter;
