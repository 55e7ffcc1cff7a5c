// Mesh files rviz will fail to load (src/urdf/mesh-check.ts, src/urdf/mesh-warnings.ts): one tiny file
// per case, made here, with the verdict written by hand; assimp — rviz's importer — must refuse every
// file we call broken and read every file we pass, except where rviz's own binary-only STL reader is
// the one that refuses (those cases say so). Every corpus mesh passes, and every cut of a corpus STL or
// COLLADA file is caught as truncated.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { loadRobotModel } from '../src/load.js';
import { seededRandom } from '../src/moveit/collision-matrix.js';
import { describeModel } from '../src/ros/description.js';
import { fileSignature } from '../src/ros/dry-run.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { defaultParams } from '../src/ros/params.js';
import { startRobotPublisher } from '../src/ros/robot-publisher.js';
import { ASSIMP_EXTENSIONS, type MeshFault, meshFault } from '../src/urdf/mesh-check.js';
import { readMeshFile } from '../src/urdf/mesh-warnings.js';
import { peerCodec } from './support/cdr-peer.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';
import { partWith, skipWithout } from './support/peer-skip.js';
import { findAssimp } from './support/peers.js';

const assimpLookup = findAssimp();
const assimp = assimpLookup.ok ? assimpLookup.exe : null;

/**
 * Whether assimp makes triangles of the file. `-r` (no post-processing) because rviz asks assimp for
 * no validation, and `assimp info`'s default preset validates: it refuses the corpus's UR10
 * upperarm.dae for two cameras of one name, which rviz loads.
 */
