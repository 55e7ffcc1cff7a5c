// The project's static bodies in MoveIt's planning scene: moveit_msgs/PlanningScene diffs on
// `planning_scene`, where move_group's PlanningSceneMonitor listens (reliable, volatile, depth 10 on
// Humble and Jazzy). Volatile means a scene sent before move_group subscribed never reaches it, and it
// starts with an empty world: so the whole scene goes out again whenever the number of subscribers grows,
// and on every change only what changed (objects added or replaced, objects that went away removed).
//
// The same objects go out as rviz markers on `planning_scene_markers` (latched: rviz2 started later still gets
// them), the whole drawing each time it changes (src/moveit/scene-markers.ts).
//
// A unit of its own with a start and a stop, fed plain data (update): the node that reads a project file
// decides which bodies are static, where they stand and which frame MoveIt plans in (src/moveit/planning-scene.ts).
import { type PlacedFrame } from '../moveit/scene-objects.js';
import { invalidBodies, sceneContent, sceneDiff, type StaticBody } from '../moveit/planning-scene.js';
import { SCENE_MARKERS_TOPIC, sceneMarkers } from '../moveit/scene-markers.js';
import { type AllowedCollisionMatrix, type CollisionObject, type LinkPadding, type MarkerArray, MessageType, type ObjectColor, type PlanningScene } from '../messages/messages.js';
import type { Publisher, QoS, Transport } from './transport.js';

export const PLANNING_SCENE_TOPIC = 'planning_scene';
/** move_group's subscription takes rclcpp::ServicesQoS (reliable, volatile, keep last 10); ours offers the same. */
export const planningSceneQoS: QoS = { reliability: 'reliable', durability: 'volatile', depth: 10 };
/** Latched, as robot_description: rviz2's MarkerArray display asks transient local and gets the last drawing. */
export const sceneMarkersQoS: QoS = { reliability: 'reliable', durability: 'transient_local', depth: 1 };
/** Wall milliseconds between looks at the subscriber count. */
export const SUBSCRIBER_POLL_MS = 1000;

export interface SceneWorld {
  /** The frame the objects are expressed in (MoveIt's planning frame) and its pose in the project's world. */
  frame: PlacedFrame;
  bodies: StaticBody[];
  /**
   * The allowed collision matrix to give MoveIt (it replaces MoveIt's whole: the SRDF's pairs must be in it),
   * or null to leave MoveIt's as it is (and send none to a move_group that starts later).
   */
  matrix?: AllowedCollisionMatrix | null;
  /** Paddings for the robot's links against the world (a driven base's arm), or none: MoveIt's stay as they are. */
  padding?: readonly LinkPadding[];
  /** The objects' frame as TF names it (a robot link with the node's frame_prefix); frame.name when not given. */
  markerFrame?: string;
}

export interface PlanningScenePublisher {
  /** Publishes what changed from the last good world; a bad world is refused (logged) and the last one kept. */
  update(world: SceneWorld): { successful: boolean; reason: string };
  /** The ids in MoveIt's world as we last sent it. */
  objectIds(): string[];
  /** Whether MoveIt has an allowed collision matrix from us (the last update gave one). */
  hasMatrix(): boolean;
  /** Stops watching for subscribers, after taking our objects out of the scenes that have them. */
  stop(): void;
}

export interface PlanningScenePublisherOptions {
  transport: Transport;
  /** Relative names follow the node's namespace and remapping, as move_group's `planning_scene` does its own. */
  topic?: string;
  markersTopic?: string;
  pollMs?: number;
}

