// Tessellation against closed-form geometry (volumes, bounds, orientation) and the STL writer
// against its byte layout.
import { describe, expect, it } from 'vitest';
import {
  isClosed,
  signedVolume,
  tessellate,
  transformMesh,
  triangleCount,
  triangulatePolygon2d,
  type TriangleMesh,
} from '../src/model/tessellate.js';
import { meshBounds } from './support/mesh-bounds.js';
import type { Geometry, Vec3 } from '../src/model/types.js';
import { fromBinaryStl, readStl, toBinaryStl } from '../src/urdf/stl.js';

const n = 32;
/** Inscribed polygons lose area: a regular n-gon has (n/2π)·sin(2π/n) of the circle's area. */
const polygonFactor = (n / (2 * Math.PI)) * Math.sin((2 * Math.PI) / n);

function normals(m: TriangleMesh): Vec3[] {
  const out: Vec3[] = [];
  const p = m.positions;
  for (let i = 0; i < m.indices.length; i += 3) {
    const a = m.indices[i]! * 3, b = m.indices[i + 1]! * 3, c = m.indices[i + 2]! * 3;
    const u = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const v = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    out.push([u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!]);
  }
  return out;
}

const area = (m: TriangleMesh): number => normals(m).reduce((s, v) => s + Math.hypot(...v) / 2, 0);

const extrusion = (over: Partial<Extract<Geometry, { kind: 'extrusion' }>> = {}): Geometry => ({
  kind: 'extrusion',
  crossSection: [[1, 1], [1, -1], [-1, -1], [-1, 1], [1, 1]],
  spine: [[0, 0, 0], [0, 1, 0]],
  scale: [[1, 1]],
  orientation: [[0, 0, 1, 0]],
  beginCap: true,
  endCap: true,
  ccw: true,
  convex: true,
  creaseAngle: 0,
  ...over,
});

describe('primitives', () => {
  it('box: exact volume and bounds, faces outward', () => {
    const m = tessellate({ kind: 'box', size: [1, 2, 3] });
    expect(triangleCount(m)).toBe(12);
    expect(signedVolume(m)).toBeCloseTo(6, 12);
    expect(meshBounds(m)).toEqual({ min: [-0.5, -1, -1.5], max: [0.5, 1, 1.5] });
  });

  it('sphere: poles on the axis, volume of the inscribed polyhedron, outward', () => {
    const r = 0.7;
    const m = tessellate({ kind: 'sphere', radius: r }, { divisions: n });
    const b = meshBounds(m)!;
    expect(b.min[1]).toBeCloseTo(-r, 12);
    expect(b.max[1]).toBeCloseTo(r, 12);
    expect(b.max[0]).toBeCloseTo(r, 12);
    const exact = (4 / 3) * Math.PI * r ** 3;
    const v = signedVolume(m);
    expect(v).toBeGreaterThan(0.97 * exact);
    expect(v).toBeLessThan(exact);
  });

  it('capsule: cylinder part plus two hemispheres along +Y', () => {
    const r = 0.2, h = 0.5;
    const m = tessellate({ kind: 'capsule', radius: r, height: h }, { divisions: n });
    const b = meshBounds(m)!;
    expect(b.min[1]).toBeCloseTo(-(h / 2 + r), 12);
    expect(b.max[1]).toBeCloseTo(h / 2 + r, 12);
    const exact = Math.PI * r * r * h + (4 / 3) * Math.PI * r ** 3;
    const v = signedVolume(m);
    expect(v).toBeGreaterThan(0.97 * exact);
    expect(v).toBeLessThan(exact);
  });

  it('cylinder: n-gon prism volume; missing caps and side are left out', () => {
    const r = 0.3, h = 2;
    const m = tessellate({ kind: 'cylinder', radius: r, height: h, top: true, bottom: true, side: true }, { divisions: n });
    expect(signedVolume(m)).toBeCloseTo(Math.PI * r * r * h * polygonFactor, 10);
    expect(meshBounds(m)).toMatchObject({ min: [-r, -1, expect.any(Number)], max: [r, 1, expect.any(Number)] });
    expect(triangleCount(tessellate({ kind: 'cylinder', radius: r, height: h, top: false, bottom: true, side: true }, { divisions: n }))).toBe(3 * n);
    expect(triangleCount(tessellate({ kind: 'cylinder', radius: r, height: h, top: true, bottom: true, side: false }, { divisions: n }))).toBe(2 * n);
  });

  it('cone: apex at +height/2, pyramid volume', () => {
    const r = 0.3, h = 1;
    const m = tessellate({ kind: 'cone', radius: r, height: h, bottom: true, side: true }, { divisions: n });
    expect(signedVolume(m)).toBeCloseTo((Math.PI * r * r * h * polygonFactor) / 3, 10);
    expect(meshBounds(m)!.max[1]).toBe(0.5);
    expect(meshBounds(m)!.min[1]).toBe(-0.5);
  });
});

