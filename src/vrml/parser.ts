// VRML97 reader: statements, nodes, fields, PROTO/EXTERNPROTO with IS, DEF/USE, ROUTE (read and
// dropped), Script (skipped) and Inline (the included file parsed into the node). Every error is a
// ModelLoadError with file, node path and line:column.
//
// PROTO instances are expanded the way Choreonoid's parser does it: the body text is read again for
// each instance with the instance's field values bound to IS. Field values themselves (nodes
// included) are shared, never copied, so DEF/USE and IS never multiply a subtree.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { failAt } from '../model/errors.js';
import type { LoadLimits } from '../model/options.js';
import type { Diagnostic } from '../model/types.js';
import type { Field, FieldDecl, FieldType, FieldValue, ProtoDecl, VrmlNode } from './ast.js';
import { BUILTIN_INTERFACES, categoryOf, expectedCategory, type NodeCategory } from './builtins.js';
import {
  accept, createScanner, describeNext, expect, expectId, failScan, peek, peekId, positionAt, readId,
  readNumberOrNone, readQuoted, scanNumberList, scannerAt, skipSpace, type Scanner,
} from './scanner.js';

/** Shared by every file of one load: limits, warnings, the include graph and the node budget. */
export interface ParseSession {
  limits: LoadLimits;
  warnings: Diagnostic[];
  /** Parsed files by absolute path (an Inline used twice is read once and shared). */
  files: Map<string, VrmlNode[]>;
  /** Files being parsed, outermost first: an Inline of one of them is a cycle. */
  stack: string[];
  nodeCount: number;
  protoInstances: number;
  /** Distinct files read besides the main one (Inline, EXTERNPROTO). */
  included: number;
  /** PROTO declarations of files read for EXTERNPROTO, by absolute path. */
  externs: Map<string, Map<string, ProtoDecl>>;
}

/**
 * Most nodes one load may create. PROTO bodies are expanded per instance, so nested PROTOs could
 * otherwise grow exponentially with a small file.
 */
export const MAX_NODES = 4_000_000;

/**
 * Most PROTO instances one load may expand. A body is read again per instance, so PROTOs nesting
 * instances of each other grow exponentially; the largest corpus model has a few hundred.
 */
export const MAX_PROTO_INSTANCES = 100_000;

export function createSession(limits: LoadLimits): ParseSession {
  return { limits, warnings: [], files: new Map(), stack: [], nodeCount: 0, protoInstances: 0, included: 0, externs: new Map() };
}

interface State {
  s: Scanner;
  session: ParseSession;
  protos: Map<string, ProtoDecl>;
  /** True while `protos` is the declaring file's map (copied before a PROTO body declares its own). */
  sharedProtos?: boolean;
  defs: Map<string, VrmlNode>;
  /** DEF names of the file around a PROTO body (Choreonoid lets a body USE them). */
  outerDefs?: Map<string, VrmlNode>;
  /** The instance whose fields IS refers to, inside a PROTO body. */
  binding?: VrmlNode;
  /** PROTOs being expanded, for recursion detection. */
  expanding: ProtoDecl[];
  path: string[];
  depth: number;
}

let builtinCache: Map<string, Map<string, FieldDecl>> | undefined;

/** The built-in node interfaces, read once with the PROTO interface reader. */
function builtins(): Map<string, Map<string, FieldDecl>> {
  if (!builtinCache) {
    const table = new Map<string, Map<string, FieldDecl>>();
    const session = createSession({ maxFileBytes: 1e9, maxAliases: 0, maxDepth: 100, maxIncludedFiles: 0, maxTriangles: 1e9 });
    for (const [name, text] of Object.entries(BUILTIN_INTERFACES)) {
      const st: State = {
        s: createScanner(`<builtin ${name}>`, `${text} ]`), session, protos: new Map(), defs: new Map(),
        expanding: [], path: [], depth: 0,
      };
      table.set(name, readInterface(st, false));
    }
    builtinCache = table;
  }
  return builtinCache;
}

/** Declared fields of a built-in node type (for defaults). */
export function builtinField(type: string, field: string): FieldDecl | undefined {
  return builtins().get(type)?.get(field);
}

