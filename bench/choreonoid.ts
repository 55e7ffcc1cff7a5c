// Load against Choreonoid's own C++ BodyLoader (issue 15): the same model files, loaded by
// cnoid::BodyLoader (shapes on, its default) in bench/choreonoid_load.cpp and by loadRobotModel
// (and loadRobotModel + toUrdf) here, best of a few repetitions each, models taken in chunks that
// alternate between the two sides so that a change in the machine's load hits both alike.
//
// Choreonoid is not part of the repository: the harness is compiled against an installed SDK, found by
// test/support/peers.ts (CHOREONOID_PREFIX, `choreonoid` on PATH, or its CMake config). Where none is
// installed the comparison is reported as not available, saying why. BENCHMARKS.md describes how the peer
// was built.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compileHarness } from '../test/support/harness.js';
import { findChoreonoid, findCxx, found, pkgConfig } from '../test/support/peers.js';
import type { CorpusModel } from './corpus.js';
import type { Repetitions } from './stats.js';
import type { ConvertToUrdf, LoadModel } from './subjects.js';
import { reasonOf } from './subjects.js';

export interface ChoreonoidModel {
  file: string;
  /** Best (smallest) of the timed repetitions, ms. */
  oursLoadMs: number;
  oursLoadUrdfMs: number;
  choreonoidMs: number;
  /** ours / Choreonoid. */
  loadRatio: number;
  loadUrdfRatio: number;
}

export interface ChoreonoidComparison {
  prefix: string;
  /** Choreonoid's version as its installed headers give it. */
  version: string;
  reps: Repetitions;
  /** Models both sides loaded: the comparison's set. */
  models: ChoreonoidModel[];
  /** Models left out, and which side failed them. */
  skipped: { file: string; side: 'choreonoid' | 'body_bridge'; reason: string }[];
  total: { oursLoadMs: number; oursLoadUrdfMs: number; choreonoidMs: number; loadRatio: number; loadUrdfRatio: number };
  /** Per-model load ratio: median, and how many models are above 3×. */
  medianLoadRatio: number;
  medianLoadUrdfRatio: number;
  modelsAbove3x: number;
  /** The ten highest load ratios, highest first. */
  worst: ChoreonoidModel[];
}

/** Compiles bench/choreonoid_load.cpp into build/ against the Choreonoid SDK that test/support/peers.ts finds. */
export function buildChoreonoidPeer(projectRoot: string): { binary: string; prefix: string; lib: string; version: string } {
  const sdk = found(findChoreonoid());
  const eigen = pkgConfig(['eigen3']);
  const flags = {
    // Choreonoid installs its bundled fmt beside its own headers.
    cflags: [`-I${sdk.includeDir}`, `-I${join(sdk.prefix, 'include')}`, ...(eigen.ok ? eigen.cflags : [])],
    libs: [`-L${sdk.libDir}`, `-Wl,-rpath,${sdk.libDir}`, '-lCnoidBody', '-lCnoidUtil'],
  };
  const binary = compileHarness({ cxx: found(findCxx()).exe, source: join(projectRoot, 'bench', 'choreonoid_load.cpp'), binary: join(projectRoot, 'build', 'choreonoid_load'), flags, before: ['-O2', '-std=c++17'] });
  return { binary, prefix: sdk.prefix, lib: sdk.libDir, version: sdk.version };
}

interface PeerLine {
  file: string;
  ok: boolean;
  ms?: number[];
  error?: string;
}