function assimpReads(file: string): boolean {
  const r = spawnSync(assimp!, ['info', file, '-r'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 && /^Faces:\s*[1-9]/m.test(r.stdout);
}

const dir = scratchDir('mesh-check-');

// --- the bytes of the cases, built by hand ---

const TRIANGLE = [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0];

/** A binary STL: 80-byte header, the count the header announces, then `triangles` facets. */
function binaryStl(triangles: number, { header = 'binary STL made by the test', announced = triangles } = {}): Uint8Array {
  const data = Buffer.alloc(84 + 50 * triangles);
  data.write(header.padEnd(80, ' ').slice(0, 80), 0, 'latin1');
  data.writeUInt32LE(announced, 80);
  for (let t = 0; t < triangles; t++) TRIANGLE.forEach((x, i) => data.writeFloatLE(x, 84 + 50 * t + 4 * i));
  return data;
}
const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => Buffer.concat([a, b]);

const ASCII_FACET = 'facet normal 0 0 1\n  outer loop\n    vertex 0 0 0\n    vertex 1 0 0\n    vertex 0 1 0\n  endloop\nendfacet\n';
const ASCII_STL = `solid part\n${ASCII_FACET}${ASCII_FACET}endsolid part\n`;

const COLLADA = `<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tri" name="tri">
      <mesh>
        <source id="tri-pos">
          <float_array id="tri-pos-array" count="9">0 0 0 1 0 0 0 1 0</float_array>
          <technique_common>
            <accessor source="#tri-pos-array" count="3" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="tri-vtx"><input semantic="POSITION" source="#tri-pos"/></vertices>
        <triangles count="1"><input semantic="VERTEX" source="#tri-vtx" offset="0"/><p>0 1 2</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene"><node id="n"><instance_geometry url="#tri"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
`;
const OBJ = 'o part\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n';
const PLY = 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n';

interface Case {
  name: string;
  /** The file's name: rviz picks its reader by it. */
  file: string;
  content: Uint8Array | string | 'directory';
  /** Our verdict, by hand: null = rviz loads it. */
  fault: { problem: RegExp; refusedBy: MeshFault['refusedBy'] } | null;
  /** What assimp makes of it: `reads` for the good files and for those only rviz's STL reader refuses. */
  assimp: 'reads' | 'refuses';
}

const rviz = (problem: RegExp) => ({ problem, refusedBy: 'rviz' as const });

const cases: Case[] = [
  // Broken for rviz and for assimp.
  { name: 'empty STL', file: 'part.stl', content: '', fault: rviz(/^is empty$/), assimp: 'refuses' },
  { name: 'empty COLLADA', file: 'part.dae', content: '', fault: rviz(/^is empty$/), assimp: 'refuses' },
  { name: 'empty OBJ', file: 'part.obj', content: '', fault: rviz(/^is empty$/), assimp: 'refuses' },
  {
    name: 'binary STL cut inside its second triangle',
    file: 'part.stl',
    content: binaryStl(2).subarray(0, 84 + 50 + 20),
    fault: rviz(/^is truncated: its header announces 2 triangles \(184 bytes\), the file has 154 bytes$/),
    assimp: 'refuses',
  },
  {
    name: 'binary STL cut inside its header',
    file: 'part.stl',
    content: binaryStl(1).subarray(0, 40),
    fault: rviz(/^is truncated: 40 bytes, shorter than the 84-byte header of a binary STL$/),
    assimp: 'refuses',
  },
  { name: 'binary STL with no triangles', file: 'part.stl', content: binaryStl(0), fault: rviz(/^is a binary STL with no triangles$/), assimp: 'refuses' },
  {
    name: 'binary STL with bytes after its triangles, named .stl (rviz reads it with a warning)',
    file: 'part.stl',
    content: concat(binaryStl(1), Buffer.from('xyz')),
    fault: { problem: /^has 3 bytes after the 1 triangle its header announces \(134 bytes\)$/, refusedBy: 'assimp' },
    assimp: 'refuses',
  },
  {
    name: 'binary STL with bytes after its triangles, named .Stl (rviz hands it to assimp)',
    file: 'part.Stl',
    content: concat(binaryStl(1), Buffer.from('xyz')),
    fault: rviz(/^has 3 bytes after the 1 triangle/),
    assimp: 'refuses',
  },
  {
    name: 'ASCII STL cut inside a facet',
    file: 'part.stl',
    content: ASCII_STL.slice(0, ASCII_STL.indexOf('vertex 1 0 0', ASCII_STL.indexOf('endfacet'))),
    fault: rviz(/^is an ASCII STL cut short: it has no "endsolid"$/),
    assimp: 'refuses',
  },
  {
    name: 'ASCII STL with no facets, named .Stl (assimp reads it)',
    file: 'part.Stl',
    content: 'solid part\nendsolid part\n',
    fault: rviz(/^is an ASCII STL with no triangles$/),
    assimp: 'refuses',
  },
  {
    name: 'COLLADA cut in the middle',
    file: 'part.dae',
    content: COLLADA.slice(0, COLLADA.indexOf('1 0 0 0 1 0')),
    fault: rviz(/^is truncated: it ends inside <float_array>, opened on line 8$/),
    assimp: 'refuses',
  },
  {
    name: 'COLLADA cut inside its last end tag',
    file: 'part.dae',
    content: COLLADA.slice(0, COLLADA.lastIndexOf('ADA>')),
    fault: rviz(/^is truncated: the end tag <\/COLL that starts on line 24 never ends$/),
    assimp: 'refuses',
  },
  {
    name: 'COLLADA whose tags do not nest',
    file: 'part.dae',
    content: COLLADA.replace('</up_axis></asset>', '</asset></up_axis>'),
    fault: rviz(/^is not well-formed XML: line 3: <\/asset> closes <up_axis> \(opened on line 3\)$/),
    assimp: 'refuses',
  },
  {
    name: 'COLLADA with an attribute value in no quotes',
    file: 'part.dae',
    content: COLLADA.replace('count="9"', 'count=9'),
    fault: rviz(/^is not well-formed XML: line 8: an attribute of <float_array> without a quoted value$/),
    assimp: 'refuses',
  },
  {
    name: 'COLLADA with a bare "<" in a text',
    file: 'part.dae',
    content: COLLADA.replace('<p>0 1 2</p>', '<p>0 < 1 2</p>'),
    fault: rviz(/^is not well-formed XML: line 16: a "<" that starts no tag$/),
    assimp: 'refuses',
  },
  {
    name: '.dae that is well-formed XML but not COLLADA',
    file: 'part.dae',
    content: '<?xml version="1.0"?>\n<html><body><p>a mesh was here</p></body></html>\n',
    fault: rviz(/^is not COLLADA: it has no <COLLADA> element \(its root is <html>\)$/),
    assimp: 'refuses',
  },
  {
    name: 'OBJ with a face naming vertex 5 of 4',
    file: 'part.obj',
    content: OBJ.replace('f 2 4 3', 'f 2 5 3'),
    fault: rviz(/^has a face index out of range: vertex 5 on line 7, but the file has 4 vertices$/),
    assimp: 'refuses',
  },
  {
    name: 'OBJ with a relative face index before its vertices',
    file: 'part.obj',
    content: 'o part\nv 0 0 0\nv 1 0 0\nf -3 -2 -1\nv 0 1 0\n',
    fault: rviz(/^has a face index out of range: -3 on line 4, where only 2 vertices precede it$/),
    assimp: 'refuses',
  },
  {
    name: 'OBJ with a face index 0',
    file: 'part.obj',
    content: OBJ.replace('f 1 2 3', 'f 0 1 2'),
    fault: rviz(/^has a face with no valid vertex index \("0", line 6\)$/),
    assimp: 'refuses',
  },
  { name: 'OBJ with vertices and no faces', file: 'part.obj', content: 'o part\nv 0 0 0\nv 1 0 0\nv 0 1 0\n', fault: rviz(/^has no faces \("f" lines\)$/), assimp: 'refuses' },
  { name: 'OBJ with no vertices', file: 'part.obj', content: '# exported by nothing\no part\n', fault: rviz(/^has no vertices \("v" lines\)$/), assimp: 'refuses' },
  { name: 'a directory named like a mesh', file: 'part.stl', content: 'directory', fault: rviz(/^is a directory, not a file$/), assimp: 'refuses' },
  {
    // assimp guesses the format of a name it does not know from the content: a header holding "STL"
    // or "solid" would get this file read, so this one holds neither.
    name: 'a binary STL named with an extension no reader of rviz takes',
    file: 'part.txt',
    content: binaryStl(2, { header: 'mesh exported by the test' }),
    fault: rviz(/^has the extension "\.txt", which names none of the formats rviz loads$/),
    assimp: 'refuses',
  },

  // Refused by rviz's own STL reader (binary only; rviz_rendering stl_loader.cpp), read by assimp.
  {
    name: 'complete ASCII STL named .stl',
    file: 'part.stl',
    content: ASCII_STL,
    fault: rviz(/^is an ASCII STL: rviz reads \.stl files with its own reader, which reads binary STL only/),
    assimp: 'reads',
  },
  {
    name: 'ASCII STL cut after a whole facet',
    file: 'part.stl',
    content: `solid part\n${ASCII_FACET}`,
    fault: rviz(/^is an ASCII STL cut short: it has no "endsolid"$/),
    assimp: 'reads',
  },
  {
    name: 'binary STL whose header says "solid … endsolid"',
    file: 'part.stl',
    content: binaryStl(1, { header: 'solid part endsolid' }),
    fault: rviz(/^is a binary STL whose header starts with "solid" and which contains "endsolid"/),
    assimp: 'reads',
  },

  // Good.
  { name: 'binary STL', file: 'part.stl', content: binaryStl(2), fault: null, assimp: 'reads' },
  { name: 'binary STL whose header starts with "solid" (as SolidWorks writes them)', file: 'part.stl', content: binaryStl(2, { header: 'solid part' }), fault: null, assimp: 'reads' },
  { name: 'binary STL named .STL', file: 'PART.STL', content: binaryStl(2), fault: null, assimp: 'reads' },
  { name: 'ASCII STL named .Stl (rviz hands it to assimp)', file: 'part.Stl', content: ASCII_STL, fault: null, assimp: 'reads' },
  { name: 'COLLADA', file: 'part.dae', content: COLLADA, fault: null, assimp: 'reads' },
  { name: 'COLLADA with a byte order mark and a comment after its root', file: 'part.dae', content: `\ufeff${COLLADA}<!-- exported -->\n`, fault: null, assimp: 'reads' },
  { name: 'OBJ', file: 'part.obj', content: OBJ, fault: null, assimp: 'reads' },
  { name: 'OBJ with a face before its vertices', file: 'part.obj', content: 'o part\nf 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n', fault: null, assimp: 'reads' },
  { name: 'OBJ with relative indices and v/vt/vn corners', file: 'part.obj', content: 'v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf -3/1/1 -2/1/1 -1/1/1\n', fault: null, assimp: 'reads' },
  { name: 'a format assimp reads that is not inspected (PLY)', file: 'part.ply', content: PLY, fault: null, assimp: 'reads' },
];

/** Writes each case into a folder of its own; returns its path. */
function made(c: Case, i: number): string {
  const folder = join(dir, `case-${i}`);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, c.file);
  if (c.content === 'directory') mkdirSync(path, { recursive: true });
  else writeFileSync(path, c.content);
  return path;
}
const paths = cases.map(made);

/** The verdict the URDF writer reaches for a file: read it as it does, then judge the bytes. */
function verdict(path: string): MeshFault | null {
  const data = readMeshFile(path);
  return data instanceof Uint8Array ? meshFault(path, data) : data;
}

describe('mesh files rviz cannot load: one file per case', () => {
  test.each(cases.map((c, i) => [c.name, c, paths[i]!] as const))('%s', (_name, c, path) => {
    const got = verdict(path);
    if (c.fault === null) expect(got).toBeNull();
    else {
      expect(got?.problem).toMatch(c.fault.problem);
      expect(got?.refusedBy).toBe(c.fault.refusedBy);
    }
  });

  // Root reads a mode-000 file, so as root the read is made by a child process running as nobody.
  test('a file that cannot be read (mode 000) → "cannot be read: permission denied"', () => {
    const folder = join(dir, 'unreadable');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'part.stl');
    writeFileSync(path, binaryStl(2));
    chmodSync(path, 0);
    if (process.getuid?.() !== 0) {
      expect(verdict(path)).toEqual({ problem: 'cannot be read: permission denied', refusedBy: 'rviz' });
      return;
    }
    // nobody must reach the module and the file wherever the checkout sits (a 0700 parent, another user's home):
    // both go to a world-traversable folder of their own, with the two modules the check needs.
    const built = join(projectRoot, 'dist/urdf');
    expect(statSync(join(built, 'mesh-warnings.js')).isFile(), `${built}/mesh-warnings.js (built by npm test's tsc step)`).toBe(true);
    const open = reachableByAll(tmpdir()) ? tmpdir() : '/tmp';
    const shared = mkdtempSync(join(open, 'body-bridge-nobody-'));
    try {
      chmodSync(shared, 0o755);
      for (const f of ['mesh-warnings.js', 'mesh-check.js']) copyFileSync(join(built, f), join(shared, f));
      writeFileSync(join(shared, 'package.json'), '{"type":"module"}');
      const unreadable = join(shared, 'part.stl');
      writeFileSync(unreadable, binaryStl(2));
      chmodSync(unreadable, 0);
      const module = join(shared, 'mesh-warnings.js');
      const script = `import { readMeshFile } from ${JSON.stringify(module)}; console.log(JSON.stringify(readMeshFile(${JSON.stringify(unreadable)})));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', uid: 65534, gid: 65534, cwd: shared });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual({ problem: 'cannot be read: permission denied', refusedBy: 'rviz' });
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

describe.skipIf(skipWithout(assimpLookup))('assimp (rviz\'s importer) agrees', () => {
  test.each(cases.map((c, i) => [c.name, c, paths[i]!] as const))('%s', (_name, c, path) => {
    expect(assimpReads(path)).toBe(c.assimp === 'reads');
  });

  test('the extensions rviz hands to assimp are the ones the installed assimp imports', () => {
    const r = spawnSync(assimp!, ['listext'], { encoding: 'utf8' });
    const listed = r.stdout.trim().split(';').map((e) => e.replace(/^\*\./, ''));
    expect(new Set(listed)).toEqual(ASSIMP_EXTENSIONS);
  });
});

/** Every .stl, .dae and .obj file of the corpus. */
function corpusMeshes(): string[] {
  requireShared();
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/\.(stl|dae|obj)$/i.test(e.name)) out.push(join(d, e.name));
    }
  };
  walk(corpusDir);
  return out.sort();
}

describe('the corpus meshes', () => {
  const meshes = corpusMeshes();

  test('every corpus mesh passes with no fault', () => {
    expect(meshes.length).toBeGreaterThan(70);
    const faults = meshes.map((m) => [relative(corpusDir, m), verdict(m)] as const).filter(([, f]) => f !== null);
    expect(faults).toEqual([]);
  });

  test.skipIf(!assimp)('assimp reads every corpus mesh', () => {
    const refused = meshes.filter((m) => !assimpReads(m)).map((m) => relative(corpusDir, m));
    expect(refused).toEqual([]);
    console.log(`assimp read all ${meshes.length} corpus meshes`);
  }, 120_000);

  test('any cut of a corpus STL or COLLADA file is caught as truncated (or empty), and assimp refuses a sample of them', () => {
    const random = seededRandom(22);
    const cutFiles = meshes.filter((m) => /\.(stl|dae)$/i.test(m));
    const sample: string[] = [];
    let cuts = 0;
    for (const m of cutFiles) {
      const data = readFileSync(m);
      // What may follow the document's last '>' is whitespace only: a cut there changes nothing.
      const end = /\.dae$/i.test(m) ? data.lastIndexOf('>') + 1 : data.length;
      for (let k = 0; k < 8; k++) {
        const at = k === 0 ? 0 : Math.floor(random() * end);
        const got = meshFault(m, data.subarray(0, at));
        expect(got?.problem, `${relative(corpusDir, m)} cut at ${at}`).toMatch(/^is (truncated|empty)\b/);
        cuts++;
        if (k === 1 && sample.length < 12) {
          const path = join(dir, `cut-${sample.length}${m.slice(m.lastIndexOf('.'))}`);
          writeFileSync(path, data.subarray(0, at));
          sample.push(path);
        }
      }
    }
    expect(cuts).toBeGreaterThan(400);
    if (partWith('assimp refuses the cut files', assimpLookup)) for (const p of sample) expect(assimpReads(p), p).toBe(false);
  }, 120_000);
});

// --- where the warning shows: body-bridge check, body-bridge urdf, the node ---

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: {} });
  return { code, stdout, stderr };
}

/** A .body model whose one Resource (line 9, its value at column 14) names a binary STL cut short. */
function truncatedStlModel(name: string): { file: string; mesh: string; warning: string } {
  const folder = join(dir, name);
  mkdirSync(join(folder, 'parts'), { recursive: true });
  const mesh = join(folder, 'parts', 'arm.stl');
  writeFileSync(mesh, binaryStl(2).subarray(0, 154));
  const file = join(folder, 'robot.body');
  writeFileSync(
    file,
    'format: ChoreonoidBody\nformat_version: 2.0\nname: meshy\nlinks:\n  - name: BASE\n    joint_type: fixed\n    elements:\n' +
      '      - type: Resource\n        uri: "parts/arm.stl"\n',
  );
  const warning =
    `${file}:9:14: warning: mesh ${mesh} is truncated: its header announces 2 triangles (184 bytes), the file has 154 bytes; ` +
    'referenced as given, but rviz will fail to load it (at links[0].elements[0].uri)';
  return { file, mesh, warning };
}

describe('the warning, located where the model names the mesh', () => {
  test('body-bridge check: a truncated STL Resource → the warning once (visual and collision are one reference), exit 0', async () => {
    const { file, warning } = truncatedStlModel('check-body');
    const r = await cli('check', file);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${warning}\n`);
    expect(r.stdout).toBe(`${file}: ok: 1 link, 0 joints, 0 devices, 1 warning\n`);
  });

  test('body-bridge check: a .wrl Inline whose url names a directory → the warning at the url field (line 4, column 18)', async () => {
    const folder = join(dir, 'check-wrl');
    mkdirSync(join(folder, 'parts', 'hand.dae'), { recursive: true });
    const file = join(folder, 'scene.wrl');
    writeFileSync(file, '#VRML V2.0 utf8\nTransform {\n  children [\n    Inline { url "parts/hand.dae" }\n  ]\n}\n');
    const r = await cli('check', file);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')).toContain(
      `${file}:4:18: warning: mesh ${join(folder, 'parts', 'hand.dae')} is a directory, not a file; referenced as given, but rviz will fail to load it (at /Transform/Inline.url)`,
    );
  });

  test('body-bridge urdf -o: a .wrl Inline naming a FIFO → warned, referenced where it is (not copied), no hang', async () => {
    const folder = join(dir, 'urdf-fifo');
    mkdirSync(join(folder, 'parts'), { recursive: true });
    const fifo = join(folder, 'parts', 'hand.stl');
    execFileSync('mkfifo', [fifo]);
    const file = join(folder, 'scene.wrl');
    writeFileSync(file, '#VRML V2.0 utf8\nTransform {\n  children [\n    Inline { url "parts/hand.stl" }\n  ]\n}\n');
    const r = await cli('urdf', file, '-o', join(folder, 'out', 'scene.urdf'));
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')).toContain(
      `${file}:4:18: warning: mesh ${fifo} is not a regular file; referenced as given, but rviz will fail to load it (at /Transform/Inline.url)`,
    );
    expect(r.stderr.split('\n').filter((l) => l.includes('cannot be copied beside the URDF'))).toHaveLength(1);
    expect(readFileSync(join(folder, 'out', 'scene.urdf'), 'utf8')).toContain('<mesh filename="../parts/hand.stl"/>');
  });

  test('body-bridge urdf: the same warning on stderr; the URDF is written and still references the mesh', async () => {
    const { file, mesh, warning } = truncatedStlModel('urdf-body');
    const r = await cli('urdf', file, '--mesh-dir', join(dir, 'urdf-body', 'generated'));
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes(mesh))).toEqual([warning]);
    expect(r.stdout).toContain(`<mesh filename="file://${mesh}"/>`);
  });

  test("the node: the loader's own warnings, located as `body-bridge check` prints them (file:line:column (at path))", async () => {
    // Tank's TankBody.body has repairs the loader makes (a scale list of 3 numbers for an Extrusion, ...).
    const file = join(corpusDir, 'choreonoid/share/model/Tank/Tank.body');
    const check = await cli('check', file);
    expect(check.code).toBe(0);
    const checked = check.stderr.split('\n').filter((l) => l.includes(': warning: '));
    expect(checked.length).toBeGreaterThan(0);
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: file, mesh_dir: join(dir, 'node-tank', 'generated'), publish_joint_states: false, watch_period: 0.5 },
    );
    const logged = transport.logs.filter((l) => l.level === 'warn' && !l.message.startsWith('URDF: ')).map((l) => l.message);
    for (const line of checked) expect(logged).toContain(line);
    for (const line of logged.filter((l) => l.includes(': warning: '))) expect(line).toMatch(/^\/\S+\.(body|wrl):\d+:\d+: warning: .+ \(at \S+\)$/);
    bridge.stop();
  });

  test('the node: logged once per load, located, and the model is served', () => {
    const { file, warning } = truncatedStlModel('node-body');
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: file, mesh_dir: join(dir, 'node-body', 'generated'), publish_joint_states: false, watch_period: 0.5 },
    );
    const meshWarnings = (): string[] => transport.logs.filter((l) => l.level === 'warn' && l.message.includes('arm.stl')).map((l) => l.message);
    expect(meshWarnings()).toEqual([`URDF: ${warning}`]);
    expect(bridge.served()?.model.name).toBe('meshy');
    transport.advance(2000);
    expect(meshWarnings()).toHaveLength(1);
    // An edit reloads the model: one more load, one more warning.
    writeFileSync(file, readFileSync(file, 'utf8').replace('name: meshy', 'name: meshy2'));
    utimesSync(file, 1_700_000_000, 1_700_000_100);
    transport.advance(1000);
    expect(bridge.served()?.model.name).toBe('meshy2');
    expect(meshWarnings()).toEqual([`URDF: ${warning}`, `URDF: ${warning}`]);
    bridge.stop();
  });
});

/** Whether every folder on the way to `dir` lets any user through (o+x). */
function reachableByAll(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (dirname(d) === d) return true;
  }
}
