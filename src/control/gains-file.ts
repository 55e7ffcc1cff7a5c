// The parameter file BodySystemInterface reads its PD gains from (choreonoid_ros 3716c75,
// BodySystemInterface.cpp): for each joint in position_pd or velocity_pd mode it declares the double
// parameters `gains.<joint>.p` and `gains.<joint>.d` (default 0.0) on the node `choreonoid_ros2_control`,
// which ROS2ControlItem creates in its namespace, and reads them once when the hardware is initialised.
// A value written without a fraction is an integer parameter: declaring it as a double then throws, the
// item prints the exception and the gain stays 0 — so every gain here is written with one.
//
// A user's gains file has the same form (the generated file, edited, is a valid one); dotted keys
// (`gains.J1.p: 100.0`) are accepted as ROS accepts them. It may key the node by `choreonoid_ros2_control`,
// its fully qualified name or a `/**` wildcard.
import { LineCounter, type Node, isMap, isScalar, parseDocument, Document, Scalar, YAMLMap } from 'yaml';
import { ModelLoadError } from '../model/errors.js';
import type { Diagnostic } from '../model/types.js';
import { qualifiedName } from './controllers.js';
import type { GainDesign, UserGains } from './gains.js';
import type { ControlMode } from './modes.js';
import { hasItemGains } from './modes.js';

export const GAINS_NODE = 'choreonoid_ros2_control';

const double = (x: number): Scalar => {
  const s = new Scalar(Number(x.toPrecision(6)));
  s.minFractionDigits = 1;
  return s;
};

/** The gains of the joints Choreonoid's PD loops run (position_pd, velocity_pd), keyed by the node's qualified name. */
export function gainsYaml(design: GainDesign, namespace: string, header: string): string {
  const gains: Record<string, unknown> = {};
  for (const g of design.joints) {
    if (!hasItemGains(g.mode)) continue;
    const pair = new Document().createNode({ p: double(g.p), d: double(g.d) }) as YAMLMap;
    pair.flow = true;
    gains[g.joint] = pair;
  }
  // No joint with gains (every joint in a high-gain mode, a conveyor's belt alone): `gains: {}` would be a parameter
  // without a value, which rclcpp refuses when Choreonoid reads the file (InvalidParameterValueException "No parameter
  // value set", and Choreonoid aborts); an empty parameter map is read as none.
  const doc = new Document({ [qualifiedName(namespace, GAINS_NODE)]: { ros__parameters: Object.keys(gains).length > 0 ? { gains } : {} } });
  doc.commentBefore = ` ${header.split('\n').join('\n ')}`;
  return doc.toString({ lineWidth: 0 });
}

/** A node key that names the gains node: plain, qualified in any namespace, or through a `/**` wildcard. */
const namesGainsNode = (key: string): boolean => key === GAINS_NODE || key.endsWith(`/${GAINS_NODE}`) || key === '/**';

/**
 * Reads a user's gains file. Every problem is an error located in the file: no gains for the node, a joint
 * the model does not move, a value that is not a number, P ≤ 0, D < 0, a key other than p and d. A joint
 * whose mode has no PD inside Choreonoid is a warning (the item will not read its gains).
 */
