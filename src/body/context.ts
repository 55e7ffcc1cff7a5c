// State shared while one .body file (and the fragments and sub-bodies it pulls in) is read.
import { failAt } from '../model/errors.js';
import { axisAngle, identity3, mulMat, norm } from '../model/math.js';
import type { LoadLimits, LoadOptions } from '../model/options.js';
import type { Diagnostic, Geometry, Mat3, SourceLocation, Vec3 } from '../model/types.js';
import { asNumbers, asSeq, get } from './values.js';
import type { ParseSession } from '../vrml/parser.js';
import type { VrmlExtraction } from './vrml-resources.js';
import type { YMap, YNode, YamlFile } from './yaml-tree.js';

/** Counts files pulled in by one top-level load, shared by every nested reader. */
export interface IncludeBudget {
  count: number;
  /** Files being read right now, outermost first, for cycle detection. */
  stack: string[];
  /**
   * Resource files already parsed by this load, as Choreonoid caches them: a CarT model selects
   * nodes of one 109 KB YAML file a dozen times. Keyed by the importing body's anchors (a resource
   * may use them), then by absolute path.
   */
  parsedYaml: Map<ReadonlyMap<string, YNode>, Map<string, YamlFile>>;
  /** The VRML parse session of this load's `.wrl` Resources (created on first use; caches files by path). */
  vrmlSession?: ParseSession;
}

export interface BodyContext {
  /** The .body file being read (a sub-body has its own context). */
  file: string;
  /** Where relative resource URIs resolve; a YAML resource's contents use that resource's directory. */
  baseDir: string;
  /** Choreonoid's default unit is the degree. */
  degree: boolean;
  yaml: YamlFile;
  options: LoadOptions;
  limits: LoadLimits;
  budget: IncludeBudget;
  warnings: Diagnostic[];
  /** `.wrl` Resources read so far by this body (not its sub-bodies, which Choreonoid reads separately). */
  vrmlExtractions: VrmlExtraction[];
  /**
   * Mesh-like geometries read so far, by the YAML node they were read from: copies of one node through
   * aliases share one geometry, as Choreonoid shares the scene node of an aliased YAML node (terrains
   * alias one mesh hundreds of times). Shared with the contexts of YAML resources read by this body.
   */
  geometries: Map<YNode, { degree: boolean; geometry: Geometry }>;
}

// Choreonoid's radian(): TO_RADIAN * deg, with TO_RADIAN = PI / 180 computed once.
const TO_RADIAN = Math.PI / 180;

export const toRadian = (ctx: BodyContext, angle: number): number => (ctx.degree ? TO_RADIAN * angle : angle);
export const degreeToRadian = (deg: number): number => TO_RADIAN * deg;

export function warn(ctx: BodyContext, where: SourceLocation, message: string): void {
  ctx.warnings.push({ severity: 'warning', message, ...where });
}

/** One `[x, y, z, angle]`; the axis is normalised as Choreonoid does, and a zero axis is an error. */
function readAngleAxis(ctx: BodyContext, node: YNode): Mat3 {
  const [x, y, z, angle] = asNumbers(node, 4, 'an axis-angle [x, y, z, angle]') as [number, number, number, number];
  const size = norm([x, y, z]);
  if (size < 1e-6) failAt(node.loc, 'the rotation axis is the zero vector');
  return axisAngle([x / size, y / size, z / size], toRadian(ctx, angle));
}

/** `rotation`: one axis-angle, or a list of them applied in order (R = R1·R2·…). */
export function readRotationValue(ctx: BodyContext, node: YNode): Mat3 {
  const seq = asSeq(node, 'an axis-angle [x, y, z, angle] or a list of them');
  const first = seq.items[0];
  if (!first) return identity3();
  if (first.kind !== 'seq') return readAngleAxis(ctx, seq);
  return seq.items.reduce<Mat3>((r, item) => mulMat(r, readAngleAxis(ctx, item)), identity3());
}

/** `translation`: one vector, or a list of vectors that are summed. */
export function readTranslationValue(node: YNode): Vec3 {
  const seq = asSeq(node, 'a translation [x, y, z] or a list of them');
  const first = seq.items[0];
  if (!first) return [0, 0, 0];
  if (first.kind !== 'seq') return asNumbers(seq, 3, 'a translation [x, y, z]') as Vec3;
  const sum: Vec3 = [0, 0, 0];
  for (const item of seq.items) {
    const v = readTranslationValue(item);
    sum[0] += v[0];
    sum[1] += v[1];
    sum[2] += v[2];
  }
  return sum;
}

export function readRotation(ctx: BodyContext, map: YMap, key = 'rotation'): Mat3 | undefined {
  const n = get(map, key);
  return n === undefined ? undefined : readRotationValue(ctx, n);
}

export function readTranslation(map: YMap, key = 'translation'): Vec3 | undefined {
  const n = get(map, key);
  return n === undefined ? undefined : readTranslationValue(n);
}
