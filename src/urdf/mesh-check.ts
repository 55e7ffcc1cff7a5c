// Whether rviz can load a mesh file the URDF references, decided from the file's bytes and name the
// way rviz2 decides (rviz_rendering's mesh_loader.cpp, Humble): a name whose suffix after its first
// dot is stl, STL, stlb or STLB goes to rviz's own STL reader, which reads binary STL only; any other
// name goes to assimp. The checks look at structure, not geometry — a binary STL by its header and
// size, COLLADA by its tags, OBJ by its vertex and face lines — so a big mesh costs one scan at most.
// A file cut short is caught wherever the format can tell: anywhere in a binary STL (its triangle
// count) or COLLADA (its closing tags), an ASCII STL by its missing "endsolid"; an OBJ has no end
// marker, so only when the cut leaves no faces or a face naming a vertex that was cut off.
import { Buffer } from 'node:buffer';

export interface MeshFault {
  /** What is wrong, worded to follow the file name: "is empty", "is truncated: …". */
  problem: string;
  /**
   * Who cannot load it: `rviz`, or only `assimp` — MoveIt's mesh loader and `assimp info` — where
   * rviz's own STL reader loads it with a warning.
   */
  refusedBy: 'rviz' | 'assimp';
}

/**
 * Extensions assimp 5.2 imports (`assimp listext`), which rviz hands every file its own readers do
 * not take; test/urdf-mesh-check.test.ts compares the list with the installed assimp.
 */
export const ASSIMP_EXTENSIONS: ReadonlySet<string> = new Set(
  ('3d 3ds 3mf ac ac3d acc amf ase ask assbin b3d blend bsp bvh cob csm dae dxf enff fbx glb gltf hmp ifc ifczip iqm irr ' +
    'irrmesh lwo lws lxo md2 md3 md5anim md5camera md5mesh mdc mdl mesh mesh.xml mot ms3d ndo nff obj off ogex pk3 ply ' +
    'pmx prj q3o q3s raw scn sib smd step stl stp ter uc vta x x3d x3db xgl xml zae zgl').split(' '),
);

/** rviz's STL reader takes a file by its complete suffix (Qt's QFileInfo::completeSuffix), case as listed. */
const RVIZ_STL_SUFFIXES = new Set(['stl', 'STL', 'stlb', 'STLB']);
const RVIZ_OGRE_SUFFIXES = new Set(['mesh', 'MESH']);

const completeSuffix = (fileName: string): string => {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1);
};

const lastExtension = (fileName: string): string => {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
};

/** What keeps rviz from loading `data` as the file `fileName` (a name or path), or null when nothing does. */
export function meshFault(fileName: string, data: Uint8Array): MeshFault | null {
  const suffix = completeSuffix(fileName);
  const ext = lastExtension(fileName);
  const rvizStl = RVIZ_STL_SUFFIXES.has(suffix);
  // (assimp then guesses from the content, and reads a binary STL whose header says "STL" or "solid";
  // models never get here: the loaders accept only .stl, .dae and .obj mesh files.)
  if (!rvizStl && !RVIZ_OGRE_SUFFIXES.has(suffix) && !ASSIMP_EXTENSIONS.has(ext)) {
    return { problem: `has ${ext === '' ? 'no extension' : `the extension ".${ext}"`}, which names none of the formats rviz loads`, refusedBy: 'rviz' };
  }
  if (ext !== 'stl' && ext !== 'stlb' && ext !== 'dae' && ext !== 'obj') return null; // formats we do not inspect
  if (data.length === 0) return { problem: 'is empty', refusedBy: 'rviz' };
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (ext === 'dae') return colladaFault(bytes);
  if (ext === 'obj') return objFault(bytes);
  return stlFault(bytes, rvizStl);
}

const STL_HEADER = 84;
const STL_FACET = 50;

const triangles = (n: number): string => `${n} triangle${n === 1 ? '' : 's'}`;

/** Whether the first 500 bytes (after leading spaces) read "solid" and are ASCII: assimp's test for ASCII STL. */
function looksAscii(b: Buffer): boolean {
  let i = 0;
  while (i < b.length && (b[i] === 0x20 || (b[i]! >= 0x09 && b[i]! <= 0x0d))) i++;
  if (b.toString('latin1', i, i + 5) !== 'solid') return false;
  const end = Math.min(b.length, 500);
  for (let k = 0; k < end; k++) if (b[k]! > 127) return false;
  return true;
}

