// Property-based fuzzing of the loaders and the URDF writer: real corpus models, copied with
// their resources into a temp dir, get 1–3 mutations (test/hostile/mutations.ts) in the model file or
// one of its resources, and every mutant must satisfy the hostile-input contract (test/support/contract.ts):
// it loads (and its URDF passes check_urdf with nothing written outside the mesh dir) or it fails with a
// located ModelLoadError — in bounded time and memory.
//
// CI: a fixed seed, 250 mutants per model (FUZZ_RUNS; about 3,000 in all, ~30 s on an idle 2-core
// machine) and a time cap of 60 s over all models as a safety net on a busy one. Every mutant is
// loaded; toUrdf + writeUrdf + check_urdf (≈100 ms a model, mostly tessellation) run on every 8th
// mutant that loads (FUZZ_URDF_EVERY), so CI still gets thousands of loads in its budget.
// Long local run: `npm run fuzz` (FUZZ_SECONDS=900, FUZZ_URDF_EVERY=1, a fresh random seed printed at
// the start; rerun a failure with FUZZ_SEED=<seed>). Failing inputs are kept in build/fuzz-failures/
// (gitignored) with the mutations that produced them.
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeOutcome, type LoadRunner, projectRoot, runCase, startLoadRunner } from './support/contract.js';
import { corpusDir, requireShared } from './support/oracle.js';
import { hostileModels, scratchRoot } from './hostile/case-kit.js';
import { applyMutation, describeMutation, type Mutation, mutationArb } from './hostile/mutations.js';

const envSeed = process.env.FUZZ_SEED;
const seed = envSeed === undefined ? 0x8b0d1e5 : envSeed === 'random' ? Date.now() % 2 ** 31 : Number(envSeed);
// CI: a fixed number of mutants per model (the same ones on every run), with a time cap as a safety net.
// A long run (FUZZ_SECONDS set) goes on until its time is up.
const longRun = process.env.FUZZ_SECONDS !== undefined;
const totalSeconds = Number(process.env.FUZZ_SECONDS ?? 60);
const runsPerModel = longRun ? 1_000_000_000 : Number(process.env.FUZZ_RUNS ?? 250);
// CI must show it really ran thousands of cases; a long run only has to keep going.
const minimumCases = Number(process.env.FUZZ_MIN_CASES ?? (longRun ? 0 : 1000));
const urdfEvery = Math.max(1, Number(process.env.FUZZ_URDF_EVERY ?? 8));

interface FuzzModel {
  /** Directory copied as a whole (model + resources). */
  dir: string;
  /** The file to load, relative to dir. */
  main: string;
  /** Files that mutations may hit, relative to dir (the main file first). */
  targets: string[];
  /** What to copy, relative to dir (default: the whole directory). */
  files?: string[];
}

const corpusModels: FuzzModel[] = [
  { dir: 'choreonoid/share/model/Tank', main: 'SimpleTank.body', targets: ['SimpleTank.body'] },
  { dir: 'choreonoid/share/model/Tank', main: 'Tank.body', targets: ['Tank.body', 'TankBody.body', 'resource/tank.wrl'] },
  { dir: 'choreonoid/share/model/SR1', main: 'SR1.body', targets: ['SR1.body'] },
  { dir: 'choreonoid/share/model/PA10', main: 'PA10.body', targets: ['PA10.body'] },
  { dir: 'choreonoid/sample/CameraEffect', main: 'box.body', targets: ['box.body'] },
  { dir: 'openhrp3/sample/model', main: 'PD_HGtest.wrl', targets: ['PD_HGtest.wrl'], files: ['PD_HGtest.wrl'] },
  { dir: 'choreonoid-legacy-wrl/share/model/SR1', main: 'SR1.wrl', targets: ['SR1.wrl'] },
  // A modelFile wrapper: YAML → VRML → ten Inlined part files.
  { dir: 'choreonoid-legacy-wrl/share/model/PA10', main: 'PA10.yaml', targets: ['PA10.yaml', 'PA10.wrl', 'parts/J1.wrl'] },
  { dir: 'choreonoid-legacy-wrl/share/model/misc', main: 'ClosedLinkSample.wrl', targets: ['ClosedLinkSample.wrl'] },
  { dir: 'choreonoid-legacy-wrl/share/model/misc', main: 'Torus.wrl', targets: ['Torus.wrl'] },
];
// Our own base models add the geometry nodes the issue names (IndexedFaceSet, ElevationGrid, Extrusion).
const ownModels: FuzzModel[] = [
  { dir: hostileModels, main: 'arm.body', targets: ['arm.body', 'parts.wrl'] },
  { dir: hostileModels, main: 'arm.wrl', targets: ['arm.wrl', 'parts.wrl'] },
];

const scratch = scratchRoot('fuzz');
const failureDir = join(projectRoot, 'build/fuzz-failures');
let runner: LoadRunner;
const stats = { cases: 0, loaded: 0, errors: 0, urdf: 0 };

beforeAll(() => {
  requireShared();
  runner = startLoadRunner({ timeoutMs: 10_000, maxOldSpaceMb: 512 });
  console.log(`fuzz: seed ${seed}, budget ${totalSeconds} s (reproduce with FUZZ_SEED=${seed})`);
});
afterAll(() => {
  runner.close();
  scratch.dispose();
});