export function readGainsFile(text: string, file: string, modes: ReadonlyMap<string, ControlMode>): { gains: Map<string, UserGains>; warnings: Diagnostic[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const locate = (node: unknown, path: string, message: string, severity: 'error' | 'warning' = 'error'): Diagnostic => {
    const { line, col } = lines.linePos((node as Node | null)?.range?.[0] ?? 0);
    return { file, line, column: col, path, severity, message };
  };
  for (const e of doc.errors) {
    const { line, col } = lines.linePos(e.pos[0]);
    problems.push({ file, line, column: col, severity: 'error', message: e.message.split('\n')[0]! });
  }
  if (problems.length > 0) throw new ModelLoadError(problems);
  const gains = new Map<string, UserGains>();
  const root = doc.contents;
  let found = false;
  const value = (node: unknown, path: string, which: 'p' | 'd'): number | undefined => {
    if (!isScalar(node) || typeof node.value !== 'number' || !Number.isFinite(node.value)) {
      problems.push(locate(node, path, `expected a number for the ${which === 'p' ? 'P' : 'D'} gain`));
      return undefined;
    }
    const x = node.value;
    if (which === 'p' && !(x > 0)) problems.push(locate(node, path, `P must be positive (got ${x})`));
    else if (which === 'd' && x < 0) problems.push(locate(node, path, `D must not be negative (got ${x})`));
    else return x;
    return undefined;
  };
  const warned = new Set<string>();
  /** One gain: its value node, its key node, and the node naming the joint (where a problem with the joint is reported). */
  const setGain = (joint: string, which: string, node: unknown, keyNode: unknown, jointNode: unknown, path: string): void => {
    if (which !== 'p' && which !== 'd') {
      problems.push(locate(keyNode, path, `unknown gain "${which}" (choreonoid_ros reads p and d)`));
      return;
    }
    const mode = modes.get(joint);
    if (mode === undefined) {
      if (!warned.has(joint)) problems.push(locate(jointNode, path, `no moving joint "${joint}" in the model`));
      warned.add(joint);
      return;
    }
    const x = value(node, path, which);
    if (x === undefined) return;
    if (!hasItemGains(mode) && mode !== 'effort' && !warned.has(joint)) {
      warned.add(joint);
      warnings.push(locate(jointNode, path, `joint ${joint} is in ${mode} mode: its gains are not read`, 'warning'));
    }
    gains.set(joint, { ...gains.get(joint), [which]: x });
  };
  if (isMap(root)) {
    for (const nodePair of root.items) {
      const key = isScalar(nodePair.key) ? String(nodePair.key.value) : '';
      if (!namesGainsNode(key)) continue;
      const params = isMap(nodePair.value) ? nodePair.value.get('ros__parameters', true) : undefined;
      if (!isMap(params)) continue;
      for (const p of params.items) {
        const name = isScalar(p.key) ? String(p.key.value) : '';
        if (name === 'gains') {
          found = true;
          if (!isMap(p.value)) {
            problems.push(locate(p.value, `${key}.ros__parameters.gains`, 'expected a mapping of joints to {p, d}'));
            continue;
          }
          for (const jp of p.value.items) {
            const joint = isScalar(jp.key) ? String(jp.key.value) : '';
            const at = `${key}.ros__parameters.gains.${joint}`;
            if (isMap(jp.value)) for (const g of jp.value.items) setGain(joint, isScalar(g.key) ? String(g.key.value) : '', g.value, g.key, jp.key, `${at}.${isScalar(g.key) ? String(g.key.value) : ''}`);
            else {
              // `gains: {J1.p: 1.0}`: the rest of the dotted name.
              const dot = joint.lastIndexOf('.');
              if (dot > 0) setGain(joint.slice(0, dot), joint.slice(dot + 1), jp.value, jp.key, jp.key, at);
              else problems.push(locate(jp.value, at, 'expected {p: P, d: D}'));
            }
          }
        } else if (name.startsWith('gains.')) {
          found = true;
          const rest = name.slice('gains.'.length);
          const dot = rest.lastIndexOf('.');
          if (dot > 0) setGain(rest.slice(0, dot), rest.slice(dot + 1), p.value, p.key, p.key, `${key}.ros__parameters.${name}`);
          else problems.push(locate(p.key, `${key}.ros__parameters.${name}`, 'expected gains.<joint>.p or gains.<joint>.d'));
        }
      }
    }
  }
  if (!found) problems.push(locate(root, '', `no gains: expected ${GAINS_NODE}: {ros__parameters: {gains: {JOINT: {p: P, d: D}}}}`));
  if (problems.length > 0) throw new ModelLoadError(problems);
  return { gains, warnings };
}
