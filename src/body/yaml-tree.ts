// A YAML document as Choreonoid's YAMLReader sees it: every scalar kept as its source text (Choreonoid
// converts on use, so `1e3`, `yes` or `0.10` mean what the key expects), aliases and `<<:` merges
// resolved, and every node carrying its file, YAML path and line:column for messages.
import { readFileSync, statSync } from 'node:fs';
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlAstNode } from 'yaml';
import { ModelLoadError, failAt } from '../model/errors.js';
import type { LoadLimits } from '../model/options.js';
import type { Diagnostic, SourceLocation } from '../model/types.js';
import type { YMap, YNode, YamlFile } from './yaml-nodes.js';
import { FLOW_UNDERINDENTED, readYamlSubset } from './yaml-reader.js';

/**
 * Nodes copied through aliases, per alias allowed. Real terrains are alias-heavy (WRS2018 TerrainD.body copies
 * about 82,000 nodes through 540 aliases), so the budget leaves room for several times that while a
 * billion-laughs bomb still stops after a few hundred thousand small objects.
 */
const ALIAS_COPY_FACTOR = 30;

export type { Located, YMap, YNode, YScalar, YSeq, YamlFile } from './yaml-nodes.js';

/** Choreonoid's Mapping is a std::map: iteration is in byte order of the keys, not file order. */
export function sortedEntries(map: YMap): [string, YNode][] {
  return [...map.entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export const childPath = (path: string | undefined, key: string | number): string =>
  typeof key === 'number' ? `${path ?? ''}[${key}]` : path ? `${path}.${key}` : key;

interface WalkState {
  file: string;
  doc: Document;
  lines: LineCounter;
  limits: LoadLimits;
  aliases: number;
  anchors: Map<string, YNode>;
  imported: ReadonlyMap<string, YNode>;
  expanding: Set<unknown>;
  warnings: Diagnostic[];
  anchorIndex?: Map<string, { offset: number; node: unknown }[]>;
  /** Nodes created while expanding aliases. */
  copiedNodes: number;
  /** Converted alias targets, for reuse by later aliases of the same node. */
  copies: Map<unknown, AliasCopy>;
  /** Deepest level converted so far within the current alias expansion. */
  deepest: number;
  /** Alias targets met within the current alias expansion. */
  reached?: Set<unknown>;
  /** Times an alias resolved to an imported anchor. */
  importedUses: number;
}

function locate(state: WalkState, node: YamlAstNode | undefined, path: string): SourceLocation {
  const offset = node?.range?.[0];
  const file = state.file;
  // Every converted node (and every alias copy) is located, so this is a hot path: one binary search
  // over the line starts and one object, no intermediate spreads.
  let line = 1;
  let column = 1;
  if (offset !== undefined) {
    const pos = state.lines.linePos(offset);
    line = pos.line;
    column = pos.col;
  }
  // The document itself has no path; an empty document has no node, so it is placed at 1:1.
  return path === '' ? { file, line, column } : { file, path, line, column };
}

/**
 * Every anchored node in document order (pre-order, keys before values), by anchor name. A plain
 * recursion: the yaml package's generic `visit` cost as much as the rest of the alias handling.
 * Depth is bounded by checkNesting before the parser runs.
 */
function indexAnchors(node: unknown, index: Map<string, { offset: number; node: unknown }[]>): void {
  if (node === null || typeof node !== 'object') return;
  const n = node as YamlAstNode;
  const anchor = (n as { anchor?: string }).anchor;
  if (anchor) {
    const list = index.get(anchor);
    const entry = { offset: n.range?.[0] ?? 0, node: n };
    if (list) list.push(entry);
    else index.set(anchor, [entry]);
  }
  if (isMap(n)) {
    for (const pair of n.items) {
      indexAnchors(pair.key, index);
      indexAnchors(pair.value, index);
    }
  } else if (isSeq(n)) {
    for (const item of n.items) indexAnchors(item, index);
  }
}

/**
 * The node an alias names: the closest anchor of that name before it (YAML's rule). The yaml
 * package's Alias.resolve walks the whole document per alias, which is quadratic on files with
 * hundreds of aliases (CapsuleTerrain.body), so anchors are indexed once.
 */
function resolveAlias(state: WalkState, alias: { source: string; range?: [number, number, number] | null }): unknown {
  if (!state.anchorIndex) {
    const index = new Map<string, { offset: number; node: unknown }[]>();
    indexAnchors(state.doc.contents, index);
    state.anchorIndex = index;
  }
  const at = alias.range?.[0] ?? Infinity;
  let found: unknown;
  for (const a of state.anchorIndex.get(alias.source) ?? []) if (a.offset < at) found = a.node;
  return found;
}

/**
 * An alias's target converted once, for the next aliases of the same node: real files alias one
 * block hundreds of times (TerrainD.body: 540 copies of one mesh), and converting the YAML nodes again
 * for each copy was most of their load. A copy is the same tree with the alias's path.
 */
interface AliasCopy {
  node: YNode;
  /** The path the tree was converted at (every path in it starts with this). */
  path: string;
  /** Aliases resolved, nodes copied and levels below the alias while converting it. */
  aliases: number;
  nodes: number;
  depth: number;
  /** Alias targets met inside it (a copy inside one of them is a cycle). */
  reached: Set<unknown>;
}

/** Whether reusing `copy` here gives what converting again would: no limit reached, no cycle. */
function reusable(state: WalkState, copy: AliasCopy, depth: number): boolean {
  const { limits } = state;
  if (depth + copy.depth > limits.maxDepth) return false;
  if (state.aliases + copy.aliases > limits.maxAliases) return false;
  if (state.copiedNodes + copy.nodes > limits.maxAliases * ALIAS_COPY_FACTOR) return false;
  for (const t of state.expanding) if (copy.reached.has(t)) return false;
  return true;
}

/** Converts an alias's target, and keeps the result for reuse when the conversion had no side effects. */
function expandAlias(state: WalkState, target: unknown, path: string, depth: number): YNode {
  const before = {
    aliases: state.aliases,
    nodes: state.copiedNodes,
    warnings: state.warnings.length,
    anchors: state.anchors.size,
    imported: state.importedUses,
    deepest: state.deepest,
    reached: state.reached,
  };
  const reached = new Set<unknown>();
  state.reached = reached;
  state.deepest = depth;
  state.expanding.add(target);
  let node: YNode;
  try {
    node = convert(state, target, path, depth + 1);
  } finally {
    state.expanding.delete(target);
    const deepest = state.deepest;
    state.deepest = Math.max(before.deepest, deepest);
    state.reached = before.reached;
    if (before.reached) for (const t of reached) before.reached.add(t);
  }
  // Warnings (duplicate keys) carry the copy's path, anchors are set by first conversion only, and
  // imported anchors are shared rather than copied: a conversion with any of those is not reused.
  if (
    path !== '' &&
    !state.copies.has(target) &&
    state.warnings.length === before.warnings &&
    state.anchors.size === before.anchors &&
    state.importedUses === before.imported
  ) {
    state.copies.set(target, {
      node,
      path,
      aliases: state.aliases - before.aliases,
      nodes: state.copiedNodes - before.nodes,
      depth: state.deepest - depth,
      reached,
    });
  }
  return node;
}

/** A copy of `node` (converted at path `from`) at path `to`. */
function relocated(node: YNode, from: string, to: string): YNode {
  const l = node.loc;
  const loc: SourceLocation = { file: l.file, path: to + (l.path ?? from).slice(from.length), line: l.line, column: l.column };
  if (node.kind === 'scalar') {
    return node.sink === undefined ? { kind: 'scalar', value: node.value, loc } : { kind: 'scalar', value: node.value, loc, sink: node.sink };
  }
  if (node.kind === 'seq') return { kind: 'seq', items: node.items.map((item) => relocated(item, from, to)), loc };
  const entries = new Map<string, YNode>();
  for (const [key, value] of node.entries) entries.set(key, relocated(value, from, to));
  return { kind: 'map', entries, loc };
}

function convert(state: WalkState, node: unknown, path: string, depth: number): YNode {
  if (depth > state.deepest) state.deepest = depth;
  if (depth > state.limits.maxDepth) {
    failAt(locate(state, node as YamlAstNode, path), `YAML nesting deeper than the limit of ${state.limits.maxDepth} levels`);
  }
  if (isAlias(node)) {
    state.aliases += 1;
    if (state.aliases > state.limits.maxAliases) {
      failAt(locate(state, node, path), `more than ${state.limits.maxAliases} YAML aliases resolved (alias bomb?)`);
    }
    const target = resolveAlias(state, node);
    if (!target) {
      // A resource file may use the anchors of the body file that includes it (Choreonoid's importAnchors).
      const imported = state.imported.get(node.source);
      if (imported) {
        state.importedUses += 1;
        return imported;
      }
      failAt(locate(state, node, path), `undefined YAML alias *${node.source}`);
    }
    if (state.expanding.has(target)) failAt(locate(state, node, path), `alias *${node.source} refers to the node that contains it`);
    state.reached?.add(target);
    const copy = state.copies.get(target);
    if (copy && path !== '' && reusable(state, copy, depth)) {
      state.aliases += copy.aliases;
      state.copiedNodes += copy.nodes;
      if (depth + copy.depth > state.deepest) state.deepest = depth + copy.depth;
      if (state.reached) for (const t of copy.reached) state.reached.add(t);
      return relocated(copy.node, copy.path, path);
    }
    return expandAlias(state, target, path, depth);
  }
  // Aliases copy their node; nested ones multiply. Bound the copies, not only the alias count, so
  // that a bomb stops long before memory does (maxAliases × ALIAS_COPY_FACTOR nodes in copies).
  if (state.expanding.size > 0 && ++state.copiedNodes > state.limits.maxAliases * ALIAS_COPY_FACTOR) {
    failAt(
      locate(state, node as YamlAstNode, path),
      `YAML aliases expand to more than ${state.limits.maxAliases * ALIAS_COPY_FACTOR} nodes (alias bomb?); the limit is limits.maxAliases × ${ALIAS_COPY_FACTOR}`,
    );
  }
  const loc = locate(state, node as YamlAstNode, path);
  let result: YNode;
  if (isScalar(node)) {
    const v = node.value;
    result = { kind: 'scalar', value: v === null || v === undefined ? '' : String(v), loc, sink: state.warnings };
  } else if (isSeq(node)) {
    result = { kind: 'seq', items: node.items.map((item, i) => convert(state, item, childPath(path, i), depth + 1)), loc };
  } else if (isMap(node)) {
    const entries = new Map<string, YNode>();
    // Keys written in this mapping itself: a key that overrides a merged one (`{ <<: *BOX, size: … }`) is
    // what merge keys are for; only a key written twice here is a duplicate.
    const written = new Set<string>();
    for (const pair of node.items) {
      const keyNode = pair.key;
      const isMerge = isScalar(keyNode) && (typeof keyNode.value === 'symbol' || keyNode.value === '<<');
      if (isMerge) {
        // Choreonoid inserts merged entries over what is already there; later keys override them.
        const merged = convert(state, pair.value, childPath(path, '<<'), depth + 1);
        const sources = merged.kind === 'seq' ? merged.items : [merged];
        for (const m of sources) {
          if (m.kind !== 'map') failAt(m.loc, 'a value merged by "<<" must be a mapping or a list of mappings');
          for (const [k, v] of m.entries) entries.set(k, v);
        }
        continue;
      }
      if (!isScalar(keyNode)) failAt(locate(state, keyNode as YamlAstNode, path), 'a mapping key must be a plain scalar');
      const key = String(keyNode.value ?? '');
      // Choreonoid keeps the later value silently; real models (UR10, CarT4, ...) rely on it, so we warn.
      if (written.has(key)) {
        state.warnings.push({ severity: 'warning', ...locate(state, keyNode, childPath(path, key)), message: `duplicate key "${key}" in a mapping: the later value is used` });
      }
      written.add(key);
      entries.set(key, pair.value === null || pair.value === undefined
        ? { kind: 'scalar', value: '', loc: locate(state, keyNode, childPath(path, key)) }
        : convert(state, pair.value, childPath(path, key), depth + 1));
    }
    result = { kind: 'map', entries, loc };
  } else if (node === null || node === undefined) {
    result = { kind: 'scalar', value: '', loc };
  } else {
    failAt(loc, 'unsupported YAML node');
  }
  const anchor = (node as { anchor?: string } | null)?.anchor;
  if (anchor && !state.anchors.has(anchor)) state.anchors.set(anchor, result);
  return result;
}

/** Reads and parses one YAML file within the limits. Throws ModelLoadError with the file's position. */
/** `warnings` receives the file's warnings (duplicate keys, lenient number readings) as they happen. */
export function readYamlFile(file: string, limits: LoadLimits, warnings: Diagnostic[], imported: ReadonlyMap<string, YNode> = new Map()): YamlFile {
  let text: string;
  try {
    const stat = statSync(file);
    if (stat.size > limits.maxFileBytes) {
      failAt({ file, line: 1, column: 1 }, `file is ${stat.size} bytes, over the limit of ${limits.maxFileBytes} bytes (limits.maxFileBytes)`);
    }
    if (!stat.isFile()) failAt({ file }, 'not a regular file');
    text = decodeUtf8(file, readFileSync(file));
  } catch (e) {
    if (e instanceof ModelLoadError) throw e;
    failAt({ file }, `cannot read the file (${(e as Error).message})`);
  }
  return parseYamlText(file, text, limits, warnings, imported);
}

/** The message for a parser failure that is not a YAML error: stack exhaustion, or a library fault. */
function unreadable(e: unknown): string {
  return e instanceof RangeError
    ? 'the YAML is nested too deeply to be read (lower than limits.maxDepth, but over what the parser can recurse)'
    : `the YAML cannot be read (internal ${e instanceof Error ? e.name : 'error'} in the YAML reader; please report it with this file)`;
}

/** UTF-8 text, or a located error at the first byte that is not UTF-8. */
function decodeUtf8(file: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const bad = lenient.indexOf('\uFFFD');
    const before = lenient.slice(0, Math.max(0, bad));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return failAt({ file, line, column }, 'the file is not valid UTF-8 text (wrong encoding?)');
  }
}

function parse(text: string, lines: LineCounter): Document {
  // failsafe: keep every scalar as text, the way Choreonoid's reader does.
  return parseDocument(text, { schema: 'failsafe', merge: true, uniqueKeys: false, lineCounter: lines, prettyErrors: false });
}

/**
 * libyaml (Choreonoid's parser) accepts flow collections whose continuation lines are not indented
 * (RIC30.yaml: `standardPose: [` then numbers at column 1); the yaml package does not. This indents
 * such lines by one space past the line that opened the collection, leaving everything else alone.
 */
export function indentFlowContinuations(text: string): string {
  const lines = text.split('\n');
  let depth = 0;
  let openerIndent = 0;
  let quote: string | null = null;
  return lines
    .map((line) => {
      let out = line;
      if (depth > 0 && quote === null) {
        const indent = /^ */.exec(line)![0].length;
        if (line.trim() !== '' && indent <= openerIndent) out = ' '.repeat(openerIndent + 1 - indent) + line;
      }
      const lineIndent = /^ */.exec(line)![0].length;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quote !== null) {
          if (ch === quote) quote = null;
          continue;
        }
        if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break;
        if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '[' || ch === '{') {
          if (depth === 0) openerIndent = lineIndent;
          depth += 1;
        } else if ((ch === ']' || ch === '}') && depth > 0) depth -= 1;
      }
      return out;
    })
    .join('\n');
}

