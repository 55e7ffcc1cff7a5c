// The pieces the benchmark harness relies on to compare like with like: which files a load reads
// (the peer parses exactly those), the decode limit, triangle counting, deterministic joint inputs
// and the frame-by-frame comparison of the TF side with KDL.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeAndScan, meshTriangles } from '../bench/load.js';
import { compareLast, jointPositions, movingJointNames } from '../bench/tf.js';
import { traceReads } from '../bench/trace.js';
import { chainModel } from '../bench/chain.js';
import { bigMeshWrl } from '../bench/wrl-gen.js';
import { loadRobotModel } from '../src/load.js';
import type { RobotModel } from '../src/model/types.js';
import type { TransformStamped } from '../src/messages/messages.js';
import { corpusDir, requireShared } from './support/oracle.js';

describe('traceReads', () => {
  it('sees the model file and every resource the loader reads, each once', () => {
    requireShared();
    const body = join(corpusDir, 'choreonoid/sample/WRS2018/model/ChocoBlock_A-05-30.body');
    const { files } = traceReads(() => loadRobotModel(body));
    expect(files).toEqual([body, join(corpusDir, 'choreonoid/sample/WRS2018/model/resource/Terrain/A-0.5-30.yaml')]);
  });

  it('follows a YAML wrapper into its .wrl and the .wrl files it inlines', () => {
    requireShared();
    const wrapper = join(corpusDir, 'choreonoid-legacy-wrl/share/model/PA10/PA10.yaml');
    const { files } = traceReads(() => loadRobotModel(wrapper));
    expect(files[0]).toBe(wrapper);
    expect(files).toContain(join(corpusDir, 'choreonoid-legacy-wrl/share/model/PA10/PA10.wrl'));
    expect(files.filter((f) => f.endsWith('.wrl')).length).toBeGreaterThan(5);
    expect(new Set(files).size).toBe(files.length);
  });

  it('stops tracing when the traced call throws', () => {
    expect(() => traceReads(() => loadRobotModel('/nonexistent/model.body'))).toThrow();
    const { files } = traceReads(() => 1);
    expect(files).toEqual([]);
  });
});

describe('decodeAndScan', () => {
  it('decodes every byte and counts every line, so neither step can be skipped', () => {
    const text = 'a\nbé\n\nc';
    const bytes = new TextEncoder().encode(text);
    expect(decodeAndScan([bytes, bytes])).toBe(2 * (text.length + 3));
  });
});

describe('meshTriangles', () => {
  it('fans polygons and counts a shape shared by visual and collision once', () => {
    const model = chainModel(1);
    const shape = {
      geometry: {
        kind: 'mesh' as const,
        vertices: [],
        faces: [
          [0, 1, 2],
          [0, 1, 2, 3, 4],
        ],
        ccw: true,
        creaseAngle: 0,
      },
      transform: { linear: model.links[0]!.offset.rotation, translation: [0, 0, 0] as [number, number, number] },
      material: null,
    };
    const links = model.links.map((l, i) => (i === 0 ? { ...l, visuals: [shape], collisions: [shape] } : l));
    expect(meshTriangles({ ...model, links } as RobotModel)).toBe(1 + 3);
  });

  it('agrees with the generated .wrl', () => {
    expect(bigMeshWrl(3, 4).triangles).toBe(24);
  });
});

describe('TF inputs and comparison', () => {
  it('joint positions are deterministic and within ±1.5', () => {
    const a = jointPositions(42, 3, 5);
    expect(a).toEqual(jointPositions(42, 3, 5));
    expect(a).not.toEqual(jointPositions(43, 3, 5));
    for (const row of a) for (const q of row) expect(Math.abs(q)).toBeLessThan(1.5);
  });

  it('the synthetic chain has the asked-for number of moving joints', () => {
    expect(movingJointNames(chainModel(200))).toHaveLength(200);
  });

  const tf = (child: string, parent: string, t: number[], q: number[]): TransformStamped => ({
    header: { stamp: { sec: 1, nanosec: 0 }, frame_id: parent },
    child_frame_id: child,
    transform: { translation: { x: t[0]!, y: t[1]!, z: t[2]! }, rotation: { x: q[0]!, y: q[1]!, z: q[2]!, w: q[3]! } },
  });
  const kdl = (child: string, parent: string, t: number[], q: number[]) => ({
    child,
    parent,
    t: t as [number, number, number],
    q: q as [number, number, number, number],
  });

  it('treats q and −q as the same rotation and reports the largest differences', () => {
    const h = Math.SQRT1_2;
    const a = compareLast(
      [tf('b', 'a', [1, 2, 3], [0, 0, h, h]), tf('c', 'b', [0, 0, 1], [0, 0, 0, 1])],
      [kdl('b', 'a', [1, 2, 3 + 1e-6], [0, 0, -h, -h]), kdl('c', 'b', [0, 0, 1], [0, 0, 0, 1])],
    );
    expect(a.compared).toBe(2);
    expect(a.missing).toBe(0);
    expect(a.maxTranslationError).toBeCloseTo(1e-6, 12);
    expect(a.maxQuaternionError).toBeLessThan(1e-15);
  });

  it('counts frames with another parent or absent on either side as missing', () => {
    const a = compareLast(
      [tf('b', 'x', [0, 0, 0], [0, 0, 0, 1]), tf('extra', 'a', [0, 0, 0], [0, 0, 0, 1])],
      [kdl('b', 'a', [0, 0, 0], [0, 0, 0, 1]), kdl('c', 'a', [0, 0, 0], [0, 0, 0, 1])],
    );
    expect(a.compared).toBe(0);
    expect(a.missing).toBeGreaterThanOrEqual(2);
  });
});
