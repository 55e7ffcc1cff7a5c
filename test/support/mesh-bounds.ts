// The axis-aligned box around a generated mesh's triangles, for the tessellation tests.
import type { TriangleMesh } from '../../src/model/tessellate.js';
import type { Vec3 } from '../../src/model/types.js';

export function meshBounds(mesh: TriangleMesh): { min: Vec3; max: Vec3 } | null {
  if (mesh.indices.length === 0) return null;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const index of mesh.indices) {
    for (let k = 0; k < 3; k++) {
      const v = mesh.positions[index * 3 + k]!;
      min[k] = Math.min(min[k]!, v);
      max[k] = Math.max(max[k]!, v);
    }
  }
  return { min, max };
}
