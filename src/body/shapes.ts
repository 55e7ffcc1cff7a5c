// Shape nodes and their geometry, read as Choreonoid's StdSceneReader reads them (defaults included).
// Geometry stays parametric: tessellation belongs to the URDF side.
import { failAt } from '../model/errors.js';
import type { Geometry, Material, SourceLocation, Vec3 } from '../model/types.js';
import { toRadian, type BodyContext } from './context.js';
import { resolveResourcePath } from './resources.js';
import { asInt, asMap, asNumber, asSeq, asString, asVec3, boolAt, get, numberAt, optionalMap, stringAt, vec3At } from './values.js';
import { originalNode } from './yaml-reader.js';
import type { YMap, YNode } from './yaml-tree.js';

/** Choreonoid's SgMaterial defaults for whatever a `material` mapping leaves out. */
export function readMaterial(map: YMap): Material {
  const material: Material = {
    diffuseColor: vec3At(map, ['diffuse', 'diffuseColor']) ?? [1, 1, 1],
    transparency: numberAt(map, 'transparency') ?? 0,
    ambientIntensity: numberAt(map, ['ambient', 'ambientIntensity']) ?? 1,
    specularColor: vec3At(map, ['specular', 'specularColor']) ?? [0, 0, 0],
    emissiveColor: vec3At(map, ['emissive', 'emissiveColor']) ?? [0, 0, 0],
  };
  // The model keeps VRML's shininess in [0, 1]; Choreonoid stores exponent = 127·shininess + 1.
  const exponent = numberAt(map, 'specular_exponent');
  const shininess = numberAt(map, 'shininess');
  material.shininess =
    exponent !== undefined ? Math.min(1, Math.max(0, (exponent - 1) / 127)) : shininess !== undefined ? Math.min(1, Math.max(0, shininess)) : 24 / 127;
  return material;
}

export interface AppearanceResult {
  material: Material | null;
  texture?: string;
}

export function readAppearance(ctx: BodyContext, map: YMap | undefined): AppearanceResult {
  if (!map) return { material: null };
  const m = optionalMap(map, 'material');
  const result: AppearanceResult = { material: m ? readMaterial(m) : null };
  const t = optionalMap(map, 'texture');
  if (t) {
    const uri = stringAt(t, ['uri', 'url']);
    if (uri) {
      const path = resolveResourcePath(ctx, uri, t.loc, { mustExist: false });
      if (path) result.texture = path;
      else ctx.warnings.push({ severity: 'warning', message: `texture "${uri}" not found; the shape is used without it`, ...t.loc });
    }
  }
  return result;
}

function flatNumbers(ctx: BodyContext, node: YNode | undefined, group: number, what: string): number[][] {
  if (!node) return [];
  const values = asSeq(node, what).items.map((n) => asNumber(n));
  const out: number[][] = [];
  // Choreonoid reads size / group complete groups and ignores a ragged tail; we say so.
  for (let i = 0; i + group <= values.length; i += group) out.push(values.slice(i, i + group));
  const tail = values.length % group;
  if (tail !== 0) {
    ctx.warnings.push({ severity: 'warning', ...node.loc, message: `${what} has ${values.length} numbers, not a multiple of ${group}: the last ${tail} ignored` });
  }
  return out;
}

