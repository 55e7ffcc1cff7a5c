// Hostile and broken .body files: each case is the base model test/hostile/models/arm.body
// with one defect, and its name says the outcome we decided on — "loads with warning" (something
// was repaired or ignored, and the URDF written from it is valid) or "located error" (ModelLoadError
// naming the file, the YAML path, line:column and what was expected). Every case also goes through
// the general contract (test/support/contract.ts): bounded time and memory, no other exception,
// nothing written outside the mesh dir, check_urdf accepts the URDF.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadedModel } from './support/contract.js';
import { baseBody, basePartsWrl, baseWrl, edit, expectLoads, expectLocatedError, lineOf, hostileCases } from './hostile/case-kit.js';

const cases = hostileCases('hostile-body');

const load = (text: string | Buffer, extra: Record<string, string | Buffer> = {}) => cases.load('robot.body', { 'robot.body': text, ...extra });

/** A one-triangle binary STL. */
function binaryStl(): Buffer {
  const b = Buffer.alloc(84 + 50);
  b.writeUInt32LE(1, 80);
  [0, 0, 1, 0, 0, 0, 0.01, 0, 0, 0, 0.01, 0].forEach((x, i) => b.writeFloatLE(x, 84 + 4 * i));
  return b;
}

describe('the base model', () => {
  test('arm.body loads without warnings, with the links, joints and device it declares', async () => {
    const { run } = await load(baseBody);
    expectLoads(run);
    const model = loadedModel(run);
    expect(model.warnings).toEqual([]);
    expect(model.links.map((l) => [l.name, l.parent, l.joint.type])).toEqual([
      ['BASE', null, 'fixed'],
      ['ARM', 'BASE', 'revolute'],
      ['HAND', 'ARM', 'prismatic'],
    ]);
    expect(model.devices.map((d) => [d.type, d.name, d.link])).toEqual([['ForceSensor', 'WRIST_FS', 'ARM']]);
    // The Resource (parts.wrl, node GRIPPER) brings three shapes: IndexedFaceSet, ElevationGrid, Extrusion.
    expect(model.links[2]?.visuals.map((s) => s.geometry.kind)).toEqual(['mesh', 'elevationGrid', 'extrusion']);
  });
});

