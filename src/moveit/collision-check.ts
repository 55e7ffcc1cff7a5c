// Whether two links' collision geometries touch at given link poses, with the semantics MoveIt gets
// from FCL: primitives are solids, meshes are surfaces (a mesh wholly inside another mesh does not
// collide, a mesh wholly inside a primitive does). Triangle-triangle tests run on three-mesh-bvh's
// bounding volume hierarchies; the solid part is an exact point-in-primitive test.
import { BufferAttribute, BufferGeometry, Matrix4 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { Pose } from '../model/types.js';
import { type CollisionShape, type LinkGeometry, type Primitive, insidePrimitive } from '../urdf/collision-geometry.js';

interface PreparedShape {
  primitive: Primitive | null;
  /** Shape frame in the link frame. */
  local: Matrix4;
  geometry: BufferGeometry;
  bvh: MeshBVH;
  /** Bounds in the shape frame: min x, y, z, max x, y, z. */
  bounds: Float64Array;
  /** One vertex of each connected piece of the surface: if surfaces do not cross, a piece is wholly in or out. */
  representatives: Float64Array;
}

/** Metres; far above float32 rounding at robot sizes, far below any link. */
const BOUNDS_PADDING = 1e-5;

export interface PreparedLink {
  link: string;
  shapes: PreparedShape[];
}

/** One vertex per connected component (union-find over triangle edges). */
function componentRepresentatives(positions: Float64Array, indices: Uint32Array): Float64Array {
  const n = positions.length / 3;
  const parent = new Int32Array(n).map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (let t = 0; t < indices.length; t += 3) {
    const a = find(indices[t]!), b = find(indices[t + 1]!), c = find(indices[t + 2]!);
    parent[b] = a;
    parent[find(c)] = a;
  }
  const used = new Uint8Array(n);
  for (const i of indices) used[i] = 1;
  const roots = new Set<number>();
  for (let i = 0; i < n; i++) if (used[i]) roots.add(find(i));
  const out = new Float64Array(roots.size * 3);
  let k = 0;
  for (const r of roots) {
    out[k++] = positions[r * 3]!;
    out[k++] = positions[r * 3 + 1]!;
    out[k++] = positions[r * 3 + 2]!;
  }
  return out;
}

export const poseMatrix = (p: Pose, out = new Matrix4()): Matrix4 => {
  const [r0, r1, r2] = p.rotation;
  const [x, y, z] = p.translation;
  return out.set(r0[0], r0[1], r0[2], x, r1[0], r1[1], r1[2], y, r2[0], r2[1], r2[2], z, 0, 0, 0, 1);
};

function prepareShape(s: CollisionShape): PreparedShape {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(s.mesh.positions), 3));
  geometry.setIndex(new BufferAttribute(new Uint32Array(s.mesh.indices), 1));
  const bvh = new MeshBVH(geometry);
  // intersectsGeometry walks the other geometry's own tree when it has one.
  (geometry as BufferGeometry & { boundsTree?: MeshBVH }).boundsTree = bvh;
  const bounds = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (const i of s.mesh.indices) {
    for (let k = 0; k < 3; k++) {
      const v = s.mesh.positions[i * 3 + k]!;
      if (v < bounds[k]!) bounds[k] = v;
      if (v > bounds[k + 3]!) bounds[k + 3] = v;
    }
  }
  // The boxes only decide which pairs reach the exact test: padded beyond the float32 rounding of the
  // BVH's vertices and of the transforms, so surfaces that touch exactly are still tested.
  for (let k = 0; k < 3; k++) {
    bounds[k] = bounds[k]! - BOUNDS_PADDING;
    bounds[k + 3] = bounds[k + 3]! + BOUNDS_PADDING;
  }
  return {
    primitive: s.primitive,
    local: poseMatrix(s.pose),
    geometry,
    bvh,
    bounds,
    representatives: componentRepresentatives(s.mesh.positions, s.mesh.indices),
  };
}

export function prepareLinks(geometries: readonly LinkGeometry[]): PreparedLink[] {
  return geometries.map((g) => ({ link: g.link, shapes: g.shapes.map(prepareShape) }));
}

