// Choreonoid caches a VRML resource per URI and *moves* a `node:`-selected node out of the cached
// scene. So when one Resource selects a Transform (Tank's TURRET_Y) and another selects a node
// inside it (TURRET_P), the inner node ends up only where it was selected on its own, even though
// the outer one was attached first. This pass applies that rule to the shapes we loaded.
import { readFileSync } from 'node:fs';
import { composeAffine, inverse3, mulVec, sub } from '../model/math.js';
import type { Affine, Shape } from '../model/types.js';
import type { LinkDraft } from './draft.js';

/** One `.wrl` Resource read while loading a body. */
export interface VrmlExtraction {
  /** Choreonoid's cache key: the URI as written. */
  uri: string;
  /** The file it names. */
  path: string;
  /** The `node:` name, if any. */
  node: string | undefined;
  /** Shapes as loadVrmlShapes returned them (the node's own frame). */
  raw: Shape[];
  /** The same shapes as added to the link (placed in the link frame). */
  added: Shape[];
}

function inverseAffine(a: Affine): Affine {
  const inv = inverse3(a.linear);
  return { linear: inv, translation: mulVec(inv, sub([0, 0, 0], a.translation)) };
}

function closeAffine(a: Affine, b: Affine): boolean {
  const tol = 1e-9;
  for (let i = 0; i < 3; i++) {
    if (Math.abs(a.translation[i]! - b.translation[i]!) > tol) return false;
    for (let j = 0; j < 3; j++) if (Math.abs(a.linear[i]![j]! - b.linear[i]![j]!) > tol) return false;
  }
  return true;
}

/**
 * Where `inner`'s shapes occur in `outer` as one contiguous run with equal geometry and one common
 * placement (outer_i = M · inner_i for a fixed M): the index of the run's start, or -1.
 */
function findSubtree(outer: readonly Shape[], inner: readonly Shape[], sameGeometry: (a: Shape, b: Shape) => boolean): number {
  if (inner.length === 0 || inner.length > outer.length) return -1;
  for (let start = 0; start + inner.length <= outer.length; start++) {
    if (!inner.every((s, i) => sameGeometry(outer[start + i]!, s))) continue;
    const M = composeAffine(outer[start]!.transform, inverseAffine(inner[0]!.transform));
    if (inner.every((s, i) => closeAffine(outer[start + i]!.transform, composeAffine(M, s.transform)))) return start;
  }
  return -1;
}

/** Text with comments and strings blanked out (same length), so braces and DEFs can be found by position. */
function code(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|#[^\n\r]*/g, (m) => ' '.repeat(m.length));
}

/** [start, end) of the node body `{ ... }` that follows the first `DEF name`, or undefined. */
function defRange(src: string, name: string): [number, number] | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(^|[\\s,\\[\\]{}])DEF\\s+${escaped}(?=[\\s{])`).exec(src);
  if (!m) return undefined;
  const open = src.indexOf('{', m.index + m[0].length);
  if (open < 0) return undefined;
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '{') depth++;
    else if (src[i] === '}' && --depth === 0) return [open, i];
  }
  return undefined;
}

/** Whether the first `DEF inner` lies inside the node of the first `DEF outer` (null: outer is the whole file). */
function definedInside(range: (name: string) => [number, number] | undefined, outer: string | undefined, inner: string): boolean {
  const innerRange = range(inner);
  if (!innerRange) return false;
  if (outer === undefined) return true;
  const outerRange = range(outer);
  return outerRange !== undefined && outerRange[0] < innerRange[0] && innerRange[1] <= outerRange[1];
}

/** Removes, from every link, shapes that a later or earlier Resource selected as their own node. */
export function detachSelectedNodes(extractions: readonly VrmlExtraction[], links: readonly LinkDraft[]): void {
  const removed = new Set<Shape>();
  const sources = new Map<string, string>();
  const source = (path: string): string => {
    let src = sources.get(path);
    if (src === undefined) {
      try {
        src = code(readFileSync(path, 'latin1'));
      } catch {
        src = '';
      }
      sources.set(path, src);
    }
    return src;
  };
  // Every pair of extractions is compared (Tank.body: dozens of nodes of one file), so a DEF's range
  // is found once, and geometries are compared in full only when their outlines agree.
  const ranges = new Map<string, [number, number] | undefined>();
  const rangeIn = (path: string) => (name: string): [number, number] | undefined => {
    const k = `${path}\n${name}`;
    if (!ranges.has(k)) ranges.set(k, defRange(source(path), name));
    return ranges.get(k);
  };
  // Geometry equality by its JSON text, computed only for shapes whose cheap outline already agrees.
  const texts = new Map<Shape, string>();
  const text = (s: Shape): string => {
    let t = texts.get(s);
    if (t === undefined) texts.set(s, (t = JSON.stringify(s.geometry)));
    return t;
  };
  const outline = (s: Shape): string => {
    const g = s.geometry;
    return g.kind === 'mesh' ? `mesh ${g.vertices.length} ${g.faces.length} ${String(g.vertices[0])} ${String(g.faces[0])}` : text(s);
  };
  const sameGeometry = (a: Shape, b: Shape): boolean => a.geometry === b.geometry || (outline(a) === outline(b) && text(a) === text(b));
  for (const outer of extractions) {
    for (const inner of extractions) {
      if (inner === outer || inner.uri !== outer.uri || inner.node === undefined || inner.node === outer.node) continue;
      if (!definedInside(rangeIn(inner.path), outer.node, inner.node)) continue;
      const start = findSubtree(outer.raw, inner.raw, sameGeometry);
      if (start < 0) continue;
      for (let i = start; i < start + inner.raw.length; i++) removed.add(outer.added[i]!);
    }
  }
  if (removed.size === 0) return;
  for (const l of links) {
    l.visuals = l.visuals.filter((s) => !removed.has(s));
    l.collisions = l.collisions.filter((s) => !removed.has(s));
  }
}