describe('YAML syntax', () => {
  test('truncated in the middle of a flow sequence → located error at the end of the file', async () => {
    const text = baseBody.slice(0, baseBody.indexOf('0.001, 0, 0, 0, 0.001') + 8);
    const { run, file } = await load(text);
    const d = expectLocatedError(run, file, {});
    expect(d.line).toBeGreaterThanOrEqual(lineOf(text, 'inertia: [ 0.001, 0'));
  });

  test('truncated after a key with no value and no further links → loads (YAML is well-formed; the value is null) or located error naming the key', async () => {
    // `elements:` with nothing after it is valid YAML (null). Choreonoid treats a null elements as none.
    const text = baseBody.slice(0, baseBody.lastIndexOf('      -\n        type: Resource'));
    const { run, file } = await load(text);
    if (run.outcome.kind === 'loaded') expectLoads(run);
    else expectLocatedError(run, file, { path: /^links\[2\]\.elements/ });
  });

  test('bad indentation (a key indented deeper than its siblings) → located error on that line or the value it continues', async () => {
    const text = edit(baseBody, ['    joint_id: 0\n', '      joint_id: 0\n']);
    const { run, file } = await load(text);
    // YAML reads the deeper key as continuing the previous value, so a parser may point at either line.
    const d = expectLocatedError(run, file, {});
    expect([lineOf(text, '      joint_id: 0') - 1, lineOf(text, '      joint_id: 0')]).toContain(d.line);
  });

  test('a tab used for indentation → located error on that line', async () => {
    const text = edit(baseBody, ['    joint_id: 1\n', '\tjoint_id: 1\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, '\tjoint_id: 1') });
  });

  test('non-UTF-8 bytes (Latin-1 é in a name) → located error on that line', async () => {
    const text = edit(baseBody, ['name: HostileArm', 'name: Hostile\u0000Arm']);
    const bytes = Buffer.from(text, 'utf8');
    bytes[bytes.indexOf(0)] = 0xe9; // a lone Latin-1 byte: not valid UTF-8
    const { run, file } = await load(bytes);
    expectLocatedError(run, file, { line: lineOf(text, 'name: Hostile'), message: /UTF-8|encoding/i });
  });

  test('duplicate key in a mapping (mass twice) → loads with a warning at the second key; the later value wins, as in Choreonoid', async () => {
    const text = edit(baseBody, ['    mass: 1.0\n', '    mass: 1.0\n    mass: 3.0\n']);
    const { run } = await load(text);
    expectLoads(run, { message: /duplicate/i });
    const model = loadedModel(run);
    const w = model.warnings.find((x) => /duplicate/i.test(x.message));
    expect(w?.line).toBe(lineOf(text, 'mass: 3.0'));
    expect(model.links[1]?.mass).toBe(3);
  });

  test('a self-referencing alias (an anchor used inside its own node) → located error', async () => {
    const text = edit(baseBody, ['    center_of_mass: [ 0, 0, 0.2 ]', '    center_of_mass: &c [ 0, 0, *c ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, '&c [ 0, 0, *c ]') });
  });

  test('an alias to an undefined anchor → located error', async () => {
    const text = edit(baseBody, ['    center_of_mass: [ 0, 0, 0.2 ]', '    center_of_mass: *nowhere']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, '*nowhere') });
  });

  test('an empty file → located error (line 1) saying a body mapping was expected', async () => {
    const { run, file } = await load('');
    expectLocatedError(run, file, { line: 1 });
  });

  test('a file that is a YAML scalar, not a mapping → located error', async () => {
    const { run, file } = await load('just a string\n');
    expectLocatedError(run, file, { line: 1 });
  });

  test('a binary file (random bytes) → located error', async () => {
    const bytes = Buffer.alloc(4096);
    let s = 12345;
    for (let i = 0; i < bytes.length; i++) bytes[i] = (s = (s * 1103515245 + 12345) >>> 0) >>> 24;
    const { run, file } = await load(bytes);
    expectLocatedError(run, file, {});
  });
});

describe('structure', () => {
  test('missing parent on a non-root link → located error at that link (two roots)', async () => {
    const text = edit(baseBody, ['    parent: ARM\n', '']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[2\]/, message: /parent|root/i });
  });

  test('unknown parent → located error at links[1].parent naming it', async () => {
    const text = edit(baseBody, ['    parent: BASE\n', '    parent: NOPE\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].parent', line: lineOf(text, 'parent: NOPE'), message: /NOPE/ });
  });

  test('cyclic parents (ARM ↔ HAND) → located error naming the cycle', async () => {
    const text = edit(baseBody, ['    parent: BASE\n', '    parent: HAND\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[[12]\]\.parent$/, message: /cycl|loop|circular|reach/i });
  });

  test('a link that is its own parent → located error', async () => {
    const text = edit(baseBody, ['    parent: ARM\n', '    parent: HAND\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[2].parent', line: lineOf(text, 'parent: HAND') });
  });

  test('two roots (root_link absent, two links without parent) → located error', async () => {
    const text = edit(baseBody, ['root_link: BASE\n', ''], ['    parent: BASE\n', '']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]/, message: /root|parent/i });
  });

  test('root_link naming a link that does not exist → located error at root_link', async () => {
    const text = edit(baseBody, ['root_link: BASE', 'root_link: NOWHERE']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'root_link', line: lineOf(text, 'root_link: NOWHERE'), message: /NOWHERE/ });
  });

  test('duplicate link names → located error at the second name', async () => {
    const text = edit(baseBody, ['    name: HAND\n', '    name: ARM\n'], ['    parent: ARM\n', '    parent: BASE\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[2].name', message: /ARM/ });
  });

  test('duplicate joint names (joint_name) → located error at the second joint_name', async () => {
    const text = edit(
      baseBody,
      ['    joint_id: 0\n', '    joint_id: 0\n    joint_name: J\n'],
      ['    joint_id: 1\n', '    joint_id: 1\n    joint_name: J\n'],
    );
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[2].joint_name', message: /J/ });
  });

  test('duplicate device names → loads (frame names stay unique; check_urdf passes)', async () => {
    const text = edit(baseBody, [
      '        translation: [ 0, 0, 0.4 ]\n  -\n',
      '        translation: [ 0, 0, 0.4 ]\n      -\n        type: ForceSensor\n        name: WRIST_FS\n        id: 1\n  -\n',
    ]);
    const { run } = await load(text);
    expectLoads(run);
    expect(loadedModel(run).devices.map((d) => d.name)).toEqual(['WRIST_FS', 'WRIST_FS']);
  });

  test('a device entry at the links level (the mis-indented SimpleTank listing) → located error at that links entry', async () => {
    const text = edit(baseBody, [
      '  -\n    name: HAND\n',
      '  -\n    type: ForceSensor\n    name: STRAY_FS\n    translation: [ 0, 0, 0.1 ]\n  -\n    name: HAND\n',
    ]);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[2\]/, line: lineOf(text, 'type: ForceSensor\n    name: STRAY_FS') });
  });

  test('a link that is not a mapping (a number in links) → located error at links[1]', async () => {
    const text = edit(baseBody, ['  -\n    name: ARM\n', '  - 42\n  -\n    name: ARM\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]/, line: lineOf(text, '  - 42') });
  });

  test('links missing → located error saying links were expected', async () => {
    const text = baseBody.slice(0, baseBody.indexOf('links:'));
    const { run, file } = await load(text);
    expectLocatedError(run, file, { message: /links/ });
  });

  test('wrong vector length (translation with 2 numbers) → located error at links[1].translation', async () => {
    const text = edit(baseBody, ['    translation: [ 0, 0, 0.1 ]', '    translation: [ 0, 0.1 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].translation', line: lineOf(text, '[ 0, 0.1 ]'), message: /3/ });
  });

  test('wrong inertia length (8 numbers) → located error at links[0].inertia', async () => {
    const text = edit(baseBody, ['[ 0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01 ]', '[ 0.01, 0, 0, 0, 0.01, 0, 0, 0 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[0].inertia', message: /9|6/ });
  });

  test('a string where a number belongs (mass: heavy) → located error at links[1].mass', async () => {
    const text = edit(baseBody, ['    mass: 1.0\n', '    mass: heavy\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].mass', line: lineOf(text, 'mass: heavy'), message: /expected|number/i });
  });

  test('a string inside a vector (center_of_mass: [0, x, 0]) → located error at that element or vector', async () => {
    const text = edit(baseBody, ['    center_of_mass: [ 0, 0, 0.2 ]', '    center_of_mass: [ 0, x, 0.2 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]\.center_of_mass/, line: lineOf(text, '[ 0, x, 0.2 ]') });
  });

  test('a mapping where a number belongs (mass: {a: 1}) → located error at links[1].mass', async () => {
    const text = edit(baseBody, ['    mass: 1.0\n', '    mass: { a: 1 }\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].mass', line: lineOf(text, 'mass: { a: 1 }') });
  });

  test.each([
    ['.nan', 'NaN'],
    ['.inf', 'Infinity'],
    ['-.inf', '-Infinity'],
    ['1e400', '1e400 (overflows to Infinity)'],
  ])('non-finite mass %s (%s) → located error at links[1].mass', async (value) => {
    const text = edit(baseBody, ['    mass: 1.0\n', `    mass: ${value}\n`]);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].mass', line: lineOf(text, `mass: ${value}`), message: /expected|finite|number/i });
  });

  test.each([['.nan'], ['1e400'], ['-.inf']])('non-finite translation element %s → located error at links[1].translation', async (value) => {
    const text = edit(baseBody, ['    translation: [ 0, 0, 0.1 ]', `    translation: [ 0, ${value}, 0.1 ]`]);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]\.translation/, line: lineOf(text, `[ 0, ${value}, 0.1 ]`) });
  });

  test('NaN in a rotation angle → located error at links[1].rotation', async () => {
    const text = edit(baseBody, ['    translation: [ 0, 0, 0.1 ]', '    translation: [ 0, 0, 0.1 ]\n    rotation: [ 0, 0, 1, .nan ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]\.rotation/, line: lineOf(text, '[ 0, 0, 1, .nan ]') });
  });

  test('1e400 in joint_range → loads: an overflowing limit is unlimited (Choreonoid reads it as ±DBL_MAX·∞)', async () => {
    const text = edit(baseBody, ['    joint_range: [ -90, 90 ]', '    joint_range: [ -1e400, 1e400 ]']);
    const { run } = await load(text);
    expectLoads(run);
    const arm = loadedModel(run).links[1];
    expect([arm?.joint.lower, arm?.joint.upper]).toEqual([-Infinity, Infinity]);
  });

  test('negative mass → located error at links[1].mass', async () => {
    const text = edit(baseBody, ['    mass: 1.0\n', '    mass: -1.0\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].mass', line: lineOf(text, 'mass: -1.0'), message: /negative|≥ ?0|>= ?0|positive|non-negative/i });
  });

  test('non-symmetric inertia → loads with a warning at links[1].inertia (symmetrised)', async () => {
    const text = edit(baseBody, ['[ 0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.001 ]', '[ 0.01, 0.002, 0, 0, 0.01, 0, 0, 0, 0.001 ]']);
    const { run } = await load(text);
    expectLoads(run, { message: /symmetr/i, path: 'links[1].inertia' });
    const i = loadedModel(run).links[1]?.inertia;
    expect(i?.[0]?.[1]).toBe(i?.[1]?.[0]);
  });

  test('negative diagonal inertia → located error at links[1].inertia', async () => {
    const text = edit(baseBody, ['[ 0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.001 ]', '[ -0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.001 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].inertia', line: lineOf(text, '[ -0.01, 0,') });
  });

  test('zero joint axis on a revolute joint → located error at links[1].joint_axis', async () => {
    const text = edit(baseBody, ['    joint_axis: [ 0, 0, 1 ]', '    joint_axis: [ 0, 0, 0 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].joint_axis', line: lineOf(text, 'joint_axis: [ 0, 0, 0 ]'), message: /zero|length|unit|non-zero/i });
  });

  test('an unknown axis name (joint_axis: W) → located error at links[1].joint_axis', async () => {
    const text = edit(baseBody, ['    joint_axis: [ 0, 0, 1 ]', '    joint_axis: W']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].joint_axis', line: lineOf(text, 'joint_axis: W') });
  });

  test('joint_range with min > max → located error at links[1].joint_range', async () => {
    const text = edit(baseBody, ['    joint_range: [ -90, 90 ]', '    joint_range: [ 90, -90 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].joint_range', line: lineOf(text, '[ 90, -90 ]'), message: /min|max|lower|upper|greater|less/i });
  });

  test('an unknown joint_type → located error at links[1].joint_type', async () => {
    const text = edit(baseBody, ['    joint_type: revolute', '    joint_type: wobbly']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: 'links[1].joint_type', line: lineOf(text, 'joint_type: wobbly'), message: /wobbly/ });
  });

  test('an unknown element type inside elements → loads with a warning naming it', async () => {
    const text = edit(baseBody, ['        type: ForceSensor\n', '        type: WarpDriveDevice\n']);
    const { run } = await load(text);
    expectLoads(run, { message: /WarpDriveDevice/, path: /^links\[1\]\.elements\[1\]/ });
    expect(loadedModel(run).devices).toEqual([]);
  });

  test('negative box size → located error at the geometry size', async () => {
    const text = edit(baseBody, ['size: [ 0.2, 0.2, 0.1 ]', 'size: [ 0.2, -0.2, 0.1 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[0\]\.elements\[0\]\.geometry\.size/, line: lineOf(text, '[ 0.2, -0.2, 0.1 ]') });
  });

  test('a cylinder with a string radius → located error at the geometry radius', async () => {
    const text = edit(baseBody, ['radius: 0.03, height: 0.4', 'radius: fat, height: 0.4']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]\.elements\[0\]\.geometry\.radius/, line: lineOf(text, 'radius: fat') });
  });

  test('a geometry-less Shape → loads with a warning (nothing to draw), or located error at the Shape', async () => {
    const text = edit(baseBody, ['        geometry: { type: Cylinder, radius: 0.03, height: 0.4 }\n', '']);
    const { run, file } = await load(text);
    if (run.outcome.kind === 'loaded') expectLoads(run, { message: /geometry/i });
    else expectLocatedError(run, file, { path: /^links\[1\]\.elements\[0\]/ });
  });
});

