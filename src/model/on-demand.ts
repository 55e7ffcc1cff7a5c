// A CommonJS package loaded the first time it is needed, synchronously: a library only some inputs need stays out
// of a node that never meets them. The node's heap is what every major garbage collection on the /tf and relay
// paths walks (BENCHMARKS.md); xmlbuilder2, which only COLLADA meshes need, was 3.7 MB of the 13.6 MB its modules
// took. (three.js, whose CommonJS build is deprecated, cannot be loaded so.)
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `name`'s module, required on the first call and the same object afterwards. */
export function onDemand<T>(name: string): () => T {
  let module: T | undefined;
  return () => (module ??= load(name) as T);
}
