// Reading a Choreonoid project (.cnoid) with Choreonoid's meaning: one tiny project per feature, the models it
// places from test/models/project/ (arm.body, box.body, floor.body, broken.body, each saying what it is for).
// Expected values are worked out by hand from Choreonoid's sources (docs/project.md); positions of errors
// are found in the project text written here, not taken from the reader.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { ModelLoadError } from '../src/model/errors.js';
import type { Mat3, Pose, Vec3 } from '../src/model/types.js';
import { expandPath, jointSlots, readProject, type FailedProjectBody, type LoadedProjectBody, type Project, type ProjectOptions } from '../src/project/index.js';
import { loadRobotModel } from '../src/load.js';
import { simulatorsStarted } from '../src/project/simulator-item.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const root = scratchDir('project-');
const models = join(projectRoot, 'test/models/project');
let counter = 0;

/** A folder with the fixture models in models/ and share/model/, for one case. */
function caseDir(): string {
  const dir = join(root, `case${++counter}`);
  for (const sub of ['models', 'share/model', 'home']) mkdirSync(join(dir, sub), { recursive: true });
  for (const f of ['arm.body', 'box.body', 'floor.body', 'broken.body']) {
    copyFileSync(join(models, f), join(dir, 'models', f));
    copyFileSync(join(models, f), join(dir, 'share/model', f));
  }
  return dir;
}

const indent = (text: string, n: number): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : ' '.repeat(n) + l))
    .join('\n');

/** An item of the tree (YAML text at column 0, starting with "-"). */
function item(plugin: string, cls: string, name: string, data: string = '', children: string[] = []): string {
  let text = `-\n  name: "${name}"\n  plugin: ${plugin}\n  class: ${cls}\n`;
  if (data !== '') text += `  data:\n${indent(data.trim(), 4)}\n`;
  if (children.length > 0) text += `  children:\n${children.map((c) => indent(c.trim(), 4)).join('\n')}\n`;
  return text;
}
const body = (name: string, data: string, children: string[] = []): string => item('Body', 'BodyItem', name, data, children);
const world = (name: string, children: string[]): string => item('Body', 'WorldItem', name, '', children);

/** A project file whose RootItem holds `children`. */
const projectText = (...children: string[]): string =>
  `items:\n  id: 0\n  name: "RootItem"\n  plugin: Base\n  class: RootItem\n  children:\n${children.map((c) => indent(c.trim(), 4)).join('\n')}\n`;

interface Case {
  dir: string;
  file: string;
  text: string;
  project: Project;
}

function read(text: string, options: ProjectOptions = {}, dir = caseDir(), name = 'project.cnoid'): Case {
  const file = join(dir, name);
  writeFileSync(file, text);
  const project = readProject(file, { share: join(dir, 'share'), env: { HOME: join(dir, 'home') }, ...options });
  return { dir, file, text, project };
}

function loaded(c: Case, itemName: string): LoadedProjectBody {
  const b = c.project.bodies.find((x) => x.itemName === itemName);
  if (!b) throw new Error(`no body item ${itemName}`);
  if (b.kind !== 'loaded') throw new Error(`body item ${itemName} failed: ${b.errors.map((e) => e.message).join('; ')}`);
  return b;
}

function failed(c: Case, itemName: string): FailedProjectBody {
  const b = c.project.bodies.find((x) => x.itemName === itemName);
  if (!b || b.kind !== 'failed') throw new Error(`body item ${itemName} did not fail`);
  return b;
}

/** 1-based line and column of the first occurrence of `needle` in `text`. */
function position(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`no ${JSON.stringify(needle)}`);
  const before = text.slice(0, at);
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

const I: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const RZ90: Mat3 = [
  [0, -1, 0],
  [1, 0, 0],
  [0, 0, 1],
];
const RX90: Mat3 = [
  [1, 0, 0],
  [0, 0, -1],
  [0, 1, 0],
];

function expectPose(actual: Pose, translation: Vec3, rotation: Mat3): void {
  actual.translation.forEach((x, i) => expect(x).toBeCloseTo(translation[i]!, 12));
  actual.rotation.forEach((row, i) => row.forEach((x, j) => expect(x).toBeCloseTo(rotation[i]![j]!, 12)));
}

