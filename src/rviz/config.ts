// An rviz2 configuration made from the model the node serves, so `display.launch.py body_file:=X` shows
// that robot and every one of its sensors with no hand edits: the fixed frame is the served root (or the
// world frame), the RobotModel reads the latched robot_description topic, and each device topic the relay
// publishes (src/devices/topics.ts, the node's own table) gets the rviz display for its message type.
import { Document } from 'yaml';
import { deviceFrames } from '../kinematics/device-frames.js';
import { framePoses, frameTree } from '../kinematics/frames.js';
import { composePose } from '../model/math.js';
import type { DeviceTopic, DeviceTopicSet } from '../devices/topics.js';
import { deviceTopics, resolveTopic } from '../devices/topics.js';
import { upstreamTopicNames } from '../devices/upstream.js';
import type { Pose, RobotModel } from '../model/types.js';
import { SCENE_MARKERS_TOPIC } from '../moveit/scene-markers.js';

export interface RvizOptions {
  /** The node's frame_prefix (prepended to every frame id). */
  framePrefix?: string;
  /** The node's world_frame, or free_root_frame for a free root: then the fixed frame. */
  fixedFrame?: string;
  /** The node's namespace ('' or '/r1'); relative topic names resolve under it. */
  namespace?: string;
  /** Topic remappings applied to the node's topics, FROM (as the node names it, relative or absolute) → TO. */
  remaps?: ReadonlyMap<string, string>;
  /** The node's device_input_namespace ('' = `/<body name>`): its relayed topics avoid choreonoid_ros's names. */
  inputNamespace?: string;
  /** The node sends a project's static bodies to MoveIt (planning_scene_project): draw its markers of them. */
  planningScene?: boolean;
  /**
   * Where the root stands in the fixed frame (the node's placement in placement_frame, [x, y, z, qx, qy, qz, qw]):
   * the view looks at the robot there (placedView): a fixed root from the same side as the robot alone, a free one
   * followed from behind.
   */
  placement?: readonly number[];
}

/** One display of the generated configuration, for the caller's report and for tests. */
export interface RvizDisplay {
  class: string;
  name: string;
  topic: string | null;
}

export interface RvizConfig {
  fixedFrame: string;
  displays: RvizDisplay[];
  /** Device topics no rviz2 default display draws (Imu: rviz_default_plugins has no Imu display). */
  undrawn: string[];
  yaml: string;
}

const PLUGIN = 'rviz_default_plugins';

export { resolveTopic } from '../devices/topics.js';

/** The topic a subscriber sees: remapped by its relative or its resolved name, then resolved. */
function finalTopic(name: string, options: RvizOptions): string {
  const namespace = options.namespace ?? '';
  const remaps = options.remaps ?? new Map<string, string>();
  const resolved = resolveTopic(name, namespace);
  const to = remaps.get(name) ?? remaps.get(resolved);
  return to === undefined ? resolved : resolveTopic(to, namespace);
}

// rviz2 subscribes with the QoS a display's Topic property names; the relay publishes sensor data best
// effort (a reliable subscription would never match) and robot_description reliable + transient local.
const topicProperty = (value: string, latched: boolean): Record<string, unknown> => ({
  Depth: latched ? 1 : 5,
  'Durability Policy': latched ? 'Transient Local' : 'Volatile',
  'History Policy': 'Keep Last',
  'Reliability Policy': latched ? 'Reliable' : 'Best Effort',
  Value: value,
});

