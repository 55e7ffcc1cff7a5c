// Wavefront OBJ geometry (vertices and polygon faces only), so a referenced .obj can be baked into an
// STL, and its materials' diffuse colour, which STL cannot carry. Normals and texture coordinates are not needed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TriangleMesh, tessellate } from '../model/tessellate.js';
import type { Material, Vec3 } from '../model/types.js';

/** Throws on a face that names a vertex the file does not have. */
export function readObj(text: string): TriangleMesh {
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('v ')) {
      const [, x, y, z] = line.split(/\s+/);
      vertices.push([Number(x), Number(y), Number(z)]);
    } else if (line.startsWith('f ')) {
      const face = line
        .split(/\s+/)
        .slice(1)
        .map((corner) => {
          const i = parseInt(corner, 10);
          // OBJ indices are 1-based; negative ones count back from the last vertex read so far.
          const index = i > 0 ? i - 1 : vertices.length + i;
          if (!Number.isInteger(index) || index < 0 || index >= vertices.length) throw new RangeError(`OBJ face refers to vertex ${corner}`);
          return index;
        });
      if (face.length >= 3) faces.push(face);
    }
  }
  return tessellate({ kind: 'mesh', vertices, faces, ccw: true, creaseAngle: 0 });
}

/**
 * The diffuse colour an OBJ's materials give it (its .mtl files, read from `dir`), for a URDF material
 * once the mesh is converted to colourless STL; null when it names no readable material.
 */
export function objColour(text: string, dir: string, warn: (message: string) => void): Material | null {
  const libraries: string[] = [];
  const used: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('mtllib ')) libraries.push(...line.slice(7).trim().split(/\s+/));
    else if (line.startsWith('usemtl ')) {
      const name = line.slice(7).trim();
      if (!used.includes(name)) used.push(name);
    }
  }
  const materials = new Map<string, Material & { texture?: string }>();
  for (const lib of libraries) {
    let mtl: string;
    try {
      mtl = readFileSync(join(dir, lib), 'utf8');
    } catch {
      warn(`material library ${lib} cannot be read; its colours are lost`);
      continue;
    }
    let current: (Material & { texture?: string }) | null = null;
    for (const raw of mtl.split('\n')) {
      const [key, ...rest] = raw.trim().split(/\s+/);
      if (key === 'newmtl') {
        current = { diffuseColor: [1, 1, 1], transparency: 0 };
        materials.set(rest.join(' '), current);
      } else if (current && key === 'Kd') {
        const rgb = rest.slice(0, 3).map(Number);
        if (rgb.length === 3 && rgb.every(Number.isFinite)) current.diffuseColor = rgb as Vec3;
      } else if (current && key === 'd' && Number.isFinite(Number(rest[0]))) current.transparency = 1 - Number(rest[0]);
      else if (current && key === 'map_Kd') current.texture = rest[rest.length - 1];
    }
  }
  const found = used.map((n) => materials.get(n)).filter((m): m is Material & { texture?: string } => m !== undefined);
  if (found.length === 0) return null;
  const first = found[0]!;
  const textures = found.filter((m) => m.texture !== undefined).map((m) => m.texture!);
  if (textures.length > 0) warn(`STL carries no texture: ${textures.join(', ')} dropped, diffuse colour kept`);
  const distinct = new Set(found.map((m) => `${m.diffuseColor.join(' ')} ${m.transparency}`));
  if (distinct.size > 1) warn(`${distinct.size} material colours; STL carries one, the first (${first.diffuseColor.join(' ')}) is kept`);
  return { diffuseColor: first.diffuseColor, transparency: first.transparency };
}
