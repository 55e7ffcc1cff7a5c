// Bad .body files give one located error: the file, the YAML path, line:column and what was
// expected. Each case is test/models/body/base.body with one defect; positions are found in the
// edited text, not taken from the loader.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadBodyFile } from '../src/body/index.js';
import { ModelLoadError } from '../src/model/errors.js';
import { projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const base = readFileSync(join(projectRoot, 'test/models/body/base.body'), 'utf8');
const dir = scratchDir('body-errors-');
let counter = 0;

/** base.body with each [from, to] replacement applied once (each `from` must occur). */
function edit(...pairs: [string, string][]): string {
  return pairs.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`base.body has no ${JSON.stringify(from)}`);
    return text.replace(from, to);
  }, base);
}

/** 1-based line and column of the first occurrence of `needle` (column of its first character). */
function position(text: string, needle: string, offsetInNeedle = 0): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`no ${JSON.stringify(needle)} in the edited text`);
  const before = text.slice(0, at + offsetInNeedle);
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

function expectError(text: string, where: { path: string | undefined; line: number; column: number }, message: RegExp): void {
  const file = join(dir, `case${++counter}.body`);
  writeFileSync(file, text);
  let error: unknown;
  try {
    loadBodyFile(file);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ModelLoadError);
  const [d, ...more] = (error as ModelLoadError).diagnostics;
  expect(more).toEqual([]);
  expect({ file: d!.file, path: d!.path, line: d!.line, column: d!.column }).toEqual({ file, ...where });
  expect(d!.severity).toBe('error');
  expect(d!.message).toMatch(message);
  // The thrown message is the editor-friendly form.
  const at = where.path === undefined ? '' : ` (at ${where.path})`;
  expect((error as Error).message).toBe(`${file}:${where.line}:${where.column}: error: ${d!.message}${at}`);
}

test('the base model loads without warnings', () => {
  const file = join(dir, 'base.body');
  writeFileSync(file, base);
  const m = loadBodyFile(file);
  expect(m.warnings).toEqual([]);
  expect(m.links.map((l) => l.name)).toEqual(['ROOT', 'UPPER', 'LOWER']);
});

