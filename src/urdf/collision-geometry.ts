// A link's collision geometry as the URDF states it, in a form a collision checker can test: the
// same rule as src/urdf/geometry.ts decides which shapes stay primitives (box, sphere, cylinder: FCL
// and MoveIt treat those as solids) and which become triangle meshes (everything else, and the mesh
// files the model references: FCL treats those as surfaces). A planning scene can say more than a URDF
// (shape_msgs has a CONE, and a capsule is a cylinder and two spheres): with `solids: 'scene'` cones and
// capsules stay solids too (scene-objects.ts).
import { readFileSync } from 'node:fs';
import { mulMat } from '../model/math.js';
import { type TriangleMesh, tessellate, transformMesh } from '../model/tessellate.js';
import type { Link, Mat3, Pose, Shape, SourceLocation, Vec3 } from '../model/types.js';
import { splitScale } from './geometry.js';
import { readDae } from './dae.js';
import { readObj } from './obj.js';
import { readStl } from './stl.js';

/** A solid primitive centred in its shape frame. Round shapes run along z, as in URDF, shape_msgs and FCL. */
export type Primitive =
  | { kind: 'box'; size: Vec3 }
  | { kind: 'sphere'; radius: number }
  | { kind: 'cylinder'; radius: number; length: number }
  /** Apex at z = +length/2, base at −length/2 (shape_msgs' CONE, FCL's Cone). Only with solids 'scene'. */
  | { kind: 'cone'; radius: number; length: number }
  /** A cylinder of `length` between two hemispheres of `radius` (Choreonoid's capsule). Only with solids 'scene'. */
  | { kind: 'capsule'; radius: number; length: number };

export interface CollisionShape {
  /** The shape frame in its link's frame (rigid: any scale is already in the size or the vertices). */
  pose: Pose;
  /** Set when the URDF writes the shape as a primitive: then it is a solid. */
  primitive: Primitive | null;
  /** The surface in the shape frame (a primitive's tessellation, or the mesh itself). */
  mesh: TriangleMesh;
  source?: SourceLocation;
}

export interface LinkGeometry {
  link: string;
  shapes: CollisionShape[];
  /** Shapes that could not be read (COLLADA, unreadable files): the link's geometry is incomplete. */
  missing: string[];
}

export interface CollisionGeometryOptions {
  /** Segments around round shapes (as the URDF's generated meshes use). Default 32. */
  divisions?: number;
  /**
   * Which shapes stay solid primitives: 'urdf' (the default) those a URDF <collision> states as primitives —
   * box, sphere, cylinder —, so checks agree with MoveIt's view of the robot; 'scene' also closed cones and
   * capsules, which a planning scene's collision objects can carry as solids.
   */
  solids?: Solids;
}

export type Solids = 'urdf' | 'scene';

/** Choreonoid's round shapes run along +Y, URDF's cylinder along +Z (the same rotation as src/urdf/geometry.ts). */
const Y_TO_Z: Mat3 = [
  [1, 0, 0],
  [0, 0, 1],
  [0, -1, 0],
];

const sameMagnitude = (a: number, b: number): boolean => Math.abs(Math.abs(a) - Math.abs(b)) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

/** Choreonoid's y axis onto z, for the tessellations (made along y) of round primitives. */
const ALONG_Z = {
  linear: [
    [1, 0, 0],
    [0, 0, -1],
    [0, 1, 0],
  ] as Mat3,
  translation: [0, 0, 0] as Vec3,
};

/** The tessellated surface of a primitive in its own (URDF) frame. */
export function primitiveMesh(p: Primitive, divisions: number): TriangleMesh {
  switch (p.kind) {
    case 'box':
      return tessellate({ kind: 'box', size: p.size });
    case 'sphere':
      return tessellate({ kind: 'sphere', radius: p.radius }, { divisions });
    case 'cylinder':
      return transformMesh(tessellate({ kind: 'cylinder', radius: p.radius, height: p.length, top: true, bottom: true, side: true }, { divisions }), ALONG_Z);
    case 'cone':
      return transformMesh(tessellate({ kind: 'cone', radius: p.radius, height: p.length, bottom: true, side: true }, { divisions }), ALONG_Z);
    case 'capsule':
      return transformMesh(tessellate({ kind: 'capsule', radius: p.radius, height: p.length }, { divisions }), ALONG_Z);
  }
}

/** Whether a point in the primitive's frame lies inside or on it. */
export function insidePrimitive(p: Primitive, x: number, y: number, z: number): boolean {
  switch (p.kind) {
    case 'box':
      return Math.abs(x) <= p.size[0] / 2 && Math.abs(y) <= p.size[1] / 2 && Math.abs(z) <= p.size[2] / 2;
    case 'sphere':
      return x * x + y * y + z * z <= p.radius * p.radius;
    case 'cylinder':
      return Math.abs(z) <= p.length / 2 && x * x + y * y <= p.radius * p.radius;
    case 'cone': {
      // The radius shrinks linearly from the base (z = −length/2) to the apex.
      const r = (p.radius * (p.length / 2 - z)) / p.length;
      return Math.abs(z) <= p.length / 2 && x * x + y * y <= r * r;
    }
    case 'capsule': {
      const dz = Math.max(0, Math.abs(z) - p.length / 2);
      return x * x + y * y + dz * dz <= p.radius * p.radius;
    }
  }
}