describe('Extrusion (VRML97 §6.18)', () => {
  it('the default extrusion is a 2 × 1 × 2 box facing outward', () => {
    const m = tessellate(extrusion());
    expect(signedVolume(m)).toBeCloseTo(4, 12);
    const b = meshBounds(m)!;
    b.min.forEach((x, i) => expect(x).toBeCloseTo([-1, 0, -1][i]!, 12));
    b.max.forEach((x, i) => expect(x).toBeCloseTo([1, 1, 1][i]!, 12));
  });

  it('an open tube follows ccw (FALSE reverses the faces); a closed solid faces outward whatever the turning sense', () => {
    const tube = tessellate(extrusion({ beginCap: false, endCap: false }));
    expect(triangleCount(tube)).toBe(8);
    expect(triangleCount(tessellate(extrusion({ beginCap: false })))).toBe(10);
    // The x = 1 side of the default square tube faces +x, or −x with ccw FALSE.
    const xSide = (m: TriangleMesh): number[] => normals(m).filter((_, t) => m.positions[m.indices[t * 3]! * 3] === 1 && m.positions[m.indices[t * 3 + 1]! * 3] === 1 && m.positions[m.indices[t * 3 + 2]! * 3] === 1).map((nrm) => Math.sign(nrm[0]));
    expect(xSide(tube)).toEqual([1, 1]);
    expect(xSide(tessellate(extrusion({ beginCap: false, endCap: false, ccw: false })))).toEqual([-1, -1]);
    expect(signedVolume(tessellate(extrusion({ ccw: false })))).toBeCloseTo(4, 12);
    // SimpleTank's track outline runs clockwise seen from +Y.
    const track = tessellate(extrusion({ crossSection: [[-0.22, -0.1], [0.22, -0.1], [0.34, 0.06], [-0.34, 0.06], [-0.22, -0.1]], spine: [[0, -0.05, 0], [0, 0.05, 0]] }));
    expect(signedVolume(track)).toBeCloseTo(0.1 * 0.16 * (0.44 + 0.68) / 2, 12);
  });

  it('scale per spine point makes a frustum; one orientation applies to every point', () => {
    expect(signedVolume(tessellate(extrusion({ scale: [[1, 1], [0.5, 0.5]] })))).toBeCloseTo(7 / 3, 12);
    const turned = tessellate(extrusion({ orientation: [[0, 1, 0, Math.PI / 4]] }));
    expect(signedVolume(turned)).toBeCloseTo(4, 12);
    expect(meshBounds(turned)!.max[0]).toBeCloseTo(Math.SQRT2, 12);
  });

  it('a straight spine along +X turns +Y onto the spine (collinear rule)', () => {
    const m = tessellate(extrusion({ spine: [[0, 0, 0], [1, 0, 0], [3, 0, 0]] }));
    expect(signedVolume(m)).toBeCloseTo(12, 12);
    const b = meshBounds(m)!;
    expect(b.min[0]).toBeCloseTo(0, 12);
    expect(b.max[0]).toBeCloseTo(3, 12);
    expect(b.max[1]).toBeCloseTo(1, 12);
    expect(b.max[2]).toBeCloseTo(1, 12);
  });

  it('a concave cross-section is capped correctly (volume = area × length)', () => {
    const L: [number, number][] = [[0, 0], [0, 2], [1, 2], [1, 1], [2, 1], [2, 0], [0, 0]];
    // This outline runs clockwise seen from +Y (x right, z down the page), the way VRML expects for ccw TRUE.
    const m = tessellate(extrusion({ crossSection: L, spine: [[0, 0, 0], [0, 2, 0]], convex: false }));
    expect(Math.abs(signedVolume(m))).toBeCloseTo(6, 12);
  });

  it('a closed circular spine sweeps a torus (Pappus: 2π²Rr²) without caps', () => {
    const R = 2, r = 0.25, k = 64;
    const spine: Vec3[] = Array.from({ length: k + 1 }, (_, i) => [R * Math.cos((2 * Math.PI * i) / k), 0, R * Math.sin((2 * Math.PI * i) / k)]);
    const cross: [number, number][] = Array.from({ length: k + 1 }, (_, i) => [r * Math.cos((-2 * Math.PI * i) / k), r * Math.sin((-2 * Math.PI * i) / k)]);
    const m = tessellate(extrusion({ spine, crossSection: cross }));
    expect(triangleCount(m)).toBe(2 * k * k);
    const exact = 2 * Math.PI ** 2 * R * r * r;
    expect(Math.abs(signedVolume(m))).toBeGreaterThan(0.99 * exact);
    expect(Math.abs(signedVolume(m))).toBeLessThan(1.001 * exact);
    const b = meshBounds(m)!;
    expect(b.max[1]).toBeCloseTo(r, 3);
    expect(b.max[0]).toBeCloseTo(R + r, 3);
  });
});