/** Copies the model's directory (model and resources) into its own workspace. */
function workspace(model: FuzzModel, index: number): string {
  const ws = join(scratch.root, `m${index}`, 'ws');
  if (existsSync(join(ws, 'model'))) return ws;
  mkdirSync(ws, { recursive: true });
  const src = model.dir.startsWith('/') ? model.dir : join(corpusDir, model.dir);
  const files = model.files ?? [''];
  for (const f of files) cpSync(join(src, f), join(ws, 'model', f), { recursive: true });
  // The corpus is read-only; its copies must take the mutants (CI may not run as root).
  const modelDir = join(ws, 'model');
  for (const f of ['', ...readdirSync(modelDir, { recursive: true, encoding: 'utf8' })]) {
    const p = join(modelDir, f);
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
  }
  return ws;
}

const saved = new Set<string>();

/** Keeps the first failing input of each model (shrinking then produces many more; the shrunk one is in the test output). */
function saveFailure(model: FuzzModel, target: string, mutated: Buffer, mutations: Mutation[], details: string): string {
  const key = `${model.dir}/${model.main}`;
  if (saved.has(key)) return `${failureDir} (first failure of this model)`;
  saved.add(key);
  const dir = join(failureDir, `${basename(model.main)}-${seed}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, basename(target)), mutated);
  writeFileSync(join(dir, 'README.txt'), `model: ${model.dir}/${model.main}\nmutated file: ${target}\nmutations: ${mutations.map(describeMutation).join('\n  ')}\n\n${details}\n`);
  return dir;
}

const models = [...corpusModels, ...ownModels];
const perModelMs = (totalSeconds * 1000) / models.length;

describe('fuzzing corpus models against the hostile-input contract', () => {
  // The unmutated models load cleanly, URDF included: mutants start from a valid model, and the contract has no false alarm on real files.
  test.each(models.map((m, i) => [`${m.dir.startsWith('/') ? relative(projectRoot, m.dir) : m.dir}/${m.main}`, i] as const))(
    '%s: the unmutated model loads and meets the contract',
    async (_name, index) => {
      const model = models[index] as FuzzModel;
      const ws = workspace(model, index);
      const run = await runCase(runner, { file: join(ws, 'model', model.main), caseDir: ws, urdf: true });
      expect(run.violations, describeOutcome(run.outcome)).toEqual([]);
      expect(run.outcome.kind, describeOutcome(run.outcome)).toBe('loaded');
    },
  );

  test.each(models.map((m, i) => [`${m.dir.startsWith('/') ? relative(projectRoot, m.dir) : m.dir}/${m.main}`, i] as const))(
    '%s: every mutant loads or fails with a located ModelLoadError',
    async (_name, index) => {
      const model = models[index] as FuzzModel;
      const ws = workspace(model, index);
      const modelDir = join(ws, 'model');
      const originals = model.targets.map((t) => readFileSync(join(modelDir, t)));
      let executed = 0;
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: model.targets.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 3 }), async (which, mutations) => {
          const target = model.targets[which] as string;
          const original = originals[which] as Buffer;
          const mutated = mutations.reduce((b, m) => applyMutation(b, m), original);
          writeFileSync(join(modelDir, target), mutated);
          try {
            let run = await runCase(runner, { file: join(modelDir, model.main), caseDir: ws, urdf: false });
            // The URDF half of the contract on every urdfEvery-th mutant that loads (loaded again, with URDF).
            if (run.outcome.kind === 'loaded' && run.violations.length === 0 && stats.loaded % urdfEvery === 0) {
              run = await runCase(runner, { file: join(modelDir, model.main), caseDir: ws, urdf: true });
              stats.urdf++;
            }
            executed++;
            stats.cases++;
            if (run.outcome.kind === 'loaded') stats.loaded++;
            if (run.outcome.kind === 'load-error') stats.errors++;
            if (run.violations.length > 0) {
              const where = saveFailure(model, target, mutated, mutations, `${describeOutcome(run.outcome)}\n\n${run.violations.join('\n')}`);
              throw new Error(`contract broken (input saved in ${where}):\n${run.violations.join('\n')}`);
            }
          } finally {
            writeFileSync(join(modelDir, target), original);
          }
        }),
        { seed: seed + index, numRuns: runsPerModel, interruptAfterTimeLimit: perModelMs, markInterruptAsFailure: false },
      );
      expect(executed).toBeGreaterThan(0);
    },
    perModelMs + 120_000,
  );

  test(`ran at least ${minimumCases} mutants in all, and both outcomes occur`, () => {
    console.log(`fuzz: ${stats.cases} mutants, ${stats.loaded} loaded (${stats.urdf} through URDF + check_urdf), ${stats.errors} located errors (seed ${seed})`);
    expect(stats.cases).toBeGreaterThanOrEqual(minimumCases);
    // A fuzzer whose mutants all fail (or all load) exercises only one half of the contract.
    expect(stats.loaded).toBeGreaterThan(stats.cases * 0.05);
    expect(stats.errors).toBeGreaterThan(stats.cases * 0.05);
    expect(stats.urdf).toBeGreaterThan(0);
  });
});
