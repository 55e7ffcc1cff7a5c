// Hostile and broken OpenHRP VRML97 files: each case is test/hostile/models/arm.wrl (and
// the parts.wrl it inlines) with one defect; the test name says the outcome we decided on. Every case
// also goes through the general contract of test/support/contract.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadedModel } from './support/contract.js';
import { basePartsWrl, baseWrl, edit, expectLoads, expectLocatedError, lineOf, hostileCases } from './hostile/case-kit.js';

const cases = hostileCases('hostile-vrml');

const load = (text: string | Buffer, extra: Record<string, string | Buffer> = {}) => cases.load('robot.wrl', { 'robot.wrl': text, ...extra });

/** arm.wrl with parts.wrl replaced by `parts`. */
const loadWithParts = (parts: string) => load(baseWrl, { 'parts.wrl': parts });

describe('the base model', () => {
  test('arm.wrl loads without warnings, with its joints, device and inlined shapes', async () => {
    const { run } = await load(baseWrl);
    expectLoads(run);
    const model = loadedModel(run);
    expect(model.warnings).toEqual([]);
    expect(model.links.map((l) => [l.name, l.parent, l.joint.type])).toEqual([
      ['BASE', null, 'fixed'],
      ['ARM', 'BASE', 'revolute'],
    ]);
    expect(model.devices.map((d) => [d.type, d.name, d.link])).toEqual([['ForceSensor', 'WRIST_FS', 'ARM']]);
    expect(model.links[1]?.visuals.map((s) => s.geometry.kind)).toEqual(['cylinder', 'mesh', 'elevationGrid', 'extrusion']);
  });
});

