// Building hostile cases from the base models in test/hostile/models and asserting their outcome.
// Every textual edit must match exactly once, so a case cannot silently turn into the unmodified
// base model when the base changes; expected lines are found in the final text, never computed by
// the code under test.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Diagnostic } from '../../src/model/types.js';
import { type CaseRun, type LoadRunner, describeOutcome, runCase, startLoadRunner } from '../support/contract.js';

export const hostileModels = resolve(dirname(fileURLToPath(import.meta.url)), 'models');
export const baseBody = readFileSync(join(hostileModels, 'arm.body'), 'utf8');
export const baseWrl = readFileSync(join(hostileModels, 'arm.wrl'), 'utf8');
export const basePartsWrl = readFileSync(join(hostileModels, 'parts.wrl'), 'utf8');

/** Replaces each `from` (which must occur exactly once) by `to`. */
export function edit(text: string, ...pairs: [from: string, to: string][]): string {
  let out = text;
  for (const [from, to] of pairs) {
    const first = out.indexOf(from);
    if (first < 0 || out.indexOf(from, first + 1) >= 0) throw new Error(`edit: ${JSON.stringify(from)} must occur exactly once`);
    out = out.slice(0, first) + to + out.slice(first + from.length);
  }
  return out;
}

/** 1-based line of the unique occurrence of `needle`. */
export function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0 || text.indexOf(needle, at + 1) >= 0) throw new Error(`lineOf: ${JSON.stringify(needle)} must occur exactly once`);
  return text.slice(0, at).split('\n').length;
}

/** A scratch root for one test file; every case gets its own directory below it. */
export function scratchRoot(label: string): { root: string; dispose: () => void } {
  const root = mkdtempSync(join(tmpdir(), `bb-${label}-`));
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

let counter = 0;

/** Writes `files` (relative name → content) into a fresh case directory; parts.wrl is included unless overridden. */
export function caseDir(root: string, files: Record<string, string | Buffer>, withParts = true): string {
  const dir = join(root, `case-${++counter}`, 'model');
  mkdirSync(dir, { recursive: true });
  if (withParts) copyFileSync(join(hostileModels, 'parts.wrl'), join(dir, 'parts.wrl'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

export interface ErrorWant {
  /** The file the error must name (default: the loaded file), or the files it may name. */
  file?: string | string[];
  line?: number;
  /** Exact YAML path / VRML node path, or a pattern. */
  path?: string | RegExp;
  message?: RegExp;
}

const matches = (value: string | undefined, want: string | RegExp): boolean =>
  value !== undefined && (typeof want === 'string' ? value === want : want.test(value));

/** The contract holds and the load failed with a diagnostic at the expected place saying what was expected. */
export function expectLocatedError(run: CaseRun, loadedFile: string, want: ErrorWant): Diagnostic {
  expect(run.violations, describeOutcome(run.outcome)).toEqual([]);
  expect(run.outcome.kind, describeOutcome(run.outcome)).toBe('load-error');
  if (run.outcome.kind !== 'load-error') throw new Error('unreachable');
  const file = want.file ?? loadedFile;
  const files = Array.isArray(file) ? file : [file];
  const found = run.outcome.diagnostics.find(
    (d) =>
      d.severity === 'error' &&
      files.includes(d.file) &&
      (want.line === undefined || d.line === want.line) &&
      (want.path === undefined || matches(d.path, want.path)) &&
      (want.message === undefined || want.message.test(d.message)),
  );
  expect(found, `no diagnostic matching ${JSON.stringify({ ...want, file, path: String(want.path), message: String(want.message) })} in:\n${run.outcome.message}`).toBeDefined();
  return found as Diagnostic;
}

/** The contract holds, the model loaded, and (when `warning` is given) a warning matches it. */
export function expectLoads(run: CaseRun, warning?: { message: RegExp; path?: string | RegExp; file?: string }): void {
  expect(run.violations, describeOutcome(run.outcome)).toEqual([]);
  expect(run.outcome.kind, describeOutcome(run.outcome)).toBe('loaded');
  if (run.outcome.kind !== 'loaded' || !warning) return;
  const ws = run.outcome.model.warnings;
  const found = ws.find(
    (w) =>
      warning.message.test(w.message) &&
      (warning.path === undefined || matches(w.path, warning.path)) &&
      (warning.file === undefined || w.file === warning.file),
  );
  expect(found, `no warning matching ${String(warning.message)} among: ${ws.map((w) => `${w.path ?? ''}: ${w.message}`).join(' | ') || 'none'}`).toBeDefined();
}

export const MB = 1024 * 1024;

/** "Billion laughs": 10 levels, each a list of ten aliases of the level below — 10^10 nodes if expanded. */
export function aliasBomb(): string {
  const lines = ['l0: &l0 [ "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol" ]'];
  for (let i = 1; i <= 10; i++) lines.push(`l${i}: &l${i} [ ${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')} ]`);
  return lines.join('\n');
}

/** Appends comment lines until the text is at least `bytes` long. */
export function padWithComments(text: string, bytes: number, comment: string): string {
  const line = `${comment} ${'padding '.repeat(12)}\n`;
  return text + line.repeat(Math.ceil((bytes - text.length) / line.length));
}

/**
 * The per-file harness of the hostile suites: a bounded load runner and a scratch root for the file's
 * cases. `write` lays out a case (callers may add special files before running it), `run` loads
 * `model` from it under the contract, `load` does both.
 */
export function hostileCases(label: string) {
  let runner: LoadRunner | undefined;
  const scratch = scratchRoot(label);
  beforeAll(() => {
    runner = startLoadRunner({ timeoutMs: 20_000, maxOldSpaceMb: 512 });
  });
  afterAll(() => {
    runner?.close();
    scratch.dispose();
  });
  const write = (files: Record<string, string | Buffer>): string => caseDir(scratch.root, files);
  const run = async (dir: string, model: string, timeoutMs?: number) => {
    const file = join(dir, model);
    return { run: await runCase(runner!, { file, caseDir: join(dir, '..'), timeoutMs }), file, dir };
  };
  const load = (model: string, files: Record<string, string | Buffer>) => run(write(files), model);
  return { write, run, load };
}
