// Geometry → indexed triangle mesh, for the shapes URDF cannot express as primitives (and for
// bounding boxes). Vertices live in flat typed arrays so large meshes cost no per-vertex objects.
// Every closed surface is wound counter-clockwise seen from outside (normals by the right-hand
// rule point out), the convention STL readers and rviz's back-face culling expect.
import type { Affine, Geometry, Vec3 } from './types.js';

export interface TriangleMesh {
  /** x, y, z per vertex. */
  positions: Float64Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
}

export interface TessellateOptions {
  /** Segments around round shapes (circles); rings of spheres and capsules use half as many. Default 32. */
  divisions?: number;
}

const DEFAULT_DIVISIONS = 32;

/** Growable vertex and index storage; doubling keeps appends amortised O(1). */
class MeshBuilder {
  private pos: Float64Array;
  private idx: Uint32Array;
  vertexCount = 0;
  indexCount = 0;

  constructor(vertices = 64, triangles = 64) {
    this.pos = new Float64Array(Math.max(3, vertices * 3));
    this.idx = new Uint32Array(Math.max(3, triangles * 3));
  }

  vertex(x: number, y: number, z: number): number {
    if (this.vertexCount * 3 + 3 > this.pos.length) {
      const next = new Float64Array(this.pos.length * 2);
      next.set(this.pos);
      this.pos = next;
    }
    const o = this.vertexCount * 3;
    this.pos[o] = x;
    this.pos[o + 1] = y;
    this.pos[o + 2] = z;
    return this.vertexCount++;
  }

  triangle(a: number, b: number, c: number): void {
    if (this.indexCount + 3 > this.idx.length) {
      const next = new Uint32Array(this.idx.length * 2);
      next.set(this.idx);
      this.idx = next;
    }
    this.idx[this.indexCount++] = a;
    this.idx[this.indexCount++] = b;
    this.idx[this.indexCount++] = c;
  }

  /** Quad a-b-c-d (counter-clockwise) as two triangles. */
  quad(a: number, b: number, c: number, d: number): void {
    this.triangle(a, b, c);
    this.triangle(a, c, d);
  }

  build(): TriangleMesh {
    return {
      positions: this.pos.slice(0, this.vertexCount * 3),
      indices: this.idx.slice(0, this.indexCount),
    };
  }
}

export const emptyMesh = (): TriangleMesh => ({ positions: new Float64Array(0), indices: new Uint32Array(0) });

export const triangleCount = (m: TriangleMesh): number => m.indices.length / 3;

/**
 * Triangulates a geometry in its own frame (Choreonoid's conventions: round shapes along +Y).
 * `meshFile` geometry has no vertices here and yields an empty mesh: URDF references those files.
 */
export function tessellate(geometry: Geometry, options: TessellateOptions = {}): TriangleMesh {
  const n = Math.max(3, Math.floor(options.divisions ?? DEFAULT_DIVISIONS));
  switch (geometry.kind) {
    case 'box':
      return box(geometry.size);
    case 'sphere':
      return capsule(geometry.radius, 0, n);
    case 'capsule':
      return capsule(geometry.radius, geometry.height, n);
    case 'cylinder':
      return cylinder(geometry.radius, geometry.height, n, geometry.top, geometry.bottom, geometry.side);
    case 'cone':
      return cone(geometry.radius, geometry.height, n, geometry.bottom, geometry.side);
    case 'extrusion':
      return extrusion(geometry);
    case 'elevationGrid':
      return elevationGrid(geometry);
    case 'mesh': {
      const mesh = polygonMesh(geometry.vertices, geometry.faces, geometry.ccw);
      // A closed mesh wound inward (ccw contradicting the vertex order) would show its back faces: turn it outward.
      if (signedVolume(mesh) < 0 && isClosed(mesh)) reverseWinding(mesh.indices);
      return mesh;
    }
    case 'meshFile':
      return emptyMesh();
  }
}

function box([sx, sy, sz]: Vec3): TriangleMesh {
  const b = new MeshBuilder(8, 12);
  const x = sx / 2, y = sy / 2, z = sz / 2;
  for (let i = 0; i < 8; i++) b.vertex(i & 1 ? x : -x, i & 2 ? y : -y, i & 4 ? z : -z);
  // Faces by corner bits (x=1, y=2, z=4), each counter-clockwise seen from outside.
  b.quad(0, 4, 6, 2); // -x
  b.quad(1, 3, 7, 5); // +x
  b.quad(0, 1, 5, 4); // -y
  b.quad(2, 6, 7, 3); // +y
  b.quad(0, 2, 3, 1); // -z
  b.quad(4, 5, 7, 6); // +z
  return b.build();
}

