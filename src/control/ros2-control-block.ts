// The <ros2_control> element choreonoid_ros's ROS2ControlItem reads from robot_description, made from the
// model as ROS sees it (after applyRosConventions: joint names are the URDF's).
//
// What the readers accept (ros2_control's hardware_interface component_parser, Humble and Jazzy): the
// element needs `name` and `type`; its children may only be <hardware> (with a <plugin>), <joint>, <sensor>,
// <gpio> and <transmission> — anything else is "invalid tag name". ROS2ControlItem takes the first block on
// Humble and, later, the one whose plugin is choreonoid_ros2_control/BodySystemInterface and type `system`:
// this block satisfies both. BodySystemInterface wants exactly one command interface per joint, named after
// its mode (modes.ts), and exports the state interfaces position, velocity and effort.
//
// min/max: written for the command interfaces ros2_control knows as limits — position (the joint's position
// limits), velocity and effort (its velocity and effort limits) — each side only where the model gives it
// (a continuous joint has no position min/max). Not for position_pd and velocity_pd: Jazzy's parser reads
// min/max for position, velocity, effort, acceleration and jerk only and prints "Unable to parse the limits
// for the interface" for any other name; Humble stores them unread. The joint's limits still reach
// ros2_control through the URDF's <limit>, which Jazzy's parser reads for every joint of the block.
import type { Joint } from '../model/types.js';
import { num } from '../urdf/format.js';
import { type XmlElement, type XmlNode, el, serializeFragment } from '../urdf/xml.js';
import type { ControlMode } from './modes.js';

export const HARDWARE_PLUGIN = 'choreonoid_ros2_control/BodySystemInterface';
export const STATE_INTERFACES = ['position', 'velocity', 'effort'] as const;

/** The [min, max] a command interface is given, each side where the model has it (null: not written). */
export function commandLimits(joint: Joint, mode: ControlMode): [number | null, number | null] {
  const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
  switch (mode) {
    case 'position':
      return [finite(joint.lower), finite(joint.upper)];
    case 'velocity':
      return [finite(joint.velocityLower), finite(joint.velocityUpper)];
    case 'effort':
      return [finite(joint.effortLower), finite(joint.effortUpper)];
    default:
      return [null, null];
  }
}

const param = (name: string, value: number): XmlElement => ({ ...el('param', { name }), text: num(value) });

/** The <ros2_control> element for these joints (moving joints of the model, with their modes). */
export function ros2ControlElement(robot: string, joints: readonly { joint: Joint; mode: ControlMode }[], comment?: string): XmlElement {
  const children: XmlNode[] = [];
  if (comment) children.push({ comment });
  children.push(el('hardware', {}, [{ ...el('plugin'), text: HARDWARE_PLUGIN }]));
  for (const { joint, mode } of joints) {
    const [min, max] = commandLimits(joint, mode);
    const limits = [...(min !== null ? [param('min', min)] : []), ...(max !== null ? [param('max', max)] : [])];
    children.push(
      el('joint', { name: joint.name }, [el('command_interface', { name: mode }, limits), ...STATE_INTERFACES.map((s) => el('state_interface', { name: s }))]),
    );
  }
  return el('ros2_control', { name: robot, type: 'system' }, children);
}

/** The element as text, indented one level (a child of <robot>). */
export const ros2ControlBlock = (element: XmlElement): string => serializeFragment(element, 1);

/**
 * The URDF with the block as the last child of <robot>. The URDF writer knows nothing of ros2_control
 * (src/urdf must not depend on src/control): the block is spliced into its text where the URDF is
 * served or written. Throws when the text does not end in </robot> (not a URDF from the writer).
 */
export function withRos2Control(urdf: string, block: string): string {
  const end = urdf.lastIndexOf('</robot>');
  if (end < 0 || urdf.slice(end + '</robot>'.length).trim() !== '') throw new RangeError('the URDF does not end with </robot>; no place for the <ros2_control> block');
  return urdf.slice(0, end) + block + urdf.slice(end);
}
