// A direct reader for the plain YAML that model files are written in: block mappings and sequences,
// one-line flow collections (or flow collections continued on indented lines), plain and simple
// quoted scalars, anchors, aliases and `<<:` merges. It builds the located tree (yaml-tree.ts's
// YNode) in one pass over the text, with each node's line and column known while scanning.
//
// Why not only the `yaml` package: measured on WRS2018's 109 KB CarPrimitives.yaml, its lexer alone
// takes longer than Choreonoid's whole load of CarT2.body, and lexer + CST + document model + our
// conversion took 15–20× Choreonoid's time (BENCHMARKS.md, "Load against Choreonoid"). The `yaml`
// package stays the reference: anything this reader does not fully understand — block scalars,
// tags, multi-line plain or quoted scalars, escapes, directives, tabs, any syntax error, any limit
// being approached — makes it return null, and the caller reads
// the file with the `yaml` package, which gives the exact message and location. Its output is checked
// node for node against the `yaml` package route (test/body-yaml-reader.test.ts).
import type { LoadLimits } from '../model/options.js';
import type { Diagnostic, SourceLocation } from '../model/types.js';
import type { YMap, YNode, YScalar, YSeq, YamlFile } from './yaml-nodes.js';

// yaml-tree.ts's childPath (not imported: yaml-tree.ts imports this module, and imports may not cycle).
const childPath = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/** Raised inside the reader when the text leaves the subset; caught by readYamlSubset only. */
const OUTSIDE = Symbol('outside the YAML subset');
/** A flow collection continued on a line not indented past its block (see yaml-tree's indentFlowContinuations). */
const UNDERINDENTED = Symbol('flow continuation not indented');

/** readYamlSubset's answer when the text needs yaml-tree's relaxed flow indentation first. */
export const FLOW_UNDERINDENTED = 'flow continuation not indented';

/** What an anchor's node needs for copies through aliases (the yaml route's counts, see yaml-tree.ts). */
interface AnchorInfo {
  node: YNode;
  path: string;
  /** Aliases resolved and alias-copied nodes created inside the node (its copies repeat them). */
  aliases: number;
  nodes: number;
  /** Levels below the node, counted as the yaml route counts them (an alias adds one). */
  height: number;
  /** Warnings made inside it (duplicate keys): every copy repeats them at its own path, as the yaml route does. */
  warnings: Diagnostic[];
  /** A copy would differ from converting the node again (imported anchors used inside it). */
  impure: boolean;
}

const SPACE = 32;
const NEWLINE = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const COMMA = 44;

/** A character that may not start a plain scalar here (or starts something this reader leaves to `yaml`). */
const isIndicatorStart = (c: number): boolean =>
  c === 33 /* ! */ || c === 37 /* % */ || c === 64 /* @ */ || c === 96 /* ` */ || c === 124 /* | */ || c === 62 /* > */ ||
  c === 63 /* ? */ || c === 58 /* : */ || c === 44 /* , */ || c === 93 /* ] */ || c === 125 /* } */ || c === 35 /* # */;

const isFlowIndicator = (c: number): boolean => c === 44 || c === 91 || c === 93 || c === 123 || c === 125;

/**
 * Nodes copied through an alias. Their location is the original's line and column with the alias's
 * YAML path, built only when asked for (a diagnostic, a shape's source): alias-heavy terrains copy
 * tens of thousands of nodes, and a location object and path string for each was most of their
 * load's garbage (TerrainD.body: 59 % of its profile was the garbage collector). Classes, because a
 * shared getter is what makes the location lazy at no cost per node.
 */
class Copied {
  constructor(
    readonly original: YNode,
    protected readonly from: string,
    protected readonly to: string,
  ) {}

  get loc(): SourceLocation {
    const l = this.original.loc;
    return { file: l.file, path: this.to + (l.path ?? this.from).slice(this.from.length), line: l.line, column: l.column };
  }
}

/**
 * The node a copy was made from (the node itself when it is no copy): what Choreonoid would share
 * between the alias and its anchor, so what may share a conversion (see readGeometry).
 */