/** Ring of n vertices around +Y at height y; θ runs so that (ring k → k+1) × (+Y) points outward. */
function ring(b: MeshBuilder, radius: number, y: number, n: number): number {
  const first = b.vertexCount;
  for (let k = 0; k < n; k++) {
    const t = (2 * Math.PI * k) / n;
    b.vertex(radius * Math.cos(t), y, -radius * Math.sin(t));
  }
  return first;
}

/** Side band between two rings (lower first). */
function band(b: MeshBuilder, lower: number, upper: number, n: number): void {
  for (let k = 0; k < n; k++) {
    const k1 = (k + 1) % n;
    b.quad(lower + k, lower + k1, upper + k1, upper + k);
  }
}

/** Fan from a single vertex to a ring; `up` says whether the fan faces +Y. */
function fan(b: MeshBuilder, apex: number, ringStart: number, n: number, up: boolean): void {
  for (let k = 0; k < n; k++) {
    const k1 = (k + 1) % n;
    if (up) b.triangle(apex, ringStart + k, ringStart + k1);
    else b.triangle(apex, ringStart + k1, ringStart + k);
  }
}

/** Sphere (height 0) or capsule: two hemispheres joined by a cylinder of `height`. */
function capsule(radius: number, height: number, n: number): TriangleMesh {
  const rings = Math.max(2, Math.floor(n / 2));
  const half = rings % 2 === 0 ? rings / 2 : (rings + 1) / 2;
  const b = new MeshBuilder(n * (rings + 2) + 2, 2 * n * (rings + 2));
  const bottom = b.vertex(0, -height / 2 - radius, 0);
  let previous = -1;
  // Latitudes from the south pole to the equator, then (shifted by height) to the north pole.
  for (let i = 1; i <= half; i++) {
    const phi = -Math.PI / 2 + (Math.PI * i) / (2 * half);
    const r = ring(b, radius * Math.cos(phi), radius * Math.sin(phi) - height / 2, n);
    if (previous < 0) fan(b, bottom, r, n, false);
    else band(b, previous, r, n);
    previous = r;
  }
  for (let i = 0; i < half; i++) {
    const phi = (Math.PI * i) / (2 * half);
    if (i === 0 && height === 0) continue;
    const r = ring(b, radius * Math.cos(phi), radius * Math.sin(phi) + height / 2, n);
    band(b, previous, r, n);
    previous = r;
  }
  const top = b.vertex(0, height / 2 + radius, 0);
  fan(b, top, previous, n, true);
  return b.build();
}

function cylinder(radius: number, height: number, n: number, top: boolean, bottom: boolean, side: boolean): TriangleMesh {
  const b = new MeshBuilder(2 * n + 2, 4 * n);
  const lower = ring(b, radius, -height / 2, n);
  const upper = ring(b, radius, height / 2, n);
  if (side) band(b, lower, upper, n);
  if (bottom) fan(b, b.vertex(0, -height / 2, 0), lower, n, false);
  if (top) fan(b, b.vertex(0, height / 2, 0), upper, n, true);
  return b.build();
}

function cone(radius: number, height: number, n: number, bottom: boolean, side: boolean): TriangleMesh {
  const b = new MeshBuilder(n + 2, 2 * n);
  const lower = ring(b, radius, -height / 2, n);
  if (side) fan(b, b.vertex(0, height / 2, 0), lower, n, true);
  if (bottom) fan(b, b.vertex(0, -height / 2, 0), lower, n, false);
  return b.build();
}

const EPS = 1e-12;
const v3sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const v3cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const v3dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const v3len = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
const v3unit = (a: Vec3): Vec3 => {
  const l = v3len(a);
  return [a[0] / l, a[1] / l, a[2] / l];
};
const samePoint = (a: Vec3, b: Vec3): boolean => v3len(v3sub(a, b)) <= EPS;

