// "Never a URDF or mesh file half-written, never a path written outside the mesh directory",
// checked on the writer directly: failing targets, tampered mesh names, concurrent writers.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import type { RobotModel } from '../src/model/types.js';
import { toUrdf, type UrdfResult, writeUrdf } from '../src/urdf/index.js';
import { hostileModels } from './hostile/case-kit.js';
import { checkUrdf, listFiles } from './support/contract.js';

let root: string;
let model: RobotModel;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'bb-hostile-write-'));
  model = loadRobotModel(join(hostileModels, 'arm.body'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fresh = (name: string): string => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const tempFiles = (dir: string): string[] => [...listFiles(dir).keys()].filter((f) => /\.tmp$|\/\.[^/]*$/.test(f));

describe('writeUrdf', () => {
  test('the base model has generated meshes (otherwise these cases would test nothing)', () => {
    const result = toUrdf(model, { meshDir: join(root, 'unused') });
    expect(result.meshes.length).toBeGreaterThan(0);
  });

  test('URDF target under a regular file: rejected; meshes complete, no temp files, no partial URDF', async () => {
    const dir = fresh('urdf-under-file');
    writeFileSync(join(dir, 'a-file'), 'x');
    const result = toUrdf(model, { meshDir: join(dir, 'meshes') });
    await expect(writeUrdf(result, join(dir, 'a-file', 'robot.urdf'))).rejects.toThrow();
    expect(tempFiles(dir)).toEqual([]);
    for (const m of result.meshes) expect(readFileSync(join(dir, 'meshes', m.name))).toEqual(Buffer.from(m.data));
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('x');
  });

  test('mesh dir under a regular file: rejected, nothing written anywhere', async () => {
    const dir = fresh('mesh-under-file');
    writeFileSync(join(dir, 'a-file'), 'x');
    const before = listFiles(root);
    const result = toUrdf(model, { meshDir: join(dir, 'a-file', 'meshes') });
    await expect(writeUrdf(result, join(dir, 'robot.urdf'))).rejects.toThrow();
    expect([...listFiles(root).keys()].filter((f) => !before.has(f))).toEqual([]);
  });

  test.each(['../escape.stl', '/tmp/absolute.stl', 'sub/../../escape.stl', 'sub//x.stl', 'sub\\..\\x.stl', '..', '.', ''])('a tampered mesh name %j is refused and nothing is written outside the mesh dir', async (name) => {
    const dir = fresh(`tampered-${createHash('md5').update(name).digest('hex').slice(0, 8)}`);
    const meshDir = join(dir, 'a', 'meshes');
    const result = toUrdf(model, { meshDir });
    const first = result.meshes[0];
    if (!first) throw new Error('no mesh');
    const tampered: UrdfResult = { ...result, meshes: [{ ...first, name }] };
    const before = listFiles(root);
    await expect(writeUrdf(tampered, join(dir, 'robot.urdf'))).rejects.toThrow();
    const added = [...listFiles(root).keys()].filter((f) => !before.has(f));
    expect(added.filter((f) => !f.startsWith(`${meshDir}/`))).toEqual([]);
    if (name.startsWith('/')) expect(existsSync(name)).toBe(false);
  });

  test('ten concurrent writers into one mesh dir: every mesh complete, no temp files, every URDF parses', async () => {
    const dir = fresh('concurrent');
    const meshDir = join(dir, 'meshes');
    const result = toUrdf(model, { meshDir });
    await Promise.all(Array.from({ length: 10 }, (_, i) => writeUrdf(result, join(dir, `robot${i}.urdf`))));
    expect(tempFiles(dir)).toEqual([]);
    expect(readdirSync(meshDir).sort()).toEqual(result.meshes.map((m) => m.name).sort());
    for (const m of result.meshes) expect(readFileSync(join(meshDir, m.name))).toEqual(Buffer.from(m.data));
    for (let i = 0; i < 10; i++) expect(checkUrdf(join(dir, `robot${i}.urdf`))).toEqual([]);
  });

  test('a truncated mesh left by a crashed writer (same name, wrong size) is replaced, not reused', async () => {
    const dir = fresh('stale');
    const meshDir = join(dir, 'meshes');
    const result = toUrdf(model, { meshDir });
    const first = result.meshes[0];
    if (!first) throw new Error('no mesh');
    mkdirSync(meshDir, { recursive: true });
    writeFileSync(join(meshDir, first.name), Buffer.from(first.data).subarray(0, 10));
    await writeUrdf(result, join(dir, 'robot.urdf'));
    expect(readFileSync(join(meshDir, first.name))).toEqual(Buffer.from(first.data));
  });
});