export function originalNode(node: YNode): YNode {
  let n: YNode = node;
  while (n instanceof Copied) n = n.original;
  return n;
}

class CopiedScalar extends Copied {
  readonly kind = 'scalar';
  readonly value: string;
  readonly sink: Diagnostic[] | undefined;
  constructor(original: YScalar, from: string, to: string) {
    super(original, from, to);
    this.value = original.value;
    this.sink = original.sink;
  }
}

/** A copied list; its items are copied when first asked for (a shared geometry's lists never are). */
class CopiedSeq extends Copied {
  readonly kind = 'seq';
  private copiedItems: YNode[] | undefined;
  constructor(
    private readonly originalSeq: YSeq,
    from: string,
    to: string,
  ) {
    super(originalSeq, from, to);
  }

  get items(): YNode[] {
    if (this.copiedItems === undefined) {
      const source = this.originalSeq.items;
      const items: YNode[] = new Array(source.length);
      for (let i = 0; i < items.length; i++) items[i] = relocated(source[i]!, this.from, this.to);
      this.copiedItems = items;
    }
    return this.copiedItems;
  }
}

/** A copied mapping; its values are copied when first asked for. */
class CopiedMap extends Copied {
  readonly kind = 'map';
  private copiedEntries: Map<string, YNode> | undefined;
  constructor(
    private readonly originalMap: YMap,
    from: string,
    to: string,
  ) {
    super(originalMap, from, to);
  }

  get entries(): Map<string, YNode> {
    if (this.copiedEntries === undefined) {
      const entries = new Map<string, YNode>();
      for (const [key, value] of this.originalMap.entries) entries.set(key, relocated(value, this.from, this.to));
      this.copiedEntries = entries;
    }
    return this.copiedEntries;
  }
}

/** A copy of `node` (built at path `from`) at path `to`, as the yaml route's alias copies are. */
function relocated(node: YNode, from: string, to: string): YNode {
  if (node.kind === 'scalar') return new CopiedScalar(node, from, to);
  if (node.kind === 'seq') return new CopiedSeq(node, from, to);
  return new CopiedMap(node, from, to);
}

/**
 * The tree for `text`, or null when the text is outside the subset described above (the caller then
 * uses the `yaml` package). Warnings (duplicate keys) are appended to `warnings` only on success.
 */
