// Measurement 1: load + URDF for every corpus model, against libyaml's C loader on the same YAML
// bytes (.body models) or against decoding and scanning the same bytes (.wrl models, where no
// YAML exists: the physical limit of reading the text at all).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusModel } from './corpus.js';
import { type Repetitions, type Stats, summarize, timeRepeated } from './stats.js';
import type { ConvertToUrdf, LoadModel } from './subjects.js';
import { reasonOf } from './subjects.js';
import { traceReads } from './trace.js';
import type { RobotModel } from '../src/model/types.js';
import { bigMeshWrl } from './wrl-gen.js';
import { findPythonLibyaml, found } from '../test/support/peers.js';

export type LoadGroup = 'yaml' | 'wrl';

export interface ModelLoadResult {
  file: string;
  group: LoadGroup;
  links: number;
  movingJoints: number;
  /** Triangles of the model's mesh geometry (IndexedFaceSet / triangle meshes), polygons fanned. */
  triangles: number;
  /** Every file the load read, and their bytes. */
  filesRead: number;
  bytesRead: number;
  /** Bytes the peer processes: the YAML files read (yaml group) or all files read (wrl group). */
  peerBytes: number;
  urdfBytes: number;
  meshFiles: number;
  loadMs: Stats;
  urdfMs: Stats;
  totalMs: Stats;
  peerMs: Stats | null;
  /** totalMs.median / peerMs.median. */
  ratio: number | null;
  peerError?: string;
}

export interface FailedModel {
  file: string;
  error: string;
}

export interface GroupSummary {
  group: LoadGroup;
  peer: string;
  models: number;
  /** Sums over the group's models (see sumStats): load + URDF, and the two parts. */
  oursTotalMs: Stats | null;
  oursLoadMs: Stats | null;
  oursUrdfMs: Stats | null;
  peerTotalMs: Stats | null;
  ratio: number | null;
  /** Spread of the per-model ratios. */
  perModelRatio: Stats | null;
}

export interface BigWrlResult {
  triangles: number;
  bytes: number;
  loadMs: Stats;
  urdfMs: Stats;
  totalMs: Stats;
  limitMs: Stats;
  ratio: number;
}

export interface LoadMeasurement {
  groups: GroupSummary[];
  models: ModelLoadResult[];
  failed: FailedModel[];
  slowest: ModelLoadResult[];
  mostLinks: ModelLoadResult | null;
  mostTriangles: ModelLoadResult | null;
  bigWrl: BigWrlResult | { error: string };
}

const isYaml = (p: string): boolean => /\.(body|ya?ml)$/i.test(p);
const isWrl = (p: string): boolean => /\.wrl$/i.test(p);

/**
 * A shape that is both visual and collision (plain shapes are) counts once; shapes that share one
 * geometry (VRML USE, YAML aliases) count each time they are placed.
 */
export function meshTriangles(model: RobotModel): number {
  const seen = new Set<object>();
  let n = 0;
  for (const link of model.links) {
    for (const shape of [...link.visuals, ...link.collisions]) {
      const g = shape.geometry;
      if (g.kind !== 'mesh' || seen.has(shape)) continue;
      seen.add(shape);
      for (const f of g.faces) n += Math.max(0, f.length - 2);
    }
  }
  return n;
}

/**
 * The physical limit for text formats with no C peer: UTF-8 decoding plus one pass over the bytes
 * (counting lines). Returns characters + lines so that neither step can be optimised away.
 */
export function decodeAndScan(buffers: readonly Uint8Array[]): number {
  const decoder = new TextDecoder('utf-8');
  let characters = 0;
  let lines = 0;
  for (const b of buffers) {
    characters += decoder.decode(b).length;
    for (let i = 0; i < b.length; i++) if (b[i] === 10) lines++;
  }
  return characters + lines;
}

/** Beyond this first-run time a model is timed once more only. */
const SLOW_MS = 5000;

/**
 * A group total: the sum of the per-model medians, with the sums of the per-model quartiles and
 * extremes as its spread (models have different repetition counts, so repetitions cannot be
 * summed index by index). n is the fewest repetitions any model had.
 */
function sumStats(all: readonly Stats[]): Stats | null {
  if (all.length === 0) return null;
  const sum = (k: keyof Stats): number => all.reduce((acc, s) => acc + s[k], 0);
  return { n: Math.min(...all.map((s) => s.n)), median: sum('median'), min: sum('min'), max: sum('max'), q1: sum('q1'), q3: sum('q3') };
}