describe('geometry given in the .body file', () => {
  const withGeometry = (geometry: string): string =>
    edit(baseBody, ['        geometry: { type: Box, size: [ 0.2, 0.2, 0.1 ] }\n', `        geometry: ${geometry}\n`]);

  test('IndexedFaceSet with a face index out of range → located error at links[0].elements[0].geometry.faces', async () => {
    const text = withGeometry('{ type: IndexedFaceSet, vertices: [ 0, 0, 0, 1, 0, 0, 0, 1, 0 ], faces: [ 0, 1, 7, -1 ] }');
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[0\]\.elements\[0\]\.geometry\.faces/, line: lineOf(text, 'faces: [ 0, 1, 7, -1 ]'), message: /7|range|index/i });
  });



  test('an alias to its own ancestor in elements (a cyclic structure) → located error, no hang or stack overflow', async () => {
    const text = edit(baseBody, [
      '    elements:\n      -\n        type: Shape\n        geometry: { type: Box, size: [ 0.2, 0.2, 0.1 ] }\n',
      '    elements: &loop\n      -\n        type: Transform\n        elements: *loop\n',
    ]);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'elements: *loop') });
  });
});

describe('files referenced by Resource', () => {
  test('Resource uri → missing file → located error at the uri naming the file', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "no-such-parts.wrl"']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[2\]\.elements\[0\]/, line: lineOf(text, 'no-such-parts.wrl'), message: /no-such-parts\.wrl/ });
  });

  test('Resource uri → a directory → located error at the uri', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "adir.wrl"']);
    const dir = cases.write({ 'robot.body': text });
    mkdirSync(join(dir, 'adir.wrl'));
    const { run, file } = await cases.run(dir, 'robot.body');
    expectLocatedError(run, file, { path: /^links\[2\]\.elements\[0\]/, line: lineOf(text, 'adir.wrl') });
  });

  test('Resource uri → the body file itself (a cycle) → located error, no hang', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"\n        node: GRIPPER', 'uri: "robot.body"']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'uri: "robot.body"') });
  });

  test('YAML fragment resources that include each other (a.yaml → b.yaml → a.yaml) → located error, no hang', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"\n        node: GRIPPER', 'uri: "a.yaml"\n        node: PART']);
    const fragment = (other: string): string =>
      `PART:\n  type: Transform\n  elements:\n    -\n      type: Resource\n      uri: "${other}"\n      node: PART\n`;
    const { run } = await load(text, { 'a.yaml': fragment('b.yaml'), 'b.yaml': fragment('a.yaml') });
    expect(run.violations).toEqual([]);
    expect(run.outcome.kind).toBe('load-error');
  });

  test('Resource uri → a FIFO (a special file that would block a plain read) → located error, no hang', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "pipe.wrl"']);
    const dir = cases.write({ 'robot.body': text });
    execFileSync('mkfifo', [join(dir, 'pipe.wrl')]);
    const { run, file } = await cases.run(dir, 'robot.body', 10_000);
    expectLocatedError(run, file, { line: lineOf(text, 'pipe.wrl') });
  });

  test('Resource uri → a dangling symlink → located error at the uri', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "dangling.wrl"']);
    const dir = cases.write({ 'robot.body': text });
    symlinkSync(join(dir, 'gone.wrl'), join(dir, 'dangling.wrl'));
    const { run, file } = await cases.run(dir, 'robot.body');
    expectLocatedError(run, file, { line: lineOf(text, 'dangling.wrl') });
  });

  test('Resource uri → an unreadable file (mode 000; its content is not VRML either, so root gets an error too) → located error', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "secret.wrl"']);
    const dir = cases.write({ 'robot.body': text, 'secret.wrl': 'not vrml at all {{{' });
    chmodSync(join(dir, 'secret.wrl'), 0);
    const { run, file } = await cases.run(dir, 'robot.body');
    expect(run.violations).toEqual([]);
    expect(run.outcome.kind).toBe('load-error');
  });

  test('Resource uri → outside the model directory through .. (a missing file there) → located error, nothing read or written outside', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "../../../../../../../../nonexistent/parts.wrl"']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'nonexistent/parts.wrl') });
  });

  test('Resource uri → an existing .stl outside the model directory through .. → loads; referenced, never written to', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"\n        node: GRIPPER', 'uri: "../outside/part.stl"']);
    const dir = cases.write({ 'robot.body': text, '../outside/part.stl': binaryStl() });
    const { run, file } = await cases.run(dir, 'robot.body');
    expectLoads(run);
    const hand = loadedModel(run).links[2];
    expect(hand?.visuals.map((v) => v.geometry.kind)).toEqual(['meshFile']);
  });

  test('Resource node: naming a node the file does not define → located error naming it (at the reference or in the resource file)', async () => {
    const text = edit(baseBody, ['node: GRIPPER', 'node: NO_SUCH_NODE']);
    const { run, file, dir } = await load(text);
    expectLocatedError(run, file, { file: [file, join(dir, 'parts.wrl')], message: /NO_SUCH_NODE/ });
  });

  test('Resource uri with an unsupported scheme (http://) → located error at the uri', async () => {
    const text = edit(baseBody, ['uri: "parts.wrl"', 'uri: "http://example.com/parts.wrl"']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { line: lineOf(text, 'http://example.com/parts.wrl') });
  });

});

