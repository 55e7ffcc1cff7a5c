// Every OpenHRP .wrl model Choreonoid loads (and its modelFile: wrappers) equals Choreonoid's own
// loader output; the two files Choreonoid rejects load with the documented readings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { loadVrmlModel } from '../src/vrml/index.js';
import { compareWithOracle, corpusDir, oracleEntries } from './support/oracle.js';

const wrl = oracleEntries((f) => f.endsWith('.wrl'));
const accepted = wrl.filter((e) => e.oracle.ok);
// Wrappers: YAML files whose top level names a .wrl with modelFile: (found from the corpus text).
const wrappers = oracleEntries((f) => /\.(yaml|body)$/.test(f)).filter(
  (e) => e.oracle.ok && /^(modelFile|model_file):\s*"?[^\s"]+\.wrl"?\s*$/m.test(readFileSync(e.modelPath, 'utf8')),
);

describe('OpenHRP .wrl models against the Choreonoid oracle', () => {
  test('the corpus has the OpenHRP models the oracle covers', () => {
    expect(accepted.length).toBeGreaterThanOrEqual(88);
    expect(wrl.filter((e) => !e.oracle.ok).map((e) => e.file).sort()).toEqual([
      'openhrp3/sample/model/closed-link-sample.wrl',
      'openhrp3/sample/model/crawler.wrl',
    ]);
  });

  test.each(accepted.map((e) => [e.file, e] as const))('%s', (_file, entry) => {
    const model = loadVrmlModel(entry.modelPath);
    expect(model.format).toBe('wrl');
    expect(compareWithOracle(model, entry.oracle)).toEqual([]);
  });
});

describe('modelFile: wrappers of .wrl models', () => {
  test('the corpus has the three legacy wrappers', () => {
    expect(wrappers.map((e) => e.file).sort()).toEqual([
      'choreonoid-legacy-wrl/share/model/PA10/PA10.yaml',
      'choreonoid-legacy-wrl/share/model/RIC30/RIC30.yaml',
      'choreonoid-legacy-wrl/share/model/SR1/SR1.yaml',
    ]);
  });

  test.each(wrappers.map((e) => [e.file, e] as const))('%s', (_file, entry) => {
    const model = loadRobotModel(entry.modelPath);
    expect(model.format).toBe('wrl');
    expect(compareWithOracle(model, entry.oracle)).toEqual([]);
  });
});

describe('models Choreonoid rejects', () => {
  test('closed-link-sample.wrl: the "xy" ExtraJoint is kept as a piston and reported', () => {
    const model = loadVrmlModel(join(corpusDir, 'openhrp3/sample/model/closed-link-sample.wrl'));
    // The legacy ClosedLinkSample.wrl is the same mechanism written with Choreonoid's "piston", and
    // Choreonoid loads that one: both must read the same.
    const [legacy] = oracleEntries((f) => f === 'choreonoid-legacy-wrl/share/model/misc/ClosedLinkSample.wrl');
    expect(compareWithOracle(model, legacy!.oracle)).toEqual([]);
    expect(model.extraJoints).toHaveLength(1);
    expect(model.extraJoints[0]).toMatchObject({ type: 'piston', link1: 'J1', link2: 'J3', axis: [0, 0, 1] });
    const warning = model.warnings.find((w) => /ExtraJoint/.test(w.message) && /"xy"/.test(w.message));
    expect(warning).toMatchObject({ severity: 'warning', line: 130, column: 13 });
  });

  test('crawler.wrl: crawler joints are pseudo continuous tracks, with a warning each', () => {
    const model = loadVrmlModel(join(corpusDir, 'openhrp3/sample/model/crawler.wrl'));
    const tracks = model.links.filter((l) => l.joint.type === 'pseudo_continuous_track');
    expect(tracks.map((l) => l.name)).toEqual(['CRAWLER_TRACK_L', 'CRAWLER_TRACK_R']);
    expect(model.links[0]).toMatchObject({ name: 'BODY', parent: null });
    expect(model.links[0]!.joint.type).toBe('free');
    const warnings = model.warnings.filter((w) => /crawler/.test(w.message));
    expect(warnings.map((w) => w.line)).toEqual([350, 393]);
  });
});
