// The running node under hostile input: joint_states with unknown names, NaN, mismatched
// lengths, huge arrays, stamps far in the future or past, 10 kHz floods; body_file turning broken,
// missing, a directory, back and forth; an unwritable mesh directory. The node must keep serving the
// last good model and TF, log each problem once per throttle window, and keep its memory flat.
// Each scenario runs in a child process (test/hostile/node-scenarios.ts) with a time bound and
// --expose-gc, over the real loader, URDF writer and bridge on the in-memory transport.
import { afterAll, describe, expect, test } from 'vitest';
import { MB } from './hostile/case-kit.js';
import { disposeScenarios, scenario } from './hostile/node-kit.js';

afterAll(disposeScenarios);

describe('joint_states from anything', () => {
  const report = scenario('jointStates');

  test('the model is served and a good message moves the joint on /tf', () => {
    expect(report.served).toBe(true);
    expect(report.baseline).toBe(true);
  });

  test.each([
    ['unknownNames', '1000 messages naming an unknown joint within 1 s', 1],
    ['nan', '100 messages with a NaN position', 1],
    ['infinity', '100 messages with ±Infinity positions', 2],
    ['lengthMismatch', '100 messages with 2 names and 1 position', 1],
  ])('%s (%s): no exception, /tf keeps following good messages, logged once per throttle window', (key, _what, maxLogs) => {
    const s = report.steps[key];
    expect(s.threw).toBeNull();
    expect(s.tfFollows).toBe(true);
    expect(s.logs).toBeGreaterThanOrEqual(1);
    expect(s.logs).toBeLessThanOrEqual(maxLogs);
  });

  test('no NaN or Infinity ever reaches /tf', () => {
    expect(report.allTfFinite).toBe(true);
  });

  test('a joint named with a megabyte of text: no exception, /tf keeps following, log lines stay under 2,000 characters', () => {
    expect(report.steps.megabyteName.threw).toBeNull();
    expect(report.steps.megabyteName.tfFollows).toBe(true);
    expect(report.longestLogLine).toBeLessThan(2_000);
  });

  test('one message naming 100,000 unknown joints: one warning, not 100,000', () => {
    expect(report.steps.manyUnknownNamesInOneMessage.threw).toBeNull();
    expect(report.steps.manyUnknownNamesInOneMessage.tfFollows).toBe(true);
    expect(report.steps.manyUnknownNamesInOneMessage.logs).toBeLessThanOrEqual(1);
  });

  test('a 1,000,000-entry message: no exception, bounded CPU (< 5 s), /tf keeps following', () => {
    const s = report.steps.hugeArrays;
    expect(s.threw).toBeNull();
    expect(s.cpuMs).toBeLessThan(5_000);
    expect(s.tfFollows).toBe(true);
  });

  test.each([
    ['stampFarFuture', 'a stamp in 2038 (sec 2^31-1)'],
    ['stampFarPast', 'a stamp at 0'],
    ['stampNegative', 'a stamp at -2^31 s'],
    ['nanosecOutOfRange', 'nanosec 4294967295 (not normalised)'],
    ['malformedBytes', 'CDR bytes cut short, a billion names claimed, PL_CDR encapsulation, garbage'],
  ])('%s (%s): no exception, and good messages afterwards still move /tf', (key) => {
    const s = report.steps[key];
    expect(s.threw).toBeNull();
    expect(s.tfFollows).toBe(true);
  });

  test('malformed bytes are reported as malformed JointState messages (throttled: one warning)', () => {
    expect(report.steps.malformedBytes!.logs).toBe(1);
  });

  test('10 kHz flood for 5 s: /tf at publish_frequency (20 Hz ≈ 100 messages), no warnings, bounded CPU', () => {
    expect(report.flood.threw).toBeNull();
    expect(report.flood.tf).toBeGreaterThanOrEqual(95);
    expect(report.flood.tf).toBeLessThanOrEqual(105);
    expect(report.flood.warnings).toBe(0);
    expect(report.flood.cpuMs).toBeLessThan(10_000);
  });
});

describe('memory stays flat under a stream of hostile joint_states', () => {
  test('200,000 messages each naming a new unknown joint: heap grows < 8 MB after GC', () => {
    const r = scenario('memoryUniqueUnknown');
    expect(r.tfFollows).toBe(true);
    expect(r.growth).toBeLessThan(8 * MB);
  });

  test('200,000 messages mixing NaN, unknown names and length mismatches: heap grows < 8 MB after GC', () => {
    const r = scenario('memoryMixed');
    expect(r.tfFollows).toBe(true);
    expect(r.growth).toBeLessThan(8 * MB);
  });
});

