// The Choreonoid project `body-bridge control --project` writes (src/project/simulation-project.ts), parsed
// back: the items Choreonoid's restore() functions read, where the body stands, the simulator's step.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { axisAngle, identity3 } from '../src/model/math.js';
import type { Vec3 } from '../src/model/types.js';
import { checkSimulationProject } from '../src/project/simulation-check.js';
import { FLOOR_FILE, degreeAngleAxis, simulationProject } from '../src/project/simulation-project.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';

interface Item {
  id: number;
  name: string;
  plugin: string;
  class: string;
  is_checked?: boolean;
  data?: Record<string, unknown>;
  children?: Item[];
}
const items = (text: string): Item => (parse(text) as { items: Item }).items;
const all = (i: Item): Item[] => [i, ...(i.children ?? []).flatMap(all)];

describe('degreeAngleAxis', () => {
  it.each([
    [[0, 0, 1] as Vec3, 90],
    [[1, 0, 0] as Vec3, -30],
    [[0.6, 0, 0.8] as Vec3, 170],
  ])('axis %j, %f° back as Choreonoid writes it (positive angle)', (axis, degrees) => {
    const [x, y, z, a] = degreeAngleAxis(axisAngle(axis, (degrees * Math.PI) / 180));
    const sign = Math.sign(degrees);
    expect(a).toBeCloseTo(Math.abs(degrees), 9);
    expect([x, y, z].map((v) => v * sign)).toEqual(axis.map((v) => expect.closeTo(v, 9)));
  });

  it('the identity is [1, 0, 0, 0]', () => expect(degreeAngleAxis(identity3())).toEqual([1, 0, 0, 0]));
});

describe('the project', () => {
  const text = simulationProject({
    modelFile: '/models/arm.body',
    bodyName: 'Arm',
    fixedRoot: true,
    rootPose: { translation: [0.1, 0, 0.2], rotation: axisAngle([0, 0, 1], Math.PI / 2) },
    namespace: '/arm1',
    timeStep: 0.002,
  });
  const root = items(text);
  const byClass = (c: string): Item[] => all(root).filter((i) => i.class === c);

  it('root → world → body (BodyROS2Item, ROS2ControlItem under it), floor, AIST simulator, WorldROS2Item; ids unique in tree order', () => {
    expect(root).toMatchObject({ id: 0, class: 'RootItem', plugin: 'Base' });
    const world = root.children![0]!;
    expect(world.class).toBe('WorldItem');
    expect(world.children!.map((c) => c.class)).toEqual(['BodyItem', 'BodyItem', 'AISTSimulatorItem', 'WorldROS2Item']);
    expect(world.children![0]!.children!.map((c) => [c.plugin, c.class])).toEqual([['ROS2', 'BodyROS2Item'], ['ROS2', 'ROS2ControlItem']]);
    expect(all(root).map((i) => i.id)).toEqual(all(root).map((_, k) => k));
  });

  it('the body where the model puts it, now and at the simulation\'s start, fixed for a fixed root', () => {
    const [body, floor] = byClass('BodyItem');
    expect(body!.data).toMatchObject({
      file: '/models/arm.body',
      format: 'CHOREONOID-BODY',
      root_translation: [0.1, 0, 0.2],
      initial_root_translation: [0.1, 0, 0.2],
      root_rotation: [0, 0, 1, 90],
      initial_root_rotation: [0, 0, 1, 90],
      fix_root: true,
    });
    expect(floor!.data).toMatchObject({ file: FLOOR_FILE, root_translation: [0, 0, -0.1], fix_root: true });
  });

  it('ROS2ControlItem in the namespace; the simulator at the step, semi-implicit Euler, real time, no recording', () => {
    expect(byClass('ROS2ControlItem')[0]!.data).toEqual({ namespace: '/arm1' });
    expect(byClass('AISTSimulatorItem')[0]!.data).toMatchObject({ time_step: 0.002, integration_mode: 'semi-implicit_euler', realtime_sync_mode: 'compensatory', recording: 'off', time_range_mode: 'unlimited' });
    expect(byClass('WorldROS2Item')[0]!.data).toEqual({ max_clock_publishing_rate: 100 });
  });

  it('string values are double-quoted (a YAML 1.1 reader takes a bare off for false), vectors on one line', () => {
    expect(text).toMatch(/^ +recording: "off"$/m);
    expect(text).toMatch(/^ +root_translation: \[ 0\.1, 0, 0\.2 \]$/m);
  });

  it('without a namespace the item has no data (its default)', () => {
    const t = simulationProject({ modelFile: '/m.body', bodyName: 'M', fixedRoot: false, rootPose: { translation: [0, 0, 1], rotation: identity3() }, namespace: '', timeStep: 0.001 });
    expect(all(items(t)).find((i) => i.class === 'ROS2ControlItem')!.data).toBeUndefined();
  });
});

describe('body-bridge control --project', () => {
  const dir = scratchDir('bb-control-project-');
  it.each([
    ['PA10', join(corpusDir, 'choreonoid/share/model/PA10/PA10.body'), true, [0, 0, 0]],
    ['cart', join(projectRoot, 'test/models/control/cart.body'), false, [0, 0, 0.08]],
  ] as const)('%s: the model file, its root pose, fixed %s', async (name, file, fixed, at) => {
    const out = join(dir, name);
    let err = '';
    const code = await runCli(['control', file, '-o', out, '--project', '--samples', '5'], { stdout: () => undefined, stderr: (t) => (err += t), env: process.env });
    expect(code, err).toBe(0);
    const body = all(items(readFileSync(join(out, 'simulation.cnoid'), 'utf8'))).find((i) => i.class === 'BodyItem')!;
    expect(body.data).toMatchObject({ file, fix_root: fixed, root_translation: at });
  });
});

