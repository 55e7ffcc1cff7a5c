// Putting a URDF on disk: meshes first (so the document never names a missing file), each written
// to a temporary file in the mesh directory and renamed into place, which is atomic on one file
// system; then the URDF itself the same way.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { UrdfResult } from './urdf.js';

/** `$XDG_CACHE_HOME/body_bridge/meshes` (or `~/.cache/...`): content-hashed names make one shared directory safe. */
export function defaultMeshDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(cache, 'body_bridge', 'meshes');
}

/** Writes `data` to `file` via a temporary sibling and rename; the temporary file is removed on failure. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Synchronous writeFileAtomic, for callers that must finish a reload in one step. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw e;
  }
}

/** The mesh's path in `dir` (`file` or `folder/file`), refusing any name that would leave it. */
function meshTarget(dir: string, name: string): string {
  const segments = name.split('/');
  const target = resolve(dir, ...segments);
  const rel = relative(dir, target);
  if (isAbsolute(name) || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\')) || rel === '' || rel.startsWith('..')) {
    throw new RangeError(`mesh file name ${JSON.stringify(name)} would leave the mesh directory`);
  }
  return target;
}

export interface WrittenUrdf {
  /** Mesh files written now (existing identical files are kept). */
  written: string[];
  /** Mesh files that were already there. */
  reused: string[];
  urdfFile?: string;
}

/**
 * Writes the meshes of `result` into its mesh directory and, when `urdfFile` is given, the URDF.
 * A mesh name that would leave the mesh directory is refused (names are content hashes, so this
 * only guards against a tampered result).
 */
export async function writeUrdf(result: UrdfResult, urdfFile?: string): Promise<WrittenUrdf> {
  const dir = resolve(result.meshDir);
  const out: WrittenUrdf = { written: [], reused: [] };
  if (result.meshes.length > 0) await mkdir(dir, { recursive: true });
  for (const mesh of result.meshes) {
    const target = meshTarget(dir, mesh.name);
    if (mesh.name.includes('/')) await mkdir(dirname(target), { recursive: true });
    // Content-addressed: a file of that name and size already holds these bytes.
    const existing = await stat(target).catch(() => null);
    if (existing?.isFile() && existing.size === mesh.data.length) {
      out.reused.push(target);
      continue;
    }
    await writeFileAtomic(target, mesh.data);
    out.written.push(target);
  }
  if (urdfFile !== undefined) {
    const file = resolve(urdfFile);
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, result.xml);
    out.urdfFile = file;
  }
  return out;
}

/** writeUrdf, synchronously (same order and guarantees). */
export function writeUrdfSync(result: UrdfResult, urdfFile?: string): WrittenUrdf {
  const dir = resolve(result.meshDir);
  const out: WrittenUrdf = { written: [], reused: [] };
  if (result.meshes.length > 0) mkdirSync(dir, { recursive: true });
  for (const mesh of result.meshes) {
    const target = meshTarget(dir, mesh.name);
    if (mesh.name.includes('/')) mkdirSync(dirname(target), { recursive: true });
    let existing = null;
    try {
      existing = statSync(target);
    } catch {
      // not there yet
    }
    if (existing?.isFile() && existing.size === mesh.data.length) {
      out.reused.push(target);
      continue;
    }
    writeFileAtomicSync(target, mesh.data);
    out.written.push(target);
  }
  if (urdfFile !== undefined) {
    const file = resolve(urdfFile);
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomicSync(file, result.xml);
    out.urdfFile = file;
  }
  return out;
}
