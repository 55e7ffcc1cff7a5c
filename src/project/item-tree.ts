// The `items` tree as ItemTreeArchiver::restore walks it (choreonoid/choreonoid src/Base/ItemTreeArchiver.cpp):
// each item is a mapping with name, plugin, class, data and children. A RootItem stands for the item it is
// restored into; an item that cannot be restored is dropped with its whole subtree; a child that is not a
// mapping stops the walk altogether (Choreonoid catches the exception only around the whole restore).
import type { Diagnostic } from '../model/types.js';
import type { YMap, YNode } from '../body/yaml-tree.js';
import { readBool, readString } from './archive.js';
import { restoreBodyItem, type BodyItemContext, type ItemPlace } from './body-item.js';
import { bodyRos2Item, ros2ControlItem, worldRos2Item } from './ros-items.js';
import { isSelectedItem, SIMULATOR_CLASSES, simulatorItem } from './simulator-item.js';
import type { LoadedProjectBody, ProjectBody, ProjectSimulator, ProjectWorld } from './types.js';

/** What the walk collects, shared by a project and the sub-projects it loads. */
export interface TreeContext extends BodyItemContext {
  worlds: ProjectWorld[];
  bodies: ProjectBody[];
  simulators: ProjectSimulator[];
  diagnostics: Diagnostic[];
  /** Restores a SubProjectItem's project file into the item (read-project.ts). */
  restoreSubProject: (item: ItemPlace, data: YMap, ancestors: Ancestors, ctx: TreeContext) => void;
}

/** The nearest enclosing items Choreonoid's findOwnerItem would find, and the item path so far. */
export interface Ancestors {
  path: string;
  body?: LoadedProjectBody;
  world?: ProjectWorld;
}

/** Thrown when a child is not a mapping: Choreonoid abandons the rest of the item tree. */
class TreeAbandoned extends Error {}

const childPath = (path: string, name: string): string => (path === '' ? name : `${path}/${name}`);

/** Restores the item tree under `node` (the `items` mapping of a project, or of a sub-project). */
export function restoreItemTree(node: YMap, ancestors: Ancestors, ctx: TreeContext): void {
  try {
    restoreItem(node, ancestors, ctx);
  } catch (e) {
    if (!(e instanceof TreeAbandoned)) throw e;
  }
}

function restoreItem(node: YMap, ancestors: Ancestors, ctx: TreeContext): void {
  const w = ctx.diagnostics;
  const name = readString(node, 'name', w)?.value ?? '';
  const dropped = (message: string, at: YNode = node): void => {
    ctx.diagnostics.push({ severity: 'error', ...at.loc, message: `${message}: Choreonoid does not restore this item or the items under it` });
  };

  let here: Ancestors = ancestors;
  if (readBool(node, ['is_sub_item', 'isSubItem'], w) === true) {
    // An item its parent creates itself; its state is restored into it, and its children under it.
    if (name === '') return dropped('a sub item without a name');
    here = { ...ancestors, path: childPath(ancestors.path, name) };
  } else {
    const plugin = readString(node, 'plugin', w)?.value;
    const className = readString(node, 'class', w)?.value;
    if (plugin === undefined || className === undefined) return dropped('an item without plugin and class ("Archive is broken")');
    const dataNode = node.entries.get('data');
    if (dataNode !== undefined && dataNode.kind !== 'map') return dropped('"data" is not a mapping', dataNode);
    const data: YMap = dataNode ?? { kind: 'map', entries: new Map(), loc: node.loc };
    if (!(plugin === 'Base' && className === 'RootItem')) {
      const place: ItemPlace = { itemName: name, itemPath: childPath(ancestors.path, name), world: ancestors.world?.itemPath ?? null, at: node.loc };
      here = { ...ancestors, path: place.itemPath };
      const restored = restoreKnownItem(plugin, className, place, data, ancestors, ctx, node);
      if (restored === 'dropped') return;
      if (restored) here = { ...here, ...restored };
    }
  }

  const children = node.entries.get('children');
  if (children === undefined) return;
  if (children.kind !== 'seq') {
    w.push({ severity: 'warning', ...children.loc, message: '"children" is not a list: Choreonoid restores no item under this one' });
    return;
  }
  for (const child of children.items) {
    if (child.kind !== 'map') {
      w.push({ severity: 'error', ...child.loc, message: 'an item that is not a mapping: Choreonoid stops restoring the item tree here (the items after it are not loaded)' });
      throw new TreeAbandoned();
    }
    restoreItem(child, here, ctx);
  }
}

/**
 * The items whose meaning the project reader needs; every other class is taken to restore (Choreonoid would
 * drop one whose plugin is not loaded, with its subtree — which holds no bodies in practice: simulators, controllers).
 * Returns what the item becomes for its descendants, or 'dropped'.
 */
function restoreKnownItem(plugin: string, className: string, place: ItemPlace, data: YMap, ancestors: Ancestors, ctx: TreeContext, node: YMap): Partial<Ancestors> | 'dropped' | undefined {
  const w = ctx.diagnostics;
  const key = `${plugin}/${className}`;
  const simulatorClass = SIMULATOR_CLASSES.get(key);
  if (simulatorClass) {
    ctx.simulators.push(simulatorItem(simulatorClass, place, data, isSelectedItem(node, w), w));
    return undefined;
  }
  switch (key) {
    case 'Body/WorldItem': {
      const world: ProjectWorld = { itemName: place.itemName, itemPath: place.itemPath, at: place.at, ros: {} };
      ctx.worlds.push(world);
      return { world };
    }
    case 'Body/BodyItem': {
      const body = restoreBodyItem(place, data, ctx, ancestors.body);
      ctx.bodies.push(body);
      if (body.kind === 'failed') return 'dropped';
      return { body };
    }
    case 'Base/SubProjectItem':
      ctx.restoreSubProject(place, data, { ...ancestors, path: place.itemPath }, ctx);
      return undefined;
    case 'ROS2/BodyROS2Item':
    case 'ROS2/ROS2ControlItem': {
      const owner = ancestors.body;
      if (!owner) {
        w.push({ severity: 'warning', ...place.at, message: `${className} "${place.itemName}" is not under a body item: choreonoid_ros gives it no body to serve` });
        return undefined;
      }
      const slot = className === 'BodyROS2Item' ? 'bodyRos2' : 'ros2Control';
      if (owner.ros[slot]) {
        owner.warnings.push({ severity: 'warning', ...place.at, message: `a second ${className} for body item "${owner.itemName}" ("${place.itemName}"): both make ROS nodes of the same name; the first is reported` });
        return undefined;
      }
      if (slot === 'bodyRos2') owner.ros.bodyRos2 = bodyRos2Item(place.itemName, data, place.at, owner.itemName, owner.warnings);
      else owner.ros.ros2Control = ros2ControlItem(place.itemName, data, place.at, owner.warnings);
      return undefined;
    }
    case 'ROS2/WorldROS2Item': {
      const world = ancestors.world;
      if (!world) {
        w.push({ severity: 'warning', ...place.at, message: `WorldROS2Item "${place.itemName}" is not under a world item: choreonoid_ros publishes no clock for it` });
      } else if (world.ros.worldRos2) {
        w.push({ severity: 'warning', ...place.at, message: `a second WorldROS2Item for world item "${world.itemName}": the first is reported` });
      } else {
        world.ros.worldRos2 = worldRos2Item(place.itemName, data, place.at, world.itemName, w);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}