describe('the root pose: which key generation wins, as BodyItem::restore decides', () => {
  test.each<[string, string, Vec3, Mat3]>([
    ['no pose key: the model places its root (box.body: 0.5 m up)', '', [0, 0, 0.5], I],
    ['root_translation', 'root_translation: [ 1, 2, 3 ]', [1, 2, 3], I],
    ['the older rootPosition', 'rootPosition: [ 4, 5, 6 ]', [4, 5, 6], I],
    ['root_translation wins over rootPosition', 'rootPosition: [ 4, 5, 6 ]\nroot_translation: [ 1, 2, 3 ]', [1, 2, 3], I],
    ['a root_translation that is no list is skipped for rootPosition', 'root_translation: 7\nrootPosition: [ 4, 5, 6 ]', [4, 5, 6], I],
    ['root_rotation: axis-angle in degrees, axis normalised', 'root_rotation: [ 0, 0, 2, 90 ]', [0, 0, 0.5], RZ90],
    ['root_rotation: several axis-angles applied in order', 'root_rotation: [ [ 0, 0, 1, 90 ], [ 1, 0, 0, 90 ] ]', [0, 0, 0.5], [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ]],
    ['the older rootAttitude: 9 numbers row by row', 'rootAttitude: [ 0, -1, 0, 1, 0, 0, 0, 0, 1 ]', [0, 0, 0.5], RZ90],
    ['rootAttitude is used as given, rotation or not', 'rootAttitude: [ 2, 0, 0, 0, 2, 0, 0, 0, 2 ]', [0, 0, 0.5], [
      [2, 0, 0],
      [0, 2, 0],
      [0, 0, 2],
    ]],
    ['root_rotation wins over rootAttitude', 'root_rotation: [ 1, 0, 0, 90 ]\nrootAttitude: [ 0, -1, 0, 1, 0, 0, 0, 0, 1 ]', [0, 0, 0.5], RX90],
    ['an empty root_rotation reads as absent: rootAttitude', 'root_rotation: [ ]\nrootAttitude: [ 0, -1, 0, 1, 0, 0, 0, 0, 1 ]', [0, 0, 0.5], RZ90],
  ])('%s', (_, data, translation, rotation) => {
    const c = read(projectText(world('World', [body('Box', `file: "\${PROJECT_DIR}/models/box.body"\n${data}`)])));
    expectPose(loaded(c, 'Box').rootPose, translation, rotation);
  });

  test('a key of the wrong type Choreonoid skips is a located warning naming what it does instead', () => {
    const c = read(projectText(body('Box', 'file: "models/box.body"\nroot_translation: 7\nrootPosition: [ 4, 5, 6 ]')));
    const [w, ...more] = loaded(c, 'Box').warnings;
    expect(more).toEqual([]);
    expect(w).toMatchObject({ severity: 'warning', file: c.file, ...position(c.text, '7\n'), path: 'items.children[0].data.root_translation' });
    expect(w!.message).toMatch(/"root_translation" should be a list, got "7": Choreonoid ignores it/);
  });
});

describe('the initial root pose: where a simulation from the initial state starts the body', () => {
  test.each<[string, string, Vec3, Mat3]>([
    ['without initial_root_* the body starts at the origin, wherever root_translation puts it now', 'root_translation: [ 1, 2, 3 ]\nroot_rotation: [ 0, 0, 1, 90 ]', [0, 0, 0], I],
    ['initial_root_translation and initial_root_rotation', 'initial_root_translation: [ 1, 2, 3 ]\ninitial_root_rotation: [ 0, 0, 1, 90 ]', [1, 2, 3], RZ90],
    ['the older initialRootPosition and initialRootAttitude', 'initialRootPosition: [ 1, 2, 3 ]\ninitialRootAttitude: [ 0, -1, 0, 1, 0, 0, 0, 0, 1 ]', [1, 2, 3], RZ90],
    ['initial_root_translation wins over initialRootPosition', 'initialRootPosition: [ 4, 5, 6 ]\ninitial_root_translation: [ 1, 2, 3 ]', [1, 2, 3], I],
    ['initial_root_rotation wins over initialRootAttitude', 'initial_root_rotation: [ 1, 0, 0, 90 ]\ninitialRootAttitude: [ 0, -1, 0, 1, 0, 0, 0, 0, 1 ]', [0, 0, 0], RX90],
    // The initial state keeps a quaternion (Eigen's Quaternion(R), then toRotationMatrix): 2·I comes back as I.
    ['an initialRootAttitude that is no rotation comes back through a quaternion: 2·I', 'initialRootAttitude: [ 2, 0, 0, 0, 2, 0, 0, 0, 2 ]', [0, 0, 0], I],
    // [[0,-2,0],[2,0,0],[0,0,2]]: trace 2, w = √3/2, z = 2/√3, so R00 = 1 − 2z² = −5/3, R10 = 2zw = 2.
    ['... and 2·Rz(90°) comes back as [[-5/3, -2, 0], [2, -5/3, 0], [0, 0, 1]]', 'initialRootAttitude: [ 0, -2, 0, 2, 0, 0, 0, 0, 2 ]', [0, 0, 0], [
      [-5 / 3, -2, 0],
      [2, -5 / 3, 0],
      [0, 0, 1],
    ]],
  ])('%s', (_, data, translation, rotation) => {
    const c = read(projectText(world('World', [body('Box', `file: "models/box.body"\n${data}`)])));
    expectPose(loaded(c, 'Box').initialRootPose, translation, rotation);
  });
});

