// Hot reload through the real pipeline the node runs: the .body loader, the URDF writer with its mesh
// files, and the bridge watching the file — edits picked up, broken edits reported with their location
// while the last good model keeps serving.
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { startRobotPublisher } from '../src/ros/robot-publisher.js';
import { describeModel } from '../src/ros/description.js';
import { fileSignature } from '../src/ros/dry-run.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { peerCodec } from './support/cdr-peer.js';
import type { StringMsg, TFMessage } from '../src/messages/messages.js';
import { defaultParams } from '../src/ros/params.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { toUrdf } from '../src/urdf/index.js';
import { scratchDir } from './support/temp-dir.js';

const scratch = scratchDir('body-bridge-reload-body-');

const body = (extra = '') => `format: ChoreonoidBody
format_version: 2.0
angle_unit: degree
name: tiny
root_link: BASE
links:
  - name: BASE
    joint_type: fixed
    elements:
      - type: Shape
        geometry: { type: Box, size: [0.1, 0.1, 0.1] }
  - name: ARM
    parent: BASE
    joint_type: revolute
    joint_axis: Z
    joint_id: 0
    translation: [0, 0, 0.1]
    elements:
      - type: Shape
        geometry: { type: Capsule, radius: 0.02, height: 0.2 }
${extra}`;

let mtime = 1_700_000_000;
function write(file: string, text: string): void {
  writeFileSync(file, text);
  utimesSync(file, mtime, ++mtime);
}