describe('body_file turning bad while the node runs', () => {
  const report = scenario('reload');

  test('the model is served at start', () => {
    expect(report.servedAtStart).toBe(true);
    expect(report.descriptionsAtStart).toBe(1);
  });

  test('file becomes broken YAML: the last good model stays, the error is logged once with file:line:column, /tf continues', () => {
    expect(report.broken.stillServingSame).toBe(true);
    expect(report.broken.errors).toBe(1);
    expect(report.broken.located).toBe(true);
    expect(report.broken.tfFollows).toBe(true);
    // Still broken ten seconds later: no new error per watch tick.
    expect(report.brokenFor10s.errors).toBe(1);
    expect(report.brokenFor10s.tfFollows).toBe(true);
  });

  test('file fixed: the new model is served and robot_description republished', () => {
    expect(report.restored.newModel).toBe(true);
    expect(report.restored.descriptions).toBe(2);
    expect(report.restored.tfFollows).toBe(true);
  });

  test('file deleted: the last good model stays, no error flood', () => {
    expect(report.missing.stillServing).toBe(true);
    expect(report.missing.errors).toBeLessThanOrEqual(1);
    expect(report.missing.tfFollows).toBe(true);
  });

  test('file replaced by a directory: logged, the last good model stays; a good file afterwards is loaded', () => {
    expect(report.directory.stillServing).toBe(true);
    expect(report.directory.errors).toBeLessThanOrEqual(1);
    expect(report.directory.tfFollows).toBe(true);
    expect(report.afterDirectory.reloaded).toBe(true);
    expect(report.afterDirectory.tfFollows).toBe(true);
  });

  test('broken and good every 100 ms, 40 times: no exception, never without a model, /tf never lost, ends on the last good file', () => {
    expect(report.backAndForth.threw).toBeNull();
    expect(report.backAndForth.lostModel).toBe(false);
    expect(report.backAndForth.tfLost).toBe(0);
    expect(report.backAndForth.errors).toBeLessThanOrEqual(40);
    expect(report.backAndForth.finalIsLastGood).toBe(true);
  });

  test.each(['missing', 'directory', 'broken'])('setting body_file to a %s file is refused with a reason; the served model and parameter stay', (key) => {
    const r = report.setParams[key];
    expect(r.successful).toBe(false);
    expect(r.reason.length).toBeGreaterThan(10);
    expect(r.reason).not.toMatch(/^threw /);
    expect(r.stillServing).toBe(true);
    expect(report.paramsKept).toBe(true);
  });

  test('the refusal of a broken file names file:line:column', () => {
    expect(report.setParams.broken.reason).toMatch(/broken\.body:\d+:\d+/);
  });

  test('100 broken → good reload cycles: heap grows < 8 MB after GC, no temp files left in the mesh dir', () => {
    expect(report.reloadMemory.growth).toBeLessThan(8 * MB);
    expect(report.meshDir.files).toBeGreaterThan(0);
    expect(report.meshDir.tempLeft).toEqual([]);
  });
});

describe('an unwritable mesh directory', () => {
  const report = scenario('meshDir');

  test('mesh_dir under a regular file at start: the node stays up with nothing served and says why', () => {
    expect(report.startThrew).toBeNull();
    expect(report.servedWithBadDir).toBe(false);
    expect(report.errorNamesDir).toBe(true);
    expect(report.injectThrew).toBeNull();
  });

  test('then a writable mesh_dir: the model is loaded and served, meshes written without temp files', () => {
    expect(report.toGood.successful).toBe(true);
    expect(report.toGood.served).toBe(true);
    expect(report.toGood.descriptions).toBe(1);
    expect(report.toGood.tfFollows).toBe(true);
    expect(report.goodDir.files).toBeGreaterThan(0);
    expect(report.goodDir.tempLeft).toEqual([]);
  });

  test('serving, then mesh_dir changed to the unwritable one: refused; model, description and parameter stay', () => {
    expect(report.toBad.servedBefore).toBe(true);
    expect(report.toBad.successful).toBe(false);
    expect(report.toBad.reason.length).toBeGreaterThan(10);
    expect(report.toBad.stillServing).toBe(true);
    expect(report.toBad.descriptionsUnchanged).toBe(true);
    expect(report.toBad.meshDirKept).toBe(true);
    expect(report.toBad.tfFollows).toBe(true);
  });
});
