// `body-bridge urdf -o` output that survives a move: every mesh next to the URDF (generated ones and copies of
// the model's own files with what they use), referenced by relative or package:// URIs; and `--mesh-format stl`
// for viewers that read only STL and COLLADA. Checked by moving the folder and opening it with check_urdf and
// assimp from its new place.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runUrdf } from '../src/cli/urdf.js';
import { corpusDir } from './support/oracle.js';
import { partWith } from './support/peer-skip.js';
import { assimpInfo, assimpPeer, checkUrdf, checkUrdfPeer, child, childrenNamed, numbers, parseXml, type XmlNodeRead } from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';

const work = scratchDir('bb-urdf-portable-');

async function urdf(...argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runUrdf(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { XDG_CACHE_HOME: join(work, 'cache') } });
  return { status, stdout, stderr };
}

const meshFilenames = (doc: XmlNodeRead): string[] =>
  childrenNamed(doc, 'link')
    .flatMap((l) => [...childrenNamed(l, 'visual'), ...childrenNamed(l, 'collision')])
    .map((v) => child(child(v, 'geometry')!, 'mesh')?.attributes.filename)
    .filter((f): f is string => f !== undefined);

const hrp4c = join(corpusDir, 'choreonoid/share/model/HRP4C/HRP4C.body');

describe('urdf -o: a folder that can be moved', () => {
  it('HRP4C: meshes and the OBJ files with their .mtl and textures beside the URDF; moved, check_urdf and assimp read it all', async () => {
    const out = join(work, 'a', 'hrp4c.urdf');
    const r = await urdf(hrp4c, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/mesh files in .*hrp4c_meshes .*referenced by paths relative to the URDF/);
    expect(existsSync(join(work, 'cache'))).toBe(false);
    renameSync(join(work, 'a'), join(work, 'moved'));
    const moved = join(work, 'moved', 'hrp4c.urdf');
    const xml = readFileSync(moved, 'utf8');
    expect(xml).not.toMatch(/filename="(file:\/\/|\/)/);
    const files = [...new Set(meshFilenames(parseXml(xml)))];
    expect(files.filter((f) => f.endsWith('.obj')).length).toBeGreaterThan(10);
    const withAssimp = partWith('urdf -o: assimp on the moved meshes', assimpPeer());
    for (const f of files) {
      const path = resolve(dirname(moved), decodeURIComponent(f));
      expect(existsSync(path), f).toBe(true);
      if (withAssimp) {
        const a = assimpInfo(path);
        expect(a.ok, `${f}: ${a.output.slice(0, 300)}`).toBe(true);
      }
      if (f.endsWith('.obj')) {
        // The copy keeps what the OBJ uses: its material library and the textures that library names.
        for (const lib of readFileSync(path, 'utf8').matchAll(/^mtllib\s+(.+)$/gm)) {
          const mtl = join(dirname(path), lib[1]!.trim());
          expect(existsSync(mtl), mtl).toBe(true);
          for (const tex of readFileSync(mtl, 'utf8').matchAll(/^map_Kd\s+(.+)$/gm)) expect(existsSync(join(dirname(mtl), tex[1]!.trim()))).toBe(true);
        }
      }
    }
    if (partWith('urdf -o: check_urdf on the moved URDF', checkUrdfPeer())) expect(checkUrdf(moved).ok).toBe(true);
  });

  it('COLLADA with textures (a WRS2018 terrain): the images it names travel with it', async () => {
    const out = join(work, 'choco', 'terrain.urdf');
    const r = await urdf(join(corpusDir, 'choreonoid/sample/WRS2018/model/ChocoTerrain.body'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const dae = meshFilenames(parseXml(readFileSync(out, 'utf8'))).filter((f) => f.endsWith('.dae'));
    expect(dae.length).toBeGreaterThan(0);
    let images = 0;
    for (const f of new Set(dae)) {
      const path = resolve(dirname(out), decodeURIComponent(f));
      for (const m of readFileSync(path, 'utf8').matchAll(/<init_from>\s*([^<\s]+\.(?:jpg|jpeg|png))\s*<\/init_from>/gi)) {
        expect(existsSync(join(dirname(path), decodeURIComponent(m[1]!))), m[1]).toBe(true);
        images++;
      }
    }
    expect(images).toBeGreaterThan(0);
  });

  it('inside a ROS package the URIs are package://<name>/… (what rviz resolves on any machine with the package)', async () => {
    const pkg = join(work, 'ws', 'src', 'my_robot');
    mkdirSync(join(pkg, 'urdf'), { recursive: true });
    writeFileSync(join(pkg, 'package.xml'), '<?xml version="1.0"?>\n<package format="3"><name>my_robot</name><version>0.0.0</version></package>\n');
    const r = await urdf(join(corpusDir, 'choreonoid/share/model/PA10/PA10.body'), '-o', join(pkg, 'urdf', 'pa10.urdf'));
    expect(r.status, r.stderr).toBe(0);
    const files = meshFilenames(parseXml(readFileSync(join(pkg, 'urdf', 'pa10.urdf'), 'utf8')));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f).toMatch(/^package:\/\/my_robot\/urdf\/pa10_meshes\//);
      expect(existsSync(join(pkg, f.slice('package://my_robot/'.length)))).toBe(true);
    }
  });
});

describe('--mesh-format stl', () => {
  it('HRP4C: no OBJ left, every mesh binary STL that assimp opens, each converted visual coloured with its .mtl Kd', async () => {
    const out = join(work, 'stl', 'hrp4c.urdf');
    const r = await urdf(hrp4c, '-o', out, '--mesh-format', 'stl');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/STL carries no texture/);
    const doc = parseXml(readFileSync(out, 'utf8'));
    const files = meshFilenames(doc);
    expect(files.every((f) => f.endsWith('.stl')), files.filter((f) => !f.endsWith('.stl')).join()).toBe(true);
    if (partWith('--mesh-format stl: assimp on the STL files', assimpPeer())) {
      for (const f of new Set(files)) expect(assimpInfo(resolve(dirname(out), f)).ok, f).toBe(true);
    }
    // The colours an OBJ's .mtl gives (read here independently) appear among the URDF's materials.
    const kd = new Set<string>();
    const meshDir = join(corpusDir, 'choreonoid/share/model/HRP4C/mesh');
    for (const name of ['WAIST', 'CHEST_Y', 'L_KNEE_P']) {
      const obj = readFileSync(join(meshDir, `${name}.obj`), 'utf8');
      const lib = /^mtllib\s+(.+)$/m.exec(obj)![1]!.trim();
      const used = /^usemtl\s+(.+)$/m.exec(obj)![1]!.trim();
      const mtl = readFileSync(join(meshDir, lib), 'utf8');
      const block = mtl.split(/^newmtl\s+/m).find((b) => b.startsWith(used))!;
      kd.add(numbers(/^Kd\s+(.+)$/m.exec(block)![1]).join(' '));
    }
    const colours = new Set(childrenNamed(doc, 'material').map((m) => numbers(child(m, 'color')!.attributes.rgba).slice(0, 3).join(' ')));
    for (const c of kd) expect(colours.has(c), `${c} among ${[...colours].join(' | ')}`).toBe(true);
  });
});