function deviceDisplay(set: DeviceTopicSet, t: DeviceTopic, topic: string, model: RobotModel): Record<string, unknown> | null {
  const name = `${set.frame} ${t.role.replace('_', ' ')}`;
  switch (t.role) {
    case 'image':
    case 'depth_image':
      return { Class: `${PLUGIN}/Image`, Enabled: true, Name: name, 'Normalize Range': true, Topic: topicProperty(topic, false), Value: true };
    case 'points': {
      const d = model.devices[set.device]!;
      const coloured = d.type === 'RangeCamera' && d.params.image_type !== 'NO_IMAGE';
      return {
        Class: `${PLUGIN}/PointCloud2`,
        Enabled: true,
        Name: name,
        'Color Transformer': coloured ? 'RGB8' : 'AxisColor',
        Axis: 'Z',
        'Position Transformer': 'XYZ',
        Style: 'Points',
        'Size (Pixels)': 2,
        'Decay Time': 0,
        Topic: topicProperty(topic, false),
        'Use Fixed Frame': true,
        Value: true,
      };
    }
    case 'scan':
      return {
        Class: `${PLUGIN}/LaserScan`,
        Enabled: true,
        Name: name,
        'Color Transformer': 'FlatColor',
        Color: '255; 64; 64',
        Style: 'Points',
        'Size (Pixels)': 3,
        Topic: topicProperty(topic, false),
        Value: true,
      };
    case 'wrench':
      return { Class: `${PLUGIN}/Wrench`, Enabled: true, Name: name, Topic: topicProperty(topic, false), Value: true };
    default:
      return null;
  }
}

const gridDisplay = (): Record<string, unknown> => ({
  Class: `${PLUGIN}/Grid`,
  Enabled: true,
  Name: 'Grid',
  'Cell Size': 1,
  'Plane Cell Count': 10,
  Plane: 'XY',
  'Reference Frame': '<Fixed Frame>',
  Value: true,
});

/** MoveIt's obstacles as the node draws them (src/moveit/scene-markers.ts), latched as it sends them. */
const planningSceneDisplay = (options: RvizOptions): Record<string, unknown> => ({
  Class: `${PLUGIN}/MarkerArray`,
  Enabled: true,
  Name: 'Planning scene',
  Namespaces: {},
  Topic: topicProperty(finalTopic(SCENE_MARKERS_TOPIC, options), true),
  Value: true,
});

const tfDisplay = (): Record<string, unknown> => ({
  Class: `${PLUGIN}/TF`,
  Enabled: true,
  Name: 'TF',
  'Show Names': false,
  'Show Axes': true,
  'Show Arrows': false,
  'Marker Scale': 0.3,
  'Frame Timeout': 15,
  Value: true,
});

/** `name`, or `label name` when displays of several bodies share one configuration. */
const labelled = (label: string, name: string): string => (label === '' ? name : `${label} ${name}`);

/** The RobotModel display of one served body: its robot_description topic, its TF prefix. */
function robotModelDisplay(options: RvizOptions, label: string): Record<string, unknown> {
  return {
    Class: `${PLUGIN}/RobotModel`,
    Enabled: true,
    Name: labelled(label, 'RobotModel'),
    'Description Source': 'Topic',
    'Description Topic': topicProperty(finalTopic('robot_description', options), true),
    'TF Prefix': (options.framePrefix ?? '').replace(/\/$/, ''),
    'Visual Enabled': true,
    'Collision Enabled': false,
    Value: true,
  };
}

/** One display per device topic the node relays for `model` (Imu topics have none: `undrawn`). */
function deviceDisplays(model: RobotModel, options: RvizOptions, label: string): { displays: Record<string, unknown>[]; undrawn: string[] } {
  const displays: Record<string, unknown>[] = [];
  const undrawn: string[] = [];
  const names = { namespace: options.namespace ?? '', upstream: upstreamTopicNames(model, options.inputNamespace ?? '') };
  for (const set of deviceTopics(model, deviceFrames(model), names)) {
    for (const t of set.topics) {
      const topic = finalTopic(t.name, options);
      const display = deviceDisplay(set, t, topic, model);
      if (display) displays.push({ ...display, Name: labelled(label, display.Name as string) });
      else if (t.role === 'imu') undrawn.push(topic);
    }
  }
  return { displays, undrawn };
}

const hasRangeDisplay = (displays: readonly Record<string, unknown>[]): boolean =>
  displays.some((d) => d.Class === `${PLUGIN}/PointCloud2` || d.Class === `${PLUGIN}/LaserScan`);

interface OrbitView {
  distance: number;
  yaw: number;
  pitch: number;
  focal?: [number, number, number];
  /** The frame the camera follows (rviz's orbit Target Frame); the fixed frame when not given. */
  target?: string;
}