/** World bounds (min xyz, max xyz) of a shape at world matrix m: the eight corners of its local box, transformed. */
function worldBounds(b: Float64Array, m: Matrix4, out: Float64Array, offset: number): void {
  const e = m.elements;
  for (let k = 0; k < 3; k++) {
    // Column-major: row k of the rotation is e[k], e[k+4], e[k+8]; translation e[k+12].
    let lo = e[k + 12]!, hi = e[k + 12]!;
    for (let j = 0; j < 3; j++) {
      const r = e[k + 4 * j]!;
      const a = r * b[j]!, c = r * b[j + 3]!;
      lo += Math.min(a, c);
      hi += Math.max(a, c);
    }
    out[offset + k] = lo;
    out[offset + k + 3] = hi;
  }
}

const overlaps = (a: Float64Array, i: number, b: Float64Array, j: number): boolean =>
  a[i]! <= b[j + 3]! && b[j]! <= a[i + 3]! && a[i + 1]! <= b[j + 4]! && b[j + 1]! <= a[i + 4]! && a[i + 2]! <= b[j + 5]! && b[j + 2]! <= a[i + 5]!;

/** Whether any representative point of `inner` (shape frame; matrix to the primitive's frame given) lies in `p`. */
function pieceInside(p: Primitive, inner: PreparedShape, toPrimitive: Matrix4): boolean {
  const e = toPrimitive.elements;
  const r = inner.representatives;
  for (let i = 0; i < r.length; i += 3) {
    const x = r[i]!, y = r[i + 1]!, z = r[i + 2]!;
    if (insidePrimitive(p, e[0]! * x + e[4]! * y + e[8]! * z + e[12]!, e[1]! * x + e[5]! * y + e[9]! * z + e[13]!, e[2]! * x + e[6]! * y + e[10]! * z + e[14]!)) return true;
  }
  return false;
}

/** Scratch space for one robot's checks: world matrices and bounds of every shape, reused across samples. */
export interface CollisionScene {
  links: PreparedLink[];
  /** Per link: world matrix per shape. */
  world: Matrix4[][];
  /** Per link: world bounds per shape (6 numbers each) and of the whole link (first 6). */
  bounds: Float64Array[];
}

export function collisionScene(links: PreparedLink[]): CollisionScene {
  return {
    links,
    world: links.map((l) => l.shapes.map(() => new Matrix4())),
    bounds: links.map((l) => new Float64Array(6 * (l.shapes.length + 1))),
  };
}

/** Places every link at its world pose (by index in scene.links). */
export function placeLinks(scene: CollisionScene, poses: readonly Pose[]): void {
  const m = new Matrix4();
  scene.links.forEach((link, li) => {
    poseMatrix(poses[li]!, m);
    const b = scene.bounds[li]!;
    b.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    link.shapes.forEach((s, si) => {
      const w = scene.world[li]![si]!.multiplyMatrices(m, s.local);
      worldBounds(s.bounds, w, b, 6 * (si + 1));
      for (let k = 0; k < 3; k++) {
        b[k] = Math.min(b[k]!, b[6 * (si + 1) + k]!);
        b[k + 3] = Math.max(b[k + 3]!, b[6 * (si + 1) + k + 3]!);
      }
    });
  });
}

/** Whether links a and b (indices into scene.links) collide where placeLinks put them. */
export function linksCollide(scene: CollisionScene, a: number, b: number, scratch = new Matrix4(), inverse = new Matrix4()): boolean {
  const ba = scene.bounds[a]!, bb = scene.bounds[b]!;
  if (!overlaps(ba, 0, bb, 0)) return false;
  const la = scene.links[a]!, lb = scene.links[b]!;
  for (let i = 0; i < la.shapes.length; i++) {
    const sa = la.shapes[i]!;
    const wa = scene.world[a]![i]!;
    for (let j = 0; j < lb.shapes.length; j++) {
      if (!overlaps(ba, 6 * (i + 1), bb, 6 * (j + 1))) continue;
      const sb = lb.shapes[j]!;
      const wb = scene.world[b]![j]!;
      // b's shape frame → a's shape frame.
      inverse.copy(wa).invert();
      const bToA = scratch.multiplyMatrices(inverse, wb);
      if (sa.bvh.intersectsGeometry(sb.geometry, bToA)) return true;
      if (sa.primitive && pieceInside(sa.primitive, sb, bToA)) return true;
      if (sb.primitive && pieceInside(sb.primitive, sa, inverse.copy(bToA).invert())) return true;
    }
  }
  return false;
}
