// The Choreonoid project `body-bridge control --project` writes (src/project/simulation-project.ts), parsed
// back: the items Choreonoid's restore() functions read, where the body stands, the simulator's step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { axisAngle, identity3 } from '../src/model/math.js';
import type { Vec3 } from '../src/model/types.js';
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