/** Rotation (rows) about a unit axis by angle. */
function rotation(axis: Vec3, angle: number): [Vec3, Vec3, Vec3] {
  const l = v3len(axis);
  if (l === 0 || angle === 0) return [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const [x, y, z] = [axis[0] / l, axis[1] / l, axis[2] / l];
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  return [
    [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
    [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
    [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
  ];
}

/**
 * The spine-aligned cross-section planes of a VRML97 Extrusion (ISO/IEC 14772-1 §6.18): per spine
 * point the X, Y, Z axes (unit columns). Y follows the spine tangent, Z the local curvature normal,
 * flipped to stay consistent; collinear stretches borrow a neighbour's Z, and a fully collinear
 * spine rotates the default axes onto the spine direction.
 */
function spineFrames(spine: Vec3[]): { x: Vec3; y: Vec3; z: Vec3 }[] {
  const n = spine.length;
  const closed = n > 2 && samePoint(spine[0]!, spine[n - 1]!);
  const at = (i: number): Vec3 => spine[i]!;
  const ys: (Vec3 | null)[] = [];
  const zs: (Vec3 | null)[] = [];
  for (let i = 0; i < n; i++) {
    let y: Vec3;
    if (i === 0 || i === n - 1) {
      y = closed ? v3sub(at(1), at(n - 2)) : i === 0 ? v3sub(at(1), at(0)) : v3sub(at(n - 1), at(n - 2));
    } else {
      y = v3sub(at(i + 1), at(i - 1));
    }
    ys.push(v3len(y) > EPS ? v3unit(y) : null);
    let z: Vec3 | null = null;
    if (i > 0 && i < n - 1) z = v3cross(v3sub(at(i + 1), at(i)), v3sub(at(i - 1), at(i)));
    else if (closed) z = v3cross(v3sub(at(1), at(0)), v3sub(at(n - 2), at(0)));
    zs.push(z && v3len(z) > EPS ? v3unit(z) : null);
  }
  // Open spines: the end points take their neighbour's Z.
  if (!closed && n > 2) {
    zs[0] = zs[1] ?? null;
    zs[n - 1] = zs[n - 2] ?? null;
  }
  // Undefined tangents (coincident points) borrow a neighbour's.
  fillGaps(ys);
  const anyZ = zs.some((z) => z !== null);
  if (!anyZ) {
    // Collinear spine: rotate +Y onto the spine direction and apply the same rotation to +Z.
    const dir = ys.find((y) => y !== null) ?? ([0, 1, 0] as Vec3);
    const axis = v3cross([0, 1, 0], dir);
    const angle = Math.acos(Math.max(-1, Math.min(1, dir[1])));
    const r = v3len(axis) > EPS ? rotation(axis, angle) : dir[1] < 0 ? rotation([1, 0, 0], Math.PI) : rotation([1, 0, 0], 0);
    const z: Vec3 = [r[0][2], r[1][2], r[2][2]];
    return spine.map(() => {
      const y = dir;
      return { x: v3unit(v3cross(y, z)), y, z };
    });
  }
  fillGaps(zs);
  // Keep Z from flipping between consecutive points.
  for (let i = 1; i < n; i++) {
    const z = zs[i]!, prev = zs[i - 1]!;
    if (v3dot(z, prev) < 0) zs[i] = [-z[0], -z[1], -z[2]];
  }
  return spine.map((_, i) => {
    const y = ys[i] ?? ([0, 1, 0] as Vec3);
    const z = zs[i]!;
    const xRaw = v3cross(y, z);
    const x = v3len(xRaw) > EPS ? v3unit(xRaw) : ([1, 0, 0] as Vec3);
    return { x, y, z };
  });
}

/** Replaces nulls with the previous defined entry (or the next one at the start). */
function fillGaps(values: (Vec3 | null)[]): void {
  const firstDefined = values.find((v) => v !== null) ?? null;
  let last: Vec3 | null = firstDefined;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null) values[i] = last;
    else last = values[i]!;
  }
}

function extrusion(g: Extract<Geometry, { kind: 'extrusion' }>): TriangleMesh {
  const spine = g.spine;
  const cross = g.crossSection;
  if (spine.length < 2 || cross.length < 2) return emptyMesh();
  const frames = spineFrames(spine);
  const crossClosed = cross.length > 2 && cross[0]![0] === cross[cross.length - 1]![0] && cross[0]![1] === cross[cross.length - 1]![1];
  const spineClosed = spine.length > 2 && samePoint(spine[0]!, spine[spine.length - 1]!);
  const m = cross.length;
  const b = new MeshBuilder(spine.length * m + 2 * m, 2 * spine.length * m + 2 * m);
  // Cross-section j at spine point i is vertex i*m + j.
  for (let i = 0; i < spine.length; i++) {
    const f = frames[i]!;
    const s = g.scale[Math.min(i, g.scale.length - 1)] ?? [1, 1];
    const o = g.orientation[Math.min(i, g.orientation.length - 1)] ?? [0, 0, 1, 0];
    const r = rotation([o[0], o[1], o[2]], o[3]);
    const p = spine[i]!;
    for (let j = 0; j < m; j++) {
      const c = cross[j]!;
      const lx = c[0] * s[0], lz = c[1] * s[1];
      // Scale, then the orientation, then into the spine-aligned frame.
      const qx = r[0][0] * lx + r[0][2] * lz;
      const qy = r[1][0] * lx + r[1][2] * lz;
      const qz = r[2][0] * lx + r[2][2] * lz;
      b.vertex(
        p[0] + f.x[0] * qx + f.y[0] * qy + f.z[0] * qz,
        p[1] + f.x[1] * qx + f.y[1] * qy + f.z[1] * qz,
        p[2] + f.x[2] * qx + f.y[2] * qy + f.z[2] * qz,
      );
    }
  }
  const flip = !g.ccw;
  const tri = (a: number, c: number, d: number): void => (flip ? b.triangle(a, d, c) : b.triangle(a, c, d));
  for (let i = 0; i + 1 < spine.length; i++) {
    for (let j = 0; j + 1 < m; j++) {
      const a = i * m + j, bb = i * m + j + 1, c = (i + 1) * m + j + 1, d = (i + 1) * m + j;
      tri(a, bb, c);
      tri(a, c, d);
    }
  }
  // Caps exist only on open spines; a closed cross-section repeats its first point.
  const capped = !spineClosed && g.beginCap && g.endCap;
  if (!spineClosed) {
    const capCount = crossClosed ? m - 1 : m;
    const outline: [number, number][] = cross.slice(0, capCount);
    const triangles = triangulatePolygon2d(outline);
    const last = (spine.length - 1) * m;
    for (let t = 0; t < triangles.length; t += 3) {
      const a = triangles[t]!, c = triangles[t + 1]!, d = triangles[t + 2]!;
      // The cross-section as listed faces +Y of the spine frame: the end cap keeps that order, the begin cap reverses it.
      if (g.endCap) tri(last + a, last + c, last + d);
      if (g.beginCap) tri(a, d, c);
    }
  }
  const mesh = b.build();
  // Files list cross-sections in either turning sense with the default ccw TRUE (most of the corpus
  // runs clockwise seen from +Y). A closed solid is shown from outside, so face it outward whatever
  // the listing says; open surfaces keep the ccw rule.
  if (crossClosed && (capped || spineClosed) && signedVolume(mesh) < 0) reverseWinding(mesh.indices);
  return mesh;
}

/** Every edge shared by exactly two triangles, traversed once each way (a closed, consistently wound surface). */
export function isClosed(mesh: TriangleMesh): boolean {
  const ix = mesh.indices;
  const n = mesh.positions.length / 3;
  if (ix.length === 0 || n > 0x3ffffff) return false;
  // Directed edges a→b as a·n + b (exact below 2^53 for n < 2^26). Closed and consistently wound
  // exactly when no directed edge repeats and the sorted edges equal the sorted reversed edges.
  const forward = new Float64Array(ix.length);
  const reverse = new Float64Array(ix.length);
  for (let i = 0; i < ix.length; i += 3) {
    const a = ix[i]!, b = ix[i + 1]!, c = ix[i + 2]!;
    forward[i] = a * n + b;
    forward[i + 1] = b * n + c;
    forward[i + 2] = c * n + a;
    reverse[i] = b * n + a;
    reverse[i + 1] = c * n + b;
    reverse[i + 2] = a * n + c;
  }
  forward.sort();
  reverse.sort();
  for (let i = 0; i < forward.length; i++) {
    if (forward[i] !== reverse[i] || (i > 0 && forward[i] === forward[i - 1])) return false;
  }
  return true;
}

function reverseWinding(indices: Uint32Array): void {
  for (let i = 0; i < indices.length; i += 3) {
    const t = indices[i + 1]!;
    indices[i + 1] = indices[i + 2]!;
    indices[i + 2] = t;
  }
}

function elevationGrid(g: Extract<Geometry, { kind: 'elevationGrid' }>): TriangleMesh {
  const nx = g.xDimension, nz = g.zDimension;
  if (nx < 2 || nz < 2) return emptyMesh();
  const b = new MeshBuilder(nx * nz, 2 * (nx - 1) * (nz - 1));
  for (let j = 0; j < nz; j++) {
    for (let i = 0; i < nx; i++) b.vertex(i * g.xSpacing, g.height[i + j * nx] ?? 0, j * g.zSpacing);
  }
  for (let j = 0; j + 1 < nz; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const a = i + j * nx, bb = a + 1, c = a + 1 + nx, d = a + nx;
      // ccw TRUE: the surface faces +Y.
      if (g.ccw) {
        b.triangle(a, d, c);
        b.triangle(a, c, bb);
      } else {
        b.triangle(a, c, d);
        b.triangle(a, bb, c);
      }
    }
  }
  return b.build();
}

/** Polygons (index lists into vertices) → triangles; concave polygons by ear clipping in their best-fit plane. */
function polygonMesh(vertices: Vec3[], faces: number[][], ccw: boolean): TriangleMesh {
  let triangles = 0;
  for (const f of faces) if (f.length >= 3) triangles += f.length - 2;
  const b = new MeshBuilder(vertices.length, triangles);
  for (const v of vertices) b.vertex(v[0], v[1], v[2]);
  const count = vertices.length;
  const tri = (a: number, c: number, d: number): void => (ccw ? b.triangle(a, c, d) : b.triangle(a, d, c));
  for (const face of faces) {
    if (face.length < 3 || !validFace(face, count)) continue;
    if (face.length === 3) {
      tri(face[0]!, face[1]!, face[2]!);
      continue;
    }
    if (face.length === 4) {
      // Quads are the common case: split along the diagonal that separates the other two corners.
      const [a, bq, c, d] = face as [number, number, number, number];
      if (diagonalSeparates(vertices[a]!, vertices[c]!, vertices[bq]!, vertices[d]!)) {
        tri(a, bq, c);
        tri(a, c, d);
      } else {
        tri(bq, c, d);
        tri(bq, d, a);
      }
      continue;
    }
    const local = triangulatePolygon3d(face.map((i) => vertices[i]!));
    for (let t = 0; t < local.length; t += 3) tri(face[local[t]!]!, face[local[t + 1]!]!, face[local[t + 2]!]!);
  }
  return b.build();
}

function validFace(face: number[], count: number): boolean {
  for (let k = 0; k < face.length; k++) {
    const i = face[k]!;
    if (!(i >= 0 && i < count && Number.isInteger(i))) return false;
  }
  return true;
}

/** True when p and q lie on opposite sides of the line a–c (in their common plane): a–c is then a valid diagonal. */
function diagonalSeparates(a: Vec3, c: Vec3, p: Vec3, q: Vec3): boolean {
  const ux = c[0] - a[0], uy = c[1] - a[1], uz = c[2] - a[2];
  const px = p[0] - a[0], py = p[1] - a[1], pz = p[2] - a[2];
  const qx = q[0] - a[0], qy = q[1] - a[1], qz = q[2] - a[2];
  const n1x = uy * pz - uz * py, n1y = uz * px - ux * pz, n1z = ux * py - uy * px;
  const n2x = uy * qz - uz * qy, n2y = uz * qx - ux * qz, n2z = ux * qy - uy * qx;
  return n1x * n2x + n1y * n2y + n1z * n2z <= 0;
}

/** Projects a 3D polygon onto the plane its Newell normal is most aligned with, then ear-clips it. */
export function triangulatePolygon3d(points: Vec3[]): number[] {
  let nx = 0, ny = 0, nz = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!, c = points[(i + 1) % points.length]!;
    nx += (a[1] - c[1]) * (a[2] + c[2]);
    ny += (a[2] - c[2]) * (a[0] + c[0]);
    nz += (a[0] - c[0]) * (a[1] + c[1]);
  }
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  // Drop the dominant axis; keep the other two in an order that preserves orientation.
  const flat: [number, number][] =
    az >= ax && az >= ay
      ? points.map((p) => [p[0], p[1]])
      : ax >= ay
        ? points.map((p) => [p[1], p[2]])
        : points.map((p) => [p[2], p[0]]);
  return triangulatePolygon2d(flat);
}

