// Builds and runs the C++ KDL peer (bench/kdl_tf.cpp) with the orocos-kdl and kdl_parser that
// test/support/peers.ts finds.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileHarness } from '../test/support/harness.js';
import { findCxx, findKdl, found } from '../test/support/peers.js';

/** Compiles kdl_tf.cpp into build/ unless an up-to-date binary is there. */
export function buildKdlPeer(projectRoot: string): string {
  const source = join(projectRoot, 'bench', 'kdl_tf.cpp');
  const binary = join(projectRoot, 'build', 'kdl_tf');
  return compileHarness({ cxx: found(findCxx()).exe, source, binary, flags: found(findKdl()), before: ['-O2', '-std=c++17'] });
}

export interface KdlTransform {
  parent: string;
  child: string;
  t: [number, number, number];
  q: [number, number, number, number];
}

export interface KdlReply {
  messages: number;
  moving_segments: number;
  published_transforms: number;
  seconds: number[];
  last: KdlTransform[];
}

/** Writes the peer's input (joint names, then messages × positions) and runs it. */
export function runKdlPeer(
  binary: string,
  workDir: string,
  tag: string,
  urdf: string,
  names: readonly string[],
  positions: readonly (readonly number[])[],
  reps: { warmup: number; reps: number },
): KdlReply {
  mkdirSync(workDir, { recursive: true });
  const urdfFile = join(workDir, `${tag}.urdf`);
  const inputFile = join(workDir, `${tag}.joints.txt`);
  writeFileSync(urdfFile, urdf);
  const lines = [String(names.length), ...names, String(positions.length), ...positions.map((p) => p.map((x) => x.toPrecision(17)).join(' '))];
  writeFileSync(inputFile, `${lines.join('\n')}\n`);
  const r = spawnSync(binary, [urdfFile, inputFile, String(reps.warmup), String(reps.reps)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`kdl_tf failed on ${tag}: ${(r.stderr || r.error?.message || '').trim()}`);
  return JSON.parse(r.stdout) as KdlReply;
}
