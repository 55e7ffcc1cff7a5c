// The node as main.ts runs it on ROS 2 (src/ros/node.ts), on the rclnodejs stand-in: the bundled example
// when no body_file is given, robot_description in its topic and parameter, parameter sets from clients
// applied or refused by the bridge, and a clean stop.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startNode } from '../src/ros/node.js';
import { projectRoot } from './support/oracle.js';
import { fakeRclnodejs } from './support/fake-rclnodejs.js';
import { peerDecode } from './support/cdr-peer.js';
import { scratchDir } from './support/temp-dir.js';

const scratch = scratchDir('body-bridge-node-');

describe('the node on rclnodejs', () => {
  it('serves the bundled example, mirrors robot_description, applies and refuses client parameter sets, and stops cleanly', async () => {
    const fake = fakeRclnodejs();
    const argv = ['node', 'main.js', '--ros-args', '-p', `mesh_dir:=${join(scratch, 'meshes')}`, '-p', 'watch_body_file:=false'];
    const env = { ...process.env };
    delete env.BODY_BRIDGE_MODELS;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const running = await startNode(fake.rcl as any, argv, env);
    const node = fake.state.node!;
    const example = join(projectRoot, 'models', 'sample_arm.body');
    expect(node.parameters.get('body_file')!.value).toBe(example);
    expect(fake.state.logs).toContain(`info: body_file is not set: serving the bundled example ${example}`);

    const pub = (topic: string) => fake.state.publishers.find((p) => p.topic === topic)!;
    const description = pub('robot_description').published as { data: string }[];
    expect(description).toHaveLength(1);
    expect(description[0]!.data).toMatch(/^<\?xml[\s\S]*<robot name="SampleArm"/);
    expect(node.parameters.get('robot_description')!.value).toBe(description[0]!.data);
    expect(pub('robot_description').qos).toMatchObject({ depth: 1, reliability: 1, durability: 1 });
    expect(pub('/tf_static').published).toHaveLength(1);

    // A client sets frame_prefix: applied (and /tf_static republished with it).
    expect(node.setParameter({ name: 'frame_prefix', type: 4, value: 'arm1/' }).successful).toBe(true);
    // /tf_static goes out as CDR bytes (rclnodejs's raw publish): read as a subscriber would.
    const statics = pub('/tf_static').published.map((b) => peerDecode<{ transforms: { child_frame_id: string }[] }>('tf2_msgs/msg/TFMessage', b as Uint8Array));
    expect(statics).toHaveLength(2);
    expect(statics[1]!.transforms.every((t) => t.child_frame_id.startsWith('arm1/'))).toBe(true);

    // A client sets body_file to a broken model: refused with the located error, nothing changes.
    const bad = join(scratch, 'bad.body');
    writeFileSync(bad, 'format: ChoreonoidBody\nformat_version: 2.0\nname: x\nlinks: 3\n');
    const refused = node.setParameter({ name: 'body_file', type: 4, value: bad });
    expect(refused.successful).toBe(false);
    expect(refused.reason).toContain(`${bad}:`);
    expect(node.parameters.get('body_file')!.value).toBe(example);
    expect(description).toHaveLength(1);
    // Nor can a client write the description itself.
    expect(node.setParameter({ name: 'robot_description', type: 4, value: '<robot name="x"/>' }).successful).toBe(false);

    running.stop();
    expect(fake.state.subscriptions.every((s) => s.destroyed)).toBe(true);
    expect(fake.state.timers.every((t) => t.destroyed)).toBe(true);
    expect(fake.calls).toEqual(expect.arrayContaining(['destroy', 'shutdown']));
  });

  it('takes the model from the command line when body_file is not a parameter', async () => {
    const fake = fakeRclnodejs();
    const model = join(projectRoot, 'models', 'sample_arm.body');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const running = await startNode(fake.rcl as any, ['node', 'main.js', model, '--ros-args', '-p', `mesh_dir:=${join(scratch, 'meshes')}`], process.env);
    expect(fake.state.node!.parameters.get('body_file')!.value).toBe(model);
    expect(running.bridge.served()!.model.name).toBe('SampleArm');
    running.stop();
  });
});