describe('ElevationGrid and IndexedFaceSet', () => {
  it('elevation grid: vertices on the grid, faces up for ccw TRUE', () => {
    const m = tessellate({ kind: 'elevationGrid', xDimension: 3, zDimension: 2, xSpacing: 0.5, zSpacing: 2, height: [0, 1, 0, 0.5, 2, 0.5], ccw: true, creaseAngle: 0 });
    expect(triangleCount(m)).toBe(4);
    expect(meshBounds(m)).toEqual({ min: [0, 0, 0], max: [1, 2, 2] });
    for (const nrm of normals(m)) expect(nrm[1]).toBeGreaterThan(0);
    const down = tessellate({ kind: 'elevationGrid', xDimension: 3, zDimension: 2, xSpacing: 0.5, zSpacing: 2, height: [0, 1, 0, 0.5, 2, 0.5], ccw: false, creaseAngle: 0 });
    for (const nrm of normals(down)) expect(nrm[1]).toBeLessThan(0);
  });

  it('face set: quads and a concave polygon triangulate to the same area; ccw FALSE flips', () => {
    const cube: Geometry = {
      kind: 'mesh',
      vertices: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
      faces: [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [0, 4, 7, 3], [1, 2, 6, 5]],
      ccw: true,
      creaseAngle: 0,
    };
    expect(signedVolume(tessellate(cube))).toBeCloseTo(1, 12);
    expect(isClosed(tessellate(cube))).toBe(true);
    // A closed surface is turned outward even when ccw says otherwise; an open one follows ccw.
    expect(signedVolume(tessellate({ ...cube, ccw: false }))).toBeCloseTo(1, 12);
    const box = (ccw: boolean) => tessellate({ ...cube, faces: cube.faces.slice(1), ccw });
    expect(isClosed(box(true))).toBe(false);
    expect(normals(box(true)).map((n) => n[2]).filter((z) => z !== 0)).toEqual([1, 1]);
    expect(normals(box(false)).map((n) => n[2]).filter((z) => z !== 0)).toEqual([-1, -1]);
    // A concave "U" in a tilted plane: 5 units of area.
    const u: Vec3[] = [[0, 0, 0], [3, 0, 0], [3, 2, 2], [2, 2, 2], [2, 1, 1], [1, 1, 1], [1, 2, 2], [0, 2, 2]];
    const m = tessellate({ kind: 'mesh', vertices: u, faces: [[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 99]], ccw: true, creaseAngle: 0 });
    expect(triangleCount(m)).toBe(6);
    expect(area(m)).toBeCloseTo(5 * Math.SQRT2, 12);
    for (const nrm of normals(m)) expect(Math.sign(nrm[2]) * Math.sign(normals(m)[0]![2])).toBe(1);
  });

  it('a concave quad is split along its inner diagonal', () => {
    // Dart: corner 2 is reflex, so the diagonal 0-2 lies inside and 1-3 would leave the quad.
    for (const faces of [[[0, 1, 2, 3]], [[1, 2, 3, 0]]]) {
      const m = tessellate({ kind: 'mesh', vertices: [[0, 0, 0], [2, 1, 0], [0.5, 0.5, 0], [1, 2, 0]], faces, ccw: true, creaseAngle: 0 });
      expect(area(m)).toBeCloseTo(0.5, 12); // shoelace area of the dart
      for (const nrm of normals(m)) expect(nrm[2]).toBeGreaterThan(0);
    }
  });

  it('ear clipping keeps the polygon area for concave outlines in either winding', () => {
    const outline: [number, number][] = [[0, 0], [4, 0], [4, 4], [3, 4], [3, 1], [1, 1], [1, 4], [0, 4]];
    for (const poly of [outline, [...outline].reverse()]) {
      const t = triangulatePolygon2d(poly);
      expect(t.length).toBe(3 * (poly.length - 2));
      let total = 0;
      for (let i = 0; i < t.length; i += 3) {
        const [a, b, c] = [poly[t[i]!]!, poly[t[i + 1]!]!, poly[t[i + 2]!]!];
        total += Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
      }
      expect(total).toBeCloseTo(10, 12);
    }
  });
});

