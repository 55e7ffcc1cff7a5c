// VRML scene → Shape list: every Shape under a node with the full affine transform of its
// enclosing Transforms, geometry as the file describes it (no tessellation here).
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { failAt } from '../model/errors.js';
import { composeAffine, normalize } from '../model/math.js';
import type { Affine, Diagnostic, Geometry, Material, Shape, Vec3 } from '../model/types.js';
import type { VrmlNode } from './ast.js';
import {
  getBool, getFloat, getInt, getNode, getNodes, getNumbers, getStrings, getVec3, locate, nodeLabel,
} from './fields.js';
import { localPath, MAX_NODES } from './parser.js';
import { transformAffine } from './transform.js';

export interface ShapeBudget {
  maxTriangles: number;
  triangles: number;
  /** Nodes visited: USE of USE of ... can make a small file a huge tree. */
  visits: number;
  warnings: Diagnostic[];
  /** Warnings already given once per kind (unsupported geometry types). */
  warned: Set<string>;
}

export function createBudget(maxTriangles: number, warnings: Diagnostic[]): ShapeBudget {
  return { maxTriangles, triangles: 0, visits: 0, warnings, warned: new Set() };
}

/** Collects the shapes of `nodes` placed by `T` into `out`. `name` is the nearest enclosing DEF name. */
export function collectShapes(
  nodes: readonly VrmlNode[], T: Affine, path: string, budget: ShapeBudget, out: Shape[], name?: string,
): void {
  for (const node of nodes) collectNode(node, T, path, budget, out, name);
}

function collectNode(node: VrmlNode, T: Affine, path: string, budget: ShapeBudget, out: Shape[], name?: string): void {
  if (++budget.visits > MAX_NODES) failAt(locate(node, path), `more than ${MAX_NODES} scene nodes after expanding USE`);
  const here = `${path}/${nodeLabel(node)}`;
  const named = node.defName ?? name;
  if (node.proto) {
    if (node.actual) collectNode(node.actual, T, path, budget, out, named);
    return;
  }
  switch (node.type) {
    case 'Transform':
      collectShapes(getNodes(node, here, 'children'), composeAffine(T, transformAffine(node, here)), here, budget, out, named);
      return;
    case 'Group':
    case 'Anchor':
    case 'Billboard':
    case 'Collision':
      collectShapes(getNodes(node, here, 'children'), T, here, budget, out, named);
      return;
    case 'Switch': {
      const which = getInt(node, here, 'whichChoice', -1);
      const choices = getNodes(node, here, 'choice');
      const list = choices.length > 0 ? choices : getNodes(node, here, 'children');
      const chosen = list[which];
      if (chosen) collectNode(chosen, T, `${here}.choice[${which}]`, budget, out, named);
      return;
    }
    case 'LOD': {
      // The most detailed level: what a viewer shows close up and what collision should use.
      const level = getNodes(node, here, 'level')[0];
      if (level) collectNode(level, T, `${here}.level[0]`, budget, out, named);
      return;
    }
    case 'Inline':
      if (node.inlined) collectShapes(node.inlined, T, here, budget, out, named);
      else if (node.inlineFile) out.push(meshFileShape(node, here, T, budget, named));
      return;
    case 'Shape': {
      const shape = convertShape(node, here, T, budget, named);
      if (shape) out.push(shape);
      return;
    }
    default:
      return;
  }
}

function meshFileShape(node: VrmlNode, path: string, T: Affine, budget: ShapeBudget, name?: string): Shape {
  const file = node.inlineFile!;
  const ext = extname(file).toLowerCase().slice(1);
  if (ext !== 'stl' && ext !== 'dae' && ext !== 'obj') {
    failAt(locate(node, path, 'url'), `Inline of '${file}': only .wrl, .stl, .dae and .obj files can be inlined`);
  }
  budget.triangles += 1;
  const url = getStrings(node, path, 'url')[0] ?? file;
  const shape: Shape = {
    geometry: { kind: 'meshFile', path: file, uri: url, format: ext, at: locate(node, path, 'url') },
    transform: T,
    material: null,
    source: { file: node.file, path, line: node.line, column: node.column },
  };
  if (name) shape.name = name;
  return shape;
}

