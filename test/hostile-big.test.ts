// Inputs built to exhaust time, memory or the stack: alias bombs, 10,000-deep YAML and VRML
// nesting, 50 MB files, include fan-out, triangle budget. They are generated into a temp dir at test time (never committed) and
// loaded in a child process with a heap bound and a time bound, so a blow-up fails the case instead
// of taking the test run down. Each name says the outcome we decided on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeOutcome, type LoadRunner, loadCpuMs, loadedModel, runCase, startLoadRunner } from './support/contract.js';
import { aliasBomb, baseBody, baseWrl, caseDir, edit, expectLoads, expectLocatedError, lineOf, MB, padWithComments, scratchRoot } from './hostile/case-kit.js';

const scratch = scratchRoot('hostile-big');
// Small heap: bombs must be stopped by the limits long before memory matters.
let small: LoadRunner;
// The 50 MB files need room for the file itself; 1 GB is still far below what a leak would reach.
let large: LoadRunner;

beforeAll(() => {
  small = startLoadRunner({ timeoutMs: 15_000, maxOldSpaceMb: 256 });
  large = startLoadRunner({ timeoutMs: 90_000, maxOldSpaceMb: 1024 });
});
afterAll(() => {
  small.close();
  large.close();
  scratch.dispose();
});

async function loadIn(runner: LoadRunner, name: string, content: string | Buffer, options = {}, urdf = true) {
  const dir = caseDir(scratch.root, { [name]: content });
  const file = join(dir, name);
  const run = await runCase(runner, { file, caseDir: join(dir, '..'), options, urdf });
  return { run, file, dir };
}

describe('YAML bombs', () => {
  test('alias bomb ("billion laughs") in an unknown top-level key → located error naming the alias limit', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', `root_link: BASE\n${aliasBomb()}\n`]);
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { message: /alias/i });
  });

  test('alias bomb ("billion laughs") → located error within 1 s of CPU (resolving 10,000 aliases is cheap with an anchor map)', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', `root_link: BASE\n${aliasBomb()}\n`]);
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { message: /alias/i });
    expect(loadCpuMs(run)).toBeLessThan(1_000);
  });

  test('alias bomb inside a link (elements aliasing elements) → located error naming the alias limit, in 256 MB and 2 s of CPU', async () => {
    const shape = '{ type: Shape, geometry: { type: Box, size: [ 0.1, 0.1, 0.1 ] } }';
    const levels = [`    e0: &e0 [ ${Array.from({ length: 10 }, () => shape).join(', ')} ]`];
    for (let i = 1; i <= 8; i++) levels.push(`    e${i}: &e${i} [ ${Array.from({ length: 10 }, () => `{ type: Transform, elements: *e${i - 1} }`).join(', ')} ]`);
    const text = edit(baseBody, [
      '    elements:\n      -\n        type: Shape\n        geometry: { type: Box, size: [ 0.2, 0.2, 0.1 ] }\n',
      `${levels.join('\n')}\n    elements: *e8\n`,
    ]);
    // Either the alias limit or the included-shape budget stops it; what matters is a located error, fast, in 256 MB.
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { message: /alias|limit|too many/i });
    expect(loadCpuMs(run)).toBeLessThan(2_000);
  }, 60_000);

  test('ten aliases with maxAliases lowered to 5 → located error naming the limit (5 aliases, or the nodes they may copy)', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', `root_link: BASE\n${aliasBomb().split('\n').slice(0, 2).join('\n')}\n`]);
    const { run, file } = await loadIn(small, 'robot.body', text, { limits: { maxAliases: 5 } });
    expectLocatedError(run, file, { message: /alias/i });
    expect(run.outcome.kind === 'load-error' && /\b(5|50)\b/.test(run.outcome.message)).toBe(true);
  });
});

