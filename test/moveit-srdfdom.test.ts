// MoveIt's SRDF parser (srdfdom) on the generated configurations, where a ROS 2 build in /opt/ros2
// provides it: every SRDF loads with no error and no warning, and srdfdom reads the groups, end
// effectors, virtual joints and states we wrote. Without srdfdom the tests are skipped, saying why.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { moveItConfig } from '../src/moveit/config.js';
import { toUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { MOVEIT_ROBOTS } from './support/moveit-peers.js';
import { corpusDir, projectRoot } from './support/oracle.js';

// Where srdfdom may be: a ROS 2 prefix (per-package include folders), or a standalone build of
// github.com/moveit/srdfdom (ros2 branch) such as /opt/srdfdom, whose shim/ folder may supply <urdf/model.h>.
const PREFIXES = process.env.BODY_BRIDGE_SRDFDOM_PREFIX ? [process.env.BODY_BRIDGE_SRDFDOM_PREFIX] : ['/opt/ros2/humble', '/opt/srdfdom'];
const found = (prefix: string): boolean => existsSync(join(prefix, 'include/srdfdom/srdfdom/model.h')) && existsSync(join(prefix, 'lib/libsrdfdom.so'));
const prefix = PREFIXES.find(found);
const available = prefix !== undefined;
const reason = available ? '' : `srdfdom (include/srdfdom/srdfdom/model.h, lib/libsrdfdom.so) is in none of ${PREFIXES.join(', ')}; build github.com/moveit/srdfdom (ros2 branch) into one`;

let built: string | undefined;
function buildHarness(root: string): string {
  if (built) return built;
  const binary = join(projectRoot, 'build/srdf_check');
  mkdirSync(join(projectRoot, 'build'), { recursive: true });
  const pc = spawnSync('pkg-config', ['--cflags', '--libs', 'urdfdom', 'tinyxml2', 'console_bridge'], { encoding: 'utf8' });
  const includes = [join(root, 'shim'), ...readdirSync(join(root, 'include')).map((d) => join(root, 'include', d)), join(root, 'include')].filter((d) => existsSync(d));
  execFileSync(
    'g++',
    ['-O1', '-o', binary, join(projectRoot, 'test/peers/srdf_check.cpp'), ...includes.map((d) => `-I${d}`), `-L${join(root, 'lib')}`,
      `-Wl,-rpath,${join(root, 'lib')}`, '-lsrdfdom', ...pc.stdout.trim().split(/\s+/).filter(Boolean), '-std=c++17'],
    { stdio: 'pipe' },
  );
  return (built = binary);
}

// Made on first use: where srdfdom is absent every test is skipped and no hook would remove it.
let scratch: string | undefined;
const workDir = (): string => (scratch ??= mkdtempSync(join(tmpdir(), 'bb-moveit-srdfdom-')));
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});


describe.skipIf(!available)(`srdfdom loads every generated SRDF${reason ? ` — skipped: ${reason}` : ''}`, () => {
  it.each(MOVEIT_ROBOTS)('%s', (file) => {
    const harness = buildHarness(prefix!);
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
    const harness = buildHarness(prefix!);
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
