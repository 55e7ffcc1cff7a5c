// A static body as a MoveIt collision object (src/moveit/scene-objects.ts), one tiny body per kind of
// geometry. For each: the primitives or meshes expected, worked out by hand from Choreonoid's meaning of the
// shape (a cylinder along the shape's +Y must come out as a CYLINDER whose z is turned onto that y), and
// probes placed by hand in the body's frame — inside or on the original geometry, or clear of it. The body
// stands at a pose in the world and the object is expressed in a third frame, so every probe is carried
// through both by the test's own arithmetic. Two independent readers of the message then say whether each
// probe touches the object: the test's own reading of shape_msgs (SolidPrimitive dimensions, CYLINDER and
// CONE along z, meshes as surfaces), and FCL as MoveIt builds the objects (test/peers/fcl_scene.cpp), where
// FCL is installed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CollisionObjectOperation, type CollisionObject, type Pose as PoseMsg, SolidPrimitiveType } from '../src/messages/messages.js';
import type { Geometry, Mat3, Pose, RobotModel, Shape, Vec3 } from '../src/model/types.js';
import { insidePrimitive, primitiveMesh } from '../src/urdf/collision-geometry.js';
import { movingPart, objectColor, removeObject, sceneObject } from '../src/moveit/scene-objects.js';
import { fclPeers, fclScene } from './support/moveit-peers.js';
import { checkMessage, installedMoveitMessages } from './support/msgcheck.js';
import { partWith, skipWithout } from './support/peer-skip.js';
import { invertPose, matrixFromQuaternion } from './support/rotations.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const withoutFcl = skipWithout(...fclPeers());
const work = mkdtempSync(join(tmpdir(), 'bb-scene-objects-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// --- the test's own rigid-motion arithmetic --------------------------------------------------------------
const rx = (a: number): Mat3 => [[1, 0, 0], [0, Math.cos(a), -Math.sin(a)], [0, Math.sin(a), Math.cos(a)]];
const ry = (a: number): Mat3 => [[Math.cos(a), 0, Math.sin(a)], [0, 1, 0], [-Math.sin(a), 0, Math.cos(a)]];
const rz = (a: number): Mat3 => [[Math.cos(a), -Math.sin(a), 0], [Math.sin(a), Math.cos(a), 0], [0, 0, 1]];
const mv = (m: Mat3, v: Vec3): Vec3 => [0, 1, 2].map((i) => m[i]![0] * v[0] + m[i]![1] * v[1] + m[i]![2] * v[2]) as Vec3;
const mm = (a: Mat3, b: Mat3): Mat3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => a[i]![0] * b[0]![j]! + a[i]![1] * b[1]![j]! + a[i]![2] * b[2]![j]!)) as Mat3;
const apply = (p: Pose, v: Vec3): Vec3 => {
  const r = mv(p.rotation, v);
  return [r[0] + p.translation[0], r[1] + p.translation[1], r[2] + p.translation[2]];
};
const compose = (a: Pose, b: Pose): Pose => ({ translation: apply(a, b.translation), rotation: mm(a.rotation, b.rotation) });
const fromMsg = (m: PoseMsg): Pose => ({ translation: [m.position.x, m.position.y, m.position.z], rotation: matrixFromQuaternion(m.orientation) });

/** Where the bodies stand in the world, and the frame the objects are expressed in (placed in the world too). */
const BODY_POSE: Pose = { translation: [1, 2, 0.5], rotation: rz(Math.PI / 2) };
const FRAME_POSE: Pose = { translation: [0.5, -0.3, 0.2], rotation: ry(0.4) };
const FRAME = 'planning_base';

interface Probe {
  /** In the body's root link frame. */
  at: Vec3;
  /** Probe sphere radius: tiny for solids; for meshes (surfaces) large enough to cover the tessellation. */
  r: number;
  hit: boolean;
}

interface Case {
  name: string;
  shapes: Shape[];
  /** Expected SolidPrimitives (type, dimensions), in order, and how many meshes. */
  primitives: [number, number[]][];
  meshes: number;
  probes: Probe[];
  /** Hand-worked pose checks of primitive i's pose relative to the object. */
  check?: (o: CollisionObject) => void;
}