describe('joint positions by joint name, in Choreonoid\'s joint order', () => {
  test('Body::joint(i): joint ids first (a gap is a placeholder), then joints without an id', () => {
    const arm = loadRobotModel(join(models, 'arm.body'));
    expect(jointSlots(arm)).toEqual({ names: ['SLIDE', 'SHOULDER', null, 'TOOL', 'WRIST'], identified: 4 });
  });

  // arm.body's initial positions: SHOULDER 0.5, SLIDE 0.1, WRIST 0, TOOL 0.
  const deg = Math.PI / 180;
  test.each<[string, string, Record<string, number>, Record<string, number>]>([
    ['no key: the model\'s initial positions, and a simulation starts them there', '', { SLIDE: 0.1, SHOULDER: 0.5, TOOL: 0, WRIST: 0 }, { SLIDE: 0.1, SHOULDER: 0.5, TOOL: 0, WRIST: 0 }],
    [
      'joint_displacements in degrees for every joint, the prismatic one too; the placeholder slot goes nowhere',
      'joint_displacements: [ 5.729577951308232, 90, 33, 0, 45 ]',
      { SLIDE: 5.729577951308232 * deg, SHOULDER: 90 * deg, TOOL: 0, WRIST: 45 * deg },
      { SLIDE: 5.729577951308232 * deg, SHOULDER: 90 * deg, TOOL: 0, WRIST: 45 * deg },
    ],
    [
      'initial_joint_displacements where given, the current value after its end',
      'joint_displacements: [ 0, 90, 0, 0, 45 ]\ninitial_joint_displacements: [ 0, 10 ]',
      { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 45 * deg },
      { SLIDE: 0, SHOULDER: 10 * deg, TOOL: 0, WRIST: 45 * deg },
    ],
    ['a shorter list leaves the other joints at their initial positions', 'joint_displacements: [ 0, 90 ]', { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 0 }, { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 0 }],
    ['the older jointPositions in radians; without initialJointPositions a simulation starts them where they are', 'jointPositions: [ 0.2, 1, 0, 0, 2 ]', { SLIDE: 0.2, SHOULDER: 1, TOOL: 0, WRIST: 2 }, { SLIDE: 0.2, SHOULDER: 1, TOOL: 0, WRIST: 2 }],
    ['initialJointPositions: the rest start where they are', 'jointPositions: [ 0.2, 1, 0, 0, 2 ]\ninitialJointPositions: [ 0.3 ]', { SLIDE: 0.2, SHOULDER: 1, TOOL: 0, WRIST: 2 }, { SLIDE: 0.3, SHOULDER: 1, TOOL: 0, WRIST: 2 }],
    ['jointDisplacements (camelCase) is the new format too', 'jointDisplacements: [ 0, 90 ]', { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 0 }, { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 0 }],
    ['joint_displacements wins: jointPositions is not read', 'jointPositions: [ 0.2, 1, 0, 0, 2 ]\njoint_displacements: [ 0, 90 ]', { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 0 }, { SLIDE: 0, SHOULDER: 90 * deg, TOOL: 0, WRIST: 0 }],
  ])('%s', (_, data, current, initial) => {
    const c = read(projectText(body('Arm', `file: "models/arm.body"\n${data}`)));
    const arm = loaded(c, 'Arm');
    expect(Object.keys(arm.jointPositions)).toEqual(['SLIDE', 'SHOULDER', 'TOOL', 'WRIST']);
    for (const [name, q] of Object.entries(current)) expect(arm.jointPositions[name]).toBeCloseTo(q, 14);
    for (const [name, q] of Object.entries(initial)) expect(arm.initialJointPositions[name]).toBeCloseTo(q, 14);
  });

  test.each([
    ['numJoints values (ids only): no warning', '[ 0.2, 1, 0, 0 ]', false],
    ['numAllJoints values: no warning', '[ 0.2, 1, 0, 0, 2 ]', false],
    ['another count: Choreonoid warns "Mismatched size" and reads what there is', '[ 0.2, 1 ]', true],
  ])('jointPositions with %s', (_, list, warns) => {
    const c = read(projectText(body('Arm', `file: "models/arm.body"\njointPositions: ${list}`)));
    const warnings = loaded(c, 'Arm').warnings;
    expect(warnings.some((w) => /Mismatched size/.test(w.message))).toBe(warns);
  });

  test('a joint position that is no number: the body item is not restored, the error located', () => {
    const c = read(projectText(body('Arm', 'file: "models/arm.body"\njoint_displacements: [ 0, ninety ]'), body('Box', 'file: "models/box.body"')));
    const [e, ...more] = failed(c, 'Arm').errors;
    expect(more).toEqual([]);
    expect(e).toMatchObject({ severity: 'error', file: c.file, ...position(c.text, 'ninety') });
    expect(loaded(c, 'Box').kind).toBe('loaded');
  });
});

describe('fixed or free root: the model\'s root joint and fix_root', () => {
  test.each<[string, string, string, boolean, boolean]>([
    ['a free model root stays free', 'box', '', false, false],
    ['fix_root: true fixes a free root', 'box', 'fix_root: true', true, true],
    ['fix_root: false frees a fixed root', 'floor', 'fix_root: false', false, false],
    ['a fixed model root without fix_root stays fixed; no joints: static', 'floor', '', true, true],
    ['a fixed root with joints is not static', 'arm', 'fix_root: true', true, false],
    ['the old staticModel: true fixes the root', 'box', 'staticModel: true', true, true],
    ['the old staticModel: false frees a static model', 'floor', 'staticModel: false', false, false],
    ['the old staticModel: false leaves a fixed arm fixed (it is not static)', 'arm', 'staticModel: false', true, false],
    ['fix_root wins over staticModel', 'box', 'staticModel: true\nfix_root: false', false, false],
    ['a fix_root that is no boolean falls back to staticModel (with a warning)', 'box', 'fix_root: maybe\nstaticModel: true', true, true],
    ['y is true to Choreonoid', 'box', 'fix_root: y', true, true],
  ])('%s', (_, model, data, fixedRoot, staticModel) => {
    const c = read(projectText(body('B', `file: "models/${model}.body"\n${data}`)));
    const b = loaded(c, 'B');
    expect([b.fixedRoot, b.staticModel, b.rootJointType]).toEqual([fixedRoot, staticModel, fixedRoot ? 'fixed' : 'free']);
  });
});

