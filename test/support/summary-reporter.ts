// Prints what was skipped for want of which peer (and how to install it), then one plain closing line,
// `tests: N passed, N failed, N skipped`, that any CI log reader understands. That line stays last.
import type { Reporter, TestModule } from 'vitest/node';
import { formatNotes, readNotes } from './peer-notes.js';

const summaryReporter: Reporter = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that fails to import has no tests but is still a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    const peers = formatNotes(readNotes(), process.cwd());
    if (peers.length > 0) process.stdout.write(`\n${peers.join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  },
};

export default summaryReporter;