interface Timed {
  load: number[];
  urdf: number[];
}

function timeLoadAndUrdf(path: string, load: LoadModel, toUrdf: ConvertToUrdf, { warmup, reps }: Repetitions): Timed {
  const out: Timed = { load: [], urdf: [] };
  for (let r = 0; r < warmup + reps; r++) {
    const t0 = performance.now();
    const model = load(path);
    const t1 = performance.now();
    toUrdf(model);
    const t2 = performance.now();
    if (r >= warmup) {
      out.load.push(t1 - t0);
      out.urdf.push(t2 - t1);
    }
  }
  return out;
}

interface PeerReply {
  libyaml: string;
  models: { id: string; bytes?: number; ms?: number[]; error?: string }[];
}

/** Runs bench/yaml_peer.py on the given file sets; ms samples per model id. */
export function runYamlPeer(
  projectRoot: string,
  models: { id: string; files: string[] }[],
  reps: Repetitions,
): { version: string; byId: Map<string, { ms?: number[]; error?: string }> } {
  const result = spawnSync(found(findPythonLibyaml()).exe, [join(projectRoot, 'bench', 'yaml_peer.py')], {
    input: JSON.stringify({ warmup: reps.warmup, reps: reps.reps, models }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`yaml_peer.py failed: ${result.stderr || result.error?.message}`);
  const reply = JSON.parse(result.stdout) as PeerReply;
  return { version: reply.libyaml, byId: new Map(reply.models.map((m) => [m.id, m])) };
}

export interface LoadOptions {
  projectRoot: string;
  workDir: string;
  models: readonly CorpusModel[];
  reps: Repetitions;
  /** Timed repetitions are reduced for slow models to about this many milliseconds each. */
  budgetMsPerModel: number;
  /** Rings × segments of the generated torus; triangles = 2 · rings · segments. */
  bigWrl: { rings: number; segments: number };
  log: (line: string) => void;
}

export function measureLoad(load: LoadModel, toUrdf: ConvertToUrdf, o: LoadOptions): LoadMeasurement & { libyaml: string } {
  const measured: { result: ModelLoadResult; yamlFiles: string[]; buffers: Uint8Array[] }[] = [];
  const failed: FailedModel[] = [];
  for (const [i, m] of o.models.entries()) {
    let traced: { result: { model: RobotModel; urdf: ReturnType<ConvertToUrdf> }; files: string[] };
    const t0 = performance.now();
    try {
      // The traced run also counts as the first warm-up run.
      traced = traceReads(() => {
        const model = load(m.path);
        return { model, urdf: toUrdf(model) };
      });
    } catch (error) {
      failed.push({ file: m.file, error: reasonOf(error) });
      continue;
    }
    const firstMs = performance.now() - t0;
    if (firstMs > 500) o.log(`  load: ${m.file} took ${Math.round(firstMs)} ms (first run)`);
    // Slow models get fewer repetitions so that a full run stays within minutes: at least 3 up to
    // SLOW_MS, a single timed run beyond (the median of one is then the figure, n = 1 says so).
    const reps =
      firstMs > SLOW_MS ? 1 : Math.max(Math.min(3, o.reps.reps), Math.min(o.reps.reps, Math.ceil(o.budgetMsPerModel / firstMs)));
    const files = traced.files.length > 0 ? traced.files : [m.path];
    const group: LoadGroup = files.some(isWrl) || isWrl(m.path) ? 'wrl' : 'yaml';
    const yamlFiles = files.filter(isYaml);
    const warmup = firstMs > o.budgetMsPerModel ? 0 : Math.max(0, o.reps.warmup - 1);
    const t = timeLoadAndUrdf(m.path, load, toUrdf, { warmup, reps });
    const total = t.load.map((x, k) => x + t.urdf[k]!);
    const model = traced.result.model;
    const bytesRead = files.reduce((acc, f) => acc + statSync(f).size, 0);
    const peerFiles = group === 'yaml' ? yamlFiles : files;
    measured.push({
      result: {
        file: m.file,
        group,
        links: model.links.length,
        movingJoints: model.links.filter((l) => l.parent !== null && (l.joint.type === 'revolute' || l.joint.type === 'prismatic')).length,
        triangles: meshTriangles(model),
        filesRead: files.length,
        bytesRead,
        peerBytes: peerFiles.reduce((acc, f) => acc + statSync(f).size, 0),
        urdfBytes: Buffer.byteLength(traced.result.urdf.xml),
        meshFiles: traced.result.urdf.meshCount,
        loadMs: summarize(t.load),
        urdfMs: summarize(t.urdf),
        totalMs: summarize(total),
        peerMs: null,
        ratio: null,
      },
      yamlFiles,
      buffers: group === 'wrl' ? files.map((f) => readFileSync(f)) : [],
    });
    if ((i + 1) % 25 === 0) o.log(`  load: ${i + 1}/${o.models.length} models`);
  }

  // Peers: one python process for every YAML model; the decode limit in this process.
  const yamlModels = measured.filter((x) => x.result.group === 'yaml');
  const peer = runYamlPeer(
    o.projectRoot,
    yamlModels.map((x) => ({ id: x.result.file, files: x.yamlFiles })),
    o.reps,
  );
  const peerSamples = new Map<string, number[]>();
  for (const x of measured) {
    if (x.result.group === 'yaml') {
      const reply = peer.byId.get(x.result.file);
      if (reply?.ms) peerSamples.set(x.result.file, reply.ms);
      else x.result.peerError = reply?.error ?? 'no reply from the peer';
    } else {
      const samples: number[] = [];
      for (let r = 0; r < o.reps.warmup + o.reps.reps; r++) {
        const t0 = performance.now();
        decodeAndScan(x.buffers);
        if (r >= o.reps.warmup) samples.push(performance.now() - t0);
      }
      peerSamples.set(x.result.file, samples);
    }
    const s = peerSamples.get(x.result.file);
    if (s) {
      x.result.peerMs = summarize(s);
      x.result.ratio = x.result.totalMs.median / x.result.peerMs.median;
    }
  }

  const groups: GroupSummary[] = (['yaml', 'wrl'] as const).map((group) => {
    // Totals only over models that have both sides, so the ratio compares the same work.
    const both = measured.filter((x) => x.result.group === group && peerSamples.has(x.result.file));
    const ours = sumStats(both.map((x) => x.result.totalMs));
    const theirs = sumStats(both.map((x) => x.result.peerMs!));
    const ratios = both.map((x) => x.result.ratio).filter((r): r is number => r !== null);
    return {
      group,
      peer: group === 'yaml' ? `libyaml C loader via PyYAML ${peer.version}` : 'TextDecoder + byte scan of the same bytes (physical limit)',
      models: both.length,
      oursTotalMs: ours,
      oursLoadMs: sumStats(both.map((x) => x.result.loadMs)),
      oursUrdfMs: sumStats(both.map((x) => x.result.urdfMs)),
      peerTotalMs: theirs,
      ratio: ours && theirs ? ours.median / theirs.median : null,
      perModelRatio: ratios.length > 0 ? summarize(ratios) : null,
    };
  });

  const models = measured.map((x) => x.result);
  const byTime = [...models].sort((a, b) => b.totalMs.median - a.totalMs.median);
  const pick = (key: (r: ModelLoadResult) => number): ModelLoadResult | null =>
    models.reduce<ModelLoadResult | null>((best, r) => (best === null || key(r) > key(best) ? r : best), null);

  return {
    libyaml: peer.version,
    groups,
    models,
    failed,
    slowest: byTime.slice(0, 10),
    mostLinks: pick((r) => r.links),
    mostTriangles: pick((r) => r.triangles),
    bigWrl: measureBigWrl(load, toUrdf, o),
  };
}

function measureBigWrl(load: LoadModel, toUrdf: ConvertToUrdf, o: LoadOptions): BigWrlResult | { error: string } {
  const { text, triangles } = bigMeshWrl(o.bigWrl.rings, o.bigWrl.segments);
  mkdirSync(o.workDir, { recursive: true });
  const path = join(o.workDir, `big_mesh_${triangles}.wrl`);
  writeFileSync(path, text);
  const bytes = readFileSync(path);
  const reps: Repetitions = { warmup: 1, reps: Math.max(3, Math.min(o.reps.reps, 5)) };
  try {
    const t = timeLoadAndUrdf(path, load, toUrdf, reps);
    const limit = timeRepeated(() => decodeAndScan([bytes]), reps);
    const total = summarize(t.load.map((x, k) => x + t.urdf[k]!));
    return {
      triangles,
      bytes: bytes.length,
      loadMs: summarize(t.load),
      urdfMs: summarize(t.urdf),
      totalMs: total,
      limitMs: limit,
      ratio: total.median / limit.median,
    };
  } catch (error) {
    return { error: reasonOf(error) };
  }
}
