// choreonoid_ros's items as its ROS2 plugin restores them (choreonoid/choreonoid_ros src/plugin/
// BodyROS2Item.cpp, ROS2ControlItem.cpp, WorldROS2Item.cpp), and the ROS names they end up with.
import type { Diagnostic, SourceLocation } from '../model/types.js';
import type { YMap } from '../body/yaml-tree.js';
import { readDouble, readString } from './archive.js';
import type { BodyRos2Item, Ros2ControlItem, WorldRos2Item } from './types.js';

// rcl's node name rule (rmw_validate_node_name): letters, digits and '_', not starting with a digit, at most 255.
const VALID_NODE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;

/** Both items name their node after the owning item with '-' made '_' (and nothing else changed). */
export const rosNodeName = (ownerItemName: string): string => ownerItemName.replace(/-/g, '_');

function checkNodeName(nodeName: string, what: string, at: SourceLocation, warnings: Diagnostic[]): void {
  if (!VALID_NODE_NAME.test(nodeName)) {
    warnings.push({
      severity: 'warning',
      ...at,
      message: `${what} names its ROS node "${nodeName}", which rclcpp refuses (letters, digits and '_' only, not starting with a digit): choreonoid_ros cannot create it`,
    });
  }
}

export function bodyRos2Item(itemName: string, data: YMap, at: SourceLocation, ownerItemName: string, warnings: Diagnostic[]): BodyRos2Item {
  const nodeName = rosNodeName(ownerItemName);
  checkNodeName(nodeName, `BodyROS2Item "${itemName}" (for body item "${ownerItemName}")`, at, warnings);
  return {
    itemName,
    at,
    nodeName,
    // The node is made with the default namespace, so its fully qualified name is /<name>.
    namespace: `/${nodeName}`,
    jointStateUpdateRate: readDouble(data, ['joint_state_update_rate', 'jointStateUpdateRate'], warnings, 'the default 100 Hz is used') ?? 100,
  };
}

/** A node namespace as rclcpp makes it absolute: '' is '/', a relative one is put under '/'. */
const absoluteNamespace = (ns: string): string => (ns === '' ? '/' : ns.startsWith('/') ? ns : `/${ns}`);
const under = (ns: string, name: string): string => (ns === '/' ? `/${name}` : `${ns}/${name}`);

export function ros2ControlItem(itemName: string, data: YMap, at: SourceLocation, warnings: Diagnostic[]): Ros2ControlItem {
  const namespaceNode = readString(data, 'namespace', warnings, 'no namespace is used');
  const namespace = namespaceNode?.value ?? '';
  const nodeNamespace = absoluteNamespace(namespace);
  // The parameter client names `<namespace>/robot_state_publisher` relative to the item's own node, so a relative
  // namespace appears twice (ROS2ControlItem::getURDF).
  const robotStatePublisher =
    namespace === '' ? '/robot_state_publisher' : namespace.startsWith('/') ? `${namespace}/robot_state_publisher` : `${under(nodeNamespace, namespace)}/robot_state_publisher`;
  return {
    itemName,
    at,
    namespace,
    ...(namespaceNode ? { namespaceAt: namespaceNode.loc } : {}),
    controlNode: under(nodeNamespace, 'choreonoid_ros2_control'),
    controllerManager: under(nodeNamespace, 'controller_manager'),
    robotStatePublisher,
    robotDescriptionTopic: under(nodeNamespace, 'robot_description'),
  };
}

export function worldRos2Item(itemName: string, data: YMap, at: SourceLocation, worldItemName: string, warnings: Diagnostic[]): WorldRos2Item {
  const nodeName = rosNodeName(worldItemName);
  checkNodeName(nodeName, `WorldROS2Item "${itemName}" (for world item "${worldItemName}")`, at, warnings);
  return {
    itemName,
    at,
    nodeName,
    maxClockPublishingRate: readDouble(data, 'max_clock_publishing_rate', warnings, 'the default 100 Hz is used') ?? 100,
  };
}
