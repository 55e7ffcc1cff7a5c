// What a user's own Choreonoid project must have for ros2_control to run the model in it, judged on the project
// as readProject restores it (the one place that knows what a project means: item tree, paths, sub-projects,
// which simulator `--start-simulation` runs). Each problem is located in the project file (or a sub-project's):
//
// - a BodyItem loading the model the launch serves (the same file), which Choreonoid restores;
// - a ROS2ControlItem under it (choreonoid_ros runs ros2_control only for such a body), whose namespace is
//   absolute (a relative one is looked up inside itself: robot1 → /robot1/robot1/robot_state_publisher) and the
//   one the rest of the launch uses;
// - in the body's world, a WorldROS2Item (/clock: the controllers and MoveIt run on simulation time) and the
//   simulator `--start-simulation` runs, with a time step, which the gains are designed for.
// Warnings: another simulator than AIST or Runge-Kutta (the gains' stability check assumes semi-implicit Euler), a
// fixed-base model the project frees (nothing holds its base), no BodyROS2Item (no sensor topics).
import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Diagnostic, SourceLocation } from '../model/types.js';
import { simulatorsStarted } from './simulator-item.js';
import type { LoadedProjectBody, Project, ProjectSimulator, Ros2ControlItem } from './types.js';

export interface ProjectCheck {
  /** The body item that simulates the model (null when there is none to use). */
  body: LoadedProjectBody | null;
  control: Ros2ControlItem | null;
  /** ROS2ControlItem's namespace ('' when it gives none). */
  namespace: string;
  /** The simulator that runs the body's world, and its step (s). */
  simulator: ProjectSimulator | null;
  timeStep: number | null;
  problems: Diagnostic[];
  warnings: Diagnostic[];
}

export interface ProjectCheckOptions {
  /** The namespace the launch runs body_bridge and the spawners in; absent: the project's is taken. */
  namespace?: string;
}

const canonical = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

const trimNamespace = (ns: string): string => ns.replace(/\/+$/, '');

export function checkSimulationProject(project: Project, modelFile: string, options: ProjectCheckOptions = {}): ProjectCheck {
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const error = (at: SourceLocation, message: string): void => void problems.push({ severity: 'error', ...at, message });
  const warn = (at: SourceLocation, message: string): void => void warnings.push({ severity: 'warning', ...at, message });
  const out: ProjectCheck = { body: null, control: null, namespace: '', simulator: null, timeStep: null, problems, warnings };
  const top: SourceLocation = { file: project.file, line: 1, column: 1 };
  const model = canonical(modelFile);

  // The body: a BodyItem loading the very file the launch serves (body_bridge serves that file's URDF, and
  // BodySystemInterface drives the body Choreonoid loaded: they must be one model).
  const loading = project.bodies.filter((b) => b.path !== null && canonical(b.path) === model);
  if (loading.length === 0) {
    const namesake = project.bodies.filter((b) => b.path !== null && basename(b.path) === basename(model));
    const listed = project.bodies.map((b) => `${b.itemName} ← ${b.path ?? b.modelFile ?? '?'}`).join(', ') || 'none';
    if (namesake.length > 0) {
      for (const b of namesake) error(b.at, `body item "${b.itemName}" loads ${b.path}, not ${model}, the model the launch serves: serve that file (body_file:=${b.path}) or make the item load this one`);
    } else {
      error(top, `no body item loads ${model} (body items: ${listed})`);
    }
    return out;
  }
  const failed = loading.filter((b) => b.kind === 'failed');
  const loaded = loading.filter((b): b is LoadedProjectBody => b.kind === 'loaded');
  if (loaded.length === 0) {
    for (const b of failed) {
      if (b.kind === 'failed') problems.push(...b.errors);
    }
    return out;
  }
  const controlled = loaded.filter((b) => b.ros.ros2Control);
  const body = controlled[0] ?? loaded[0]!;
  out.body = body;
  if (controlled.length > 1) {
    for (const b of controlled.slice(1)) warn(b.ros.ros2Control!.at, `body item "${b.itemName}" loads the model with a ROS2ControlItem too; the launch serves "${body.itemName}" (the first)`);
  }

  const control = body.ros.ros2Control;
  if (!control) {
    error(body.at, `no ROS2ControlItem under the body item "${body.itemName}": choreonoid_ros runs ros2_control only for a body with one among its children (add one, class ROS2ControlItem, plugin ROS2)`);
  } else {
    out.control = control;
    out.namespace = control.namespace;
    const at = control.namespaceAt ?? control.at;
    if (control.namespace !== '' && !control.namespace.startsWith('/')) {
      error(at, `ROS2ControlItem's namespace "${control.namespace}" is relative: on Humble the item looks robot_state_publisher up inside it (${control.robotStatePublisher}); make it /${control.namespace}, which names the same place on every distribution`);
    }
    if (options.namespace !== undefined && trimNamespace(options.namespace) !== trimNamespace(control.namespace)) {
      error(at, `ROS2ControlItem's namespace is "${control.namespace}" but the launch runs robot_state_publisher and the controllers in "${options.namespace}": the item would wait for ${control.robotStatePublisher} forever`);
    }
  }
  if (!body.ros.bodyRos2) warn(body.at, `no BodyROS2Item under "${body.itemName}": its sensors are not published (joint_state_broadcaster publishes the joints)`);
  if (body.model.links[0]!.joint.type === 'fixed' && !body.fixedRoot) {
    warn(body.at, `the model's root is fixed but the project frees it (fix_root: false): nothing holds "${body.itemName}"'s base in the simulation`);
  }

  // Its world: the clock and the simulator that `--start-simulation` runs there.
  const world = project.worlds.find((w) => w.itemPath === body.world);
  if (!world) {
    error(body.at, `body item "${body.itemName}" is in no world item: no simulation moves it`);
    return out;
  }
  if (!world.ros.worldRos2) error(world.at, `no WorldROS2Item in world "${world.itemName}": nothing publishes /clock, and the controllers and MoveIt run on simulation time`);
  const inWorld = project.simulators.filter((s) => s.world === world.itemPath);
  const started = simulatorsStarted(project.simulators).find((s) => s.world === world.itemPath);
  if (inWorld.length === 0) {
    error(world.at, `no simulator item in world "${world.itemName}" (AISTSimulatorItem): nothing would run the simulation`);
  } else if (!started) {
    const selected = project.simulators.filter((s) => s.selected);
    const why = selected.filter((s) => s.world === world.itemPath).length > 1
      ? 'several of its simulators are selected, and Choreonoid then starts none of them'
      : `Choreonoid starts ${selected.length > 0 ? 'the selected simulators' : 'the first simulator in the project'} (${(selected.length > 0 ? selected : project.simulators.slice(0, 1)).map((s) => s.itemPath).join(', ')}), none in this world`;
    error(inWorld[0]!.at, `--start-simulation runs no simulator in world "${world.itemName}": ${why}; select one of its simulators (is_selected: true)`);
  } else {
    out.simulator = started;
    out.timeStep = started.timeStep.value;
    if (started.timeStep.value === null) error(started.timeStep.at ?? started.at, `simulator "${started.itemName}" has no usable time step`);
    if (started.className !== 'AISTSimulatorItem') warn(started.at, `${started.className}: the gains are designed for the AIST simulator's semi-implicit Euler`);
    else if (started.integration === 'runge-kutta') warn(started.at, 'Runge-Kutta integration: the gains\' stability check assumes semi-implicit Euler');
  }
  return out;
}
