// Binary STL: the mesh format every URDF consumer (rviz's assimp, Gazebo, MoveIt's geometric
// shapes) reads. Single precision and a facet normal per triangle, as the format defines.
import type { TriangleMesh } from '../model/tessellate.js';

const HEADER_BYTES = 80;
const FACET_BYTES = 50;

/**
 * Serialises a mesh as binary STL. The 80-byte header is ASCII text that must not start with
 * "solid" (some readers would then take the file for ASCII STL).
 */
export function toBinaryStl(mesh: TriangleMesh, header = 'body_bridge binary STL'): Uint8Array {
  const count = mesh.indices.length / 3;
  const bytes = new Uint8Array(HEADER_BYTES + 4 + count * FACET_BYTES);
  const view = new DataView(bytes.buffer);
  const text = header.replace(/[^\x20-\x7e]/g, '_').replace(/^solid/i, '_olid').slice(0, HEADER_BYTES);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  view.setUint32(HEADER_BYTES, count, true);
  const p = mesh.positions, ix = mesh.indices;
  let o = HEADER_BYTES + 4;
  for (let t = 0; t < ix.length; t += 3) {
    const a = ix[t]! * 3, b = ix[t + 1]! * 3, c = ix[t + 2]! * 3;
    const ax = p[a]!, ay = p[a + 1]!, az = p[a + 2]!;
    const bx = p[b]!, by = p[b + 1]!, bz = p[b + 2]!;
    const cx = p[c]!, cy = p[c + 1]!, cz = p[c + 2]!;
    const ux = bx - ax, uy = by - ay, uz = bz - az;
    const vx = cx - ax, vy = cy - ay, vz = cz - az;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    // sqrt of the sum, not Math.hypot: hypot was the slowest part of writing big meshes, and a
    // normal of a real triangle neither overflows nor underflows here.
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len > 0) {
      nx /= len;
      ny /= len;
      nz /= len;
    }
    view.setFloat32(o, nx, true);
    view.setFloat32(o + 4, ny, true);
    view.setFloat32(o + 8, nz, true);
    view.setFloat32(o + 12, ax, true);
    view.setFloat32(o + 16, ay, true);
    view.setFloat32(o + 20, az, true);
    view.setFloat32(o + 24, bx, true);
    view.setFloat32(o + 28, by, true);
    view.setFloat32(o + 32, bz, true);
    view.setFloat32(o + 36, cx, true);
    view.setFloat32(o + 40, cy, true);
    view.setFloat32(o + 44, cz, true);
    // Attribute byte count stays 0 (already zeroed).
    o += FACET_BYTES;
  }
  return bytes;
}

/**
 * Reads a binary STL back into an unindexed mesh (three vertices per facet). Used to bake
 * referenced .stl files and by the bounding-box checks. Throws on a truncated file.
 */
export function fromBinaryStl(data: Uint8Array): TriangleMesh {
  if (data.length < HEADER_BYTES + 4) throw new Error('STL file shorter than its header');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint32(HEADER_BYTES, true);
  if (data.length < HEADER_BYTES + 4 + count * FACET_BYTES) throw new Error(`STL file truncated: ${count} facets announced`);
  const positions = new Float64Array(count * 9);
  const indices = new Uint32Array(count * 3);
  let o = HEADER_BYTES + 4;
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 9; k++) positions[t * 9 + k] = view.getFloat32(o + 12 + k * 4, true);
    indices[t * 3] = t * 3;
    indices[t * 3 + 1] = t * 3 + 1;
    indices[t * 3 + 2] = t * 3 + 2;
    o += FACET_BYTES;
  }
  return { positions, indices };
}

/** ASCII STL ("solid … facet normal … vertex x y z …"), which some model packages ship. */
export function fromAsciiStl(text: string): TriangleMesh {
  const values: number[] = [];
  const re = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) values.push(Number(m[1]), Number(m[2]), Number(m[3]));
  const count = Math.floor(values.length / 9);
  const positions = Float64Array.from(values.slice(0, count * 9));
  const indices = Uint32Array.from({ length: count * 3 }, (_, i) => i);
  return { positions, indices };
}

/**
 * Binary or ASCII. A binary file whose size matches its facet count is binary even when its header
 * starts with "solid" (some exporters write that); otherwise only text starting with "solid" is ASCII.
 */
export function readStl(data: Uint8Array): TriangleMesh {
  if (data.length >= HEADER_BYTES + 4) {
    const count = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(HEADER_BYTES, true);
    if (data.length === HEADER_BYTES + 4 + count * FACET_BYTES) return fromBinaryStl(data);
  }
  const start = new TextDecoder().decode(data.subarray(0, 512)).trimStart();
  if (!/^solid/i.test(start)) return fromBinaryStl(data);
  return fromAsciiStl(new TextDecoder().decode(data));
}
