// A body that does not move (a floor, a wall, a table, a shelf) as a MoveIt collision object: the body's
// collision geometry, read as the collision matrix reads it (collision-geometry.ts, solids 'scene'), placed
// where the body stands, as a moveit_msgs/CollisionObject expressed in a frame MoveIt knows.
//
// One object per body, its pose the root link's; each shape's pose is relative to it (MoveIt 2 composes
// header frame · object pose · shape pose). Boxes, spheres, cylinders and cones are SolidPrimitives (solids
// for MoveIt's FCL checker), a capsule is a cylinder and two spheres, everything else — meshes, extrusions,
// elevation grids, a non-uniformly scaled sphere, a sheared box — is a shape_msgs/Mesh, which FCL treats as a
// surface, as it does the URDF's meshes. Each link is also a subframe (`<id>/<link>`), so a goal can name
// a table's top.
import { type JointPositions, linkWorldPoses } from '../kinematics/forward.js';
import { formatDiagnostic } from '../model/errors.js';
import { composePose, identityPose, mulVec, quaternionFromMatrix, transpose } from '../model/math.js';
import type { Link, Pose, RobotModel } from '../model/types.js';
import {
  type CollisionObject,
  CollisionObjectOperation,
  type ColorRGBA,
  type Mesh,
  type ObjectColor,
  type Pose as PoseMsg,
  type SolidPrimitive,
  SolidPrimitiveType,
} from '../messages/messages.js';
import { type CollisionShape, linkGeometries } from '../urdf/collision-geometry.js';

/** A frame by name, with its pose in the shared world frame. */
export interface PlacedFrame {
  name: string;
  /** Its pose in the world frame the bodies are placed in. */
  pose: Pose;
}

export interface SceneObjectOptions {
  /** The object's id in MoveIt's world (the body's name in the project). */
  id: string;
  /** Where the body's root link stands in the world frame. */
  rootPose: Pose;
  /** The frame the object is expressed in (header.frame_id), with its pose in the world frame. */
  frame: PlacedFrame;
  /** Segments around round shapes that become meshes. Default 32, as the URDF's meshes. */
  divisions?: number;
}

export interface SceneObject {
  /** Null when the body has no collision geometry MoveIt could use (MoveIt refuses an object without shapes). */
  object: CollisionObject | null;
  /** Shapes that could not be read (COLLADA, unreadable files), located where the model says where they are. */
  warnings: string[];
}

/** The pose of a rigid frame seen from its own child: (R, t)⁻¹ = (Rᵀ, −Rᵀ·t). */
export function inversePose(p: Pose): Pose {
  const rt = transpose(p.rotation);
  const t = mulVec(rt, p.translation);
  return { translation: [-t[0], -t[1], -t[2]], rotation: rt };
}

export function poseMsg(p: Pose): PoseMsg {
  const [x, y, z] = p.translation;
  return { position: { x, y, z }, orientation: quaternionFromMatrix(p.rotation) };
}

/** Why the body moves (so it is no obstacle with a fixed place), or null when nothing of it can move. */
export function movingPart(model: RobotModel): string | null {
  const root = model.links[0];
  if (!root) return `${model.name} has no links`;
  if (root.joint.type !== 'fixed') return `its root link '${root.name}' is not fixed (joint type ${root.joint.type})`;
  // A crawler track's links stay where they are; only its surface is said to move.
  const moving = model.links.find((l) => l.parent !== null && l.joint.type !== 'fixed' && l.joint.type !== 'pseudo_continuous_track');
  return moving ? `its joint '${moving.joint.name}' moves (${moving.joint.type})` : null;
}

const pointsOf = (s: CollisionShape): Mesh['vertices'] => {
  const p = s.mesh.positions;
  const out: Mesh['vertices'] = [];
  for (let i = 0; i < p.length; i += 3) out.push({ x: p[i]!, y: p[i + 1]!, z: p[i + 2]! });
  return out;
};

function meshOf(s: CollisionShape): Mesh {
  const ix = s.mesh.indices;
  const triangles: Mesh['triangles'] = [];
  for (let i = 0; i < ix.length; i += 3) triangles.push({ vertex_indices: [ix[i]!, ix[i + 1]!, ix[i + 2]!] });
  return { triangles, vertices: pointsOf(s) };
}

const solid = (type: number, dimensions: number[]): SolidPrimitive => ({ type, dimensions, polygon: { points: [] } });

const along = (pose: Pose, z: number): Pose => composePose(pose, { translation: [0, 0, z], rotation: identityPose().rotation });

