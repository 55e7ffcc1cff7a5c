// The Choreonoid project `body-bridge control --project` writes (src/project/simulation-project.ts), parsed
// back: the items Choreonoid's restore() functions read, where the body stands, the simulator's step.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli/main.js';
import { axisAngle, identity3 } from '../src/model/math.js';
import type { Vec3 } from '../src/model/types.js';
import { readProject } from '../src/project/read-project.js';
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

  it('the body where the model puts it, now and at the simulation\'s start, fixed for a fixed root; the floor seen, not colliding, under a fixed root', () => {
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
    expect(floor!.data).toMatchObject({ file: FLOOR_FILE, root_translation: [0, 0, -0.1], fix_root: true, collision_detection: false });
  });

  it('a free body stands on the floor: then the floor collides', () => {
    const t = simulationProject({ modelFile: '/m.body', bodyName: 'M', fixedRoot: false, rootPose: { translation: [0, 0, 1], rotation: identity3() }, namespace: '', timeStep: 0.001 });
    const floor = all(items(t)).filter((i) => i.class === 'BodyItem')[1]!;
    expect(floor.data).toMatchObject({ file: FLOOR_FILE, collision_detection: true });
  });

  it.each([
    [false, false],
    [true, true],
  ])('a fixed root with free parts (self-collision %s): the floor collides %s, for the parts to rest on', (selfCollision, collides) => {
    const t = simulationProject({ modelFile: '/m.body', bodyName: 'M', fixedRoot: true, rootPose: { translation: [0, 0, 0], rotation: identity3() }, namespace: '', timeStep: 0.001, selfCollision });
    const [body, floor] = all(items(t)).filter((i) => i.class === 'BodyItem');
    expect([body!.data!.self_collision_detection, floor!.data!.collision_detection]).toEqual([selfCollision, collides]);
  });

  it('ROS2ControlItem in the namespace; the simulator at the step, semi-implicit Euler, real time, no recording', () => {
    expect(byClass('ROS2ControlItem')[0]!.data).toEqual({ namespace: '/arm1' });
    expect(byClass('AISTSimulatorItem')[0]!.data).toMatchObject({ time_step: 0.002, integration_mode: 'semi-implicit_euler', realtime_sync_mode: 'compensatory', recording: 'off', time_range_mode: 'unlimited' });
    // Else Choreonoid asks in a dialog, for a body with a free joint below its root, and waits for an answer for ever.
    expect(byClass('AISTSimulatorItem')[0]!.data).toMatchObject({ output_all_link_positions: true });
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

  it("a driven base gets body_bridge's parameters for the project's world (REP-105, the floor for MoveIt); an arm and a free body without a drive get none", async () => {
    const run = async (name: string, file: string): Promise<Record<string, unknown> | null> => {
      const out = join(dir, `params-${name}`);
      let err = '';
      expect(await runCli(['control', file, '-o', out, '--project', '--samples', '5'], { stdout: () => undefined, stderr: (t) => (err += t), env: process.env }), err).toBe(0);
      const f = join(out, 'body_bridge.params.yaml');
      return existsSync(f) ? (parse(readFileSync(f, 'utf8')) as { '/**': { ros__parameters: Record<string, unknown> } })['/**'].ros__parameters : null;
    };
    // By construction of the model (its header): root at (0, 0, 0.08), the body named MobileManipulator.
    const mm = await run('mm', join(projectRoot, 'test/models/roles/mobile-manipulator.body'));
    expect(mm).toEqual({
      placement_frame: 'world', placement: [0, 0, 0.08, 0, 0, 0, 1], placement_odom_frame: 'odom', free_root_frame: '', root_joint: '',
      planning_scene_project: join(dir, 'params-mm', 'simulation.cnoid'), planning_robot: 'MobileManipulator',
    });
    const body = all(items(readFileSync(join(dir, 'params-mm', 'simulation.cnoid'), 'utf8'))).find((i) => i.class === 'BodyItem')!;
    expect(body.name).toBe('MobileManipulator');
    expect(await run('pa10', join(corpusDir, 'choreonoid/share/model/PA10/PA10.body'))).toBeNull();
    expect(await run('sr1', join(corpusDir, 'choreonoid/share/model/SR1/SR1.body'))).toBeNull();
  });
});

