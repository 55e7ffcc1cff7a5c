// glibc malloc settings for the node process (set by the installed launcher, cmake/body_bridge.in, which must
// name the same values; test/ros-malloc-tunables.test.ts holds the two together).
//
// Why: every image or cloud the node takes arrives in a Buffer that rclnodejs allocates per message and V8
// frees only at its next collection, and Cyclone allocates and frees a sample of the same size per message.
// With glibc's defaults (a 128 kB trim threshold; blocks above the dynamic mmap threshold mmapped) those
// megabytes go back to the kernel after each collection and come back as fresh pages: ~225 page faults per
// 0.9 MB image, and on a 2-core VM the faults cost more than the relaying. A relay that only republishes the
// bytes (bench/live-floor.ts) took 1.34–1.66 CPU-s for 300 images where topic_tools' C++ relay took 0.50–0.66;
// with these two settings 0.63–0.78 (BENCHMARKS.md, "Page faults, not JavaScript"). The cost is memory kept:
// up to trim_threshold of freed heap stays mapped instead of returning to the kernel.

/** Blocks below this come from the heap, not from mmap (glibc caps it at 32 MB on 64-bit). */
export const MMAP_THRESHOLD = 32 * 1024 * 1024;
/** Free memory at the heap's top up to this stays mapped: above V8's 64 MB external-memory trigger for a collection. */
export const TRIM_THRESHOLD = 64 * 1024 * 1024;

export const MALLOC_TUNABLES: readonly (readonly [name: string, value: number])[] = [
  ['glibc.malloc.mmap_threshold', MMAP_THRESHOLD],
  ['glibc.malloc.trim_threshold', TRIM_THRESHOLD],
];

/**
 * GLIBC_TUNABLES with ours added: a tunable the environment already sets keeps its value (a user's choice
 * wins), everything else in it stays as it is.
 */
export function withMallocTunables(current: string | undefined): string {
  const parts = (current ?? '').split(':').filter((p) => p !== '');
  const named = new Set(parts.map((p) => p.split('=')[0]));
  for (const [name, value] of MALLOC_TUNABLES) {
    if (!named.has(name)) parts.push(`${name}=${value}`);
  }
  return parts.join(':');
}
