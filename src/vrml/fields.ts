// Typed access to node fields (given or default), with located errors when a file declares a field
// with a type the reader cannot use.
import { failAt } from '../model/errors.js';
import { axisAngle, identity3, normalize } from '../model/math.js';
import type { Mat3, SourceLocation, Vec3 } from '../model/types.js';
import { isNode, type Field, type FieldType, type VrmlNode } from './ast.js';
import { builtinField } from './parser.js';

/** Where a node (or one of its fields, when written in the file) is, with a node path. */
export function locate(node: VrmlNode, path: string, field?: string): SourceLocation {
  const f = field ? node.fields.get(field) : undefined;
  return {
    file: node.file,
    path: field ? `${path}.${field}` : path,
    line: f?.line ?? node.line,
    column: f?.column ?? node.column,
  };
}

export const nodeLabel = (node: VrmlNode): string => (node.defName ? `${node.type}(${node.defName})` : node.type);

export function getField(node: VrmlNode, name: string): Field | undefined {
  const given = node.fields.get(name);
  if (given) return given;
  const decl = builtinField(node.type, name);
  return decl ? { type: decl.type, value: decl.defaultValue } : undefined;
}

function typed(node: VrmlNode, path: string, name: string, types: FieldType[]): Field | undefined {
  const f = getField(node, name);
  if (f && !types.includes(f.type)) {
    failAt(locate(node, path, name), `field '${name}' of ${node.type} must be ${types.join(' or ')}, not ${f.type}`);
  }
  return f;
}

/**
 * Rejects NaN and ±Infinity (a written nan/inf, or a literal like 1e400 that overflows), which no
 * consumer can use; `allowInfinite` keeps ±Infinity where it means "unlimited".
 */
function requireFinite(values: readonly number[], node: VrmlNode, path: string, name: string, allowInfinite = false): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v - v !== 0 && !(allowInfinite && (v === Infinity || v === -Infinity))) {
      failAt(locate(node, path, name), `field '${name}' of ${node.type} has ${v} where a finite number is needed`);
    }
  }
}

export function getFloat(node: VrmlNode, path: string, name: string, fallback: number): number {
  const f = typed(node, path, name, ['SFFloat', 'SFTime', 'SFInt32']);
  if (!f) return fallback;
  requireFinite([f.value as number], node, path, name);
  return f.value as number;
}

export function getInt(node: VrmlNode, path: string, name: string, fallback: number): number {
  const f = typed(node, path, name, ['SFInt32']);
  return f ? (f.value as number) : fallback;
}

export function getBool(node: VrmlNode, path: string, name: string, fallback: boolean): boolean {
  const f = typed(node, path, name, ['SFBool']);
  return f ? (f.value as boolean) : fallback;
}

export function getString(node: VrmlNode, path: string, name: string, fallback: string): string {
  const f = typed(node, path, name, ['SFString', 'MFString']);
  if (!f) return fallback;
  return f.type === 'SFString' ? (f.value as string) : (f.value as string[]).join('\n');
}

export function getStrings(node: VrmlNode, path: string, name: string): string[] {
  const f = typed(node, path, name, ['SFString', 'MFString']);
  if (!f) return [];
  return f.type === 'SFString' ? [f.value as string] : (f.value as string[]);
}

export function getVec3(node: VrmlNode, path: string, name: string, fallback: Vec3): Vec3 {
  const f = typed(node, path, name, ['SFVec3f', 'SFColor']);
  if (!f) return fallback;
  const v = f.value as number[];
  requireFinite(v, node, path, name);
  return [v[0]!, v[1]!, v[2]!];
}

/** Flat numbers of an MF numeric field (or a single SF value), all finite unless `allowInfinite`. */
export function getNumbers(node: VrmlNode, path: string, name: string, types: FieldType[], allowInfinite = false): number[] | undefined {
  const f = typed(node, path, name, types);
  if (!f) return undefined;
  const values = typeof f.value === 'number' ? [f.value] : (f.value as number[]);
  requireFinite(values, node, path, name, allowInfinite);
  return values;
}

export function getNodes(node: VrmlNode, path: string, name: string): VrmlNode[] {
  const f = typed(node, path, name, ['MFNode', 'SFNode']);
  if (!f) return [];
  if (Array.isArray(f.value)) return f.value as VrmlNode[];
  return isNode(f.value) ? [f.value] : [];
}

export function getNode(node: VrmlNode, path: string, name: string): VrmlNode | null {
  const f = typed(node, path, name, ['SFNode']);
  return f && isNode(f.value) ? f.value : null;
}

/**
 * An SFRotation as a matrix. The axis is normalised first, as Choreonoid's parser does; a zero axis
 * is accepted only with a zero angle (identity), because any other reading would be a guess.
 */
export function rotationOf(r: readonly number[], where: () => SourceLocation): Mat3 {
  const axis: Vec3 = [r[0]!, r[1]!, r[2]!];
  const angle = r[3]!;
  if (r.some((x) => x - x !== 0)) failAt(where(), `rotation ${r.join(' ')} has a value that is not a finite number`);
  if (Math.hypot(axis[0], axis[1], axis[2]) < 1e-6) {
    if (angle === 0) return identity3();
    failAt(where(), `rotation axis is the zero vector (angle ${angle})`);
  }
  return axisAngle(normalize(axis), angle);
}

/** A rotation field: SFRotation, or (as Choreonoid accepts) nine MFFloat values as matrix rows. */
export function getRotation(node: VrmlNode, path: string, name: string): Mat3 {
  const f = typed(node, path, name, ['SFRotation', 'MFFloat']);
  if (!f) return identity3();
  const v = f.value as number[];
  if (f.type === 'SFRotation') return rotationOf(v, () => locate(node, path, name));
  if (v.length < 9) failAt(locate(node, path, name), `a rotation given as MFFloat needs 9 values, not ${v.length}`);
  requireFinite(v, node, path, name);
  return [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ];
}