describe('modelFile wrappers', () => {
  const wrapper = (target: string): string => `modelFile: ${JSON.stringify(target)}\nstandardPose: [ 0, 0 ]\n`;
  const loadWrapper = (target: string, extra: Record<string, string | Buffer> = {}) =>
    cases.load('robot.yaml', { 'robot.yaml': wrapper(target), ...extra });

  test('modelFile → a good .wrl → loads', async () => {
    const { run } = await loadWrapper('arm.wrl', { 'arm.wrl': baseWrl });
    expectLoads(run);
    expect(loadedModel(run).links.map((l) => l.name)).toEqual(['BASE', 'ARM']);
  });

  test('modelFile → a missing file → located error at modelFile naming it', async () => {
    const { run, file } = await loadWrapper('gone.wrl');
    expectLocatedError(run, file, { line: 1, message: /gone\.wrl/ });
  });

  test('modelFile → a directory → located error at modelFile', async () => {
    const dir = cases.write({ 'robot.yaml': wrapper('sub.wrl') });
    mkdirSync(join(dir, 'sub.wrl'));
    const { run, file } = await cases.run(dir, 'robot.yaml');
    expectLocatedError(run, file, { line: 1 });
  });

  test('modelFile → the wrapper itself (a cycle) → located error, no hang', async () => {
    const { run, file } = await loadWrapper('robot.yaml');
    expectLocatedError(run, file, { line: 1 });
  });

  test('modelFile → a broken .wrl → located error in the .wrl', async () => {
    const { run, dir } = await loadWrapper('arm.wrl', { 'arm.wrl': baseWrl.slice(0, baseWrl.length / 2) });
    expectLocatedError(run, join(dir, 'robot.yaml'), { file: [join(dir, 'arm.wrl'), join(dir, 'robot.yaml')] });
  });
});