describe('paths, as FilePathVariableProcessor::expand resolves them', () => {
  const vars = { share: '/opt/cnoid/share/choreonoid-2.3', programTop: '/opt/cnoid', home: '/home/me', projectDir: '/work/p', user: { MODELS: ['/nowhere', '/srv/models'] } };
  test.each([
    ['${SHARE}/model/x.body', '/opt/cnoid/share/choreonoid-2.3/model/x.body'],
    ['${PROJECT_DIR}/x.body', '/work/p/x.body'],
    ['${HOME}/x.body', '/home/me/x.body'],
    ['${PROGRAM_TOP}/lib/x.body', '/opt/cnoid/lib/x.body'],
    ['x.body', '/work/p/x.body'],
    ['../models/./x.body', '/work/models/x.body'],
    ['/abs/x.body', '/abs/x.body'],
    ['${PROJECT_DIR}/../q/x.body', '/work/q/x.body'],
    ['sub/${SHARE}/x.body', '/work/p/sub/${SHARE}/x.body'],
    ['${SHARE}x.body', '/opt/cnoid/share/choreonoid-2.3x.body'],
    ['${MODELS}/x.body', '/nowhere/x.body'],
  ])('%s → %s', (written, path) => {
    expect(expandPath(written, vars)).toEqual({ path });
  });

  test.each([
    ['${UNDEFINED}/x.body', /path variable "UNDEFINED" in "\$\{UNDEFINED\}\/x.body" is not defined/],
    ['${SHARE}/x.body', /\$\{SHARE\} is not known here/],
    ['${PROGRAM_TOP}/x.body', /\$\{PROGRAM_TOP\} is not known here/],
  ])('%s cannot be expanded', (written, message) => {
    const result = expandPath(written, { home: '', projectDir: '/p', user: {} });
    expect('error' in result && result.error).toMatch(message);
  });

  test.each([
    ['${SHARE}/model/box.body', 'share/model/box.body'],
    ['${PROJECT_DIR}/models/box.body', 'models/box.body'],
    ['models/box.body', 'models/box.body'],
    ['${HOME}/../models/box.body', 'models/box.body'],
  ])('a body item whose file is %s loads %s', (file, relative) => {
    const c = read(projectText(body('Box', `file: "${file}"`)));
    expect(loaded(c, 'Box').path).toBe(join(c.dir, relative));
    expect(loaded(c, 'Box').modelFile).toBe(file);
  });

  test('the old key modelFile names the model too', () => {
    const c = read(projectText(body('Box', 'modelFile: "models/box.body"')));
    expect(loaded(c, 'Box').model.name).toBe('Box');
  });

  test('a missing model file: the body item names the file, located at its file: value; the others still load', () => {
    const c = read(projectText(world('World', [body('Ghost', 'file: "${SHARE}/model/ghost.body"'), body('Floor', 'file: "models/floor.body"')])));
    const [e, ...more] = failed(c, 'Ghost').errors;
    expect(more).toEqual([]);
    expect(e).toMatchObject({ severity: 'error', file: c.file, ...position(c.text, '"${SHARE}/model/ghost.body"') });
    expect(e!.message).toBe(`body item "Ghost": model file ${join(c.dir, 'share/model/ghost.body')} not found (from "\${SHARE}/model/ghost.body")`);
    expect(loaded(c, 'Floor').staticModel).toBe(true);
  });

  test('an undefined path variable is located at the file: value', () => {
    const c = read(projectText(body('Box', 'file: "${NOPE}/box.body"')));
    expect(failed(c, 'Box').errors[0]).toMatchObject({ ...position(c.text, '"${NOPE}'), message: expect.stringMatching(/"NOPE".*is not defined/) });
  });
});

describe('a body whose model does not load', () => {
  test('is reported with the item\'s location and the model\'s own located error, while the others serve', () => {
    const c = read(projectText(world('World', [body('Floor', 'file: "models/floor.body"'), body('Broken', 'file: "models/broken.body"\nroot_translation: [ 0, 0, 1 ]'), body('Box', 'file: "models/box.body"')])));
    const broken = failed(c, 'Broken');
    expect(broken.errors.map((e) => [e.file, e.line, e.column])).toEqual([
      [c.file, position(c.text, '"models/broken.body"').line, position(c.text, '"models/broken.body"').column],
      [join(c.dir, 'models/broken.body'), 9, 11],
    ]);
    expect(broken.errors[0]!.message).toBe('body item "Broken": its model does not load');
    expect(c.project.bodies.map((b) => [b.itemName, b.kind])).toEqual([
      ['Floor', 'loaded'],
      ['Broken', 'failed'],
      ['Box', 'loaded'],
    ]);
  });

  test.each([
    ['a root_translation of two numbers', 'root_translation: [ 1, 2 ]', '[ 1, 2 ]', /expected a list of 3 numbers, got 2 elements/],
    ['a root_rotation of three numbers', 'root_rotation: [ 1, 0, 0 ]', '[ 1, 0, 0 ]', /axis-angle \[x, y, z, degrees\], got 3 elements/],
    ['a zero rotation axis', 'root_rotation: [ 0, 0, 0, 90 ]', '[ 0, 0, 0, 90 ]', /the rotation axis is the zero vector/],
    ['a rootAttitude of 8 numbers', 'rootAttitude: [ 1, 0, 0, 0, 1, 0, 0, 0 ]', '[ 1, 0, 0, 0, 1, 0, 0, 0 ]', /list of 9 numbers/],
    ['an initial_root_translation with a word in it', 'initial_root_translation: [ 0, up, 0 ]', 'up', /expected a number, got "up"/],
    ['an unknown parent body linkage', '', 'sideways', /unknown parent body linkage "sideways"/],
  ])('%s: Choreonoid drops the item; a located error, line:column', (_, data, needle, message) => {
    const inner = data === '' ? body('Box', 'file: "models/box.body"\nparent_body_linkage: sideways') : body('Box', `file: "models/box.body"\n${data}`);
    const c = read(projectText(body('Arm', 'file: "models/arm.body"', [inner])));
    const [e, ...more] = failed(c, 'Box').errors;
    expect(more).toEqual([]);
    expect(e).toMatchObject({ severity: 'error', file: c.file, ...position(c.text, needle) });
    expect(e!.message).toMatch(message);
    expect(loaded(c, 'Arm').kind).toBe('loaded');
  });
});

