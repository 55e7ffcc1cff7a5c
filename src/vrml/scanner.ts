// VRML97 lexical layer: one cursor over the whole file text. Tokens are read on demand straight from
// the string (no token objects), so that number arrays of big meshes cost one loop per value.
// Line and column are computed only when a location is needed, by counting newlines from the last one.
import { failAt } from '../model/errors.js';

export interface Scanner {
  readonly file: string;
  readonly text: string;
  pos: number;
  /**
   * The last located offset and its line: locations are asked for in reading order, so the next one
   * is found by counting newlines from here (a big mesh file never needs a table of all lines).
   */
  mark: { offset: number; line: number; lineStart: number };
  /**
   * Offsets where each line starts, built only if a location before the mark is asked for; shared
   * by every scanner over the same text (PROTO bodies are read by scanners of their own).
   */
  lines: { starts?: number[] };
  /** Set when the last number read was a written nan/inf (so NaN was a value, not "no number"). */
  nonFinite?: boolean;
}

export interface Position {
  line: number;
  column: number;
}

/** A scanner over `text`, optionally starting at `pos` whose 1-based line and column are known. */
export function createScanner(file: string, text: string): Scanner {
  return { file, text, pos: 0, mark: { offset: 0, line: 1, lineStart: 0 }, lines: {} };
}

/** Another scanner over the same text, at `pos` whose 1-based line and column are known. */
export function scannerAt(s: Scanner, pos: number, line: number, column: number): Scanner {
  return { file: s.file, text: s.text, pos, mark: { offset: pos, line, lineStart: pos - column + 1 }, lines: s.lines };
}

const HASH = 35, QUOTE = 34, COMMA = 44, BACKSLASH = 92;

/** 1-based line and column of an offset. */
export function positionAt(s: Scanner, offset: number): Position {
  const mark = s.mark;
  if (offset >= mark.offset) {
    const t = s.text;
    let line = mark.line;
    let lineStart = mark.lineStart;
    for (let nl = t.indexOf('\n', mark.offset); nl >= 0 && nl < offset; nl = t.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    mark.offset = offset;
    mark.line = line;
    mark.lineStart = lineStart;
    return { line, column: offset - lineStart + 1 };
  }
  if (!s.lines.starts) {
    const starts = [0];
    const t = s.text;
    for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) starts.push(i + 1);
    s.lines.starts = starts;
  }
  const starts = s.lines.starts;
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** Throws the located ModelLoadError for a problem at `offset` (default: the cursor). */
export function failScan(s: Scanner, message: string, path?: string, offset = s.pos): never {
  const { line, column } = positionAt(s, offset);
  failAt({ file: s.file, line, column, ...(path ? { path } : {}) }, message);
}

/** Skips white space, commas (white space in VRML) and `#` comments. */
export function skipSpace(s: Scanner): void {
  const t = s.text;
  const n = t.length;
  let p = s.pos;
  while (p < n) {
    const c = t.charCodeAt(p);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === COMMA || c === 12 || c === 11) {
      p++;
    } else if (c === HASH) {
      while (p < n && t.charCodeAt(p) !== 10 && t.charCodeAt(p) !== 13) p++;
    } else {
      break;
    }
  }
  s.pos = p;
}

/** The next significant character code (after white space), or -1 at the end of the text. */
export function peek(s: Scanner): number {
  skipSpace(s);
  return s.pos < s.text.length ? s.text.charCodeAt(s.pos) : -1;
}

/** Consumes `ch` if it is next. */
export function accept(s: Scanner, ch: string): boolean {
  if (peek(s) === ch.charCodeAt(0)) {
    s.pos++;
    return true;
  }
  return false;
}

export function expect(s: Scanner, ch: string, what: string, path?: string): void {
  if (!accept(s, ch)) failScan(s, `expected '${ch}' ${what}, found ${describeNext(s)}`, path);
}

/** A short description of what is at the cursor, for messages. */
export function describeNext(s: Scanner): string {
  const c = peek(s);
  if (c === -1) return 'the end of the file';
  const word = /^[^\s,\[\]{}]{1,24}/.exec(s.text.slice(s.pos, s.pos + 24));
  return word ? `'${word[0]}'` : `'${String.fromCharCode(c)}'`;
}

// VRML97 identifiers: no control characters, space, quotes, '#', ',', '[', '\', ']', '{', '}';
// the first character also not a digit, '+', '-' or '.'.
function isIdChar(c: number): boolean {
  return (
    c > 32 && c !== 127 && c !== QUOTE && c !== 39 && c !== HASH && c !== COMMA &&
    c !== 91 && c !== BACKSLASH && c !== 93 && c !== 123 && c !== 125
  );
}
function isIdStart(c: number): boolean {
  return isIdChar(c) && !(c >= 48 && c <= 57) && c !== 43 && c !== 45 && c !== 46;
}