describe('transforms', () => {
  it('a mirroring transform keeps faces outward; volume scales by |det|', () => {
    const m = tessellate({ kind: 'box', size: [1, 1, 1] });
    const mirrored = transformMesh(m, { linear: [[-2, 0, 0], [0, 1, 0], [0, 0, 3]], translation: [1, 2, 3] });
    expect(signedVolume(mirrored)).toBeCloseTo(6, 12);
    expect(meshBounds(mirrored)).toEqual({ min: [0, 1.5, 1.5], max: [2, 2.5, 4.5] });
  });
});

describe('binary STL', () => {
  it('has the documented layout and reads back in single precision', () => {
    const m = tessellate({ kind: 'sphere', radius: 0.1 }, { divisions: 8 });
    const bytes = toBinaryStl(m);
    const count = triangleCount(m);
    expect(bytes.length).toBe(84 + 50 * count);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).not.toBe('solid');
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(80, true)).toBe(count);
    const back = fromBinaryStl(bytes);
    expect(triangleCount(back)).toBe(count);
    for (let t = 0; t < count; t++) {
      for (let k = 0; k < 3; k++) {
        const src = m.indices[t * 3 + k]! * 3;
        for (let c = 0; c < 3; c++) expect(back.positions[t * 9 + k * 3 + c]).toBe(Math.fround(m.positions[src + c]!));
      }
      // The facet normal is the unit right-hand normal.
      const nx = view.getFloat32(84 + t * 50, true), ny = view.getFloat32(88 + t * 50, true), nz = view.getFloat32(92 + t * 50, true);
      expect(Math.hypot(nx, ny, nz)).toBeCloseTo(1, 6);
    }
    expect(signedVolume(back)).toBeCloseTo(signedVolume(m), 6);
  });

  it('reads ASCII STL too', () => {
    const ascii = 'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n';
    const m = readStl(new TextEncoder().encode(ascii));
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  });
});
