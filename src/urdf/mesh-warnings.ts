// Warnings about the mesh files a model references that rviz will fail to load: each file is read
// once (mesh-check.ts judges the bytes), and each place that names a broken file gets one warning,
// located there, so `body-bridge check`, `body-bridge urdf`, the node and the view say it before rviz does.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Diagnostic, RobotModel, SourceLocation } from '../model/types.js';
import { type MeshFault, meshFault } from './mesh-check.js';

const READ_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'it no longer exists',
  ELOOP: 'a symbolic link loop',
  EIO: 'an input/output error',
};

/**
 * The file's bytes, or why they cannot be had. Opened without blocking and checked to be a regular
 * file before reading, so a FIFO put where a mesh was never hangs the node.
 */
export function readMeshFile(path: string): Uint8Array | MeshFault {
  const unreadable = (why: string): MeshFault => ({ problem: `cannot be read: ${why}`, refusedBy: 'rviz' });
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    return unreadable(READ_ERRORS[code] ?? (e as Error).message);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { problem: 'is a directory, not a file', refusedBy: 'rviz' };
    if (!stat.isFile()) return { problem: 'is not a regular file', refusedBy: 'rviz' };
    const data = new Uint8Array(stat.size);
    let got = 0;
    while (got < data.length) {
      const n = readSync(fd, data, got, data.length - got, got);
      if (n === 0) break; // shrank while we read: judge what is there
      got += n;
    }
    return data.subarray(0, got);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    return unreadable(READ_ERRORS[code] ?? (e as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** `mesh FILE PROBLEM; referenced as given, but WHO will fail to load it`. */
export function meshWarningMessage(path: string, fault: MeshFault): string {
  const who = fault.refusedBy === 'rviz' ? 'rviz will fail to load it' : "assimp (MoveIt's mesh loader) will fail to load it; rviz loads it with a warning";
  return `mesh ${path} ${fault.problem}; referenced as given, but ${who}`;
}

export type MeshReferenceCheck = (path: string, where: SourceLocation | undefined) => void;

/**
 * A check to call for every reference to a mesh file: reads each file once, and warns once per file
 * and place (a shape that serves as visual and collision is one reference).
 */
export function meshReferenceCheck(
  warn: (message: string, where?: SourceLocation) => void,
  read: (path: string) => Uint8Array | MeshFault = readMeshFile,
): MeshReferenceCheck {
  const faults = new Map<string, MeshFault | null>();
  const warned = new Set<string>();
  return (path, where) => {
    let fault = faults.get(path);
    if (fault === undefined) {
      const data = read(path);
      fault = data instanceof Uint8Array ? meshFault(path, data) : data;
      faults.set(path, fault);
    }
    if (!fault) return;
    const key = `${path}\n${where?.file}:${where?.line}:${where?.column}`;
    if (warned.has(key)) return;
    warned.add(key);
    warn(meshWarningMessage(path, fault), where);
  };
}

/** The warnings about every mesh file `model` references, each located where the model names the file. */
export function referencedMeshWarnings(model: RobotModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = meshReferenceCheck((message, where) => out.push({ file: model.sourceFile, ...where, severity: 'warning', message }));
  for (const link of model.links) {
    for (const shape of [...link.visuals, ...link.collisions]) {
      if (shape.geometry.kind === 'meshFile') check(shape.geometry.path, shape.geometry.at ?? shape.source);
    }
  }
  return out;
}
