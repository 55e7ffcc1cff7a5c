// The VRML97 scene graph as parsed: nodes with typed field values and source positions. Numeric
// SF/MF values are flat number arrays (SFVec3f = [x, y, z], MFVec3f = [x0, y0, z0, x1, ...]) so a
// big mesh is a handful of arrays, not one object per vertex.
import type { Scanner } from './scanner.js';

export type FieldType =
  | 'SFBool' | 'SFInt32' | 'SFFloat' | 'SFTime' | 'SFString' | 'SFVec2f' | 'SFVec3f' | 'SFColor'
  | 'SFRotation' | 'SFImage' | 'SFNode'
  | 'MFInt32' | 'MFFloat' | 'MFTime' | 'MFString' | 'MFVec2f' | 'MFVec3f' | 'MFColor' | 'MFRotation'
  | 'MFNode';

export type FieldValue = boolean | number | string | number[] | string[] | VrmlNode | null | VrmlNode[];

export interface Field {
  type: FieldType;
  value: FieldValue;
  /** Where the value was written (absent for defaults). */
  line?: number;
  column?: number;
}

export interface FieldDecl {
  name: string;
  type: FieldType;
  /** field/exposedField have defaults; eventIn/eventOut get the empty value of their type. */
  kind: 'field' | 'exposedField' | 'eventIn' | 'eventOut';
  defaultValue: FieldValue;
}

export interface ProtoDecl {
  name: string;
  /** The text the declaration (and its body) was read from, and the PROTOs visible from it. */
  scanner: Scanner;
  scope: Map<string, ProtoDecl>;
  fields: Map<string, FieldDecl>;
  file: string;
  line: number;
  column: number;
  /** Offsets of the body text between the braces (re-read per instance, with IS bound). */
  bodyStart: number;
  /** Line and column of bodyStart, so an instance's reader starts with its position known. */
  bodyLine: number;
  bodyColumn: number;
  bodyEnd: number;
  /** EXTERNPROTO: the declaration that was resolved from its url, if any. */
  external?: ProtoDecl;
}

export interface VrmlNode {
  /** Built-in node type (`Transform`) or PROTO name (`Joint`). */
  type: string;
  defName?: string;
  /** Fields given in the file; for PROTO instances every interface field (defaults filled in). */
  fields: Map<string, Field>;
  /** Set for PROTO instances. */
  proto?: ProtoDecl;
  /** The first node of an instance's PROTO body, with IS fields bound: what the instance renders as. */
  actual?: VrmlNode | null;
  /** For Inline: the nodes of the included file. */
  inlined?: VrmlNode[];
  /** For Inline: the file the url resolved to. */
  inlineFile?: string;
  file: string;
  line: number;
  column: number;
}

export const isNode = (v: FieldValue | undefined): v is VrmlNode =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