export function readYamlSubset(
  file: string,
  text: string,
  limits: LoadLimits,
  warnings: Diagnostic[],
  imported: ReadonlyMap<string, YNode>,
): YamlFile | null | typeof FLOW_UNDERINDENTED {
  const n = text.length;
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  const found: Diagnostic[] = [];
  /** Where scalars report lenient conversions: the caller's list, as on the yaml route. */
  const sink = warnings;
  const anchors = new Map<string, YNode>();
  /** The latest definition of each anchor name (an alias names the closest one before it). */
  const latest = new Map<string, AnchorInfo>();
  const open = new Set<string>();
  let aliases = 0;
  let copiedNodes = 0;
  let importedUses = 0;
  let deepest = 0;
  // Stay clear of the limits: near them the yaml route decides, with its exact message.
  const aliasBudget = Math.floor(limits.maxAliases * 0.9);
  const copyBudget = Math.floor(limits.maxAliases * 30 * 0.9);
  const depthBudget = limits.maxDepth - 4;

  const outside = (): never => {
    throw OUTSIDE;
  };
  /** Nodes built from the text so far (every node is located once when built). */
  let built = 0;
  const loc = (path: string, at: number, atLine: number, atLineStart: number): SourceLocation => {
    built++;
    return path === '' ? { file, line: atLine, column: at - atLineStart + 1 } : { file, path, line: atLine, column: at - atLineStart + 1 };
  };

  /** Skips spaces and a comment on the current line; stops at the newline (or end). */
  function skipLineRest(): void {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === SPACE) pos++;
      else if (c === HASH) {
        // A comment starts a line or follows a space; `20,# 0` is no comment (and no valid YAML).
        if (pos !== lineStart && text.charCodeAt(pos - 1) !== SPACE) outside();
        const end = text.indexOf('\n', pos);
        pos = end < 0 ? n : end;
        return;
      } else if (c === NEWLINE) return;
      else if (c === 9 || c === 13) outside();
      else return;
    }
  }

  /** Skips blank lines, comments and indentation up to the next content; returns its column (0-based) or -1 at the end. */
  function skipToContent(): number {
    for (;;) {
      skipLineRest();
      if (pos >= n) return -1;
      const c = text.charCodeAt(pos);
      if (c !== NEWLINE) return pos - lineStart;
      pos++;
      line++;
      lineStart = pos;
    }
  }

  /** After a node in block context: only spaces and a comment may follow on its line. */
  function endOfLine(): void {
    skipLineRest();
    if (pos < n && text.charCodeAt(pos) !== NEWLINE) outside();
  }

  /**
   * Whether an alias is the node an anchor just read names (`&a *b`, on its line or the next content): YAML
   * gives an alias no properties, and the yaml route reports it, so such a text is left to it.
   */
  function aliasAfterAnchor(): boolean {
    let p = pos;
    for (;;) {
      while (p < n && (text.charCodeAt(p) === SPACE || text.charCodeAt(p) === 9 || text.charCodeAt(p) === 13)) p++;
      if (p < n && text.charCodeAt(p) === HASH) while (p < n && text.charCodeAt(p) !== NEWLINE) p++;
      if (p < n && text.charCodeAt(p) === NEWLINE) {
        p++;
        continue;
      }
      return p < n && text.charCodeAt(p) === 42 /* * */;
    }
  }

  function readName(): string {
    const start = pos;
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === SPACE || c === NEWLINE || c === 9 || c === 13 || isFlowIndicator(c)) break;
      pos++;
    }
    if (pos === start) outside();
    return text.slice(start, pos);
  }

  /**
   * An anchor's name after its `&`. YAML wants white space after it (`&a[ 0 ]` is an error to the yaml route, a
   * name ended by a flow indicator here): anything else is left to the yaml route, which says where.
   */
  function readAnchorName(): string {
    const name = readName();
    if (pos < n) {
      const c = text.charCodeAt(pos);
      if (c !== SPACE && c !== NEWLINE && c !== 9 && c !== 13) outside();
    }
    return name;
  }

  /** A plain scalar's text: in block context up to `: `, ` #` or the line's end; in flow context also up to , [ ] { }. */
  function readPlain(flow: boolean): string {
    const start = pos;
    let end = pos;
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === NEWLINE) break;
      if (c === 9 || c === 13) outside();
      if (c === COLON) {
        const d = pos + 1 < n ? text.charCodeAt(pos + 1) : NEWLINE;
        if (d === SPACE || d === NEWLINE || (flow && isFlowIndicator(d))) break;
        // `a:b` inside flow collections is read differently by YAML versions: leave it to `yaml`.
        if (flow) outside();
      } else if (c === HASH && text.charCodeAt(pos - 1) === SPACE) break;
      else if (flow && isFlowIndicator(c)) break;
      pos++;
      if (c !== SPACE) end = pos;
    }
    return text.slice(start, end);
  }

  function readSingleQuoted(): string {
    pos++;
    let out = '';
    let from = pos;
    for (;;) {
      const q = text.indexOf("'", pos);
      const nl = text.indexOf('\n', pos);
      if (q < 0 || (nl >= 0 && nl < q)) outside();
      if (text.charCodeAt(q + 1) === 39) {
        out += text.slice(from, q + 1);
        pos = from = q + 2;
        continue;
      }
      out += text.slice(from, q);
      pos = q + 1;
      return out;
    }
  }

  function readDoubleQuoted(): string {
    pos++;
    const start = pos;
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 34) {
        pos++;
        return text.slice(start, pos - 1);
      }
      // Escapes and line folding are left to `yaml`.
      if (c === 92 || c === NEWLINE || c === 13 || c === 9) outside();
      pos++;
    }
    return outside();
  }

  /** A quoted scalar must be followed by a separator in its context. */
  function afterQuoted(flow: boolean): void {
    if (pos >= n) return;
    const c = text.charCodeAt(pos);
    if (c === SPACE || c === NEWLINE || c === COLON || (flow && isFlowIndicator(c))) return;
    outside();
  }

  /** The quoted scalar starting with `c` (" or '), checked against what follows it; null when `c` starts no quote. */
  function readQuoted(c: number, flow: boolean): string | null {
    if (c !== 34 && c !== 39) return null;
    const value = c === 34 ? readDoubleQuoted() : readSingleQuoted();
    afterQuoted(flow);
    return value;
  }

  function noteDepth(depth: number): void {
    if (depth > deepest) deepest = depth;
    if (depth > depthBudget) outside();
  }

  /** `*name` at `path`, depth `depth`: a copy of the anchored node, or the importing body's node. */
  function alias(path: string, depth: number): YNode {
    pos++;
    const name = readName();
    aliases++;
    if (aliases > aliasBudget) outside();
    const info = latest.get(name);
    if (!info) {
      if (open.has(name)) outside();
      const shared = imported.get(name);
      if (!shared) outside();
      importedUses++;
      return shared!;
    }
    if (open.has(name) || info.impure || path === '') outside();
    aliases += info.aliases;
    copiedNodes += info.nodes;
    if (aliases > aliasBudget || copiedNodes > copyBudget) outside();
    noteDepth(depth + 1 + info.height);
    for (const w of info.warnings) found.push({ ...w, path: path + (w.path ?? info.path).slice(info.path.length) });
    return relocated(info.node, info.path, path);
  }

  /** Starts an anchor's bookkeeping; the returned function finishes it with the anchored node. */
  function anchor(name: string, path: string, depth: number): (node: YNode) => void {
    if (open.has(name)) outside();
    open.add(name);
    const before = { aliases, copiedNodes, built, found: found.length, importedUses, deepest };
    deepest = depth;
    return (node) => {
      open.delete(name);
      const height = deepest - depth;
      deepest = Math.max(before.deepest, deepest);
      latest.set(name, {
        node,
        path,
        aliases: aliases - before.aliases,
        // Nodes in it, built or copied (copies are counted, not made, until they are read).
        nodes: copiedNodes - before.copiedNodes + built - before.built,
        height,
        warnings: found.slice(before.found),
        impure: importedUses !== before.importedUses,
      });
      if (!anchors.has(name)) anchors.set(name, node);
    };
  }

  /** A node in flow context (inside [ ] or { }). */
  function flowNode(path: string, depth: number, blockIndent: number): YNode {
    noteDepth(depth);
    const c = text.charCodeAt(pos);
    if (c === 38 /* & */) {
      pos++;
      const name = readAnchorName();
      if (aliasAfterAnchor()) outside();
      skipFlowSpace(blockIndent);
      const done = anchor(name, path, depth);
      const node = flowNode(path, depth, blockIndent);
      done(node);
      return node;
    }
    if (c === 42 /* * */) return alias(path, depth);
    if (c === 91 /* [ */) return flowSeq(path, depth, blockIndent);
    if (c === 123 /* { */) return flowMap(path, depth, blockIndent);
    const at = pos;
    const atLine = line;
    const atLineStart = lineStart;
    let value = readQuoted(c, true);
    if (value === null) {
      if (isIndicatorStart(c) || c === 38 || c === 42 || (c === DASH && !plainSafeInFlow(pos + 1))) outside();
      value = readPlain(true);
      if (value === '') outside();
      // A plain scalar continued on the next line (a missing comma in AizuSpider's lists): folded with a space.
      while (pos < n && text.charCodeAt(pos) === NEWLINE) {
        let next = pos + 1;
        while (next < n && text.charCodeAt(next) === SPACE) next++;
        const d = next < n ? text.charCodeAt(next) : NEWLINE;
        if (d === NEWLINE || d === HASH || isFlowIndicator(d) || isIndicatorStart(d) || d === 38 || d === 42 || d === 34 || d === 39) break;
        if (d === DASH && isBlank(next + 1)) break;
        if (next - (pos + 1) <= blockIndent) throw UNDERINDENTED;
        pos = next;
        line++;
        lineStart = text.lastIndexOf('\n', next) + 1;
        value += ` ${readPlain(true)}`;
      }
    }
    return { kind: 'scalar', value, loc: loc(path, at, atLine, atLineStart), sink };
  }

  /** A `-` starts a plain scalar in a flow collection only when a character that may continue one follows (`-1`, not `-,`). */
  const plainSafeInFlow = (at: number): boolean => !isBlank(at) && !isFlowIndicator(text.charCodeAt(at));

  const isBlank = (at: number): boolean => {
    if (at >= n) return true;
    const c = text.charCodeAt(at);
    return c === SPACE || c === NEWLINE;
  };

  /** Spaces, comments and line breaks inside a flow collection; continuation lines must be indented past the block. */
  function skipFlowSpace(blockIndent: number): void {
    for (;;) {
      skipLineRest();
      if (pos >= n) outside();
      if (text.charCodeAt(pos) !== NEWLINE) return;
      pos++;
      line++;
      lineStart = pos;
      while (pos < n && text.charCodeAt(pos) === SPACE) pos++;
      if (pos >= n) outside();
      const c = text.charCodeAt(pos);
      if (c === NEWLINE || c === HASH) continue;
      const col = pos - lineStart;
      // A closing bracket may stand at the block's own indentation; other content must be indented past it.
      if (col < blockIndent || (col === blockIndent && c !== 93 && c !== 125)) throw UNDERINDENTED;
    }
  }

  function flowSeq(path: string, depth: number, blockIndent: number): YSeq {
    const seq: YSeq = { kind: 'seq', items: [], loc: loc(path, pos, line, lineStart) };
    pos++;
    for (;;) {
      skipFlowSpace(blockIndent);
      const c = text.charCodeAt(pos);
      if (c === 93 /* ] */) {
        pos++;
        return seq;
      }
      seq.items.push(flowNode(childPath(path, seq.items.length), depth + 1, blockIndent));
      skipFlowSpace(blockIndent);
      const d = text.charCodeAt(pos);
      if (d === COMMA) pos++;
      else if (d === 93) {
        pos++;
        return seq;
      } else outside();
    }
  }

  function flowMap(path: string, depth: number, blockIndent: number): YMap {
    const map: YMap = { kind: 'map', entries: new Map(), loc: loc(path, pos, line, lineStart) };
    const explicit = new Set<string>();
    pos++;
    for (;;) {
      skipFlowSpace(blockIndent);
      if (text.charCodeAt(pos) === 125 /* } */) {
        pos++;
        return map;
      }
      const keyAt = pos;
      const keyLine = line;
      const keyLineStart = lineStart;
      const key = flowKey();
      if (text.charCodeAt(pos) !== COLON) outside();
      pos++;
      skipFlowSpace(blockIndent);
      const c = text.charCodeAt(pos);
      if (c === COMMA || c === 125) outside();
      entry(map, explicit, key, keyAt, keyLine, keyLineStart, () => flowNode(childPath(path, key), depth + 1, blockIndent), path);
      skipFlowSpace(blockIndent);
      const d = text.charCodeAt(pos);
      if (d === COMMA) pos++;
      else if (d === 125) {
        pos++;
        return map;
      } else outside();
    }
  }

  /** A mapping key: a plain or quoted scalar on one line. */
  function flowKey(): string {
    const c = text.charCodeAt(pos);
    if (c === 34) return readDoubleQuoted();
    if (c === 39) return readSingleQuoted();
    if (isIndicatorStart(c) || c === 38 || c === 42 || c === 91 || c === 123 || c === 39 || (c === DASH && !plainSafeInFlow(pos + 1))) outside();
    const key = readPlain(true);
    if (key === '') outside();
    return key;
  }

  /**
   * One `key: value` of a mapping. `<<` merges a mapping (or a list of them) under what is there;
   * a key written twice in the mapping warns, as the yaml route does. Merged keys are not duplicates.
   */
  function entry(
    map: YMap,
    explicit: Set<string>,
    key: string,
    keyAt: number,
    keyLine: number,
    keyLineStart: number,
    value: () => YNode,
    path: string,
  ): void {
    if (key === '<<') {
      const merged = value();
      const sources = merged.kind === 'seq' ? merged.items : [merged];
      for (const m of sources) {
        if (m.kind !== 'map') outside();
        for (const [k, v] of (m as YMap).entries) map.entries.set(k, v);
      }
      return;
    }
    if (explicit.has(key)) {
      found.push({
        severity: 'warning',
        ...loc(childPath(path, key), keyAt, keyLine, keyLineStart),
        message: `duplicate key "${key}" in a mapping: the later value is used`,
      });
    }
    explicit.add(key);
    map.entries.set(key, value());
  }

  /**
   * The value after `key:` or `- ` in block context, at `pos` on the indicator's line: an inline node,
   * or (when the line ends) a block node on the following lines indented past `indent`. `seqAtIndent`:
   * a mapping's value may be a block sequence at the mapping's own indentation.
   */
  function blockValue(path: string, depth: number, indent: number, seqAtIndent: boolean): YNode {
    noteDepth(depth);
    while (pos < n && text.charCodeAt(pos) === SPACE) pos++;
    if (pos < n && (text.charCodeAt(pos) === 9 || text.charCodeAt(pos) === 13)) outside();
    const c = pos < n ? text.charCodeAt(pos) : NEWLINE;
    if (c === 38 /* & */) {
      pos++;
      const name = readAnchorName();
      if (aliasAfterAnchor()) outside();
      const done = anchor(name, path, depth);
      const node = blockValue(path, depth, indent, seqAtIndent);
      done(node);
      return node;
    }
    if (c === NEWLINE || c === HASH) {
      // The empty scalar is placed where the line's content would have been, as `yaml` places it.
      const emptyAt = pos;
      const emptyLine = line;
      const emptyLineStart = lineStart;
      const save = { pos, line, lineStart };
      const col = skipToContent();
      const nextIsSeq = col >= 0 && text.charCodeAt(pos) === DASH && isBlank(pos + 1);
      if (col > indent || (seqAtIndent && col === indent && nextIsSeq)) return blockNode(path, depth, col, indent);
      pos = save.pos;
      line = save.line;
      lineStart = save.lineStart;
      return { kind: 'scalar', value: '', loc: loc(path, emptyAt, emptyLine, emptyLineStart), sink };
    }
    // Something on the indicator's line: a compact nested collection inside a sequence item, or an inline node.
    const col = pos - lineStart;
    if (c === DASH && isBlank(pos + 1)) {
      if (seqAtIndent) outside();
      return blockSeq(path, depth, col);
    }
    return inlineOrMap(path, depth, col, indent, !seqAtIndent);
  }

  /** A node starting at `pos` (column `col`) on a new line, in block context. */
  function blockNode(path: string, depth: number, col: number, indent: number): YNode {
    const c = text.charCodeAt(pos);
    if (c === DASH && isBlank(pos + 1)) return blockSeq(path, depth, col);
    if (c === 38 /* & */) {
      pos++;
      const name = readAnchorName();
      if (aliasAfterAnchor()) outside();
      while (pos < n && text.charCodeAt(pos) === SPACE) pos++;
      let at = pos - lineStart;
      if (pos >= n || text.charCodeAt(pos) === NEWLINE || text.charCodeAt(pos) === HASH) {
        // The anchor alone on its line: the node follows on the next lines.
        at = skipToContent();
        if (at <= indent) outside();
      }
      const done = anchor(name, path, depth);
      const node = blockNode(path, depth, at, indent);
      done(node);
      return node;
    }
    return inlineOrMap(path, depth, col, col - 1, true);
  }

  /**
   * At `pos` (column `col`): a node on this line, which becomes the first key of a block mapping at
   * column `col` when `: ` follows it (where `mapAllowed`: not on a mapping key's line). `indent` is the
   * enclosing block's indentation.
   */
  function inlineOrMap(path: string, depth: number, col: number, indent: number, mapAllowed: boolean): YNode {
    const c = text.charCodeAt(pos);
    if (c === 42 /* * */) {
      const node = alias(path, depth);
      endOfLine();
      return node;
    }
    if (c === 91 || c === 123) {
      const node = c === 91 ? flowSeq(path, depth, indent) : flowMap(path, depth, indent);
      endOfLine();
      return node;
    }
    const at = pos;
    const atLine = line;
    const atLineStart = lineStart;
    let value = readQuoted(c, false);
    if (value === null) {
      if (isIndicatorStart(c)) outside();
      value = readPlain(false);
    }
    if (pos < n && text.charCodeAt(pos) === COLON) {
      if (!mapAllowed || !isBlank(pos + 1)) outside();
      return blockMap(path, depth, col, value, at, atLine, atLineStart);
    }
    endOfLine();
    return { kind: 'scalar', value, loc: loc(path, at, atLine, atLineStart), sink };
  }

  /** A block mapping at column `col` whose first key has been read (pos at its `:`). */
  function blockMap(path: string, depth: number, col: number, firstKey: string, keyAt: number, keyLine: number, keyLineStart: number): YMap {
    const map: YMap = { kind: 'map', entries: new Map(), loc: loc(path, keyAt, keyLine, keyLineStart) };
    const explicit = new Set<string>();
    let key = firstKey;
    for (;;) {
      pos++; // the colon
      entry(map, explicit, key, keyAt, keyLine, keyLineStart, () => blockValue(childPath(path, key), depth + 1, col, true), path);
      const next = skipToContent();
      if (next < 0 || next < col) return map;
      if (next > col) outside();
      keyAt = pos;
      keyLine = line;
      keyLineStart = lineStart;
      const c = text.charCodeAt(pos);
      const quoted = readQuoted(c, false);
      if (quoted !== null) key = quoted;
      else {
        if (isIndicatorStart(c) || c === 38 || c === 42 || c === 91 || c === 123 || c === DASH) outside();
        key = readPlain(false);
      }
      if (key === '' || pos >= n || text.charCodeAt(pos) !== COLON || !isBlank(pos + 1)) outside();
    }
  }

  /** A block sequence whose first `-` is at `pos`, column `col`. */
  function blockSeq(path: string, depth: number, col: number): YSeq {
    const seq: YSeq = { kind: 'seq', items: [], loc: loc(path, pos, line, lineStart) };
    for (;;) {
      pos++; // the dash
      seq.items.push(blockValue(childPath(path, seq.items.length), depth + 1, col, false));
      const next = skipToContent();
      if (next < 0 || next < col) return seq;
      if (next > col || text.charCodeAt(pos) !== DASH || !isBlank(pos + 1)) {
        // A mapping key at the sequence's column ends the sequence (`key:\n- a\nnext: b`).
        return seq;
      }
    }
  }

  try {
    const col = skipToContent();
    let root: YNode;
    if (col < 0) return null;
    if (col !== 0) return null;
    // Directives, document markers and a root that is not a collection are left to `yaml`.
    if (text.startsWith('---', pos) || text.startsWith('...', pos)) return null;
    root = blockNode('', 0, 0, -1);
    if (root.kind === 'scalar') return null;
    if (skipToContent() >= 0) return null;
    warnings.push(...found);
    return { file, root, anchors };
  } catch (e) {
    // Stack exhaustion on absurd nesting (limits.maxDepth raised far): the yaml route reports it.
    if (e === OUTSIDE || e instanceof RangeError) return null;
    if (e === UNDERINDENTED) return FLOW_UNDERINDENTED;
    throw e;
  }
}
