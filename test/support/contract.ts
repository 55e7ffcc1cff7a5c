// The hostile-input contract, written once and used by every hostile and fuzz test:
//
//   An input either LOADS (warnings allowed) or throws ModelLoadError whose every diagnostic names
//   the file and has a line:column and a message. Anything else — another exception type, a stack
//   overflow, a hang past a time bound, a memory blow-up — is a failure. When a model loads, the
//   model is structurally sound, the frame tree builds, and toUrdf + writeUrdf into a mesh dir write
//   nothing outside it, leave no temp files, and produce XML that check_urdf (urdfdom) parses.
//
// Loads run in a child process (test/hostile/load-worker.ts, compiled with src/ by the TypeScript
// compiler into node_modules/.cache) with --max-old-space-size and a per-case timeout, so a hang or
// an out-of-memory crash fails the case instead of hanging or killing the test run.
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { LoadOptions } from '../../src/model/options.js';
import type { Diagnostic, RobotModel } from '../../src/model/types.js';
import type { LoadRequest, UrdfOutcome, WorkerOutcome } from '../hostile/load-worker.js';
import { partWith } from './peer-skip.js';
import { findCheckUrdf, memo } from './peers.js';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Entry points compiled with src/ for child processes: the load worker and the node scenarios.
const childSources = ['test/hostile/load-worker.ts', 'test/hostile/node-scenarios.ts'].map((f) => join(projectRoot, f));

// ---------------------------------------------------------------------------------------------
// Compiling src/ + the worker for the child process (Node 20 cannot run .ts itself).