const solid = (at: Vec3, hit: boolean): Probe => ({ at, r: 1e-4, hit });
const onSurface = (at: Vec3, hit: boolean, r = 0.005): Probe => ({ at, r, hit });
const cylinderY = (radius: number, height: number, extra: Partial<Extract<Geometry, { kind: 'cylinder' }>> = {}): Geometry => ({
  kind: 'cylinder',
  radius,
  height,
  top: true,
  bottom: true,
  side: true,
  ...extra,
});

const boxRotation = rz(0.3);
const boxAt = (p: Vec3): Vec3 => {
  const r = mv(boxRotation, p);
  return [r[0], r[1], r[2] + 0.05];
};
const stlFile = join(work, 'tetra.stl');
writeFileSync(
  stlFile,
  `solid tetra
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 0.2 0
vertex 0.2 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 0.2 0 0
vertex 0 0 0.2
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0 0.2
vertex 0 0.2 0
endloop
endfacet
facet normal 1 1 1
outer loop
vertex 0.2 0 0
vertex 0 0.2 0
vertex 0 0 0.2
endloop
endfacet
endsolid tetra
`,
);

const CASES: Case[] = [
  {
    name: 'box turned about z',
    shapes: [shape({ kind: 'box', size: [0.3, 0.2, 0.1] }, affine([0, 0, 0.05], boxRotation))],
    primitives: [[SolidPrimitiveType.BOX, [0.3, 0.2, 0.1]]],
    meshes: 0,
    probes: [
      solid(boxAt([0.14, 0.09, 0.04]), true),
      solid(boxAt([-0.14, -0.09, -0.04]), true),
      solid(boxAt([0.16, 0, 0]), false),
      solid(boxAt([0, 0.11, 0]), false),
      solid(boxAt([0, 0, -0.06]), false),
    ],
  },
  {
    name: 'sphere',
    shapes: [shape({ kind: 'sphere', radius: 0.1 }, affine([0, 0, 0.2]))],
    primitives: [[SolidPrimitiveType.SPHERE, [0.1]]],
    meshes: 0,
    probes: [solid([0, 0, 0.29], true), solid([0.07, 0.07, 0.2], true), solid([0, 0, 0.31], false), solid([0.08, 0.08, 0.2], false)],
  },
  {
    name: "cylinder along Choreonoid's +Y",
    shapes: [shape(cylinderY(0.05, 0.4), affine([0.1, 0, 0]))],
    primitives: [[SolidPrimitiveType.CYLINDER, [0.4, 0.05]]],
    meshes: 0,
    probes: [
      solid([0.1, 0.18, 0], true),
      solid([0.1, -0.18, 0], true),
      solid([0.1, 0.22, 0], false),
      solid([0.14, 0, 0], true),
      solid([0.16, 0, 0], false),
      solid([0.1, 0, 0.045], true),
      solid([0.1, 0, 0.055], false),
    ],
    check(o) {
      // The CYLINDER's z axis, turned by its pose, runs along the body's y.
      const p = fromMsg(o.primitive_poses[0]!);
      expect(p.translation.map((v, i) => v - [0.1, 0, 0][i]!).every((d) => Math.abs(d) < 1e-12)).toBe(true);
      mv(p.rotation, [0, 0, 1]).forEach((v, i) => expect(v).toBeCloseTo([0, 1, 0][i]!, 12));
    },
  },
  {
    name: 'cylinder scaled 2 across, 3 along',
    shapes: [shape(cylinderY(0.05, 0.4), affine([0, 0, 0], [[2, 0, 0], [0, 3, 0], [0, 0, 2]]))],
    primitives: [[SolidPrimitiveType.CYLINDER, [1.2, 0.1]]],
    meshes: 0,
    probes: [solid([0.09, 0, 0], true), solid([0.11, 0, 0], false), solid([0, 0.58, 0], true), solid([0, 0.62, 0], false)],
  },
  {
    name: 'cone, apex along +Y',
    shapes: [shape({ kind: 'cone', radius: 0.1, height: 0.2, bottom: true, side: true })],
    primitives: [[SolidPrimitiveType.CONE, [0.2, 0.1]]],
    meshes: 0,
    probes: [
      // Radius at height y: 0.1·(0.1 − y)/0.2.
      solid([0, 0.09, 0], true),
      solid([0.05, 0.09, 0], false),
      solid([0.09, -0.09, 0], true),
      solid([0.09, 0.09, 0], false),
      solid([0, 0.11, 0], false),
      solid([0, -0.11, 0], false),
      solid([0.04, 0, 0], true),
      solid([0.06, 0, 0], false),
      solid([0.098, -0.09, 0], false),
    ],
    check(o) {
      mv(fromMsg(o.primitive_poses[0]!).rotation, [0, 0, 1]).forEach((v, i) => expect(v).toBeCloseTo([0, 1, 0][i]!, 12));
    },
  },
  {
    name: 'capsule: a cylinder and two spheres',
    shapes: [shape({ kind: 'capsule', radius: 0.05, height: 0.1 }, affine([0, 0, 0.3]))],
    primitives: [
      [SolidPrimitiveType.CYLINDER, [0.1, 0.05]],
      [SolidPrimitiveType.SPHERE, [0.05]],
      [SolidPrimitiveType.SPHERE, [0.05]],
    ],
    meshes: 0,
    probes: [
      solid([0, 0.09, 0.3], true),
      solid([0, -0.09, 0.3], true),
      solid([0, 0.11, 0.3], false),
      solid([0, -0.11, 0.3], false),
      solid([0.045, 0, 0.3], true),
      solid([0.055, 0, 0.3], false),
      solid([0.03, 0.08, 0.3], true),
      // Inside a cylinder over the whole length, outside the rounded end.
      solid([0.04, 0.09, 0.3], false),
    ],
    check(o) {
      const ends = o.primitive_poses.slice(1).map((p) => fromMsg(p).translation[1]).sort();
      expect(ends[0]).toBeCloseTo(-0.05, 12);
      expect(ends[1]).toBeCloseTo(0.05, 12);
    },
  },
  {
    name: 'sphere stretched along y (an ellipsoid): a mesh, a surface',
    shapes: [shape({ kind: 'sphere', radius: 0.1 }, affine([0, 0, 0], [[1, 0, 0], [0, 2, 0], [0, 0, 1]]))],
    primitives: [],
    meshes: 1,
    probes: [
      onSurface([0.1, 0, 0], true, 0.01),
      onSurface([0, 0.2, 0], true, 0.01),
      onSurface([0, -0.2, 0], true, 0.01),
      onSurface([0, 0, -0.1], true, 0.01),
      onSurface([0, 0.23, 0], false, 0.01),
      // MoveIt's meshes are surfaces: the middle of the ellipsoid touches nothing.
      onSurface([0, 0, 0], false, 0.01),
    ],
  },
  {
    name: 'sheared box: a mesh',
    shapes: [shape({ kind: 'box', size: [0.1, 0.1, 0.1] }, affine([0, 0, 0], [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]))],
    primitives: [],
    meshes: 1,
    probes: [
      onSurface([0, 0, 0.05], true),
      onSurface([0, 0, 0.07], false),
      // Corner (x, y, z) = (±0.05, ±0.05, ±0.05) goes to (x + 0.5·y, y, z).
      onSurface([0.075, 0.05, 0.05], true),
      onSurface([0.025, -0.05, 0.05], true),
      onSurface([0.05, -0.05, 0.05], false),
    ],
  },
  {
    name: 'cone without a bottom: an open surface, a mesh',
    shapes: [shape({ kind: 'cone', radius: 0.1, height: 0.2, bottom: false, side: true })],
    primitives: [],
    meshes: 1,
    probes: [onSurface([0, 0.1, 0], true), onSurface([0, 0, 0], false)],
  },
  {
    name: 'STL mesh file (a tetrahedron) moved along x',
    shapes: [shape({ kind: 'meshFile', path: stlFile, uri: stlFile, format: 'stl' }, affine([0.5, 0, 0]))],
    primitives: [],
    meshes: 1,
    probes: [
      onSurface([0.7, 0, 0], true),
      onSurface([0.5, 0, 0.2], true),
      onSurface([0.5 + 0.2 / 3, 0.2 / 3, 0.2 / 3], true),
      onSurface([0.7, 0.2, 0.2], false),
      onSurface([0.53, 0.03, 0.03], false),
    ],
  },
];