describe('a user\'s project, checked', () => {
  const dir = scratchDir('bb-control-check-');
  const model = join(projectRoot, 'test/models/control/cart.body');
  const generated = simulationProject({ modelFile: model, bodyName: 'Cart', fixedRoot: false, rootPose: { translation: [0, 0, 0.08], rotation: identity3() }, namespace: '/cart1', timeStep: 0.002 });
  const located = (c: ReturnType<typeof checkSimulationProject>): string[] => [...c.problems, ...c.warnings].map((d) => `${d.line}:${d.column} ${d.severity}: ${d.message}`);
  const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('the generated project has everything: the body, its namespace, the step', () => {
    const c = checkSimulationProject(generated, join(dir, 'p.cnoid'), model);
    expect(located(c)).toEqual([]);
    expect(c).toMatchObject({ body: 'Cart', namespace: '/cart1', timeStep: 0.002 });
  });

  it('no ROS2ControlItem under the body: an error at the body item', () => {
    const text = generated.replace(/\n( +)- id: 4\n +name: "ROS2Control"\n +plugin: "ROS2"\n +class: "ROS2ControlItem"\n +data:\n +namespace: "\/cart1"/, '');
    expect(text).not.toContain('class: "ROS2ControlItem"');
    const c = checkSimulationProject(text, 'p.cnoid', model);
    expect(located(c)).toEqual([`${lineOf(text, 'name: "Cart"') - 1}:11 error: no ROS2ControlItem under the body item Cart: choreonoid_ros runs ros2_control only for a body with one among its children`]);
  });

  it('a relative namespace, and one other than the launch\'s: errors at the namespace', () => {
    const text = generated.replace('namespace: "/cart1"', 'namespace: "cart1"');
    const line = lineOf(text, 'namespace: "cart1"');
    const c = checkSimulationProject(text, 'p.cnoid', model, { namespace: '/other' });
    expect(located(c)).toEqual([
      `${line}:28 error: ROS2ControlItem's namespace "cart1" is relative: the item looks robot_state_publisher up inside it (cart1 → /cart1/cart1/robot_state_publisher); make it /cart1`,
      `${line}:28 error: ROS2ControlItem's namespace is "cart1" but the launch runs robot_state_publisher and the controllers in "/other"`,
    ]);
  });

  it('no WorldROS2Item, no simulator: errors; another simulator or Runge-Kutta: warnings', () => {
    const noClock = generated.replace('class: "WorldROS2Item"', 'class: "FolderItem"');
    expect(located(checkSimulationProject(noClock, 'p.cnoid', model))).toEqual([expect.stringMatching(/error: no WorldROS2Item: nothing publishes \/clock/)]);
    const noSim = generated.replace('class: "AISTSimulatorItem"', 'class: "FolderItem"');
    expect(located(checkSimulationProject(noSim, 'p.cnoid', model))).toEqual([expect.stringMatching(/error: no simulator item/)]);
    const ode = generated.replace('class: "AISTSimulatorItem"', 'class: "ODESimulatorItem"');
    expect(located(checkSimulationProject(ode, 'p.cnoid', model))).toEqual([expect.stringMatching(/warning: ODESimulatorItem: the gains are designed for the AIST simulator/)]);
    const rk = generated.replace('integration_mode: "semi-implicit_euler"', 'integration_mode: "runge-kutta"');
    expect(located(checkSimulationProject(rk, 'p.cnoid', model))).toEqual([expect.stringMatching(/warning: Runge-Kutta integration/)]);
  });

  it('a body named through ${SHARE} is found by file name without the share folder (warned), by path with it', () => {
    const text = generated.replace(`file: "${model}"`, 'file: "${SHARE}/model/cart.body"');
    expect(located(checkSimulationProject(text, 'p.cnoid', model))).toEqual([expect.stringMatching(/warning: BodyItem Cart loads \$\{SHARE\}\/model\/cart.body, taken for .* by its file name/)]);
    expect(located(checkSimulationProject(text, 'p.cnoid', model, { shareDir: join(projectRoot, 'test/models/control/..') }))).toEqual([
      expect.stringMatching(/taken for .* by its file name/),
    ]);
    const other = generated.replace(`file: "${model}"`, 'file: "/elsewhere/robot.body"');
    expect(located(checkSimulationProject(other, 'p.cnoid', model))).toEqual([expect.stringMatching(/^5:3 error: no BodyItem loads .*cart.body \(BodyItems: Cart ← \/elsewhere\/robot.body, Floor ← \$\{SHARE\}\/model\/misc\/floor.body\)/)]);
  });

  it('body-bridge control --project-file: located errors exit 1; a good project lends its step and namespace', async () => {
    const bad = join(dir, 'bad.cnoid');
    writeFileSync(bad, generated.replace('class: "WorldROS2Item"', 'class: "FolderItem"'));
    let err = '';
    const io = { stdout: () => undefined, stderr: (t: string) => (err += t), env: process.env };
    expect(await runCli(['control', model, '-o', join(dir, 'x'), '--project-file', bad], io)).toBe(1);
    expect(err).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:3: error: no WorldROS2Item`));
    const good = join(dir, 'good.cnoid');
    writeFileSync(good, generated);
    expect(await runCli(['control', model, '-o', join(dir, 'y'), '--project-file', good, '--samples', '5'], io)).toBe(0);
    const controllers = parse(readFileSync(join(dir, 'y', 'ros2_controllers.yaml'), 'utf8')) as Record<string, { ros__parameters: { update_rate?: number } }>;
    expect(controllers['/cart1/controller_manager']!.ros__parameters.update_rate).toBe(500);
    expect(await runCli(['control', model, '-o', join(dir, 'z'), '--project', '--project-file', good], io)).toBe(2);
  });
});