describe('names that are hostile to XML, paths and TF', () => {
  const hostileNames: [string, string][] = [
    ['<', 'A<B'],
    ['&', 'A&B'],
    ['double quote', 'A"B'],
    ["single quote", "A'B"],
    ['/', 'A/B'],
    ['..', '..'],
    ['../ path', '../../escape'],
    ['spaces', 'A B C'],
    ['non-ASCII', 'アーム'],
  ];

  test.each(hostileNames)('link, joint, device and body named with %s (%s) → loads; URDF is valid XML, files stay in the mesh dir', async (_label, name) => {
    const yamlName = JSON.stringify(name);
    const text = edit(
      baseBody,
      ['name: HostileArm', `name: ${yamlName}`],
      ['    name: ARM\n', `    name: ${yamlName}\n`],
      ['    parent: ARM\n', `    parent: ${yamlName}\n`],
      ['    joint_id: 1\n', `    joint_id: 1\n    joint_name: ${JSON.stringify(`${name}_j`)}\n`],
      ['        name: WRIST_FS\n', `        name: ${JSON.stringify(`${name}_fs`)}\n`],
    );
    const { run } = await load(text);
    expectLoads(run);
    const model = loadedModel(run);
    expect(model.links[1]?.name).toBe(name);
    expect(model.devices[0]?.name).toBe(`${name}_fs`);
  });

  test.each([
    ['spaces and &', 'my parts & more.wrl'],
    ['quotes and <>', `we"ird<'>.wrl`],
  ])('Resource file name with %s → loads; URDF valid, meshes inside the mesh dir', async (_label, fileName) => {
    const text = edit(baseBody, ['uri: "parts.wrl"', `uri: ${JSON.stringify(fileName)}`]);
    const { run } = await load(text, { [fileName]: basePartsWrl });
    expectLoads(run);
  });
});

