// The run's account of the live suites, in one place at its end: which ROS 2 was sourced, and for each live
// suite whether it ran (its counts and time) or was skipped (for want of which peer). CI logs are read from
// the bottom; a landing whose live suites all skipped must say so there, not only in the per-file lines above.
// No vitest here: the reporter runs in vitest's main process and hands plain data in.
import { relative } from 'node:path';
import type { PeerNote } from './peer-notes.js';

/** A live suite is a test file named test/ros-live*.test.ts: the ones that start real ROS 2 peers. */
export const isLiveSuite = (file: string): boolean => /(^|[\\/])ros-live[^\\/]*\.test\.ts$/.test(file);

export interface SuiteRun {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Import, collection (the live suites look their peers up there) and tests, in ms. */
  millis: number;
  /** The file failed outside its tests (an import, a beforeAll or afterAll that threw); counted in `failed`. */
  fileFailed?: boolean;
}

/**
 * One file's account from its tests' states and its own. A beforeAll that throws leaves every test of the file
 * "skipped", and a file that fails to import has no tests: either way the file is one failure, never a skip.
 */
export function suiteRun(file: string, testStates: readonly string[], fileState: string, millis: number): SuiteRun {
  const run: SuiteRun = { file, passed: 0, failed: 0, skipped: 0, millis };
  for (const state of testStates) {
    if (state === 'passed') run.passed++;
    else if (state === 'failed') run.failed++;
    else run.skipped++;
  }
  if (fileState === 'failed' && run.failed === 0) {
    run.failed = 1;
    run.fileFailed = true;
  }
  return run;
}

const minutes = (ms: number): string => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`);

/** Which ROS 2 the run had, from the environment its setup.bash left. */
export function rosOfRun(env: NodeJS.ProcessEnv): string {
  if (!env.AMENT_PREFIX_PATH) return 'no ROS 2 sourced (AMENT_PREFIX_PATH is not set)';
  const where = env.BODY_BRIDGE_ROS_SETUP ?? env.AMENT_PREFIX_PATH.split(':').filter((p) => p !== '').at(-1) ?? '';
  return `ROS 2 ${env.ROS_DISTRO ?? '(ROS_DISTRO unset)'}${where ? ` from ${where}` : ''}`;
}

/**
 * The block printed before the closing `tests:` line: one row per live suite, ran or skipped with the peers it
 * went without, then the time the live suites took against the whole run's test files.
 */
export function liveSuitesSummary(runs: readonly SuiteRun[], notes: readonly PeerNote[], env: NodeJS.ProcessEnv, root: string): string[] {
  const live = runs.filter((r) => isLiveSuite(r.file)).sort((a, b) => a.file.localeCompare(b.file));
  if (live.length === 0) return [];
  const name = (f: string): string => relative(root, f) || f;
  const width = Math.max(...live.map((r) => name(r.file).length));
  const lines = [`Live suites, ${rosOfRun(env)}:`];
  for (const r of live) {
    const absent = [...new Set(notes.filter((n) => n.file === r.file && !n.part).map((n) => n.peer))].sort();
    const ran = r.passed + r.failed;
    const state = r.fileFailed
      ? `failed outside its tests (its error is above), ${r.passed} passed, ${r.skipped} skipped`
      : ran === 0
        ? `skipped${absent.length > 0 ? ` (no ${absent.join(', no ')})` : ''}`
        : `ran: ${r.passed} passed, ${r.failed} failed` + (r.skipped > 0 ? `, ${r.skipped} skipped${absent.length > 0 ? ` (no ${absent.join(', no ')})` : ''}` : '');
    lines.push(`  ${name(r.file).padEnd(width)}  ${state}, ${minutes(r.millis)}`);
  }
  const liveMillis = live.reduce((s, r) => s + r.millis, 0);
  const allMillis = runs.reduce((s, r) => s + r.millis, 0);
  lines.push(`  live suites ${minutes(liveMillis)} of ${minutes(allMillis)} summed over all ${runs.length} test files`);
  return lines;
}
