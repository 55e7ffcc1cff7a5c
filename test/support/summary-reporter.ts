// Prints what was skipped for want of which peer (and how to install it), which live suites ran against which
// ROS 2 (live-summary.ts), then one plain closing line,
// `tests: N passed, N failed, N skipped`, that any CI log reader understands. That line stays last.
import type { Reporter, TestModule } from 'vitest/node';
import { liveSuitesSummary, type SuiteRun, suiteRun } from './live-summary.js';
import { formatNotes, readNotes } from './peer-notes.js';

const summaryReporter: Reporter = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const runs: SuiteRun[] = [];
    for (const module of testModules) {
      const d = module.diagnostic();
      const states = [...module.children.allTests()].map((test) => test.result().state);
      const run = suiteRun(module.moduleId, states, module.state(), d.collectDuration + d.duration);
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