function stlFault(b: Buffer, rvizStl: boolean): MeshFault | null {
  const size = b.length;
  const count = size >= STL_HEADER ? b.readUInt32LE(80) : 0;
  const expected = STL_HEADER + STL_FACET * count;
  if (size >= STL_HEADER && size === expected) {
    if (count === 0) return { problem: 'is a binary STL with no triangles', refusedBy: 'rviz' };
    // rviz's reader calls a file ASCII when it starts with "solid" and contains "endsolid" anywhere.
    if (rvizStl && b.toString('latin1', 0, 5) === 'solid' && b.indexOf('endsolid', 5, 'latin1') >= 0) {
      return {
        problem: 'is a binary STL whose header starts with "solid" and which contains "endsolid": rviz\'s STL reader takes it for ASCII STL, which it does not read',
        refusedBy: 'rviz',
      };
    }
    return null;
  }
  if (looksAscii(b)) {
    if (b.indexOf('endsolid', 5, 'latin1') < 0) return { problem: 'is an ASCII STL cut short: it has no "endsolid"', refusedBy: 'rviz' };
    if (rvizStl) {
      return { problem: 'is an ASCII STL: rviz reads .stl files with its own reader, which reads binary STL only (convert it to binary STL)', refusedBy: 'rviz' };
    }
    if (b.indexOf('vertex', 5, 'latin1') < 0) return { problem: 'is an ASCII STL with no triangles', refusedBy: 'rviz' };
    return null;
  }
  if (size < STL_HEADER) return { problem: `is truncated: ${size} bytes, shorter than the ${STL_HEADER}-byte header of a binary STL`, refusedBy: 'rviz' };
  if (size < expected) {
    return { problem: `is truncated: its header announces ${triangles(count)} (${expected} bytes), the file has ${size} bytes`, refusedBy: 'rviz' };
  }
  return {
    problem: `has ${size - expected} bytes after the ${triangles(count)} its header announces (${expected} bytes)`,
    refusedBy: rvizStl ? 'assimp' : 'rviz',
  };
}

const lineAt = (text: string, offset: number): number => {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
};

/** The document as text: UTF-16 by its byte order mark, otherwise byte by byte (tags are ASCII in UTF-8 too). */
function xmlText(b: Buffer): string {
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b);
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b);
  return b.toString('latin1', b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0);
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Well-formedness as far as the element structure goes (tags nest and close; comments, CDATA,
 * processing instructions and the doctype end; attribute values are quoted), then a <COLLADA>
 * element. One pass, no tree. assimp's XML reader (pugixml) refuses a document that fails any of
 * these, and lets text or further elements outside the root pass, so this does too.
 */
function colladaFault(b: Buffer): MeshFault | null {
  const text = xmlText(b);
  const malformed = (what: string, at: number): MeshFault => ({ problem: `is not well-formed XML: line ${lineAt(text, at)}: ${what}`, refusedBy: 'rviz' });
  // Whatever is still open when the text runs out says the file was cut short.
  const cut = (what: string, at: number): MeshFault => ({ problem: `is truncated: ${what} that starts on line ${lineAt(text, at)} never ends`, refusedBy: 'rviz' });
  const open: { name: string; at: number }[] = [];
  let root: string | undefined;
  let collada = false;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return cut('a comment', lt);
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) return cut('a CDATA section', lt);
      i = end + 3;
    } else if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) return cut('a processing instruction', lt);
      i = end + 2;
    } else if (text.startsWith('<!', lt)) {
      // <!DOCTYPE …>, with an internal subset in brackets that may itself hold '>'.
      const close = text.indexOf('>', lt);
      const bracket = text.indexOf('[', lt);
      const subsetEnd = bracket >= 0 && (close < 0 || bracket < close) ? text.indexOf(']', bracket) : -2;
      const end = subsetEnd === -2 ? close : subsetEnd < 0 ? -1 : text.indexOf('>', subsetEnd);
      if (end < 0) return cut('a declaration', lt);
      i = end + 1;
    } else if (text.startsWith('</', lt)) {
      let k = lt + 2;
      while (k < text.length && !isSpace(text.charCodeAt(k)) && text[k] !== '>') k++;
      const name = text.slice(lt + 2, k);
      while (k < text.length && isSpace(text.charCodeAt(k))) k++;
      if (k >= text.length) return cut(`the end tag </${name}`, lt);
      if (text[k] !== '>') return malformed(`the end tag </${name}> has more than a name`, lt);
      const top = open.pop();
      if (!top) return malformed(`</${name}> closes an element that is not open`, lt);
      if (top.name !== name) return malformed(`</${name}> closes <${top.name}> (opened on line ${lineAt(text, top.at)})`, lt);
      i = k + 1;
    } else {
      let k = lt + 1;
      while (k < text.length && !isSpace(text.charCodeAt(k)) && text[k] !== '>' && text[k] !== '/') k++;
      const name = text.slice(lt + 1, k);
      if (name === '') return k >= text.length ? cut('a tag', lt) : malformed('a "<" that starts no tag', lt);
      const tag = startTagEnd(text, k);
      if (tag === 'unquoted') return malformed(`an attribute of <${name}> without a quoted value`, lt);
      if (tag === 'open') return cut(`the tag <${name}`, lt);
      if (open.length === 0) root ??= name;
      if (name === 'COLLADA') collada = true;
      if (!tag.selfClosing) open.push({ name, at: lt });
      i = tag.end + 1;
    }
  }
  const last = open[open.length - 1];
  if (last) {
    return { problem: `is truncated: it ends inside <${last.name}>, opened on line ${lineAt(text, last.at)}`, refusedBy: 'rviz' };
  }
  if (root === undefined) {
    // A declaration or comment with nothing after it is the start of a document cut short.
    return { problem: i > 0 ? 'is truncated: it ends before its root element' : 'is not XML: it has no element', refusedBy: 'rviz' };
  }
  // assimp looks for a <COLLADA> element anywhere in the document.
  if (!collada) return { problem: `is not COLLADA: it has no <COLLADA> element (its root is <${root}>)`, refusedBy: 'rviz' };
  return null;
}

