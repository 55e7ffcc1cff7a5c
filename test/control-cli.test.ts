// `body-bridge control` and `body-bridge urdf --ros2-control`, run in-process: what is written, the usage
// errors (exit 2), the located input errors (exit 1, nothing written).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { readRos2Control } from './support/ros2-control-read.js';
import { scratchDir } from './support/temp-dir.js';

const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
const cart = join(projectRoot, 'test/models/control/cart.body');
const dir = scratchDir('bb-control-cli-');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), env: { ...process.env, ROS_DISTRO: '' } });
  return { code, out, err };
}
let n = 0;
const fresh = (): string => join(dir, `out${n++}`);
const FILES = ['README.md', 'choreonoid_ros2_control.yaml', 'ros2_control.xml', 'ros2_controllers.yaml', 'spawners.yaml'];

describe('body-bridge control', () => {
  it('writes the block, the gains, the controllers and a README, and says what it made', async () => {
    const out = fresh();
    const r = await run('control', pa10, '-o', out, '--samples', '40');
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(FILES);
    expect(r.err).toMatch(/wrote ros2_control.xml, choreonoid_ros2_control.yaml, ros2_controllers.yaml, spawners.yaml, README.md .* 9 joints, 9 with gains .* controllers joint_state_broadcaster, arm_controller, hand_controller/);
    const block = readFileSync(join(out, 'ros2_control.xml'), 'utf8');
    expect(readRos2Control(`<robot name="PA10">\n${block}</robot>`)[0]!.joints).toHaveLength(9);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/^# ros2_control for PA10 in Choreonoid/);
  });

  it('options reach the files: mode, joint modes, namespace, distro, bandwidth, step', async () => {
    const out = fresh();
    const r = await run('control', cart, '-o', out, '--samples', '10', '--mode', 'position', '--namespace', '/cart1', '--ros-distro', 'jazzy', '--bandwidth', '5', '--time-step', '0.002');
    expect(r.code).toBe(0);
    const controllers = parse(readFileSync(join(out, 'ros2_controllers.yaml'), 'utf8')) as Record<string, { ros__parameters: Record<string, unknown> }>;
    expect(controllers['/cart1/controller_manager']!.ros__parameters.update_rate).toBe(500);
    expect(controllers['/cart1/diff_drive_controller']!.ros__parameters).not.toHaveProperty('use_stamped_vel');
    // position → the wheels' velocity form: Choreonoid's high-gain velocity, no gains.
    const block = readRos2Control(`<robot name="Cart">${readFileSync(join(out, 'ros2_control.xml'), 'utf8')}</robot>`)[0]!;
    expect(block.joints.map((j) => j.command)).toEqual([[{ name: 'velocity', min: '-10.471975511965978', max: '10.471975511965978' }], [{ name: 'velocity', min: '-10.471975511965978', max: '10.471975511965978' }]]);
    // No gains: no `gains` key either (rclcpp aborts on a parameter without a value: the corpus sweep's conveyor).
    expect(parse(readFileSync(join(out, 'choreonoid_ros2_control.yaml'), 'utf8'))).toEqual({ '/cart1/choreonoid_ros2_control': { ros__parameters: {} } });
  });

  it('a gains file replaces the model\'s gains; a groups file the groups', async () => {
    const gains = join(dir, 'gains.yaml');
    writeFileSync(gains, 'choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J7: { p: 900.0, d: 30.0 }\n');
    const groups = join(dir, 'groups.yaml');
    writeFileSync(groups, 'replace: true\ngroups:\n  - name: shoulder\n    joints: [J1, J2]\n');
    const out = fresh();
    const r = await run('control', pa10, '-o', out, '--samples', '10', '--gains', gains, '--groups', groups);
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'choreonoid_ros2_control.yaml'), 'utf8')).toMatch(/J7: \{ p: 900\.0, d: 30\.0 \}/);
    expect(Object.keys(parse(readFileSync(join(out, 'ros2_controllers.yaml'), 'utf8')) as object)).toEqual(['/controller_manager', '/joint_state_broadcaster', '/shoulder_controller']);
  });

  it.each([
    [['--mode', 'servo'], /--mode servo: expected one of position, velocity, effort, position_pd, velocity_pd/],
    [['--joint-mode', 'J1'], /--joint-mode 'J1' is not JOINT=MODE/],
    [['--bandwidth', '0'], /--bandwidth 0: expected a positive number/],
    [['--damping', 'x'], /--damping x: expected a positive number/],
    [['--samples', '1.5'], /--samples 1.5: expected a whole number/],
    [['--namespace', 'robot1'], /--namespace robot1: expected '' or an absolute namespace/],
    [['--ros-distro', 'iron'], /--ros-distro iron: expected one of humble, jazzy/],
  ])('usage error %j: exit 2, nothing written', async (args, message) => {
    const out = fresh();
    const r = await run('control', pa10, '-o', out, ...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it('-o is required', async () => {
    const r = await run('control', pa10);
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(/-o DIR is required/)]);
  });

  it.each([
    [['--joint-mode', 'J9=effort'], /--joint-mode names "J9", not a moving joint of PA10/],
    [['--joint-mode', 'J7=velocity_pd'], /group arm mixes command interfaces/],
    [['--time-step', '0.0015'], /not a whole number of steps per second/],
  ])('a choice that cannot work %j: exit 1, nothing written', async (args, message) => {
    const out = fresh();
    const r = await run('control', pa10, '-o', out, '--samples', '5', ...args);
    expect([r.code, r.err]).toEqual([1, expect.stringMatching(message)]);
    expect(existsSync(out)).toBe(false);
  });

  it('a bad gains file: located errors, exit 1, an earlier output left as it was', async () => {
    const out = fresh();
    expect((await run('control', pa10, '-o', out, '--samples', '5')).code).toBe(0);
    const before = FILES.map((f) => readFileSync(join(out, f), 'utf8'));
    const gains = join(dir, 'bad-gains.yaml');
    writeFileSync(gains, 'choreonoid_ros2_control:\n  ros__parameters:\n    gains:\n      J9: { p: 1.0 }\n      J1: { p: -2.0 }\n');
    const r = await run('control', pa10, '-o', out, '--gains', gains);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${gains}:4:7: error: no moving joint "J9" in the model`);
    expect(r.err).toContain(`${gains}:5:16: error: P must be positive (got -2)`);
    expect(FILES.map((f) => readFileSync(join(out, f), 'utf8'))).toEqual(before);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a gains file that cannot be read: exit 1, said why', async () => {
    const r = await run('control', pa10, '-o', fresh(), '--gains', join(dir, 'none.yaml'));
    expect([r.code, r.err]).toEqual([1, expect.stringMatching(/--gains .*none.yaml: ENOENT/)]);
  });

  it('an output folder that cannot be made: exit 1', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const r = await run('control', pa10, '-o', join(file, 'sub'), '--samples', '5');
    expect(r.code).toBe(1);
  });

  it('is listed by body-bridge --help', async () => {
    expect((await run('--help')).out).toMatch(/^ {2}control +write a ros2_control configuration for Choreonoid/m);
  });
});

describe('body-bridge urdf --ros2-control', () => {
  it('prints the URDF with the block, the same as control\'s ros2_control.xml', async () => {
    const out = fresh();
    mkdirSync(out);
    await run('control', cart, '-o', out, '--samples', '5', '--joint-mode', 'LeftWheel=effort');
    const r = await run('urdf', cart, '--ros2-control', 'position_pd', '--joint-mode', 'LeftWheel=effort', '--mesh-dir', join(dir, 'meshes'));
    expect(r.code).toBe(0);
    expect(r.out).toContain(readFileSync(join(out, 'ros2_control.xml'), 'utf8'));
    expect(r.out.trimEnd().endsWith('</robot>')).toBe(true);
    expect(readRos2Control(r.out)[0]!.joints.map((j) => j.command[0]!.name)).toEqual(['effort', 'velocity_pd']);
  });

  it.each([
    [['--ros2-control', 'servo'], 2, /--ros2-control servo: expected one of/],
    [['--joint-mode', 'LeftWheel=effort'], 2, /--joint-mode needs --ros2-control MODE/],
    [['--ros2-control', 'effort', '--joint-mode', 'x'], 2, /--joint-mode 'x' is not JOINT=MODE/],
    [['--ros2-control', 'effort', '--joint-mode', 'Nope=effort'], 1, /--joint-mode names "Nope", not a moving joint of Cart/],
  ] as const)('%j → exit %i', async (args, code, message) => {
    const r = await run('urdf', cart, '--mesh-dir', join(dir, 'meshes'), ...args);
    expect([r.code, r.err]).toEqual([code, expect.stringMatching(message)]);
    expect(r.out).toBe('');
  });
});
