// One Choreonoid shape → one URDF <geometry> with its <origin>. Box, Sphere and Cylinder stay
// primitives when the shape's transform is a rotation times an axis scale the primitive can
// absorb; everything else becomes a binary STL named by its content hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cross, dot, identity3, mulMat, norm } from '../model/math.js';
import { type TriangleMesh, tessellate, transformMesh, triangleCount } from '../model/tessellate.js';
import type { Affine, Mat3, Material, Pose, Shape, SourceLocation, Vec3 } from '../model/types.js';
import { objColour, readObj } from './obj.js';
import type { MeshFile } from './mesh-file.js';
import type { MeshReferenceCheck } from './mesh-warnings.js';
import { copiedResource } from './resources.js';
import { readStl, toBinaryStl } from './stl.js';
import { type XmlElement, el } from './xml.js';
import { num, vec } from './format.js';

export interface GeometryContext {
  /** URI of a generated mesh file in the mesh directory. */
  meshUri: (fileName: string) => string;
  /** URI of a referenced mesh file on disk. */
  resourceUri: (path: string) => string;
  divisions: number;
  /** `stl`: referenced OBJ files become binary STL (colour kept as the visual's material). */
  meshFormat: MeshFormat;
  /** Copy referenced mesh files (and the material and texture files they use) into the mesh directory. */
  copyResources: boolean;
  /** Referenced files that could not be copied (each is warned about once). */
  uncopied: Set<string>;
  /** Generated meshes so far, by file name (content-addressed, so duplicates collapse). */
  meshes: Map<string, MeshFile>;
  /** Told of every mesh file the URDF references as it is: warns when rviz cannot load it. */
  checkMesh: MeshReferenceCheck;
  warn: (message: string, where?: SourceLocation) => void;
}

export type MeshFormat = 'keep' | 'stl';

export interface UrdfGeometry {
  origin: Pose;
  geometry: XmlElement;
  /** A colour the mesh file carried that the URDF must now say (converted OBJ). */
  material?: Material;
}

/** Choreonoid's round shapes run along +Y, URDF's cylinder along +Z: R·Rx(−π/2) maps one onto the other. */
const Y_TO_Z: Mat3 = [
  [1, 0, 0],
  [0, 0, 1],
  [0, -1, 0],
];

const RELATIVE_TOLERANCE = 1e-9;
const sameMagnitude = (a: number, b: number): boolean =>
  Math.abs(Math.abs(a) - Math.abs(b)) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));

/**
 * Splits a linear map into rotation · diag(scale) when its columns are orthogonal (no shear).
 * A mirror is folded into a negative x scale so the rotation is proper. Null when sheared or singular.
 */
export function splitScale(linear: Mat3): { rotation: Mat3; scale: Vec3 } | null {
  const cols: Vec3[] = [0, 1, 2].map((j) => [linear[0][j]!, linear[1][j]!, linear[2][j]!]);
  // Norms of rotation columns come out a few ulps off 1; snap them so unscaled shapes keep their exact sizes.
  const s = cols.map((c) => {
    const n = norm(c);
    return Math.abs(n - 1) <= 1e-12 ? 1 : n;
  }) as Vec3;
  if (s.some((x) => !(x > 1e-300) || !Number.isFinite(x))) return null;
  const u = cols.map((c, j) => [c[0] / s[j]!, c[1] / s[j]!, c[2] / s[j]!] as Vec3);
  const [u0, u1, u2] = u as [Vec3, Vec3, Vec3];
  if (Math.abs(dot(u0, u1)) > 1e-9 || Math.abs(dot(u0, u2)) > 1e-9 || Math.abs(dot(u1, u2)) > 1e-9) return null;
  if (dot(cross(u0, u1), u2) < 0) {
    u0[0] = -u0[0];
    u0[1] = -u0[1];
    u0[2] = -u0[2];
    s[0] = -s[0];
  }
  return {
    rotation: [
      [u0[0], u1[0], u2[0]],
      [u0[1], u1[1], u2[1]],
      [u0[2], u1[2], u2[2]],
    ],
    scale: s,
  };
}

const isUnitScale = (s: Vec3): boolean => s.every((x) => Math.abs(x - 1) <= RELATIVE_TOLERANCE);

export function meshFileFor(mesh: TriangleMesh): MeshFile {
  const data = toBinaryStl(mesh);
  const hash = createHash('sha256').update(data).digest('hex').slice(0, 32);
  return { name: `${hash}.stl`, data, triangles: triangleCount(mesh) };
}

export function shapeGeometry(shape: Shape, ctx: GeometryContext): UrdfGeometry | null {
  const g = shape.geometry;
  const t = shape.transform;
  const where = shape.source;
  const split = splitScale(t.linear);
  const at = (rotation: Mat3): Pose => ({ translation: t.translation, rotation });
  switch (g.kind) {
    case 'box':
      if (split) {
        const size = g.size.map((x, i) => Math.abs(x * split.scale[i]!)) as Vec3;
        return { origin: at(split.rotation), geometry: el('box', { size: vec(size) }) };
      }
      break;
    case 'sphere':
      if (split && sameMagnitude(split.scale[0], split.scale[1]) && sameMagnitude(split.scale[0], split.scale[2])) {
        return {
          origin: at(split.rotation),
          geometry: el('sphere', { radius: num(Math.abs(g.radius * split.scale[0])) }),
        };
      }
      break;
    case 'cylinder':
      if (split && g.top && g.bottom && g.side && sameMagnitude(split.scale[0], split.scale[2])) {
        return {
          origin: at(mulMat(split.rotation, Y_TO_Z)),
          geometry: el('cylinder', {
            radius: num(Math.abs(g.radius * split.scale[0])),
            length: num(Math.abs(g.height * split.scale[1])),
          }),
        };
      }
      break;
    case 'meshFile':
      return meshFileGeometry(shape, g, split, ctx);
    default:
      break;
  }
  return bakedMesh(tessellate(g, { divisions: ctx.divisions }), t, split, ctx, where);
}

