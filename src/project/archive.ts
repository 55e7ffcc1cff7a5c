// Reads of project-file values with the leniency of Choreonoid's Archive (src/Util/ValueTree.cpp,
// EigenArchive.{h,cpp}), which differs from the body loader's:
// - Mapping::read(key, string / bool / double) quietly reports "absent" for a value of the wrong kind, and a
//   list of keys takes the first that reads; findListing skips a key whose value is not a list. Choreonoid then
//   uses the next key or the default, and so do we — with a located warning, since the value was surely meant.
// - A list of the wrong length for a vector or matrix, or an element that is no number, throws: Choreonoid
//   drops the whole item ("... cannot be restored"). Those are located errors here (ModelLoadError).
import { failAt } from '../model/errors.js';
import { axisAngle, identity3, mulMat, norm } from '../model/math.js';
import type { Diagnostic, Mat3, Vec3 } from '../model/types.js';
import { asNumber } from '../body/values.js';
import type { YMap, YNode, YSeq } from '../body/yaml-tree.js';

const describe = (n: YNode): string =>
  n.kind === 'scalar' ? (n.value === '' ? 'an empty value' : `"${n.value}"`) : n.kind === 'seq' ? 'a list' : 'a mapping';

const keyList = (keys: string | readonly string[]): readonly string[] => (typeof keys === 'string' ? [keys] : keys);

function ignored(warnings: Diagnostic[], key: string, n: YNode, expected: string, fallback: string): void {
  warnings.push({ severity: 'warning', ...n.loc, message: `"${key}" should be ${expected}, got ${describe(n)}: Choreonoid ignores it (${fallback})` });
}

/** Mapping::read(keys, string): the first key whose value is a scalar. */
export function readString(map: YMap, keys: string | readonly string[], warnings: Diagnostic[], fallback = 'as if absent'): YNode & { kind: 'scalar' } | undefined {
  for (const key of keyList(keys)) {
    const n = map.entries.get(key);
    if (n === undefined) continue;
    if (n.kind === 'scalar') return n;
    ignored(warnings, key, n, 'a string', fallback);
  }
  return undefined;
}

// ValueTree's booleanSymbols: YAML 1.1's words, and y / n.
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((s) => [s, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((s) => [s, false] as const),
]);

/** Mapping::read(key, bool). */
export function readBool(map: YMap, keys: string | readonly string[], warnings: Diagnostic[], fallback = 'as if absent'): boolean | undefined {
  for (const key of keyList(keys)) {
    const n = map.entries.get(key);
    if (n === undefined) continue;
    const b = n.kind === 'scalar' ? BOOLEANS.get(n.value) : undefined;
    if (b !== undefined) return b;
    ignored(warnings, key, n, 'true or false', fallback);
  }
  return undefined;
}

// strtod's decimal forms for the whole text (ValueNode::read(double) allows trailing white space only).
const WHOLE_NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Mapping::read(key, double): the whole scalar must be a number. */
export function readDouble(map: YMap, keys: string | readonly string[], warnings: Diagnostic[], fallback: string): number | undefined {
  for (const key of keyList(keys)) {
    const n = map.entries.get(key);
    if (n === undefined) continue;
    if (n.kind === 'scalar' && WHOLE_NUMBER.test(n.value) && Number.isFinite(Number(n.value))) return Number(n.value);
    ignored(warnings, key, n, 'a number', fallback);
  }
  return undefined;
}

/** Mapping::findListing(keys): the first key whose value is a list. */
export function findListing(map: YMap, keys: string | readonly string[], warnings: Diagnostic[], fallback = 'as if absent'): YSeq | undefined {
  for (const key of keyList(keys)) {
    const n = map.entries.get(key);
    if (n === undefined) continue;
    if (n.kind === 'seq') return n;
    ignored(warnings, key, n, 'a list', fallback);
  }
  return undefined;
}

/**
 * ValueNode::toDouble: a scalar whose text starts with a number. Choreonoid would also take inf and nan; a pose
 * or joint position that is not finite cannot be served, so those are errors here.
 */
export const toDouble = (n: YNode): number => asNumber(n, 'a number');

/** EigenArchive's read of a vector from the first listed key that is a list; a list of another length is an error. */
export function readVector(map: YMap, keys: readonly string[], size: number, warnings: Diagnostic[]): number[] | undefined {
  const seq = findListing(map, keys, warnings, `the next key or the default is used`);
  if (seq === undefined) return undefined;
  if (seq.items.length !== size) {
    failAt(seq.loc, `expected a list of ${size} numbers, got ${seq.items.length} element${seq.items.length === 1 ? '' : 's'} (Choreonoid does not restore the item)`);
  }
  return seq.items.map(toDouble);
}

export const readVec3 = (map: YMap, keys: readonly string[], warnings: Diagnostic[]): Vec3 | undefined => readVector(map, keys, 3, warnings) as Vec3 | undefined;

/** A 3×3 matrix written as 9 numbers, row by row (EigenArchive's readEx fills rows first). */
export function readMatrix3(map: YMap, key: string, warnings: Diagnostic[]): Mat3 | undefined {
  const v = readVector(map, [key], 9, warnings);
  return v === undefined ? undefined : [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ];
}

// MathUtil's radian(): TO_RADIAN * deg with TO_RADIAN = PI / 180 computed once.
const TO_RADIAN = Math.PI / 180;
export const radian = (degree: number): number => TO_RADIAN * degree;

function singleAngleAxis(seq: YNode): Mat3 {
  if (seq.kind !== 'seq' || seq.items.length !== 4) {
    failAt(seq.loc, `expected an axis-angle [x, y, z, degrees], got ${seq.kind === 'seq' ? `${seq.items.length} elements` : describe(seq)}`);
  }
  const [x, y, z, angle] = seq.items.map(toDouble) as [number, number, number, number];
  const size = norm([x, y, z]);
  if (size < 1e-6) failAt(seq.loc, 'the rotation axis is the zero vector');
  return axisAngle([x / size, y / size, z / size], radian(angle));
}

/**
 * readDegreeAngleAxis: `[x, y, z, degrees]`, or a list of them applied in order. An absent key, a value that is
 * no list and an empty list all read as absent (Choreonoid then falls back to the older key).
 */
export function readDegreeAngleAxis(map: YMap, key: string, warnings: Diagnostic[]): Mat3 | undefined {
  const seq = findListing(map, key, warnings, 'the older key or the default is used');
  if (seq === undefined || seq.items.length === 0) return undefined;
  if (seq.items[0]!.kind !== 'seq') return singleAngleAxis(seq);
  // Choreonoid multiplies the angle-axes as quaternions; the matrix product is the same rotation (to rounding).
  return seq.items.reduce<Mat3>((r, item) => mulMat(r, singleAngleAxis(item)), identity3());
}

/** The items of a list whose elements must all be numbers (joint positions): ValueNode::toDouble on each used. */
export const numbersOf = (seq: YSeq, count: number): number[] => seq.items.slice(0, count).map(toDouble);
