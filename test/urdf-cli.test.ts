// `body-bridge urdf` and `body-bridge tf` end to end on the SimpleTank tutorial model: the URDF the
// command writes goes through check_urdf and KDL, and KDL's poses must equal what `tf` prints.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTf, type TfJson } from '../src/cli/tf.js';
import type { CommandIo } from '../src/cli/command.js';
import { runUrdf } from '../src/cli/urdf.js';
import { runCli } from '../src/cli/main.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { partWith } from './support/peer-skip.js';
import { checkUrdf, checkUrdfPeer, child, childrenNamed, kdlForwardKinematics, kdlPeers, parseXml, poseDifference } from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';

requireShared();
const tank = join(corpusDir, 'choreonoid/share/model/Tank/SimpleTank.body');
const work = scratchDir('bb-urdf-cli-');

async function run(command: typeof runUrdf, argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { XDG_CACHE_HOME: join(work, 'cache'), ...env } };
  const status = await command(argv, io);
  return { status, stdout, stderr };
}

describe('body-bridge urdf', () => {
  it('prints the URDF and writes its meshes to --mesh-dir', async () => {
    const meshes = join(work, 'm1');
    const r = await run(runUrdf, [tank, '--mesh-dir', meshes]);
    expect(r.status, r.stderr).toBe(0);
    const doc = parseXml(r.stdout);
    expect(doc.attributes.name).toBe('SimpleTank');
    expect(childrenNamed(doc, 'link').map((l) => l.attributes.name)).toEqual(
      expect.arrayContaining(['CHASSIS', 'TURRET_Y_link', 'TURRET_P_link', 'TRACK_L_link', 'TRACK_R_link', 'Camera', 'Camera_optical_frame', 'Light']),
    );
    // Joints keep Choreonoid's names (what joint_states carry); only links named like a joint are renamed.
    expect(childrenNamed(doc, 'joint').map((j) => j.attributes.name)).toEqual(expect.arrayContaining(['TURRET_Y', 'TURRET_P']));
    const meshUris = childrenNamed(doc, 'link').flatMap((l) => [...childrenNamed(l, 'visual'), ...childrenNamed(l, 'collision')])
      .map((v) => child(child(v, 'geometry')!, 'mesh')?.attributes.filename)
      .filter((f): f is string => f !== undefined);
    // The tracks' Extrusions and the cone-shaped light become meshes; all of them are in the mesh dir.
    expect(meshUris.length).toBeGreaterThan(0);
    const files = readdirSync(meshes);
    for (const u of meshUris) expect(files).toContain(u.split('/').pop());
  });

  it('-o writes the file atomically (nothing else left next to it); check_urdf accepts it', async () => {
    const out = join(work, 'out');
    const r = await run(runUrdf, [tank, '-o', join(out, 'tank.urdf'), '--mesh-dir', join(out, 'meshes'), '--world-frame', 'world']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(out).sort()).toEqual(['meshes', 'tank.urdf']);
    if (partWith('urdf -o: check_urdf on the file written', checkUrdfPeer())) {
      const c = checkUrdf(join(out, 'tank.urdf'));
      expect(c.ok, c.output).toBe(true);
      expect(c.output).toContain('root Link: world');
    }
    const world = childrenNamed(parseXml(readFileSync(join(out, 'tank.urdf'), 'utf8')), 'joint').find((j) => child(j, 'parent')?.attributes.link === 'world');
    expect(world?.attributes.type).toBe('floating');
  });

  it('uses the documented default mesh directory under $XDG_CACHE_HOME', async () => {
    const r = await run(runUrdf, [tank]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`file://${join(work, 'cache', 'body_bridge', 'meshes')}/`);
    expect(readdirSync(join(work, 'cache', 'body_bridge', 'meshes')).length).toBeGreaterThan(0);
  });

  it('fails with status 1 and a located message for a missing model, 2 for bad usage', async () => {
    const missing = await run(runUrdf, [join(work, 'nope.body')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('nope.body');
    expect((await run(runUrdf, [])).status).toBe(2);
    expect((await run(runUrdf, [tank, '--bogus'])).status).toBe(2);
    const clash = await run(runUrdf, [tank, '--world-frame', 'CHASSIS', '--mesh-dir', join(work, 'm2')]);
    expect(clash.status).toBe(1);
    expect(clash.stderr).toMatch(/already a frame/);
  });
});

describe('the dispatcher', () => {
  it('runs urdf and tf by name, and takes the bundled example directory as the model', async () => {
    const urdf = join(work, 'example', 'example.urdf');
    const r = await run(((argv: string[], io: CommandIo) => runCli(argv, io)) as typeof runUrdf, ['urdf', join(projectRoot, 'models'), '-o', urdf, '--mesh-dir', join(work, 'example', 'meshes')]);
    expect(r.status, r.stderr).toBe(0);
    if (partWith('the dispatcher: check_urdf on the example', checkUrdfPeer())) {
      const c = checkUrdf(urdf);
      expect(c.ok, c.output).toBe(true);
    }
    const tf = await run(((argv: string[], io: CommandIo) => runCli(argv, io)) as typeof runUrdf, ['tf', join(projectRoot, 'models'), '--json']);
    expect(tf.status, tf.stderr).toBe(0);
    const frames = (JSON.parse(tf.stdout) as TfJson).frames;
    expect(frames.length).toBeGreaterThan(1);
    if (!partWith('the dispatcher: KDL on the example', ...kdlPeers())) return;
    const [kdl] = kdlForwardKinematics(urdf, [{}]);
    expect(kdl!.size).toBe(frames.length);
    for (const f of frames) expect(poseDifference(kdl!.get(f.name)!, { translation: f.root.xyz, rotation: f.root.rotation }), f.name).toBeLessThan(1e-12);
  });
});

describe('body-bridge tf', () => {
  it('--json gives every frame with local and root poses; KDL on the URDF agrees', async () => {
    const urdf = join(work, 'tf', 'tank.urdf');
    expect((await run(runUrdf, [tank, '-o', urdf, '--mesh-dir', join(work, 'tf', 'meshes')])).status).toBe(0);
    const r = await run(runTf, [tank, '--json', '--joint', 'TURRET_Y=0.7', '--joint', 'TURRET_P=-0.1']);
    expect(r.status, r.stderr).toBe(0);
    const tf = JSON.parse(r.stdout) as TfJson;
    expect(tf.root).toBe('CHASSIS');
    expect(tf.frames[0]).toMatchObject({ name: 'CHASSIS', parent: null, root: { xyz: [0, 0, 0] } });
    expect(tf.frames.map((f) => f.name)).toEqual(expect.arrayContaining(['Camera', 'Camera_optical_frame', 'Light']));
    const [kdl] = partWith('tf --json: KDL on the URDF', ...kdlPeers()) ? kdlForwardKinematics(urdf, [{ TURRET_Y: 0.7, TURRET_P: -0.1 }]) : [undefined];
    if (kdl) expect(kdl.size).toBe(tf.frames.length);
    for (const f of tf.frames) {
      if (kdl) expect(poseDifference(kdl.get(f.name)!, { translation: f.root.xyz, rotation: f.root.rotation }), f.name).toBeLessThan(1e-12);
      const parent = f.parent === null ? undefined : tf.frames.find((p) => p.name === f.parent);
      if (parent) {
        // root = parent.root · local
        const R = parent.root.rotation, t = parent.root.xyz, l = f.local;
        for (let i = 0; i < 3; i++) {
          const p = t[i]! + R[i]![0]! * l.xyz[0] + R[i]![1]! * l.xyz[1] + R[i]![2]! * l.xyz[2];
          expect(p).toBeCloseTo(f.root.xyz[i]!, 12);
        }
      }
    }
  });

  it('prints a table by default, and rejects unknown joints and non-numbers with status 2', async () => {
    const table = await run(runTf, [tank]);
    expect(table.status).toBe(0);
    expect(table.stdout.split('\n').filter((l) => l.startsWith('Camera_optical_frame ')).length).toBe(1);
    const unknown = await run(runTf, [tank, '--joint', 'NOPE=1']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('TURRET_Y');
    expect((await run(runTf, [tank, '--joint', 'TURRET_Y=abc'])).status).toBe(2);
    expect((await run(runTf, [tank, '--joint', 'TURRET_Y'])).status).toBe(2);
    expect((await run(runTf, [])).status).toBe(2);
  });

  it('--initial starts unnamed joints at their initial positions', async () => {
    const r = await run(runTf, [tank, '--json', '--initial']);
    const tf = JSON.parse(r.stdout) as TfJson;
    // The turret's joints, and the tracks' (their surface frames turn with them).
    expect(Object.keys(tf.joints).sort()).toEqual(['TRACK_L', 'TRACK_R', 'TURRET_P', 'TURRET_Y']);
  });
});