function convertShape(node: VrmlNode, path: string, T: Affine, budget: ShapeBudget, name?: string): Shape | null {
  let geometryNode = getNode(node, path, 'geometry');
  // A PROTO standing for a geometry node renders as its body.
  for (let i = 0; geometryNode?.proto && i < 100; i++) geometryNode = geometryNode.actual ?? null;
  if (!geometryNode) return null;
  const geometry = convertGeometry(geometryNode, `${path}.geometry`, budget);
  if (!geometry) return null;
  if (budget.triangles > budget.maxTriangles) {
    failAt(locate(geometryNode, path), `the model's shapes exceed the limit of ${budget.maxTriangles} triangles`);
  }
  const appearance = resolveProto(getNode(node, path, 'appearance'));
  const shape: Shape = {
    geometry,
    transform: T,
    material: appearance ? convertMaterial(appearance, `${path}.appearance`) : null,
    source: { file: geometryNode.file, path, line: node.line, column: node.column },
  };
  const texture = appearance ? textureFile(appearance, `${path}.appearance`, budget) : undefined;
  if (texture) shape.texture = texture;
  if (name) shape.name = name;
  return shape;
}

function resolveProto(node: VrmlNode | null): VrmlNode | null {
  for (let i = 0; node?.proto && i < 100; i++) node = node.actual ?? null;
  return node;
}

function convertMaterial(appearance: VrmlNode, path: string): Material | null {
  const m = resolveProto(getNode(appearance, path, 'material'));
  if (!m) return null;
  const p = `${path}.material`;
  return {
    diffuseColor: getVec3(m, p, 'diffuseColor', [0.8, 0.8, 0.8]),
    transparency: getFloat(m, p, 'transparency', 0),
    ambientIntensity: getFloat(m, p, 'ambientIntensity', 0.2),
    specularColor: getVec3(m, p, 'specularColor', [0, 0, 0]),
    emissiveColor: getVec3(m, p, 'emissiveColor', [0, 0, 0]),
    shininess: getFloat(m, p, 'shininess', 0.2),
  };
}

function textureFile(appearance: VrmlNode, path: string, budget: ShapeBudget): string | undefined {
  const tex = resolveProto(getNode(appearance, path, 'texture'));
  if (!tex || tex.type !== 'ImageTexture') return undefined;
  const urls = getStrings(tex, `${path}.texture`, 'url');
  for (const url of urls) {
    const file = localPath(url, tex.file);
    if (file && existsSync(file)) return file;
  }
  if (urls.length > 0) {
    budget.warnings.push({ severity: 'warning', message: `texture ${urls.map((u) => `'${u}'`).join(', ')} not found; the shape is untextured`, ...locate(tex, `${path}.texture`, 'url') });
  }
  return undefined;
}

const vec3At = (a: number[], i: number): Vec3 => [a[3 * i]!, a[3 * i + 1]!, a[3 * i + 2]!];

function pairs(a: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < a.length; i += 2) out.push([a[i]!, a[i + 1]!]);
  return out;
}

