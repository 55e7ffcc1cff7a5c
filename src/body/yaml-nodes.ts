// The located YAML tree both readers build (yaml-reader.ts directly, yaml-tree.ts from the `yaml`
// package): every node with its file, YAML path and line:column, scalars kept as their source text.
import type { Diagnostic, SourceLocation } from '../model/types.js';

export interface Located {
  loc: SourceLocation;
}
export interface YScalar extends Located {
  kind: 'scalar';
  /** Source text; '' for an empty value. */
  value: string;
  /** Where conversions of this value report lenient readings (the loader's warning list). */
  sink?: Diagnostic[];
}
export interface YSeq extends Located {
  kind: 'seq';
  items: YNode[];
}
export interface YMap extends Located {
  kind: 'map';
  /** Insertion order; Choreonoid iterates mappings in key order (see sortedEntries). */
  entries: Map<string, YNode>;
}
export type YNode = YScalar | YSeq | YMap;

export interface YamlFile {
  file: string;
  root: YNode;
  /** Anchored nodes by anchor name (a Resource's `node:` selects one). */
  anchors: Map<string, YNode>;
}
