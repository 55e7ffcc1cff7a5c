// The one-way flow as a rule over the imports: file → model → URDF / TF / device messages → node.
// Each folder of src/ may import only the folders its row allows; only src/ros touches a Transport
// and only one file of it touches rclnodejs; no file-level import cycle anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/contract.js';

const src = join(projectRoot, 'src');

/** Folder of src/ → the folders of ours it may import ('.' is src/ itself: load.ts and index.ts). */
const ALLOWED: Record<string, readonly string[]> = {
  messages: [],
  model: [],
  kinematics: ['model'],
  cdr: ['messages'],
  vrml: ['model'],
  body: ['model', 'vrml'],
  '.': ['model', 'body', 'vrml', 'urdf', 'kinematics'],
  urdf: ['model', 'kinematics'],
  devices: ['model', 'kinematics', 'messages', 'cdr'],
  view: ['.', 'model', 'kinematics', 'urdf', 'devices'],
  // moveit builds MoveIt's messages (planning-scene objects) as plain data, as devices builds sensor messages.
  moveit: ['model', 'kinematics', 'urdf', 'messages', 'roles'],
  roles: ['model', 'kinematics', 'urdf'],
  control: ['model', 'kinematics', 'urdf', 'moveit', 'roles'],
  // rviz draws MoveIt's planning scene as the node sends it (its markers' topic).
  rviz: ['model', 'kinematics', 'devices', 'moveit'],
  project: ['.', 'model', 'body', 'vrml', 'kinematics'],
  cli: ['.', 'model', 'kinematics', 'urdf', 'devices', 'view', 'moveit', 'control', 'project', 'rviz', 'roles'],
  ros: ['.', 'model', 'kinematics', 'urdf', 'devices', 'messages', 'cdr', 'moveit', 'control', 'project', 'roles'],
};

/** The only file that may import rclnodejs: the rest of the node sees a Transport. */
const RCLNODEJS_FILE = 'ros/rclnodejs-transport.ts';

interface SourceFile {
  /** Path relative to src/, with '/' separators. */
  file: string;
  /** Our files it imports (relative to src/), and the bare packages it imports. */
  ours: string[];
  packages: string[];
  /** The code without comments, for the identifier checks. */
  text: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function readSource(path: string): SourceFile {
  const text = readFileSync(path, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const specs = info.importedFiles.map((f) => f.fileName);
  const ours = specs.filter((s) => s.startsWith('.')).map((s) => relative(src, resolve(dirname(path), s)).replace(/\.js$/, '.ts').split('\\').join('/'));
  const packages = specs.filter((s) => !s.startsWith('.') && !s.startsWith('node:'));
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  return { file: relative(src, path).split('\\').join('/'), ours, packages, text: code };
}

const folderOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** Every import that breaks the folder table, as "from → to" lines. */
export function folderViolations(files: readonly SourceFile[], allowed: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const f of files) {
    const from = folderOf(f.file);
    const rule = allowed[from];
    if (!rule) {
      out.push(`${f.file}: folder "${from}" has no row in the table`);
      continue;
    }
    for (const target of f.ours) {
      const to = folderOf(target);
      if (to !== from && !rule.includes(to)) out.push(`${f.file} → ${target} (${from} may import only ${rule.join(', ') || 'itself'})`);
    }
  }
  return out;
}

/** File-level import cycles (Tarjan's strongly connected components of more than one file, or a self-import). */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const edges = new Map(files.map((f) => [f.file, f.ours]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f.file)) visit(f.file);
  return cycles;
}

const files = sourceFiles(src).map(readSource);

describe('the import rules of src/', () => {
  it('sees every folder of src/ and a plausible number of imports', () => {
    expect(new Set(files.map((f) => folderOf(f.file)))).toEqual(new Set(Object.keys(ALLOWED)));
    expect(files.reduce((n, f) => n + f.ours.length, 0)).toBeGreaterThan(200);
  });

  it('each folder imports only the folders below it in the flow', () => {
    expect(folderViolations(files, ALLOWED)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(importCycles(files)).toEqual([]);
  });

  it('only src/ros touches a Transport, and only one file of it rclnodejs', () => {
    const transportUsers = files.filter((f) => f.ours.includes('ros/transport.ts') || /\bTransport\b/.test(f.text)).map((f) => f.file);
    expect(transportUsers.filter((f) => folderOf(f) !== 'ros')).toEqual([]);
    expect(files.filter((f) => f.packages.some((p) => p === 'rclnodejs' || p.startsWith('rclnodejs/'))).map((f) => f.file)).toEqual([RCLNODEJS_FILE]);
  });

  it('src/devices builds messages and never subscribes, publishes or owns a timer', () => {
    const devices = files.filter((f) => folderOf(f.file) === 'devices');
    expect(devices.length).toBeGreaterThan(4);
    const offending = devices.filter((f) => /\b(setInterval|setTimeout|subscribe\w*|publish\w*|createPublisher|createSubscription)\s*\(/.test(f.text)).map((f) => f.file);
    expect(offending).toEqual([]);
  });

  it('every source file name is kebab-case (one file-name case throughout)', () => {
    expect(files.map((f) => f.file).filter((f) => !/^[a-z0-9]+(-[a-z0-9]+)*\.ts$/.test(f.split('/').pop()!))).toEqual([]);
  });

  it('message shapes import nothing of ours', () => {
    expect(files.filter((f) => folderOf(f.file) === 'messages').flatMap((f) => f.ours)).toEqual([]);
  });

  it('the checks catch a wrong-way import and a cycle (they can fail)', () => {
    const fake = (file: string, ours: string[]): SourceFile => ({ file, ours, packages: [], text: '' });
    const model = fake('model/types.ts', ['ros/transport.ts']);
    const a = fake('urdf/a.ts', ['urdf/b.ts']);
    const b = fake('urdf/b.ts', ['urdf/a.ts']);
    expect(folderViolations([model], ALLOWED)).toHaveLength(1);
    expect(importCycles([a, b, model])).toEqual([['urdf/a.ts', 'urdf/b.ts']]);
  });
});
