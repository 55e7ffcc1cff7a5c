// Structure-aware mutations of model files for the fuzzer: byte flips, truncation, line and node
// (indentation block or bracketed VRML node) deletion and duplication, value swaps and replacement
// by hostile values, token swaps, and insertion of characters that matter to YAML or VRML.
// Positions are arbitrary naturals taken modulo the file length, so every generated mutation applies
// to every file and fast-check can shrink them.
import fc from 'fast-check';

export type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'deleteLines'; at: number; count: number }
  | { kind: 'duplicateLines'; at: number; count: number }
  | { kind: 'deleteBlock'; at: number }
  | { kind: 'duplicateBlock'; at: number }
  | { kind: 'deleteBracketed'; at: number }
  | { kind: 'duplicateBracketed'; at: number }
  | { kind: 'swapNumbers'; a: number; b: number }
  | { kind: 'replaceNumber'; at: number; value: string }
  | { kind: 'swapWords'; a: number; b: number }
  | { kind: 'insert'; at: number; text: string };

/** Values that break loaders in practice: overflow, underflow, NaN spellings, wrong types, YAML specials. */
export const hostileValues = [
  '0', '-1', '-0', '1e400', '-1e400', '1e-400', '.nan', '.inf', '-.inf', 'nan', 'NaN', 'Infinity',
  '99999999999999999999999', '4294967297', '0x7fffffff', '3.', '.5e', '"x"', 'null', '~', 'true',
  '[]', '{}', '[ 1, 2 ]', '*nowhere', '&dup', '"', '1 2 3 4 5 6 7 8 9 10', '-2', '1e308', '2147483648',
];

/** Characters and snippets with syntactic meaning in YAML or VRML. */
export const hostileSnippets = [
  '\t', '{', '}', '[', ']', '"', "'", '\u0000', '\u00ff', ':', '- ', '#', '\n', '&a ', '*a ', '!!binary ',
  '%YAML 1.2\n---\n', '---\n', '...\n', 'USE X ', 'DEF ', 'PROTO ', '\r', '<<: *a\n', ',', '\\', '  ', 'IS x ',
];

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('deleteLines' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('duplicateLines' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('deleteBlock' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateBlock' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('deleteBracketed' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateBracketed' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapNumbers' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('replaceNumber' as const), at: fc.nat(), value: fc.constantFrom(...hostileValues) }),
  fc.record({ kind: fc.constant('swapWords' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...hostileSnippets) }),
);

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

function tokens(text: string, re: RegExp): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The line at `at` and every following line indented deeper (a YAML mapping entry or list item with its body). */
function blockAt(text: string, at: number): [number, number] {
  const lines = text.split('\n');
  const starts = lineStarts(text);
  let first = lines.length - 1;
  for (let i = 0; i < starts.length; i++) if ((starts[i] as number) <= at) first = i;
  while (first < lines.length - 1 && (lines[first] ?? '').trim() === '') first++;
  const base = indentOf(lines[first] ?? '');
  const dash = /^\s*- /.test(lines[first] ?? '') ? base + 2 : base + 1;
  let last = first;
  while (last + 1 < lines.length) {
    const next = lines[last + 1] ?? '';
    if (next.trim() !== '' && indentOf(next) < dash) break;
    last++;
  }
  const start = starts[first] ?? 0;
  const end = last + 1 < starts.length ? (starts[last + 1] as number) : text.length;
  return [start, end];
}

/** From the word before the first `{` or `[` at or after `at` to its matching bracket (a VRML node or field value). */
function bracketedAt(text: string, at: number): [number, number] | null {
  let open = -1;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      open = i;
      break;
    }
  }
  if (open < 0) return null;
  let depth = 0;
  let close = -1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) {
        close = i + 1;
        break;
      }
    }
  }
  if (close < 0) return null;
  let start = open;
  while (start > 0 && /\s/.test(text[start - 1] ?? '')) start--;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1] ?? '')) start--;
  return [start, close];
}

const splice = (text: string, start: number, end: number, insert: string): string => text.slice(0, start) + insert + text.slice(end);

/** Applies one mutation to a file's bytes. Text mutations work on the latin1 view so every byte round-trips. */
export function applyMutation(input: Buffer, m: Mutation): Buffer {
  if (input.length === 0) return input;
  if (m.kind === 'flip') {
    const out = Buffer.from(input);
    out[m.at % out.length] = m.byte;
    return out;
  }
  if (m.kind === 'truncate') return input.subarray(0, m.at % input.length);
  const text = input.toString('latin1');
  const out = mutateText(text, m);
  return Buffer.from(out, 'latin1');
}

function mutateText(text: string, m: Exclude<Mutation, { kind: 'flip' | 'truncate' }>): string {
  switch (m.kind) {
    case 'deleteLines':
    case 'duplicateLines': {
      const starts = lineStarts(text);
      const first = m.at % starts.length;
      const start = starts[first] as number;
      const end = first + m.count < starts.length ? (starts[first + m.count] as number) : text.length;
      return m.kind === 'deleteLines' ? splice(text, start, end, '') : splice(text, end, end, text.slice(start, end));
    }
    case 'deleteBlock':
    case 'duplicateBlock': {
      const [start, end] = blockAt(text, m.at % text.length);
      return m.kind === 'deleteBlock' ? splice(text, start, end, '') : splice(text, end, end, text.slice(start, end));
    }
    case 'deleteBracketed':
    case 'duplicateBracketed': {
      const range = bracketedAt(text, m.at % text.length);
      if (!range) return text;
      const [start, end] = range;
      return m.kind === 'deleteBracketed' ? splice(text, start, end, '') : splice(text, end, end, ` ${text.slice(start, end)}`);
    }
    case 'swapNumbers':
    case 'swapWords': {
      const list = tokens(text, m.kind === 'swapNumbers' ? NUMBER : WORD);
      if (list.length < 2) return text;
      const a = list[m.a % list.length] as { start: number; end: number };
      const b = list[m.b % list.length] as { start: number; end: number };
      if (a.start === b.start) return text;
      const [x, y] = a.start < b.start ? [a, b] : [b, a];
      return text.slice(0, x.start) + text.slice(y.start, y.end) + text.slice(x.end, y.start) + text.slice(x.start, x.end) + text.slice(y.end);
    }
    case 'replaceNumber': {
      const list = tokens(text, NUMBER);
      if (list.length === 0) return text;
      const t = list[m.at % list.length] as { start: number; end: number };
      return splice(text, t.start, t.end, m.value);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return splice(text, at, at, m.text);
    }
  }
}

export function describeMutation(m: Mutation): string {
  return JSON.stringify(m);
}
