// The ROS command line as rcl reads it: node name/namespace remapping and parameter files keyed the
// ways launch_ros and users write them (fully qualified, nested, wildcards), which rclnodejs 2.x alone
// does not match (it looks up only `/**` and the bare node name).
import { describe, expect, it } from 'vitest';
import { nodePatternMatches, parameterOverrides, paramsFromFile, parseRosArgs } from '../src/ros/ros-args.js';
import { parse } from 'yaml';

describe('parseRosArgs', () => {
  it('reads __node and __ns remaps, params files and -p in order, and leaves other arguments alone', () => {
    const a = parseRosArgs(
      ['robot.body', '--ros-args', '-r', '__node:=bridge2', '-r', '__ns:=/arm', '--params-file', '/tmp/p.yaml', '-p', 'frame_prefix:=a/', '--log-level', 'debug', '-r', 'joint_states:=js', '--', '--verbose'],
      'body_bridge',
    );
    expect(a.name).toBe('bridge2');
    expect(a.namespace).toBe('/arm');
    expect(a.sources).toEqual([
      { kind: 'file', path: '/tmp/p.yaml' },
      { kind: 'param', node: null, name: 'frame_prefix', value: 'a/' },
    ]);
    expect(a.rest).toEqual(['robot.body', '--verbose']);
  });

  it('applies node-targeted remaps only to this node and reads -p values as YAML', () => {
    const a = parseRosArgs(['--ros-args', '-r', 'other:__ns:=/x', '-r', 'body_bridge:__ns:=ns2', '-p', 'publish_frequency:=30', '-p', 'other:flag:=true', '-p', 'list:=[a, b]'], 'body_bridge');
    expect(a.namespace).toBe('/ns2');
    expect(a.sources).toEqual([
      { kind: 'param', node: null, name: 'publish_frequency', value: 30 },
      { kind: 'param', node: 'other', name: 'flag', value: true },
      { kind: 'param', node: null, name: 'list', value: ['a', 'b'] },
    ]);
  });
});

describe('params files', () => {
  it('matches rcl node patterns', () => {
    expect(nodePatternMatches('/**', '/ns/body_bridge')).toBe(true);
    expect(nodePatternMatches('body_bridge', '/body_bridge')).toBe(true);
    expect(nodePatternMatches('/body_bridge', '/ns/body_bridge')).toBe(false);
    expect(nodePatternMatches('/ns/body_bridge', '/ns/body_bridge')).toBe(true);
    expect(nodePatternMatches('/**/body_bridge', '/a/b/body_bridge')).toBe(true);
    expect(nodePatternMatches('/**/body_bridge', '/body_bridge')).toBe(true);
    expect(nodePatternMatches('/ns/*', '/ns/body_bridge')).toBe(true);
    expect(nodePatternMatches('/ns/*', '/ns/a/body_bridge')).toBe(false);
    expect(nodePatternMatches('/other', '/body_bridge')).toBe(false);
  });

  it('takes /**, fully qualified, nested and wildcard keys for the node, later entries winning', () => {
    const doc = parse(`
/**:
  ros__parameters:
    publish_frequency: 10.0
    frame_prefix: all/
/robot1/body_bridge:
  ros__parameters:
    frame_prefix: robot1/
    body_file: /models/a.body
robot1:
  body_bridge:
    ros__parameters:
      ignore_timestamp: true
/robot2/body_bridge:
  ros__parameters:
    frame_prefix: robot2/
/**/body_bridge:
  ros__parameters:
    nested:
      value: 3
`);
    expect(Object.fromEntries(paramsFromFile(doc, '/robot1/body_bridge'))).toEqual({
      publish_frequency: 10,
      frame_prefix: 'robot1/',
      body_file: '/models/a.body',
      ignore_timestamp: true,
      'nested.value': 3,
    });
    expect(Object.fromEntries(paramsFromFile(doc, '/body_bridge'))).toEqual({ publish_frequency: 10, frame_prefix: 'all/', 'nested.value': 3 });
  });

  it('combines params files and -p in command-line order for the remapped node', () => {
    const files: Record<string, string> = {
      '/a.yaml': '/ns/bb:\n  ros__parameters:\n    frame_prefix: file/\n    publish_frequency: 5.0\n',
    };
    const args = parseRosArgs(['--ros-args', '-r', '__node:=bb', '-r', '__ns:=/ns', '-p', 'frame_prefix:=early/', '--params-file', '/a.yaml', '-p', 'publish_frequency:=7.5', '-p', 'bb:ignore_timestamp:=true', '-p', 'zz:ignore_timestamp:=false'], 'body_bridge');
    expect(Object.fromEntries(parameterOverrides(args, (p) => files[p]!))).toEqual({
      frame_prefix: 'file/',
      publish_frequency: 7.5,
      ignore_timestamp: true,
    });
  });

  it('reads lists launch_ros writes as Python tuples (a launch file\'s list parameters), without a warning', async () => {
    // What launch_ros writes for parameters={'placement': [1.0, 2.0, ...], 'initial_joint_positions': ['J1=0.5']}.
    const files: Record<string, string> = {
      '/launch_params': "/**:\n  ros__parameters:\n    placement: !!python/tuple\n    - 1.0\n    - 2.5\n    initial_joint_positions: !!python/tuple\n    - J1=0.5\n",
    };
    const warned: unknown[] = [];
    const listen = (w: unknown): void => void warned.push(w);
    process.on('warning', listen);
    try {
      const args = parseRosArgs(['--ros-args', '--params-file', '/launch_params'], 'body_bridge');
      expect(Object.fromEntries(parameterOverrides(args, (p) => files[p]!))).toEqual({ placement: [1, 2.5], initial_joint_positions: ['J1=0.5'] });
      // process.emitWarning delivers on a later tick.
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('warning', listen);
    }
    expect(warned).toEqual([]);
  });
});