describe('the item tree', () => {
  test('worlds, bodies inside and outside them, in tree order; a BodyItem\'s world is the nearest WorldItem', () => {
    const c = read(
      projectText(
        world('World', [body('Floor', 'file: "models/floor.body"'), item('Base', 'FolderItem', 'Things', '', [body('Box', 'file: "models/box.body"')])]),
        body('Posed', 'file: "models/arm.body"'),
        world('Second', [body('Floor', 'file: "models/floor.body"')]),
      ),
    );
    expect(c.project.worlds.map((w) => w.itemPath)).toEqual(['World', 'Second']);
    expect(c.project.bodies.map((b) => [b.itemPath, b.world])).toEqual([
      ['World/Floor', 'World'],
      ['World/Things/Box', 'World'],
      ['Posed', null],
      ['Second/Floor', 'Second'],
    ]);
    expect(c.project.diagnostics).toEqual([]);
  });

  test('the body is named after its item; the model\'s own name is the model name', () => {
    const c = read(projectText(body('My Box', 'file: "models/box.body"')));
    expect([loaded(c, 'My Box').bodyName, loaded(c, 'My Box').model.name]).toEqual(['My Box', 'Box']);
  });

  test('an item that cannot be restored drops its subtree: a BodyItem without plugin, with a body under it', () => {
    const text = projectText(`-\n  name: "Lost"\n  class: BodyItem\n  children:\n${indent(body('Inner', 'file: "models/box.body"').trim(), 4)}`, body('Kept', 'file: "models/box.body"'));
    const c = read(text);
    expect(c.project.bodies.map((b) => b.itemName)).toEqual(['Kept']);
    expect(c.project.diagnostics).toMatchObject([{ severity: 'error', ...position(text, 'name: "Lost"'), message: expect.stringMatching(/without plugin and class.*does not restore this item or the items under it/) }]);
  });

  test('"data" that is no mapping drops the item', () => {
    const text = projectText(`-\n  name: "Odd"\n  plugin: Body\n  class: BodyItem\n  data: [ 1, 2 ]`, body('Kept', 'file: "models/box.body"'));
    const c = read(text);
    expect(c.project.bodies.map((b) => b.itemName)).toEqual(['Kept']);
    expect(c.project.diagnostics[0]).toMatchObject({ severity: 'error', ...position(text, '[ 1, 2 ]') });
  });

  test('a child that is no mapping stops the whole restore there, as Choreonoid does', () => {
    const text = projectText(body('First', 'file: "models/box.body"'), '- just a string', body('Never', 'file: "models/box.body"'));
    const c = read(text);
    expect(c.project.bodies.map((b) => b.itemName)).toEqual(['First']);
    expect(c.project.diagnostics).toMatchObject([{ severity: 'error', ...position(text, 'just a string'), message: expect.stringMatching(/stops restoring/) }]);
  });

  test('the items under a body that does not load are not restored (its ROS item included)', () => {
    const c = read(projectText(body('Broken', 'file: "models/broken.body"', [item('ROS2', 'BodyROS2Item', 'ROS'), body('Rider', 'file: "models/box.body"')])));
    expect(c.project.bodies.map((b) => [b.itemName, b.kind])).toEqual([['Broken', 'failed']]);
    expect(failed(c, 'Broken').ros).toEqual({});
  });

  test.each([
    ['an empty file', ''],
    ['a list', '- a\n- b\n'],
    ['a scalar', 'items\n'],
  ])('a project that is %s cannot be read: a located ModelLoadError', (_, text) => {
    const dir = caseDir();
    const file = join(dir, 'p.cnoid');
    writeFileSync(file, text);
    expect(() => readProject(file)).toThrow(ModelLoadError);
    try {
      readProject(file);
    } catch (e) {
      expect((e as ModelLoadError).diagnostics[0]).toMatchObject({ file, line: 1, column: 1 });
    }
  });

  test('bad YAML: a located ModelLoadError at the syntax error', () => {
    const dir = caseDir();
    const file = join(dir, 'p.cnoid');
    const text = 'items:\n  name: "Root"\n  children: [ { name: a\n';
    writeFileSync(file, text);
    let error: unknown;
    try {
      readProject(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelLoadError);
    const d = (error as ModelLoadError).diagnostics[0]!;
    expect(d.file).toBe(file);
    expect(d.line).toBeGreaterThanOrEqual(3);
    expect((error as Error).message).toMatch(/p\.cnoid:\d+:\d+: error: YAML syntax error/);
  });

  test('a project without items has no bodies and says so', () => {
    const c = read('views: []\n');
    expect(c.project.bodies).toEqual([]);
    expect(c.project.diagnostics).toMatchObject([{ severity: 'warning', message: 'the project has no items' }]);
  });
});

describe('sub-projects (SubProjectItem)', () => {
  test('the included project\'s bodies, with its own directory as ${PROJECT_DIR}', () => {
    const dir = caseDir();
    mkdirSync(join(dir, 'sub/models'), { recursive: true });
    copyFileSync(join(models, 'floor.body'), join(dir, 'sub/models/floor.body'));
    writeFileSync(join(dir, 'sub/part.cnoid'), projectText(body('SubFloor', 'file: "${PROJECT_DIR}/models/floor.body"')));
    const c = read(projectText(world('World', [item('Base', 'SubProjectItem', 'Part', 'filename: "${PROJECT_DIR}/sub/part.cnoid"\nformat: PROJECT')]), body('Box', 'file: "models/box.body"')), {}, dir);
    expect(c.project.bodies.map((b) => [b.itemPath, b.world, b.path])).toEqual([
      ['World/Part/SubFloor', 'World', join(dir, 'sub/models/floor.body')],
      ['Box', null, join(dir, 'models/box.body')],
    ]);
  });

  test('a project including itself is refused, not followed', () => {
    const dir = caseDir();
    const text = projectText(body('Box', 'file: "models/box.body"'), item('Base', 'SubProjectItem', 'Again', 'filename: "project.cnoid"'));
    const c = read(text, {}, dir);
    expect(c.project.bodies.map((b) => b.itemName)).toEqual(['Box']);
    expect(c.project.diagnostics).toMatchObject([{ severity: 'error', ...position(text, '"project.cnoid"'), message: expect.stringMatching(/already being loaded/) }]);
  });
});

describe('simulator items: which one --start-simulation runs, and its step (SimulatorItem, SimulationBar)', () => {
  const sim = (cls: string, name: string, data = '', selected = false, plugin = 'Body'): string =>
    item(plugin, cls, name, data).replace(`  class: ${cls}\n`, `  class: ${cls}\n${selected ? '  is_selected: true\n' : ''}`);

  test('none selected: the first in the tree; one selected: that one; two selected in a world: none there', () => {
    const text = (selectA: boolean, selectB: boolean): string =>
      projectText(world('W', [item('Base', 'FolderItem', 'Sims', '', [sim('AISTSimulatorItem', 'A', 'time_step: 0.001', selectA), sim('ODESimulatorItem', 'B', 'time_step: 0.002', selectB, 'ODE')])]), world('V', [sim('AISTSimulatorItem', 'C', 'time_step: 0.004')]));
    const started = (c: Case): string[] => c.project.simulators.filter((x) => (c.project.simulators.some((y) => y.selected) ? x.selected : x === c.project.simulators[0])).map((x) => x.itemPath);
    const none = read(text(false, false));
    expect(none.project.simulators.map((x) => [x.itemPath, x.world, x.className, x.selected, x.timeStep.value])).toEqual([
      ['W/Sims/A', 'W', 'AISTSimulatorItem', false, 0.001],
      ['W/Sims/B', 'W', 'ODESimulatorItem', false, 0.002],
      ['V/C', 'V', 'AISTSimulatorItem', false, 0.004],
    ]);
    expect(started(none)).toEqual(['W/Sims/A']);
    expect(simulatorsStarted(none.project.simulators).map((x) => x.itemPath)).toEqual(['W/Sims/A']);
    expect(simulatorsStarted(read(text(false, true)).project.simulators).map((x) => x.itemPath)).toEqual(['W/Sims/B']);
    expect(simulatorsStarted(read(text(true, true)).project.simulators)).toEqual([]);
  });

  test('the step: time_step (and its old spellings), frame_rate, else the time bar\'s frame rate (toolbars, default 1000 Hz)', () => {
    const steps = (data: string, toolbars = ''): unknown => read(`${projectText(world('W', [sim('AISTSimulatorItem', 'A', data)]))}${toolbars}`).project.simulators[0]!.timeStep;
    expect(steps('time_step: 0.0025')).toMatchObject({ value: 0.0025, source: 'time_step' });
    expect(steps('timestep: 0.002')).toMatchObject({ value: 0.002, source: 'time_step' });
    expect(steps('timeStep: 0.005')).toMatchObject({ value: 0.005, source: 'time_step' });
    expect(steps('frame_rate: 250')).toEqual({ value: 0.004, source: 'frame_rate' });
    expect(steps('recording: full')).toEqual({ value: 0.001, source: 'time_bar' });
    expect(steps('recording: full', 'toolbars:\n  "TimeBar":\n    frameRate: 500\n')).toEqual({ value: 0.002, source: 'time_bar' });
  });

  test('the AIST simulator integrates with semi-implicit Euler unless the project names Runge-Kutta', () => {
    const mode = (data: string): unknown => read(projectText(world('W', [sim('AISTSimulatorItem', 'A', data)]))).project.simulators[0]!.integration;
    expect(mode('time_step: 0.001')).toBe('semi-implicit_euler');
    expect(mode('integration_mode: runge-kutta')).toBe('runge-kutta');
    expect(mode('integrationMode: "Runge Kutta"')).toBe('runge-kutta');
    expect(mode('integration_mode: euler')).toBe('semi-implicit_euler');
  });

  test('sub-simulators (GLVisionSimulatorItem) are no simulators', () => {
    const c = read(projectText(world('W', [item('Body', 'AISTSimulatorItem', 'A', 'time_step: 0.001', [item('GLVisionSimulator', 'GLVisionSimulatorItem', 'GL')])])));
    expect(c.project.simulators.map((x) => x.itemName)).toEqual(['A']);
  });

  // Choreonoid's own samples, as their files say (read by hand): PA10Pickup holds four simulators, none selected;
  // PxTank selects its PhysX one; SR1Liftup-SpringDamperContact's AIST simulator has no step and its TimeBar runs at
  // 500 Hz; the Tank tutorial writes the old `timestep`.
  test.each([
    ['SimpleController/PA10Pickup.cnoid', 'AISTSimulator', 'AISTSimulatorItem', 0.001, 'time_step'],
    ['PhysX/PxTank.cnoid', 'PhysXSimulator', 'PhysXSimulatorItem', 0.001, 'time_step'],
    ['CollisionHandler/SR1Liftup-SpringDamperContact.cnoid', 'AISTSimulator', 'AISTSimulatorItem', 0.002, 'time_bar'],
    ['tutorial/Tank/step3.cnoid', 'AISTSimulator', 'AISTSimulatorItem', 0.001, 'time_step'],
  ])('%s: --start-simulation runs %s (%s) at %f s (%s)', (file, name, cls, step, source) => {
    const project = readProject(join(corpusDir, 'choreonoid/sample', file), { share: join(corpusDir, 'choreonoid/share'), env: {} });
    const started = simulatorsStarted(project.simulators);
    expect(started.map((x) => [x.itemName, x.className, x.timeStep.value, x.timeStep.source])).toEqual([[name, cls, step, source]]);
  });
});

describe('a body item under another: coordinated or attached (parent_body_linkage)', () => {
  const armData = 'file: "models/arm.body"\nroot_translation: [ 1, 0, 0 ]\njoint_displacements: [ 0, 90, 0, 0, 0 ]';
  test('coordinated by default: the project\'s pose stands, following the parent\'s root', () => {
    const c = read(projectText(body('Arm', armData, [body('Box', 'file: "models/box.body"\nroot_translation: [ 3, 2, 1 ]')])));
    const box = loaded(c, 'Box');
    expectPose(box.rootPose, [3, 2, 1], I);
    expect(box.linkage).toEqual({ parentItemPath: 'Arm', kind: 'coordinated', parentLink: 'BASE' });
  });

  test('coordinated with local_translation: the root sits at that offset from the parent link', () => {
    // SHOULDER is 0.1 above BASE (at [1, 0, 0] in the world), turned 90° about z: local x is world y.
    const c = read(projectText(body('Arm', armData, [body('Box', 'file: "models/box.body"\nparent_body_linkage: coordinated\nparent_link: SHOULDER\nlocal_translation: [ 0.5, 0, 0 ]')])));
    expectPose(loaded(c, 'Box').rootPose, [1, 0.5, 0.1], RZ90);
  });

  test('attached: the box\'s attachment meets the arm\'s HAND holder (category gripper)', () => {
    // root_translation puts BASE at [1, 0, 0] (replacing the model's 0.2 up); TOOL: SHOULDER 0.1 (turned 90° about
    // z) + SLIDE 0.3 (q 0) + WRIST 0.1 + TOOL 0.05 = z 0.55; HAND 0.02 above TOOL; the attachment is 0.1 below the
    // box root, so the root is 0.1 above HAND, whatever root_translation the box item has.
    const c = read(projectText(body('Arm', armData, [body('Box', 'file: "models/box.body"\nenable_attachment: true\nroot_translation: [ 9, 9, 9 ]')])));
    const box = loaded(c, 'Box');
    expectPose(box.rootPose, [1, 0, 0.1 + 0.3 + 0.1 + 0.05 + 0.02 + 0.1], RZ90);
    expect(box.linkage).toEqual({ parentItemPath: 'Arm', kind: 'attached', parentLink: 'TOOL' });
    // Where a simulation starts it is still the item's own initial state.
    expectPose(box.initialRootPose, [0, 0, 0], I);
  });

  test('unlinked: no linkage at all', () => {
    const c = read(projectText(body('Arm', armData, [body('Box', 'file: "models/box.body"\nparent_body_linkage: unlinked')])));
    expect(loaded(c, 'Box').linkage).toBeUndefined();
  });
});

describe('choreonoid_ros items', () => {
  test.each([
    ['Tank', '/Tank'],
    ['my-robot', '/my_robot'],
  ])('BodyROS2Item under body item "%s": node and namespace %s, joint_states at the rate given', (name, namespace) => {
    const c = read(projectText(world('World', [body(name, 'file: "models/arm.body"', [item('ROS2', 'BodyROS2Item', 'BodyROS2', 'body_ros_version: 0\njoint_state_update_rate: 50')])])));
    expect(loaded(c, name).ros.bodyRos2).toMatchObject({ itemName: 'BodyROS2', nodeName: namespace.slice(1), namespace, jointStateUpdateRate: 50 });
  });

  test('BodyROS2Item below a folder under the body still serves it; the default rate is 100 Hz', () => {
    const c = read(projectText(body('Arm', 'file: "models/arm.body"', [item('Base', 'FolderItem', 'ROS', '', [item('ROS2', 'BodyROS2Item', 'BodyROS2')])])));
    expect(loaded(c, 'Arm').ros.bodyRos2).toMatchObject({ namespace: '/Arm', jointStateUpdateRate: 100 });
  });

  test('a body item name ROS refuses as a node name is a located warning', () => {
    const text = projectText(body('robot 1', 'file: "models/arm.body"', [item('ROS2', 'BodyROS2Item', 'BodyROS2')]));
    const c = read(text);
    expect(loaded(c, 'robot 1').warnings).toMatchObject([{ severity: 'warning', ...position(text, 'name: "BodyROS2"'), message: expect.stringMatching(/"robot 1", which rclcpp refuses/) }]);
  });

  test('a BodyROS2Item under no body item is a warning', () => {
    const c = read(projectText(world('World', [item('ROS2', 'BodyROS2Item', 'Lonely')])));
    expect(c.project.diagnostics).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/not under a body item/) }]);
  });

  test.each([
    ['no namespace', '', '', '/controller_manager', '/robot_state_publisher', '/robot_description'],
    ['a relative namespace (on Humble the URDF is looked up under it twice)', 'namespace: r1', 'r1', '/r1/controller_manager', '/r1/r1/robot_state_publisher', '/r1/robot_description'],
    ['an absolute namespace', 'namespace: /r1', '/r1', '/r1/controller_manager', '/r1/robot_state_publisher', '/r1/robot_description'],
  ])('ROS2ControlItem with %s', (_, data, namespace, controllerManager, robotStatePublisher, robotDescriptionTopic) => {
    const c = read(projectText(body('Arm', 'file: "models/arm.body"', [item('ROS2', 'ROS2ControlItem', 'ROS2Control', data)])));
    expect(loaded(c, 'Arm').ros.ros2Control).toMatchObject({ itemName: 'ROS2Control', namespace, controllerManager, robotStatePublisher, robotDescriptionTopic });
  });

  test('WorldROS2Item: the world\'s clock node', () => {
    const c = read(projectText(world('My-World', [item('ROS2', 'WorldROS2Item', 'WorldROS2', 'max_clock_publishing_rate: 30')])));
    expect(c.project.worlds[0]!.ros.worldRos2).toMatchObject({ itemName: 'WorldROS2', nodeName: 'My_World', maxClockPublishingRate: 30 });
  });
});

