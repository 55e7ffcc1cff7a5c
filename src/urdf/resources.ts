// Copies of the mesh files a model references, for a URDF that must survive a move to another
// machine: each file goes into a folder of the mesh directory named after the folder it came from,
// together with the material and texture files it names by relative path, so the copy reads the same.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import type { MeshFile } from './mesh-file.js';

export interface CopiedResource {
  /** Path of the copy in the mesh directory (`<folder>/<file>`). */
  name: string;
  /** The copy and every file it uses. */
  files: MeshFile[];
}

/** Files an OBJ (its mtllib and their map_* textures) or a COLLADA file (<init_from> images) names. */
function companions(path: string, text: string): string[] {
  const out: string[] = [];
  if (/\.obj$/i.test(path)) {
    for (const line of text.split('\n')) {
      const t = line.trim();
      if (!t.startsWith('mtllib ')) continue;
      for (const lib of t.slice(7).trim().split(/\s+/)) {
        out.push(lib);
        let mtl = '';
        try {
          mtl = readFileSync(join(dirname(path), lib), 'utf8');
        } catch {
          continue;
        }
        for (const m of mtl.split('\n')) {
          const parts = m.trim().split(/\s+/);
          if (/^(map_\w+|bump|disp|decal|refl)$/i.test(parts[0] ?? '') && parts.length > 1) out.push(parts[parts.length - 1]!);
        }
      }
    }
  } else if (/\.dae$/i.test(path)) {
    // Image references have a file extension; other <init_from> elements name ids inside the document.
    for (const m of text.matchAll(/<init_from>\s*([^<\s]+\.[A-Za-z0-9]{2,4})\s*<\/init_from>/g)) out.push(decodeURIComponent(m[1]!.replace(/^file:\/\//, '')));
  }
  return out;
}

/**
 * The copy of `path` and its companions; a companion outside the file's folder or unreadable is left out, with a
 * warning. Throws when `path` itself is not a regular file or cannot be read.
 */
export function copiedResource(path: string, warn: (message: string) => void): CopiedResource {
  const dir = dirname(path);
  const folder = `${basename(dir).replace(/[^\w.-]/g, '_') || 'mesh'}_${createHash('sha256').update(dir).digest('hex').slice(0, 8)}`;
  // A FIFO would block the read for ever, a directory fails it: neither is a mesh to copy.
  if (!statSync(path).isFile()) throw new Error('not a regular file');
  const data = readFileSync(path);
  const files: MeshFile[] = [{ name: `${folder}/${basename(path)}`, data, triangles: 0 }];
  const seen = new Set<string>();
  for (const rel of companions(path, data.toString('utf8'))) {
    const clean = normalize(rel);
    if (seen.has(clean)) continue;
    seen.add(clean);
    if (isAbsolute(clean) || clean.startsWith('..') || clean.includes(`..${sep}`)) {
      warn(`${basename(path)} uses ${rel}, outside its folder; not copied (the copy will miss it)`);
      continue;
    }
    try {
      files.push({ name: `${folder}/${clean.split(sep).join('/')}`, data: readFileSync(join(dir, clean)), triangles: 0 });
    } catch {
      warn(`${basename(path)} uses ${rel}, which cannot be read; not copied`);
    }
  }
  return { name: files[0]!.name, files };
}