/** Reads an identifier (node type, field name, DEF name, keyword), or returns null without moving. */
export function readId(s: Scanner): string | null {
  skipSpace(s);
  const t = s.text;
  let p = s.pos;
  if (p >= t.length || !isIdStart(t.charCodeAt(p))) return null;
  p++;
  while (p < t.length && isIdChar(t.charCodeAt(p))) p++;
  const id = t.slice(s.pos, p);
  s.pos = p;
  return id;
}

/** Looks at the next identifier without consuming it. */
export function peekId(s: Scanner): string | null {
  const save = s.pos;
  const id = readId(s);
  s.pos = save;
  return id;
}

export function expectId(s: Scanner, what: string, path?: string): string {
  const id = readId(s);
  if (id === null) failScan(s, `expected ${what}, found ${describeNext(s)}`, path);
  return id;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Reads a number (VRML SFFloat/SFInt32 syntax, plus hexadecimal integers). Values with at most 15
 * significant digits and a small decimal exponent are computed as one exact integer times or over
 * an exact power of ten, which IEEE division/multiplication rounds correctly (Clinger's fast path);
 * anything else goes through Number(), so every value is the correctly rounded double.
 * Returns NaN without moving when no number is at the cursor.
 */
export function readNumber(s: Scanner): number {
  skipSpace(s);
  return scanNumber(s);
}

/** readNumber at the cursor, which the caller has already moved past white space. */
export function scanNumber(s: Scanner): number {
  const t = s.text;
  const n = t.length;
  const start = s.pos;
  let p = start;
  let neg = false;
  let c = p < n ? t.charCodeAt(p) : -1;
  if (c === 45 || c === 43) {
    neg = c === 45;
    c = ++p < n ? t.charCodeAt(p) : -1;
  }
  if (c === 48 && p + 1 < n && (t.charCodeAt(p + 1) | 32) === 120) {
    let q = p + 2;
    while (q < n && /[0-9a-fA-F]/.test(t[q]!)) q++;
    if (q === p + 2) return NaN;
    s.pos = q;
    const v = parseInt(t.slice(p + 2, q), 16);
    return neg ? -v : v;
  }
  let mantissa = 0;
  let digits = 0;
  let sawDigit = false;
  let scale = 0;
  while (c >= 48 && c <= 57) {
    sawDigit = true;
    if (digits > 0 || c !== 48) {
      if (digits < 15) mantissa = mantissa * 10 + (c - 48);
      else scale++;
      digits++;
    }
    c = ++p < n ? t.charCodeAt(p) : -1;
  }
  if (c === 46) {
    c = ++p < n ? t.charCodeAt(p) : -1;
    while (c >= 48 && c <= 57) {
      sawDigit = true;
      if (digits > 0 || c !== 48) {
        if (digits < 15) {
          mantissa = mantissa * 10 + (c - 48);
          scale--;
        }
        digits++;
      } else {
        scale--;
      }
      c = ++p < n ? t.charCodeAt(p) : -1;
    }
  }
  if (!sawDigit) return readNonFinite(s, p, neg);
  let exp = 0;
  if (c === 101 || c === 69) {
    let q = p + 1;
    let en = false;
    let ec = q < n ? t.charCodeAt(q) : -1;
    if (ec === 45 || ec === 43) {
      en = ec === 45;
      ec = ++q < n ? t.charCodeAt(q) : -1;
    }
    if (ec >= 48 && ec <= 57) {
      while (ec >= 48 && ec <= 57) {
        exp = exp < 100000 ? exp * 10 + (ec - 48) : exp;
        ec = ++q < n ? t.charCodeAt(q) : -1;
      }
      p = q;
      if (en) exp = -exp;
    }
  }
  s.pos = p;
  const e = scale + exp;
  let v: number;
  if (digits <= 15 && e >= -22 && e <= 22) {
    v = e < 0 ? mantissa / POW10[-e]! : mantissa * POW10[e]!;
  } else {
    v = Number(t.slice(neg || t.charCodeAt(start) === 43 ? start + 1 : start, p));
  }
  return neg ? -v : v;
}

/**
 * Reads numbers into `out` up to and including the closing ']' of a list: the bulk of a mesh
 * (coordIndex, point). Plain decimals of at most 15 digits ("-12", "0.25") are read by this loop
 * (one exact integer over an exact power of ten, so correctly rounded); anything else (an exponent,
 * hex, more digits, nan) goes through scanNumber. Returns -1 when the list closed, or the offset of
 * the first token that is not a number (the end of the text if the list is unclosed).
 */
export function scanNumberList(s: Scanner, out: number[]): number {
  const t = s.text;
  const n = t.length;
  let p = s.pos;
  for (;;) {
    let c = p < n ? t.charCodeAt(p) : -1;
    while (c === 32 || c === 10 || c === 13 || c === 9 || c === COMMA || c === 12 || c === 11 || c === HASH) {
      if (c === HASH) {
        while (p < n && t.charCodeAt(p) !== 10 && t.charCodeAt(p) !== 13) p++;
      } else {
        p++;
      }
      c = p < n ? t.charCodeAt(p) : -1;
    }
    if (c === 93) {
      s.pos = p + 1;
      return -1;
    }
    if (c === -1) {
      s.pos = p;
      return p;
    }
    let q = p;
    const neg = c === 45;
    if (neg) c = ++q < n ? t.charCodeAt(q) : -1;
    // Up to 16 significant digits (leading zeros are not significant): exporters write doubles with
    // 16–17 (RH2's parts), and a mantissa below 2^53 is still exact, so Clinger's fast path holds.
    let v = 0;
    let digits = 0;
    let significant = 0;
    let fraction = 0;
    while (c >= 48 && c <= 57 && significant < 16) {
      v = v * 10 + (c - 48);
      digits++;
      if (v !== 0) significant++;
      c = ++q < n ? t.charCodeAt(q) : -1;
    }
    if (c === 46 && digits > 0) {
      c = ++q < n ? t.charCodeAt(q) : -1;
      while (c >= 48 && c <= 57 && significant < 16) {
        v = v * 10 + (c - 48);
        digits++;
        if (v !== 0) significant++;
        fraction++;
        c = ++q < n ? t.charCodeAt(q) : -1;
      }
    }
    // Done unless more digits, a (second) point, an exponent or a hex 'x' follow, or the mantissa or
    // the power of ten is past what is exact (then scanNumber reads it, correctly rounded).
    if (
      digits > 0 &&
      !(c >= 48 && c <= 57) &&
      c !== 46 &&
      c !== 101 &&
      c !== 69 &&
      c !== 120 &&
      c !== 88 &&
      v < 9007199254740992 &&
      fraction <= 22
    ) {
      if (fraction > 0) v /= POW10[fraction]!;
      out.push(neg ? -v : v);
      p = q;
      continue;
    }
    s.pos = p;
    s.nonFinite = false;
    const w = scanNumber(s);
    if (w !== w && !s.nonFinite) return p;
    out.push(w);
    p = s.pos;
  }
}

/**
 * nan / inf / infinity (any case, optionally signed), which C's strtod, and so Choreonoid, accepts:
 * exporters write "-nan" for broken normals. Returns NaN (and does not move) for anything else,
 * so callers use readNumberOrNone to tell a written nan from no number.
 */
function readNonFinite(s: Scanner, p: number, neg: boolean): number {
  const m = /^(nan|inf(inity)?)(?![^\s,\[\]{}#"])/i.exec(s.text.slice(p, p + 9));
  if (!m) return NaN;
  s.pos = p + m[0].length;
  s.nonFinite = true;
  return m[1]!.toLowerCase() === 'nan' ? NaN : neg ? -Infinity : Infinity;
}

/** Reads a number, or returns undefined without moving when none is at the cursor. */
export function readNumberOrNone(s: Scanner): number | undefined {
  s.nonFinite = false;
  const v = readNumber(s);
  return Number.isNaN(v) && !s.nonFinite ? undefined : v;
}

/** Reads a double-quoted string with VRML escapes (\" and \\). */
export function readQuoted(s: Scanner, path?: string): string | null {
  if (peek(s) !== QUOTE) return null;
  const t = s.text;
  const open = s.pos;
  let p = open + 1;
  let out = '';
  let chunk = p;
  for (;;) {
    if (p >= t.length) failScan(s, 'unterminated string (no closing \'"\')', path, open);
    const c = t.charCodeAt(p);
    if (c === QUOTE) break;
    if (c === BACKSLASH && p + 1 < t.length) {
      out += t.slice(chunk, p);
      chunk = p + 1;
      p += 2;
      continue;
    }
    p++;
  }
  out += t.slice(chunk, p);
  s.pos = p + 1;
  return out;
}
