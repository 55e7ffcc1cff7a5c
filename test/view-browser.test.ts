// `body-bridge view` in a real browser: the machine's Chromium (peers.ts finds it), headless, driven by playwright-core. The page
// reads the served URDF with urdf-loader on three.js; these checks compare what it draws with
// `body-bridge tf` (the same frames the node publishes) and watch it follow edits of the model file.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { startView } from '../src/cli/view.js';
import { jointPositions, tfJson } from '../src/cli/tf.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { Mat3, Pose } from '../src/model/types.js';
import type { ViewServer } from '../src/view/server.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { findChromium, found } from './support/peers.js';

const chromiumPeer = findChromium();

const io = { stdout: () => undefined, stderr: () => undefined, env: {} };

async function serve(file: string): Promise<ViewServer> {
  const s = await startView([file, '--port', '0'], io);
  if (typeof s === 'number') throw new Error(`view did not start (${s})`);
  return s;
}

async function open(browser: Browser, url: string, before?: (page: Page) => Promise<void>): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await before?.(page);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || /could not load/i.test(m.text())) problems.push(m.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { bodyBridgeView?: { ready: boolean } }).bodyBridgeView?.ready === true, null, { timeout: 60_000 });
  return { page, problems };
}

type ViewHook = {
  ready: boolean;
  version: number;
  error: string | null;
  setJoint(name: string, value: number): void;
  framePose(name: string): Pose | null;
  setLinkVisible(name: string, visible: boolean): boolean;
  meshStats(): { visuals: number; drawn: number };
};
const hook = (page: Page) => ({
  call: <T>(fn: (v: ViewHook, arg: never) => T, arg?: unknown): Promise<T> =>
    page.evaluate(([f, a]) => (new Function('v', 'a', `return (${f})(v, a)`) as (v: unknown, a: unknown) => T)((window as unknown as { bodyBridgeView: ViewHook }).bodyBridgeView, a), [fn.toString(), arg] as const),
});

const poseError = (a: Pose, b: Pose): number =>
  Math.max(...a.translation.map((x, i) => Math.abs(x - b.translation[i]!)), ...a.rotation.flatMap((row, i) => row.map((x, j) => Math.abs(x - b.rotation[i]![j]!))));

const column = (r: Mat3, j: number): number[] => [r[0][j], r[1][j], r[2][j]];

