// The world of a Choreonoid project as MoveIt's planning scene sees it: the bodies that never move, as
// collision objects (scene-objects.ts) in the frame MoveIt plans in, and the moveit_msgs/PlanningScene
// diffs that add, replace and remove them.
//
// The frame: move_group adds an object only when it knows the object's header frame, and the frame it is
// sure to know is its planning frame, the root of its robot model: a fixed-base robot's URDF root link, as
// the URDF names it (MoveIt's robot model is not prefixed, whatever frame_prefix the robot's TF carries),
// or, for a free root, the parent frame of the SRDF's floating virtual joint. Objects are therefore
// expressed in that frame, from where the project puts the bodies and the planning robot.
import type { Pose, RobotModel } from '../model/types.js';
import type { AllowedCollisionMatrix, CollisionObject, LinkPadding, ObjectColor, PlanningScene } from '../messages/messages.js';
import { composePose, identityPose } from '../model/math.js';
import { collisionScene, linksCollide, placeLinks, prepareLinks } from './collision-check.js';
import { linkGeometries } from '../urdf/collision-geometry.js';
import { linkPosesInRoot, movingPart, objectColor, type PlacedFrame, removeObject, sceneObject } from './scene-objects.js';

/** A body of the project that does not move, where the project puts it. */
export interface StaticBody {
  /** Its name in the project: the collision object's id. */
  name: string;
  /** The model as ROS sees it (after applyRosConventions). */
  model: RobotModel;
  /** Its root link's pose in the project's world frame. */
  pose: Pose;
}

/**
 * The frame MoveIt plans in for `robot` (as ROS sees it), with its pose in the project's world frame.
 * `rootPose` is where the project puts the robot's root; `virtualParent` the SRDF virtual joint's parent
 * frame for a free root (null for a fixed root, which has none). A virtual parent named like the world frame
 * is the world frame; any other (an `odom`) is where the robot started, which is `rootPose`.
 */
export function planningFrameOf(robot: RobotModel, rootPose: Pose, virtualParent: string | null, worldFrame: string): PlacedFrame {
  const root = robot.links[0];
  if (!root) throw new Error(`${robot.name} has no links`);
  if (root.joint.type === 'free' && virtualParent !== null) {
    return { name: virtualParent, pose: virtualParent === worldFrame ? identityPose() : rootPose };
  }
  return { name: root.name, pose: rootPose };
}

export interface SceneContent {
  /** By id, in the bodies' order. */
  objects: Map<string, CollisionObject>;
  colors: Map<string, ObjectColor>;
  /** What was left out and why, and shapes that could not be read. */
  notes: string[];
}

/** Why the list of bodies cannot make a scene (an empty or repeated name), or null. */
export function invalidBodies(bodies: readonly StaticBody[]): string | null {
  const seen = new Set<string>();
  for (const [i, b] of bodies.entries()) {
    // An empty id in a REMOVE would clear every object of MoveIt's world, ours or not.
    if (b.name === '') return `body ${i + 1} of ${bodies.length} has no name (a collision object needs an id)`;
    if (seen.has(b.name)) return `two bodies are named '${b.name}': collision object ids must be unique`;
    seen.add(b.name);
  }
  return null;
}

/** The collision objects of the static bodies, expressed in `frame`. Bodies that move are left out, with the reason. */
export function sceneContent(bodies: readonly StaticBody[], frame: PlacedFrame, divisions?: number): SceneContent {
  const objects = new Map<string, CollisionObject>();
  const colors = new Map<string, ObjectColor>();
  const notes: string[] = [];
  for (const b of bodies) {
    const moving = movingPart(b.model);
    if (moving) {
      notes.push(`'${b.name}' is left out of the planning scene: ${moving}`);
      continue;
    }
    const { object, warnings } = sceneObject(b.model, { id: b.name, rootPose: b.pose, frame, ...(divisions ? { divisions } : {}) });
    notes.push(...warnings);
    if (!object) {
      notes.push(`'${b.name}' is left out of the planning scene: it has no collision geometry`);
      continue;
    }
    objects.set(b.name, object);
    const color = objectColor(b.model, b.name);
    if (color) colors.set(b.name, color);
  }
  return { objects, colors, notes };
}

