// robot_description_semantic from the node: off by default (no publisher at all), and when asked for,
// the very SRDF `body-bridge moveit` writes for the same model, latched, published again when a reload
// changes it and handed to the parameter mirror each time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { loadRobotModel } from '../src/load.js';
import type { StringMsg } from '../src/messages/messages.js';
import { SEMANTIC_TOPIC } from '../src/ros/semantic.js';
import { latchedQoS } from '../src/ros/transport.js';
import { rig } from './support/ros-rig.js';
import { scratchDir } from './support/temp-dir.js';
import { corpusDir } from './support/oracle.js';

const out = scratchDir('bb-ros-semantic-');
const pa10 = join(corpusDir, 'choreonoid/share/model/PA10/PA10.body');
const gr001 = join(corpusDir, 'choreonoid/share/model/GR001/GR001.body');

describe('robot_description_semantic', () => {
  it('is not advertised unless asked for', () => {
    const { transport } = rig(loadRobotModel(pa10));
    expect(transport.messages<StringMsg>(SEMANTIC_TOPIC)).toHaveLength(0);
    expect(transport.topics().some((p) => p.topic === SEMANTIC_TOPIC)).toBe(false);
  });

  it('carries the CLI\'s SRDF, latched, and follows a reload', async () => {
    const mirrored: string[] = [];
    const models: Record<string, ReturnType<typeof loadRobotModel>> = { [pa10]: loadRobotModel(pa10), [gr001]: loadRobotModel(gr001) };
    const { transport, bridge } = rig(models[pa10]!, { body_file: pa10, publish_robot_description_semantic: true, collision_samples: 300 }, {
      loadModel: (f) => models[f]!,
      onSemantic: (srdf) => mirrored.push(srdf),
    });
    const messages = () => transport.messages<StringMsg>(SEMANTIC_TOPIC).map((m) => m.data);
    expect(transport.topics().find((p) => p.topic === SEMANTIC_TOPIC)!.qos).toEqual(latchedQoS);
    let stderr = '';
    const status = await runCli(['moveit', pa10, '-o', join(out, 'pa10'), '--samples', '300'], { stdout: () => undefined, stderr: (t) => (stderr += t), env: {} });
    expect(status, stderr).toBe(0);
    expect(messages()).toEqual([readFileSync(join(out, 'pa10', 'PA10.srdf'), 'utf8')]);
    expect(bridge.setParams({ body_file: gr001 }).successful).toBe(true);
    expect(messages()).toHaveLength(2);
    expect(messages()[1]).toContain('<robot name="GR001">');
    expect(mirrored).toEqual(messages());
    // A parameter change that alters the SRDF is a reload too.
    expect(bridge.setParams({ collision_samples: 0 }).successful).toBe(true);
    expect(messages()).toHaveLength(3);
    expect(messages()[2]).not.toContain('reason="Never"');
  });
});
