// The body placed in a frame several bodies share (placement_frame, placement, placement_topic), on the
// memory transport: where the root lands (poses worked out by hand, the TF tree composed by the rig's own
// arithmetic), static or per message, what is refused, what the node says, and bad messages that must not
// stop it.
import { describe, expect, it } from 'vitest';
import { linkWorldPoses } from '../src/kinematics/forward.js';
import { MessageType, type Odometry, type PoseStamped, type TFMessage, type Time } from '../src/messages/messages.js';
import type { Mat3, Pose, RobotModel } from '../src/model/types.js';
import { FIRST_POSE_WAIT_S } from '../src/ros/placement-follower.js';
import { checkMessage } from './support/msgcheck.js';
import { at, composeTree, poseError, rig, transformToPose } from './support/ros-rig.js';
import { invertPose } from './support/rotations.js';
import { joint, sampleRobot } from './support/urdf-models.js';

const RZ90: Mat3 = [[0, -1, 0], [1, 0, 0], [0, 0, 1]];
const RZ180: Mat3 = [[-1, 0, 0], [0, -1, 0], [0, 0, 1]];
const S = Math.SQRT1_2;
/** [x, y, z, qx, qy, qz, qw]: (1, 2, 0), a quarter turn about z. */
const PLACEMENT = [1, 2, 0, 0, 0, S, S];
const PLACED: Pose = { translation: [1, 2, 0], rotation: RZ90 };

const freeRoot = (): RobotModel => sampleRobot();
const fixedRoot = (): RobotModel => {
  const m = sampleRobot();
  return { ...m, links: m.links.map((l, i) => (i === 0 ? { ...l, joint: joint('base', 'fixed') } : l)) };
};