/** An allowed collision matrix with no entries: a scene diff that carries it leaves MoveIt's matrix alone. */
const NO_MATRIX: AllowedCollisionMatrix = { entry_names: [], entry_values: [], default_entry_names: [], default_entry_values: [] };

/**
 * A PlanningScene diff that changes the world (these objects added or replaced, those ids removed) and, given
 * one, replaces the allowed collision matrix: MoveIt takes a diff's matrix whole (allowedCollisionMatrix), and
 * given paddings, sets them on the links named (MoveIt pads the robot against the world, not against itself).
 */
export function sceneDiff(
  add: readonly CollisionObject[],
  colors: readonly ObjectColor[],
  remove: readonly string[],
  frame: string,
  matrix: AllowedCollisionMatrix = NO_MATRIX,
  padding: readonly LinkPadding[] = [],
): PlanningScene {
  const empty = { sec: 0, nanosec: 0 };
  return {
    name: '',
    robot_state: {
      joint_state: { header: { stamp: empty, frame_id: '' }, name: [], position: [], velocity: [], effort: [] },
      multi_dof_joint_state: { header: { stamp: empty, frame_id: '' }, joint_names: [], transforms: [], twist: [], wrench: [] },
      attached_collision_objects: [],
      is_diff: true,
    },
    robot_model_name: '',
    fixed_frame_transforms: [],
    allowed_collision_matrix: matrix,
    link_padding: [...padding],
    link_scale: [],
    object_colors: [...colors],
    world: {
      collision_objects: [...remove.map((id) => removeObject(id, frame)), ...add],
      octomap: {
        header: { stamp: empty, frame_id: '' },
        origin: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
        octomap: { header: { stamp: empty, frame_id: '' }, binary: false, id: '', resolution: 0, data: [] },
      },
    },
    is_diff: true,
  };
}

/**
 * How far MoveIt keeps the links a driven base carries (its arm) from the world's objects (m), unless the user sets
 * planning_padding. MoveIt places the base where the odometry says, which after a metre driven was up to 1.6 cm and
 * 9–29 mrad (6–20 mm at the arm's reach) from where Choreonoid had it, and the base creeps while the arm moves
 * (diff_drive_controller holds the wheels at zero speed, not at a position), which carried the tip up to 15 mm
 * (test/ros-live-mobile.test.ts, docs/control.md). 3 cm let the arm graze the table it was planned around (CI, 30 Nov
 * 2026: the wrist pushed off its path, PATH_TOLERANCE_VIOLATED); the worst of each does not come together.
 */
export const ODOMETRY_PADDING = 0.05;

/**
 * The paddings for a driven base: `padding` (m; ODOMETRY_PADDING unless the user chose) on every link that is not
 * part of its base (`mobility` as for touchingBase), so that MoveIt's plans keep that clear of the world where the
 * odometry has put the base. A padding of 0 is listed too: it takes back one sent before.
 */
export function drivenBasePadding(robot: RobotModel, mobility: ReadonlySet<string>, padding = ODOMETRY_PADDING): LinkPadding[] {
  const base = baseLinks(robot, mobility);
  return robot.links.filter((l) => !base.has(l.name)).map((l) => ({ link_name: l.name, padding }));
}

/**
 * The links of `robot`'s base: the root and what fixed joints hold to it, and for a mobile base also what its
 * mobility joints (`mobility`: wheels, casters, tracks) carry — a wheel turns but stays where it stands on the floor.
 */
function baseLinks(robot: RobotModel, mobility: ReadonlySet<string> = new Set()): Set<string> {
  const base = new Set<string>();
  for (const l of robot.links) {
    const holds = l.joint.type === 'fixed' || l.joint.type === 'pseudo_continuous_track' || mobility.has(l.joint.name);
    if (l.parent === null ? true : base.has(l.parent) && holds) base.add(l.name);
  }
  return base;
}

/** How far above a static body a mobile base's link still rests on it (m). */
export const REST_MARGIN = 0.005;

