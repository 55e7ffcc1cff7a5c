// loadVrmlShapes on the corpus VRML mesh files (what .body Resource nodes pull in), checked against
// Choreonoid's own bounding boxes and independent counts, and a synthetic 100k-triangle model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { composeAffine, transformPoint } from '../src/model/math.js';
import type { Affine, Shape, Vec3 } from '../src/model/types.js';
import { loadVrmlModel, loadVrmlShapes } from '../src/vrml/index.js';
import { corpusDir, oracleEntries } from './support/oracle.js';
import { openHrpProtos, writeModel } from './support/vrml-models.js';

/** Axis-aligned box of mesh shapes (every vertex through its shape's transform, then `place`). */
function meshBounds(shapes: Shape[], place: Affine, into = { min: [Infinity, Infinity, Infinity] as Vec3, max: [-Infinity, -Infinity, -Infinity] as Vec3 }) {
  for (const s of shapes) {
    if (s.geometry.kind !== 'mesh') throw new Error(`expected meshes only, got ${s.geometry.kind}`);
    const T = composeAffine(place, s.transform);
    for (const v of s.geometry.vertices) {
      const p = transformPoint(T, v);
      for (let i = 0; i < 3; i++) {
        into.min[i] = Math.min(into.min[i]!, p[i]!);
        into.max[i] = Math.max(into.max[i]!, p[i]!);
      }
    }
  }
  return into;
}

const shift = (x: number, y: number, z: number): Affine => ({ linear: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [x, y, z] });

describe('corpus VRML mesh resources', () => {
  const tank = join(corpusDir, 'choreonoid/share/model/Tank/resource/tank.wrl');

  test('Tank: node-selected parts placed as Tank.body places them give Choreonoid\'s TRACK_L visual box', () => {
    // Tank.body's TRACK_L Visual: CRAWLER_L, INNER_PLATE_L at y −0.06, OUTER_PLATE_L at y +0.045, and
    // the wheel RigidBodies at x = 0.25, 0, −0.25 (each a `node:` of tank.wrl).
    const parts: [string, Affine][] = [
      ['CRAWLER_L', shift(0, 0, 0)],
      ['INNER_PLATE_L', shift(0, -0.06, 0)],
      ['OUTER_PLATE_L', shift(0, 0.045, 0)],
      ['WHEEL_L0', shift(0.25, 0, 0)],
      ['WHEEL_L1', shift(0, 0, 0)],
      ['WHEEL_L2', shift(-0.25, 0, 0)],
    ];
    let box: ReturnType<typeof meshBounds> | undefined;
    for (const [node, place] of parts) box = meshBounds(loadVrmlShapes(tank, {}, node), place, box);
    const [oracle] = oracleEntries((f) => f === 'choreonoid/share/model/Tank/Tank.body');
    const expected = oracle!.oracle.links.find((l) => l.name === 'TRACK_L')!.visual_bbox!;
    // Choreonoid keeps mesh coordinates in single precision.
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(box!.min[i]! - expected.min[i]!)).toBeLessThan(1e-6);
      expect(Math.abs(box!.max[i]! - expected.max[i]!)).toBeLessThan(1e-6);
    }
  });

  test('Tank: the whole file has one mesh shape per IndexedFaceSet', () => {
    const text = readFileSync(tank, 'utf8');
    const shapes = loadVrmlShapes(tank, {});
    expect(shapes.every((s) => s.geometry.kind === 'mesh')).toBe(true);
    expect(shapes).toHaveLength(text.match(/\bIndexedFaceSet\b/g)!.length);
  });

  test.each([
    'openhrp3/sample/model/RH2/parts/body/body.wrl',
    'openhrp3/sample/model/RoboStationShape.wrl',
    'choreonoid/share/model/RIC30/parts/WAIST.wrl',
    'openhrp3/sample/model/PA10/j1.wrl',
  ])('%s: shapes and faces match an independent count of the file', (file) => {
    const text = readFileSync(join(corpusDir, file), 'utf8');
    // Only files without USE/PROTO/Switch: there every IndexedFaceSet written is one shape.
    expect(/\b(USE|PROTO|Switch|Inline)\b/.test(text)).toBe(false);
    const shapes = loadVrmlShapes(join(corpusDir, file), {});
    expect(shapes.filter((s) => s.geometry.kind === 'mesh')).toHaveLength(text.match(/\bIndexedFaceSet\b/g)?.length ?? 0);
    expect(shapes.filter((s) => s.geometry.kind === 'box')).toHaveLength(text.match(/\bBox\s*\{/g)?.length ?? 0);
    expect(shapes.filter((s) => s.geometry.kind === 'cylinder')).toHaveLength(text.match(/\bCylinder\s*\{/g)?.length ?? 0);
  });
});

describe('a synthetic 100k-triangle model', () => {
  test('loads with every triangle and exact coordinates', () => {
    const n = 225; // 225 × 225 vertices, 2 · 224² = 100 352 triangles
    const coord = (i: number, j: number): [string, string, string] => [(i * 0.01).toFixed(6), (j * 0.01).toFixed(6), Math.sin(i * 0.1 + j * 0.07).toFixed(7)];
    const points: string[] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) points.push(coord(i, j).join(' '));
    const index: string[] = [];
    for (let i = 0; i < n - 1; i++) {
      for (let j = 0; j < n - 1; j++) {
        const a = i * n + j;
        index.push(`${a} ${a + n} ${a + 1} -1`, `${a + 1} ${a + n} ${a + n + 1} -1`);
      }
    }
    const text = `${openHrpProtos()}
DEF BIG Humanoid { humanoidBody DEF BASE Joint { jointType "fixed" children DEF SKIN Segment { mass 1 children Shape {
  geometry IndexedFaceSet { coord Coordinate { point [ ${points.join(',\n')} ] }
  coordIndex [ ${index.join('\n')} ] } } } } }`;
    const file = writeModel(text, 'big.wrl');
    const started = performance.now();
    const model = loadVrmlModel(file);
    const elapsed = performance.now() - started;
    console.log(`100352-triangle model (${(text.length / 1e6).toFixed(1)} MB): ${elapsed.toFixed(0)} ms`);
    const geometry = model.links[0]!.visuals[0]!.geometry;
    if (geometry.kind !== 'mesh') throw new Error('expected a mesh');
    expect(geometry.faces).toHaveLength(2 * (n - 1) * (n - 1));
    expect(geometry.vertices).toHaveLength(n * n);
    for (const [i, j] of [[0, 0], [17, 203], [224, 224]] as const) {
      expect(geometry.vertices[i * n + j]).toEqual(coord(i, j).map(Number));
    }
    expect(geometry.faces[1]).toEqual([1, n, n + 1]);
    // Generous: the bench measures the speed; this only catches a pathological slowdown.
    expect(elapsed).toBeLessThan(10_000);
  });
});