describe.skipIf(skipWithout(chromiumPeer))('body-bridge view in Chromium', () => {
  let browser: Browser;
  // Made in beforeAll: a skipped suite still runs this describe body and must leave nothing behind.
  let work = '';
  const servers: ViewServer[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'bb-view-'));
    browser = await chromium.launch({ executablePath: found(chromiumPeer).exe, args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await s.close();
    await browser?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('draws the robot: hiding a link changes the canvas pixels; every visual has triangles', async () => {
    const server = await serve(join(corpusDir, 'choreonoid/share/model/PA10/PA10.body'));
    servers.push(server);
    const { page, problems } = await open(browser, server.url);
    const canvas = page.locator('#view canvas');
    const before = await canvas.screenshot();
    expect(await hook(page).call((v) => v.setLinkVisible('J2_link', false))).toBe(true);
    await page.waitForTimeout(200);
    const after = await canvas.screenshot();
    expect(Buffer.compare(before, after)).not.toBe(0);
    const stats = await hook(page).call((v) => v.meshStats());
    expect(stats.visuals).toBeGreaterThan(10);
    expect(stats.drawn).toBe(stats.visuals);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sliders put every frame where `body-bridge tf` says (1e-6), device, optical and scan frames included', async () => {
    const file = join(projectRoot, 'models/sample_arm.body');
    const server = await serve(file);
    servers.push(server);
    const { page } = await open(browser, server.url);
    const model = applyRosConventions(loadRobotModel(file, { shapes: false })).model;
    const q = jointPositions(model, [], true);
    let k = 0;
    for (const name of q.keys()) q.set(name, 0.1 + 0.05 * k++);
    for (const [name, value] of q) await hook(page).call((v, a: [string, number]) => v.setJoint(a[0], a[1]), [name, value]);
    const tf = tfJson(model, q);
    const errors: string[] = [];
    for (const f of tf.frames) {
      const ours = await hook(page).call((v, n: string) => v.framePose(n), f.name);
      const err = ours ? poseError(ours, { translation: f.root.xyz, rotation: f.root.rotation }) : Infinity;
      if (!(err <= 1e-6)) errors.push(`${f.name} (${f.kind}) off by ${err}`);
    }
    expect(tf.frames.some((f) => f.kind === 'optical') && tf.frames.some((f) => f.kind === 'scan')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a slider moved by the user moves its link: LIFT to 0.2 raises HEAD by 0.2 (to the slider step)', async () => {
    const server = await serve(join(projectRoot, 'models/sample_arm.body'));
    servers.push(server);
    const { page } = await open(browser, server.url);
    const before = (await hook(page).call((v) => v.framePose('HEAD_link')))!.translation[2];
    await page.locator('#joints input[data-joint="LIFT"]').fill('0.2');
    const after = (await hook(page).call((v) => v.framePose('HEAD_link')))!.translation[2];
    const model = loadRobotModel(join(projectRoot, 'models/sample_arm.body'), { shapes: false });
    const lift = model.links.find((l) => l.joint.name === 'LIFT')!.joint;
    expect(Math.abs(after - before - (0.2 - lift.initial))).toBeLessThanOrEqual((lift.upper - lift.lower) / 1000);
    await page.close();
  });

  it("optical frames' z axes point along each camera's view: both of the sample arm's head cameras look forward (+X of HEAD)", async () => {
    // models/sample_arm.body mounts HEAD_CAMERA (optical_frame: cv, looks along its +Z) and DEPTH_CAMERA (gl, looks
    // along its −Z) with rotations that turn both to face the head's +X: an expectation written in the file itself.
    const file = join(projectRoot, 'models/sample_arm.body');
    const server = await serve(file);
    servers.push(server);
    const { page } = await open(browser, server.url);
    const head = await hook(page).call((v) => v.framePose('HEAD_link'));
    const forward = column(head!.rotation, 0);
    for (const camera of ['HEAD_CAMERA', 'DEPTH_CAMERA']) {
      const optical = await hook(page).call((v, n: string) => v.framePose(n), `${camera}_optical_frame`);
      const z = column(optical!.rotation, 2);
      for (let i = 0; i < 3; i++) expect(z[i], `${camera} z[${i}]`).toBeCloseTo(forward[i]!, 9);
    }
    await page.close();
  });

  it('a broken edit shows the located error and keeps the robot; the fix brings the new model', async () => {
    const file = join(work, 'arm.body');
    copyFileSync(join(projectRoot, 'models/sample_arm.body'), file);
    const server = await serve(file);
    servers.push(server);
    const { page } = await open(browser, server.url);
    const v1 = await hook(page).call((v) => v.version);
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('joint_type: free', 'joint_type: [free'));
    await page.waitForFunction(() => !(document.getElementById('error') as HTMLElement).hidden, null, { timeout: 20_000 });
    const message = await page.locator('#error').textContent();
    expect(message).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: error:`));
    expect(await hook(page).call((v) => v.version)).toBe(v1);
    expect(await hook(page).call((v) => v.framePose('BASE'))).not.toBeNull();
    writeFileSync(file, good.replace('name: SampleArm', 'name: SampleArmFixed'));
    await page.waitForFunction((before) => (window as unknown as { bodyBridgeView: ViewHook }).bodyBridgeView.version > before, v1, { timeout: 20_000 });
    await page.waitForFunction(() => (document.getElementById('error') as HTMLElement).hidden, null, { timeout: 20_000 });
    expect(await page.locator('#title').textContent()).toContain('SampleArmFixed');
    await page.close();
  });

  it.each([
    ['HRP4C (OBJ visuals with .mtl colours)', 'choreonoid/share/model/HRP4C/HRP4C.body'],
    ['SR1 from VRML', 'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl'],
  ])('%s: every visual is drawn, nothing fails to load', async (_name, rel) => {
    const server = await serve(join(corpusDir, rel));
    servers.push(server);
    // Meshes that come late (a loaded machine, a slow disk): the view is ready only once every one is in.
    const slowMeshes = async (page: Page): Promise<void> =>
      page.route(/\/view\/meshes\//, async (route) => {
        await new Promise((r) => setTimeout(r, 400));
        await route.continue();
      });
    const { page, problems } = await open(browser, server.url, slowMeshes);
    const stats = await hook(page).call((v) => v.meshStats());
    expect(stats.visuals).toBeGreaterThan(0);
    expect(stats.drawn).toBe(stats.visuals);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('body-bridge view, without a browser', () => {
  it('a model that does not load: exit 1 with the located error; bad options: exit 2', async () => {
    let stderr = '';
    const capture = { stdout: () => undefined, stderr: (t: string) => void (stderr += t), env: {} };
    const work = mkdtempSync(join(tmpdir(), 'bb-view-cli-'));
    try {
      const broken = join(work, 'broken.body');
      writeFileSync(broken, 'format: ChoreonoidBody\nformat_version: 2.0\nlinks: [\n');
      expect(await startView([broken, '--port', '0'], capture)).toBe(1);
      expect(stderr).toMatch(/broken\.body:\d+:\d+: error/);
      expect(await runCli(['view', broken, '--port', 'http'], capture)).toBe(2);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
