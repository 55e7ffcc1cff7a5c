// MoveIt's SRDF parser (srdfdom) on the generated configurations, where the user's ROS 2 has it (peers.ts
// finds it on AMENT_PREFIX_PATH / CMAKE_PREFIX_PATH): every SRDF loads with no error and no warning, and
// srdfdom reads the groups, end effectors, virtual joints and states we wrote. Without srdfdom the tests
// are skipped, and the run's summary says why and how to get it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { moveItConfig } from '../src/moveit/config.js';
import { toUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { buildSrdfHarness, MOVEIT_ROBOTS, srdfdomPeers } from './support/moveit-peers.js';
import { corpusDir } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';

// Made on first use: where srdfdom is absent every test is skipped and no hook would remove it.
let scratch: string | undefined;
const workDir = (): string => (scratch ??= mkdtempSync(join(tmpdir(), 'bb-moveit-srdfdom-')));
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(skipWithout(...srdfdomPeers()))('srdfdom loads every generated SRDF', () => {
  it.each(MOVEIT_ROBOTS)('%s', (file) => {
    const harness = buildSrdfHarness();
    const work = workDir();
    const ros = applyRosConventions(loadRobotModel(join(corpusDir, file)));
    const name = file.split('/').pop()!.replace(/\W/g, '_');
    const urdfFile = join(work, `${name}.urdf`);
    writeUrdfSync(toUrdf(ros.model, { meshDir: join(work, 'meshes') }), urdfFile);
    const config = moveItConfig(ros, { samples: 1000 });
    const srdfFile = join(work, `${name}.srdf`);
    writeFileSync(srdfFile, config.srdf);
    const r = spawnSync(harness, [urdfFile, srdfFile], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`groups ${config.semantic.groups.length}\n`);
    expect(r.stdout).toContain(`end_effectors ${config.semantic.endEffectors.length}\n`);
    expect(r.stdout).toContain(`virtual_joints ${config.semantic.virtualJoints.length}\n`);
    expect(r.stdout).toContain(`states ${config.semantic.states.length}\n`);
  });

  it('and complains on stderr about an SRDF naming a link the URDF lacks (the check above can fail)', () => {
    const harness = buildSrdfHarness();
    const work = workDir();
    const ros = applyRosConventions(loadRobotModel(join(corpusDir, MOVEIT_ROBOTS[0]!)));
    const urdfFile = join(work, 'control.urdf');
    writeUrdfSync(toUrdf(ros.model, { meshDir: join(work, 'meshes') }), urdfFile);
    const srdfFile = join(work, 'control.srdf');
    writeFileSync(srdfFile, moveItConfig(ros, { samples: 10 }).srdf.replace('tip_link="J7_link"', 'tip_link="J9_link"'));
    const r = spawnSync(harness, [urdfFile, srdfFile], { encoding: 'utf8' });
    expect(r.stderr).toContain("Link 'J9_link' declared as part of a chain in group 'arm' is not known to the URDF");
  });
});
