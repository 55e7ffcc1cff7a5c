// Helpers for the VRML tests: small models written to a fresh temporary directory.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { ModelLoadError } from '../../src/model/errors.js';
import type { Diagnostic, Vec3 } from '../../src/model/types.js';
import { projectRoot } from './oracle.js';

export const vrmlModelsDir = join(projectRoot, 'test/models/vrml');

/** The OpenHRP PROTO declarations (spec interfaces), to put in front of test models. */
export const openHrpProtos = (): string => readFileSync(join(vrmlModelsDir, 'protos.wrl'), 'utf8');

/** Lines the PROTO prefix takes, to turn a line of a model body into a line of the file. */
export const protoLines = (): number => openHrpProtos().split('\n').length - 1;

/** Directories writeFiles made for the test file that imports this module, removed after its tests. */
const written: string[] = [];
afterAll(() => {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (relative name → text) into a new temporary directory; returns its path. */
export function writeFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vrml-test-'));
  written.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/** Writes one model and returns its path. */
export function writeModel(text: string, name = 'model.wrl'): string {
  return join(writeFiles({ [name]: text }), name);
}

/** Runs `load` and returns the single diagnostic of the ModelLoadError it must throw. */
export function loadError(load: () => unknown): Diagnostic {
  try {
    load();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelLoadError);
    const diagnostics = (e as ModelLoadError).diagnostics;
    expect(diagnostics).toHaveLength(1);
    return diagnostics[0]!;
  }
  throw new Error('expected a ModelLoadError, but the load succeeded');
}

/** Applies an affine transform given as linear part + translation to a point. */
export function apply(t: { linear: number[][]; translation: number[] }, p: Vec3): Vec3 {
  const l = t.linear;
  return [0, 1, 2].map((i) => l[i]![0]! * p[0] + l[i]![1]! * p[1] + l[i]![2]! * p[2] + t.translation[i]!) as Vec3;
}

/** Element-wise closeness of nested number arrays. */
export function expectClose(actual: unknown, expected: unknown, eps = 1e-12): void {
  if (typeof expected === 'number') {
    expect(typeof actual).toBe('number');
    expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(eps);
    return;
  }
  expect(Array.isArray(actual)).toBe(true);
  const a = actual as unknown[];
  const e = expected as unknown[];
  expect(a.length).toBe(e.length);
  e.forEach((x, i) => expectClose(a[i], x, eps));
}
