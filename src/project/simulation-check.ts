// What a user's own Choreonoid project must have for ros2_control to run the model in it, checked before
// anything starts (a project lacking it leaves Choreonoid waiting or the controllers without a clock), each
// problem located in the project file:
//
// - a BodyItem loading the model, with a ROS2ControlItem among its children (choreonoid_ros runs ros2_control
//   only for such a body) whose namespace is absolute (a relative one is looked up inside itself:
//   robot1 → /robot1/robot1/robot_state_publisher) and the one the rest of the launch uses;
// - a WorldROS2Item (/clock: the controllers and MoveIt run on simulation time);
// - a simulator item, whose time step the gains are designed for. The gain design assumes the AIST simulator's
//   semi-implicit Euler: another simulator or Runge-Kutta is a warning.
// A missing BodyROS2Item is a warning (the sensors are not published; joint_state_broadcaster still is).
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { LineCounter, type Node, isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';
import type { Diagnostic } from '../model/types.js';

export interface ProjectCheck {
  /** The body item's name. */
  body: string | null;
  /** ROS2ControlItem's namespace ('' when it gives none). */
  namespace: string;
  /** The simulator's step (s), when it states one. */
  timeStep: number | null;
  problems: Diagnostic[];
  warnings: Diagnostic[];
}

export interface ProjectCheckOptions {
  /** The namespace the launch runs body_bridge and the spawners in; absent: the project's is taken. */
  namespace?: string;
  /** Choreonoid's share folder, for `${SHARE}` in file names. */
  shareDir?: string;
}

interface FoundItem {
  node: YAMLMap;
  cls: string;
  name: string;
  data: YAMLMap | null;
  children: FoundItem[];
  path: string;
}

const text = (node: unknown): string | null => (isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : null);

/** Where a project's file name points (`${SHARE}`, `${PROJECT_DIR}`, relative to the project). */
function resolveFile(name: string, projectFile: string, shareDir: string | undefined): string | null {
  let f = name.replace(/\$\{PROJECT_DIR\}/g, dirname(projectFile));
  if (f.includes('${SHARE}')) {
    if (!shareDir) return null;
    f = f.replace(/\$\{SHARE\}/g, shareDir);
  }
  return isAbsolute(f) ? f : resolve(dirname(projectFile), f);
}

const samePath = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
};

