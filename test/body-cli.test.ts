// `body-bridge info` and `check`: in-process through the dispatcher (runCli), and once through the
// built executable (dist/cli/main.js, built by `npm test`'s tsc step) to check the bin end to end.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, COMMANDS } from '../src/cli/main.js';
import { type InfoJson } from '../src/cli/info.js';
import { compareValues, corpusDir, oracleEntries, projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

const dir = scratchDir('body-cli-');

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: {} });
  return { code, stdout, stderr };
}

const sampleArm = join(projectRoot, 'models/sample_arm.body');

describe('dispatcher', () => {
  test('lists every command; unknown commands and no command are usage errors (exit 2)', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toContain(`  ${c.name}`);
    expect(COMMANDS.map((c) => c.name)).toEqual(expect.arrayContaining(['info', 'check']));
    expect((await run()).code).toBe(2);
    const unknown = await run('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  test('bad options and a missing model argument are usage errors', async () => {
    expect((await run('info')).code).toBe(2);
    expect((await run('info', sampleArm, '--colour')).code).toBe(2);
    expect((await run('check', sampleArm, sampleArm)).code).toBe(2);
  });
});

describe('check', () => {
  test('a good model: exit 0 and a one-line summary', async () => {
    const r = await run('check', sampleArm);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${sampleArm}: ok: 10 links, 7 joints, 5 devices\n`);
    expect(r.stderr).toBe('');
  });

  test('warnings are printed located, exit stays 0', async () => {
    const file = join(dir, 'warn.body');
    writeFileSync(file, 'format: ChoreonoidBody\nformat_version: 2.0\nlinks:\n  - { name: R, elements: [ { type: WarpDrive } ] }\n');
    const r = await run('check', file);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^${file}:4:28: warning: node type "WarpDrive" .*\\(at links\\[0\\]\\.elements\\[0\\]\\)\\n$`));
    expect(r.stdout).toMatch(/ok: 1 link, 0 joints, 0 devices, 1 warning\n$/);
  });

  test('a bad model: exit 1 with file:line:column: error: message (at path)', async () => {
    const file = join(dir, 'bad.body');
    writeFileSync(file, 'format: ChoreonoidBody\nformat_version: 2.0\nlinks:\n  - { name: R }\n  - { name: C, parent: Q }\n');
    const r = await run('check', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${file}:5:24: error: parent link "Q" of link "C" is not defined (at links[1].parent)\n`);
  });

  test('a directory holding one model stands for it (README: info models/)', async () => {
    expect((await run('check', join(projectRoot, 'models'))).code).toBe(0);
    const r = await run('check', join(projectRoot, 'test'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/without a \.body or \.wrl model/);
  });
});

describe('info', () => {
  test('--json of the bundled example: fields, SI units, null for unlimited', async () => {
    const r = await run('info', sampleArm, '--json');
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout) as InfoJson;
    expect(Object.keys(info)).toEqual(['name', 'root', 'links', 'devices', 'extra_joints', 'roles', 'drive', 'steering']);
    // Two wheels on the base carry it (their tyres are its lowest points); the lift and the arm above them are one chain.
    expect(info.roles.map((r) => [r.joint, r.role, r.commanded])).toEqual([
      ['LEFT_WHEEL', 'drive_wheel', true],
      ['RIGHT_WHEEL', 'drive_wheel', true],
      ...['LIFT', 'SHOULDER', 'ARM_PITCH', 'FOREARM', 'WRIST'].map((j) => [j, 'arm', true]),
    ]);
    expect(info.drive).toMatchObject({ kind: 'wheels', left: ['LEFT_WHEEL'], right: ['RIGHT_WHEEL'] });
    expect(info.steering).toBeNull();
    expect([info.name, info.root, info.links.length, info.devices.length]).toEqual(['SampleArm', 'BASE', 10, 5]);
    const base = info.links[0]!;
    expect(base.parent).toBeNull();
    expect(base.joint).toMatchObject({ type: 'free', id: null, lower: null, upper: null, effort: null });
    // BASE: 12 kg at (-0.02, 0, 0.05) plus the 0.3 kg caster at (0.2, 0, -0.06).
    expect(base.mass).toBeCloseTo(12.3, 12);
    expect(base.com[0]).toBeCloseTo((12 * -0.02 + 0.3 * 0.2) / 12.3, 12);
    expect(base.com[2]).toBeCloseTo((12 * 0.05 + 0.3 * -0.06) / 12.3, 12);
    const wheel = info.links.find((l) => l.name === 'LEFT_WHEEL')!;
    expect(wheel.joint).toMatchObject({ type: 'revolute', lower: null, upper: null, axis: [0, 1, 0] });
    expect(wheel.joint.velocity_upper).toBeCloseTo(4 * Math.PI, 12);
    const lift = info.links.find((l) => l.name === 'LIFT')!;
    expect(lift.joint).toMatchObject({ type: 'prismatic', lower: 0, upper: 0.3, velocity_lower: -0.15, velocity_upper: 0.15, effort: 200 });
    const arm = info.links.find((l) => l.name === 'UPPER_ARM')!;
    expect(arm.joint.name).toBe('ARM_PITCH');
    expect(arm.joint.initial).toBeCloseTo(Math.PI / 6, 15);
    expect(arm.joint.lower).toBeCloseTo(-Math.PI / 2, 15);
    expect(arm.offset).toEqual({ xyz: [0, 0, 0.06], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] });
    // The arm's RigidBody sits 0.125 m along x (Transform), so its centre of mass does too.
    expect(arm.com.map((x) => Number(x.toFixed(12)))).toEqual([0.125, 0, 0]);

    expect(info.devices.map((d) => [d.name, d.type, d.link])).toEqual([
      ['IMU', 'Imu', 'BASE'],
      ['FRONT_LIDAR', 'RangeSensor', 'BASE'],
      ['HEAD_CAMERA', 'Camera', 'HEAD'],
      ['DEPTH_CAMERA', 'RangeCamera', 'HEAD'],
      ['WRIST_FORCE', 'ForceSensor', 'WRIST'],
    ]);
    const imu = info.devices[0]!;
    expect(imu.params).toEqual({ max_angular_velocity: [null, null, null], max_acceleration: [null, null, null] });
    const camera = info.devices[2]!;
    expect(camera.xyz).toEqual([0.035, 0.04, 0.03]);
    // rotation Rz(-90°)·Rx(-90°): the cv frame's z (view direction) is the link's +x, its y (down) is -z.
    const R = camera.rotation;
    expect(R.map((row) => row[2]!).map((x) => Number(x.toFixed(12)))).toEqual([1, 0, 0]);
    expect(R.map((row) => row[1]!).map((x) => Number(x.toFixed(12)))).toEqual([0, 0, -1]);
    expect(camera.params).toMatchObject({ format: 'COLOR', width: 640, height: 480, optical_frame_rotation: [[1, 0, 0], [0, -1, 0], [0, 0, -1]] });
    const lidar = info.devices[1]!.params as Record<string, number>;
    expect(lidar.num_yaw_samples).toBe(541);
    expect(lidar.yaw_range).toBeCloseTo((270 * Math.PI) / 180, 12);
    expect(info.extra_joints).toEqual([]);
  });

  test('--json agrees with the oracle on a corpus model (limits, offsets, mass, device params)', async () => {
    const [entry] = oracleEntries((f) => f === 'choreonoid/share/model/Tank/Tank.body');
    const r = await run('info', join(corpusDir, entry!.file), '--json');
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout) as InfoJson;
    const unlimited = (x: number): number | null => (Math.abs(x) >= 1.7976931348623157e308 ? null : x);
    entry!.oracle.links.forEach((ol, i) => {
      const l = info.links[i]!;
      expect([l.name, l.parent, l.joint.type]).toEqual([ol.name, ol.parent, ol.joint_type]);
      expect([l.joint.lower, l.joint.upper, l.joint.velocity_lower, l.joint.velocity_upper]).toEqual(
        [ol.q_lower, ol.q_upper, ol.dq_lower, ol.dq_upper].map((x) => (unlimited(x) === null ? null : expect.closeTo(x, 12))),
      );
      expect(compareValues('', { o: l.offset.xyz, r: l.offset.rotation, m: l.mass, c: l.com, i: l.inertia },
        { o: ol.offset_translation, r: ol.offset_rotation, m: ol.mass, c: ol.center_of_mass, i: ol.inertia })).toEqual([]);
    });
    entry!.oracle.devices.forEach((od, i) => {
      const d = info.devices[i]!;
      expect([d.name, d.type, d.link]).toEqual([od.name, od.type_name, od.link]);
      expect(compareValues('', { xyz: d.xyz, rotation: d.rotation }, { xyz: od.local_translation, rotation: od.local_rotation })).toEqual([]);
      const params = JSON.parse(JSON.stringify(od.params), (_k, v: unknown) => (typeof v === 'number' ? unlimited(v) : v)) as unknown;
      expect(compareValues('params', d.params, params)).toEqual([]);
    });
  });

  test('the text report shows the tree, joints and devices', async () => {
    const r = await run('info', sampleArm);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('links: 10, root BASE');
    expect(r.stdout).toMatch(/\n {8}UPPER_ARM {2}revolute "ARM_PITCH" id 4 axis \(0, -1, 0\) \[-90°, 120°\]/);
    expect(r.stdout).toMatch(/\n {2}Camera "HEAD_CAMERA" on HEAD/);
  });

  test('a bad model: exit 1 with the located error', async () => {
    const file = join(dir, 'radian.body');
    writeFileSync(file, 'format: ChoreonoidBody\nformat_version: 2.0\nangle_unit: radian\nlinks:\n  - { name: R }\n');
    const r = await run('info', file, '--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^${file}:3:13: error: angle_unit: radian is not allowed with format_version 2\\.0`));
  });
});

describe('the built executable', () => {
  const bin = join(projectRoot, 'dist/cli/main.js');

  test('dist/cli/main.js runs check and info (npm test builds it first)', () => {
    expect(existsSync(bin), 'dist/cli/main.js is missing: run `npm run build` (npm test does)').toBe(true);
    const ok = spawnSync(process.execPath, [bin, 'check', sampleArm], { encoding: 'utf8' });
    expect([ok.status, ok.stdout]).toEqual([0, `${sampleArm}: ok: 10 links, 7 joints, 5 devices\n`]);
    const bad = spawnSync(process.execPath, [bin, 'check', join(dir, 'does-not-exist.body')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/does-not-exist\.body: error: cannot read the file/);
    const usage = spawnSync(process.execPath, [bin], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    const json = spawnSync(process.execPath, [bin, 'info', sampleArm, '--json'], { encoding: 'utf8' });
    expect(json.status).toBe(0);
    expect((JSON.parse(json.stdout) as InfoJson).root).toBe('BASE');
  });
});