describe('fixed findings: names, sizes and mass values the loader must refuse or repair', () => {

  test('a link with an empty name (`name:` and nothing after it; found by the fuzzer) → located error at links[2].name', async () => {
    const text = edit(baseBody, ['    name: HAND\n', '    name:\n']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[2\]/, line: lineOf(text, '    name:\n    parent: ARM') });
  });

  test('joint_name: "" → loads; the joint takes the link name, as Choreonoid\'s Link::jointName() does for an empty name', async () => {
    const text = edit(baseBody, ['    joint_id: 0\n', '    joint_id: 0\n    joint_name: ""\n']);
    const { run } = await load(text);
    expectLoads(run);
    expect(loadedModel(run).links[1]?.joint.name).toBe('ARM');
  });

  test('a Camera with width -5 → located error at its width (an image cannot have a negative size)', async () => {
    const text = edit(baseBody, [
      '        translation: [ 0, 0, 0.4 ]\n  -\n',
      '        translation: [ 0, 0, 0.4 ]\n      -\n        type: Camera\n        name: CAM\n        format: COLOR\n        width: -5\n        height: 480\n  -\n',
    ]);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]\.elements\[2\]\.width/, line: lineOf(text, 'width: -5') });
  });

  test('finite but huge mass properties (mass 1e308, center_of_mass z 1e300) → located error, not NaN in the combined inertia', async () => {
    const text = edit(baseBody, ['    mass: 1.0\n', '    mass: 1e308\n'], ['    center_of_mass: [ 0, 0, 0.2 ]', '    center_of_mass: [ 0, 0, 1e300 ]']);
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[1\]/ });
  });
});