export function checkSimulationProject(source: string, projectFile: string, modelFile: string, options: ProjectCheckOptions = {}): ProjectCheck {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const at = (node: unknown, path: string, message: string, severity: 'error' | 'warning' = 'error'): Diagnostic => {
    const { line, col } = lines.linePos((node as Node | null)?.range?.[0] ?? 0);
    return { file: projectFile, line, column: col, path, severity, message };
  };
  const out: ProjectCheck = { body: null, namespace: '', timeStep: null, problems, warnings };
  for (const e of doc.errors) {
    const { line, col } = lines.linePos(e.pos[0]);
    problems.push({ file: projectFile, line, column: col, severity: 'error', message: e.message.split('\n')[0]! });
  }
  if (problems.length > 0) return out;
  const root = isMap(doc.contents) ? doc.contents.get('items', true) : undefined;
  if (!isMap(root)) {
    problems.push(at(doc.contents, 'items', 'not a Choreonoid project: no items tree'));
    return out;
  }
  const read = (node: YAMLMap, path: string): FoundItem => {
    const children = node.get('children', true);
    const data = node.get('data', true);
    return {
      node,
      cls: text(node.get('class', true)) ?? '',
      name: text(node.get('name', true)) ?? '',
      data: isMap(data) ? data : null,
      path,
      children: isSeq(children) ? children.items.flatMap((c, i) => (isMap(c) ? [read(c, `${path}.children[${i}]`)] : [])) : [],
    };
  };
  const all = (i: FoundItem): FoundItem[] => [i, ...i.children.flatMap(all)];
  const items = all(read(root, 'items'));

  // The body: a BodyItem loading the model (by path; by file name where the path cannot be resolved).
  const bodies = items.filter((i) => i.cls === 'BodyItem');
  const fileOf = (i: FoundItem): string | null => text(i.data?.get('file', true));
  const exact = bodies.filter((i) => {
    const f = fileOf(i);
    const r = f === null ? null : resolveFile(f, projectFile, options.shareDir);
    return r !== null && existsSync(r) && samePath(r, modelFile);
  });
  const byName = exact.length > 0 ? [] : bodies.filter((i) => {
    const f = fileOf(i);
    return f !== null && basename(f) === basename(modelFile);
  });
  const matches = exact.length > 0 ? exact : byName;
  if (matches.length === 0) {
    problems.push(at(root, 'items', `no BodyItem loads ${modelFile} (BodyItems: ${bodies.map((b) => `${b.name} ← ${fileOf(b) ?? '?'}`).join(', ') || 'none'})`));
  } else {
    const body = matches[0]!;
    out.body = body.name;
    if (exact.length === 0) warnings.push(at(body.node, body.path, `BodyItem ${body.name} loads ${fileOf(body)}, taken for ${modelFile} by its file name (the path could not be resolved${options.shareDir ? '' : ': ${SHARE} unknown'})`, 'warning'));
    if (matches.length > 1) warnings.push(at(matches[1]!.node, matches[1]!.path, `${matches.length} BodyItems load the model; the first, ${body.name}, is used`, 'warning'));
    const control = body.children.filter((c) => c.cls === 'ROS2ControlItem');
    if (control.length === 0) {
      problems.push(at(body.node, body.path, `no ROS2ControlItem under the body item ${body.name}: choreonoid_ros runs ros2_control only for a body with one among its children`));
    } else {
      const item = control[0]!;
      const nsNode = item.data?.get('namespace', true);
      out.namespace = text(nsNode) ?? '';
      const where = nsNode ?? item.node;
      if (out.namespace !== '' && !out.namespace.startsWith('/')) {
        problems.push(at(where, `${item.path}.data.namespace`, `ROS2ControlItem's namespace "${out.namespace}" is relative: the item looks robot_state_publisher up inside it (${out.namespace} → /${out.namespace}/${out.namespace}/robot_state_publisher); make it /${out.namespace}`));
      }
      if (options.namespace !== undefined && options.namespace.replace(/\/+$/, '') !== out.namespace.replace(/\/+$/, '')) {
        problems.push(at(where, `${item.path}.data.namespace`, `ROS2ControlItem's namespace is "${out.namespace}" but the launch runs robot_state_publisher and the controllers in "${options.namespace}"`));
      }
    }
    if (!body.children.some((c) => c.cls === 'BodyROS2Item')) {
      warnings.push(at(body.node, body.path, `no BodyROS2Item under ${body.name}: its sensors are not published (joint_state_broadcaster publishes the joints)`, 'warning'));
    }
  }
  if (!items.some((i) => i.cls === 'WorldROS2Item')) {
    problems.push(at(root, 'items', 'no WorldROS2Item: nothing publishes /clock, and the controllers and MoveIt run on simulation time'));
  }
  const simulators = items.filter((i) => /SimulatorItem$/.test(i.cls) && i.cls !== 'GLVisionSimulatorItem');
  const simulator = simulators.find((i) => i.cls === 'AISTSimulatorItem') ?? simulators[0];
  if (!simulator) {
    problems.push(at(root, 'items', 'no simulator item (AISTSimulatorItem): nothing would run the simulation'));
  } else {
    const step = simulator.data?.get('time_step', true) ?? simulator.data?.get('timeStep', true);
    const value = Number(text(step));
    if (step !== undefined && Number.isFinite(value) && value > 0) out.timeStep = value;
    if (simulator.cls !== 'AISTSimulatorItem') {
      warnings.push(at(simulator.node, simulator.path, `${simulator.cls}: the gains are designed for the AIST simulator's semi-implicit Euler`, 'warning'));
    } else if (/runge/i.test(text(simulator.data?.get('integration_mode', true) ?? simulator.data?.get('integrationMode', true)) ?? '')) {
      warnings.push(at(simulator.node, simulator.path, 'Runge-Kutta integration: the gains\' stability check assumes semi-implicit Euler', 'warning'));
    }
  }
  return out;
}
