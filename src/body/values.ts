// Typed reads of YAML values with Choreonoid's conversions and a located error for every bad value.
import { failAt } from '../model/errors.js';
import type { Vec3 } from '../model/types.js';
import type { YMap, YNode, YSeq } from './yaml-tree.js';

const describe = (n: YNode): string =>
  n.kind === 'scalar' ? (n.value === '' ? 'an empty value' : `"${n.value}"`) : n.kind === 'seq' ? 'a list' : 'a mapping';

/** The value of the first of `keys` present (Choreonoid's `find({ "snake", "camel" })`). */
export function get(map: YMap, keys: string | readonly string[]): YNode | undefined {
  if (typeof keys === 'string') return map.entries.get(keys);
  for (const k of keys) {
    const v = map.entries.get(k);
    if (v) return v;
  }
  return undefined;
}

/** A mapping-valued key where Choreonoid's findMapping treats an empty value as absent (`appearance:`). */
export function optionalMap(map: YMap, keys: string | readonly string[]): YMap | undefined {
  const n = get(map, keys);
  if (n === undefined || (n.kind === 'scalar' && n.value === '')) return undefined;
  return asMap(n, `a mapping for "${typeof keys === 'string' ? keys : keys[0]}"`);
}

export function asMap(n: YNode, what = 'a mapping'): YMap {
  if (n.kind !== 'map') failAt(n.loc, `expected ${what}, got ${describe(n)}`);
  return n;
}

export function asSeq(n: YNode, what = 'a list'): YSeq {
  if (n.kind !== 'seq') failAt(n.loc, `expected ${what}, got ${describe(n)}`);
  return n;
}

export function asString(n: YNode, what = 'a string'): string {
  if (n.kind !== 'scalar') failAt(n.loc, `expected ${what}, got ${describe(n)}`);
  return n.value;
}

// strtod's decimal forms; YAML spellings such as .inf or .nan are not numbers to Choreonoid either.
const NUMBER_PREFIX = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/;
const INTEGER_PREFIX = /^\s*[-+]?\d+/;

/**
 * Choreonoid converts with strtod/strtol and accepts a numeric prefix (GR001.body has `0.t`, read
 * as 0). We do the same and warn about the ignored characters.
 */
function numericPrefix(n: YNode, pattern: RegExp, what: string): number {
  // Nearly every value is a plain decimal that Number reads exactly as strtod does: skip the pattern.
  if (n.kind === 'scalar' && pattern === NUMBER_PREFIX && isPlainDecimal(n.value)) return Number(n.value);
  const m = n.kind === 'scalar' ? pattern.exec(n.value) : null;
  if (!m || n.kind !== 'scalar') return failAt(n.loc, `expected ${what}, got ${describe(n)}`);
  const x = Number(m[0].trim());
  if (m[0].length < n.value.trimEnd().length) {
    n.sink?.push({ severity: 'warning', ...n.loc, message: `"${n.value}" is read as ${x}: the characters after the number are ignored` });
  }
  return x;
}

/** `[-+]?digits[.digits]([eE][-+]?digits)?` with digits before the point, all of the text. */
function isPlainDecimal(v: string): boolean {
  let i = 0;
  const n = v.length;
  let c = v.charCodeAt(0);
  if (c === 45 || c === 43) c = v.charCodeAt(++i);
  const digitsStart = i;
  while (c >= 48 && c <= 57) c = v.charCodeAt(++i);
  if (i === digitsStart) return false;
  if (c === 46) {
    c = v.charCodeAt(++i);
    while (c >= 48 && c <= 57) c = v.charCodeAt(++i);
  }
  if (c === 101 || c === 69) {
    c = v.charCodeAt(++i);
    if (c === 45 || c === 43) c = v.charCodeAt(++i);
    const expStart = i;
    while (c >= 48 && c <= 57) c = v.charCodeAt(++i);
    if (i === expStart) return false;
  }
  return i === n;
}

export function asNumber(n: YNode, what = 'a number'): number {
  const x = numericPrefix(n, NUMBER_PREFIX, what);
  if (!Number.isFinite(x)) failAt(n.loc, `expected ${what}, got ${describe(n)} (not a finite number)`);
  return x;
}

export function asInt(n: YNode, what = 'an integer'): number {
  const x = numericPrefix(n, INTEGER_PREFIX, what);
  if (!Number.isSafeInteger(x)) failAt(n.loc, `expected ${what}, got ${describe(n)} (out of range)`);
  return x;
}

const TRUE = new Set(['true', 'True', 'TRUE', 'yes', 'Yes', 'YES', 'on', 'On', 'ON']);
const FALSE = new Set(['false', 'False', 'FALSE', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);

export function asBool(n: YNode, what = 'true or false'): boolean {
  if (n.kind === 'scalar' && TRUE.has(n.value)) return true;
  if (n.kind === 'scalar' && FALSE.has(n.value)) return false;
  return failAt(n.loc, `expected ${what}, got ${describe(n)}`);
}

export function asNumbers(n: YNode, count: number, what?: string): number[] {
  const expected = `a list of ${count} numbers${what ? ` (${what})` : ''}`;
  const seq = asSeq(n, expected);
  if (seq.items.length !== count) {
    failAt(seq.loc, `expected ${expected}, got ${seq.items.length} element${seq.items.length === 1 ? '' : 's'}`);
  }
  return seq.items.map((item) => asNumber(item));
}

/**
 * A number where overflow means "unlimited": Choreonoid's strtod turns 1e400 into ±HUGE_VAL, which
 * then acts as no limit. NaN and YAML's .inf spellings are still errors.
 */
export function asNumberOrOverflow(n: YNode, what = 'a number'): number {
  // strtod also reads inf / infinity (agxValve.body's jointRange: [ -inf, inf ]).
  const inf = n.kind === 'scalar' ? /^([-+]?)(inf|infinity)$/i.exec(n.value.trim()) : null;
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  return numericPrefix(n, NUMBER_PREFIX, what);
}

export const asVec3 = (n: YNode, what?: string): Vec3 => asNumbers(n, 3, what) as Vec3;

export function numberAt(map: YMap, keys: string | readonly string[]): number | undefined {
  const n = get(map, keys);
  return n === undefined ? undefined : asNumber(n);
}
export function intAt(map: YMap, keys: string | readonly string[]): number | undefined {
  const n = get(map, keys);
  return n === undefined ? undefined : asInt(n);
}
export function stringAt(map: YMap, keys: string | readonly string[]): string | undefined {
  const n = get(map, keys);
  return n === undefined ? undefined : asString(n);
}
export function boolAt(map: YMap, keys: string | readonly string[]): boolean | undefined {
  const n = get(map, keys);
  return n === undefined ? undefined : asBool(n);
}
export function vec3At(map: YMap, keys: string | readonly string[]): Vec3 | undefined {
  const n = get(map, keys);
  return n === undefined ? undefined : asVec3(n);
}