const mv = (m: Mat3, v: readonly number[]): [number, number, number] => [0, 1, 2].map((i) => m[i]![0] * v[0]! + m[i]![1] * v[1]! + m[i]![2] * v[2]!) as [number, number, number];
const compose = (a: Pose, b: Pose): Pose => ({
  translation: mv(a.rotation, b.translation).map((v, i) => v + a.translation[i]!) as [number, number, number],
  rotation: [0, 1, 2].map((i) => mv(a.rotation, [b.rotation[0][i]!, b.rotation[1][i]!, b.rotation[2][i]!])).reduce<Mat3>(
    (m, col, j) => {
      for (let i = 0; i < 3; i++) m[i]![j] = col[i]!;
      return m;
    },
    [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
  ),
});
const statics = (r: ReturnType<typeof rig>): TFMessage => r.transport.last<TFMessage>('/tf_static')!;
const rootFromWorld = (tf: TFMessage, world = 'world') => tf.transforms.filter((t) => t.header.frame_id === world);
const warnings = (r: ReturnType<typeof rig>): string[] => r.transport.logs.filter((l) => l.level === 'warn').map((l) => l.message);
const infos = (r: ReturnType<typeof rig>): string[] => r.transport.logs.filter((l) => l.level === 'info').map((l) => l.message);

function odometry(stamp: Time, x: number, y: number, yaw: number, frame = 'odom'): Odometry {
  return {
    header: { stamp, frame_id: frame },
    child_frame_id: 'base_link',
    pose: { pose: { position: { x, y, z: 0 }, orientation: { x: 0, y: 0, z: Math.sin(yaw / 2), w: Math.cos(yaw / 2) } }, covariance: new Array(36).fill(0) },
    twist: { twist: { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } }, covariance: new Array(36).fill(0) },
  };
}
const poseStamped = (stamp: Time, frame: string, x: number, y: number, z: number): PoseStamped => ({
  header: { stamp, frame_id: frame },
  pose: { position: { x, y, z }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
});

describe('placement in a shared frame', () => {
  it('a fixed root hangs from placement_frame (never prefixed) at placement, on /tf_static; the whole tree follows', () => {
    const model = fixedRoot();
    const r = rig(model, { placement_frame: 'world', placement: PLACEMENT, frame_prefix: 'r1/' });
    const tf = statics(r);
    const placed = rootFromWorld(tf);
    expect(placed.map((t) => t.child_frame_id)).toEqual(['r1/base']);
    expect(poseError(transformToPose(placed[0]!), PLACED)).toBeLessThan(1e-12);
    expect(checkMessage(MessageType.TFMessage, tf)).toEqual([]);
    // Every link, seen from world: the placement composed with the link's pose relative to the root.
    const tree = composeTree(tf.transforms, 'world');
    const fk = linkWorldPoses(model);
    // The frames /tf_static reaches (the arm's joint moves); a link named like its joint is <name>_link on ROS.
    for (const [name, ros] of [['base', 'base'], ['track', 'track_link'], ['carried', 'carried_link']]) {
      const expected = compose(PLACED, compose(invertPose(fk.get('base')!), fk.get(name!)!));
      expect(poseError(tree.get(`r1/${ros}`)!, expected), name).toBeLessThan(1e-12);
    }
    expect(warnings(r)).toEqual([]);
    expect(infos(r)).toContain('publishing world -> r1/base on /tf_static (placement)');
  });

  it('placement [] puts the root at the body\'s initial root pose', () => {
    const model = fixedRoot();
    const r = rig(model, { placement_frame: 'world' });
    expect(poseError(transformToPose(rootFromWorld(statics(r))[0]!), model.links[0]!.offset)).toBeLessThan(1e-12);
  });

  it('a free root without placement_topic: static at placement, with a warning that the pose is not live', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement: PLACEMENT });
    expect(poseError(transformToPose(rootFromWorld(statics(r))[0]!), PLACED)).toBeLessThan(1e-12);
    expect(warnings(r).some((w) => /free root 'base' is published at a fixed pose in world \(\/tf_static\): it does not follow the body/.test(w) && /placement_topic/.test(w))).toBe(true);
  });

  it('placement_odom_frame (REP-105): world → <prefix>odom at placement on /tf_static, nothing for the root (its drive publishes odom → root)', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement: PLACEMENT, placement_odom_frame: 'odom', frame_prefix: 'r1/' });
    const placed = rootFromWorld(statics(r));
    expect(placed.map((t) => t.child_frame_id)).toEqual(['r1/odom']);
    expect(poseError(transformToPose(placed[0]!), PLACED)).toBeLessThan(1e-12);
    // The root has no parent from the node: not on /tf_static, not on /tf.
    expect(statics(r).transforms.some((t) => t.child_frame_id === 'r1/base')).toBe(false);
    expect(r.transport.messages<TFMessage>('/tf').flatMap((m) => m.transforms).some((t) => t.child_frame_id === 'r1/base')).toBe(false);
    expect(warnings(r)).toEqual([]);
    expect(infos(r)).toContain("publishing world -> r1/odom on /tf_static where the body starts; r1/odom -> r1/base comes from its drive's odometry (REP-105)");
  });

  it('placement_odom_frame where it cannot apply: a fixed root (warned), a pose_stamped placement_topic (the pose wins, said)', () => {
    const fixed = rig(fixedRoot(), { placement_frame: 'world', placement_odom_frame: 'odom' });
    expect(rootFromWorld(statics(fixed)).map((t) => t.child_frame_id)).toEqual(['base']);
    expect(warnings(fixed)).toContain("placement_odom_frame 'odom' is not used: the root link 'base' is fixed, it has no odometry");
    const topic = rig(freeRoot(), { placement_frame: 'world', placement_odom_frame: 'odom', placement_topic: '/pose', placement_topic_type: 'pose_stamped' });
    expect(rootFromWorld(statics(topic))).toEqual([]);
    expect(infos(topic)).toContain("placement_odom_frame 'odom' is not used: placement_topic gives the root its pose in world (one parent)");
    topic.transport.inject('/pose', poseStamped(at(1000, 1), 'world', 3, 4, 0.5));
    expect(topic.transport.last<TFMessage>('/tf')!.transforms.map((t) => [t.header.frame_id, t.child_frame_id])).toEqual([['world', 'base']]);
  });

  it('odometry with placement_odom_frame (REP-105): world → <prefix>odom at placement on /tf_static, <prefix>odom → root per message, the odometry pose as it is', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement: PLACEMENT, placement_topic: 'diff_drive/odom', placement_odom_frame: 'odom', frame_prefix: 'r1/' });
    const placed = rootFromWorld(statics(r));
    expect(placed.map((t) => t.child_frame_id)).toEqual(['r1/odom']);
    expect(poseError(transformToPose(placed[0]!), PLACED)).toBeLessThan(1e-12);
    expect(statics(r).transforms.some((t) => t.child_frame_id === 'r1/base')).toBe(false);
    expect(infos(r)).toContain('publishing world -> r1/odom on /tf_static where the body starts; r1/odom -> r1/base follows diff_drive/odom (nav_msgs/Odometry, REP-105); nothing is published for it until its first message');
    // The message's own frame names (odom, base_link) are the drive's: the body's frames carry its prefix.
    r.transport.inject('diff_drive/odom', odometry(at(1000, 500), 0.5, 0, Math.PI / 2));
    const tf = r.transport.last<TFMessage>('/tf')!;
    expect(tf.transforms).toHaveLength(1);
    expect(tf.transforms[0]).toMatchObject({ header: { stamp: at(1000, 500), frame_id: 'r1/odom' }, child_frame_id: 'r1/base' });
    expect(poseError(transformToPose(tf.transforms[0]!), { translation: [0.5, 0, 0], rotation: RZ90 })).toBeLessThan(1e-12);
    // Through the tree, the root lands where placement ∘ odometry puts it (the odometry-only test's pose).
    const tree = composeTree([...statics(r).transforms, ...tf.transforms], 'world');
    expect(poseError(tree.get('r1/base')!, { translation: [1, 2.5, 0], rotation: RZ180 })).toBeLessThan(1e-12);
    expect(infos(r)).toContain('first pose on diff_drive/odom: r1/odom -> r1/base is live');
    expect(warnings(r)).toEqual([]);
  });

  it('a fixed root ignores placement_topic, saying so, and stays static', () => {
    const r = rig(fixedRoot(), { placement_frame: 'world', placement_topic: '/odom' });
    expect(rootFromWorld(statics(r))).toHaveLength(1);
    expect(warnings(r)).toContain("placement_topic '/odom' is not used: the root link 'base' is fixed, its placement is static");
    expect(r.transport.topics().some((t) => t.topic === '/odom')).toBe(false);
  });

  it('odometry: each message places the root at placement ∘ odometry pose on /tf, stamped with the message', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement: PLACEMENT, placement_topic: 'diff_drive/odom', frame_prefix: 'r1/' });
    expect(rootFromWorld(statics(r))).toEqual([]);
    expect(r.transport.topics().find((t) => t.topic === 'diff_drive/odom')).toMatchObject({ type: 'nav_msgs/msg/Odometry', direction: 'subscribe', qos: { reliability: 'best_effort', depth: 500 } });
    const msg = odometry(at(1000, 500), 0.5, 0, Math.PI / 2);
    expect(checkMessage(MessageType.Odometry, msg)).toEqual([]);
    // Odometry at a best-effort or reliable publisher's QoS reaches the node.
    expect(r.transport.inject('diff_drive/odom', msg)).toBe(1);
    const tf = r.transport.last<TFMessage>('/tf')!;
    expect(tf.transforms).toHaveLength(1);
    expect(tf.transforms[0]).toMatchObject({ header: { stamp: at(1000, 500), frame_id: 'world' }, child_frame_id: 'r1/base' });
    // Started at (1, 2, 0) facing +y; drove 0.5 m ahead (world +y) and turned a quarter more.
    expect(poseError(transformToPose(tf.transforms[0]!), { translation: [1, 2.5, 0], rotation: RZ180 })).toBeLessThan(1e-12);
    expect(checkMessage(MessageType.TFMessage, tf)).toEqual([]);
    expect(infos(r)).toContain('first pose on diff_drive/odom: world -> r1/base is live');
  });

  it('pose_stamped: the pose in placement_frame as it is; a message in another frame is dropped with a warning', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement: PLACEMENT, placement_topic: 'pose', placement_topic_type: 'pose_stamped' });
    r.transport.inject('pose', poseStamped(at(1000, 1), 'world', 3, 4, 0.5));
    expect(poseError(transformToPose(r.transport.last<TFMessage>('/tf')!.transforms[0]!), { translation: [3, 4, 0.5], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] })).toBeLessThan(1e-12);
    r.transport.inject('pose', poseStamped(at(1000, 2), '', 5, 4, 0.5));
    expect(r.transport.messages('/tf')).toHaveLength(2);
    r.transport.inject('pose', poseStamped(at(1000, 3), 'map', 9, 9, 9));
    expect(r.transport.messages('/tf')).toHaveLength(2);
    expect(warnings(r)).toContain("ignored a message on pose: it is in frame 'map', not placement_frame 'world' (no transform is looked up)");
  });

  it('bad messages are dropped with a throttled warning and the node goes on', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement_topic: 'odom' });
    const bad: unknown[] = [
      { ...odometry(at(1000), 0, 0, 0), header: { stamp: { sec: 1000, nanosec: 2e9 }, frame_id: 'odom' } },
      odometry(at(1000), NaN, 0, 0),
      { ...odometry(at(1000), 0, 0, 0), pose: { pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 0 } }, covariance: [] } },
      {},
      null,
      { header: { stamp: at(1000) } },
      // Stamped an hour ahead of the node clock (stamp_tolerance 5 s).
      odometry(at(4600), 0, 0, 0),
    ];
    for (const m of bad) r.transport.inject('odom', m);
    expect(r.transport.messages('/tf')).toHaveLength(0);
    const w = warnings(r).filter((m) => m.startsWith('ignored a message on odom'));
    expect(w).toEqual([
      'ignored a message on odom: its stamp is invalid: nanosec 2000000000 is not in [0, 1e9)',
      'ignored a message on odom: its position is missing or not finite',
      'ignored a message on odom: its orientation is not a rotation (a zero or non-finite quaternion)',
      'ignored a message on odom: it has no header stamp',
      "ignored a message on odom stamped more than stamp_tolerance ahead of the node clock: check the publisher's clock and use_sim_time",
    ]);
    r.transport.inject('odom', odometry(at(1000, 5), 1, 0, 0));
    expect(r.transport.messages('/tf')).toHaveLength(1);
  });

  it('no first message within a few seconds: a warning that the body has no pose; the subscription is released on stop', () => {
    const r = rig(freeRoot(), { placement_frame: 'world', placement_topic: 'odom' });
    r.transport.advanceWall(FIRST_POSE_WAIT_S * 1000 - 1);
    expect(warnings(r).filter((w) => w.startsWith('no message on odom'))).toEqual([]);
    r.transport.advanceWall(2);
    expect(warnings(r).filter((w) => w.startsWith('no message on odom yet: base has no pose in world'))).toHaveLength(1);
    r.transport.advanceWall(60_000);
    expect(warnings(r).filter((w) => w.startsWith('no message on odom'))).toHaveLength(1);
    const before = r.transport.active();
    r.bridge.stop();
    expect(r.transport.active().subscriptions).toBeLessThan(before.subscriptions);
    expect(r.transport.active()).toEqual({ subscriptions: 0, timers: 0 });
  });

  it('world_frame or free_root_frame with placement_frame is refused with the reason, all or nothing', () => {
    const r = rig(freeRoot(), { placement_frame: 'world' });
    const a = r.bridge.setParams({ world_frame: 'w' });
    expect(a.successful).toBe(false);
    expect(a.reason).toMatch(/placement_frame 'world' and world_frame 'w' both place the root link/);
    const b = r.bridge.setParams({ free_root_frame: 'world', placement: PLACEMENT });
    expect(b.successful).toBe(false);
    expect(b.reason).toMatch(/replaces free_root_frame; set free_root_frame to ''/);
    expect(r.bridge.params().placement).toEqual([]);
    // Swapping one for the other in one set is fine.
    const c = rig(freeRoot(), { free_root_frame: 'world' });
    expect(c.bridge.setParams({ free_root_frame: '', placement_frame: 'world' }).successful).toBe(true);
    expect(rootFromWorld(statics(c)).map((t) => t.child_frame_id)).toEqual(['base']);
    // At start: the node says why and serves nothing until the parameters agree.
    const d = rig(fixedRoot(), { placement_frame: 'world', world_frame: 'world' });
    expect(d.bridge.served()).toBeNull();
    expect(d.transport.logs.some((l) => l.level === 'error' && /invalid parameters: placement_frame 'world' and world_frame 'world'/.test(l.message))).toBe(true);
  });

  it.each([
    ['placement', [1, 2, 3], 'placement must be [] or [x, y, z, qx, qy, qz, qw] (got 3 numbers)'],
    ['placement', [0, 0, 0, 0, 0, 0, 2], 'placement: the quaternion [0, 0, 0, 2] is not a unit quaternion (norm 2)'],
    ['placement', [0, 0, NaN, 0, 0, 0, 1], 'placement must be a list of finite numbers'],
    ['placement_topic_type', 'twist', "placement_topic_type must be one of odometry, pose_stamped (got 'twist')"],
    ['placement_frame', 'my world', "placement_frame may contain only letters, digits, '_', '-', '.', '/' (got 'my world')"],
  ] as const)('%s = %j is refused', (name, value, reason) => {
    const r = rig(fixedRoot());
    expect(r.bridge.setParams({ [name]: value })).toEqual({ successful: false, reason });
  });

  it('a quaternion typed to four decimals is accepted and normalised', () => {
    const r = rig(fixedRoot(), { placement_frame: 'world', placement: [0, 0, 0, 0, 0, 0.7071, 0.7071] });
    const t = rootFromWorld(statics(r))[0]!;
    expect(Math.hypot(t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w)).toBeCloseTo(1, 12);
    expect(poseError(transformToPose(t), { translation: [0, 0, 0], rotation: RZ90 })).toBeLessThan(1e-9);
  });

  it('run-time changes and reloads: /tf_static follows, the subscription moves, nothing is left behind', () => {
    const r = rig(freeRoot(), { placement_frame: 'world' });
    expect(r.bridge.setParams({ placement: PLACEMENT }).successful).toBe(true);
    expect(poseError(transformToPose(rootFromWorld(statics(r))[0]!), PLACED)).toBeLessThan(1e-12);
    const idle = r.transport.active().subscriptions;
    expect(r.bridge.setParams({ placement_topic: 'odom' }).successful).toBe(true);
    expect(rootFromWorld(statics(r))).toEqual([]);
    expect(r.transport.active().subscriptions).toBe(idle + 1);
    expect(r.bridge.reload()).toBe(true);
    expect(r.transport.active().subscriptions).toBe(idle + 1);
    expect(r.bridge.setParams({ placement_topic: 'odom2', frame_prefix: 'r2/' }).successful).toBe(true);
    expect(r.transport.inject('odom', odometry(at(1000, 9), 0, 0, 0))).toBe(0);
    r.transport.inject('odom2', odometry(at(1000, 9), 0, 0, 0));
    expect(r.transport.last<TFMessage>('/tf')!.transforms[0]!.child_frame_id).toBe('r2/base');
    // placement_odom_frame at run time: world → r2/odom on /tf_static, the next pose hangs from it; and back.
    expect(r.bridge.setParams({ placement_odom_frame: 'odom' }).successful).toBe(true);
    expect(rootFromWorld(statics(r)).map((t) => t.child_frame_id)).toEqual(['r2/odom']);
    r.transport.inject('odom2', odometry(at(1000, 10), 0, 0, 0));
    expect(r.transport.last<TFMessage>('/tf')!.transforms[0]!.header.frame_id).toBe('r2/odom');
    expect(r.transport.active().subscriptions).toBe(idle + 1);
    expect(r.bridge.setParams({ placement_odom_frame: '' }).successful).toBe(true);
    expect(rootFromWorld(statics(r))).toEqual([]);
    r.transport.inject('odom2', odometry(at(1000, 11), 0, 0, 0));
    expect(r.transport.last<TFMessage>('/tf')!.transforms[0]!.header.frame_id).toBe('world');
    expect(r.bridge.setParams({ placement_frame: '' }).successful).toBe(true);
    expect(r.transport.active().subscriptions).toBe(idle);
    expect(rootFromWorld(statics(r))).toEqual([]);
    expect(infos(r)).toContain("placement and placement_topic not used: placement_frame is ''");
  });

  it('a placement_frame that is already a frame of the model is ignored with a warning', () => {
    const r = rig(fixedRoot(), { placement_frame: 'r1/arm', frame_prefix: 'r1/' });
    expect(statics(r).transforms.filter((t) => t.child_frame_id === 'r1/base')).toEqual([]);
    expect(warnings(r)).toContain("placement_frame 'r1/arm' is ignored: it is already a frame of the model (arm with frame_prefix 'r1/')");
  });
});
