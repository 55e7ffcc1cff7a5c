// toUrdf / writeUrdf on hand-built models, checked by the real peers (check_urdf, kdl_parser + KDL,
// assimp) and by reading the XML back with an independent reader.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { framePoses, frameTree } from '../src/kinematics/frames.js';
import { linkWorldPoses } from '../src/kinematics/forward.js';
import { transformPoint } from '../src/model/math.js';
import type { Link, Vec3 } from '../src/model/types.js';
import { toUrdf, writeUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { readStl } from '../src/urdf/stl.js';
import { affine, joint, link, pose, sampleRobot, shape } from './support/urdf-models.js';
import { skipWithout } from './support/peer-skip.js';
import {
  assimpInfo,
  assimpPeer,
  checkUrdf,
  checkUrdfPeer,
  child,
  childrenNamed,
  kdlForwardKinematics,
  kdlJoints,
  kdlPeers,
  mv,
  numbers,
  originOf,
  parseXml,
  poseDifference,
  type XmlNodeRead,
} from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';
import { seededRandom } from '../src/moveit/collision-matrix.js';

const work = scratchDir('bb-urdf-writer-');
const withoutCheckUrdf = skipWithout(checkUrdfPeer());
const withoutKdl = skipWithout(...kdlPeers());
const withoutAssimp = skipWithout(assimpPeer());

/** Deterministic pseudo-random numbers (the collision matrix's seeded generator). */
const random = seededRandom;

async function written(name: string, model = sampleRobot(), options: Partial<Parameters<typeof toUrdf>[1]> = {}) {
  const dir = join(work, name);
  const result = toUrdf(model, { meshDir: join(dir, 'meshes'), ...options });
  const file = join(dir, `${name}.urdf`);
  await writeUrdf(result, file);
  return { result, file, doc: parseXml(result.xml), dir };
}

const byName = (doc: XmlNodeRead, tag: string): Map<string, XmlNodeRead> =>
  new Map(childrenNamed(doc, tag).map((n) => [n.attributes.name!, n]));

describe('URDF of a hand-built robot with every joint type, shape kind and device kind', () => {
  it.skipIf(withoutCheckUrdf)('check_urdf accepts it', async () => {
    const { file } = await written('sample');
    const r = checkUrdf(file);
    expect(r.ok, r.output).toBe(true);
    expect(r.output).toContain('root Link: base');
  });

  it('maps joint types and limits as documented', async () => {
    const { doc } = await written('joints');
    const joints = byName(doc, 'joint');
    const typeOf = (n: string): string | undefined => joints.get(n)?.attributes.type;
    expect(typeOf('shoulder')).toBe('revolute');
    expect(typeOf('wheel_joint')).toBe('continuous');
    expect(typeOf('slide')).toBe('prismatic');
    expect(typeOf('free_slide')).toBe('prismatic');
    // A track: its link on a fixed mount; its joint name, which ros2_control drives, on a shapeless surface link.
    expect(typeOf('track_mount')).toBe('fixed');
    expect(child(joints.get('track_mount')!, 'child')?.attributes.link).toBe('track');
    expect(child(joints.get('track_mount')!, 'axis')).toBeUndefined();
    expect(typeOf('track')).toBe('continuous');
    expect(child(joints.get('track')!, 'parent')?.attributes.link).toBe('track');
    expect(child(joints.get('track')!, 'child')?.attributes.link).toBe('track_surface');
    expect(child(joints.get('track')!, 'origin')?.attributes).toEqual({ xyz: '0 0 0', rpy: '0 0 0' });
    expect(byName(doc, 'link').get('track_surface')?.children).toEqual([]);
    expect(childrenNamed(doc, 'body_bridge:joint').find((n) => n.attributes.name === 'track')?.attributes.type).toBe('pseudo_continuous_track');
    expect(typeOf('carried')).toBe('floating');
    expect(typeOf('tool')).toBe('fixed');
    expect(child(joints.get('track')!, 'axis')?.attributes.xyz).toBe('0 1 0');
    expect(child(joints.get('shoulder')!, 'limit')?.attributes).toEqual({ lower: '-1', upper: '1.5', effort: '30', velocity: '2' });
    // Unlimited velocity: half a turn per second (revolute) or a metre per second (prismatic), speeds MoveIt's
    // time parametrisation can use; effort and an unlimited prismatic range stay 1e6.
    expect(child(joints.get('wheel_joint')!, 'limit')?.attributes).toEqual({ effort: '1000000', velocity: String(Math.PI) });
    expect(child(joints.get('free_slide')!, 'limit')?.attributes).toEqual({ lower: '-1000000', upper: '1000000', effort: '1000000', velocity: '1' });
    // Device, optical and scan frames hang from fixed joints.
    expect(typeOf('head_camera_joint')).toBe('fixed');
    expect(joints.get('head_camera_optical_frame_joint')?.children.find((c) => c.name === 'parent')?.attributes.link).toBe('head_camera');
    expect(typeOf('lidar_scan_frame_joint')).toBe('fixed');
    const ext = childrenNamed(doc, 'body_bridge:joint').find((n) => n.attributes.name === 'shoulder');
    expect(ext?.attributes).toMatchObject({ id: '0', initial_position: '0.3', rotor_inertia: '0.0001', gear_ratio: '100' });
    expect(childrenNamed(doc, 'body_bridge:extra_joint')).toHaveLength(1);
  });

  it('reports extra joints as a warning', () => {
    const r = toUrdf(sampleRobot(), { meshDir: join(work, 'w') });
    expect(r.warnings.some((w) => /extra joint/.test(w.message))).toBe(true);
  });

  it.skipIf(withoutKdl)('KDL sees revolute, prismatic and fixed joints where the model moves, and nothing else (a track: its surface turns, its link is fixed)', async () => {
    const { file } = await written('kdl-joints');
    const j = kdlJoints(file);
    expect(j.get('shoulder')).toBe('rotational');
    expect(j.get('wheel_joint')).toBe('rotational');
    expect(j.get('slide')).toBe('translational');
    expect(j.get('track')).toBe('rotational');
    expect(j.get('track_mount')).toBe('fixed');
    expect(j.get('carried')).toBe('fixed');
  });

  it.skipIf(withoutKdl)('KDL forward kinematics equals the frame tree for random joint values (links, device, optical and scan frames)', async () => {
    const model = sampleRobot();
    const { file } = await written('kdl-fk', model);
    const frames = frameTree(model);
    const rnd = random(7);
    const configs = Array.from({ length: 20 }, () => ({
      shoulder: rnd() * 2.5 - 1,
      wheel_joint: rnd() * 20 - 10,
      slide: rnd() * 0.2,
      free_slide: rnd() * 4 - 2,
    }));
    const kdl = kdlForwardKinematics(file, configs);
    configs.forEach((q, i) => {
      const ours = framePoses(frames, new Map(Object.entries(q)));
      expect(kdl[i]!.size).toBe(frames.length);
      for (const f of frames) {
        const theirs = kdl[i]!.get(f.name);
        expect(theirs, f.name).toBeDefined();
        expect(poseDifference(theirs!, ours.get(f.name)!.root), `${f.name} at config ${i}`).toBeLessThan(1e-12);
      }
    });
  });

  it.skipIf(withoutKdl || withoutCheckUrdf)('with a world frame, KDL places the root at its offset: fixed for a fixed root, floating for a free one', async () => {
    const model = sampleRobot();
    const { file, doc } = await written('world', model, { worldFrame: 'world' });
    expect(checkUrdf(file).ok).toBe(true);
    const worldJoint = childrenNamed(doc, 'joint').find((j) => child(j, 'parent')?.attributes.link === 'world');
    expect(worldJoint?.attributes.type).toBe('floating');
    const [kdl] = kdlForwardKinematics(file, [{ shoulder: 0.4 }]);
    const world = linkWorldPoses(model, new Map([['shoulder', 0.4]]));
    for (const l of model.links) expect(poseDifference(kdl!.get(l.name)!, world.get(l.name)!)).toBeLessThan(1e-12);

    const fixedRoot = sampleRobot();
    fixedRoot.links[0]!.joint.type = 'fixed';
    const fixed = await written('world-fixed', fixedRoot, { worldFrame: 'map' });
    expect(childrenNamed(fixed.doc, 'joint').find((j) => child(j, 'parent')?.attributes.link === 'map')?.attributes.type).toBe('fixed');
    expect(() => toUrdf(sampleRobot(), { meshDir: work, worldFrame: 'arm' })).toThrow(/already a frame/);
  });

  it('writes mass properties: CoM as the inertial origin, inertia about the CoM in link axes; frame-only links carry none', async () => {
    const { doc } = await written('inertia');
    const links = byName(doc, 'link');
    const base = child(links.get('base')!, 'inertial')!;
    expect(numbers(child(base, 'origin')?.attributes.xyz)).toEqual([0.01, 0.02, 0.03]);
    expect(child(base, 'origin')?.attributes.rpy).toBe('0 0 0');
    expect(child(base, 'mass')?.attributes.value).toBe('10');
    expect(child(base, 'inertia')?.attributes).toEqual({ ixx: '0.5', ixy: '0.01', ixz: '0.02', iyy: '0.6', iyz: '0.03', izz: '0.7' });
    expect(child(links.get('slider')!, 'inertial')).toBeUndefined();
    for (const frame of ['head_camera', 'head_camera_optical_frame', 'lidar', 'lidar_scan_frame', 'wrist']) {
      expect(links.get(frame)?.children, frame).toEqual([]);
    }
  });

  it('keeps Box and Cylinder primitives (cylinder turned from +Y to +Z), meshes the rest, deduplicates materials', async () => {
    const model = sampleRobot();
    const { doc, result } = await written('geometry', model);
    const base = byName(doc, 'link').get('base')!;
    const [boxVisual, cylVisual] = childrenNamed(base, 'visual');
    expect(child(child(boxVisual!, 'geometry')!, 'box')?.attributes.size).toBe('0.3 0.2 0.1');
    const cyl = child(child(cylVisual!, 'geometry')!, 'cylinder')!;
    expect(Number(cyl.attributes.radius)).toBeCloseTo(0.1, 14);
    expect(Number(cyl.attributes.length)).toBeCloseTo(1.2, 14);
    // The URDF cylinder's +Z must be the model shape's scaled +Y direction.
    const o = originOf(cylVisual!);
    const zAxis = mv(o.rotation, [0, 0, 1]);
    const shapeY = mv(model.links[0]!.visuals[1]!.transform.linear, [0, 1, 0]).map((x) => x / 3);
    zAxis.forEach((v, i) => expect(v).toBeCloseTo(shapeY[i]!, 12));
    expect(childrenNamed(doc, 'material').map((m) => child(m, 'color')?.attributes.rgba)).toEqual(['1 0 0 1', '0 1 0 1']);
    const arm = byName(doc, 'link').get('arm')!;
    for (const v of childrenNamed(arm, 'visual')) expect(child(child(v, 'geometry')!, 'mesh')).toBeDefined();
    // Visual and collision of the same ellipsoid share one content-addressed file.
    const armMeshes = [...childrenNamed(arm, 'visual'), ...childrenNamed(arm, 'collision')].map(
      (v) => child(child(v, 'geometry')!, 'mesh')!.attributes.filename,
    );
    expect(armMeshes[0]).toBe(armMeshes[2]);
    expect(new Set(result.meshes.map((m) => m.name)).size).toBe(result.meshes.length);
  });

  it('bakes scale and shear into meshes exactly: bounds of the URDF geometry equal the model shapes', async () => {
    const model = sampleRobot();
    const { doc } = await written('bounds', model);
    const arm = byName(doc, 'link').get('arm')!;
    const [ellipsoid, sheared] = childrenNamed(arm, 'visual');
    const boundsOf = (v: XmlNodeRead) => {
      const file = fileURLToPath(child(child(v, 'geometry')!, 'mesh')!.attributes.filename!);
      const mesh = readStl(readFileSync(file));
      const o = originOf(v);
      const pts: Vec3[] = [];
      for (let i = 0; i < mesh.positions.length; i += 3) {
        const p: Vec3 = [mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!];
        pts.push(transformPoint({ linear: o.rotation, translation: o.translation }, p));
      }
      return { min: [0, 1, 2].map((k) => Math.min(...pts.map((p) => p[k]!))), max: [0, 1, 2].map((k) => Math.max(...pts.map((p) => p[k]!))) };
    };
    // Ellipsoid radii 0.1, 0.2, 0.1 about (0, 0, 0.2): the poles are vertices, the equator within tessellation.
    const e = boundsOf(ellipsoid!);
    expect(e.min[1]).toBeCloseTo(-0.2, 6);
    expect(e.max[1]).toBeCloseTo(0.2, 6);
    expect(Math.abs(e.max[0]! - 0.1)).toBeLessThan(0.1 * 0.01);
    expect(e.min[2]).toBeGreaterThan(0.1 - 1e-6);
    // Sheared cube: x spans ±(0.05 + 0.5·0.05).
    const s = boundsOf(sheared!);
    expect(s.min[0]).toBeCloseTo(-0.075, 6);
    expect(s.max[0]).toBeCloseTo(0.075, 6);
    expect(s.max[1]).toBeCloseTo(0.05, 6);
  });

  it.skipIf(withoutAssimp)('assimp opens every mesh file written', async () => {
    const { result } = await written('assimp');
    expect(result.meshes.length).toBeGreaterThanOrEqual(4);
    for (const m of result.meshes) {
      const r = assimpInfo(join(result.meshDir, m.name));
      expect(r.ok, r.output).toBe(true);
      expect(r.output).toMatch(new RegExp(`Faces:\\s+${m.triangles}\\b`));
    }
  });

  it('writes atomically into the mesh directory only, and reuses identical files', async () => {
    const { result, dir } = await written('atomic');
    const meshDir = join(dir, 'meshes');
    const names = readdirSync(meshDir).sort();
    expect(names).toEqual(result.meshes.map((m) => m.name).sort());
    expect(readdirSync(dir).sort()).toEqual(['atomic.urdf', 'meshes']);
    for (const n of names) expect(n).toMatch(/^[0-9a-f]{32}\.stl$/);
    const again = await writeUrdf(result);
    expect(again.written).toEqual([]);
    expect(again.reused).toHaveLength(names.length);
    const sync = writeUrdfSync({ ...result, meshDir: join(dir, 'sync') }, join(dir, 'sync', 'x.urdf'));
    expect(sync.written).toHaveLength(names.length);
    expect(readdirSync(join(dir, 'sync')).sort()).toEqual([...names, 'x.urdf'].sort());
    expect(() => writeUrdfSync({ ...result, meshes: [{ name: '../evil.stl', data: new Uint8Array(1), triangles: 0 }] })).toThrow(/leave the mesh directory/);
  });
});

describe('names that could break XML or paths', () => {
  const hostile = 'a"b<c>&d\'e /../../x\tq';
  const model = (): ReturnType<typeof sampleRobot> => {
    const m = sampleRobot();
    m.name = '<robot name="x"> -- &amp;';
    m.sourceFile = '/tmp/a---b--/x-->.body-';
    m.links[2]!.name = hostile;
    m.links[2]!.visuals.push(shape({ kind: 'capsule', radius: 0.1, height: 0.3 }, affine([0, 0, 0]), [0.5, 0.5, 0.5]));
    m.links[2]!.joint.name = `${hostile}_joint`;
    (m.links[2]!.visuals[0] as { name?: string }).name = '../../../etc/passwd';
    m.links.push(link('ctl\u0001name', 'base', joint('ctl', 'fixed'), pose([0, 0, 0])));
    return m;
  };

  it('stays valid URDF with the names read back unchanged (control characters replaced, with a warning)', async () => {
    const { file, doc, result, dir } = await written('hostile', model());
    if (!withoutCheckUrdf) {
      const r = checkUrdf(file);
      expect(r.ok, r.output).toBe(true);
    }
    expect(doc.attributes.name).toBe('<robot name="x"> -- &amp;');
    const comments = result.xml.match(/<!--([\s\S]*?)-->/g)!;
    for (const c of comments) expect(c.slice(4, -3)).not.toMatch(/--|-$/);
    const links = byName(doc, 'link');
    expect(links.has(hostile)).toBe(true);
    expect(links.has('ctl\ufffdname')).toBe(true);
    expect(byName(doc, 'joint').get(`${hostile}_joint`)?.children.find((c) => c.name === 'child')?.attributes.link).toBe(hostile);
    expect(result.warnings.some((w) => w.message.includes('U+FFFD'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['hostile.urdf', 'meshes']);
  });

  it('renames a duplicate joint name with a warning', () => {
    const m = sampleRobot();
    m.links[2]!.joint.name = 'shoulder';
    const r = toUrdf(m, { meshDir: work });
    const names = childrenNamed(parseXml(r.xml), 'joint').map((j) => j.attributes.name);
    expect(names.filter((n) => n === 'shoulder')).toHaveLength(1);
    expect(names).toContain('shoulder_2');
    expect(r.warnings.some((w) => /used twice/.test(w.message))).toBe(true);
  });
});

describe('non-finite numbers', () => {
  it('drop the shape with a warning, or name the frame when the kinematics cannot be written', () => {
    const m = sampleRobot();
    m.links[1]!.visuals.push(shape({ kind: 'box', size: [NaN, 1, 1] }), shape({ kind: 'capsule', radius: Infinity, height: 1 }));
    const r = toUrdf(m, { meshDir: work });
    expect(r.warnings.filter((w) => /left out/.test(w.message))).toHaveLength(2);
    expect(r.xml).not.toMatch(/NaN|Infinity/);
    const broken = sampleRobot();
    broken.links[2]!.offset.translation[0] = NaN;
    expect(() => toUrdf(broken, { meshDir: work })).toThrow(/frame "wheel"/);
  });
});

describe('mesh URIs', () => {
  it('file:// by default; package:// for files inside a ROS package on the package path', () => {
    const root = join(work, 'ws');
    const pkg = join(root, 'src', 'my_pkg');
    mkdirSync(join(pkg, 'meshes'), { recursive: true });
    writeFileSync(join(pkg, 'package.xml'), '<package format="3"><name>my_robot</name></package>');
    const stl = join(pkg, 'meshes', 'part one.stl');
    // A binary STL of one triangle: a mesh rviz loads, so the only warnings are the ones counted below.
    const triangle = Buffer.alloc(84 + 50);
    triangle.writeUInt32LE(1, 80);
    [0, 0, 0, 1, 0, 0, 0, 1, 0].forEach((x, i) => triangle.writeFloatLE(x, 84 + 12 + 4 * i));
    writeFileSync(stl, triangle);
    const m = sampleRobot();
    m.links[1]!.visuals.push(shape({ kind: 'meshFile', path: stl, uri: 'part one.stl', format: 'stl' }, affine([0, 0, 0], [[0.001, 0, 0], [0, 0.001, 0], [0, 0, 0.001]])));
    const plain = toUrdf(m, { meshDir: join(pkg, 'generated') });
    const uris = (xml: string) =>
      childrenNamed(parseXml(xml), 'link').flatMap((l) => childrenNamed(l, 'visual')).map((v) => child(child(v, 'geometry')!, 'mesh')?.attributes).filter((a) => a !== undefined);
    expect(uris(plain.xml).every((a) => a.filename!.startsWith('file:///'))).toBe(true);
    expect(uris(plain.xml).find((a) => a.filename!.endsWith('part%20one.stl'))?.scale).toBe('0.001 0.001 0.001');
    const pkgResult = toUrdf(m, { meshDir: join(pkg, 'generated'), meshUris: 'package', packagePath: [join(root, 'src')], env: {} });
    const pu = uris(pkgResult.xml).map((a) => a.filename!);
    expect(pu).toContain('package://my_robot/meshes/part%20one.stl');
    expect(pu.filter((u) => u.startsWith('package://my_robot/generated/')).length).toBeGreaterThan(0);
    // Only the extra-joint warning and the free body's (sdformat cannot read a floating joint).
    expect(pkgResult.warnings.map((w) => w.message).filter((m) => !/is floating/.test(m))).toHaveLength(1);
    const outside = toUrdf(m, { meshDir: join(work, 'elsewhere'), meshUris: 'package', packagePath: [join(root, 'src')], env: {} });
    // One warning for the mesh directory, however many meshes it holds.
    expect(outside.meshes.length).toBeGreaterThan(1);
    expect(outside.warnings.filter((w) => /not inside a ROS package/.test(w.message))).toHaveLength(1);
    const viaEnv = toUrdf(m, { meshDir: join(pkg, 'generated'), meshUris: 'package', env: { ROS_PACKAGE_PATH: join(root, 'src') } });
    expect(uris(viaEnv.xml).map((a) => a.filename)).toContain('package://my_robot/meshes/part%20one.stl');
  });
});

describe('referenced meshes under a sheared transform', () => {
  it('.stl and .obj are baked into generated STL (vertices = transform · file vertices); .dae is left out with a warning', () => {
    const dir = join(work, 'shear');
    mkdirSync(dir, { recursive: true });
    // A unit right triangle and a unit square (as a quad) in z = 0.
    const obj = join(dir, 'square.obj');
    writeFileSync(obj, 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2/2 3/3 -1/4\n');
    const stl = join(dir, 'tri.stl');
    writeFileSync(stl, 'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n');
    const dae = join(dir, 'x.dae');
    writeFileSync(dae, '<COLLADA/>');
    const shear = affine([1, 2, 3], [[1, 2, 0], [0, 1, 0], [0, 0, 1]]);
    const m = sampleRobot();
    m.links[1]!.visuals = [
      shape({ kind: 'meshFile', path: obj, uri: 'square.obj', format: 'obj' }, shear),
      shape({ kind: 'meshFile', path: stl, uri: 'tri.stl', format: 'stl' }, shear),
      shape({ kind: 'meshFile', path: dae, uri: 'x.dae', format: 'dae' }, shear),
    ];
    const r = toUrdf(m, { meshDir: join(dir, 'meshes') });
    expect(r.warnings.filter((w) => /sheared transform on .*x\.dae/.test(w.message))).toHaveLength(1);
    const visuals = childrenNamed(byName(parseXml(r.xml), 'link').get('arm')!, 'visual');
    expect(visuals).toHaveLength(2);
    const expected = [
      [[1, 2, 3], [2, 2, 3], [4, 3, 3], [3, 3, 3]],
      [[1, 2, 3], [2, 2, 3], [3, 3, 3]],
    ];
    visuals.forEach((v, i) => {
      const name = child(child(v, 'geometry')!, 'mesh')!.attributes.filename!.split('/').pop()!;
      const mesh = readStl(r.meshes.find((f) => f.name === name)!.data);
      const o = originOf(v);
      const pts = new Set<string>();
      for (let k = 0; k < mesh.positions.length; k += 3) {
        const p = transformPoint({ linear: o.rotation, translation: o.translation }, [mesh.positions[k]!, mesh.positions[k + 1]!, mesh.positions[k + 2]!]);
        pts.add(p.map((x) => x.toFixed(6)).join(' '));
      }
      expect([...pts].sort()).toEqual(expected[i]!.map((p) => p.map((x) => x.toFixed(6)).join(' ')).sort());
    });
  });
});

describe('package:// resolution rules', () => {
  it('AMENT_PREFIX_PATH/share packages, the nearest package.xml, and the first directory when there is none', () => {
    const prefix = join(work, 'install');
    const share = join(prefix, 'share', 'robot_description');
    mkdirSync(join(share, 'meshes', 'nested_pkg'), { recursive: true });
    writeFileSync(join(share, 'package.xml'), '<package><name>robot_description</name></package>');
    writeFileSync(join(share, 'meshes', 'nested_pkg', 'package.xml'), '<package>\n  <name> inner </name>\n</package>');
    const loose = join(work, 'loose', 'some_pkg', 'meshes');
    mkdirSync(loose, { recursive: true });
    const uriOf = (meshDir: string, env: NodeJS.ProcessEnv, packagePath: string[] = []) => {
      const m = sampleRobot();
      const r = toUrdf(m, { meshDir, meshUris: 'package', env, packagePath });
      return childrenNamed(parseXml(r.xml), 'link').flatMap((l) => childrenNamed(l, 'visual')).map((v) => child(child(v, 'geometry')!, 'mesh')?.attributes.filename).find((f) => f !== undefined)!;
    };
    expect(uriOf(join(share, 'meshes'), { AMENT_PREFIX_PATH: prefix })).toMatch(/^package:\/\/robot_description\/meshes\/[0-9a-f]{32}\.stl$/);
    expect(uriOf(join(share, 'meshes', 'nested_pkg'), { AMENT_PREFIX_PATH: prefix })).toMatch(/^package:\/\/inner\/[0-9a-f]{32}\.stl$/);
    expect(uriOf(loose, {}, [join(work, 'loose')])).toMatch(/^package:\/\/some_pkg\/meshes\/[0-9a-f]{32}\.stl$/);
    expect(uriOf(loose, {})).toMatch(/^file:\/\/\//);
  });
});

describe('toUrdf is pure', () => {
  it('gives the same document and meshes for the same model', () => {
    const a = toUrdf(sampleRobot(), { meshDir: '/tmp/m' });
    const b = toUrdf(sampleRobot(), { meshDir: '/tmp/m' });
    expect(a.xml).toBe(b.xml);
    expect(a.meshes.map((m) => m.name)).toEqual(b.meshes.map((m) => m.name));
  });

  it('leaves a model without shapes or devices as a bare kinematic tree', () => {
    const m = sampleRobot();
    for (const l of m.links) {
      l.visuals = [];
      l.collisions = [];
    }
    m.devices = [];
    m.extraJoints = [];
    const r = toUrdf(m, { meshDir: '/tmp/m' });
    expect(r.meshes).toEqual([]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'joint "carried" is floating (a free body in the model): kdl_parser and robot_state_publisher treat it as fixed, and Gazebo (sdformat) cannot read it',
    ]);
    // Every link, and the track's surface.
    expect(childrenNamed(parseXml(r.xml), 'link')).toHaveLength(m.links.length + 1);
  });
});

describe('pseudo continuous tracks', () => {
  const tracked = (axis: Vec3, extra: Partial<Link> = {}) => ({
    ...sampleRobot(),
    links: [
      link('base', null, joint('root', 'fixed'), pose([0, 0, 0])),
      link('crawler', 'base', joint('crawler', 'pseudo_continuous_track', { axis }), pose([0, 0.2, 0]), extra),
      // A link that already has the surface's name: the surface takes the next free one.
      link('crawler_surface', 'base', joint('other', 'fixed'), pose([0, -0.2, 0])),
    ],
    devices: [],
    extraJoints: [],
    root: 'base',
  });

  it('a zero axis (a VRML crawler\'s 0 0 0) gives the surface 0 1 0: a continuous joint needs one, and Choreonoid moves no surface then', () => {
    const doc = parseXml(toUrdf(tracked([0, 0, 0]), { meshDir: join(work, 'track') }).xml);
    const joints = byName(doc, 'joint');
    expect(joints.get('crawler')?.attributes.type).toBe('continuous');
    expect(child(joints.get('crawler')!, 'axis')?.attributes.xyz).toBe('0 1 0');
    expect(child(joints.get('crawler')!, 'child')?.attributes.link).toBe('crawler_surface_2');
    expect(child(joints.get('crawler_mount')!, 'child')?.attributes.link).toBe('crawler');
  });

  it('the surface joint keeps the track\'s axis as given and its velocity limit; the frame tree and TF agree on it', () => {
    const m = tracked([0, -1, 0], { joint: joint('crawler', 'pseudo_continuous_track', { axis: [0, -1, 0], velocityLower: -0.5, velocityUpper: 0.5 }) });
    const doc = parseXml(toUrdf(m, { meshDir: join(work, 'track') }).xml);
    const surface = byName(doc, 'joint').get('crawler')!;
    expect(child(surface, 'axis')?.attributes.xyz).toBe('0 -1 0');
    expect(child(surface, 'limit')?.attributes).toMatchObject({ velocity: '0.5' });
    const frames = frameTree(m);
    expect(frames.filter((f) => f.kind === 'track').map((f) => [f.name, f.parent, f.moving, f.link!.joint.name])).toEqual([['crawler_surface_2', 'crawler', true, 'crawler']]);
    // Turned by its joint like any continuous joint, about the axis at the link's origin.
    const at = framePoses(frames, new Map([['crawler', Math.PI / 2]]));
    expect(at.get('crawler_surface_2')!.root.translation).toEqual([0, 0.2, 0]);
    expect(at.get('crawler_surface_2')!.root.rotation[0]![2]).toBeCloseTo(-1, 12);
  });
});
