// The benchmark harness itself, on a tiny input: `npm run bench -- --tiny` must run every
// measurement end to end and write a well-formed result file whose ratios are finite and positive.
// No timing thresholds: speed is judged in BENCHMARKS.md, not here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarize } from '../bench/stats.js';
import { tinyConfig } from '../bench/config.js';
import { projectRoot, requireShared } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { findCxx, findKdl, findPythonLibyaml } from './support/peers.js';

interface Stats {
  n: number;
  median: number;
  min: number;
  max: number;
  q1: number;
  q3: number;
}

type Json = Record<string, unknown>;

/** Every value under a key named `key`, anywhere in the tree, with its path. */
function collect(node: unknown, key: string, path = '$', out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(node)) node.forEach((x, i) => collect(x, key, `${path}[${i}]`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push([`${path}.${k}`, v]);
      collect(v, key, `${path}.${k}`, out);
    }
  }
  return out;
}

function expectStats(s: unknown, reps: number, where: string): void {
  const st = s as Stats;
  expect(st, where).toMatchObject({ n: reps });
  for (const k of ['median', 'min', 'max', 'q1', 'q3'] as const) {
    expect(Number.isFinite(st[k]) && st[k] > 0, `${where}.${k} = ${String(st[k])}`).toBe(true);
  }
  expect(st.min <= st.q1 && st.q1 <= st.median && st.median <= st.q3 && st.q3 <= st.max, where).toBe(true);
}

describe('summarize (median and spread)', () => {
  it('gives the median, quartiles by linear interpolation, min and max', () => {
    expect(summarize([5, 1, 3, 2, 4])).toEqual({ n: 5, median: 3, min: 1, max: 5, q1: 2, q3: 4 });
    expect(summarize([4, 1, 2, 3])).toEqual({ n: 4, median: 2.5, min: 1, max: 4, q1: 1.75, q3: 3.25 });
  });
});

