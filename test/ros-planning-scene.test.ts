// The planning scene publisher (src/ros/planning-scene-publisher.ts) on the memory transport: what goes
// out on planning_scene and when — the whole scene again when a subscriber appears (move_group's volatile
// subscription hears nothing sent before it), only the difference on a change — in the frame MoveIt plans in.
import { describe, expect, it } from 'vitest';
import { CollisionObjectOperation, type MarkerArray, MessageType, type PlanningScene } from '../src/messages/messages.js';
import { MarkerAction } from '../src/moveit/scene-markers.js';
import type { Mat3, Pose, RobotModel } from '../src/model/types.js';
import { matrixWithContacts, planningFrameOf, type StaticBody } from '../src/moveit/planning-scene.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { planningSceneQoS, sceneMarkersQoS, startPlanningScenePublisher, SUBSCRIBER_POLL_MS } from '../src/ros/planning-scene-publisher.js';
import type { QoS, Transport } from '../src/ros/transport.js';
import { checkMessage, installedMoveitMessages } from './support/msgcheck.js';
import { partWith } from './support/peer-skip.js';
import { poseError } from './support/ros-rig.js';
import { invertPose, matrixFromQuaternion } from './support/rotations.js';
import { affine, joint, link, pose, sampleRobot, shape } from './support/urdf-models.js';

const I: Mat3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
const RZ90: Mat3 = [[0, -1, 0], [1, 0, 0], [0, 0, 1]];

function boxBody(name: string, size: [number, number, number], color?: [number, number, number]): RobotModel {
  const s = shape({ kind: 'box', size }, affine([0, 0, size[2] / 2]), color);
  return {
    name,
    sourceFile: `/models/${name}.body`,
    format: 'body',
    root: 'BASE',
    links: [link('BASE', null, joint('BASE', 'fixed'), pose([0, 0, 0]), { collisions: [s], visuals: [s] })],
    devices: [],
    extraJoints: [],
    warnings: [],
  };
}
const table: StaticBody = { name: 'table', model: boxBody('Table', [1, 0.6, 0.7], [0.6, 0.4, 0.2]), pose: pose([1.2, 0, 0]) };
const wall: StaticBody = { name: 'wall', model: boxBody('Wall', [0.1, 3, 2]), pose: pose([0, 2, 0], RZ90) };
const arm: StaticBody = { name: 'other_arm', model: sampleRobot(), pose: pose([0, -2, 0]) };
const ROBOT_AT: Pose = pose([0.5, 0.5, 0], RZ90);
const frame = { name: 'BASE', pose: ROBOT_AT };

/** move_group's subscription: rclcpp::ServicesQoS. */
const moveGroupQoS: QoS = { reliability: 'reliable', durability: 'volatile', depth: 10 };
const scenes = (t: ReturnType<typeof createMemoryTransport>): PlanningScene[] => t.messages<PlanningScene>('planning_scene');
const ops = (s: PlanningScene): [string, number][] => s.world.collision_objects.map((o) => [o.id, o.operation]);

function setup() {
  const transport = createMemoryTransport();
  const scene = startPlanningScenePublisher({ transport });
  return { transport, scene };
}