/**
 * Generated mesh: the rigid part of the transform stays in <origin> and only scale (or, with
 * shear, the whole linear part) is baked into the vertices, so equal shapes at different poses
 * share one content-addressed file.
 */
function bakedMesh(
  local: TriangleMesh,
  t: Affine,
  split: ReturnType<typeof splitScale>,
  ctx: GeometryContext,
  where: SourceLocation | undefined,
): UrdfGeometry | null {
  if (local.indices.length === 0) {
    ctx.warn('shape has no triangles; left out of the URDF', where);
    return null;
  }
  const rotation = split ? split.rotation : identity3();
  const baked: Mat3 = split ? [[split.scale[0], 0, 0], [0, split.scale[1], 0], [0, 0, split.scale[2]]] : t.linear;
  const isIdentity = split !== null && isUnitScale(split.scale);
  const mesh = isIdentity ? local : transformMesh(local, { linear: baked, translation: [0, 0, 0] });
  for (let i = 0; i < mesh.positions.length; i++) {
    if (!Number.isFinite(mesh.positions[i]!)) throw new RangeError('mesh has a non-finite vertex');
  }
  const file = meshFileFor(mesh);
  if (!ctx.meshes.has(file.name)) ctx.meshes.set(file.name, file);
  return {
    origin: { translation: t.translation, rotation },
    geometry: el('mesh', { filename: ctx.meshUri(file.name) }),
  };
}

function meshFileGeometry(
  shape: Shape,
  g: Extract<Shape['geometry'], { kind: 'meshFile' }>,
  split: ReturnType<typeof splitScale>,
  ctx: GeometryContext,
): UrdfGeometry | null {
  const where = shape.source;
  if (g.node) {
    ctx.warn(`URDF cannot select node "${g.node}" of ${g.path}; the whole file is referenced`, where);
  }
  if (split && g.format === 'obj' && ctx.meshFormat === 'stl') return objAsStl(shape, g.path, split, ctx);
  if (split) {
    ctx.checkMesh(g.path, g.at ?? where);
    const attributes: Record<string, string> = { filename: resourceFilename(g.path, ctx, where) };
    if (!isUnitScale(split.scale)) attributes.scale = vec(split.scale);
    return { origin: { translation: shape.transform.translation, rotation: split.rotation }, geometry: el('mesh', attributes) };
  }
  // A sheared transform has no URDF spelling: bake it when we can read the vertices ourselves.
  if (g.format === 'stl' || g.format === 'obj') {
    let mesh: TriangleMesh;
    try {
      mesh = g.format === 'stl' ? readStl(readFileSync(g.path)) : readObj(readFileSync(g.path, 'utf8'));
    } catch (e) {
      ctx.warn(`cannot read ${g.path} to bake its sheared transform: ${(e as Error).message}`, where);
      return null;
    }
    return bakedMesh(mesh, shape.transform, null, ctx, where);
  }
  ctx.warn(`sheared transform on ${g.path} cannot be expressed in URDF; shape left out`, where);
  return null;
}

/** The URI of a referenced mesh file: where it is, or its copy in the mesh directory (where it is when it cannot be read). */
function resourceFilename(path: string, ctx: GeometryContext, where: SourceLocation | undefined): string {
  if (!ctx.copyResources || ctx.uncopied.has(path)) return ctx.resourceUri(path);
  let copy;
  try {
    copy = copiedResource(path, (m) => ctx.warn(m, where));
  } catch (e) {
    ctx.uncopied.add(path);
    ctx.warn(`${path} cannot be copied beside the URDF (${(e as Error).message}); referenced where it is`, where);
    return ctx.resourceUri(path);
  }
  for (const f of copy.files) if (!ctx.meshes.has(f.name)) ctx.meshes.set(f.name, f);
  return ctx.meshUri(copy.name);
}

/**
 * A referenced OBJ as binary STL, for viewers that read only STL and COLLADA. STL has no colour: the
 * OBJ's diffuse colour becomes the visual's material (the first one when it has several; textures are lost).
 */
function objAsStl(shape: Shape, path: string, split: NonNullable<ReturnType<typeof splitScale>>, ctx: GeometryContext): UrdfGeometry | null {
  const where = shape.source;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    ctx.warn(`cannot read ${path} to convert it to STL: ${(e as Error).message}`, where);
    return null;
  }
  let converted: UrdfGeometry | null;
  try {
    converted = bakedMesh(readObj(text), shape.transform, split, ctx, where);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    ctx.warn(`cannot convert ${path} to STL: ${e.message}`, where);
    return null;
  }
  if (!converted) return null;
  const colour = objColour(text, dirname(path), (m) => ctx.warn(`${path}: ${m}`, where));
  return colour ? { ...converted, material: colour } : converted;
}
