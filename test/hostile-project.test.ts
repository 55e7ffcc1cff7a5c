// Hostile and broken project files: whatever a .cnoid holds, readProject returns a Project (bodies that cannot be
// restored carry located errors) or throws one ModelLoadError naming the file — never another exception, never a
// hang (each case runs under a time bound), never a non-finite pose. The cases are mutations of one valid project
// (test/models/project/ models), plus the shapes of attack the model loaders are held against.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ModelLoadError } from '../src/model/errors.js';
import type { Pose } from '../src/model/types.js';
import { readProject, type Project, type ProjectOptions } from '../src/project/index.js';
import { aliasBomb, MB } from './hostile/case-kit.js';
import { projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const root = scratchDir('hostile-project-');
const models = join(projectRoot, 'test/models/project');
let counter = 0;

const base = `optional_plugins: [ ROS2 ]
items:
  id: 0
  name: "RootItem"
  plugin: Base
  class: RootItem
  children:
    -
      id: 1
      name: "World"
      plugin: Body
      class: WorldItem
      data:
        collision_detection: false
      children:
        -
          id: 2
          name: "Arm"
          plugin: Body
          class: BodyItem
          data:
            file: "\${SHARE}/model/arm.body"
            format: CHOREONOID-BODY
            root_translation: [ 0, 0, 0.1 ]
            root_rotation: [ 0, 0, 1, 30 ]
            joint_displacements: [ 1, 2, 3, 4, 5 ]
            initial_joint_displacements: [ 0, 0 ]
            initial_root_translation: [ 0, 0, 0.1 ]
            initial_root_rotation: [ 0, 0, 1, 30 ]
            fix_root: true
          children:
            -
              id: 3
              name: "BodyROS2"
              plugin: ROS2
              class: BodyROS2Item
              data:
                joint_state_update_rate: 50
            -
              id: 4
              name: "Box"
              plugin: Body
              class: BodyItem
              data:
                file: "\${PROJECT_DIR}/models/box.body"
                parent_body_linkage: attached
                rootPosition: [ 1, 2, 3 ]
                rootAttitude: [ 1, 0, 0, 0, 1, 0, 0, 0, 1 ]
                jointPositions: [ ]
                staticModel: false
        -
          id: 5
          name: "Floor"
          plugin: Body
          class: BodyItem
          data:
            modelFile: "models/floor.body"
        -
          id: 6
          name: "Part"
          plugin: Base
          class: SubProjectItem
          data:
            filename: "part.cnoid"
`;

const part = `items:
  name: "Root"
  plugin: Base
  class: RootItem
  children:
    - { name: "Broken", plugin: Body, class: BodyItem, data: { file: "models/broken.body" } }
    - { name: "Again", plugin: Base, class: SubProjectItem, data: { file: "\${PROJECT_DIR}/part.cnoid" } }
`;

function caseDir(files: Record<string, string | Buffer>): string {
  const dir = join(root, `case${++counter}`);
  for (const sub of ['models', 'share/model']) mkdirSync(join(dir, sub), { recursive: true });
  for (const f of ['arm.body', 'box.body', 'floor.body', 'broken.body']) {
    copyFileSync(join(models, f), join(dir, 'models', f));
    copyFileSync(join(models, f), join(dir, 'share/model', f));
  }
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const finitePose = (p: Pose): boolean => [...p.translation, ...p.rotation.flat()].every(Number.isFinite);

/** Reads the project under the contract; returns the project, or the ModelLoadError it was refused with. */
function readUnderContract(files: Record<string, string | Buffer>, options: ProjectOptions = {}): Project | ModelLoadError {
  const dir = caseDir({ 'part.cnoid': part, ...files });
  const file = join(dir, 'project.cnoid');
  const started = Date.now();
  let result: Project | ModelLoadError;
  try {
    result = readProject(file, { share: join(dir, 'share'), env: {}, ...options });
  } catch (e) {
    if (!(e instanceof ModelLoadError)) throw e;
    result = e;
  }
  expect(Date.now() - started).toBeLessThan(15_000);
  if (result instanceof ModelLoadError) {
    expect(result.diagnostics.length).toBeGreaterThan(0);
    for (const d of result.diagnostics) expect(existsSync(d.file)).toBe(true);
    return result;
  }
  for (const d of result.diagnostics) expect(existsSync(d.file), d.message).toBe(true);
  for (const b of result.bodies) {
    for (const w of b.warnings) expect(existsSync(w.file)).toBe(true);
    if (b.kind === 'failed') {
      expect(b.errors.length).toBeGreaterThan(0);
      for (const e of b.errors) expect(existsSync(e.file), e.message).toBe(true);
      continue;
    }
    expect(finitePose(b.rootPose) && finitePose(b.initialRootPose)).toBe(true);
    expect([...Object.values(b.jointPositions), ...Object.values(b.initialJointPositions)].every(Number.isFinite)).toBe(true);
  }
  return result;
}

describe('the base project', () => {
  test('reads as intended: Arm fixed with its ROS item, Box attached to its hand, Floor, and the broken body of the sub-project', () => {
    const p = readUnderContract({ 'project.cnoid': base });
    expect(p).not.toBeInstanceOf(ModelLoadError);
    const project = p as Project;
    expect(project.bodies.map((b) => [b.itemPath, b.kind])).toEqual([
      ['World/Arm', 'loaded'],
      ['World/Arm/Box', 'loaded'],
      ['World/Floor', 'loaded'],
      ['World/Part/Broken', 'failed'],
    ]);
    expect(project.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/already being loaded/)]);
  });
});