// Its peers: libyaml's C loader (through PyYAML) for the load, a C++ harness on KDL for TF.
describe.skipIf(skipWithout(findPythonLibyaml(), findCxx(), findKdl()))('npm run bench -- --tiny', () => {
  let dir = '';
  let results: Json = {};
  let markdown = '';

  beforeAll(() => {
    requireShared();
    dir = mkdtempSync(join(tmpdir(), 'bench-harness-'));
    const run = spawnSync('npm', ['run', 'bench', '--', '--tiny', '--out', dir], {
      cwd: projectRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`npm run bench failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    results = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as Json;
    markdown = readFileSync(join(dir, 'latest.md'), 'utf8');
  }, 600_000);

  afterAll(() => {
    if (dir && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  });

  it('records the run and the machine', () => {
    expect(results).toMatchObject({ schema: 1, mode: 'tiny' });
    const machine = results.machine as Json;
    expect(typeof machine.cpu).toBe('string');
    expect(machine.cores).toBeGreaterThan(0);
    expect(machine.node).toBe(process.version);
  });

  it('ran all four measurements, and every case of them', () => {
    for (const section of ['load', 'tf', 'sensors', 'memory']) {
      const s = results[section] as Json;
      expect(s.status, `${section}: ${String(s.reason)}`).toBe('ok');
    }
    for (const section of ['tf', 'sensors']) {
      for (const c of (results[section] as { cases: Json[] }).cases) expect(c.status, `${section} ${String(c.name)}: ${String(c.reason)}`).toBe('ok');
    }
  });

  it('every ratio is a finite positive number', () => {
    const ratios = collect(results, 'ratio').filter(([path]) => !path.includes('.peerError'));
    // Load: 2 groups + per model + big .wrl; TF: 2 cases; sensors: every case.
    expect(ratios.length).toBeGreaterThanOrEqual(2 + tinyConfig.models.length + 1 + 2 + 3);
    for (const [path, value] of ratios) {
      expect(typeof value === 'number' && Number.isFinite(value) && value > 0, `${path} = ${String(value)}`).toBe(true);
    }
  });

  it('load: every tiny model is timed against its peer, with median and spread', () => {
    const load = results.load as Json & { models: Json[]; groups: Json[]; failed: unknown[]; bigWrl: Json };
    expect(load.failed).toEqual([]);
    expect(load.models.map((m) => m.file).sort()).toEqual([...tinyConfig.models].sort());
    for (const m of load.models) {
      const where = String(m.file);
      expectStats(m.totalMs, tinyConfig.loadReps.reps, `${where}.totalMs`);
      expectStats(m.peerMs, tinyConfig.loadReps.reps, `${where}.peerMs`);
      expect(m.group).toBe(where.endsWith('.wrl') ? 'wrl' : 'yaml');
      expect(m.peerBytes as number).toBeGreaterThan(0);
    }
    expect(load.groups.map((g) => [g.group, g.models])).toEqual([
      ['yaml', 1],
      ['wrl', 1],
    ]);
    expect(load.bigWrl.triangles).toBe(2 * tinyConfig.bigWrl.rings * tinyConfig.bigWrl.segments);
  });

  it("choreonoid: Choreonoid's BodyLoader side by side where installed, otherwise not available with the reason", () => {
    const cn = results.choreonoid as Json;
    expect(cn, 'the choreonoid section is in every run').toBeDefined();
    if (cn.status !== 'ok') {
      // No Choreonoid on this machine: the reason says where it was looked for.
      expect(String(cn.reason)).toMatch(/Choreonoid|CHOREONOID_PREFIX|g\+\+/);
      expect(markdown).toMatch(/Load vs Choreonoid's BodyLoader \| not available: /);
      return;
    }
    type Row = { file: string; oursLoadMs: number; oursLoadUrdfMs: number; choreonoidMs: number; loadRatio: number; loadUrdfRatio: number };
    const models = cn.models as Row[];
    const skipped = cn.skipped as { file: string }[];
    // Every tiny model is either compared or skipped with a reason, never both.
    expect([...models.map((m) => m.file), ...skipped.map((s) => s.file)].sort()).toEqual([...tinyConfig.models].sort());
    for (const m of models) {
      for (const v of [m.oursLoadMs, m.oursLoadUrdfMs, m.choreonoidMs]) expect(Number.isFinite(v) && v > 0, m.file).toBe(true);
      expect(m.oursLoadUrdfMs).toBeGreaterThanOrEqual(m.oursLoadMs);
      expect(m.loadRatio).toBeCloseTo(m.oursLoadMs / m.choreonoidMs, 9);
    }
    const total = cn.total as { oursLoadMs: number; choreonoidMs: number; loadRatio: number };
    expect(total.choreonoidMs).toBeCloseTo(models.reduce((a, m) => a + m.choreonoidMs, 0), 9);
    expect(total.loadRatio).toBeCloseTo(total.oursLoadMs / total.choreonoidMs, 9);
    const worst = (cn.worst as Row[]).map((m) => m.loadRatio);
    expect(worst).toEqual([...worst].sort((a, b) => b - a));
    expect(markdown).toContain("### Load against Choreonoid's BodyLoader");
  });

  it('TF: both sides publish the same transforms for the same joint states', () => {
    for (const c of (results.tf as { cases: Json[] }).cases) {
      const where = String(c.name);
      expect(c.movingJoints as number, where).toBeGreaterThan(0);
      // Stamps 0.1 s apart: every message publishes every moving joint, on both sides.
      expect(c.oursTransformsPerMessage, where).toBe(c.movingJoints);
      expect(c.peerTransformsPerMessage, where).toBe(c.movingJoints);
      const a = c.agreement as { compared: number; missing: number; maxTranslationError: number; maxQuaternionError: number };
      expect(a.compared, where).toBe(c.movingJoints);
      expect(a.missing, where).toBe(0);
      expect(a.maxTranslationError, where).toBeLessThan(1e-9);
      expect(a.maxQuaternionError, where).toBeLessThan(1e-9);
    }
  });

  it('sensors: output sizes match the message layouts', () => {
    const cases = (results.sensors as { cases: Json[] }).cases;
    const byName = new Map(cases.map((c) => [String(c.name), c]));
    // CDR bytes in and out: the payloads plus headers, field layouts and (for cameras) a CameraInfo of a
    // few hundred bytes each.
    const sizes = (name: string, payloadIn: number, payloadOut: number): void => {
      const c = byName.get(name);
      expect(c, name).toBeDefined();
      const [inBytes, outBytes] = [c!.inputBytes as number, c!.outputBytes as number];
      expect(inBytes - payloadIn, `${name}: input overhead`).toBeGreaterThan(0);
      expect(inBytes - payloadIn, `${name}: input overhead`).toBeLessThan(400);
      expect(outBytes - payloadOut, `${name}: output overhead`).toBeGreaterThan(0);
      expect(outBytes - payloadOut, `${name}: output overhead`).toBeLessThan(1000);
    };
    // The image passes through whole, with a CameraInfo beside it.
    sizes('rgb8 640×480 image relay (Image → Image + CameraInfo)', 640 * 480 * 3, 640 * 480 * 3);
    // choreonoid_ros's x, y, z, rgb (16 B/point) in; the same layout out (organized, NaN for missing
    // pixels) and a 32FC1 depth image beside it.
    sizes('COLOR_DEPTH RangeCamera cloud 640×480 relay (PointCloud2 → PointCloud2 + depth Image + CameraInfo)', 640 * 480 * 16, 640 * 480 * (16 + 4));
    sizes('planar scan 1081 beams relay (LaserScan → LaserScan)', 1081 * 4, 1081 * 4);
    // Imu: four vectors' worth of float64 and three 3×3 covariances; WrenchStamped: two vectors.
    sizes('Imu relay (Imu → Imu)', (4 + 3 + 3 + 27) * 8, (4 + 3 + 3 + 27) * 8);
    sizes('ForceSensor relay (WrenchStamped → WrenchStamped)', 6 * 8, 6 * 8);
    for (const c of cases) expectStats(c.oursMs, tinyConfig.sensorReps.reps, String(c.name));
  });

  it('memory: samples RSS and heap across the joint-state messages', () => {
    const mem = results.memory as Json & { samples: { messages: number; rssBytes: number; heapUsedBytes: number }[] };
    expect(mem.messages).toBe(tinyConfig.memoryMessages);
    expect(mem.samples.map((s) => s.messages)).toEqual(Array.from({ length: 10 }, (_, i) => ((i + 1) * tinyConfig.memoryMessages) / 10));
    expect(mem.peakRssAfterLoadBytes as number).toBeGreaterThan(mem.baselineRssBytes as number);
    for (const s of mem.samples) expect(s.rssBytes > 0 && s.heapUsedBytes > 0).toBe(true);
  });

  it('writes the Markdown table next to the JSON', () => {
    expect(markdown).toContain('| measurement | body_bridge | peer / limit (same run) | peer | ratio | target |');
    // Every measurement ran; only the Choreonoid comparison may be unavailable (no Choreonoid installed, as in CI).
    const unavailable = markdown.split('\n').filter((line) => line.includes('not available'));
    expect(unavailable.filter((line) => !line.startsWith("| Load vs Choreonoid's BodyLoader | not available: "))).toEqual([]);
  });
});