function runPeer(binary: string, files: readonly string[], reps: Repetitions, env: NodeJS.ProcessEnv): Map<string, PeerLine> {
  const r = spawnSync(binary, [String(reps.warmup), String(reps.reps)], {
    input: `${files.join('\n')}\n`,
    encoding: 'utf8',
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`choreonoid_load failed: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().slice(0, 300)}`);
  const out = new Map<string, PeerLine>();
  for (const line of r.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as PeerLine;
    out.set(parsed.file, parsed);
  }
  return out;
}

function best(load: LoadModel, toUrdf: ConvertToUrdf, path: string, reps: Repetitions): { load: number; loadUrdf: number } {
  let bestLoad = Infinity;
  let bestBoth = Infinity;
  for (let r = 0; r < reps.warmup + reps.reps; r++) {
    const t0 = performance.now();
    const model = load(path);
    const t1 = performance.now();
    toUrdf(model);
    const t2 = performance.now();
    if (r >= reps.warmup) {
      bestLoad = Math.min(bestLoad, t1 - t0);
      bestBoth = Math.min(bestBoth, t2 - t0);
    }
  }
  return { load: bestLoad, loadUrdf: bestBoth };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface ChoreonoidOptions {
  projectRoot: string;
  corpusDir: string;
  models: readonly CorpusModel[];
  reps: Repetitions;
  /** Models per alternation between the two sides. */
  chunk: number;
  log: (line: string) => void;
}

export function compareWithChoreonoid(load: LoadModel, toUrdf: ConvertToUrdf, o: ChoreonoidOptions): ChoreonoidComparison {
  const peer = buildChoreonoidPeer(o.projectRoot);
  // As for the oracle dumps: package:// URIs resolve inside the corpus.
  const env = { ...process.env, ROS_PACKAGE_PATH: o.corpusDir };
  const models: ChoreonoidModel[] = [];
  const skipped: ChoreonoidComparison['skipped'] = [];
  for (let i = 0; i < o.models.length; i += o.chunk) {
    const chunk = o.models.slice(i, i + o.chunk);
    const theirs = runPeer(peer.binary, chunk.map((m) => m.path), o.reps, env);
    for (const m of chunk) {
      const t = theirs.get(m.path);
      if (!t?.ok || !t.ms || t.ms.length === 0) {
        skipped.push({ file: m.file, side: 'choreonoid', reason: (t?.error ?? 'no reply').trim().split('\n')[0]!.slice(0, 200) });
        continue;
      }
      let ours: { load: number; loadUrdf: number };
      try {
        ours = best(load, toUrdf, m.path, o.reps);
      } catch (error) {
        skipped.push({ file: m.file, side: 'body_bridge', reason: reasonOf(error) });
        continue;
      }
      const choreonoidMs = Math.min(...t.ms);
      models.push({
        file: m.file,
        oursLoadMs: ours.load,
        oursLoadUrdfMs: ours.loadUrdf,
        choreonoidMs,
        loadRatio: ours.load / choreonoidMs,
        loadUrdfRatio: ours.loadUrdf / choreonoidMs,
      });
    }
    o.log(`  choreonoid: ${Math.min(i + o.chunk, o.models.length)}/${o.models.length} models`);
  }
  if (models.length === 0) throw new Error(`no model loaded by both (${skipped.length} skipped; first: ${skipped[0]?.file}: ${skipped[0]?.reason})`);
  const sum = (k: 'oursLoadMs' | 'oursLoadUrdfMs' | 'choreonoidMs'): number => models.reduce((a, m) => a + m[k], 0);
  const total = { oursLoadMs: sum('oursLoadMs'), oursLoadUrdfMs: sum('oursLoadUrdfMs'), choreonoidMs: sum('choreonoidMs'), loadRatio: 0, loadUrdfRatio: 0 };
  total.loadRatio = total.oursLoadMs / total.choreonoidMs;
  total.loadUrdfRatio = total.oursLoadUrdfMs / total.choreonoidMs;
  return {
    prefix: peer.prefix,
    version: peer.version,
    reps: o.reps,
    models,
    skipped,
    total,
    medianLoadRatio: median(models.map((m) => m.loadRatio)),
    medianLoadUrdfRatio: median(models.map((m) => m.loadUrdfRatio)),
    modelsAbove3x: models.filter((m) => m.loadRatio > 3).length,
    worst: [...models].sort((a, b) => b.loadRatio - a.loadRatio).slice(0, 10),
  };
}
