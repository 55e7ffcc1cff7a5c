// What ros2_control's URDF reader (hardware_interface's component_parser, Humble) makes of a URDF's
// <ros2_control> blocks, restated from its rules so the tests can look at our blocks without trusting the
// writer: the root must be <robot>; a block needs `name` and `type`; its children may only be <hardware>,
// <joint>, <sensor>, <gpio>, <transmission> ("invalid tag name"); <hardware> needs a <plugin>; every
// interface and <param> needs a `name`; min, max (and initial_value) are an interface's <param>s. A test
// that has the real parser (ros2-control-peer) compares against it instead.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compileHarness } from './harness.js';
import { projectRoot } from './oracle.js';
import { findCxx, findHardwareInterface, found, memo } from './peers.js';
import { parseXml, type XmlNodeRead } from './urdf-peers.js';

export interface InterfaceRead {
  name: string;
  min?: string;
  max?: string;
}

export interface JointRead {
  name: string;
  command: InterfaceRead[];
  state: InterfaceRead[];
}

export interface HardwareRead {
  name: string;
  type: string;
  plugin: string;
  joints: JointRead[];
}

type Element = XmlNodeRead;

const required = (e: Element, attribute: string): string => {
  const v = e.attributes[attribute];
  if (v === undefined) throw new Error(`no attribute ${attribute} in ${e.name} tag`);
  return v;
};

function readInterface(e: Element): InterfaceRead {
  const out: InterfaceRead = { name: required(e, 'name') };
  for (const p of e.children.filter((c) => c.name === 'param')) {
    const name = required(p, 'name');
    if (name === 'min') out.min = p.text;
    if (name === 'max') out.max = p.text;
  }
  return out;
}

/** Every <ros2_control> block of a URDF, as the parser reads it; throws with the parser's reason where it would. */
export function readRos2Control(urdf: string): HardwareRead[] {
  const robot = parseXml(urdf);
  if (robot.name !== 'robot') throw new Error('the robot tag is not root element in URDF');
  const blocks = robot.children.filter((c) => c.name === 'ros2_control');
  if (blocks.length === 0) throw new Error('no ros2_control tag');
  return blocks.map((b) => {
    const hw: HardwareRead = { name: required(b, 'name'), type: required(b, 'type'), plugin: '', joints: [] };
    for (const c of b.children) {
      if (c.name === 'hardware') {
        const plugin = c.children.find((x) => x.name === 'plugin');
        if (!plugin) throw new Error('Missing <plugin> tag of <hardware> element in your URDF.');
        hw.plugin = plugin.text;
      } else if (c.name === 'joint') {
        hw.joints.push({
          name: required(c, 'name'),
          command: c.children.filter((x) => x.name === 'command_interface').map(readInterface),
          state: c.children.filter((x) => x.name === 'state_interface').map(readInterface),
        });
      } else if (!['sensor', 'gpio', 'transmission'].includes(c.name)) throw new Error(`invalid tag name ${c.name}`);
    }
    return hw;
  });
}

// --- the real parser, where ros2_control is installed -------------------------------------------


export const ros2ControlParserPeers = memo(() => [findCxx(), findHardwareInterface()] as const);

/** The blocks as hardware_interface::parse_control_resources_from_urdf reads them (test/peers/ros2_control_parse.cpp). */
export function parseWithRos2Control(urdfFile: string): HardwareRead[] {
  const [cxx, hw] = ros2ControlParserPeers();
  const binary = compileHarness({
    cxx: found(cxx).exe,
    source: join(projectRoot, 'test/peers/ros2_control_parse.cpp'),
    binary: join(projectRoot, 'build/ros2_control_parse'),
    flags: found(hw),
    before: ['-O1', '-std=c++17'],
  });
  const r = spawnSync(binary, [urdfFile], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ros2_control_parse ${urdfFile} (${r.status}): ${r.stderr.trim()}`);
  const out: HardwareRead[] = [];
  let joint: JointRead | undefined;
  for (const line of r.stdout.split('\n')) {
    const [head, ...rest] = line.split(' ');
    if (head === 'hardware') out.push({ name: rest[0]!, type: rest[1]!, plugin: rest.slice(2).join(' '), joints: [] });
    else if (head === 'joint') out[out.length - 1]!.joints.push((joint = { name: rest.join(' '), command: [], state: [] }));
    else if (head === 'command') {
      const c: InterfaceRead = { name: rest[0]! };
      for (const kv of rest.slice(1)) {
        if (kv.startsWith('min=')) c.min = kv.slice(4);
        if (kv.startsWith('max=')) c.max = kv.slice(4);
      }
      joint!.command.push(c);
    } else if (head === 'state') joint!.state.push({ name: rest[0]! });
  }
  return out;
}