describe('a user\'s project, checked (read by readProject)', () => {
  const dir = scratchDir('bb-control-check-');
  const model = join(projectRoot, 'test/models/control/cart.body');
  // ${SHARE} (the floor) from the corpus's share folder, whatever Choreonoid is installed.
  const share = join(corpusDir, 'choreonoid/share');
  const generated = simulationProject({ modelFile: model, bodyName: 'Cart', fixedRoot: false, rootPose: { translation: [0, 0, 0.08], rotation: identity3() }, namespace: '/cart1', timeStep: 0.002 });
  let n = 0;
  /** The project text written to a file of its own, read as Choreonoid restores it, and checked for the cart. */
  const check = (text: string, options: Parameters<typeof checkSimulationProject>[2] = {}, modelFile = model): ReturnType<typeof checkSimulationProject> => {
    const file = join(dir, `p${n++}.cnoid`);
    writeFileSync(file, text);
    return checkSimulationProject(readProject(file, { share, env: {} }), modelFile, options);
  };
  const located = (c: ReturnType<typeof checkSimulationProject>): string[] => [...c.problems, ...c.warnings].map((d) => `${d.line}:${d.column} ${d.severity}: ${d.message}`);
  const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  /** The line of an item's `- id: N` entry, where the reader locates the item. */
  const itemLine = (text: string, name: string): number => lineOf(text, `name: "${name}"`) - 1;

  it('the generated project has everything: the body, its namespace, the simulator and its step', () => {
    const c = check(generated);
    expect(located(c)).toEqual([]);
    expect(c.body?.itemName).toBe('Cart');
    expect(c.namespace).toBe('/cart1');
    expect(c.timeStep).toBe(0.002);
    expect(c.simulator).toMatchObject({ className: 'AISTSimulatorItem', integration: 'semi-implicit_euler', timeStep: { source: 'time_step', value: 0.002 } });
  });

  it('no ROS2ControlItem under the body: an error at the body item', () => {
    const text = generated.replace(/\n( +)- id: 4\n +name: "ROS2Control"\n +plugin: "ROS2"\n +class: "ROS2ControlItem"\n +data:\n +namespace: "\/cart1"/, '');
    expect(text).not.toContain('class: "ROS2ControlItem"');
    expect(located(check(text))).toEqual([
      `${itemLine(text, 'Cart')}:11 error: no ROS2ControlItem under the body item "Cart": choreonoid_ros runs ros2_control only for a body with one among its children (add one, class ROS2ControlItem, plugin ROS2)`,
    ]);
  });

  it('a ROS2ControlItem elsewhere (under the world) is not the body\'s: the same error, and the reader\'s warning', () => {
    const text = generated.replace('name: "WorldROS2"\n          plugin: "ROS2"\n          class: "WorldROS2Item"', 'name: "WorldROS2"\n          plugin: "ROS2"\n          class: "ROS2ControlItem"');
    expect(text).not.toContain('class: "WorldROS2Item"');
    const c = check(text.replace(/\n( +)- id: 4\n +name: "ROS2Control"\n +plugin: "ROS2"\n +class: "ROS2ControlItem"\n +data:\n +namespace: "\/cart1"/, ''));
    expect(c.problems.map((d) => d.message)).toEqual([expect.stringMatching(/^no ROS2ControlItem under the body item "Cart"/), expect.stringMatching(/^no WorldROS2Item in world "World"/)]);
  });

  it('a relative namespace, and one other than the launch\'s: errors at the namespace', () => {
    const text = generated.replace('namespace: "/cart1"', 'namespace: "cart1"');
    const line = lineOf(text, 'namespace: "cart1"');
    expect(located(check(text, { namespace: '/other' }))).toEqual([
      `${line}:28 error: ROS2ControlItem's namespace "cart1" is relative: on Humble the item looks robot_state_publisher up inside it (/cart1/cart1/robot_state_publisher); make it /cart1, which names the same place on every distribution`,
      `${line}:28 error: ROS2ControlItem's namespace is "cart1" but the launch runs robot_state_publisher and the controllers in "/other": the item would wait for /cart1/cart1/robot_state_publisher forever`,
    ]);
    expect(located(check(generated, { namespace: '/cart1/' }))).toEqual([]);
    expect(located(check(generated, { namespace: '' }))).toEqual([expect.stringMatching(/error: ROS2ControlItem's namespace is "\/cart1" but the launch runs .* in ""/)]);
  });

  it('no WorldROS2Item, no simulator: errors at the world; another simulator or Runge-Kutta: warnings at it', () => {
    const world = itemLine(generated, 'World');
    const noClock = generated.replace('class: "WorldROS2Item"', 'class: "FolderItem"');
    expect(located(check(noClock))).toEqual([`${world}:7 error: no WorldROS2Item in world "World": nothing publishes /clock, and the controllers and MoveIt run on simulation time`]);
    const noSim = generated.replace('class: "AISTSimulatorItem"', 'class: "FolderItem"');
    expect(located(check(noSim))).toEqual([`${world}:7 error: no simulator item in world "World" (AISTSimulatorItem): nothing would run the simulation`]);
    const ode = generated.replace('plugin: "Body"\n          class: "AISTSimulatorItem"', 'plugin: "ODE"\n          class: "ODESimulatorItem"');
    expect(ode).toContain('ODESimulatorItem');
    expect(located(check(ode))).toEqual([`${itemLine(ode, 'AISTSimulator')}:11 warning: ODESimulatorItem: the gains are designed for the AIST simulator's semi-implicit Euler`]);
    const rk = generated.replace('integration_mode: "semi-implicit_euler"', 'integration_mode: "runge-kutta"');
    expect(located(check(rk))).toEqual([expect.stringMatching(/warning: Runge-Kutta integration/)]);
  });

  it('the simulator --start-simulation runs: the selected one, else the first; a step from time_step, frame_rate or the time bar', () => {
    // A second AIST simulator after the first, selected, stepping at a frame rate: that one runs.
    const second = generated.replace(
      '        - id: 7\n',
      '        - id: 70\n          name: "Fast"\n          plugin: "Body"\n          class: "AISTSimulatorItem"\n          is_selected: true\n          data:\n            frame_rate: 500\n        - id: 7\n',
    );
    expect(second).toContain('name: "Fast"');
    expect(check(second).simulator).toMatchObject({ itemName: 'Fast', selected: true, timeStep: { source: 'frame_rate', value: 0.002 } });
    // Two selected in one world: Choreonoid starts neither.
    const both = second.replace('class: "AISTSimulatorItem"\n          data:\n            time_step', 'class: "AISTSimulatorItem"\n          is_selected: true\n          data:\n            time_step');
    expect(located(check(both))).toEqual([`${itemLine(both, 'AISTSimulator')}:11 error: --start-simulation runs no simulator in world "World": several of its simulators are selected, and Choreonoid then starts none of them; select one of its simulators (is_selected: true)`]);
    // No step of its own: the time bar's frame rate, from the project's toolbar state (default 1000 Hz).
    const noStep = generated.replace('            time_step: 0.002\n', '');
    expect(check(noStep).timeStep).toBe(0.001);
    expect(check(`${noStep}\ntoolbars:\n  "TimeBar":\n    frame_rate: 250\n`).simulator?.timeStep).toEqual({ source: 'time_bar', value: 0.004 });
  });

  it('the body: another file of the same name, a model that does not load, no body at all — errors at the item or the project', () => {
    const elsewhere = generated.replace(`file: "${model}"`, 'file: "/elsewhere/cart.body"');
    expect(located(check(elsewhere))).toEqual([
      `${itemLine(elsewhere, 'Cart')}:11 error: body item "Cart" loads /elsewhere/cart.body, not ${model}, the model the launch serves: serve that file (body_file:=/elsewhere/cart.body) or make the item load this one`,
    ]);
    const other = generated.replace(`file: "${model}"`, 'file: "/elsewhere/robot.body"');
    expect(located(check(other))).toEqual([`1:1 error: no body item loads ${model} (body items: Cart ← /elsewhere/robot.body, Floor ← ${join(share, 'model/misc/floor.body')})`]);
    // The model itself broken: the item's error, then the model's own located error.
    const broken = join(dir, 'broken.body');
    writeFileSync(broken, `${readFileSync(model, 'utf8')}\n  - { name: Extra, parent: Nowhere, joint_type: fixed }\n`);
    const c = check(generated.replace(`file: "${model}"`, `file: "${broken}"`), {}, broken);
    expect(c.body).toBeNull();
    expect(c.problems[0]).toMatchObject({ severity: 'error', line: lineOf(generated, `file: "${model}"`) });
    expect(c.problems.slice(1).some((d) => d.file === broken && d.severity === 'error')).toBe(true);
  });

  it('a fixed-base arm the project frees: a warning at the body item', () => {
    const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
    const text = simulationProject({ modelFile: pa10, bodyName: 'PA10', fixedRoot: false, rootPose: { translation: [0, 0, 0], rotation: identity3() }, namespace: '', timeStep: 0.001 });
    expect(located(check(text, {}, pa10))).toEqual([`${itemLine(text, 'PA10')}:11 warning: the model's root is fixed but the project frees it (fix_root: false): nothing holds "PA10"'s base in the simulation`]);
  });

  it('body-bridge control --project-file: located errors exit 1; a good project lends its step and namespace', async () => {
    const bad = join(dir, 'bad.cnoid');
    writeFileSync(bad, generated.replace('class: "WorldROS2Item"', 'class: "FolderItem"'));
    let err = '';
    const io = { stdout: () => undefined, stderr: (t: string) => (err += t), env: { ...process.env, BODY_BRIDGE_CHOREONOID_SHARE: share } };
    expect(await runCli(['control', model, '-o', join(dir, 'x'), '--project-file', bad], io)).toBe(1);
    expect(err).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${itemLine(generated, 'World')}:7: error: no WorldROS2Item`));
    expect(err).toMatch(/cannot simulate .*cart\.body under ros2_control \(1 problem above\)/);
    const good = join(dir, 'good.cnoid');
    writeFileSync(good, generated);
    expect(await runCli(['control', model, '-o', join(dir, 'y'), '--project-file', good, '--samples', '5'], io)).toBe(0);
    const controllers = parse(readFileSync(join(dir, 'y', 'ros2_controllers.yaml'), 'utf8')) as Record<string, { ros__parameters: { update_rate?: number } }>;
    expect(controllers['/cart1/controller_manager']!.ros__parameters.update_rate).toBe(500);
    expect(await runCli(['control', model, '-o', join(dir, 'z'), '--project', '--project-file', good], io)).toBe(2);
    // A project that is no project: its located error, exit 1.
    writeFileSync(bad, '- just a list\n');
    err = '';
    expect(await runCli(['control', model, '-o', join(dir, 'x'), '--project-file', bad], io)).toBe(1);
    expect(err).toMatch(/:1:1: error: a project file is a YAML mapping/);
  });

  it("--project-file: body_bridge's parameters place the body where the project bolts it and name the project for MoveIt's scene; a diff-drive base gets world → odom (REP-105)", async () => {
    // arm1.cnoid: PA10 as item "Arm" at (0.5, −0.3, 0), turned 30° about z; ${SHARE} from the corpus.
    const arm1 = join(projectRoot, 'test/models/control/arm1.cnoid');
    let err = '';
    const io = { stdout: () => undefined, stderr: (t: string) => (err += t), env: { ...process.env, BODY_BRIDGE_CHOREONOID_SHARE: share } };
    const out = join(dir, 'arm1');
    expect(await runCli(['control', join(share, 'model/PA10/PA10.body'), '-o', out, '--project-file', arm1, '--samples', '5'], io), err).toBe(0);
    const text = readFileSync(join(out, 'body_bridge.params.yaml'), 'utf8');
    const p = (parse(text) as { '/**': { ros__parameters: Record<string, unknown> } })['/**'].ros__parameters;
    const half = (30 / 2) * (Math.PI / 180);
    expect(p.placement_frame).toBe('world');
    expect(p.placement).toHaveLength(7);
    (p.placement as number[]).forEach((v, i) => expect(v).toBeCloseTo([0.5, -0.3, 0, 0, 0, Math.sin(half), Math.cos(half)][i]!, 12));
    // A ROS parameter list holds one type: the zeros are written as doubles.
    expect(text).toMatch(/- 0\.0\n/);
    expect(p).toMatchObject({ free_root_frame: '', root_joint: '', planning_scene_project: arm1, planning_robot: 'Arm' });
    expect(p.initial_joint_positions).toEqual(['J1=0', 'J2=0', 'J3=0', 'J4=0', 'J5=0', 'J6=0', 'J7=0', 'HAND_L=0', 'HAND_R=0']);
    // The cart's base is driven: REP-105 — world → odom where the project starts it (0, 0, 0.08), odom → base
    // from diff_drive_controller — and the project's static bodies in MoveIt's planning scene, as for the arm.
    const good = join(dir, 'good.cnoid');
    expect(await runCli(['control', model, '-o', join(dir, 'cart'), '--project-file', good, '--samples', '5'], io), err).toBe(0);
    const cart = (parse(readFileSync(join(dir, 'cart', 'body_bridge.params.yaml'), 'utf8')) as { '/**': { ros__parameters: Record<string, unknown> } })['/**'].ros__parameters;
    expect(cart).toEqual({
      placement_frame: 'world', placement: [0, 0, 0.08, 0, 0, 0, 1], placement_odom_frame: 'odom', free_root_frame: '', root_joint: '',
      initial_joint_positions: ['LeftWheel=0', 'RightWheel=0'], planning_scene_project: good, planning_robot: 'Cart',
    });
    expect(existsSync(join(dir, 'cart', 'body_bridge.params.yaml'))).toBe(true);
  });
});