/**
 * Where the start tag whose attributes begin at `k` ends ('>' of `>` or `/>`), reading `name="value"`
 * pairs so that a '>' inside a value does not end it; 'unquoted' for a value without quotes, 'open'
 * when the text ends first.
 */
function startTagEnd(text: string, k: number): { end: number; selfClosing: boolean } | 'unquoted' | 'open' {
  const n = text.length;
  for (;;) {
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    if (k >= n) return 'open';
    if (text[k] === '>') return { end: k, selfClosing: false };
    if (text[k] === '/' && text[k + 1] === '>') return { end: k + 1, selfClosing: true };
    while (k < n && text[k] !== '=' && text[k] !== '>' && !isSpace(text.charCodeAt(k))) k++;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    if (k >= n) return 'open';
    if (text[k] !== '=') return 'unquoted';
    k++;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    const quote = text[k];
    if (quote !== '"' && quote !== "'") return k >= n ? 'open' : 'unquoted';
    const close = text.indexOf(quote, k + 1);
    if (close < 0) return 'open';
    k = close + 1;
  }
}

/**
 * Vertices, faces and the vertex indices of faces, as assimp's OBJ importer reads them: a positive
 * index counts from the file's first vertex (a face may name a vertex defined after it), a negative
 * one back from the last vertex read so far, and 0 is no index.
 */
function objFault(b: Buffer): MeshFault | null {
  const text = b.toString('latin1');
  const n = text.length;
  let vertices = 0;
  let faces = 0;
  let highest = 0;
  let highestLine = 0;
  let line = 0;
  for (let pos = 0; pos < n; ) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    line++;
    let k = pos;
    while (k < end && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k++;
    const c0 = text[k];
    const c1 = text.charCodeAt(k + 1);
    const spaced = k + 1 < end && (c1 === 0x20 || c1 === 0x09);
    if (c0 === 'v' && spaced) vertices++;
    else if (c0 === 'f' && spaced) {
      faces++;
      k += 2;
      for (;;) {
        while (k < end && isSpace(text.charCodeAt(k))) k++;
        if (k >= end) break;
        // The vertex index is the corner's first number (v, v/vt, v//vn, v/vt/vn).
        let j = k;
        if (text[j] === '-' || text[j] === '+') j++;
        while (j < end && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
        const index = Number(text.slice(k, j));
        if (j === k || !Number.isInteger(index) || index === 0) {
          const corner = text.slice(k, end).split(/\s/)[0];
          return { problem: `has a face with no valid vertex index ("${corner}", line ${line})`, refusedBy: 'rviz' };
        }
        if (index < 0 && vertices + index < 0) {
          return { problem: `has a face index out of range: ${index} on line ${line}, where only ${vertices} vertices precede it`, refusedBy: 'rviz' };
        }
        if (index > highest) {
          highest = index;
          highestLine = line;
        }
        while (j < end && !isSpace(text.charCodeAt(j))) j++;
        k = j;
      }
    }
    pos = end + 1;
  }
  if (vertices === 0) return { problem: 'has no vertices ("v" lines)', refusedBy: 'rviz' };
  if (faces === 0) return { problem: 'has no faces ("f" lines)', refusedBy: 'rviz' };
  if (highest > vertices) {
    return { problem: `has a face index out of range: vertex ${highest} on line ${highestLine}, but the file has ${vertices} vertices`, refusedBy: 'rviz' };
  }
  return null;
}