/** What mesh files to read beyond STL and OBJ. */
export interface MeshReading {
  /** COLLADA too (the wheel radius and ground contact read it; collision checks do not yet). */
  collada?: boolean;
}

function readMeshFile(path: string, format: 'stl' | 'obj' | 'dae', reading: MeshReading): TriangleMesh | string {
  if (format === 'dae' && !reading.collada) return `${path}: COLLADA collision meshes are not read`;
  try {
    if (format === 'dae') return readDae(readFileSync(path, 'utf8'));
    return format === 'stl' ? readStl(readFileSync(path)) : readObj(readFileSync(path, 'utf8'));
  } catch (e) {
    return `${path}: ${(e as Error).message}`;
  }
}

/**
 * One model shape as the URDF's <collision> states it (solids 'scene': as a planning scene can, see
 * CollisionGeometryOptions); a string says why it cannot be used.
 */
export function collisionShape(shape: Shape, divisions: number, solids: Solids = 'urdf', reading: MeshReading = {}): CollisionShape | string | null {
  const g = shape.geometry;
  const t = shape.transform;
  const split = splitScale(t.linear);
  const at = (rotation: Mat3): Pose => ({ translation: t.translation, rotation });
  const primitive = (p: Primitive, pose: Pose): CollisionShape => ({ pose, primitive: p, mesh: primitiveMesh(p, divisions), ...src(shape) });
  if (split) {
    const s = split.scale;
    if (g.kind === 'box') return primitive({ kind: 'box', size: g.size.map((x, i) => Math.abs(x * s[i]!)) as Vec3 }, at(split.rotation));
    if (g.kind === 'sphere' && sameMagnitude(s[0], s[1]) && sameMagnitude(s[0], s[2])) {
      return primitive({ kind: 'sphere', radius: Math.abs(g.radius * s[0]) }, at(split.rotation));
    }
    if (g.kind === 'cylinder' && g.top && g.bottom && g.side && sameMagnitude(s[0], s[2])) {
      return primitive({ kind: 'cylinder', radius: Math.abs(g.radius * s[0]), length: Math.abs(g.height * s[1]) }, at(mulMat(split.rotation, Y_TO_Z)));
    }
    // A cone keeps its shape when its cross-section scales evenly; a capsule's hemispheres need one scale throughout.
    if (solids === 'scene' && g.kind === 'cone' && g.bottom && g.side && sameMagnitude(s[0], s[2])) {
      return primitive({ kind: 'cone', radius: Math.abs(g.radius * s[0]), length: Math.abs(g.height * s[1]) }, at(mulMat(split.rotation, Y_TO_Z)));
    }
    if (solids === 'scene' && g.kind === 'capsule' && sameMagnitude(s[0], s[1]) && sameMagnitude(s[0], s[2])) {
      return primitive({ kind: 'capsule', radius: Math.abs(g.radius * s[0]), length: Math.abs(g.height * s[1]) }, at(mulMat(split.rotation, Y_TO_Z)));
    }
  }
  let local: TriangleMesh;
  if (g.kind === 'meshFile') {
    const read = readMeshFile(g.path, g.format, reading);
    if (typeof read === 'string') return read;
    local = read;
  } else {
    local = tessellate(g, { divisions });
  }
  if (local.indices.length === 0) return null;
  // As the URDF writer does: the rotation stays in the pose, only scale (or the whole sheared linear part) is baked.
  const rotation = split ? split.rotation : ([[1, 0, 0], [0, 1, 0], [0, 0, 1]] as Mat3);
  const baked: Mat3 = split ? [[split.scale[0], 0, 0], [0, split.scale[1], 0], [0, 0, split.scale[2]]] : t.linear;
  const mesh = transformMesh(local, { linear: baked, translation: [0, 0, 0] });
  for (const v of mesh.positions) if (!Number.isFinite(v)) return 'mesh has a non-finite vertex';
  return { pose: at(rotation), primitive: null, mesh, ...src(shape) };
}

const src = (shape: Shape): { source?: SourceLocation } => (shape.source ? { source: shape.source } : {});

/** Every link's collision shapes. */
export function linkGeometries(links: readonly Link[], options: CollisionGeometryOptions = {}): LinkGeometry[] {
  const divisions = options.divisions ?? 32;
  return links.map((link) => {
    const shapes: CollisionShape[] = [];
    const missing: string[] = [];
    for (const s of link.collisions) {
      const c = collisionShape(s, divisions, options.solids);
      if (typeof c === 'string') missing.push(c);
      else if (c) shapes.push(c);
    }
    return { link: link.name, shapes, missing };
  });
}