describe('body-bridge project', () => {
  async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['project', ...argv], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: {} });
    return { code, stdout, stderr };
  }

  const fine = projectText(world('World', [body('Floor', 'file: "models/floor.body"'), body('Arm', 'file: "${SHARE}/model/arm.body"\nroot_translation: [ 1, 2, 3 ]\njoint_displacements: [ 0, 90 ]', [item('ROS2', 'BodyROS2Item', 'BodyROS2')])]));

  test('prints one block per body: model, fixed or free, root pose now and at the start, joints, ROS items; exit 0', async () => {
    const dir = caseDir();
    writeFileSync(join(dir, 'p.cnoid'), fine);
    const r = await run(join(dir, 'p.cnoid'), '--share', join(dir, 'share'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('world item "World" (World)');
    expect(r.stdout).toContain('body item "Arm" (World/Arm)');
    expect(r.stdout).toMatch(/body {5}"Floor" \(model Floor\): 1 link, root FLOOR fixed \(static: does not move\)/);
    expect(r.stdout).toMatch(/root {5}xyz 1 2 3 {2}rpy 0 0 0 {3}\(now\)/);
    expect(r.stdout).toMatch(/initial {2}xyz 0 0 0 {2}rpy 0 0 0/);
    expect(r.stdout).toMatch(/SHOULDER +1\.570796\n/);
    expect(r.stdout).toContain('ros      BodyROS2Item "BodyROS2": namespace /Arm, joint_states at 100 Hz');
  });

  test('--json: the same meaning as data', async () => {
    const dir = caseDir();
    writeFileSync(join(dir, 'p.cnoid'), fine);
    const r = await run(join(dir, 'p.cnoid'), '--share', join(dir, 'share'), '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { bodies: { item_name: string; root_pose: { xyz: Vec3 }; fixed_root: boolean; joint_positions: Record<string, number>; ros: { body_ros2?: { namespace: string; joint_state_update_rate: number } } }[] };
    expect(json.bodies.map((b) => [b.item_name, b.fixed_root])).toEqual([
      ['Floor', true],
      ['Arm', true],
    ]);
    expect(json.bodies[1]!.root_pose.xyz).toEqual([1, 2, 3]);
    expect(json.bodies[1]!.joint_positions.SHOULDER).toBeCloseTo(Math.PI / 2, 14);
    expect(json.bodies[1]!.ros.body_ros2).toEqual({ item_name: 'BodyROS2', node_name: 'Arm', namespace: '/Arm', joint_state_update_rate: 100 });
  });

  test('a body that does not load: its located error is printed, the others still shown, exit 1', async () => {
    const dir = caseDir();
    const text = projectText(body('Broken', 'file: "models/broken.body"'), body('Floor', 'file: "models/floor.body"'));
    writeFileSync(join(dir, 'p.cnoid'), text);
    const r = await run(join(dir, 'p.cnoid'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('body item "Broken" (Broken): NOT LOADED');
    expect(r.stdout).toContain(`${join(dir, 'models/broken.body')}:9:11: error: expected a mass in kg`);
    expect(r.stdout).toContain('body item "Floor" (Floor)\n');
    expect(r.stderr).toContain(`${join(dir, 'p.cnoid')}:${position(text, '"models/broken.body"').line}:`);
  });

  test('an unreadable project: the located error, exit 1; bad usage: exit 2', async () => {
    const dir = caseDir();
    writeFileSync(join(dir, 'p.cnoid'), 'items: [\n');
    const r = await run(join(dir, 'p.cnoid'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/p\.cnoid:\d+:\d+: error: YAML syntax error/);
    expect((await run()).code).toBe(2);
    expect((await run('a.cnoid', 'b.cnoid')).code).toBe(2);
    expect((await run('--path-variable', 'nonsense', 'a.cnoid')).code).toBe(2);
    expect((await run('--bogus', 'a.cnoid')).code).toBe(2);
    const help = await run('--help');
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('usage: body-bridge project')]);
  });

  test('--path-variable NAME=DIR expands ${NAME} as Choreonoid\'s option does', async () => {
    const dir = caseDir();
    writeFileSync(join(dir, 'p.cnoid'), projectText(body('Box', 'file: "${MINE}/box.body"')));
    const r = await run(join(dir, 'p.cnoid'), '--path-variable', `MINE=${join(dir, 'models')}`, '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { bodies: { path: string }[] }).bodies[0]!.path).toBe(join(dir, 'models/box.body'));
  });
});