describe('syntax', () => {
  test('unterminated node (the last closing brace missing) → located error', async () => {
    const text = baseWrl.slice(0, baseWrl.lastIndexOf('}'));
    const { run, file } = await load(text);
    expectLocatedError(run, file, { message: /\}|end of file|unterminated|expected/i });
  });

  test('truncated in the middle of a field value → located error', async () => {
    const text = baseWrl.slice(0, baseWrl.indexOf('momentsOfInertia [ 0.01 0 0 0 0.01 0 0 0 0.001 ]') + 30);
    const { run, file } = await load(text);
    expectLocatedError(run, file, {});
  });

  test('unterminated string (runs to the end of the file) → located error', async () => {
    // VRML strings may span lines, so only a quote that is never closed is unterminated.
    const text = edit(baseWrl, ['  segments [ USE BASE_LINK, USE ARM_LINK ]\n', '  segments [ USE BASE_LINK, USE ARM_LINK ]\n  info [ "never closed\n']);
    const { run, file } = await load(text);
    const d = expectLocatedError(run, file, { message: /string|quote|"/i });
    expect(d.line).toBeGreaterThanOrEqual(lineOf(text, '"never closed'));
  });

  test('USE of an undefined name → located error naming it', async () => {
    const text = edit(baseWrl, ['joints [ USE BASE, USE ARM ]', 'joints [ USE BASE, USE NOPE ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'USE NOPE'), message: /NOPE/ });
  });

  test('directly recursive PROTO (Loop instantiates Loop) → located error, no hang', async () => {
    const text = edit(baseWrl, ['DEF HostileArm Humanoid {', 'PROTO Loop [ ] { Loop { } }\nLoop { }\nDEF HostileArm Humanoid {']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { message: /Loop/ });
  });

  test('mutually recursive PROTOs (A → B → A) → located error, no hang', async () => {
    const text = edit(baseWrl, [
      'DEF HostileArm Humanoid {',
      'PROTO A [ ] { Group { children [ B { } ] } }\nPROTO B [ ] { Group { children [ A { } ] } }\nA { }\nDEF HostileArm Humanoid {',
    ]);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { message: /\bA\b|\bB\b|recurs/ });
  });

  test('field type mismatch: SFFloat mass given a string → located error at that field', async () => {
    const text = edit(baseWrl, ['          mass 2.0\n', '          mass "heavy"\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'mass "heavy"'), message: /mass|SFFloat|number/i });
  });

  test('field type mismatch: SFVec3f jointAxis with two numbers → located error', async () => {
    const text = edit(baseWrl, ['          jointAxis 0 0 1\n', '          jointAxis 0 1\n']);
    const { run, file } = await load(text);
    const d = expectLocatedError(run, file, {});
    expect(d.line).toBeGreaterThanOrEqual(lineOf(text, 'jointAxis 0 1'));
    expect(d.line).toBeLessThanOrEqual(lineOf(text, 'jointAxis 0 1') + 1);
  });

  test('field type mismatch: MFNode children given a number → located error', async () => {
    const text = edit(baseWrl, ['children Shape { geometry Cylinder { radius 0.03 height 0.4 } }', 'children 42']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'children 42') });
  });

  test('an unknown field in a PROTO instance → located error naming it', async () => {
    const text = edit(baseWrl, ['          jointId 0\n', '          jointId 0\n          wobble 3\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'wobble 3'), message: /wobble/ });
  });

  test('a VRML file with shapes but no Humanoid and no Joint → loads with a warning: the scene becomes one fixed link', async () => {
    const { run } = await load('#VRML V2.0 utf8\nTransform { children [ Shape { geometry Box { } } ] }\n');
    expectLoads(run, { message: /Humanoid/ });
    expect(loadedModel(run).links).toHaveLength(1);
  });

  test('binary garbage after the header → located error', async () => {
    const junk = Buffer.concat([Buffer.from('#VRML V2.0 utf8\n'), Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256))]);
    const { run, file } = await load(junk);
    expectLocatedError(run, file, {});
  });

  test('a Latin-1 byte inside a comment → loads (comments are not interpreted)', async () => {
    const bytes = Buffer.concat([Buffer.from(baseWrl.replace('# Base model', '# Base mod\u0000l')), Buffer.alloc(0)]);
    bytes[bytes.indexOf(0)] = 0xe9;
    const { run } = await load(bytes);
    expectLoads(run);
  });
});

describe('OpenHRP semantics', () => {
  test('an unknown jointType → located error naming it', async () => {
    const text = edit(baseWrl, ['          jointType "rotate"\n', '          jointType "wobbly"\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'jointType "wobbly"'), message: /wobbly/ });
  });

});

describe('geometry in the inlined parts file', () => {
  test('IndexedFaceSet coordIndex out of range → located error in parts.wrl at coordIndex', async () => {
    const parts = edit(basePartsWrl, ['coordIndex [ 0 1 2 -1, 0 2 3 -1 ]', 'coordIndex [ 0 1 2 -1, 0 2 7 -1 ]']);
    const { run, file, dir } = await loadWithParts(parts);
    void file;
    expectLocatedError(run, join(dir, 'robot.wrl'), { file: join(dir, 'parts.wrl'), line: lineOf(parts, 'coordIndex'), message: /7|range|index/i });
  });

  test('ElevationGrid with fewer heights than xDimension × zDimension → located error in parts.wrl', async () => {
    const parts = edit(basePartsWrl, ['height [ 0 0.001 0, 0.001 0.002 0.001 ]', 'height [ 0 0.001 0 ]']);
    const { run, dir } = await loadWithParts(parts);
    expectLocatedError(run, join(dir, 'robot.wrl'), { file: join(dir, 'parts.wrl'), message: /height|6|3/ });
  });

  test('a 0-dimension ElevationGrid → loads with a warning (empty grid), or located error in parts.wrl', async () => {
    const parts = edit(basePartsWrl, ['xDimension 3', 'xDimension 0'], ['height [ 0 0.001 0, 0.001 0.002 0.001 ]', 'height [ ]']);
    const { run, dir } = await loadWithParts(parts);
    if (run.outcome.kind === 'loaded') expectLoads(run);
    else expectLocatedError(run, join(dir, 'robot.wrl'), { file: join(dir, 'parts.wrl') });
  });
});

describe('files referenced by Inline', () => {
  test('Inline → missing file → located error at the Inline naming the file', async () => {
    const text = edit(baseWrl, ['Inline { url "parts.wrl" }', 'Inline { url "missing.wrl" }']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'missing.wrl'), message: /missing\.wrl/ });
  });

  test('Inline → a directory → located error at the Inline', async () => {
    const text = edit(baseWrl, ['Inline { url "parts.wrl" }', 'Inline { url "sub" }']);
    const dir = cases.write({ 'robot.wrl': text });
    mkdirSync(join(dir, 'sub'));
    const { run, file } = await cases.run(dir, 'robot.wrl');
    expectLocatedError(run, file, { line: lineOf(text, 'url "sub"') });
  });

  test('Inline → the file itself (a cycle) → located error, no hang', async () => {
    const text = edit(baseWrl, ['Inline { url "parts.wrl" }', 'Inline { url "robot.wrl" }']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { message: /cycl|itself|recurs|robot\.wrl/i });
  });

  test('parts.wrl inlining itself → located error, no hang', async () => {
    const parts = edit(basePartsWrl, ['DEF GRIPPER Transform {\n  children [\n', 'DEF GRIPPER Transform {\n  children [\n    Inline { url "parts.wrl" }\n']);
    const { run } = await loadWithParts(parts);
    expect(run.violations).toEqual([]);
    expect(run.outcome.kind).toBe('load-error');
  });
});

describe('fixed findings: values and geometry the loader must refuse or report', () => {
  test('finite but huge Segment mass properties (mass 1e308, centerOfMass z 1e300) → located error, not NaN in the combined inertia', async () => {
    const text = edit(baseWrl, ['              mass 1.0\n', '              mass 1e308\n'], ['              centerOfMass 0 0 0.2\n', '              centerOfMass 0 0 1e300\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'mass 1e308') });
  });

  test('1e400 in a translation → located error at that field', async () => {
    const text = edit(baseWrl, ['          translation 0 0 0.1\n', '          translation 0 0 1e400\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'translation 0 0 1e400') });
  });

  test('an empty file → located error', async () => {
    const { run, file } = await load('');
    expectLocatedError(run, file, {});
  });

  test('zero jointAxis on a rotate joint → located error', async () => {
    const text = edit(baseWrl, ['          jointAxis 0 0 1\n', '          jointAxis 0 0 0\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'jointAxis 0 0 0'), message: /zero|axis/i });
  });

  test('ulimit below llimit → located error', async () => {
    const text = edit(baseWrl, ['          ulimit [ 1.5 ]\n          llimit [ -1.5 ]\n', '          ulimit [ -1.5 ]\n          llimit [ 1.5 ]\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { message: /limit|lower|upper|min|max/i });
  });

  test('negative Segment mass → located error at the mass field', async () => {
    const text = edit(baseWrl, ['              mass 1.0\n', '              mass -1.0\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'mass -1.0'), message: /mass|negative/i });
  });

  test('IndexedFaceSet with a negative index other than -1 → located error in parts.wrl, or loads with a warning naming the invalid index', async () => {
    const parts = edit(basePartsWrl, ['coordIndex [ 0 1 2 -1, 0 2 3 -1 ]', 'coordIndex [ 0 1 2 -1, 0 -2 3 -1 ]']);
    const { run, dir } = await loadWithParts(parts);
    // Today: loads, warning "2 face(s) with fewer than 3 vertices dropped" — -2 is read as a face end.
    if (run.outcome.kind === 'loaded') expectLoads(run, { message: /-2|invalid index|negative/i });
    else expectLocatedError(run, join(dir, 'robot.wrl'), { file: join(dir, 'parts.wrl'), line: lineOf(parts, 'coordIndex') });
  });

  test('Extrusion with one spine point → loads with a warning (no solid can be swept; the shape is dropped)', async () => {
    const parts = edit(basePartsWrl, ['spine [ 0 0 0, 0 0.02 0 ]', 'spine [ 0 0 0 ]']);
    const { run } = await loadWithParts(parts);
    expectLoads(run, { message: /spine|Extrusion/i });
  });
});