/**
 * Ear clipping of a simple polygon. Returns index triples into `points` in the polygon's own
 * winding. Degenerate or self-intersecting input falls back to a fan over what is left, so every
 * polygon yields n − 2 triangles.
 */
export function triangulatePolygon2d(points: [number, number][]): number[] {
  const n = points.length;
  if (n < 3) return [];
  if (n === 3) return [0, 1, 2];
  let area = 0;
  for (let i = 0; i < n; i++) {
    const a = points[i]!, c = points[(i + 1) % n]!;
    area += a[0] * c[1] - c[0] * a[1];
  }
  const sign = area >= 0 ? 1 : -1;
  const remaining = Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  const cross2 = (o: number, a: number, c: number): number => {
    const po = points[o]!, pa = points[a]!, pc = points[c]!;
    return (pa[0] - po[0]) * (pc[1] - po[1]) - (pa[1] - po[1]) * (pc[0] - po[0]);
  };
  const inside = (p: number, a: number, c: number, d: number): boolean =>
    sign * cross2(a, c, p) >= 0 && sign * cross2(c, d, p) >= 0 && sign * cross2(d, a, p) >= 0;
  let guard = 0;
  while (remaining.length > 3 && guard < n * n) {
    guard++;
    let clipped = false;
    for (let k = 0; k < remaining.length; k++) {
      const a = remaining[(k + remaining.length - 1) % remaining.length]!;
      const c = remaining[k]!;
      const d = remaining[(k + 1) % remaining.length]!;
      if (sign * cross2(a, c, d) <= 0) continue;
      let blocked = false;
      for (const p of remaining) {
        if (p === a || p === c || p === d) continue;
        const pp = points[p]!;
        const same = (q: number): boolean => points[q]![0] === pp[0] && points[q]![1] === pp[1];
        if (!same(a) && !same(c) && !same(d) && inside(p, a, c, d)) {
          blocked = true;
          break;
        }
      }
      if (blocked) continue;
      out.push(a, c, d);
      remaining.splice(k, 1);
      clipped = true;
      break;
    }
    if (!clipped) break;
  }
  for (let k = 1; k + 1 < remaining.length; k++) out.push(remaining[0]!, remaining[k]!, remaining[k + 1]!);
  return out;
}