describe('fixed findings: geometry given in the .body file', () => {
  const withGeometry = (geometry: string): string =>
    edit(baseBody, ['        geometry: { type: Box, size: [ 0.2, 0.2, 0.1 ] }\n', `        geometry: ${geometry}\n`]);

  test('IndexedFaceSet whose vertices are not whole triples → loads with a warning at geometry.vertices (Choreonoid ignores the ragged tail)', async () => {
    const text = withGeometry('{ type: IndexedFaceSet, vertices: [ 0, 0, 0, 1, 0, 0, 0, 1, 0, 5 ], faces: [ 0, 1, 2, -1 ] }');
    const { run } = await load(text);
    expectLoads(run, { message: /ignored/i, path: /^links\[0\]\.elements\[0\]\.geometry\.vertices/ });
  });

  test('ElevationGrid with fewer heights than x_dimension × z_dimension → located error at geometry.height', async () => {
    const text = withGeometry('{ type: ElevationGrid, x_dimension: 3, z_dimension: 2, x_spacing: 0.1, z_spacing: 0.1, height: [ 0, 0, 0 ] }');
    const { run, file } = await load(text);
    expectLocatedError(run, file, { path: /^links\[0\]\.elements\[0\]\.geometry/, line: lineOf(text, 'type: ElevationGrid'), message: /height|6|3/ });
  });

  test('Extrusion with one spine point → loads with a warning at the geometry (nothing can be swept)', async () => {
    const text = withGeometry('{ type: Extrusion, cross_section: [ 0.1, 0, 0, 0.1, -0.1, 0, 0.1, 0 ], spine: [ 0, 0, 0 ] }');
    const { run } = await load(text);
    expectLoads(run, { message: /spine|Extrusion/i, path: /^links\[0\]\.elements\[0\]\.geometry/ });
  });
});