function convertGeometry(node: VrmlNode, path: string, budget: ShapeBudget): Geometry | null {
  const p = `${path}/${nodeLabel(node)}`;
  switch (node.type) {
    case 'Box':
      budget.triangles += 12;
      return { kind: 'box', size: getVec3(node, p, 'size', [2, 2, 2]) };
    case 'Sphere':
      budget.triangles += 1;
      return { kind: 'sphere', radius: getFloat(node, p, 'radius', 1) };
    case 'Cylinder':
      budget.triangles += 1;
      return {
        kind: 'cylinder',
        radius: getFloat(node, p, 'radius', 1),
        height: getFloat(node, p, 'height', 2),
        top: getBool(node, p, 'top', true),
        bottom: getBool(node, p, 'bottom', true),
        side: getBool(node, p, 'side', true),
      };
    case 'Cone':
      budget.triangles += 1;
      return {
        kind: 'cone',
        radius: getFloat(node, p, 'bottomRadius', 1),
        height: getFloat(node, p, 'height', 2),
        bottom: getBool(node, p, 'bottom', true),
        side: getBool(node, p, 'side', true),
      };
    case 'IndexedFaceSet':
      return convertFaceSet(node, p, budget);
    case 'ElevationGrid': {
      const xDimension = getInt(node, p, 'xDimension', 0);
      const zDimension = getInt(node, p, 'zDimension', 0);
      const height = getNumbers(node, p, 'height', ['MFFloat']) ?? [];
      if (xDimension < 0 || zDimension < 0 || height.length < xDimension * zDimension) {
        failAt(locate(node, p, 'height'), `ElevationGrid needs xDimension × zDimension = ${xDimension * zDimension} heights, has ${height.length}`);
      }
      budget.triangles += Math.max(0, 2 * (xDimension - 1) * (zDimension - 1));
      return {
        kind: 'elevationGrid',
        xDimension,
        zDimension,
        xSpacing: getFloat(node, p, 'xSpacing', 1),
        zSpacing: getFloat(node, p, 'zSpacing', 1),
        height: height.slice(0, xDimension * zDimension),
        ccw: getBool(node, p, 'ccw', true),
        creaseAngle: getFloat(node, p, 'creaseAngle', 0),
      };
    }
    case 'Extrusion': {
      const crossSection = pairs(getNumbers(node, p, 'crossSection', ['MFVec2f']) ?? []);
      const spineFlat = getNumbers(node, p, 'spine', ['MFVec3f']) ?? [];
      const spine: Vec3[] = [];
      for (let i = 0; i < spineFlat.length / 3; i++) spine.push(vec3At(spineFlat, i));
      const rot = getNumbers(node, p, 'orientation', ['MFRotation']) ?? [];
      const orientation: [number, number, number, number][] = [];
      for (let i = 0; i + 3 < rot.length; i += 4) {
        const axis = normalize([rot[i]!, rot[i + 1]!, rot[i + 2]!]);
        orientation.push([axis[0], axis[1], axis[2], rot[i + 3]!]);
      }
      if (spine.length < 2 || crossSection.length < 2) {
        budget.warnings.push({
          severity: 'warning',
          message: `Extrusion with ${spine.length} spine and ${crossSection.length} cross-section points sweeps no solid; the shape is dropped`,
          ...locate(node, p, spine.length < 2 ? 'spine' : 'crossSection'),
        });
        return null;
      }
      budget.triangles += 2 * (spine.length - 1) * (crossSection.length - 1);
      return {
        kind: 'extrusion',
        crossSection,
        spine,
        scale: pairs(getNumbers(node, p, 'scale', ['MFVec2f']) ?? []),
        orientation,
        beginCap: getBool(node, p, 'beginCap', true),
        endCap: getBool(node, p, 'endCap', true),
        ccw: getBool(node, p, 'ccw', true),
        convex: getBool(node, p, 'convex', true),
        creaseAngle: getFloat(node, p, 'creaseAngle', 0),
      };
    }
    default:
      if (!budget.warned.has(node.type)) {
        budget.warned.add(node.type);
        budget.warnings.push({
          severity: 'warning',
          message: `${node.type} geometry is not converted (only surfaces are)`,
          ...locate(node, p),
        });
      }
      return null;
  }
}

