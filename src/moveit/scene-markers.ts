// MoveIt's planning-scene objects as rviz markers (visualization_msgs/MarkerArray): rviz2 draws what MoveIt plans
// around without MoveIt's own rviz plugin (moveit_ros_visualization), which many installs lack and which shows
// nothing until move_group runs. One marker per solid and per mesh, in the objects' own colours; the array starts
// with DELETEALL, so that each array sent replaces the whole drawing (an object moved or gone leaves nothing behind).
import { quat, vec3 } from 'gl-matrix';
import { type CollisionObject, type ColorRGBA, type Marker, type MarkerArray, type ObjectColor, type Point, type Pose, SolidPrimitiveType } from '../messages/messages.js';

/** Where the node publishes them (relative: under its namespace), and where rviz's display listens. */
export const SCENE_MARKERS_TOPIC = 'planning_scene_markers';

/** visualization_msgs/Marker's type and action constants. */
export const MarkerType = { CUBE: 1, SPHERE: 2, CYLINDER: 3, TRIANGLE_LIST: 11 } as const;
export const MarkerAction = { ADD: 0, DELETEALL: 3 } as const;

/** rviz MotionPlanning display's default scene colour (50; 230; 50): an object without a colour looks as there. */
export const DEFAULT_SCENE_COLOR: ColorRGBA = { r: 50 / 255, g: 230 / 255, b: 50 / 255, a: 1 };

/** Segments around a cone, which rviz has no marker for. */
const CONE_SEGMENTS = 32;

const ZERO_TIME = { sec: 0, nanosec: 0 };
const IDENTITY: Pose = { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } };

// Float64 storage throughout: gl-matrix's own create() and fromValues() are Float32, which moves a marker by
// tens of nanometres per metre and breaks a unit quaternion's norm in the 8th digit.
const q64 = (q: Pose['orientation']): Float64Array => new Float64Array([q.x, q.y, q.z, q.w]);

/** a ∘ b: b given in a's frame, expressed where a is. */
function compose(a: Pose, b: Pose): Pose {
  const qa = q64(a.orientation);
  const p = vec3.transformQuat(new Float64Array(3), new Float64Array([b.position.x, b.position.y, b.position.z]), qa);
  const q = quat.multiply(new Float64Array(4), qa, q64(b.orientation));
  quat.normalize(q, q);
  return {
    position: { x: a.position.x + p[0]!, y: a.position.y + p[1]!, z: a.position.z + p[2]! },
    orientation: { x: q[0]!, y: q[1]!, z: q[2]!, w: q[3]! },
  };
}

function marker(frame: string, ns: string, id: number, type: number, pose: Pose, scale: Point, color: ColorRGBA, points: Point[] = []): Marker {
  return {
    header: { stamp: ZERO_TIME, frame_id: frame },
    ns,
    id,
    type,
    action: MarkerAction.ADD,
    pose,
    scale,
    color,
    lifetime: ZERO_TIME,
    frame_locked: false,
    points,
    colors: [],
    texture_resource: '',
    texture: { header: { stamp: ZERO_TIME, frame_id: '' }, format: '', data: [] },
    uv_coordinates: [],
    text: '',
    mesh_resource: '',
    mesh_file: { filename: '', data: [] },
    mesh_use_embedded_materials: false,
  };
}

/** A cone of `height` and base `radius` about z, centred on its axis' midpoint as MoveIt's: its surface's triangles. */
function coneTriangles(height: number, radius: number): Point[] {
  const apex = { x: 0, y: 0, z: height / 2 };
  const centre = { x: 0, y: 0, z: -height / 2 };
  const rim = Array.from({ length: CONE_SEGMENTS }, (_, i) => {
    const a = (2 * Math.PI * i) / CONE_SEGMENTS;
    return { x: radius * Math.cos(a), y: radius * Math.sin(a), z: -height / 2 };
  });
  return rim.flatMap((p, i) => {
    const next = rim[(i + 1) % CONE_SEGMENTS]!;
    return [apex, p, next, centre, next, p];
  });
}

/** The markers of one object's solids and meshes, numbered from 0 in the object's namespace (its id). */
function objectMarkers(object: CollisionObject, frame: string, color: ColorRGBA): Marker[] {
  const out: Marker[] = [];
  const at = (local: Pose | undefined): Pose => compose(object.pose, local ?? IDENTITY);
  object.primitives.forEach((p, i) => {
    const pose = at(object.primitive_poses[i]);
    const d = p.dimensions;
    switch (p.type) {
      case SolidPrimitiveType.BOX:
        out.push(marker(frame, object.id, out.length, MarkerType.CUBE, pose, { x: d[0]!, y: d[1]!, z: d[2]! }, color));
        break;
      case SolidPrimitiveType.SPHERE:
        out.push(marker(frame, object.id, out.length, MarkerType.SPHERE, pose, { x: 2 * d[0]!, y: 2 * d[0]!, z: 2 * d[0]! }, color));
        break;
      case SolidPrimitiveType.CYLINDER:
        out.push(marker(frame, object.id, out.length, MarkerType.CYLINDER, pose, { x: 2 * d[1]!, y: 2 * d[1]!, z: d[0]! }, color));
        break;
      case SolidPrimitiveType.CONE:
        out.push(marker(frame, object.id, out.length, MarkerType.TRIANGLE_LIST, pose, { x: 1, y: 1, z: 1 }, color, coneTriangles(d[0]!, d[1]!)));
        break;
      default:
        // sceneObject makes no other solid (a prism would be one).
        break;
    }
  });
  object.meshes.forEach((m, i) => {
    const points = m.triangles.flatMap((t) => t.vertex_indices.map((v) => m.vertices[v]!));
    out.push(marker(frame, object.id, out.length, MarkerType.TRIANGLE_LIST, at(object.mesh_poses[i]), { x: 1, y: 1, z: 1 }, color, points));
  });
  return out;
}

/**
 * The whole scene as markers in `frame` (the frame rviz knows the objects' header frame by: the robot's link
 * with the node's frame_prefix, or the unprefixed world), each object in its colour (or DEFAULT_SCENE_COLOR).
 * Stamped zero: rviz draws them with the latest transform of `frame`, as MoveIt's objects stand in it.
 */
export function sceneMarkers(objects: readonly CollisionObject[], colors: readonly ObjectColor[], frame: string): MarkerArray {
  const byId = new Map(colors.map((c) => [c.id, c.color]));
  const clear = { ...marker(frame, '', 0, MarkerType.CUBE, IDENTITY, { x: 1, y: 1, z: 1 }, DEFAULT_SCENE_COLOR), action: MarkerAction.DELETEALL };
  return { markers: [clear, ...objects.flatMap((o) => objectMarkers(o, frame, byId.get(o.id) ?? DEFAULT_SCENE_COLOR))] };
}
