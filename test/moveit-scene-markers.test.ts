// MoveIt's planning-scene objects as rviz markers (src/moveit/scene-markers.ts): one marker per solid and mesh,
// where the object puts it, sized as rviz sizes each marker type, in the object's colour; the array replaces
// the whole drawing (DELETEALL first). Poses are checked against rotation matrices composed by hand, messages
// against visualization_msgs' definitions of Humble and Jazzy.
import { describe, expect, it } from 'vitest';
import { type CollisionObject, MessageType, type Pose as PoseMsg, SolidPrimitiveType } from '../src/messages/messages.js';
import { DEFAULT_SCENE_COLOR, MarkerAction, MarkerType, sceneMarkers } from '../src/moveit/scene-markers.js';
import { checkMessage } from './support/msgcheck.js';
import { matrixFromQuaternion } from './support/rotations.js';

const s = Math.SQRT1_2;
/** Yaw 90° about z at (1, 2, 0). */
const OBJECT_POSE: PoseMsg = { position: { x: 1, y: 2, z: 0 }, orientation: { x: 0, y: 0, z: s, w: s } };
/** 0.5 m along the object's x, turned 90° about its x. */
const LOCAL: PoseMsg = { position: { x: 0.5, y: 0, z: 0 }, orientation: { x: s, y: 0, z: 0, w: s } };
const solid = (type: number, dimensions: number[]) => ({ type, dimensions, polygon: { points: [] } });

function object(id: string, primitives: ReturnType<typeof solid>[], meshes: CollisionObject['meshes'] = []): CollisionObject {
  return {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'world' },
    pose: OBJECT_POSE,
    id,
    type: { key: '', db: '' },
    primitives,
    primitive_poses: primitives.map(() => LOCAL),
    meshes,
    mesh_poses: meshes.map(() => LOCAL),
    planes: [],
    plane_poses: [],
    subframe_names: [],
    subframe_poses: [],
    operation: 0,
  };
}

describe('planning-scene objects as rviz markers', () => {
  it.each([
    { name: 'box', primitive: solid(SolidPrimitiveType.BOX, [0.4, 1.0, 0.3]), type: MarkerType.CUBE, scale: [0.4, 1.0, 0.3] },
    { name: 'sphere', primitive: solid(SolidPrimitiveType.SPHERE, [0.25]), type: MarkerType.SPHERE, scale: [0.5, 0.5, 0.5] },
    // MoveIt's cylinder: height, radius about z; rviz's: diameters in x and y, height in z.
    { name: 'cylinder', primitive: solid(SolidPrimitiveType.CYLINDER, [0.8, 0.1]), type: MarkerType.CYLINDER, scale: [0.2, 0.2, 0.8] },
  ])('a $name: the marker type and scale rviz draws it with, at the object pose ∘ the solid pose', ({ primitive, type, scale }) => {
    const array = sceneMarkers([object('thing', [primitive])], [], 'world');
    expect(array.markers[0]!.action).toBe(MarkerAction.DELETEALL);
    const m = array.markers[1]!;
    expect(m).toMatchObject({ ns: 'thing', id: 0, type, action: MarkerAction.ADD, header: { frame_id: 'world' }, color: DEFAULT_SCENE_COLOR });
    expect([m.scale.x, m.scale.y, m.scale.z]).toEqual(scale);
    // By hand: the object turned 90° about z puts its x along world y: (1, 2, 0) + (0, 0.5, 0).
    expect([m.pose.position.x, m.pose.position.y, m.pose.position.z].map((v) => +v.toFixed(12))).toEqual([1, 2.5, 0]);
    // Rz(90°)·Rx(90°): the solid's x along world y, its y along world z, its z along world x.
    const r = matrixFromQuaternion(m.pose.orientation);
    expect(r.map((row) => row.map((v) => +v.toFixed(12) + 0))).toEqual([[0, 0, 1], [1, 0, 0], [0, 1, 0]]);
    for (const distro of ['humble', 'jazzy'] as const) expect(checkMessage(MessageType.MarkerArray, array, distro)).toEqual([]);
  });

  it('a mesh: a triangle list of its triangles\' corners, in order; a cone (no rviz marker): its surface as triangles', () => {
    const mesh = { vertices: [{ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, { x: 0, y: 0, z: 1 }], triangles: [{ vertex_indices: [0, 1, 2] as [number, number, number] }, { vertex_indices: [0, 3, 1] as [number, number, number] }] };
    const array = sceneMarkers([object('rock', [solid(SolidPrimitiveType.CONE, [0.6, 0.2])], [mesh])], [], 'world');
    const [cone, triangles] = array.markers.slice(1);
    expect(triangles!.type).toBe(MarkerType.TRIANGLE_LIST);
    expect(triangles!.points).toEqual([mesh.vertices[0], mesh.vertices[1], mesh.vertices[2], mesh.vertices[0], mesh.vertices[3], mesh.vertices[1]]);
    expect([triangles!.scale.x, triangles!.scale.y, triangles!.scale.z]).toEqual([1, 1, 1]);
    expect(cone!.type).toBe(MarkerType.TRIANGLE_LIST);
    expect(cone!.points.length % 3).toBe(0);
    // Apex at +h/2, base rim at radius 0.2 on −h/2, as MoveIt centres a cone.
    expect(Math.max(...cone!.points.map((p) => p.z))).toBeCloseTo(0.3, 12);
    expect(Math.min(...cone!.points.map((p) => p.z))).toBeCloseTo(-0.3, 12);
    expect(Math.max(...cone!.points.map((p) => Math.hypot(p.x, p.y)))).toBeCloseTo(0.2, 12);
    expect([cone!.id, triangles!.id]).toEqual([0, 1]);
    expect(checkMessage(MessageType.MarkerArray, array, 'humble')).toEqual([]);
  });

  it("each object in its own colour and namespace; none: DELETEALL alone, which clears rviz's drawing", () => {
    const red = { r: 1, g: 0, b: 0, a: 1 };
    const array = sceneMarkers([object('table', [solid(SolidPrimitiveType.BOX, [1, 1, 1])]), object('wall', [solid(SolidPrimitiveType.BOX, [1, 1, 1]), solid(SolidPrimitiveType.SPHERE, [1])])], [{ id: 'table', color: red }], 'r1/BASE');
    expect(array.markers.slice(1).map((m) => [m.ns, m.id, m.color, m.header.frame_id])).toEqual([
      ['table', 0, red, 'r1/BASE'],
      ['wall', 0, DEFAULT_SCENE_COLOR, 'r1/BASE'],
      ['wall', 1, DEFAULT_SCENE_COLOR, 'r1/BASE'],
    ]);
    expect(sceneMarkers([], [], 'world').markers.map((m) => m.action)).toEqual([MarkerAction.DELETEALL]);
  });
});
