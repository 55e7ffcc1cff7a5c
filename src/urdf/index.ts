// The equivalent URDF of a model: `toUrdf` builds it (pure), `writeUrdf` puts it on disk.
export { toUrdf, urdfRobotName, EXTENSION_NAMESPACE, DEFAULT_EFFORT, DEFAULT_PRISMATIC_RANGE } from './urdf.js';
export type { UrdfOptions, UrdfResult, MeshFile } from './urdf.js';
export { writeUrdf, writeUrdfSync, writeFileAtomic, writeFileAtomicSync, defaultMeshDir } from './write.js';
export type { WrittenUrdf } from './write.js';
export type { MeshUriStyle } from './uris.js';
export { referencedMeshWarnings } from './mesh-warnings.js';