/**
 * Rejects nesting deeper than `maxDepth` before the YAML parser sees it (the parser recurses and
 * would overflow the stack). Depth here is flow brackets plus block levels: leading `- ` items and
 * indentation, an over-estimate that real models stay far below.
 */
function checkNesting(file: string, text: string, maxDepth: number): void {
  let flow = 0;
  let line = 1;
  let lineStart = 0;
  let block = 0;
  let atLineStart = true;
  let quote: string | null = null;
  const fail = (i: number): never =>
    failAt({ file, line, column: i - lineStart + 1 }, `YAML nesting deeper than the limit of ${maxDepth} levels (limits.maxDepth)`);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      line++;
      lineStart = i + 1;
      atLineStart = true;
      block = 0;
      continue;
    }
    if (quote !== null) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (atLineStart) {
      if (ch === ' ') {
        block++;
        if (block + flow > maxDepth) fail(i);
        continue;
      }
      if (ch === '-' && (text[i + 1] === ' ' || text[i + 1] === '\n')) {
        block += 2;
        if (block + flow > maxDepth) fail(i);
        i++;
        if (text[i] === '\n') i--;
        continue;
      }
      atLineStart = false;
    }
    if (ch === '#' && (i === lineStart || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if ((ch === '"' || ch === "'") && (i === lineStart || /[\s[{,:]/.test(text[i - 1]!))) {
      // Only where a quoted scalar can begin: an apostrophe inside a plain word is just a character.
      quote = ch;
    } else if (ch === '[' || ch === '{') {
      flow++;
      if (block + flow > maxDepth) fail(i);
    } else if ((ch === ']' || ch === '}') && flow > 0) {
      flow--;
    }
  }
}

export function parseYamlText(
  file: string,
  text: string,
  limits: LoadLimits,
  warnings: Diagnostic[],
  imported: ReadonlyMap<string, YNode> = new Map(),
): YamlFile {
  checkNesting(file, text, limits.maxDepth);
  let direct = readYamlSubset(file, text, limits, warnings, imported);
  // The yaml route reads such files relaxed (see parseWithYamlPackage), with the relaxed text's columns.
  if (direct === FLOW_UNDERINDENTED) direct = readYamlSubset(file, indentFlowContinuations(text), limits, warnings, imported);
  return direct !== null && direct !== FLOW_UNDERINDENTED ? direct : yamlPackageRoute(file, text, limits, warnings, imported);
}

/**
 * The `yaml` package's reading of the text: the reference for yaml-reader.ts, and the route for
 * everything outside its subset (and for every error, whose message and location come from here).
 */
export function parseWithYamlPackage(
  file: string,
  text: string,
  limits: LoadLimits,
  warnings: Diagnostic[],
  imported: ReadonlyMap<string, YNode> = new Map(),
): YamlFile {
  checkNesting(file, text, limits.maxDepth);
  return yamlPackageRoute(file, text, limits, warnings, imported);
}

/** parseWithYamlPackage after the nesting check (parseYamlText has made it already). */
function yamlPackageRoute(file: string, text: string, limits: LoadLimits, warnings: Diagnostic[], imported: ReadonlyMap<string, YNode>): YamlFile {
  let lines = new LineCounter();
  let doc: Document;
  try {
    doc = parse(text, lines);
    if (doc.errors.some((e) => e.code === 'BAD_INDENT' && /^Flow /.test(e.message))) {
      const relaxedLines = new LineCounter();
      const relaxed = parse(indentFlowContinuations(text), relaxedLines);
      if (relaxed.errors.length === 0) {
        doc = relaxed;
        lines = relaxedLines;
      }
    }
  } catch (e) {
    failAt({ file, line: 1, column: 1 }, unreadable(e));
  }
  const err = doc.errors[0];
  if (err) {
    const pos = lines.linePos(err.pos[0]);
    failAt({ file, line: pos.line, column: pos.col }, `YAML syntax error: ${err.message.split('\n')[0]}`);
  }
  const state: WalkState = { file, doc, lines, limits, aliases: 0, anchors: new Map(), imported, expanding: new Set(), warnings, copiedNodes: 0, copies: new Map(), deepest: 0, importedUses: 0 };
  let root: YNode;
  try {
    root = convert(state, doc.contents, '', 0);
  } catch (e) {
    if (e instanceof ModelLoadError) throw e;
    // A stack overflow on absurd nesting, or a library error: still a located, typed failure.
    failAt({ file, line: 1, column: 1 }, unreadable(e));
  }
  return { file, root, anchors: state.anchors };
}