/** Applies an affine transform to every vertex; a mirroring transform reverses the winding to keep faces outward. */
export function transformMesh(mesh: TriangleMesh, t: Affine): TriangleMesh {
  const [r0, r1, r2] = t.linear;
  const [tx, ty, tz] = t.translation;
  const src = mesh.positions;
  const positions = new Float64Array(src.length);
  for (let i = 0; i < src.length; i += 3) {
    const x = src[i]!, y = src[i + 1]!, z = src[i + 2]!;
    positions[i] = r0[0] * x + r0[1] * y + r0[2] * z + tx;
    positions[i + 1] = r1[0] * x + r1[1] * y + r1[2] * z + ty;
    positions[i + 2] = r2[0] * x + r2[1] * y + r2[2] * z + tz;
  }
  const det = v3dot(r0, v3cross(r1, r2));
  let indices = mesh.indices;
  if (det < 0) {
    indices = new Uint32Array(mesh.indices.length);
    for (let i = 0; i < indices.length; i += 3) {
      indices[i] = mesh.indices[i]!;
      indices[i + 1] = mesh.indices[i + 2]!;
      indices[i + 2] = mesh.indices[i + 1]!;
    }
  }
  return { positions, indices };
}

/** Axis-aligned bounds of the vertices that triangles use; null for a mesh without triangles. */
/** Signed volume enclosed by the triangles (positive when the surface is closed and faces outward). */
export function signedVolume(mesh: TriangleMesh): number {
  const p = mesh.positions, ix = mesh.indices;
  let v = 0;
  for (let i = 0; i < ix.length; i += 3) {
    const a = ix[i]! * 3, b = ix[i + 1]! * 3, c = ix[i + 2]! * 3;
    v +=
      p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) -
      p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) +
      p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  return v / 6;
}
