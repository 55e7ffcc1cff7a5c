// Wavefront OBJ geometry (vertices and polygon faces only), so a referenced .obj under a sheared
// transform can be baked into an STL. Materials, normals and texture coordinates are not needed for that.
import { type TriangleMesh, tessellate } from '../model/tessellate.js';
import type { Vec3 } from '../model/types.js';

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
