// Simulator items as Choreonoid restores them (choreonoid/choreonoid src/BodyPlugin/SimulatorItem.cpp,
// AISTSimulatorItem.cpp) and which of them `--start-simulation` runs (SimulationBar.cpp): what a launch that
// simulates a body in a user's project must know — the step its controllers run at, and whether the
// integration is the semi-implicit Euler the gain design assumes.
import type { Diagnostic } from '../model/types.js';
import type { YMap } from '../body/yaml-tree.js';
import { readBool, readDouble, readString } from './archive.js';
import type { ItemPlace } from './body-item.js';
import type { ProjectSimulator, SimulatorTimeStep } from './types.js';

/**
 * The SimulatorItem subclasses of Choreonoid 2.x and their plugins. GLVisionSimulatorItem, the multicopter's and
 * the submersible's items are SubSimulatorItems (they run inside a simulator, they are not one).
 */
export const SIMULATOR_CLASSES: ReadonlyMap<string, string> = new Map([
  ['Body/AISTSimulatorItem', 'AISTSimulatorItem'],
  ['Body/KinematicSimulatorItem', 'KinematicSimulatorItem'],
  ['ODE/ODESimulatorItem', 'ODESimulatorItem'],
  ['Bullet/BulletSimulatorItem', 'BulletSimulatorItem'],
  ['PhysX/PhysXSimulatorItem', 'PhysXSimulatorItem'],
  ['MuJoCo/MuJoCoSimulatorItem', 'MuJoCoSimulatorItem'],
  ['AGXDynamics/AGXSimulatorItem', 'AGXSimulatorItem'],
]);

/** TimeBar's frame rate when the project's toolbar state gives none (TimeBar.cpp DEFAULT_FRAME_RATE). */
export const DEFAULT_TIME_BAR_FRAME_RATE = 1000;

/**
 * The time step as SimulatorItem::Impl::restore takes it: `time_step` (or timeStep, timestep) read as a string
 * (a FloatingNumberString), else `frame_rate` (frameRate, framerate) as an integer, else the TimeBar's frame rate,
 * which the simulator reads when it starts: read-project.ts fills that in once every toolbar state is read.
 */
function timeStepOf(data: YMap, w: Diagnostic[]): SimulatorTimeStep {
  const step = readString(data, ['time_step', 'timeStep', 'timestep'], w);
  if (step) {
    const value = Number(step.value);
    if (Number.isFinite(value) && value > 0) return { value, source: 'time_step', at: step.loc };
    w.push({ severity: 'warning', ...step.loc, message: `time_step "${step.value}" is no positive number: Choreonoid's simulator cannot step with it` });
    return { value: null, source: 'time_step', at: step.loc };
  }
  // Read into an int: a value that is no whole number counts as absent, and the time bar's rate is used.
  const rate = readDouble(data, ['frame_rate', 'frameRate', 'framerate'], w, 'the time bar\'s frame rate is used');
  if (rate !== undefined && Number.isInteger(rate) && rate > 0) return { value: 1 / rate, source: 'frame_rate' };
  return { value: null, source: 'time_bar' };
}

/** One simulator item; `className` is its SIMULATOR_CLASSES entry. */
export function simulatorItem(className: string, place: ItemPlace, data: YMap, selected: boolean, w: Diagnostic[]): ProjectSimulator {
  const integration = readString(data, ['integration_mode', 'integrationMode'], w)?.value;
  return {
    itemName: place.itemName,
    itemPath: place.itemPath,
    world: place.world,
    at: place.at,
    className,
    selected,
    timeStep: timeStepOf(data, w),
    // AISTSimulatorItem::Impl::restore: only these two symbols choose Runge-Kutta; anything else is semi-implicit Euler.
    ...(className === 'AISTSimulatorItem' ? { integration: integration === 'runge-kutta' || integration === 'Runge Kutta' ? ('runge-kutta' as const) : ('semi-implicit_euler' as const) } : {}),
  };
}

/** `is_selected` (or isSelected) as ItemTreeArchiver restores an item's selection. */
export const isSelectedItem = (node: YMap, w: Diagnostic[]): boolean => readBool(node, ['is_selected', 'isSelected'], w) === true;

/**
 * The simulators SimulationBar::startSimulation (what `--start-simulation` calls) runs: the selected simulator
 * items, or none selected, the first one in the tree; of several selected in one world, none of that world's.
 */
export function simulatorsStarted(simulators: readonly ProjectSimulator[]): ProjectSimulator[] {
  const selected = simulators.filter((s) => s.selected);
  const chosen = selected.length > 0 ? selected : simulators.slice(0, 1);
  const perWorld = new Map<string | null, number>();
  for (const s of chosen) perWorld.set(s.world, (perWorld.get(s.world) ?? 0) + 1);
  return chosen.filter((s) => s.world !== null && perWorld.get(s.world) === 1);
}