const body = (shapes: Shape[], extraLinks: RobotModel['links'] = []): RobotModel => ({
  name: 'obstacle',
  sourceFile: '/models/obstacle.body',
  format: 'body',
  root: 'BASE',
  // The root's offset (the file's initial root pose) gives way to the placement: it must not show up.
  links: [link('BASE', null, joint('BASE', 'fixed'), pose([3, 3, 3], rx(1)), { collisions: shapes, visuals: shapes }), ...extraLinks],
  devices: [],
  extraJoints: [],
  warnings: [],
});

// --- the test's own reading of the message ------------------------------------------------------------
function insideSolid(type: number, d: number[], [x, y, z]: Vec3): boolean {
  switch (type) {
    case SolidPrimitiveType.BOX:
      return Math.abs(x) <= d[0]! / 2 && Math.abs(y) <= d[1]! / 2 && Math.abs(z) <= d[2]! / 2;
    case SolidPrimitiveType.SPHERE:
      return x * x + y * y + z * z <= d[0]! * d[0]!;
    case SolidPrimitiveType.CYLINDER:
      return Math.abs(z) <= d[0]! / 2 && Math.hypot(x, y) <= d[1]!;
    case SolidPrimitiveType.CONE:
      // shape_msgs: circular base at z = −height/2, tip at +height/2.
      return Math.abs(z) <= d[0]! / 2 && Math.hypot(x, y) <= (d[1]! * (d[0]! / 2 - z)) / d[0]!;
    default:
      throw new Error(`primitive type ${type}`);
  }
}

