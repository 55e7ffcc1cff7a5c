// Reading a Choreonoid project file (.cnoid) with Choreonoid's meaning (ProjectManager::Impl::loadProject,
// choreonoid/choreonoid src/Base/ProjectManager.cpp): the file is one YAML mapping whose `items` hold the item
// tree; `${PROJECT_DIR}` and relative paths are taken from the project file's directory; a SubProjectItem
// restores another project file into itself, with that file's directory as its ${PROJECT_DIR}.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadRobotModel } from '../load.js';
import { ModelLoadError, failAt } from '../model/errors.js';
import { resolveLimits, type LoadOptions } from '../model/options.js';
import type { Diagnostic, RobotModel } from '../model/types.js';
import { readYamlFile, type YMap } from '../body/yaml-tree.js';
import { readDouble, readString } from './archive.js';
import type { ItemPlace } from './body-item.js';
import { restoreItemTree, type Ancestors, type TreeContext } from './item-tree.js';
import { expandPath, pathVariablesFor, type PathVariables } from './path-variables.js';
import { DEFAULT_TIME_BAR_FRAME_RATE } from './simulator-item.js';
import type { Project } from './types.js';

export interface ProjectOptions extends LoadOptions {
  /** Choreonoid's share directory for `${SHARE}`; default $BODY_BRIDGE_CHOREONOID_SHARE, else the installed choreonoid's. */
  share?: string;
  /** User path variables, as Choreonoid's `--path-variable NAME=DIR` (several directories: the first holding the file). */
  pathVariables?: Readonly<Record<string, readonly string[]>>;
  /** The environment ($HOME, $PATH for the installed choreonoid, the share variable); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads a project. Throws ModelLoadError only when the project itself cannot be read (no such file, bad YAML, not
 * a mapping); a body that cannot be restored is a failed ProjectBody and the rest of the project still serves.
 */
export function readProject(file: string, options: ProjectOptions = {}): Project {
  const path = resolve(file);
  const env = options.env ?? process.env;
  const limits = resolveLimits(options, env);
  const vars = pathVariablesFor(path, options, env);
  const loadOptions: LoadOptions = { ...(options.shapes !== undefined ? { shapes: options.shapes } : {}), ...(options.packagePath ? { packagePath: options.packagePath } : {}), limits };
  // Projects place one model many times (WRS2018: dozens of blocks): load each file once.
  const models = new Map<string, RobotModel | ModelLoadError>();
  const loadModel = (modelPath: string): RobotModel => {
    let entry = models.get(modelPath);
    if (entry === undefined) {
      try {
        entry = loadRobotModel(modelPath, loadOptions);
      } catch (e) {
        if (!(e instanceof ModelLoadError)) throw e;
        entry = e;
      }
      models.set(modelPath, entry);
    }
    if (entry instanceof ModelLoadError) throw entry;
    return entry;
  };
  const diagnostics: Diagnostic[] = [];
  const { items, timeBarFrameRate } = projectItems(path, limits, diagnostics);
  // The TimeBar's frame rate: the last toolbar state restored (a sub-project's is restored as its item is).
  const timeBar = { frameRate: timeBarFrameRate ?? DEFAULT_TIME_BAR_FRAME_RATE };
  const project: Project = { file: path, worlds: [], simulators: [], bodies: [], shareDirectory: vars.share ?? null, diagnostics };
  const loading = new Set<string>([path]);
  const ctx: TreeContext = {
    vars,
    loadModel,
    worlds: project.worlds,
    bodies: project.bodies,
    simulators: project.simulators,
    diagnostics,
    restoreSubProject: (item, data, ancestors, parent) => restoreSubProject(item, data, ancestors, parent, { limits, loading, timeBar }),
  };
  try {
    if (items) restoreItemTree(items, { path: '' }, ctx);
  } catch (e) {
    // Only stack exhaustion on absurdly nested trees or sub-project chains can get here: still a located failure.
    if (e instanceof RangeError) failAt({ file: path, line: 1, column: 1 }, 'the project is nested too deeply to be read (its item tree or its chain of sub-projects)');
    throw e;
  }
  // A simulator without a step of its own reads the TimeBar's when it starts.
  for (const s of project.simulators) if (s.timeStep.source === 'time_bar') s.timeStep.value = 1 / timeBar.frameRate;
  return project;
}

/**
 * The `items` mapping of a project file, and the time bar's frame rate its toolbar state gives (a simulator
 * without a time step steps at it); throws when the file is no project at all.
 */
function projectItems(path: string, limits: ReturnType<typeof resolveLimits>, diagnostics: Diagnostic[]): { items: YMap | undefined; timeBarFrameRate: number | undefined } {
  const yaml = readYamlFile(path, limits, diagnostics);
  const root = yaml.root;
  if (root.kind === 'scalar' && root.value === '') failAt({ file: path, line: 1, column: 1 }, 'the project file is empty');
  if (root.kind !== 'map') failAt(root.loc, 'a project file is a YAML mapping (with items, views, ...)');
  const timeBarFrameRate = timeBarRate(root, diagnostics);
  const items = root.entries.get('items');
  if (items === undefined) {
    diagnostics.push({ severity: 'warning', ...root.loc, message: 'the project has no items' });
    return { items: undefined, timeBarFrameRate };
  }
  if (items.kind !== 'map') {
    diagnostics.push({ severity: 'error', ...items.loc, message: '"items" is not a mapping: Choreonoid restores no item from it' });
    return { items: undefined, timeBarFrameRate };
  }
  return { items, timeBarFrameRate };
}

/** TimeBar::Impl::restoreState: toolbars → "TimeBar" → frame_rate (or frameRate); undefined when the file gives none. */
function timeBarRate(root: YMap, w: Diagnostic[]): number | undefined {
  const bars = root.entries.get('toolbars');
  const bar = bars?.kind === 'map' ? bars.entries.get('TimeBar') : undefined;
  const rate = bar?.kind === 'map' ? readDouble(bar, ['frame_rate', 'frameRate'], w, 'the time bar keeps its frame rate') : undefined;
  return rate !== undefined && rate > 0 ? rate : undefined;
}

/**
 * SubProjectItem::restore → Archive::loadFileTo: `file` (or `filename`) resolved in the including project, then
 * that project's items restored under the SubProjectItem (SubProjectItem.cpp; ${PROJECT_DIR} is the sub-project's
 * directory there). A project already being loaded is not loaded again.
 */
function restoreSubProject(
  item: ItemPlace,
  data: YMap,
  ancestors: Ancestors,
  parent: TreeContext,
  shared: { limits: ReturnType<typeof resolveLimits>; loading: Set<string>; timeBar: { frameRate: number } },
): void {
  const w = parent.diagnostics;
  const fileNode = readString(data, ['file', 'filename'], w);
  if (!fileNode) return;
  const expanded = expandPath(fileNode.value, parent.vars);
  if ('error' in expanded) {
    w.push({ severity: 'error', ...fileNode.loc, message: `sub-project "${item.itemName}": ${expanded.error}` });
    return;
  }
  if (shared.loading.has(expanded.path)) {
    w.push({ severity: 'error', ...fileNode.loc, message: `sub-project "${item.itemName}" includes ${expanded.path}, which is already being loaded (Choreonoid refuses recursive sub-projects)` });
    return;
  }
  if (shared.loading.size >= shared.limits.maxIncludedFiles) {
    w.push({ severity: 'error', ...fileNode.loc, message: `sub-project "${item.itemName}": more than ${shared.limits.maxIncludedFiles} nested project files (limits.maxIncludedFiles)` });
    return;
  }
  if (!isFile(expanded.path)) {
    w.push({ severity: 'error', ...fileNode.loc, message: `sub-project "${item.itemName}": project file ${expanded.path} not found` });
    return;
  }
  let items: YMap | undefined;
  try {
    // ProjectManager::loadProject restores a sub-project's toolbar states too, before its items.
    const read = projectItems(expanded.path, shared.limits, w);
    items = read.items;
    if (read.timeBarFrameRate !== undefined) shared.timeBar.frameRate = read.timeBarFrameRate;
  } catch (e) {
    if (!(e instanceof ModelLoadError)) throw e;
    w.push({ severity: 'error', ...fileNode.loc, message: `sub-project "${item.itemName}" does not load` }, ...e.diagnostics);
    return;
  }
  if (!items) return;
  const vars: PathVariables = { ...parent.vars, projectDir: resolve(expanded.path, '..') };
  shared.loading.add(expanded.path);
  restoreItemTree(items, ancestors, { ...parent, vars });
  shared.loading.delete(expanded.path);
}

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