function readExtrusion(ctx: BodyContext, map: YMap): Geometry {
  const cross = flatNumbers(ctx, get(map, ['cross_section', 'crossSection']), 2, 'a cross section list');
  const spine = flatNumbers(ctx, get(map, 'spine'), 3, 'a spine list');
  const scale = flatNumbers(ctx, get(map, 'scale'), 2, 'a scale list');
  const orientation = flatNumbers(ctx, get(map, 'orientation'), 4, 'an orientation list').map(
    ([x, y, z, a]) => [x!, y!, z!, toRadian(ctx, a!)] as [number, number, number, number],
  );
  const crease = numberAt(map, ['crease_angle', 'creaseAngle']);
  if (spine.length === 1 || cross.length === 1) {
    ctx.warnings.push({
      severity: 'warning',
      ...map.loc,
      message: `an Extrusion with ${spine.length === 1 ? 'one spine point' : 'one cross-section point'} has no surface to sweep; it draws nothing`,
    });
  }
  return {
    kind: 'extrusion',
    crossSection: cross.length > 0 ? (cross as [number, number][]) : [[1, 1], [1, -1], [-1, -1], [-1, 1], [1, 1]],
    spine: spine.length > 0 ? (spine as Vec3[]) : [[0, 0, 0], [0, 1, 0]],
    scale: scale.length > 0 ? (scale as [number, number][]) : [[1, 1]],
    orientation: orientation.length > 0 ? orientation : [[0, 0, 1, 0]],
    // Choreonoid looks up " begin_cap" (with a space), so only the camelCase key takes effect.
    beginCap: boolAt(map, 'beginCap') ?? true,
    endCap: boolAt(map, ['end_cap', 'endCap']) ?? true,
    ccw: boolAt(map, 'ccw') ?? true,
    convex: boolAt(map, 'convex') ?? true,
    creaseAngle: crease === undefined ? 0 : toRadian(ctx, crease),
  };
}

function readElevationGrid(ctx: BodyContext, map: YMap): Geometry {
  const crease = numberAt(map, ['crease_angle', 'creaseAngle']);
  const heightNode = get(map, 'height');
  const dimension = (keys: string[]): number => {
    const n = get(map, keys);
    const v = n ? asInt(n, 'a grid dimension') : 0;
    if (n && v < 0) failAt(n.loc, `expected a non-negative grid dimension, got ${v}`);
    return v;
  };
  const xDimension = dimension(['x_dimension', 'xDimension']);
  const zDimension = dimension(['z_dimension', 'zDimension']);
  const height = heightNode ? asSeq(heightNode, 'a list of heights').items.map((n) => asNumber(n)) : [];
  if (height.length < xDimension * zDimension) {
    failAt((heightNode ?? map).loc, `an ElevationGrid of ${xDimension} × ${zDimension} needs ${xDimension * zDimension} heights, got ${height.length}`);
  }
  return {
    kind: 'elevationGrid',
    xDimension,
    zDimension,
    xSpacing: numberAt(map, ['x_spacing', 'xSpacing']) ?? 1,
    zSpacing: numberAt(map, ['z_spacing', 'zSpacing']) ?? 1,
    height,
    ccw: boolAt(map, 'ccw') ?? true,
    creaseAngle: crease === undefined ? 0 : toRadian(ctx, crease),
  };
}

function readMesh(ctx: BodyContext, map: YMap, triangles: boolean): Geometry {
  const verticesNode = get(map, ['vertices', 'coordinate']);
  if (!verticesNode) failAt(map.loc, 'a mesh needs "vertices" (or "coordinate")');
  const vertices = flatNumbers(ctx, verticesNode, 3, 'a vertex list') as Vec3[];
  const facesNode = get(map, ['faces', 'coordIndex']);
  const indices = facesNode ? asSeq(facesNode, 'a face index list').items.map((n) => [asInt(n), n] as const) : [];
  const faces: number[][] = [];
  let current: number[] = [];
  for (const [i, n] of indices) {
    if (i >= vertices.length || i < -1) failAt(n.loc, `face index ${i} is out of range (there are ${vertices.length} vertices)`);
    if (triangles) {
      current.push(i);
      if (current.length === 3) faces.push(current), (current = []);
    } else if (i === -1) {
      if (current.length > 0) faces.push(current);
      current = [];
    } else {
      current.push(i);
    }
  }
  if (!triangles && current.length > 0) faces.push(current);
  const crease = numberAt(map, ['crease_angle', 'creaseAngle']);
  return {
    kind: 'mesh',
    vertices,
    faces,
    ccw: boolAt(map, 'ccw') ?? true,
    creaseAngle: crease === undefined ? 0 : toRadian(ctx, crease),
  };
}

/** The meshFile geometry of a `.stl/.dae/.obj` resource named at `at`; other formats are handled by the caller. */
export function meshFileGeometry(path: string, uri: string, at: SourceLocation, node?: string): Geometry | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (ext !== 'stl' && ext !== 'dae' && ext !== 'obj') return null;
  return node === undefined ? { kind: 'meshFile', path, uri, format: ext, at } : { kind: 'meshFile', path, uri, format: ext, node, at };
}