/** Distance from p to triangle abc (closest point by regions, Ericson's Real-Time Collision Detection 5.1.5). */
function triangleDistance(p: Vec3, a: Vec3, b: Vec3, c: Vec3): number {
  const sub = (u: Vec3, v: Vec3): Vec3 => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const dot = (u: Vec3, v: Vec3): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const at = (u: Vec3, s: Vec3, k: number): Vec3 => [u[0] + s[0] * k, u[1] + s[1] * k, u[2] + s[2] * k];
  const dist = (q: Vec3): number => Math.hypot(...sub(p, q));
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return dist(a);
  const bp = sub(p, b);
  const d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return dist(b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return dist(at(a, ab, d1 / (d1 - d3)));
  const cp = sub(p, c);
  const d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return dist(c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return dist(at(a, ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return dist(at(b, sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6))));
  const denom = 1 / (va + vb + vc);
  return dist(at(at(a, ab, vb * denom), ac, vc * denom));
}

/** Whether a probe sphere at p (header frame) touches the object, reading the message as shape_msgs defines it. */
function touches(o: CollisionObject, p: Vec3, r: number): boolean {
  const object = fromMsg(o.pose);
  const solids = o.primitives.some((s, i) => insideSolid(s.type, s.dimensions, apply(invertPose(compose(object, fromMsg(o.primitive_poses[i]!))), p)));
  if (solids) return true;
  return o.meshes.some((m, i) => {
    const at = compose(object, fromMsg(o.mesh_poses[i]!));
    const v = m.vertices.map((q) => apply(at, [q.x, q.y, q.z]));
    return m.triangles.some((t) => triangleDistance(p, v[t.vertex_indices[0]]!, v[t.vertex_indices[1]]!, v[t.vertex_indices[2]]!) <= r);
  });
}

/** The object as fcl_scene's input lines. */
function fclLines(o: CollisionObject): string[] {
  const pose = (m: PoseMsg): string => [m.position.x, m.position.y, m.position.z, m.orientation.x, m.orientation.y, m.orientation.z, m.orientation.w].join(' ');
  const name: Record<number, string> = { [SolidPrimitiveType.BOX]: 'box', [SolidPrimitiveType.SPHERE]: 'sphere', [SolidPrimitiveType.CYLINDER]: 'cylinder', [SolidPrimitiveType.CONE]: 'cone' };
  const lines = [`object ${pose(o.pose)}`];
  o.primitives.forEach((s, i) => lines.push(`${name[s.type]} ${pose(o.primitive_poses[i]!)} ${s.dimensions.join(' ')}`));
  o.meshes.forEach((m, i) => {
    const v = m.vertices.flatMap((q) => [q.x, q.y, q.z]).join(' ');
    const t = m.triangles.flatMap((x) => x.vertex_indices).join(' ');
    lines.push(`mesh ${pose(o.mesh_poses[i]!)} ${m.vertices.length} ${m.triangles.length} ${v} ${t}`);
  });
  return lines;
}

/** A probe given in the body's frame, in the object's header frame: F⁻¹·B·p. */
const inFrame = (p: Vec3): Vec3 => apply(invertPose(FRAME_POSE), apply(BODY_POSE, p));

describe('collision objects from a static body', () => {
  const built = CASES.map((c) => ({ c, result: sceneObject(body(c.shapes), { id: 'obstacle', rootPose: BODY_POSE, frame: { name: FRAME, pose: FRAME_POSE } }) }));

  it.each(built.map((b) => [b.c.name, b] as const))('%s: the expected primitives and meshes, a valid message for Humble and Jazzy', (_, { c, result }) => {
    expect(result.warnings).toEqual([]);
    const o = result.object!;
    expect(o.operation).toBe(CollisionObjectOperation.ADD);
    expect(o.header.frame_id).toBe(FRAME);
    expect(o.primitives.map((p) => [p.type, p.dimensions.map((d) => Number(d.toFixed(12)))])).toEqual(c.primitives);
    expect(o.primitive_poses).toHaveLength(o.primitives.length);
    expect(o.meshes).toHaveLength(c.meshes);
    expect(o.mesh_poses).toHaveLength(c.meshes);
    c.check?.(o);
    // The object sits where the body's root stands, seen from the frame: F⁻¹·B.
    const expected = compose(invertPose(FRAME_POSE), BODY_POSE);
    const got = fromMsg(o.pose);
    for (let i = 0; i < 3; i++) {
      expect(got.translation[i]).toBeCloseTo(expected.translation[i]!, 12);
      for (let j = 0; j < 3; j++) expect(got.rotation[i]![j]).toBeCloseTo(expected.rotation[i]![j]!, 12);
    }
    if (partWith('CollisionObject against the installed moveit_msgs', installedMoveitMessages)) {
      for (const distro of ['humble', 'jazzy'] as const) expect(checkMessage('moveit_msgs/msg/CollisionObject', o, distro)).toEqual([]);
    }
  });

  it.each(built.map((b) => [b.c.name, b] as const))('%s: probes inside or on the geometry touch the object, probes clear of it do not (shape_msgs read by the test)', (_, { c, result }) => {
    const verdicts = c.probes.map((p) => touches(result.object!, inFrame(p.at), p.r));
    expect(verdicts).toEqual(c.probes.map((p) => p.hit));
  });

  it.skipIf(withoutFcl)('FCL, as MoveIt builds the objects, agrees on every probe of every case', () => {
    for (const { c, result } of built) {
      const probes = c.probes.map((p) => {
        const q = inFrame(p.at);
        return `probe ${q.join(' ')} ${p.r}`;
      });
      expect(fclScene([...fclLines(result.object!), ...probes]), c.name).toEqual(c.probes.map((p) => p.hit));
    }
  });

  it('links below the root are placed by their offsets and named as subframes', () => {
    const top = link('top', 'BASE', joint('top_joint', 'fixed'), pose([0, 0, 0.7], rx(Math.PI / 2)), { collisions: [shape(cylinderY(0.05, 0.2))] });
    const model = body([shape({ kind: 'box', size: [0.2, 0.2, 0.2] })], [top]);
    const o = sceneObject(model, { id: 'shelf', rootPose: BODY_POSE, frame: { name: FRAME, pose: FRAME_POSE } }).object!;
    expect(o.subframe_names).toEqual(['BASE', 'top']);
    expect(fromMsg(o.subframe_poses[1]!).translation.map((v) => Number(v.toFixed(12)))).toEqual([0, 0, 0.7]);
    // top's y (the cylinder's axis) is the body's z after the quarter turn about x.
    const probes: Probe[] = [solid([0, 0, 0.79], true), solid([0, 0, 0.81], false), solid([0.04, 0, 0.7], true), solid([0, 0.06, 0.7], false), solid([0, 0, 0.09], true)];
    expect(probes.map((p) => touches(o, inFrame(p.at), p.r))).toEqual(probes.map((p) => p.hit));
    if (!withoutFcl) expect(fclScene([...fclLines(o), ...probes.map((p) => `probe ${inFrame(p.at).join(' ')} ${p.r}`)])).toEqual(probes.map((p) => p.hit));
  });

  it('a body without collision geometry gives no object (MoveIt refuses an object without shapes); an unreadable shape is a located warning', () => {
    expect(sceneObject(body([]), { id: 'ghost', rootPose: BODY_POSE, frame: { name: FRAME, pose: FRAME_POSE } })).toEqual({ object: null, warnings: [] });
    const dae = shape({ kind: 'meshFile', path: '/models/part.dae', uri: 'part.dae', format: 'dae' });
    const r = sceneObject(body([dae, shape({ kind: 'sphere', radius: 0.1 })]), { id: 'x', rootPose: BODY_POSE, frame: { name: FRAME, pose: FRAME_POSE } });
    expect(r.object!.primitives).toHaveLength(1);
    expect(r.warnings).toEqual(["/models/obstacle.body: warning: link 'BASE': collision shape left out of the planning scene: /models/part.dae: COLLADA collision meshes are not read"]);
  });

  it('REMOVE names only the id; the colour is the first visual material', () => {
    const o = removeObject('table', FRAME);
    expect(o).toMatchObject({ id: 'table', operation: CollisionObjectOperation.REMOVE, primitives: [], meshes: [] });
    if (partWith('CollisionObject against the installed moveit_msgs', installedMoveitMessages)) expect(checkMessage('moveit_msgs/msg/CollisionObject', o, 'humble')).toEqual([]);
    const coloured = body([shape({ kind: 'sphere', radius: 0.1 }, affine([0, 0, 0]), [0.2, 0.4, 0.6])]);
    expect(objectColor(coloured, 'ball')).toEqual({ id: 'ball', color: { r: 0.2, g: 0.4, b: 0.6, a: 1 } });
    expect(objectColor(body([]), 'none')).toBeNull();
  });
});

describe("the planning scene's extra solids in our own checker", () => {
  it.each([
    // Cone: radius 0.095 at z = −0.09, 0.005 at z = 0.09.
    ['cone', { kind: 'cone', radius: 0.1, length: 0.2 }, [0, 0, 0.1], [[0.09, 0, -0.09], [0, 0.004, 0.09]], [[0.097, 0, -0.09], [0, 0.006, 0.09]]],
    // Capsule: a cylinder of radius 0.05 over |z| ≤ 0.05, rounded beyond.
    ['capsule', { kind: 'capsule', radius: 0.05, length: 0.1 }, [0, 0, 0.1], [[0.049, 0, 0.05], [0.03, 0, 0.085]], [[0.051, 0, 0], [0.04, 0, 0.09]]],
  ] as const)('%s: along z (top at %j), its surface on the solid, points inside in, outside out', (_, p, top, inside, outside) => {
    const mesh = primitiveMesh(p, 32);
    const v = mesh.positions;
    let highest: Vec3 = [0, 0, -Infinity];
    for (let i = 0; i < v.length; i += 3) {
      const q: Vec3 = [v[i]!, v[i + 1]!, v[i + 2]!];
      if (q[2] > highest[2]) highest = q;
      expect(insidePrimitive(p, q[0] * 0.999, q[1] * 0.999, q[2] * 0.999)).toBe(true);
    }
    highest.forEach((x, i) => expect(x).toBeCloseTo(top[i]!, 12));
    expect(insidePrimitive(p, 0, 0, top[2] + 0.001)).toBe(false);
    expect(insidePrimitive(p, 0, 0, -top[2] - 0.001)).toBe(false);
    for (const q of inside) expect(insidePrimitive(p, q[0], q[1], q[2]), JSON.stringify(q)).toBe(true);
    for (const q of outside) expect(insidePrimitive(p, q[0], q[1], q[2]), JSON.stringify(q)).toBe(false);
  });
});

describe('which bodies are static', () => {
  const withJoint = (type: 'fixed' | 'revolute' | 'prismatic' | 'free' | 'pseudo_continuous_track'): RobotModel => {
    const b = body([]);
    return { ...b, links: [...b.links, link('child', 'BASE', joint('child_joint', type), pose([0, 0, 1]))] };
  };
  it.each([
    ['fixed root, fixed child', withJoint('fixed'), null],
    ['fixed root, a crawler track', withJoint('pseudo_continuous_track'), null],
    ['fixed root, a revolute joint', withJoint('revolute'), "its joint 'child_joint' moves (revolute)"],
    ['fixed root, a prismatic joint', withJoint('prismatic'), "its joint 'child_joint' moves (prismatic)"],
    ['fixed root, a free child', withJoint('free'), "its joint 'child_joint' moves (free)"],
    ['free root', { ...body([]), links: [{ ...body([]).links[0]!, joint: joint('BASE', 'free') }] }, "its root link 'BASE' is not fixed (joint type free)"],
  ] as const)('%s', (_, model, reason) => {
    expect(movingPart(model)).toBe(reason);
  });
});
