// The small things a user meets first: the version, a file that is not a model, a joint value outside
// its range, counts in words, link and shape names a viewer can index, and the conventions rule itself.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { loadRobotModel } from '../src/load.js';
import { ModelLoadError } from '../src/model/errors.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { uniqueNamer } from '../src/model/unique-name.js';
import { toUrdf } from '../src/urdf/index.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { child, childrenNamed, parseXml } from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';

const dir = scratchDir('cli-details-');

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { XDG_CACHE_HOME: dir } });
  return { code, stdout, stderr };
}

const tank = join(corpusDir, 'choreonoid/share/model/Tank/Tank.body');
const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');

describe('the CLI', () => {
  test('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await run(flag);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`body-bridge ${version}\n`);
    }
  });

  test.each([
    ['robot.urdf', /robot\.urdf.*this is a URDF file, not a model format body_bridge reads.*\.body.*\.wrl/s],
    ['robot.sdf', /an SDFormat file/],
    ['robot.txt', /"\.txt" is not a model file extension/],
  ])('%s is refused by its format, located, without a YAML parse error', async (name, message) => {
    const file = join(dir, name);
    writeFileSync(file, '<?xml version="1.0"?>\n<robot name="r">\n  <link name="a"/>\n</robot>\n');
    const r = await run('check', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(file);
    expect(r.stderr).not.toMatch(/YAML|Implicit keys/);
    expect(() => loadRobotModel(file)).toThrow(ModelLoadError);
  });

  test('tf --joint outside the joint range warns with the range and still uses the value; inside it does not warn', async () => {
    const outside = await run('tf', pa10, '--joint', 'J1=4', '--json');
    expect(outside.code).toBe(0);
    const model = loadRobotModel(pa10, { shapes: false });
    const j1 = model.links.find((l) => l.joint.name === 'J1')!.joint;
    expect(outside.stderr).toContain(`J1=4 is outside the joint's range [${j1.lower}, ${j1.upper}]`);
    expect((JSON.parse(outside.stdout) as { joints: Record<string, number> }).joints.J1).toBe(4);
    const inside = await run('tf', pa10, '--joint', 'J1=0.5');
    expect(inside.code).toBe(0);
    expect(inside.stderr).toBe('');
  });

  test('check counts in words: 1 link, 1 device', async () => {
    const file = join(dir, 'one.body');
    writeFileSync(
      file,
      'format: ChoreonoidBody\nformat_version: 2.0\nname: one\nlinks:\n  - name: BASE\n    joint_type: fixed\n    elements:\n      - type: ForceSensor\n        name: fs\n',
    );
    const r = await run('check', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ok: 1 link, 0 joints, 1 device\n$/);
  });

  test('unknown --link-names / --root-inertia values are usage errors', async () => {
    expect((await run('urdf', pa10, '--link-names', 'gazebo')).code).toBe(2);
    expect((await run('tf', pa10, '--root-inertia', 'nowhere')).code).toBe(2);
  });
});

describe('names a viewer can index', () => {
  test("a link's visuals and collisions have distinct names (Tank's wheels share one shape name)", () => {
    const { xml } = toUrdf(applyRosConventions(loadRobotModel(tank)).model, { meshDir: join(dir, 'm') });
    let shared = 0;
    for (const link of childrenNamed(parseXml(xml), 'link')) {
      for (const tag of ['visual', 'collision']) {
        const names = childrenNamed(link, tag).map((v) => v.attributes.name).filter((n): n is string => n !== undefined);
        expect(new Set(names).size, `${link.attributes.name} ${tag}s: ${names.join(', ')}`).toBe(names.length);
        shared += names.filter((n) => /_\d+$/.test(n)).length;
      }
    }
    expect(shared).toBeGreaterThan(0);
  });

  test('uniqueNamer: the name itself when free, then _2, _3, never one already taken', () => {
    const name = uniqueNamer(['a', 'a_3']);
    expect(['b', 'a', 'a', 'a', 'b'].map((n) => name(n))).toEqual(['b', 'a_2', 'a_4', 'a_5', 'b_2']);
  });

  test('uniqueNamer with derived names: a name is free only when the names made from it are free too', () => {
    const name = uniqueNamer(['cam_optical_frame', 'cam_2']);
    const optical = (f: string): string[] => [`${f}_optical_frame`];
    expect(name('cam', optical)).toBe('cam_3');
    expect(name('cam_3_optical_frame')).toBe('cam_3_optical_frame');
    expect(name('cam', optical)).toBe('cam_4');
  });
});

describe('ROS conventions', () => {
  const model = loadRobotModel(pa10);

  test('PA10: every link named like a joint gets _link; joints, the root, devices and parents follow', () => {
    const { model: ros, renamed, rootInertiaLink } = applyRosConventions(model);
    expect([...renamed.keys()]).toEqual(model.links.slice(1).map((l) => l.name));
    expect(ros.links.map((l) => l.name)).toEqual(['BASE', ...model.links.slice(1).map((l) => `${l.name}_link`), 'BASE_inertia']);
    expect(ros.links.map((l) => l.joint.name)).toEqual([...model.links.map((l) => l.joint.name), 'BASE_inertia_joint']);
    for (const l of ros.links.slice(1)) expect(ros.links.some((p) => p.name === l.parent)).toBe(true);
    expect(rootInertiaLink).toBe('BASE_inertia');
    expect(ros.links[0]!.mass).toBe(0);
    expect(ros.links.at(-1)!.mass).toBe(model.links[0]!.mass);
  });

  test('applying the conventions twice changes nothing more; the model rule with mass on the root is the identity', () => {
    const once = applyRosConventions(model).model;
    const twice = applyRosConventions(once);
    expect(twice.renamed.size).toBe(0);
    expect(twice.rootInertiaLink).toBe(null);
    expect(twice.model).toBe(once);
    expect(applyRosConventions(model, { linkNames: 'model', rootInertia: 'root' }).model).toBe(model);
  });

  test('with a world frame the root is no longer the URDF root: its mass stays', () => {
    expect(applyRosConventions(model, { worldFrame: 'world' }).rootInertiaLink).toBe(null);
  });

  test("a device's link and a closed loop's links follow the renamed link", () => {
    const sr1 = loadRobotModel(join(corpusDir, 'choreonoid/share/model/SR1/SR1.body'));
    const { model: ros, renamed } = applyRosConventions(sr1);
    const names = new Set(ros.links.map((l) => l.name));
    for (const d of ros.devices) expect(names.has(d.link), d.name).toBe(true);
    expect(sr1.devices.some((d) => renamed.has(d.link))).toBe(true);
    const closed = loadRobotModel(join(corpusDir, 'choreonoid/share/model/misc/ClosedLinkSample.body'));
    const closedRos = applyRosConventions(closed).model;
    const closedNames = new Set(closedRos.links.map((l) => l.name));
    expect(closedRos.extraJoints.length).toBeGreaterThan(0);
    for (const x of closedRos.extraJoints) expect(closedNames.has(x.link1) && closedNames.has(x.link2)).toBe(true);
  });

  test('the URDF keeps no joint named like a link (what sdformat refuses)', () => {
    const doc = parseXml(toUrdf(applyRosConventions(model).model, { meshDir: join(dir, 'm') }).xml);
    const links = new Set(childrenNamed(doc, 'link').map((l) => l.attributes.name));
    for (const j of childrenNamed(doc, 'joint')) expect(links.has(j.attributes.name), j.attributes.name).toBe(false);
    expect(child(childrenNamed(doc, 'link').find((l) => l.attributes.name === 'BASE')!, 'inertial')).toBeUndefined();
  });
});