/** `Transform.children[0]/Shape.geometry/IndexedFaceSet.coordIndex`: nodes joined by '/', fields and indices attached. */
const pathText = (st: State): string =>
  st.path.reduce((out, part) => (out === '' || part.startsWith('.') || part.startsWith('[') ? out + part : `${out}/${part}`), '');

function fail(st: State, message: string, offset = st.s.pos): never {
  failScan(st.s, message, pathText(st) || undefined, offset);
}

function warn(st: State, message: string, offset = st.s.pos): void {
  const { line, column } = positionAt(st.s, offset);
  const path = pathText(st);
  st.session.warnings.push({ severity: 'warning', message, file: st.s.file, line, column, ...(path ? { path } : {}) });
}

/** Reads a file within the size limit, as text (a UTF-8 BOM is dropped). */
export function readModelText(file: string, limits: LoadLimits, from?: { file: string; line: number; column: number }): string {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    failAt(from ?? { file, line: 1, column: 1 }, from ? `cannot read '${file}'` : 'cannot read the file (missing or not a regular file)');
  }
  if (size > limits.maxFileBytes) {
    failAt(from ?? { file, line: 1, column: 1 }, `'${file}' is ${size} bytes, more than the limit of ${limits.maxFileBytes}`);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    failAt(from ?? { file, line: 1, column: 1 }, from ? `cannot read '${file}'` : 'cannot read the file (no permission?)');
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses one .wrl file (and, through Inline and EXTERNPROTO, the files it pulls in). */
export function parseVrmlFile(file: string, session: ParseSession, from?: { file: string; line: number; column: number }): VrmlNode[] {
  const abs = resolve(file);
  const cached = session.files.get(abs);
  if (cached) return cached;
  const text = readModelText(abs, session.limits, from);
  const nodes = parseVrmlText(abs, text, session);
  session.files.set(abs, nodes);
  return nodes;
}

/** Parses VRML text; `file` names it in messages and anchors relative urls. */
export function parseVrmlText(file: string, text: string, session: ParseSession): VrmlNode[] {
  return parseTopLevel(file, text, session).nodes;
}

function parseTopLevel(file: string, text: string, session: ParseSession): { nodes: VrmlNode[]; protos: Map<string, ProtoDecl> } {
  const s = createScanner(file, text);
  if (/^#VRML V1\.0/.test(text)) failScan(s, 'VRML 1.0 files are not supported (expected "#VRML V2.0 utf8")');
  session.stack.push(file);
  const st: State = { s, session, protos: new Map(), defs: new Map(), expanding: [], path: [], depth: 0 };
  const nodes: VrmlNode[] = [];
  try {
    for (;;) {
      const c = peek(s);
      if (c === -1) break;
      if (c === 93 || c === 125) fail(st, `unexpected '${String.fromCharCode(c)}' at the top level (unbalanced brackets)`);
      const node = readStatement(st, true);
      if (node) nodes.push(node);
    }
  } finally {
    session.stack.pop();
  }
  return { nodes, protos: st.protos };
}

/**
 * One statement: a node, USE, PROTO/EXTERNPROTO (top level only), ROUTE or Script (both dropped).
 * Returns the node, or null for statements that make none.
 */
function readStatement(st: State, topLevel: boolean): VrmlNode | null {
  const s = st.s;
  const start = (skipSpace(s), s.pos);
  const word = readId(s);
  if (word === null) fail(st, `expected a node, found ${describeNext(s)}`);
  switch (word) {
    case 'PROTO':
    case 'EXTERNPROTO':
      if (!topLevel) fail(st, `${word} can only be declared at the top level of a file or PROTO body`, start);
      if (word === 'PROTO') defineProto(st, start);
      else defineExternProto(st, start);
      return null;
    case 'ROUTE':
      // ROUTE a.b TO c.d: events are not simulated, the statement has no effect on the model.
      expectId(st.s, 'the source of the ROUTE', pathText(st));
      if (readId(s) !== 'TO') fail(st, "expected 'TO' in the ROUTE statement");
      expectId(st.s, 'the destination of the ROUTE', pathText(st));
      return null;
    case 'USE': {
      const name = expectId(s, 'a DEF name after USE', pathText(st));
      const node = st.defs.get(name) ?? st.outerDefs?.get(name);
      if (!node) fail(st, `USE of '${name}', which no DEF before it defines`, start);
      return node;
    }
    case 'DEF': {
      const name = expectId(s, 'a name after DEF', pathText(st));
      if (peek(s) === 123 && builtins().has(name)) {
        // "DEF Transform { ... }" (a name but no type) is in real files, e.g. Choreonoid's own
        // Tank/resource/tank.wrl; Choreonoid reads the name as the type too.
        warn(st, `DEF ${name} has no node type; read as DEF ${name} ${name}`, start);
        const node = readNode(st, name, start, name);
        st.defs.set(name, node);
        return node;
      }
      const type = expectId(s, `a node type after DEF ${name}`, pathText(st));
      if (type === 'Script') {
        warn(st, `Script node ${name} skipped (scripts are not run)`, start);
        skipBraces(st);
        return null;
      }
      // A DEF'd node is located at its DEF, where a reader looks for it.
      const node = readNode(st, type, start, name);
      st.defs.set(name, node);
      return node;
    }
    case 'Script':
      warn(st, 'Script node skipped (scripts are not run)', start);
      skipBraces(st);
      return null;
    default:
      return readNode(st, word, start);
  }
}

/** Skips a `{ ... }` block, aware of strings and comments. Returns the offset of the closing brace. */
function skipBraces(st: State, open = '{', close = '}'): number {
  const s = st.s;
  const start = s.pos;
  expect(s, open, 'to open the block', pathText(st));
  let level = 1;
  const t = s.text;
  for (;;) {
    skipSpace(s);
    if (s.pos >= t.length) fail(st, `unterminated block: no '${close}' matches this '${open}'`, start);
    const c = t[s.pos];
    if (c === '"') {
      readQuoted(s, pathText(st));
      continue;
    }
    s.pos++;
    if (c === open) level++;
    else if (c === close && --level === 0) return s.pos - 1;
  }
}

function newNode(st: State, type: string, start: number, defName?: string): VrmlNode {
  if (++st.session.nodeCount > MAX_NODES) {
    fail(st, `more than ${MAX_NODES} nodes (nested PROTO expansion or a huge file)`, start);
  }
  const { line, column } = positionAt(st.s, start);
  const node: VrmlNode = { type, fields: new Map(), file: st.s.file, line, column };
  if (defName !== undefined) node.defName = defName;
  return node;
}

function readNode(st: State, type: string, start: number, defName?: string): VrmlNode {
  if (st.depth >= st.session.limits.maxDepth) fail(st, `nodes nested deeper than ${st.session.limits.maxDepth}`, start);
  st.depth++;
  st.path.push(defName ? `${type}(${defName})` : type);
  try {
    const builtin = builtins().get(type);
    const proto = builtin ? undefined : st.protos.get(type);
    if (!builtin && !proto) {
      fail(st, `unknown node type '${type}' (neither a VRML97 node nor a declared PROTO)`, start);
    }
    const node = newNode(st, type, start, defName);
    if (!accept(st.s, '{')) fail(st, `expected '{' after ${type}, found ${describeNext(st.s)}`);
    if (proto) {
      node.proto = proto;
      // An EXTERNPROTO may declare fewer fields than its PROTO: the others keep the PROTO's defaults.
      if (proto.external) for (const decl of proto.external.fields.values()) node.fields.set(decl.name, { type: decl.type, value: decl.defaultValue });
      for (const decl of proto.fields.values()) node.fields.set(decl.name, { type: decl.type, value: decl.defaultValue });
    }
    const decls = builtin ?? proto!.fields;
    for (;;) {
      const c = peek(st.s);
      if (c === 125) {
        st.s.pos++;
        break;
      }
      if (c === -1) fail(st, `unterminated ${type} node: no '}' matches its '{'`, start);
      const fieldStart = st.s.pos;
      const name = readId(st.s);
      if (name === null) fail(st, `expected a field name or '}' in ${type}, found ${describeNext(st.s)}`);
      if (name === 'ROUTE' || name === 'PROTO' || name === 'EXTERNPROTO') {
        st.s.pos = fieldStart;
        readStatement(st, false);
        continue;
      }
      const decl = decls.get(name);
      if (!decl) fail(st, `${type} has no field '${name}'`, fieldStart);
      if (decl.kind === 'eventOut') fail(st, `'${name}' of ${type} is an eventOut and takes no value`, fieldStart);
      const field = readFieldValue(st, decl.type, builtin ? expectedCategory(type, name) : 'any', name, type);
      node.fields.set(name, field);
    }
    if (type === 'Inline') resolveInline(st, node, start);
    if (proto) node.actual = instantiate(st, node, proto, start);
    return node;
  } catch (e) {
    // The JavaScript stack can run out before maxDepth; report it here, where the place is known.
    if (e instanceof RangeError) fail(st, `nodes nested too deeply to read (the stack ran out at depth ${st.depth})`, start);
    throw e;
  } finally {
    st.path.pop();
    st.depth--;
  }
}

/** Reads a field value of the given type (or `IS name` inside a PROTO body). */
function readFieldValue(st: State, type: FieldType, category: NodeCategory | 'any', name: string, owner: string): Field {
  const s = st.s;
  skipSpace(s);
  const start = s.pos;
  const { line, column } = positionAt(s, start);
  if (peekId(s) === 'IS') {
    readId(s);
    const ref = expectId(s, `a PROTO field name after IS`, pathText(st));
    if (!st.binding) fail(st, `'${name} IS ${ref}' outside a PROTO body`, start);
    const bound = st.binding.fields.get(ref);
    if (!bound) fail(st, `'IS ${ref}': the PROTO ${st.binding.type} has no field '${ref}'`, start);
    if (bound.type !== type) {
      fail(st, `'${name} IS ${ref}': ${owner}.${name} is ${type} but the PROTO field ${ref} is ${bound.type}`, start);
    }
    return { type, value: bound.value, line, column };
  }
  st.path.push(`.${name}`);
  try {
    return { type, value: readValue(st, type, category), line, column };
  } finally {
    st.path.pop();
  }
}

const VECTOR_SIZE: Partial<Record<FieldType, number>> = {
  SFVec2f: 2, SFVec3f: 3, SFColor: 3, SFRotation: 4, MFVec2f: 2, MFVec3f: 3, MFColor: 3, MFRotation: 4,
  MFFloat: 1, MFTime: 1, MFInt32: 1,
};

function readValue(st: State, type: FieldType, category: NodeCategory | 'any'): FieldValue {
  const s = st.s;
  switch (type) {
    case 'SFBool': {
      const id = readId(s);
      if (id === 'TRUE') return true;
      if (id === 'FALSE') return false;
      if (id !== null) s.pos -= id.length;
      return fail(st, `expected TRUE or FALSE, found ${describeNext(s)}`);
    }
    case 'SFInt32':
      return readInt(st);
    case 'SFFloat':
    case 'SFTime':
      return readFloat(st);
    case 'SFString': {
      const v = readQuoted(s, pathText(st));
      if (v === null) fail(st, `expected a quoted string, found ${describeNext(s)}`);
      return v;
    }
    case 'SFVec2f':
    case 'SFVec3f':
    case 'SFColor':
    case 'SFRotation': {
      const n = VECTOR_SIZE[type]!;
      const out: number[] = new Array<number>(n);
      for (let i = 0; i < n; i++) out[i] = readFloat(st);
      return out;
    }
    case 'SFImage': {
      const w = readInt(st), h = readInt(st), comps = readInt(st);
      if (w < 0 || h < 0 || comps < 0 || comps > 4) fail(st, 'SFImage: bad width, height or component count');
      const out = [w, h, comps];
      for (let i = 0; i < w * h; i++) out.push(readInt(st));
      return out;
    }
    case 'SFNode':
      if (peekId(s) === 'NULL') {
        readId(s);
        return null;
      }
      return readChildNode(st, category);
    case 'MFString': {
      const open = (skipSpace(s), s.pos);
      if (!accept(s, '[')) return [readValue(st, 'SFString', category) as string];
      const out: string[] = [];
      while (!accept(s, ']')) {
        if (peek(s) === -1) fail(st, "unterminated list: no ']' matches this '['", open);
        out.push(readValue(st, 'SFString', category) as string);
      }
      return out;
    }
    case 'MFNode': {
      const open = (skipSpace(s), s.pos);
      if (!accept(s, '[')) {
        if (peekId(s) === 'NULL') {
          readId(s);
          return [];
        }
        return [readChildNode(st, category)];
      }
      const out: VrmlNode[] = [];
      for (let i = 0; ; i++) {
        const c = peek(s);
        if (c === 93) {
          s.pos++;
          break;
        }
        if (c === -1) fail(st, "unterminated node list: no ']' matches this '['", open);
        const id = peekId(s);
        if (id === 'NULL') {
          readId(s);
          continue;
        }
        if (id === 'ROUTE' || id === 'PROTO' || id === 'EXTERNPROTO' || id === 'Script') {
          readStatement(st, false);
          continue;
        }
        st.path.push(`[${i}]`);
        try {
          out.push(readChildNode(st, category));
        } finally {
          st.path.pop();
        }
      }
      return out;
    }
    default:
      return readNumberList(st, type);
  }
}

/** MFFloat, MFInt32, MFTime, MFVec2f, MFVec3f, MFColor, MFRotation as one flat array. */
function readNumberList(st: State, type: FieldType): number[] {
  const s = st.s;
  const n = VECTOR_SIZE[type]!;
  const isInt = type === 'MFInt32';
  const out: number[] = [];
  const open = (skipSpace(s), s.pos);
  if (!accept(s, '[')) {
    for (let i = 0; i < n; i++) out.push(isInt ? readInt(st) : readFloat(st));
    return out;
  }
  const stop = scanNumberList(s, out);
  if (stop >= 0) {
    if (stop >= s.text.length) fail(st, `unterminated ${type} list: no ']' matches this '['`, open);
    fail(st, `expected a number or ']' in the ${type} list, found ${describeNext(s)}`, stop);
  }
  if (isInt) {
    const bad = out.findIndex((v) => !Number.isInteger(v));
    if (bad >= 0) fail(st, `expected integers in the ${type} list, but value ${bad + 1} is ${out[bad]}`, open);
  }
  if (out.length % n !== 0) {
    fail(st, `${type} needs groups of ${n} numbers, but the list has ${out.length}`, open);
  }
  return out;
}

function readFloat(st: State): number {
  const v = readNumberOrNone(st.s);
  if (v === undefined) fail(st, `expected a number, found ${describeNext(st.s)}`);
  return v;
}

function readInt(st: State): number {
  const start = (skipSpace(st.s), st.s.pos);
  const v = readFloat(st);
  if (!Number.isInteger(v)) fail(st, `expected an integer, found ${v}`, start);
  return v;
}

/** A node in an SFNode/MFNode field, checked against what the field accepts. */
function readChildNode(st: State, category: NodeCategory | 'any'): VrmlNode {
  skipSpace(st.s);
  const start = st.s.pos;
  const node = readStatement(st, false);
  if (!node) fail(st, 'expected a node here', start);
  if (category !== 'any') {
    const actual = nodeCategory(node);
    if (actual !== category && actual !== 'any') {
      fail(st, `a ${node.type} node cannot stand here (expected a ${category} node)`, start);
    }
  }
  return node;
}

/** What a node stands for; a PROTO instance stands for its body's first node. */
export function nodeCategory(node: VrmlNode): NodeCategory | 'any' {
  let n: VrmlNode | null | undefined = node;
  for (let i = 0; n?.proto && i < 100; i++) n = n.actual;
  if (!n) return 'any';
  return categoryOf(n.type);
}

const FIELD_TYPES = new Set<string>([
  'SFBool', 'SFInt32', 'SFFloat', 'SFTime', 'SFString', 'SFVec2f', 'SFVec3f', 'SFColor', 'SFRotation', 'SFImage',
  'SFNode', 'MFInt32', 'MFFloat', 'MFTime', 'MFString', 'MFVec2f', 'MFVec3f', 'MFColor', 'MFRotation', 'MFNode',
]);

const emptyValue = (type: FieldType): FieldValue => {
  switch (type) {
    case 'SFBool': return false;
    case 'SFInt32': case 'SFFloat': case 'SFTime': return 0;
    case 'SFString': return '';
    case 'SFVec2f': return [0, 0];
    case 'SFVec3f': case 'SFColor': return [0, 0, 0];
    case 'SFRotation': return [0, 0, 1, 0];
    case 'SFImage': return [0, 0, 0];
    case 'SFNode': return null;
    case 'MFNode': return [];
    case 'MFString': return [];
    default: return [];
  }
};

/** `[ exposedField SFVec3f name default ... ]` up to and including the `]`. */
function readInterface(st: State, external: boolean): Map<string, FieldDecl> {
  const s = st.s;
  const fields = new Map<string, FieldDecl>();
  for (;;) {
    if (accept(s, ']')) return fields;
    if (peek(s) === -1) fail(st, "unterminated interface declaration: expected ']'");
    const kindStart = s.pos;
    const kind = readId(s);
    if (kind !== 'field' && kind !== 'exposedField' && kind !== 'eventIn' && kind !== 'eventOut') {
      fail(st, `expected field, exposedField, eventIn or eventOut, found ${describeNext({ ...s, pos: kindStart })}`, kindStart);
    }
    const typeStart = (skipSpace(s), s.pos);
    const type = readId(s);
    if (type === null || !FIELD_TYPES.has(type)) {
      fail(st, `unknown field type '${type ?? describeNext(s)}'`, typeStart);
    }
    const name = expectId(s, 'a field name', pathText(st));
    const hasValue = !external && (kind === 'field' || kind === 'exposedField');
    const value = hasValue ? readValue(st, type as FieldType, 'any') : emptyValue(type as FieldType);
    fields.set(name, { name, type: type as FieldType, kind, defaultValue: value });
  }
}

function ownProtos(st: State): Map<string, ProtoDecl> {
  if (st.sharedProtos) {
    st.protos = new Map(st.protos);
    st.sharedProtos = false;
  }
  return st.protos;
}

function defineProto(st: State, start: number): void {
  const s = st.s;
  const name = expectId(s, 'a PROTO name', pathText(st));
  expect(s, '[', `to open the interface of PROTO ${name}`, pathText(st));
  st.path.push(`PROTO(${name})`);
  try {
    const fields = readInterface(st, false);
    skipSpace(s);
    const bodyStart = s.pos + 1;
    const { line, column } = positionAt(s, start);
    const body = positionAt(s, bodyStart);
    const bodyEnd = skipBraces(st);
    ownProtos(st).set(name, {
      name, scanner: s, scope: st.protos, fields, file: s.file, line, column, bodyStart, bodyEnd, bodyLine: body.line, bodyColumn: body.column,
    });
  } finally {
    st.path.pop();
  }
}

/**
 * EXTERNPROTO Name [ interface without defaults ] "url#Name": the PROTO is read from the url's file
 * and its defaults apply. When no url can be read, instances keep empty values and render as
 * nothing (with a warning), which is harmless for every OpenHRP use seen.
 */
function defineExternProto(st: State, start: number): void {
  const s = st.s;
  const name = expectId(s, 'an EXTERNPROTO name', pathText(st));
  expect(s, '[', `to open the interface of EXTERNPROTO ${name}`, pathText(st));
  const fields = readInterface(st, true);
  const urls = readValue(st, 'MFString', 'any') as string[];
  const { line, column } = positionAt(s, start);
  const decl: ProtoDecl = { name, scanner: s, scope: st.protos, fields, file: s.file, line, column, bodyStart: 0, bodyEnd: 0, bodyLine: 0, bodyColumn: 0 };
  for (const url of urls) {
    const [filePart, fragment] = url.split('#', 2) as [string, string | undefined];
    const file = localPath(filePart, s.file);
    if (!file || !existsSync(file)) continue;
    if (st.session.stack.includes(file)) fail(st, `EXTERNPROTO ${name}: '${url}' includes a file that is being read (cycle)`, start);
    const parsed = parseExternal(st, file, start);
    const target = parsed.get(fragment || name);
    if (!target) fail(st, `EXTERNPROTO ${name}: '${file}' declares no PROTO ${fragment || name}`, start);
    for (const f of fields.values()) {
      const real = target.fields.get(f.name);
      if (!real || real.type !== f.type) fail(st, `EXTERNPROTO ${name}: field ${f.type} ${f.name} does not match the PROTO in '${file}'`, start);
      f.defaultValue = real.defaultValue;
    }
    decl.external = target;
    break;
  }
  if (!decl.external) warn(st, `EXTERNPROTO ${name}: none of its urls could be read; its instances are empty`, start);
  ownProtos(st).set(name, decl);
}

function parseExternal(st: State, file: string, start: number): Map<string, ProtoDecl> {
  const cached = st.session.externs.get(file);
  if (cached) return cached;
  const { line, column } = positionAt(st.s, start);
  countInclude(st, start);
  const text = readModelText(file, st.session.limits, { file: st.s.file, line, column });
  const { protos } = parseTopLevel(file, text, st.session);
  st.session.externs.set(file, protos);
  return protos;
}

function countInclude(st: State, start: number): void {
  // Files are counted as they are first read; the main file is not an include.
  if (++st.session.included > st.session.limits.maxIncludedFiles) {
    fail(st, `more than ${st.session.limits.maxIncludedFiles} included files`, start);
  }
}

/** %-escapes decoded; a malformed escape leaves the text as written (the file then is not found). */
function decodeUrl(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** A url as a local file path (file: scheme or relative/absolute path); null for other schemes. */
export function localPath(url: string, fromFile: string): string | null {
  let p = url.trim();
  if (/^file:\/\//i.test(p)) p = decodeUrl(p.replace(/^file:\/\//i, ''));
  else if (/^file:/i.test(p)) p = decodeUrl(p.slice(5));
  else if (/^[a-z][a-z0-9+.-]*:/i.test(p) && !/^[a-z]:[\\/]/i.test(p)) return null;
  if (p === '') return null;
  return isAbsolute(p) ? resolve(p) : resolve(dirname(fromFile), p);
}

/** Inline: the first url that names a readable file is parsed (VRML) or kept as a mesh file reference. */
function resolveInline(st: State, node: VrmlNode, start: number): void {
  const urls = (node.fields.get('url')?.value as string[] | undefined) ?? [];
  for (const url of urls) {
    const file = localPath(url, st.s.file);
    if (!file || !existsSync(file)) continue;
    node.inlineFile = file;
    if (extname(file).toLowerCase() !== '.wrl') return;
    if (st.session.stack.includes(file)) {
      fail(st, `Inline '${url}' includes '${file}', which is already being read (an include cycle)`, start);
    }
    if (!st.session.files.has(file)) countInclude(st, start);
    node.inlined = parseVrmlFile(file, st.session, { file: st.s.file, line: node.line, column: node.column });
    return;
  }
  fail(st, urls.length === 0 ? 'Inline without a url' : `Inline: no file found for ${urls.map((u) => `'${u}'`).join(', ')}`, start);
}

/** Reads a PROTO body for one instance; the first node of the body is what the instance is. */
function instantiate(st: State, instance: VrmlNode, proto: ProtoDecl, start: number): VrmlNode | null {
  const real = proto.external ?? proto;
  if (proto.bodyEnd === 0 && !proto.external) return null;
  if (++st.session.protoInstances > MAX_PROTO_INSTANCES) {
    fail(st, `more than ${MAX_PROTO_INSTANCES} PROTO instances (PROTOs nested exponentially?)`, start);
  }
  if (st.expanding.includes(real)) {
    fail(st, `PROTO ${real.name} instantiates itself (recursive PROTO)`, start);
  }
  const s = scannerAt(real.scanner, real.bodyStart, real.bodyLine, real.bodyColumn);
  const sub: State = {
    s, session: st.session, protos: real.scope, sharedProtos: true, defs: new Map(), outerDefs: st.defs, binding: instance,
    expanding: [...st.expanding, real], path: st.path, depth: st.depth,
  };
  let first: VrmlNode | null | undefined;
  while ((skipSpace(s), s.pos < real.bodyEnd)) {
    const node = readStatement(sub, true);
    if (node && first === undefined) first = node;
  }
  return first ?? null;
}