describe('deep nesting', () => {
  test('10,000-deep flow sequence in an unknown key → located error naming the depth limit, no stack overflow', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', `root_link: BASE\ndeep: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`]);
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { line: lineOf(text, 'deep:'), message: /deep|depth|nest/i });
  });

  test('10,000-deep flow mappings in an unknown key → located error naming the depth limit', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', `root_link: BASE\ndeep: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`]);
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { line: lineOf(text, 'deep:'), message: /deep|depth|nest/i });
  });

  test('a 10,000-deep Transform chain in elements → located error naming the depth limit', async () => {
    const chain = `${'{ type: Transform, elements: [ '.repeat(10_000)}{ type: Shape, geometry: { type: Box, size: [ 0.1, 0.1, 0.1 ] } }${' ] }'.repeat(10_000)}`;
    const text = edit(baseBody, [
      '    elements:\n      -\n        type: Shape\n        geometry: { type: Box, size: [ 0.2, 0.2, 0.1 ] }\n',
      `    elements: [ ${chain} ]\n`,
    ]);
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { message: /deep|depth|nest/i });
  });

  test('a 10,000-deep block-style nesting (- - - … on one line) → located error naming the depth limit', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', `root_link: BASE\ndeep:\n  ${'- '.repeat(10_000)}1\n`]);
    const { run, file } = await loadIn(small, 'robot.body', text);
    expectLocatedError(run, file, { message: /deep|depth|nest/i });
  });

  test('10,000-deep VRML Transform nesting → located error naming the depth limit, no stack overflow', async () => {
    const deep = `${'Transform { children [ '.repeat(10_000)}Shape { geometry Box { } }${' ] }'.repeat(10_000)}`;
    const text = edit(baseWrl, ['            Inline { url "parts.wrl" }\n', `            Inline { url "parts.wrl" }\n            ${deep}\n`]);
    const { run, file } = await loadIn(small, 'robot.wrl', text);
    expectLocatedError(run, file, { message: /deep|depth|nest/i });
  });

  test('10,000-deep VRML Joint nesting (a 10,000-link chain) → located error naming the depth limit', async () => {
    const joint = 'Joint { jointType "rotate" jointAxis 0 0 1 children [ Segment { mass 1 } ';
    const deep = `${joint.repeat(10_000)}${' ] }'.repeat(10_000)}`;
    const text = edit(baseWrl, ['            DEF ARM_LINK Segment {', `            ${deep}\n            DEF ARM_LINK Segment {`]);
    const { run, file } = await loadIn(small, 'robot.wrl', text);
    expectLocatedError(run, file, { message: /deep|depth|nest/i });
  });
});

describe('big files', () => {
  test('a 50 MB .body (a valid model and 50 MB of comments) → loads within 90 s in 1 GB of heap', async () => {
    const text = padWithComments(baseBody, 50 * MB, '#');
    expect(text.length).toBeGreaterThanOrEqual(50 * MB);
    const { run } = await loadIn(large, 'robot.body', text);
    expectLoads(run);
    expect(loadedModel(run).links).toHaveLength(3);
  }, 180_000);

  test('the same 50 MB .body with maxFileBytes = 1 MB → located error naming the size limit, without reading it all', async () => {
    const text = padWithComments(baseBody, 50 * MB, '#');
    const { run, file } = await loadIn(small, 'robot.body', text, { limits: { maxFileBytes: MB } });
    expectLocatedError(run, file, { line: 1, message: new RegExp(`${MB}|1 MB|1 MiB|limit`) });
    expect(loadCpuMs(run)).toBeLessThan(2_000);
  }, 60_000);

  test('a 50 MB .wrl (a valid model and 50 MB of comments) → loads within 90 s in 1 GB of heap', async () => {
    const text = padWithComments(baseWrl, 50 * MB, '#');
    const dir = caseDir(scratch.root, { 'robot.wrl': text });
    const file = join(dir, 'robot.wrl');
    const run = await runCase(large, { file, caseDir: join(dir, '..') });
    expectLoads(run);
  }, 180_000);

  test('a 2 MB mesh resource with maxFileBytes = 1 MB → located error naming the mesh file and the limit', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"\n        node: GRIPPER', 'uri: "big.stl"']);
    const dir = caseDir(scratch.root, { 'robot.body': text });
    // A binary STL header + triangle count, then 2 MB of zero triangles.
    const count = Math.ceil((2 * MB) / 50);
    const stl = Buffer.alloc(84 + 50 * count);
    stl.writeUInt32LE(count, 80);
    writeFileSync(join(dir, 'big.stl'), stl);
    const file = join(dir, 'robot.body');
    const run = await runCase(small, { file, caseDir: join(dir, '..'), options: { limits: { maxFileBytes: MB } } });
    // A mesh referenced by URI is not necessarily read by the loader; if it is not, the model loads.
    if (run.outcome.kind === 'loaded') expectLoads(run);
    else expectLocatedError(run, file, { file: join(dir, 'big.stl'), message: /limit|bytes/i });
  });
});

