// `npm run bench`: every measurement in one run, each next to its peer or physical limit
// measured in the same run. Writes bench/results/latest.json and latest.md (or --out DIR); with
// --publish also BENCHMARKS.md and BENCHMARKS.json at the project root.
//
// Options: --tiny (small inputs, few repetitions: what the test suite runs), --out DIR,
// --only load,choreonoid,tf,sensors,memory, --models SUBSTRING[,SUBSTRING...], --publish,
// --render RESULTS.json (no measuring: rewrite the Markdown of an earlier run, e.g. after editing bench/notes.md).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BenchConfig, fullConfig, tinyConfig } from './config.js';
import { type CorpusModel, corpusModels, findProjectRoot } from './corpus.js';
import { compareWithChoreonoid, type ChoreonoidComparison } from './choreonoid.js';
import { buildKdlPeer } from './kdl.js';
import { type LoadMeasurement, measureLoad } from './load.js';
import { describeMachine } from './machine.js';
import { measureMemory } from './memory.js';
import { renderBenchmarksMd, renderTables } from './report.js';
import type { BenchResults, Item, TfSection } from './results.js';
import { measureSensorCase } from './sensors.js';
import { sensorWorks } from './sensor-work.js';
import { chainModel } from './chain.js';
import { reasonOf, resolveSubjects, type Subjects } from './subjects.js';
import { traceReads } from './trace.js';
import { measureTfCase, type StartTfDriver, type TfCase } from './tf.js';

const SECTIONS = ['load', 'choreonoid', 'tf', 'sensors', 'memory'] as const;
type SectionName = (typeof SECTIONS)[number];

interface Args {
  config: BenchConfig;
  render: string | null;
  out: string | null;
  only: Set<SectionName>;
  publish: boolean;
}

function parseArgs(argv: string[]): Args {
  let config = fullConfig;
  let out: string | null = null;
  let only = new Set<SectionName>(SECTIONS);
  let models: string[] | null = null;
  let publish = false;
  let render: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--tiny') config = tinyConfig;
    else if (a === '--out') out = value();
    else if (a === '--publish') publish = true;
    else if (a === '--render') render = value();
    else if (a === '--models') models = value().split(',').filter(Boolean);
    else if (a === '--only') {
      const names = value().split(',');
      for (const n of names) if (!(SECTIONS as readonly string[]).includes(n)) throw new Error(`--only: unknown measurement '${n}'`);
      only = new Set(names as SectionName[]);
    } else throw new Error(`unknown option '${a}' (options: --tiny --out DIR --only LIST --models LIST --publish --render FILE)`);
  }
  return { config: models ? { ...config, models } : config, render, out, only, publish };
}

const notAvailable = (name: string, reason: string): { status: 'not available'; name: string; reason: string } => ({
  status: 'not available',
  name,
  reason,
});

function attempt<T extends object>(name: string, run: () => T): Item<T> {
  try {
    return { status: 'ok', name, ...run() };
  } catch (error) {
    return notAvailable(name, reasonOf(error));
  }
}

function selectModels(all: CorpusModel[], filters: readonly string[]): CorpusModel[] {
  if (filters.length === 0) return all;
  return all.filter((m) => filters.some((f) => m.file.includes(f)));
}