describe('link tree', () => {
  test('a non-root link without a parent', () => {
    const text = edit(['    parent: UPPER\n', '']);
    expectError(text, { path: 'links[2]', ...position(text, 'name: LOWER') }, /parent of link "LOWER" is not given/);
  });

  test('an unknown parent', () => {
    const text = edit(['    parent: UPPER\n', '    parent: MIDDLE\n']);
    expectError(text, { path: 'links[2].parent', ...position(text, 'MIDDLE') }, /parent link "MIDDLE" of link "LOWER" is not defined/);
  });

  test('a cycle (UPPER ↔ LOWER)', () => {
    const text = edit(['    parent: ROOT\n', '    parent: LOWER\n']);
    expectError(text, { path: 'links[2].parent', ...position(text, 'parent: UPPER', 'parent: '.length) }, /making "UPPER" the parent of "LOWER" creates a cycle/);
  });

  test('duplicate link names: the error is at the second name', () => {
    const text = edit(['    name: LOWER\n', '    name: UPPER\n'], ['    parent: UPPER\n', '    parent: ROOT\n']);
    const second = text.indexOf('name: UPPER', text.indexOf('name: UPPER') + 1);
    const before = text.slice(0, second + 'name: '.length);
    expectError(
      text,
      { path: 'links[2].name', line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') },
      /duplicate link name "UPPER"/,
    );
  });

  test('root_link naming no link', () => {
    const text = edit(['name: ErrorBase\n', 'name: ErrorBase\nroot_link: BASE\n']);
    expectError(text, { path: 'root_link', ...position(text, 'BASE') }, /root link "BASE" is not defined/);
  });

  test('a device placed at the links level (the mis-indented SimpleTank listing)', () => {
    const text = edit(['  -\n    name: LOWER\n', '  -\n    type: SpotLight\n    name: LAMP\n  -\n    name: LOWER\n']);
    expectError(text, { path: 'links[2].type', ...position(text, 'SpotLight') }, /SpotLight node cannot be an entry of "links".*elements/);
  });

  test('no links at all', () => {
    const text = base.slice(0, base.indexOf('links:'));
    expectError(text, { path: undefined, line: 2, column: 1 }, /no "links"/);
  });
});

describe('values', () => {
  test('a translation with two numbers', () => {
    const text = edit(['    translation: [ 0, 0, 0.3 ]', '    translation: [ 0, 0.3 ]']);
    expectError(text, { path: 'links[2].translation', ...position(text, '[ 0, 0.3 ]') }, /3 numbers.*got 2 elements/);
  });

  test('a rotation that is not axis-angle (three numbers)', () => {
    const text = edit(['    translation: [ 0, 0, 0.3 ]', '    translation: [ 0, 0, 0.3 ]\n    rotation: [ 0, 0, 90 ]']);
    expectError(text, { path: 'links[2].rotation', ...position(text, '[ 0, 0, 90 ]') }, /4 numbers/);
  });

  test('an inertia of 8 numbers', () => {
    const text = edit(['[ 0.02, 0, 0, 0.02, 0, 0.02 ]', '[ 0.02, 0, 0, 0.02, 0, 0.02, 0, 0 ]']);
    expectError(text, { path: 'links[0].inertia', ...position(text, '[ 0.02, 0, 0, 0.02, 0, 0.02, 0, 0 ]') }, /6 or 9 numbers, got 8/);
  });

  test('a word where a number belongs', () => {
    const text = edit(['    mass: 1.0\n', '    mass: heavy\n']);
    expectError(text, { path: 'links[1].mass', ...position(text, 'heavy') }, /expected a mass in kg, got "heavy"/);
  });

  test('a word inside a vector', () => {
    const text = edit(['[ 0, 0, 0.05 ]', '[ 0, zero, 0.05 ]']);
    expectError(text, { path: 'links[0].center_of_mass[1]', ...position(text, 'zero') }, /expected a number, got "zero"/);
  });

  test('a list where a number belongs, deep in elements', () => {
    const text = edit(['radius: 0.02', 'radius: [ 0.02 ]']);
    expectError(
      text,
      { path: 'links[1].elements[0].elements[0].geometry.radius', ...position(text, '[ 0.02 ]') },
      /expected a radius in metres, got a list/,
    );
  });

  test('angle_unit: radian with format_version 2.0', () => {
    const text = edit(['format_version: 2.0\n', 'format_version: 2.0\nangle_unit: radian\n']);
    expectError(text, { path: 'angle_unit', ...position(text, 'radian') }, /radian is not allowed with format_version 2\.0/);
  });

  test('an unknown angle unit', () => {
    const text = edit(['format_version: 2.0\n', 'format_version: 1.0\nangleUnit: gradian\n']);
    expectError(text, { path: 'angleUnit', ...position(text, 'gradian') }, /"degree" or "radian"/);
  });

  test('an unsupported format version', () => {
    const text = edit(['format_version: 2.0', 'format_version: 3.0']);
    expectError(text, { path: 'format_version', ...position(text, '3.0') }, /not supported/);
  });

  test('not a Choreonoid body', () => {
    const text = edit(['format: ChoreonoidBody', 'format: URDF']);
    expectError(text, { path: 'format', ...position(text, 'URDF') }, /expected ChoreonoidBody/);
  });

  test('an unknown joint type', () => {
    const text = edit(['    joint_type: prismatic', '    joint_type: telescopic']);
    expectError(text, { path: 'links[2].joint_type', ...position(text, 'telescopic') }, /unknown joint type "telescopic"/);
  });

  test('an unknown axis letter', () => {
    const text = edit(['    joint_axis: Z', '    joint_axis: W']);
    expectError(text, { path: 'links[1].joint_axis', ...position(text, 'W\n') }, /X, Y, Z, -X, -Y, -Z/);
  });

  test('a joint_range of three values', () => {
    const text = edit(['[ -120, 120 ]', '[ -120, 0, 120 ]']);
    expectError(text, { path: 'links[1].joint_range', ...position(text, '[ -120, 0, 120 ]') }, /\[lower, upper\], got 3/);
  });

  test('an unknown word as a limit', () => {
    const text = edit(['[ -120, 120 ]', '[ -120, infinite ]']);
    expectError(text, { path: 'links[1].joint_range[1]', ...position(text, 'infinite') }, /a number or "unlimited"/);
  });

  test('an unknown geometry type', () => {
    const text = edit(['type: Cylinder', 'type: Torus']);
    expectError(text, { path: 'links[1].elements[0].elements[0].geometry.type', ...position(text, 'Torus') }, /unknown geometry type "Torus"/);
  });

  test('an unknown optical frame', () => {
    const text = edit(['        type: ForceSensor\n', '        type: Camera\n        format: COLOR\n        optical_frame: ros\n']);
    expectError(text, { path: 'links[2].elements[0].optical_frame', ...position(text, 'ros\n') }, /gl, cv or robotics/);
  });
});

describe('files', () => {
  test('a Resource that does not exist', () => {
    const text = edit(['      - { type: Shape, geometry: { type: Box, size: [ 0.3, 0.3, 0.1 ] } }', '      - { type: Resource, uri: "missing.stl" }']);
    expectError(text, { path: 'links[0].elements[0].uri', ...position(text, '"missing.stl"') }, /missing\.stl/);
  });

  test('a YAML syntax error', () => {
    const text = edit(['    mass: 1.0\n', '    mass: [ 1.0\n']);
    const file = join(dir, 'syntax.body');
    writeFileSync(file, text);
    let error: unknown;
    try {
      loadBodyFile(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelLoadError);
    const d = (error as ModelLoadError).diagnostics[0]!;
    expect(d.file).toBe(file);
    expect(d.line).toBeGreaterThanOrEqual(position(text, '[ 1.0').line);
    expect(d.message).toMatch(/YAML/);
  });

  test('a missing model file', () => {
    const file = join(dir, 'nowhere.body');
    expect(() => loadBodyFile(file)).toThrow(ModelLoadError);
    expect(() => loadBodyFile(file)).toThrow(/nowhere\.body: error: cannot read the file/);
  });
});