/** Polygons split at -1 as given; indices are checked against the coordinates. */
function convertFaceSet(node: VrmlNode, path: string, budget: ShapeBudget): Geometry | null {
  const coord = resolveProto(getNode(node, path, 'coord'));
  if (!coord) return null;
  const points = getNumbers(coord, `${path}.coord`, 'point', ['MFVec3f']) ?? [];
  const count = points.length / 3;
  if (count === 0) {
    budget.warnings.push({ severity: 'warning', message: 'IndexedFaceSet with an empty point field skipped', ...locate(node, path) });
    return null;
  }
  const vertices: Vec3[] = new Array<Vec3>(count);
  for (let i = 0; i < count; i++) vertices[i] = vec3At(points, i);
  const index = getNumbers(node, path, 'coordIndex', ['MFInt32']) ?? [];
  const faces: number[][] = [];
  let dropped = 0;
  let triangles = 0;
  let start = 0;
  let invalid: string | undefined;
  for (let i = 0; i <= index.length; i++) {
    const k = i < index.length ? index[i]! : -1;
    // Any negative index ends a face, as in Choreonoid; only -1 is the VRML separator.
    if (k < -1 && invalid === undefined) invalid = `coordIndex[${i}] = ${k}`;
    if (k >= 0) {
      if (k >= count) {
        failAt(locate(node, path, 'coordIndex'), `coordIndex[${i}] = ${k}, but there are only ${count} coordinates`);
      }
      continue;
    }
    // One exact-size array per polygon (a big mesh has ~10⁵ of them).
    const size = i - start;
    if (size >= 3) {
      faces.push(index.slice(start, i));
      triangles += size - 2;
    } else if (size > 0) {
      dropped++;
    }
    start = i + 1;
  }
  if (invalid !== undefined) {
    budget.warnings.push({ severity: 'warning', message: `${invalid} is not a vertex index or -1; read as the end of a face`, ...locate(node, path, 'coordIndex') });
  }
  if (dropped > 0) {
    budget.warnings.push({ severity: 'warning', message: `${dropped} face(s) with fewer than 3 vertices dropped`, ...locate(node, path, 'coordIndex') });
  }
  budget.triangles += triangles;
  const geometry: Geometry = {
    kind: 'mesh',
    vertices,
    faces,
    ccw: getBool(node, path, 'ccw', true),
    creaseAngle: getFloat(node, path, 'creaseAngle', 0),
  };
  const colors = faceSetColors(node, path, index, count, faces.length);
  if (colors) geometry.colors = colors;
  return geometry;
}

/**
 * Colours as the model carries them: one per vertex (colorPerVertex TRUE) or one per face (FALSE),
 * resolved through colorIndex. A per-corner colorIndex that differs from coordIndex keeps, for each
 * vertex, the colour of its first corner.
 */
function faceSetColors(node: VrmlNode, path: string, coordIndex: number[], vertexCount: number, faceCount: number): Vec3[] | undefined {
  const colorNode = resolveProto(getNode(node, path, 'color'));
  if (!colorNode) return undefined;
  const flat = getNumbers(colorNode, `${path}.color`, 'color', ['MFColor']) ?? [];
  const palette: Vec3[] = [];
  for (let i = 0; i < flat.length / 3; i++) palette.push(vec3At(flat, i));
  if (palette.length === 0) return undefined;
  const colorIndex = getNumbers(node, path, 'colorIndex', ['MFInt32']) ?? [];
  const pick = (i: number): Vec3 => {
    const c = palette[i];
    if (!c) failAt(locate(node, path, 'colorIndex'), `colour index ${i} is out of range (${palette.length} colours)`);
    return c;
  };
  if (!getBool(node, path, 'colorPerVertex', true)) {
    const out: Vec3[] = [];
    for (let f = 0; f < faceCount; f++) out.push(pick(colorIndex.length > 0 ? colorIndex[f] ?? 0 : f));
    return out;
  }
  if (colorIndex.length === 0) {
    const out: Vec3[] = [];
    for (let v = 0; v < vertexCount; v++) out.push(pick(Math.min(v, palette.length - 1)));
    return out;
  }
  const out: (Vec3 | undefined)[] = new Array<Vec3 | undefined>(vertexCount);
  for (let i = 0; i < coordIndex.length && i < colorIndex.length; i++) {
    const v = coordIndex[i]!;
    const c = colorIndex[i]!;
    if (v >= 0 && c >= 0 && out[v] === undefined) out[v] = pick(c);
  }
  return out.map((c) => c ?? palette[0]!);
}