/** A size or radius: a number that must not be negative (a mirrored primitive is a file error). */
function dimensionAt(map: YMap, key: string, fallback: number): number {
  const n = get(map, key);
  if (!n) return fallback;
  const x = asNumber(n, `a ${key} in metres`);
  if (x < 0) failAt(n.loc, `expected a non-negative ${key}, got ${x}`);
  return x;
}

function sizeAt(map: YMap): Vec3 {
  const n = get(map, 'size');
  if (!n) return [1, 1, 1];
  const v = asVec3(n, 'a box size [x, y, z]');
  if (v.some((x) => x < 0)) failAt(n.loc, `expected a box size without negative values, got [${v.join(', ')}]`);
  return v;
}

/**
 * A mesh-like geometry read once per YAML node: an alias's copy gets the geometry its original gave.
 * A reading that warned is not shared, so that each copy still reports its own place.
 */
function shared(ctx: BodyContext, map: YMap, read: () => Geometry): Geometry {
  const origin = originalNode(map);
  const known = ctx.geometries.get(origin);
  if (known && known.degree === ctx.degree) return known.geometry;
  const warnings = ctx.warnings.length;
  const geometry = read();
  if (ctx.warnings.length === warnings) ctx.geometries.set(origin, { degree: ctx.degree, geometry });
  return geometry;
}

/** A `geometry` mapping; throws for unknown types exactly where Choreonoid does. */
export function readGeometry(ctx: BodyContext, node: YNode): Geometry {
  const map = asMap(node, 'a geometry mapping');
  const typeNode = get(map, 'type');
  if (!typeNode) failAt(map.loc, 'a geometry needs a "type" (Box, Sphere, Cylinder, Capsule, Cone, Extrusion, ElevationGrid, IndexedFaceSet, TriangleMesh or Resource)');
  const type = asString(typeNode);
  switch (type) {
    case 'Box':
      return { kind: 'box', size: sizeAt(map) };
    case 'Sphere':
      return { kind: 'sphere', radius: dimensionAt(map, 'radius', 1) };
    case 'Cylinder':
      return {
        kind: 'cylinder',
        radius: dimensionAt(map, 'radius', 1),
        height: dimensionAt(map, 'height', 1),
        top: boolAt(map, 'top') ?? true,
        bottom: boolAt(map, 'bottom') ?? true,
        side: true,
      };
    case 'Cone':
      return { kind: 'cone', radius: dimensionAt(map, 'radius', 1), height: dimensionAt(map, 'height', 1), bottom: boolAt(map, 'bottom') ?? true, side: true };
    case 'Capsule':
      return { kind: 'capsule', radius: dimensionAt(map, 'radius', 1), height: dimensionAt(map, 'height', 1) };
    case 'Extrusion':
      return shared(ctx, map, () => readExtrusion(ctx, map));
    case 'ElevationGrid':
      return shared(ctx, map, () => readElevationGrid(ctx, map));
    case 'IndexedFaceSet':
      return shared(ctx, map, () => readMesh(ctx, map, false));
    case 'TriangleMesh':
      return shared(ctx, map, () => readMesh(ctx, map, true));
    case 'Resource': {
      const uriNode = get(map, 'uri');
      if (!uriNode) failAt(map.loc, 'a Resource geometry needs a "uri"');
      const uri = asString(uriNode);
      const path = resolveResourcePath(ctx, uri, uriNode.loc, { mustExist: true })!;
      const g = meshFileGeometry(path, uri, uriNode.loc);
      if (!g) failAt(uriNode.loc, `a Resource used as a geometry must be a .stl, .dae or .obj mesh, got "${uri}"`);
      return g;
    }
    default:
      return failAt(typeNode.loc, `unknown geometry type "${type}" (expected Box, Sphere, Cylinder, Capsule, Cone, Extrusion, ElevationGrid, IndexedFaceSet, TriangleMesh or Resource)`);
  }
}
