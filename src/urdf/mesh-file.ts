// The files a URDF refers to, as bytes: shared by the geometry converter that makes them and the
// resource copier that brings a model's own files along.
/**
 * A mesh file the URDF refers to; `name` is its path in the mesh directory: a bare file name (content
 * hash + extension) for generated meshes, `<folder>/<file>` for a copied model file and what it uses.
 */
export interface MeshFile {
  name: string;
  data: Uint8Array;
  triangles: number;
}