/** The whole configuration around `displays`, with `comment` on top. */
function rvizDocument(displays: Record<string, unknown>[], fixedFrame: string, view: OrbitView, undrawn: string[], comment: string): RvizConfig {
  const [fx, fy, fz] = view.focal ?? [0, 0, 0];
  const config = {
    Panels: [
      { Class: 'rviz_common/Displays', Name: 'Displays', 'Help Height': 0, 'Tree Height': 500 },
      { Class: 'rviz_common/Views', Name: 'Views' },
    ],
    'Visualization Manager': {
      Class: '',
      Displays: displays,
      Enabled: true,
      'Global Options': { 'Background Color': '48; 48; 48', 'Fixed Frame': fixedFrame, 'Frame Rate': 30 },
      Name: 'root',
      Tools: [{ Class: `${PLUGIN}/Interact` }, { Class: `${PLUGIN}/MoveCamera` }, { Class: `${PLUGIN}/Select` }, { Class: `${PLUGIN}/FocusCamera` }, { Class: `${PLUGIN}/Measure` }],
      Transformation: { Current: { Class: `${PLUGIN}/TF` } },
      Value: true,
      Views: {
        Current: {
          Class: `${PLUGIN}/Orbit`,
          Distance: view.distance,
          'Focal Point': { X: fx, Y: fy, Z: fz },
          Name: 'Current View',
          'Near Clip Distance': 0.01,
          Pitch: view.pitch,
          'Target Frame': view.target ?? '<Fixed Frame>',
          Value: 'Orbit (rviz)',
          Yaw: view.yaw,
        },
        Saved: null,
      },
    },
    'Window Geometry': { Height: 900, Width: 1400, X: 0, Y: 0, 'Hide Left Dock': false, 'Hide Right Dock': true, Displays: { collapsed: false } },
  };
  const doc = new Document(config);
  doc.commentBefore = comment;
  const list: RvizDisplay[] = displays.map((d) => ({
    class: d.Class as string,
    name: d.Name as string,
    topic: ((d.Topic ?? d['Description Topic']) as { Value: string } | undefined)?.Value ?? null,
  }));
  return { fixedFrame, displays: list, undrawn, yaml: doc.toString({ lineWidth: 0 }) };
}

/**
 * The rviz2 configuration for `model` as the node serves it (`model` is the ROS model: link names after
 * applyRosConventions, as in the URDF). Pure: the caller writes `yaml` where rviz2 reads it (`-d FILE`).
 */
export function rvizConfig(model: RobotModel, options: RvizOptions = {}): RvizConfig {
  const prefix = options.framePrefix ?? '';
  const fixedFrame = prefix + (options.fixedFrame || model.links[0]?.name || model.root);
  const devices = deviceDisplays(model, options, '');
  const displays = [gridDisplay(), robotModelDisplay(options, ''), ...(options.planningScene ? [planningSceneDisplay(options)] : []), tfDisplay(), ...devices.displays];
  const root = model.links[0];
  const view = placedView(orbitView(model, hasRangeDisplay(displays)), options.placement, root?.joint.type === 'free', prefix + (root?.name ?? model.root));
  return rvizDocument(displays, fixedFrame, view, devices.undrawn, ` rviz2 configuration generated by body_bridge from ${model.sourceFile || model.name} (src/rviz/config.ts).`);
}

/** One body of a project as its node serves it: the ROS model, where it stands, and the node's names. */
export interface ProjectBodyView {
  /** The body's name in the project: it labels the body's displays. */
  label: string;
  /** The ROS model (after applyRosConventions). */
  model: RobotModel;
  /** The root link's pose in the world frame. */
  pose: Pose;
  /** The node's frame_prefix and namespace (and remaps, if any). */
  options: RvizOptions;
}

/**
 * One view of a whole project (`project.launch.py`): the fixed frame is the world every body is placed in;
 * Grid and TF once; per body its RobotModel (its namespace's robot_description, its TF prefix) and its device
 * displays, labelled with the body's name. The view frames every body's frames where the project puts them.
 */