/** Links, moving joints and bytes of every model, for choosing the TF and memory models without the load benchmark. */
function survey(subjects: Subjects, models: readonly CorpusModel[], load: Item<LoadMeasurement> | null) {
  if (load?.status === 'ok') {
    return load.models.map((m) => ({ file: m.file, movingJoints: m.movingJoints, bytesRead: m.bytesRead }));
  }
  if (!subjects.loadRobotModel.ok) return [];
  const out: { file: string; movingJoints: number; bytesRead: number }[] = [];
  for (const m of models) {
    try {
      const load = subjects.loadRobotModel.value;
      const { result: model, files } = traceReads(() => load(m.path));
      const moving = model.links.filter((l) => l.parent !== null && (l.joint.type === 'revolute' || l.joint.type === 'prismatic'));
      out.push({ file: m.file, movingJoints: moving.length, bytesRead: files.reduce((n, f) => n + statSync(f).size, 0) });
    } catch {
      // A model our loader rejects cannot be served either.
    }
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { config } = args;
  const projectRoot = findProjectRoot();
  if (args.render !== null) {
    const earlier = JSON.parse(readFileSync(args.render, 'utf8')) as BenchResults;
    write(projectRoot, args.out ? resolve(args.out) : join(projectRoot, 'bench', 'results'), args.publish, earlier);
    return;
  }
  const sharedDir = resolve(projectRoot, '../shared');
  const workDir = join(projectRoot, 'build', 'bench-data');
  const meshDir = join(workDir, 'meshes');
  const outDir = args.out ? resolve(args.out) : join(projectRoot, 'bench', 'results');
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const started = new Date();
  const machine = describeMachine();
  log(`bench (${config.mode}) on ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, load average ${machine.loadAverageAtStart}`);

  const subjects = await resolveSubjects(meshDir);
  const models = selectModels(corpusModels(sharedDir), config.models);
  const byFile = new Map(models.map((m) => [m.file, m]));

  // 1. Load + URDF.
  let load: Item<LoadMeasurement & { libyaml: string }> | null = null;
  if (args.only.has('load')) {
    log(`load: ${models.length} corpus models`);
    const { loadRobotModel, toUrdf } = subjects;
    load = !loadRobotModel.ok
      ? notAvailable('load', loadRobotModel.reason)
      : !toUrdf.ok
        ? notAvailable('load', toUrdf.reason)
        : attempt('load', () =>
            measureLoad(loadRobotModel.value, toUrdf.value, {
              projectRoot,
              workDir,
              models,
              reps: config.loadReps,
              budgetMsPerModel: config.loadBudgetMsPerModel,
              bigWrl: config.bigWrl,
              log,
            }),
          );
  }

  // 1b. Load against Choreonoid's own loader, where an installed Choreonoid is found.
  let choreonoid: Item<ChoreonoidComparison> | null = null;
  if (args.only.has('choreonoid')) {
    log(`choreonoid: ${models.length} corpus models against cnoid::BodyLoader`);
    const { loadRobotModel, toUrdf } = subjects;
    choreonoid = !loadRobotModel.ok
      ? notAvailable('choreonoid', loadRobotModel.reason)
      : !toUrdf.ok
        ? notAvailable('choreonoid', toUrdf.reason)
        : attempt('choreonoid', () =>
            compareWithChoreonoid(loadRobotModel.value, toUrdf.value, {
              projectRoot,
              corpusDir: join(sharedDir, 'corpus'),
              models,
              reps: config.choreonoid.reps,
              chunk: config.choreonoid.chunk,
              log,
            }),
          );
    if (choreonoid.status !== 'ok') log(`choreonoid: not available: ${choreonoid.reason}`);
  }

  const surveyed = args.only.has('tf') || args.only.has('memory') ? survey(subjects, models, load) : [];

  // 2. TF throughput.
  let tf: Item<TfSection> | null = null;
  if (args.only.has('tf')) {
    log('tf: building the KDL peer');
    const { loadRobotModel, toUrdf, startRobotPublisher } = subjects;
    tf = attempt('tf', () => {
      if (!loadRobotModel.ok) throw new Error(loadRobotModel.reason);
      if (!toUrdf.ok) throw new Error(toUrdf.reason);
      if (!startRobotPublisher.ok) throw new Error(startRobotPublisher.reason);
      const kdlBinary = buildKdlPeer(projectRoot);
      const start: StartTfDriver = (model) => startRobotPublisher.value(model.sourceFile, () => model, toUrdf.value);
      const most = surveyed.reduce<(typeof surveyed)[number] | null>((b, m) => (!b || m.movingJoints > b.movingJoints ? m : b), null);
      const cases: Item<TfCase>[] = [];
      if (most) {
        const corpusModel = byFile.get(most.file)!;
        cases.push(
          attempt(`corpus: ${most.file}`, () => {
            const model = loadRobotModel.value(corpusModel.path);
            log(`tf: ${most.file} (${most.movingJoints} moving joints)`);
            return measureTfCase(start, {
              name: `corpus: ${most.file}`,
              model,
              urdf: toUrdf.value(model).xml,
              messages: config.tf.cornerMessages,
              reps: config.tf.reps,
              kdlBinary,
              workDir,
            });
          }),
        );
      } else cases.push(notAvailable('corpus model with the most joints', 'no corpus model loaded'));
      const chain = chainModel(config.tf.chainJoints);
      cases.push(
        attempt(`synthetic ${config.tf.chainJoints}-joint chain`, () => {
          log(`tf: synthetic ${config.tf.chainJoints}-joint chain`);
          return measureTfCase(start, {
            name: `synthetic ${config.tf.chainJoints}-joint chain`,
            model: chain,
            urdf: toUrdf.value(chain).xml,
            messages: config.tf.chainMessages,
            reps: config.tf.reps,
            kdlBinary,
            workDir,
          });
        }),
      );
      return { cases };
    });
  }

  // 3. Sensor conversions.
  let sensors: Item<{ cases: Item<ReturnType<typeof measureSensorCase>>[] }> | null = null;
  if (args.only.has('sensors')) {
    log('sensors');
    const works = await sensorWorks();
    sensors = {
      status: 'ok',
      name: 'sensors',
      cases: works.map(({ name, work }) =>
        work.ok ? attempt(name, () => measureSensorCase(work.value, config.sensorReps)) : notAvailable(name, work.reason),
      ),
    };
  }

  // 4. Memory, in a child process.
  let memory: Item<ReturnType<typeof measureMemory>> | null = null;
  if (args.only.has('memory')) {
    const largest = surveyed.reduce<(typeof surveyed)[number] | null>((b, m) => (!b || m.bytesRead > b.bytesRead ? m : b), null);
    memory = !largest
      ? notAvailable('memory', subjects.loadRobotModel.ok ? 'no corpus model loaded' : subjects.loadRobotModel.reason)
      : attempt('memory', () => {
          log(`memory: ${largest.file}, ${config.memoryMessages} joint-state messages`);
          return measureMemory(byFile.get(largest.file)!.path, largest.file, config.memoryMessages, meshDir);
        });
  }

  const finished = new Date();
  write(projectRoot, outDir, args.publish, {
    schema: 1,
    mode: config.mode,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationSec: Math.round((finished.getTime() - started.getTime()) / 100) / 10,
    machine,
    config,
    load,
    choreonoid,
    tf,
    sensors,
    memory,
  });
  log(`wrote ${join(outDir, 'latest.json')} and latest.md`);
}

/** latest.json + latest.md in outDir; with publish, BENCHMARKS.json + BENCHMARKS.md at the project root. */
function write(projectRoot: string, outDir: string, publish: boolean, results: BenchResults): void {
  mkdirSync(outDir, { recursive: true });
  // JSON has no Infinity/NaN: they become strings, which the harness test rejects as ratios.
  const json = `${JSON.stringify(results, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2)}\n`;
  writeFileSync(join(outDir, 'latest.json'), json);
  const tables = renderTables(results);
  writeFileSync(join(outDir, 'latest.md'), tables);
  if (publish) {
    const notesFile = join(projectRoot, 'bench', 'notes.md');
    const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8') : '';
    writeFileSync(join(projectRoot, 'BENCHMARKS.json'), json);
    writeFileSync(join(projectRoot, 'BENCHMARKS.md'), renderBenchmarksMd(results, notes));
  }
  process.stdout.write(tables);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