/** A link of the planning robot's base and a static body (a collision object) that touch where they stand. */
export interface BaseContact {
  /** The collision object's id. */
  body: string;
  robotLink: string;
  /** The body's link that the robot's link meets (the first found). */
  bodyLink: string;
}

/**
 * Static bodies that touch the base of the robot where they stand, one entry per base link that touches a body.
 * A fixed base never moves, so MoveIt finds every state of the robot in collision with them (an arm bolted onto a
 * floor or a table). A mobile base (`mobility`: the joints of its wheels, casters and tracks, given only for a
 * driven base) stands on the floor wherever it drives: its wheels and casters touch it in every state MoveIt plans
 * the arm in; a link of it within REST_MARGIN above a body rests on it (a tyre tangent to the floor is a contact
 * or none by a rounding, in our check as in MoveIt's FCL, and in the simulation the tyres sink into the floor).
 * Without `mobility` a free root's base is left out (a humanoid's feet meet the floor in some states only).
 * Solids as the scene's objects are (the collision check of the collision matrix: exact contact counts).
 */
export function touchingBase(robot: RobotModel, robotPose: Pose, bodies: readonly StaticBody[], mobility?: ReadonlySet<string>): BaseContact[] {
  const root = robot.links[0];
  if (!root || (root.joint.type === 'free' && mobility === undefined)) return [];
  const inBase = baseLinks(robot, mobility);
  // Resting: looked at REST_MARGIN lower, where it would be were it sunk into what it stands on.
  const at = mobility === undefined ? robotPose : { ...robotPose, translation: [robotPose.translation[0], robotPose.translation[1], robotPose.translation[2] - REST_MARGIN] as typeof robotPose.translation };
  const base = robot.links.filter((l) => inBase.has(l.name));
  const robotPoses = linkPosesInRoot(robot);
  const out: BaseContact[] = [];
  for (const b of bodies) {
    if (movingPart(b.model) !== null) continue;
    const links = [...base, ...b.model.links];
    const scene = collisionScene(prepareLinks(linkGeometries(links, { solids: 'scene' })));
    const bodyPoses = linkPosesInRoot(b.model);
    placeLinks(scene, [...base.map((l) => composePose(at, robotPoses.get(l.name)!)), ...b.model.links.map((l) => composePose(b.pose, bodyPoses.get(l.name)!))]);
    for (let i = 0; i < base.length; i++) {
      const j = b.model.links.findIndex((_, k) => linksCollide(scene, i, base.length + k));
      if (j >= 0) out.push({ body: b.name, robotLink: base[i]!.name, bodyLink: b.model.links[j]!.name });
    }
  }
  return out;
}

/**
 * The allowed collision matrix MoveIt makes of an SRDF that only disables pairs (AllowedCollisionMatrix(srdf):
 * those pairs allowed, every other checked) with each base contact allowed too: a diff's
 * matrix replaces MoveIt's whole, so it must carry the SRDF's pairs as well. Allowing a base link against a
 * static body takes nothing from a plan of the robot's groups, which never move the base: they touch in every
 * state of the plan or in none (a mobile base's wheels on the floor it drives on: in every one).
 */
export function matrixWithContacts(srdf: { links: readonly string[]; disabled: readonly { link1: string; link2: string }[] }, contacts: readonly BaseContact[]): AllowedCollisionMatrix {
  const names: string[] = [];
  const index = new Map<string, number>();
  const add = (name: string): number => {
    let i = index.get(name);
    if (i === undefined) {
      i = names.length;
      index.set(name, i);
      names.push(name);
    }
    return i;
  };
  srdf.links.forEach(add);
  const allowed: [number, number][] = [
    ...srdf.disabled.map((p): [number, number] => [add(p.link1), add(p.link2)]),
    ...contacts.map((c): [number, number] => [add(c.robotLink), add(c.body)]),
  ];
  const rows = names.map(() => names.map(() => false));
  for (const [a, b] of allowed) {
    rows[a]![b] = true;
    rows[b]![a] = true;
  }
  return { entry_names: names, entry_values: rows.map((enabled) => ({ enabled })), default_entry_names: [], default_entry_values: [] };
}