export function projectRvizConfig(bodies: readonly ProjectBodyView[], worldFrame: string, source: string): RvizConfig {
  const displays: Record<string, unknown>[] = [gridDisplay(), tfDisplay()];
  const undrawn: string[] = [];
  for (const b of bodies) {
    displays.push(robotModelDisplay(b.options, b.label));
    const devices = deviceDisplays(b.model, b.options, b.label);
    displays.push(...devices.displays);
    undrawn.push(...devices.undrawn);
  }
  return rvizDocument(displays, worldFrame, projectView(bodies), undrawn, ` rviz2 configuration generated by body_bridge for the project ${source} (src/rviz/config.ts).`);
}

/** Every frame of every body at its initial joint positions, in the world frame. */
function worldPoints(bodies: readonly ProjectBodyView[]): [number, number, number][] {
  const points: [number, number, number][] = [];
  for (const b of bodies) {
    const initial = new Map(b.model.links.map((l) => [l.joint.name, Number.isFinite(l.joint.initial) ? l.joint.initial : 0]));
    for (const p of framePoses(frameTree(b.model), initial).values()) points.push(composePose(b.pose, p.root).translation);
  }
  return points;
}

/** The orbit view of a project: centred on the box around every body's frames, far enough to see it all, from the front left. */
function projectView(bodies: readonly ProjectBodyView[]): OrbitView {
  const points = worldPoints(bodies);
  if (points.length === 0) return { distance: 5, yaw: 0.8, pitch: 0.5 };
  const lo = [0, 1, 2].map((i) => Math.min(...points.map((p) => p[i]!)));
  const hi = [0, 1, 2].map((i) => Math.max(...points.map((p) => p[i]!)));
  const round = (x: number): number => Math.round(x * 100) / 100;
  const focal = [0, 1, 2].map((i) => round((lo[i]! + hi[i]!) / 2)) as [number, number, number];
  const diagonal = Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  return { distance: round(Math.min(60, Math.max(2.5, diagonal * 1.4 + 1))), yaw: 0.8, pitch: 0.55, focal };
}

/**
 * The view of a robot placed in a world (`placement`: its root in the fixed frame). A fixed root: the lone robot's
 * view, moved to where the root stands and turned with its heading. A free root moves through the world (a driven
 * base): the camera follows its root frame (`rootFrame`, with the node's prefix) and looks from behind it at the
 * start, where it will drive.
 */
function placedView(view: OrbitView, placement: readonly number[] | undefined, free: boolean, rootFrame: string): OrbitView {
  if (!placement || placement.length !== 7) return view;
  const [x, y, z, qx, qy, qz, qw] = placement as [number, number, number, number, number, number, number];
  // The heading: the yaw of the root's x axis in the fixed frame.
  const heading = Math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  if (free) return { ...view, yaw: round(Math.PI + heading), focal: [0, 0, 0], target: rootFrame };
  return { ...view, yaw: round(view.yaw + heading), focal: [round(x), round(y), round(z)] };
}

/**
 * The orbit view rviz2 opens with: the robot framed by its frames' reach from the root at the initial pose
 * (at least 1.5 m), seen from its front left. A robot whose range sensors draw points is seen from behind
 * instead, over its shoulder, and from at least 4 m: what it senses lies ahead of it (+x, REP-103), which a
 * view from the front would put behind the eye.
 */
function orbitView(model: RobotModel, drawsRanges: boolean): { distance: number; yaw: number; pitch: number } {
  const initial = new Map(model.links.map((l) => [l.joint.name, Number.isFinite(l.joint.initial) ? l.joint.initial : 0]));
  let reach = 0;
  for (const p of framePoses(frameTree(model), initial).values()) reach = Math.max(reach, Math.hypot(...p.root.translation));
  const round = (x: number): number => Math.round(x * 10) / 10;
  const framed = Math.min(20, Math.max(1.5, reach * 3));
  return drawsRanges ? { distance: round(Math.max(4, framed)), yaw: round(0.8 + Math.PI), pitch: 0.5 } : { distance: round(framed), yaw: 0.8, pitch: 0.5 };
}
