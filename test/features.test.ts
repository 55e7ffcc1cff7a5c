// One tiny model per feature (test/models/features, like sdformat_urdf's test models): each is loaded and
// held to the expectations written in it by hand from the specifications, its URDF goes through check_urdf
// and KDL's forward kinematics, and its TF through the node on the memory transport; both must put every
// frame where the shared frame tree (`body-bridge tf`) does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { featureModels, featuresDir, indexMarkdown } from '../scripts/features-index.mjs';
import { framePoses, frameTree, isMovingJoint } from '../src/kinematics/frames.js';
import { loadRobotModel } from '../src/load.js';
import type { TFMessage } from '../src/messages/messages.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { Mat3, Pose, RobotModel } from '../src/model/types.js';
import { toUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { at, composeTree, jointState, poseError, rig } from './support/ros-rig.js';
import { skipWithout } from './support/peer-skip.js';
import { checkUrdf, checkUrdfPeer, kdlForwardKinematics, kdlPeers } from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';

interface FeatureModel {
  file: string;
  feature: string;
  expect: unknown;
}

const models = featureModels() as FeatureModel[];
const withoutPeers = skipWithout(checkUrdfPeer(), ...kdlPeers());
const work = scratchDir('bb-features-');

const column = (m: Mat3, j: number): number[] => [m[0][j], m[1][j], m[2][j]];

/** What the expectations are written against: the loaded model by name, and each frame's pose at rest. */
function view(model: RobotModel): unknown {
  const frames = frameTree(model);
  const poses = framePoses(frames, new Map());
  return {
    warnings: model.warnings,
    links: Object.fromEntries(model.links.map((l) => [l.name, l])),
    devices: Object.fromEntries(model.devices.map((d) => [d.name, d])),
    frames: Object.fromEntries(
      frames.map((f) => {
        const root = poses.get(f.name)!.root;
        return [f.name, { parent: f.parent, kind: f.kind, translation: root.translation, xAxis: column(root.rotation, 0), zAxis: column(root.rotation, 2) }];
      }),
    ),
  };
}

/** Where `actual` differs from the partial `expected` (numbers to 1e-9; "Infinity" strings for unlimited values). */
export function mismatches(expected: unknown, actual: unknown, path = ''): string[] {
  if (typeof expected === 'number' || expected === 'Infinity' || expected === '-Infinity') {
    const e = Number(expected);
    const ok = typeof actual === 'number' && (e === actual || Math.abs(e - actual) <= 1e-9);
    return ok ? [] : [`${path}: expected ${expected}, got ${JSON.stringify(actual)}`];
  }
  if (expected === null || typeof expected !== 'object') {
    return expected === actual ? [] : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${path}: expected ${expected.length} items, got ${JSON.stringify(actual)?.slice(0, 200)}`];
    return expected.flatMap((e, i) => mismatches(e, actual[i], `${path}[${i}]`));
  }
  if (actual === null || typeof actual !== 'object') return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
  return Object.entries(expected).flatMap(([k, e]) => mismatches(e, (actual as Record<string, unknown>)[k], `${path}.${k}`));
}

/** A configuration inside every moving joint's limits, different from the rest pose. */
function testConfiguration(model: RobotModel): Map<string, number> {
  const q = new Map<string, number>();
  for (const link of model.links.filter(isMovingJoint)) {
    const { lower, upper } = link.joint;
    q.set(link.joint.name, Number.isFinite(lower) && Number.isFinite(upper) ? lower + 0.7 * (upper - lower) : 0.7);
  }
  return q;
}

describe('the feature models', () => {
  it('are indexed: INDEX.md is what scripts/features-index.mjs makes of the folder', () => {
    expect(models.length).toBeGreaterThan(25);
    expect(readFileSync(join(featuresDir, 'INDEX.md'), 'utf8')).toBe(indexMarkdown(models));
  });

  it('the expectation matcher finds a difference (it can fail)', () => {
    expect(mismatches({ a: [1, { b: 'Infinity' }] }, { a: [1, { b: Infinity }] })).toEqual([]);
    expect(mismatches({ a: [1, { b: 2 }] }, { a: [1, { b: 2.001 }] })).toHaveLength(1);
    expect(mismatches({ a: [1] }, { a: [1, 2] })).toHaveLength(1);
  });
});

describe.each(models)('$file', ({ file, expect: expected }) => {
  const path = join(featuresDir, file);

  it('loads with the meaning its expectations give', () => {
    const model = loadRobotModel(path);
    expect(mismatches(expected, view(model))).toEqual([]);
  });

  it.skipIf(withoutPeers)('its URDF passes check_urdf, and KDL puts every frame where the frame tree does', () => {
    const model = applyRosConventions(loadRobotModel(path)).model;
    const urdfFile = join(work, file.replace(/\.\w+$/, '.urdf'));
    const result = toUrdf(model, { meshDir: join(work, 'meshes') });
    writeUrdfSync(result, urdfFile);
    const checked = checkUrdf(urdfFile);
    expect(checked.ok, checked.output).toBe(true);
    const frames = frameTree(model);
    for (const q of [new Map<string, number>(), testConfiguration(model)]) {
      const [kdl] = kdlForwardKinematics(urdfFile, [Object.fromEntries(q)]);
      const ours = framePoses(frames, q);
      const errors = frames.map((f) => {
        const k = kdl!.get(f.name);
        return k ? poseError(k, ours.get(f.name)!.root) : Infinity;
      });
      expect(Math.max(...errors), frames.map((f, i) => `${f.name}: ${errors[i]}`).join('\n')).toBeLessThanOrEqual(1e-9);
    }
  });

  it('its TF, composed like a TF listener, puts every frame where the frame tree does', () => {
    const loaded = loadRobotModel(path);
    const model = applyRosConventions(loaded).model;
    const q = testConfiguration(model);
    const { transport, bridge } = rig(loaded);
    transport.setTime(at(2000));
    transport.inject('joint_states', jointState(at(2000), [...q.keys()], [...q.values()]));
    const transforms = [...transport.last<TFMessage>('/tf_static')!.transforms, ...(transport.last<TFMessage>('/tf')?.transforms ?? [])];
    bridge.stop();
    const composed = composeTree(transforms, model.root);
    const frames = frameTree(model);
    const ours = framePoses(frames, q);
    expect(composed.size).toBe(frames.length);
    const errors = frames.map((f) => {
      const p: Pose | undefined = composed.get(f.name);
      return p ? poseError(p, ours.get(f.name)!.root) : Infinity;
    });
    expect(Math.max(...errors)).toBeLessThanOrEqual(1e-9);
  });
});