export function startPlanningScenePublisher(options: PlanningScenePublisherOptions): PlanningScenePublisher {
  const { transport } = options;
  const log = transport.log;
  const topic = options.topic ?? PLANNING_SCENE_TOPIC;
  let publisher: Publisher<PlanningScene> | null = null;
  try {
    publisher = transport.publisher<PlanningScene>(topic, MessageType.PlanningScene, planningSceneQoS);
  } catch (error) {
    // rclnodejs generates its message classes when body_bridge is built: moveit_msgs must have been installed then.
    log.error(
      `cannot publish moveit_msgs/PlanningScene on ${topic}: ${error instanceof Error ? error.message : String(error)}; ` +
        'install moveit_msgs for this ROS 2 and build body_bridge again. The planning scene stays empty.',
    );
  }
  const markersTopic = options.markersTopic ?? SCENE_MARKERS_TOPIC;
  let markerPublisher: Publisher<MarkerArray> | null = null;
  try {
    markerPublisher = transport.publisher<MarkerArray>(markersTopic, MessageType.MarkerArray, sceneMarkersQoS);
  } catch (error) {
    log.error(`cannot publish visualization_msgs/MarkerArray on ${markersTopic}: ${error instanceof Error ? error.message : String(error)}; rviz2 will not draw the planning scene's objects`);
  }
  /** The drawing rviz has from us, as text (sent again only when it changes). */
  let drawn = '';
  const draw = (objects: readonly CollisionObject[], colors: readonly ObjectColor[], markerFrame: string): void => {
    const markers = sceneMarkers(objects, colors, markerFrame);
    const key = JSON.stringify(markers);
    if (key === drawn || !markerPublisher) return;
    drawn = key;
    markerPublisher.publish(markers);
  };
  /** What MoveIt's world holds from us: by id, the object, its colour and the text they were compared by. */
  let current = new Map<string, { object: CollisionObject; color: ObjectColor | null; key: string }>();
  let frame = '';
  /** The allowed collision matrix MoveIt has from us (sent again to a new move_group), and its text. */
  let matrix: { acm: AllowedCollisionMatrix; key: string } | null = null;
  /** The paddings MoveIt has from us, and their text. */
  let padding: { links: readonly LinkPadding[]; key: string } | null = null;
  let subscribers = 0;

  const send = (scene: PlanningScene): void => {
    if (!publisher) return;
    publisher.publish(scene);
  };

  const sendAll = (why: string): void => {
    const all = [...current.values()];
    if (all.length === 0 && !matrix) return;
    send(sceneDiff(all.map((c) => c.object), all.flatMap((c) => (c.color ? [c.color] : [])), [], frame, matrix?.acm, padding?.links));
    log.info(`planning scene: ${all.length} objects${matrix ? ' and the allowed collision matrix' : ''}${padding ? ' and the links\' padding' : ''} sent on ${topic} (${why})`);
  };

  const update = (world: SceneWorld): { successful: boolean; reason: string } => {
    const reason = invalidBodies(world.bodies);
    if (reason) {
      log.error(`planning scene not updated: ${reason}`);
      return { successful: false, reason };
    }
    const content = sceneContent(world.bodies, world.frame);
    for (const note of content.notes) log.warn(note);
    const next = new Map<string, { object: CollisionObject; color: ObjectColor | null; key: string }>();
    for (const [id, object] of content.objects) {
      const color = content.colors.get(id) ?? null;
      next.set(id, { object, color, key: JSON.stringify([object, color]) });
    }
    const changed = [...next.entries()].filter(([id, n]) => current.get(id)?.key !== n.key).map(([, n]) => n);
    const removed = [...current.keys()].filter((id) => !next.has(id));
    current = next;
    frame = world.frame.name;
    const nextMatrix = world.matrix ? { acm: world.matrix, key: JSON.stringify(world.matrix) } : null;
    const matrixChanged = nextMatrix !== null && nextMatrix.key !== matrix?.key;
    // No matrix: MoveIt keeps the one it has, and a move_group that comes later is sent none.
    matrix = nextMatrix;
    const nextPadding = world.padding && world.padding.length > 0 ? { links: world.padding, key: JSON.stringify(world.padding) } : null;
    const paddingChanged = nextPadding !== null && nextPadding.key !== padding?.key;
    padding = nextPadding;
    const all = [...current.values()];
    draw(all.map((c) => c.object), all.flatMap((c) => (c.color ? [c.color] : [])), world.markerFrame ?? frame);
    if (changed.length === 0 && removed.length === 0 && !matrixChanged && !paddingChanged) return { successful: true, reason: '' };
    send(sceneDiff(changed.map((c) => c.object), changed.flatMap((c) => (c.color ? [c.color] : [])), removed, frame, matrixChanged ? matrix!.acm : undefined, paddingChanged ? padding!.links : []));
    const parts = [
      changed.length > 0 ? `${changed.length} added or replaced (${changed.map((c) => c.object.id).join(', ')})` : '',
      removed.length > 0 ? `${removed.length} removed (${removed.join(', ')})` : '',
      matrixChanged ? `the allowed collision matrix replaced (${matrix!.acm.entry_names.length} entries)` : '',
      paddingChanged ? `${padding!.links.length} links padded by ${padding!.links[0]!.padding} m against the world` : '',
    ].filter((p) => p !== '');
    log.info(`planning scene in ${frame}: ${parts.join(', ')}`);
    return { successful: true, reason: '' };
  };

  // A move_group that starts (or restarts) after us would never hear of the objects: send them again when
  // the count of subscribers grows. (A restart between two looks keeps the count and goes unnoticed for
  // that look; the next new subscriber sends everything again.)
  let countFailed = false;
  const stopPoll = transport.wallTimer(options.pollMs ?? SUBSCRIBER_POLL_MS, () => {
    if (!publisher) return;
    let count: number;
    try {
      count = publisher.subscriptionCount();
    } catch (error) {
      // A timer callback that throws would end the node: say so once, and send nothing again on this count.
      if (!countFailed) log.error(`planning scene: cannot count the subscribers of ${topic} (${error instanceof Error ? error.message : String(error)}); a move_group that starts later will not get the scene until it changes`);
      countFailed = true;
      return;
    }
    if (count > subscribers) sendAll(`${count} subscriber${count === 1 ? '' : 's'} now`);
    subscribers = count;
  });

  return {
    update,
    objectIds: () => [...current.keys()],
    hasMatrix: () => matrix !== null,
    stop(): void {
      stopPoll();
      if (current.size > 0 && publisher && !countFailed && publisher.subscriptionCount() > 0) send(sceneDiff([], [], [...current.keys()], frame));
      if (current.size > 0) draw([], [], frame);
      current = new Map();
    },
  };
}