/** The SolidPrimitives of one primitive shape at `pose` (in the object frame): a capsule gives three. */
function solidsOf(s: CollisionShape, pose: Pose): { primitive: SolidPrimitive; pose: Pose }[] {
  const p = s.primitive!;
  switch (p.kind) {
    case 'box':
      return [{ primitive: solid(SolidPrimitiveType.BOX, [...p.size]), pose }];
    case 'sphere':
      return [{ primitive: solid(SolidPrimitiveType.SPHERE, [p.radius]), pose }];
    case 'cylinder':
      return [{ primitive: solid(SolidPrimitiveType.CYLINDER, [p.length, p.radius]), pose }];
    case 'cone':
      return [{ primitive: solid(SolidPrimitiveType.CONE, [p.length, p.radius]), pose }];
    case 'capsule':
      return [
        { primitive: solid(SolidPrimitiveType.CYLINDER, [p.length, p.radius]), pose },
        { primitive: solid(SolidPrimitiveType.SPHERE, [p.radius]), pose: along(pose, p.length / 2) },
        { primitive: solid(SolidPrimitiveType.SPHERE, [p.radius]), pose: along(pose, -p.length / 2) },
      ];
  }
}

/** Every link's pose in the root link's frame, at the model's initial joint positions. */
export function linkPosesInRoot(model: RobotModel): Map<string, Pose> {
  const q: JointPositions = new Map(model.links.map((l) => [l.joint.name, l.joint.initial]));
  const world = linkWorldPoses(model, q);
  const root = model.links[0];
  const fromRoot = inversePose(root ? world.get(root.name)! : identityPose());
  return new Map([...world].map(([name, pose]) => [name, composePose(fromRoot, pose)]));
}

/** Located at the link, as `body-bridge check` prints a model's warnings. */
const where = (model: RobotModel, link: Link, message: string): string =>
  formatDiagnostic({ file: model.sourceFile, ...link.source, severity: 'warning', message: `link '${link.name}': ${message}` });

/**
 * The body as a collision object to ADD, placed at `rootPose` in the world and expressed in `frame`. The
 * model is the one ROS sees (after applyRosConventions), so subframes carry the URDF's link names.
 */
export function sceneObject(model: RobotModel, options: SceneObjectOptions): SceneObject {
  const inRoot = linkPosesInRoot(model);
  const geometries = linkGeometries(model.links, { solids: 'scene', ...(options.divisions ? { divisions: options.divisions } : {}) });
  const warnings: string[] = [];
  const primitives: SolidPrimitive[] = [];
  const primitivePoses: PoseMsg[] = [];
  const meshes: Mesh[] = [];
  const meshPoses: PoseMsg[] = [];
  model.links.forEach((link, i) => {
    const g = geometries[i]!;
    for (const m of g.missing) warnings.push(where(model, link, `collision shape left out of the planning scene: ${m}`));
    const linkPose = inRoot.get(link.name)!;
    for (const s of g.shapes) {
      const pose = composePose(linkPose, s.pose);
      if (s.primitive) {
        for (const p of solidsOf(s, pose)) {
          primitives.push(p.primitive);
          primitivePoses.push(poseMsg(p.pose));
        }
      } else {
        meshes.push(meshOf(s));
        meshPoses.push(poseMsg(pose));
      }
    }
  });
  if (primitives.length === 0 && meshes.length === 0) return { object: null, warnings };
  const object: CollisionObject = {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: options.frame.name },
    pose: poseMsg(composePose(inversePose(options.frame.pose), options.rootPose)),
    id: options.id,
    type: { key: '', db: '' },
    primitives,
    primitive_poses: primitivePoses,
    meshes,
    mesh_poses: meshPoses,
    planes: [],
    plane_poses: [],
    subframe_names: model.links.map((l) => l.name),
    subframe_poses: model.links.map((l) => poseMsg(inRoot.get(l.name)!)),
    operation: CollisionObjectOperation.ADD,
  };
  return { object, warnings };
}

/** The message that takes object `id` out of MoveIt's world. */
export function removeObject(id: string, frame: string): CollisionObject {
  return {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: frame },
    pose: poseMsg(identityPose()),
    id,
    type: { key: '', db: '' },
    primitives: [],
    primitive_poses: [],
    meshes: [],
    mesh_poses: [],
    planes: [],
    plane_poses: [],
    subframe_names: [],
    subframe_poses: [],
    operation: CollisionObjectOperation.REMOVE,
  };
}

/** The colour rviz shows the object in: the body's first coloured visual shape (alpha = 1 − transparency). */
export function objectColor(model: RobotModel, id: string): ObjectColor | null {
  for (const link of model.links) {
    for (const shape of link.visuals) {
      if (!shape.material) continue;
      const [r, g, b] = shape.material.diffuseColor;
      const color: ColorRGBA = { r, g, b, a: 1 - shape.material.transparency };
      return { id, color };
    }
  }
  return null;
}