describe('planning scene publisher', () => {
  it("publishes moveit_msgs/PlanningScene diffs on planning_scene with move_group's QoS; static bodies added, moving ones left out", () => {
    const { transport, scene } = setup();
    const pub = transport.topics().find((t) => t.topic === 'planning_scene')!;
    expect(pub).toMatchObject({ type: MessageType.PlanningScene, direction: 'publish', qos: planningSceneQoS });
    expect(scene.update({ frame, bodies: [table, arm, wall] })).toEqual({ successful: true, reason: '' });
    const [first] = scenes(transport);
    expect(first!.is_diff).toBe(true);
    expect(ops(first!)).toEqual([
      ['table', CollisionObjectOperation.ADD],
      ['wall', CollisionObjectOperation.ADD],
    ]);
    expect(first!.world.collision_objects.every((o) => o.header.frame_id === 'BASE')).toBe(true);
    expect(first!.object_colors).toEqual([{ id: 'table', color: { r: 0.6, g: 0.4, b: 0.2, a: 1 } }]);
    if (partWith('PlanningScene against the installed moveit_msgs', installedMoveitMessages)) {
      for (const distro of ['humble', 'jazzy'] as const) expect(checkMessage(MessageType.PlanningScene, first, distro)).toEqual([]);
    }
    expect(transport.logs.some((l) => l.level === 'warn' && /'other_arm' is left out of the planning scene: its root link 'base' is not fixed/.test(l.message))).toBe(true);
    // The table, seen from the robot's base: (robot placement)⁻¹ · (table placement).
    const o = first!.world.collision_objects[0]!;
    const got: Pose = { translation: [o.pose.position.x, o.pose.position.y, o.pose.position.z], rotation: matrixFromQuaternion(o.pose.orientation) };
    const inv = invertPose(ROBOT_AT);
    const expected: Pose = { translation: [inv.rotation[0][0] * 1.2 + inv.translation[0], inv.rotation[1][0] * 1.2 + inv.translation[1], inv.rotation[2][0] * 1.2 + inv.translation[2]], rotation: inv.rotation };
    expect(poseError(got, expected)).toBeLessThan(1e-12);
    expect(expected.translation.map((v) => Number(v.toFixed(12)))).toEqual([-0.5, -0.7, 0]);
  });

  it('sends the whole scene again whenever the number of subscribers grows (move_group started or restarted)', () => {
    const { transport, scene } = setup();
    scene.update({ frame, bodies: [table, wall] });
    expect(scenes(transport)).toHaveLength(1);
    transport.advanceWall(3 * SUBSCRIBER_POLL_MS);
    expect(scenes(transport)).toHaveLength(1);
    // A transient-local subscription would not match a volatile publisher: it does not count.
    transport.subscribe('planning_scene', MessageType.PlanningScene, { ...moveGroupQoS, durability: 'transient_local' }, () => undefined);
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    expect(scenes(transport)).toHaveLength(1);
    const stopMoveGroup = transport.subscribe('planning_scene', MessageType.PlanningScene, moveGroupQoS, () => undefined);
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    expect(scenes(transport)).toHaveLength(2);
    expect(ops(scenes(transport)[1]!)).toEqual([
      ['table', CollisionObjectOperation.ADD],
      ['wall', CollisionObjectOperation.ADD],
    ]);
    transport.advanceWall(5 * SUBSCRIBER_POLL_MS);
    expect(scenes(transport)).toHaveLength(2);
    stopMoveGroup();
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    transport.subscribe('planning_scene', MessageType.PlanningScene, moveGroupQoS, () => undefined);
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    expect(scenes(transport)).toHaveLength(3);
  });

  it('on a change sends only what changed: a moved body replaced, a vanished body removed, nothing when nothing changed', () => {
    const { transport, scene } = setup();
    scene.update({ frame, bodies: [table, wall] });
    scene.update({ frame, bodies: [table, wall] });
    expect(scenes(transport)).toHaveLength(1);
    scene.update({ frame, bodies: [{ ...table, pose: pose([1.5, 0, 0]) }, wall] });
    expect(ops(scenes(transport)[1]!)).toEqual([['table', CollisionObjectOperation.ADD]]);
    scene.update({ frame, bodies: [{ ...table, pose: pose([1.5, 0, 0]) }] });
    const removal = scenes(transport)[2]!;
    expect(ops(removal)).toEqual([['wall', CollisionObjectOperation.REMOVE]]);
    if (partWith('PlanningScene against the installed moveit_msgs', installedMoveitMessages)) expect(checkMessage(MessageType.PlanningScene, removal, 'humble')).toEqual([]);
    expect(scene.objectIds()).toEqual(['table']);
    // A body that became a moving one goes away from the scene too.
    scene.update({ frame, bodies: [{ ...arm, name: 'table' }] });
    expect(ops(scenes(transport)[3]!)).toEqual([['table', CollisionObjectOperation.REMOVE]]);
  });

  it('an allowed collision matrix goes out when it changes, with the objects, and again to a new move_group; null leaves MoveIt\'s alone', () => {
    const { transport, scene } = setup();
    // Two links the SRDF lets touch, and the base standing on the table.
    const matrix = matrixWithContacts({ links: ['BASE', 'ARM'], disabled: [{ link1: 'ARM', link2: 'BASE' }] }, [{ body: 'table', robotLink: 'BASE', bodyLink: 'Table' }]);
    expect(matrix).toEqual({
      entry_names: ['BASE', 'ARM', 'table'],
      entry_values: [{ enabled: [false, true, true] }, { enabled: [true, false, false] }, { enabled: [true, false, false] }],
      default_entry_names: [],
      default_entry_values: [],
    });
    scene.update({ frame, bodies: [table], matrix });
    expect(scenes(transport)[0]!.allowed_collision_matrix).toEqual(matrix);
    if (partWith('PlanningScene against the installed moveit_msgs', installedMoveitMessages)) {
      for (const distro of ['humble', 'jazzy'] as const) expect(checkMessage(MessageType.PlanningScene, scenes(transport)[0], distro)).toEqual([]);
    }
    // The same matrix again: nothing to send. None: nothing sent, and none for a move_group that comes later.
    scene.update({ frame, bodies: [table], matrix: { ...matrix } });
    expect(scenes(transport)).toHaveLength(1);
    scene.update({ frame, bodies: [table], matrix: null });
    expect(scenes(transport)).toHaveLength(1);
    const stopFirst = transport.subscribe('planning_scene', MessageType.PlanningScene, moveGroupQoS, () => undefined);
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    expect(scenes(transport)).toHaveLength(2);
    expect(scenes(transport)[1]!.allowed_collision_matrix.entry_names).toEqual([]);
    stopFirst();
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    // A changed matrix alone is sent alone.
    const without = matrixWithContacts({ links: ['BASE', 'ARM'], disabled: [{ link1: 'ARM', link2: 'BASE' }] }, []);
    scene.update({ frame, bodies: [table], matrix: without });
    expect(scenes(transport)).toHaveLength(3);
    expect(scenes(transport)[2]!.world.collision_objects).toEqual([]);
    expect(scenes(transport)[2]!.allowed_collision_matrix).toEqual(without);
    transport.subscribe('planning_scene', MessageType.PlanningScene, moveGroupQoS, () => undefined);
    transport.advanceWall(SUBSCRIBER_POLL_MS);
    expect(scenes(transport)[3]!.allowed_collision_matrix).toEqual(without);
    expect(ops(scenes(transport)[3]!)).toEqual([['table', CollisionObjectOperation.ADD]]);
  });

  it('a list with a repeated or empty name is refused, and the last scene stays', () => {
    const { transport, scene } = setup();
    scene.update({ frame, bodies: [table] });
    expect(scene.update({ frame, bodies: [table, { ...wall, name: 'table' }] })).toEqual({ successful: false, reason: "two bodies are named 'table': collision object ids must be unique" });
    expect(scene.update({ frame, bodies: [{ ...wall, name: '' }] }).reason).toBe('body 1 of 1 has no name (a collision object needs an id)');
    expect(scenes(transport)).toHaveLength(1);
    expect(scene.objectIds()).toEqual(['table']);
  });

  it('stop takes our objects out of the scene when someone listens, and releases its timer', () => {
    const { transport, scene } = setup();
    const idle = transport.active().timers;
    scene.update({ frame, bodies: [table, wall] });
    transport.subscribe('planning_scene', MessageType.PlanningScene, moveGroupQoS, () => undefined);
    scene.stop();
    expect(ops(scenes(transport).at(-1)!)).toEqual([
      ['table', CollisionObjectOperation.REMOVE],
      ['wall', CollisionObjectOperation.REMOVE],
    ]);
    expect(transport.active().timers).toBe(idle - 1);
  });

  it('a subscriber count that cannot be read is said once and never ends the node (it would, thrown in a timer)', () => {
    const transport = createMemoryTransport();
    const broken: Transport = {
      ...transport,
      publisher: <T>(...args: Parameters<Transport['publisher']>) => {
        const p = transport.publisher<T>(...args);
        return {
          topic: p.topic,
          publish: (m: T) => p.publish(m),
          subscriptionCount: (): number => {
            throw new TypeError('target.subscriptionCount is not a function');
          },
        };
      },
    };
    const scene = startPlanningScenePublisher({ transport: broken });
    expect(scene.update({ frame, bodies: [table] }).successful).toBe(true);
    expect(() => transport.advanceWall(3 * SUBSCRIBER_POLL_MS)).not.toThrow();
    const errors = transport.logs.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/cannot count the subscribers of planning_scene \(target.subscriptionCount is not a function\)/);
    expect(scene.update({ frame, bodies: [wall] }).successful).toBe(true);
    expect(() => scene.stop()).not.toThrow();
  });

  it('without moveit_msgs in rclnodejs it says what to install and stays up', () => {
    const transport = createMemoryTransport();
    const failing: Transport = {
      ...transport,
      publisher: () => {
        throw new Error("The message type 'moveit_msgs/msg/PlanningScene' is invalid");
      },
    };
    const scene = startPlanningScenePublisher({ transport: failing });
    expect(scene.update({ frame, bodies: [table] }).successful).toBe(true);
    transport.advanceWall(3 * SUBSCRIBER_POLL_MS);
    expect(transport.logs.some((l) => l.level === 'error' && /install moveit_msgs for this ROS 2 and build body_bridge again/.test(l.message))).toBe(true);
    scene.stop();
  });
});