function sourceFiles(): string[] {
  const src = join(projectRoot, 'src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(src, f));
  return [...files.sort(), ...childSources];
}

/** Drops compiled trees of older source states (every edit of src/ makes a new one). */
function pruneCache(cacheRoot: string): void {
  if (!existsSync(cacheRoot)) return;
  const old = Date.now() - 3 * 3600_000;
  for (const name of readdirSync(cacheRoot)) {
    const dir = join(cacheRoot, name);
    const st = statSync(dir, { throwIfNoEntry: false });
    if (st && st.mtimeMs < old) rmSync(dir, { recursive: true, force: true });
  }
}

/** The compiled load worker (see compiledTree). */
export const compiledWorker = (): string => join(compiledTree(), 'test/hostile/load-worker.js');

/**
 * Emits src/ and the child entry points as ESM JavaScript into a content-addressed cache directory and
 * returns it. Type errors do not stop the emit (tsc type-checks separately in `npm test`). The
 * directory lives under node_modules so the compiled code resolves `yaml`, `xmlbuilder2`, ...
 */
export function compiledTree(): string {
  const files = sourceFiles();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update('\0').update(readFileSync(f)).update('\0');
  hash.update(ts.version);
  const cacheRoot = join(projectRoot, 'node_modules/.cache/body-bridge-contract');
  const outDir = join(cacheRoot, hash.digest('hex').slice(0, 20));
  const workerJs = join(outDir, 'test/hostile/load-worker.js');
  if (existsSync(workerJs)) return outDir;
  // Test files start in parallel: one compiles (holding a lock directory), the others wait for its result.
  mkdirSync(cacheRoot, { recursive: true });
  const lock = `${outDir}.lock`;
  for (;;) {
    if (existsSync(workerJs)) return outDir;
    try {
      mkdirSync(lock);
      break;
    } catch {
      const st = statSync(lock, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!existsSync(workerJs)) compileInto(files, outDir, cacheRoot);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(workerJs)) throw new Error(`contract worker not emitted at ${workerJs}`);
  return outDir;
}

function compileInto(files: string[], outDir: string, cacheRoot: string): void {
  pruneCache(cacheRoot);
  const tmpDir = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    rootDir: projectRoot,
    outDir: tmpDir,
    noCheck: true,
    skipLibCheck: true,
    types: ['node'],
    sourceMap: true,
    strict: true,
  });
  const emitted = program.emit();
  if (emitted.emitSkipped) throw new Error(`compiling src/ for the contract worker failed: ${JSON.stringify(emitted.diagnostics.map((d) => d.messageText))}`);
  writeFileSync(join(tmpDir, 'package.json'), '{"type":"module"}\n');
  try {
    renameSync(tmpDir, outDir);
  } catch {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Running loads in a bounded child process.

export type Outcome =
  | WorkerOutcome
  | { kind: 'timeout'; ms: number }
  | { kind: 'crash'; code: number | null; signal: string | null; stderr: string };

export interface RunnerOptions {
  /** Per-case wall-clock bound; past it the child is killed and the case fails as a hang. */
  timeoutMs?: number;
  /** V8 old-space bound of the child (MB): a memory blow-up crashes the child and fails the case. */
  maxOldSpaceMb?: number;
  /** Another worker script speaking the same protocol (the contract's own self-test uses one). */
  workerJs?: string;
  /** Environment of the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface LoadRunner {
  run(request: Omit<LoadRequest, 'id'>, timeoutMs?: number): Promise<Outcome>;
  close(): void;
}

interface Live {
  child: ChildProcess;
  ready: Promise<void>;
  stderr: string[];
}

/** A reusable child that loads one file per request; it is restarted after a timeout or crash. */
export function startLoadRunner(options: RunnerOptions = {}): LoadRunner {
  const workerJs = options.workerJs ?? compiledWorker();
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxOldSpaceMb = options.maxOldSpaceMb ?? 768;
  let live: Live | null = null;
  let nextId = 1;

  const spawnChild = (): Live => {
    const child = fork(workerJs, [], {
      execArgv: [`--max-old-space-size=${maxOldSpaceMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: options.env ?? process.env,
    });
    const stderr: string[] = [];
    child.stderr?.on('data', (b: Buffer) => {
      stderr.push(b.toString());
      if (stderr.length > 40) stderr.shift();
    });
    child.stdout?.resume();
    const ready = new Promise<void>((res, rej) => {
      const onMsg = (m: unknown): void => {
        if (m && typeof m === 'object' && 'ready' in m) {
          child.off('message', onMsg);
          res();
        }
      };
      child.on('message', onMsg);
      child.once('exit', (code, signal) => rej(new Error(`contract worker exited before ready (${code ?? signal}): ${stderr.join('')}`)));
    });
    return { child, ready, stderr };
  };

  const kill = (): void => {
    if (live && live.child.exitCode === null && live.child.signalCode === null) live.child.kill('SIGKILL');
    live = null;
  };

  return {
    async run(request, caseTimeout = timeoutMs) {
      if (!live) live = spawnChild();
      const current = live;
      await current.ready;
      const id = nextId++;
      const t0 = Date.now();
      return new Promise<Outcome>((res) => {
        let settled = false;
        const finish = (o: Outcome): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          current.child.off('message', onMessage);
          current.child.off('exit', onExit);
          res(o);
        };
        const onMessage = (m: { id?: number; outcome?: WorkerOutcome }): void => {
          if (m.id === id && m.outcome) finish(m.outcome);
        };
        const onExit = (code: number | null, signal: string | null): void => {
          live = null;
          finish({ kind: 'crash', code, signal, stderr: current.stderr.join('').slice(-4000) });
        };
        const timer = setTimeout(() => {
          kill();
          finish({ kind: 'timeout', ms: Date.now() - t0 });
        }, caseTimeout);
        current.child.on('message', onMessage);
        current.child.on('exit', onExit);
        current.child.send({ ...request, id });
      });
    },
    close() {
      if (live) {
        live.child.disconnect();
        kill();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The contract itself.

const LIMIT_FIELD = /^links\[\d+\]\.joint\.(lower|upper|velocityLower|velocityUpper|effortLower|effortUpper)$/;
// Sensor ranges and maxima are "unlimited" in Choreonoid too (DBL_MAX), e.g. a ForceSensor's max_force.
const DEVICE_PARAM = /^devices\[\d+\]\.params\./;

// An internal value or a JavaScript error text inside a user-facing message: `[object Object]`, a bare
// `undefined` (not "undefined alias/USE/..."), or a TypeError's wording wrapped into a ModelLoadError.
const LEAK =
  /\[object Object\]|\bundefined\b(?!\s+(?:YAML|alias|anchor|USE|name|node|DEF|PROTO|field|reference|parent|link))|Cannot read propert|is not a function|is not iterable|Maximum call stack/;

const hasLineAt = (d: Diagnostic): boolean => d.line !== undefined;

function checkLocation(d: Diagnostic, label: string, needLine: boolean): string[] {
  const v: string[] = [];
  if (typeof d.file !== 'string' || d.file === '') v.push(`${label}: no file`);
  // The line:column must point into a file the user can open: the file itself, not a missing target.
  else if (hasLineAt(d) && !existsSync(d.file)) v.push(`${label}: names a file that does not exist: ${d.file}`);
  if (typeof d.message !== 'string' || d.message.trim().length < 8) v.push(`${label}: message too short to say what was expected: ${JSON.stringify(d.message)}`);
  else if (LEAK.test(d.message)) v.push(`${label}: message leaks an internal value or error: ${d.message}`);
  const hasLine = d.line !== undefined;
  if (needLine && !hasLine) v.push(`${label}: no line:column (${d.file}: ${d.message})`);
  if (hasLine && (!Number.isInteger(d.line) || (d.line as number) < 1)) v.push(`${label}: bad line ${d.line}`);
  if (hasLine && (d.column === undefined || !Number.isInteger(d.column) || d.column < 1)) v.push(`${label}: line without a valid column (${d.column})`);
  if (d.path !== undefined && typeof d.path !== 'string') v.push(`${label}: path is not a string`);
  return v;
}

/** Structural soundness of a model that loaded: what every consumer (URDF, TF, devices) relies on. */
export function modelViolations(model: RobotModel, nonFinite: { path: string; value: number }[]): string[] {
  const v: string[] = [];
  if (model.links.length === 0) return ['model has no links'];
  const first = model.links[0];
  if (first?.parent !== null) v.push(`links[0] (${first?.name}) has a parent`);
  if (model.root !== first?.name) v.push(`root ${model.root} is not links[0] (${first?.name})`);
  const seen = new Set<string>();
  model.links.forEach((link, i) => {
    if (typeof link.name !== 'string' || link.name === '') v.push(`links[${i}] has no name`);
    if (seen.has(link.name)) v.push(`duplicate link name ${JSON.stringify(link.name)}`);
    if (i > 0 && (link.parent === null || !seen.has(link.parent))) v.push(`links[${i}] (${link.name}) parent ${link.parent} is not an earlier link`);
    seen.add(link.name);
    const a = link.joint.axis;
    if ((link.joint.type === 'revolute' || link.joint.type === 'prismatic') && Math.hypot(a[0], a[1], a[2]) === 0) {
      v.push(`links[${i}] (${link.name}) ${link.joint.type} joint with a zero axis`);
    }
  });
  model.devices.forEach((d, i) => {
    if (!seen.has(d.link)) v.push(`devices[${i}] (${d.name}) on unknown link ${d.link}`);
  });
  for (const { path, value } of nonFinite) {
    if (Number.isNaN(value)) v.push(`NaN at ${path}`);
    else if (!LIMIT_FIELD.test(path) && !DEVICE_PARAM.test(path)) v.push(`${value} at ${path}`);
  }
  model.warnings.forEach((w, i) => v.push(...checkLocation(w, `warnings[${i}]`, false)));
  return v;
}

/** Every way `outcome` breaks the contract (empty = fine). */
export function contractViolations(outcome: Outcome): string[] {
  switch (outcome.kind) {
    case 'timeout':
      return [`hang: no answer within ${outcome.ms} ms`];
    case 'crash':
      return [`child process died (code ${outcome.code}, signal ${outcome.signal}): ${outcome.stderr.slice(-1500)}`];
    case 'exception':
      return [`${outcome.name} escaped (${outcome.stage}): ${outcome.message}\n${outcome.stack.split('\n').slice(0, 6).join('\n')}`];
    case 'load-error': {
      if (outcome.diagnostics.length === 0) return ['ModelLoadError without diagnostics'];
      const v = outcome.diagnostics.flatMap((d, i) => checkLocation(d, `diagnostics[${i}]`, true));
      if (!outcome.diagnostics.some((d) => d.severity === 'error')) v.push('ModelLoadError without an error diagnostic');
      return v;
    }
    case 'loaded': {
      const v = modelViolations(outcome.model, outcome.nonFinite);
      if (outcome.urdf && !outcome.urdf.ok) v.push(`URDF ${outcome.urdf.stage} failed: ${outcome.urdf.name}: ${outcome.urdf.message}\n${outcome.urdf.stack.split('\n').slice(0, 6).join('\n')}`);
      return v;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The file-system half: nothing outside the mesh dir, no temp files, check_urdf parses the XML.

export function listFiles(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync(dir)) return out;
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = join(dir, rel);
    const st = statSync(full, { throwIfNoEntry: false });
    if (st?.isFile()) out.set(full, st.mtimeMs);
  }
  return out;
}

const inside = (dir: string, file: string): boolean => {
  const r = relative(dir, file);
  return r !== '' && !r.startsWith('..') && !isAbsolute(r);
};

const checkUrdfPeer = memo(findCheckUrdf);

/** check_urdf's objections; none where it is absent (that part is then noted as left out, or fails in strict mode). */
export function checkUrdf(urdfFile: string): string[] {
  const peer = checkUrdfPeer();
  if (!partWith('the hostile-input contract\'s check_urdf step', peer) || !peer.ok) return [];
  const r = spawnSync(peer.exe, [urdfFile], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) return [`check_urdf could not run: ${r.error.message}`];
  if (r.status !== 0) return [`check_urdf rejects the URDF (${r.status}): ${(r.stderr || r.stdout).slice(0, 1500)}`];
  return [];
}

/** Mesh URIs in the XML: each must name an existing file. */
function meshUriViolations(xml: string): string[] {
  const v: string[] = [];
  for (const m of xml.matchAll(/filename="([^"]*)"/g)) {
    const uri = (m[1] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'");
    let path: string;
    try {
      path = uri.startsWith('file://') ? fileURLToPath(uri) : uri;
    } catch {
      v.push(`mesh URI is not a valid file URL: ${uri}`);
      continue;
    }
    if (uri.startsWith('package://')) continue;
    if (!isAbsolute(path)) {
      v.push(`mesh URI is neither file:// nor package:// nor absolute: ${uri}`);
      continue;
    }
    // Generated meshes lie in the mesh dir (the snapshot checks nothing is written elsewhere); meshes the model
    // references (.stl/.dae/.obj resources) may lie anywhere, but must exist.
    if (!existsSync(path)) v.push(`mesh URI names a missing file: ${uri}`);
  }
  return v;
}

export interface CaseRun {
  outcome: Outcome;
  violations: string[];
}

export interface CaseSpec {
  /** The model file to load (inside caseDir). */
  file: string;
  /** A scratch directory holding the model and its resources; the mesh dir and URDF go below it. */
  caseDir: string;
  options?: LoadOptions;
  /** Run toUrdf + writeUrdf + check_urdf when the model loads (default true). */
  urdf?: boolean;
  timeoutMs?: number;
}

/** Loads one case in the runner and returns the outcome with every contract violation, file-system checks included. */
export async function runCase(runner: LoadRunner, spec: CaseSpec): Promise<CaseRun> {
  const wantUrdf = spec.urdf ?? true;
  if (!wantUrdf) {
    // Loading alone writes nothing; the file-system half of the contract is checked with the URDF stage.
    const outcome = await runner.run({ file: spec.file, options: spec.options ?? {} }, spec.timeoutMs);
    return { outcome, violations: contractViolations(outcome) };
  }
  const outRoot = join(spec.caseDir, 'out');
  const meshDir = join(outRoot, 'deep', 'er', 'meshes');
  const urdfFile = join(outRoot, 'robot.urdf');
  rmSync(outRoot, { recursive: true, force: true });
  const watchRoot = dirname(spec.caseDir);
  const before = listFiles(watchRoot);
  const outcome = await runner.run({ file: spec.file, options: spec.options ?? {}, urdf: { meshDir, urdfFile } }, spec.timeoutMs);
  const violations = contractViolations(outcome);
  const after = listFiles(watchRoot);
  for (const [f, mtime] of after) {
    if (f === urdfFile) continue;
    const isNew = !before.has(f) || before.get(f) !== mtime;
    if (!isNew) continue;
    if (!inside(meshDir, f)) violations.push(`file written outside the mesh dir: ${f}`);
  }
  if (outcome.kind === 'loaded' && outcome.urdf?.ok) {
    const written = [...after.keys()].filter((f) => inside(meshDir, f));
    const xml = readFileSync(urdfFile, 'utf8');
    for (const f of written) {
      const base = f.slice(meshDir.length + 1);
      if (/\.tmp|~$|^\.|[/\\]\./.test(base)) violations.push(`temp file left in the mesh dir: ${base}`);
      else if (!xml.includes(base.split(sep).join('/'))) violations.push(`mesh dir file not referenced by the URDF (half-written or stray): ${base}`);
    }
    violations.push(...meshUriViolations(xml));
    violations.push(...checkUrdf(urdfFile));
  }
  return { outcome, violations };
}

// ---------------------------------------------------------------------------------------------
// Helpers for the per-case expectations of the hostile suites.

export function loadedModel(run: CaseRun): RobotModel {
  if (run.outcome.kind !== 'loaded') throw new Error(`expected the model to load, got ${describeOutcome(run.outcome)}`);
  return run.outcome.model;
}

export function loadErrors(run: CaseRun): Diagnostic[] {
  if (run.outcome.kind !== 'load-error') throw new Error(`expected a located ModelLoadError, got ${describeOutcome(run.outcome)}`);
  return run.outcome.diagnostics;
}

/** CPU time the load took in the child (loaded or located error), for "fails fast" bounds. */
export function loadCpuMs(run: CaseRun): number {
  const o = run.outcome;
  return o.kind === 'loaded' || o.kind === 'load-error' ? o.cpuMs : Number.POSITIVE_INFINITY;
}

export function describeOutcome(o: Outcome): string {
  switch (o.kind) {
    case 'loaded':
      return `loaded (${o.model.links.length} links, warnings: ${o.model.warnings.map((w) => w.message).join(' | ') || 'none'})`;
    case 'load-error':
      return `ModelLoadError: ${o.message}`;
    case 'exception':
      return `${o.name} (${o.stage}): ${o.message}`;
    case 'timeout':
      return `timeout after ${o.ms} ms`;
    case 'crash':
      return `crash (${o.code ?? o.signal}): ${o.stderr.slice(-500)}`;
  }
}

export type { UrdfOutcome };