describe('hot reload of a .body file', () => {
  it('serves the URDF with its meshes written, follows edits, and keeps the last good model on a broken edit', () => {
    const file = join(scratch, 'tiny.body');
    const meshDir = join(scratch, 'meshes');
    write(file, body());
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { body_file: file, mesh_dir: meshDir, publish_joint_states: false, watch_period: 0.5 },
    );
    const descriptions = () => transport.messages<StringMsg>('robot_description').map((m) => m.data);

    // The description is the URDF writer's, and the capsule's mesh file exists before it is published.
    const expected = toUrdf(applyRosConventions(loadRobotModel(file)).model, { meshDir, meshUris: 'file', worldFrame: '' }).xml;
    expect(descriptions()).toEqual([expected]);
    const meshes = readdirSync(meshDir);
    expect(meshes.length).toBeGreaterThan(0);
    for (const m of meshes) expect(expected).toContain(m);

    write(file, body(`  - name: HAND
    parent: ARM
    joint_type: prismatic
    joint_axis: X
    joint_id: 1
    translation: [0, 0, 0.2]
`));
    transport.advance(500);
    expect(descriptions()).toHaveLength(2);
    expect(descriptions()[1]).toContain('<joint name="HAND" type="prismatic"');
    expect(transport.messages<TFMessage>('/tf_static')).toHaveLength(2);

    // A broken edit: the node says where, and keeps serving HAND.
    write(file, body(`  - name: HAND
    parent: ARM
    joint_type: prismatic
    joint_axis: [1, 0]
`));
    transport.advance(2000);
    const errors = transport.logs.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2[0-9]:\\d+: error: .*joint_axis`));
    expect(errors[0]!.message).toMatch(/still serving the last good model/);
    expect(descriptions()).toHaveLength(2);
    transport.setTime({ sec: 3000, nanosec: 0 });
    transport.inject('joint_states', { header: { stamp: { sec: 3000, nanosec: 0 }, frame_id: '' }, name: ['HAND'], position: [0.05], velocity: [], effort: [] });
    expect(transport.last<TFMessage>('/tf')!.transforms[0]!.child_frame_id).toBe('HAND_link');
    expect(bridge.served()!.model.links.map((l) => l.name)).toEqual(['BASE', 'ARM_link', 'HAND_link', 'BASE_inertia']);
    bridge.stop();
  });

  it('a deleted file keeps the model serving without errors until it reappears', () => {
    const file = join(scratch, 'gone.body');
    write(file, body());
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: file, mesh_dir: join(scratch, 'meshes2'), publish_joint_states: false },
    );
    rmSync(file);
    expect(existsSync(file)).toBe(false);
    transport.advance(3000);
    expect(transport.logs.filter((l) => l.level === 'error')).toEqual([]);
    expect(bridge.served()).not.toBeNull();
    write(file, body().replace('name: tiny', 'name: back'));
    transport.advance(1000);
    expect(bridge.served()!.model.name).toBe('back');
    bridge.stop();
  });
});

describe('the file watch runs on wall time', () => {
  it('with the simulation paused (/clock still) an edit reloads; /tf keeps following the robot clock', () => {
    const file = join(scratch, 'paused.body');
    write(file, body());
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: file, mesh_dir: join(scratch, 'meshes-paused'), watch_period: 1 },
    );
    const robotTime = transport.now();
    const initialStates = transport.messages('joint_states').length;
    write(file, body().replace('name: tiny', 'name: edited'));
    // Ten wall seconds, the node clock standing still: the watch fires, the robot's own timers do not.
    transport.advanceWall(10_000);
    expect(transport.now()).toEqual(robotTime);
    expect(bridge.served()!.model.name).toBe('edited');
    expect(transport.messages<StringMsg>('robot_description')).toHaveLength(2);
    expect(transport.messages('joint_states')).toHaveLength(initialStates);
    // The same edit again under a running clock: both clocks move, both kinds of timer fire.
    write(file, body().replace('name: tiny', 'name: running'));
    transport.advance(1000);
    expect(bridge.served()!.model.name).toBe('running');
    expect(transport.messages('joint_states').length).toBeGreaterThan(initialStates);
    bridge.stop();
    expect(transport.active()).toEqual({ subscriptions: 0, timers: 0 });
  });
});

describe('a mesh directory that cannot be written', () => {
  const start = (file: string, meshDir: string) => {
    const transport = createMemoryTransport({ codec: peerCodec });
    const bridge = startRobotPublisher(
      { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
      { ...defaultParams(), body_file: file, mesh_dir: meshDir, publish_joint_states: false, watch_body_file: false },
    );
    return { transport, bridge };
  };

  it('at start: nothing served, the error names it; a writable mesh_dir set afterwards loads and serves the model', () => {
    const file = join(scratch, 'meshdir.body');
    write(file, body());
    const blocker = join(scratch, 'a-regular-file');
    writeFileSync(blocker, 'not a directory');
    const { transport, bridge } = start(file, join(blocker, 'meshes'));
    expect(bridge.served()).toBeNull();
    expect(transport.logs.some((l) => l.level === 'error' && l.message.includes(blocker))).toBe(true);

    // Still unwritable: refused with the reason, still nothing served.
    const again = bridge.setParams({ mesh_dir: join(blocker, 'other') });
    expect(again.successful).toBe(false);
    expect(again.reason).toContain(blocker);
    expect(bridge.served()).toBeNull();
    expect(bridge.params().mesh_dir).toBe(join(blocker, 'meshes'));

    const good = join(scratch, 'meshdir-good');
    expect(bridge.setParams({ mesh_dir: good })).toEqual({ successful: true, reason: '' });
    expect(bridge.served()!.model.name).toBe('tiny');
    expect(transport.messages<StringMsg>('robot_description')).toHaveLength(1);
    expect(readdirSync(good).length).toBeGreaterThan(0);
    transport.setTime({ sec: 3000, nanosec: 0 });
    transport.inject('joint_states', { header: { stamp: { sec: 3000, nanosec: 0 }, frame_id: '' }, name: ['ARM'], position: [0.3], velocity: [], effort: [] });
    expect(transport.last<TFMessage>('/tf')!.transforms[0]!.child_frame_id).toBe('ARM_link');
    bridge.stop();
  });

  it('at start, a world_frame change retries the load too: refused while mesh_dir is unwritable, served with a writable one', () => {
    const file = join(scratch, 'meshdir2.body');
    write(file, body());
    const blocker = join(scratch, 'another-regular-file');
    writeFileSync(blocker, 'not a directory');
    const { bridge } = start(file, join(blocker, 'meshes'));
    expect(bridge.served()).toBeNull();
    // The retry runs (and fails on the mesh directory again), so the change is refused with that reason.
    const r = bridge.setParams({ world_frame: 'world' });
    expect(r.successful).toBe(false);
    expect(r.reason).toContain(blocker);
    expect(bridge.setParams({ world_frame: 'world', mesh_dir: join(scratch, 'meshdir-good2') }).successful).toBe(true);
    expect(bridge.served()).not.toBeNull();
    bridge.stop();
  });
});