describe('the scene as rviz markers on planning_scene_markers', () => {
  const drawings = (t: ReturnType<typeof createMemoryTransport>): MarkerArray[] => t.messages<MarkerArray>('planning_scene_markers');
  const drawn = (a: MarkerArray): [string, number, number][] => a.markers.filter((m) => m.action === MarkerAction.ADD).map((m) => [m.ns, m.pose.position.x, m.pose.position.y]);

  it('latched (rviz2 started later gets the last drawing), the whole scene each time it changes, in the frame TF names it', () => {
    const { transport, scene } = setup();
    expect(transport.topics().find((t) => t.topic === 'planning_scene_markers')).toMatchObject({ type: MessageType.MarkerArray, direction: 'publish', qos: sceneMarkersQoS });
    expect(sceneMarkersQoS.durability).toBe('transient_local');
    scene.update({ frame, bodies: [table, wall], markerFrame: 'r1/BASE' });
    const [first] = drawings(transport);
    expect(first!.markers[0]!.action).toBe(MarkerAction.DELETEALL);
    // The table's box where MoveIt has it: (robot placement)⁻¹ · (table placement), its centre 0.35 m up.
    const tableBox = first!.markers.find((m) => m.ns === 'table')!;
    expect([tableBox.pose.position.x, tableBox.pose.position.y, tableBox.pose.position.z].map((v) => +v.toFixed(12))).toEqual([-0.5, -0.7, 0.35]);
    expect(tableBox.header.frame_id).toBe('r1/BASE');
    expect(tableBox.color).toEqual({ r: 0.6, g: 0.4, b: 0.2, a: 1 });
    expect(first!.markers.map((m) => m.ns)).toEqual(['', 'table', 'wall']);
    for (const distro of ['humble', 'jazzy'] as const) expect(checkMessage(MessageType.MarkerArray, first, distro)).toEqual([]);
    // Nothing changed: nothing sent. The table moved: the whole drawing again; the wall gone: drawn without it.
    scene.update({ frame, bodies: [table, wall], markerFrame: 'r1/BASE' });
    expect(drawings(transport)).toHaveLength(1);
    scene.update({ frame, bodies: [{ ...table, pose: pose([1.5, 0, 0]) }, wall], markerFrame: 'r1/BASE' });
    expect(drawn(drawings(transport)[1]!).map(([ns, x, y]) => [ns, +x.toFixed(12), +y.toFixed(12)])).toEqual([['table', -0.5, -1], ['wall', 1.5, 0.5]]);
    scene.update({ frame, bodies: [{ ...table, pose: pose([1.5, 0, 0]) }], markerFrame: 'r1/BASE' });
    expect(drawings(transport)[2]!.markers.map((m) => m.ns)).toEqual(['', 'table']);
    // A refused list draws nothing new; stop clears the drawing.
    scene.update({ frame, bodies: [table, table] });
    expect(drawings(transport)).toHaveLength(3);
    scene.stop();
    expect(drawings(transport)[3]!.markers.map((m) => m.action)).toEqual([MarkerAction.DELETEALL]);
  });

  it('without visualization_msgs in rclnodejs it says rviz2 will not draw the scene and still serves MoveIt', () => {
    const transport = createMemoryTransport();
    const failing: Transport = {
      ...transport,
      publisher: (topic, type, qos) => {
        if (type === MessageType.MarkerArray) throw new Error('visualization_msgs/msg/MarkerArray is not generated');
        return transport.publisher(topic, type, qos);
      },
    };
    const scene = startPlanningScenePublisher({ transport: failing });
    expect(scene.update({ frame, bodies: [table] }).successful).toBe(true);
    expect(scenes(transport)).toHaveLength(1);
    expect(transport.logs.some((l) => l.level === 'error' && /rviz2 will not draw the planning scene's objects/.test(l.message))).toBe(true);
    scene.stop();
  });
});

describe('the frame MoveIt plans in', () => {
  const fixed = boxBody('Arm', [0.1, 0.1, 0.1]);
  const free = { ...fixed, links: [{ ...fixed.links[0]!, joint: joint('BASE', 'free') }] };
  it.each([
    ['fixed root: its root link, where the project puts it', fixed, null, { name: 'BASE', pose: ROBOT_AT }],
    ['free root under world: the world frame itself', free, 'world', { name: 'world', pose: pose([0, 0, 0], I) }],
    ['free root under odom: where the robot started', free, 'odom', { name: 'odom', pose: ROBOT_AT }],
  ] as const)('%s', (_, model, parent, expected) => {
    expect(planningFrameOf(model, ROBOT_AT, parent, 'world')).toEqual(expected);
  });
});
