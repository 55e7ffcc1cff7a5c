// MoveIt's SRDF parser (srdfdom) on the generated configurations, where a ROS 2 build in /opt/ros2
// provides it: every SRDF loads with no error and no warning, and srdfdom reads the groups, end
// effectors, virtual joints and states we wrote. Without srdfdom the test is skipped, saying why.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { moveItConfig } from '../src/moveit/config.js';
import { toUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { corpusDir, projectRoot } from './support/oracle.js';

const ROS = process.env.BODY_BRIDGE_ROS_PREFIX ?? '/opt/ros2/humble';
const header = join(ROS, 'include/srdfdom/srdfdom/model.h');
const library = join(ROS, 'lib/libsrdfdom.so');
const available = existsSync(header) && existsSync(library);
const reason = available ? '' : `srdfdom is not installed under ${ROS} (no ${existsSync(header) ? library : header}); build it from github.com/moveit/srdfdom into that prefix`;

function buildHarness(): string {
  const binary = join(projectRoot, 'build/srdf_check');
  mkdirSync(join(projectRoot, 'build'), { recursive: true });
  const pc = spawnSync('pkg-config', ['--cflags', '--libs', 'urdfdom'], { encoding: 'utf8' });
  execFileSync(
    'g++',
    ['-O1', '-o', binary, join(projectRoot, 'test/peers/srdf_check.cpp'), `-I${join(ROS, 'include/srdfdom')}`, `-I${join(ROS, 'include')}`,
      `-L${join(ROS, 'lib')}`, `-Wl,-rpath,${join(ROS, 'lib')}`, '-lsrdfdom', '-ltinyxml2', ...pc.stdout.trim().split(/\s+/).filter(Boolean), '-std=c++17'],
    { stdio: 'pipe' },
  );
  return binary;
}

// Made on first use: where srdfdom is absent every test is skipped and no hook would remove it.
let scratch: string | undefined;
const workDir = (): string => (scratch ??= mkdtempSync(join(tmpdir(), 'bb-moveit-srdfdom-')));
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const ROBOTS = [
  'choreonoid/share/model/PA10/PA10.body',
  'choreonoid/share/model/UniversalRobots/UR10.body',
  'choreonoid/share/model/HRP4C/HRP4C.body',
  'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl',
  'choreonoid/share/model/GR001/GR001.body',
  'choreonoid/share/model/Tank/SimpleTank.body',
];

describe.skipIf(!available)(`srdfdom loads every generated SRDF${reason ? ` — skipped: ${reason}` : ''}`, () => {
  it.each(ROBOTS)('%s', (file) => {
    const harness = buildHarness();
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
});