describe('many links', () => {
  test('a 300-link chain, each link with an unknown element type → loads with 300 warnings, URDF valid', async () => {
    const links = ['links:', '  - { name: L0, joint_type: fixed, mass: 1 }'];
    for (let i = 1; i < 300; i++) {
      links.push(`  - { name: L${i}, parent: L${i - 1}, translation: [ 0, 0, 0.01 ], joint_type: revolute, joint_axis: Z, joint_id: ${i - 1}, mass: 0.1,`);
      links.push(`      elements: [ { type: WarpDrive${i} } ] }`);
    }
    const text = `format: ChoreonoidBody\nformat_version: 2.0\nname: Chain\n${links.join('\n')}\n`;
    const { run } = await loadIn(large, 'chain.body', text);
    expectLoads(run, { message: /WarpDrive299/ });
    expect(loadedModel(run).links).toHaveLength(300);
    expect(loadedModel(run).warnings.length).toBeGreaterThanOrEqual(299);
  }, 120_000);
});

describe('include fan-out', () => {
  test('more Resource files than maxIncludedFiles → located error naming the limit', async () => {
    const resources = Array.from({ length: 6 }, (_, i) => `      -\n        type: Resource\n        uri: "p${i}.wrl"\n`).join('');
    const text = edit(baseBody, ['      -\n        type: Resource\n        uri: "parts.wrl"\n        node: GRIPPER\n', resources]);
    const files: Record<string, string> = { 'robot.body': text };
    for (let i = 0; i < 6; i++) files[`p${i}.wrl`] = '#VRML V2.0 utf8\nShape { geometry Box { size 0.01 0.01 0.01 } }\n';
    const dir = caseDir(scratch.root, files);
    const file = join(dir, 'robot.body');
    const run = await runCase(small, { file, caseDir: join(dir, '..'), options: { limits: { maxIncludedFiles: 3 } } });
    expectLocatedError(run, file, { message: /3/ });
  });

  test('the same six Resources within the default limit → loads', async () => {
    const resources = Array.from({ length: 6 }, (_, i) => `      -\n        type: Resource\n        uri: "p${i}.wrl"\n`).join('');
    const text = edit(baseBody, ['      -\n        type: Resource\n        uri: "parts.wrl"\n        node: GRIPPER\n', resources]);
    const files: Record<string, string> = { 'robot.body': text };
    for (let i = 0; i < 6; i++) files[`p${i}.wrl`] = '#VRML V2.0 utf8\nShape { geometry Box { size 0.01 0.01 0.01 } }\n';
    const dir = caseDir(scratch.root, files);
    const run = await runCase(small, { file: join(dir, 'robot.body'), caseDir: join(dir, '..') });
    expectLoads(run);
    expect(loadedModel(run).links[2]?.visuals).toHaveLength(6);
  });

  test('a VRML file inlining the same parts file 20 times with maxIncludedFiles = 5 → located error naming the limit', async () => {
    const inlines = Array.from({ length: 20 }, () => 'Inline { url "parts.wrl" }').join('\n            ');
    const text = edit(baseWrl, ['            Inline { url "parts.wrl" }\n', `            ${inlines}\n`]);
    const dir = caseDir(scratch.root, { 'robot.wrl': text });
    const file = join(dir, 'robot.wrl');
    const run = await runCase(small, { file, caseDir: join(dir, '..'), options: { limits: { maxIncludedFiles: 5 } } });
    // Re-reading one file counts once or twenty times, by design choice; both must end in bounded time.
    if (run.outcome.kind === 'loaded') expectLoads(run);
    else expectLocatedError(run, file, { message: /5/ });
    expect(run.outcome.kind, describeOutcome(run.outcome)).not.toBe('timeout');
  });
});

describe('triangle budget', () => {
  test('an ElevationGrid of 1,100 × 1,100 (2.4 M triangles) with maxTriangles = 1,000,000 → located error naming the triangle limit', async () => {
    const n = 1100;
    const heights = Array.from({ length: n }, () => Array.from({ length: n }, () => '0').join(' ')).join('\n');
    const parts = `#VRML V2.0 utf8\nDEF GRIPPER Transform { children Shape { geometry ElevationGrid { xDimension ${n} zDimension ${n} xSpacing 0.001 zSpacing 0.001 height [ ${heights} ] } } }\n`;
    const dir = caseDir(scratch.root, { 'robot.body': baseBody, 'parts.wrl': parts }, false);
    const file = join(dir, 'robot.body');
    const run = await runCase(large, { file, caseDir: join(dir, '..'), options: { limits: { maxTriangles: 1_000_000 } } });
    expectLocatedError(run, file, { file: [file, join(dir, 'parts.wrl')], message: /triangle/i });
  }, 120_000);
});
