// Child process that loads untrusted model files for the hostile-input contract (test/support/contract.ts).
// It runs outside the test process so that a hang, a stack overflow or a memory blow-up in a loader
// ends this process, not the test run: the parent kills it after a time bound and reports a failure.
// It is compiled together with src/ by contract.ts; it answers one request per IPC message.
import { frameTree } from '../../src/kinematics/frames.js';
import { loadRobotModel } from '../../src/load.js';
import { ModelLoadError } from '../../src/model/errors.js';
import type { LoadOptions } from '../../src/model/options.js';
import type { Diagnostic, RobotModel } from '../../src/model/types.js';

export interface LoadRequest {
  id: number;
  file: string;
  options: LoadOptions;
  /** When set and the model loads: toUrdf + writeUrdf with meshDir, and the XML written to urdfFile. */
  urdf?: { meshDir: string; urdfFile: string };
}

export type WorkerOutcome =
  | {
      kind: 'loaded';
      model: RobotModel;
      /** Paths of every non-finite number anywhere in the model (geometry included). */
      nonFinite: { path: string; value: number }[];
      urdf?: UrdfOutcome;
      /** Wall-clock and CPU time of the load alone (CPU time does not depend on how busy the machine is). */
      ms: number;
      cpuMs: number;
      heapUsed: number;
    }
  | { kind: 'load-error'; diagnostics: Diagnostic[]; message: string; ms: number; cpuMs: number; heapUsed: number }
  | { kind: 'exception'; stage: 'load' | 'frames' | 'toUrdf' | 'writeUrdf'; name: string; message: string; stack: string; ms: number };

export type UrdfOutcome =
  | { ok: true; warnings: Diagnostic[]; meshCount: number }
  | { ok: false; stage: 'toUrdf' | 'writeUrdf'; name: string; message: string; stack: string }
  | { ok: false; stage: 'missing'; name: string; message: string; stack: string };

const BIG_ARRAY = 64;

/** Replaces large geometry arrays by their length so the IPC message stays small; records non-finite numbers everywhere first. */
function scan(value: unknown, path: string, nonFinite: { path: string; value: number }[]): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) && nonFinite.length < 50) nonFinite.push({ path, value });
    return value;
  }
  if (ArrayBuffer.isView(value)) {
    const arr = value as unknown as ArrayLike<number>;
    for (let i = 0; i < arr.length; i++) {
      const x = arr[i] as number;
      if (!Number.isFinite(x) && nonFinite.length < 50) nonFinite.push({ path: `${path}[${i}]`, value: x });
    }
    return { length: arr.length };
  }
  if (Array.isArray(value)) {
    const out = value.map((v, i) => scan(v, `${path}[${i}]`, nonFinite));
    // Only geometry data (vertices, faces, heights, ...) is summarised; links, devices and warnings stay whole.
    return out.length > BIG_ARRAY && path.includes('.geometry.') ? { length: out.length } : out;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scan(v, path === '' ? k : `${path}.${k}`, nonFinite);
    return out;
  }
  return value;
}

function describe(e: unknown): { name: string; message: string; stack: string } {
  if (e instanceof Error) return { name: e.constructor.name || e.name, message: e.message, stack: e.stack ?? '' };
  return { name: typeof e, message: String(e), stack: '' };
}

type UrdfModule = typeof import('../../src/urdf/index.js');

async function urdfModule(): Promise<UrdfModule | Error> {
  try {
    return await import('../../src/urdf/index.js');
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

async function toUrdfOutcome(model: RobotModel, target: { meshDir: string; urdfFile: string }): Promise<UrdfOutcome> {
  const mod = await urdfModule();
  if (mod instanceof Error) return { ok: false, stage: 'missing', ...describe(mod) };
  let result: ReturnType<UrdfModule['toUrdf']>;
  try {
    result = mod.toUrdf(model, { meshDir: target.meshDir });
  } catch (e) {
    return { ok: false, stage: 'toUrdf', ...describe(e) };
  }
  try {
    await mod.writeUrdf(result, target.urdfFile);
  } catch (e) {
    return { ok: false, stage: 'writeUrdf', ...describe(e) };
  }
  return { ok: true, warnings: result.warnings, meshCount: result.meshes.length };
}

async function handle(req: LoadRequest): Promise<WorkerOutcome> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const cpuMs = (): number => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  let model: RobotModel;
  try {
    model = loadRobotModel(req.file, req.options);
  } catch (e) {
    const ms = performance.now() - t0;
    if (e instanceof ModelLoadError) {
      return { kind: 'load-error', diagnostics: e.diagnostics, message: e.message, ms, cpuMs: cpuMs(), heapUsed: process.memoryUsage().heapUsed };
    }
    return { kind: 'exception', stage: 'load', ...describe(e), ms };
  }
  const ms = performance.now() - t0;
  const cpu = cpuMs();
  try {
    frameTree(model);
  } catch (e) {
    return { kind: 'exception', stage: 'frames', ...describe(e), ms };
  }
  const nonFinite: { path: string; value: number }[] = [];
  const stripped = scan(model, '', nonFinite) as RobotModel;
  const urdf = req.urdf ? await toUrdfOutcome(model, req.urdf) : undefined;
  return { kind: 'loaded', model: stripped, nonFinite, ...(urdf ? { urdf } : {}), ms, cpuMs: cpu, heapUsed: process.memoryUsage().heapUsed };
}

process.on('message', (req: LoadRequest) => {
  void handle(req).then((outcome) => process.send?.({ id: req.id, outcome }));
});
process.send?.({ ready: true });