/** A small deterministic generator, so a failing mutation can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('mutations of the base project never crash or hang', () => {
  test('truncated at every 37th byte', () => {
    for (let at = 0; at < base.length; at += 37) readUnderContract({ 'project.cnoid': base.slice(0, at) });
  });

  const pieces = ['[', ']', '{', '}', ':', '-', ' ', '\n', '"', "'", '&a', '*a', '!!map', '${', '${SHARE}', '..', '/', '0', '-1e999', 'nan', 'inf', '~', '\t', '\u00e9', '\u0000'];
  test.each(Array.from({ length: 8 }, (_, i) => i + 1))('40 random edits, seed %i', (seed) => {
    const next = random(seed);
    for (let k = 0; k < 40; k++) {
      let text = base;
      const edits = 1 + Math.floor(next() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * text.length);
        const cut = Math.floor(next() * 6);
        text = text.slice(0, at) + pieces[Math.floor(next() * pieces.length)]! + text.slice(at + cut);
      }
      readUnderContract({ 'project.cnoid': text });
    }
  });

  test.each([
    ['every value in data replaced by a mapping', base.replace(/^( +[a-z_A-Z]+): (?!$).*$/gm, '$1: { x: 1 }')],
    ['every value in data replaced by a list of lists', base.replace(/^( +[a-z_A-Z]+): (?!$).*$/gm, '$1: [ [ 1 ], [ ] ]')],
    ['every value made empty', base.replace(/^( +[a-z_A-Z]+): (?!$).*$/gm, '$1:')],
    ['every list made one number', base.replace(/\[[^\]\n]*\]/g, '7')],
    ['every number made huge', base.replace(/\b\d+(\.\d+)?\b/g, '1e308')],
    ['every number made negative zero', base.replace(/\b\d+(\.\d+)?\b/g, '-0')],
    ['children made a scalar', base.replace(/children:\n/g, 'children: none\n')],
    ['names made lists', base.replace(/name: "[^"]*"/g, 'name: [ a, b ]')],
    ['a body item named with slashes and dashes', base.replace('name: "Arm"', 'name: "a/b-c d"')],
  ])('%s', (_, text) => {
    readUnderContract({ 'project.cnoid': text });
  });
});

describe('attacks on the reader', () => {
  test('an alias bomb: a located error, fast', () => {
    const r = readUnderContract({ 'project.cnoid': `${aliasBomb()}\n${base}` });
    expect(r).toBeInstanceOf(ModelLoadError);
  });

  test('a file over the size limit: a located error', () => {
    const r = readUnderContract({ 'project.cnoid': `${base}#${'x'.repeat(2 * MB)}\n` }, { limits: { maxFileBytes: MB } });
    expect(r).toBeInstanceOf(ModelLoadError);
    expect((r as ModelLoadError).message).toMatch(/over the limit/);
  });

  test('not UTF-8: a located error', () => {
    const r = readUnderContract({ 'project.cnoid': Buffer.concat([Buffer.from('items:\n  name: "'), Buffer.from([0xff, 0xfe]), Buffer.from('"\n')]) });
    expect(r).toBeInstanceOf(ModelLoadError);
  });

  test('binary garbage: a located error or an empty project', () => {
    const next = random(99);
    readUnderContract({ 'project.cnoid': Buffer.from(Array.from({ length: 4096 }, () => Math.floor(next() * 256))) });
  });

  test('items nested 300 deep: read, every body found', () => {
    const folder = (i: number): string => {
      const children = [
        ...(i % 50 === 0 ? [`- { name: "B${i}", plugin: Body, class: BodyItem, data: { file: "models/floor.body" } }`] : []),
        ...(i < 299 ? [folder(i + 1)] : []),
      ];
      const nested = children.length === 0 ? '' : `\n  children:\n${children.join('\n').replace(/^/gm, '    ')}`;
      return `- name: "F${i}"\n  plugin: Base\n  class: FolderItem${nested}`;
    };
    const r = readUnderContract({ 'project.cnoid': `items:\n  name: "Root"\n  plugin: Base\n  class: RootItem\n  children:\n${folder(0).replace(/^/gm, '    ')}\n` }, { limits: { maxDepth: 5000 } });
    expect(r).not.toBeInstanceOf(ModelLoadError);
    expect((r as Project).bodies.map((b) => b.itemName)).toEqual(['B0', 'B50', 'B100', 'B150', 'B200', 'B250']);
    expect((r as Project).bodies[5]!.itemPath.split('/')).toHaveLength(252);
  });

  test('a cycle of sub-projects (a → b → a) is refused once, not followed', () => {
    const sub = (file: string) => `items:\n  name: R\n  plugin: Base\n  class: RootItem\n  children:\n    - { name: "S", plugin: Base, class: SubProjectItem, data: { file: "${file}" } }\n`;
    const r = readUnderContract({ 'project.cnoid': sub('a.cnoid'), 'a.cnoid': sub('b.cnoid'), 'b.cnoid': sub('a.cnoid') }) as Project;
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/a\.cnoid, which is already being loaded/)]);
  });

  test('a chain of 200 sub-projects: read to its end', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) {
      files[i === 0 ? 'project.cnoid' : `p${i}.cnoid`] =
        `items:\n  name: R\n  plugin: Base\n  class: RootItem\n  children:\n    - { name: "S", plugin: Base, class: SubProjectItem, data: { file: "p${i + 1}.cnoid" } }\n`;
    }
    files['p200.cnoid'] = `items:\n  name: R\n  plugin: Base\n  class: RootItem\n  children:\n    - { name: "End", plugin: Body, class: BodyItem, data: { file: "models/floor.body" } }\n`;
    const r = readUnderContract(files) as Project;
    expect(r.bodies.map((b) => [b.itemName, b.kind])).toEqual([['End', 'loaded']]);
  });

  test('model files that are a directory, a device, the project itself: each a failed body', () => {
    const text = `items:\n  name: R\n  plugin: Base\n  class: RootItem\n  children:\n${['models', '/dev/zero', 'project.cnoid', '/nonexistent/x.body', ''].map((f, i) => `    - { name: "B${i}", plugin: Body, class: BodyItem, data: { file: "${f}" } }`).join('\n')}\n`;
    const r = readUnderContract({ 'project.cnoid': text }) as Project;
    expect(r.bodies.map((b) => b.kind)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
  });

  test('2000 body items of one model: read in bounded time (the model is loaded once)', () => {
    const items = Array.from({ length: 2000 }, (_, i) => `    - { name: "B${i}", plugin: Body, class: BodyItem, data: { file: "models/arm.body", root_translation: [ ${i}, 0, 0 ] } }`).join('\n');
    const r = readUnderContract({ 'project.cnoid': `items:\n  name: R\n  plugin: Base\n  class: RootItem\n  children:\n${items}\n` }) as Project;
    expect(r.bodies.filter((b) => b.kind === 'loaded')).toHaveLength(2000);
  });
});
