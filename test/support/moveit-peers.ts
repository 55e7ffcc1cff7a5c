// MoveIt's peers for the configuration `body-bridge moveit` writes: FCL for the collision matrix (the
// harness of test/peers/fcl_collide.cpp, urdfdom + FCL, gives per joint configuration the link pairs FCL
// finds in collision) and srdfdom for the SRDF (test/peers/srdf_check.cpp). peers.ts finds both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileHarness } from './harness.js';
import { projectRoot } from './oracle.js';
import { type CompileFlags, type Executable, findCmake, findCxx, findFcl, findSrdfdom, found, type Lookup, memo, pkgConfig, type SrdfdomInstall } from './peers.js';

export const fclPeers = memo(() => [findCxx(), findFcl()] as const);

export function buildFclHarness(): string {
  const [cxx, fcl] = fclPeers();
  // fcl.pc says -std=c++11; the harness needs C++17, so that flag comes last.
  return compileHarness({
    cxx: found(cxx).exe,
    source: join(projectRoot, 'test/peers/fcl_collide.cpp'),
    binary: join(projectRoot, 'build/fcl_collide'),
    flags: found(fcl),
    before: ['-O2'],
    after: ['-std=c++17'],
  });
}

/** test/peers/fcl_scene.cpp: collision objects as MoveIt's FCL checker builds them, probed with small solids. */
export function buildFclSceneHarness(): string {
  const [cxx, fcl] = fclPeers();
  return compileHarness({
    cxx: found(cxx).exe,
    source: join(projectRoot, 'test/peers/fcl_scene.cpp'),
    binary: join(projectRoot, 'build/fcl_scene'),
    flags: found(fcl),
    before: ['-O1'],
    after: ['-std=c++17'],
  });
}

/** Runs fcl_scene on `lines`; one "hit" or "miss" per probe line, in order. */
export function fclScene(lines: readonly string[]): boolean[] {
  const r = spawnSync(buildFclSceneHarness(), [], { input: `${lines.join('\n')}\n`, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`fcl_scene failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return r.stdout.split('\n').filter((l) => l === 'hit' || l === 'miss').map((l) => l === 'hit');
}

/** srdfdom, the compiler, and CMake where srdfdom is found by its CMake config (the harness is then built by CMake). */
export const srdfdomPeers = memo((): readonly [Lookup<Executable>, Lookup<SrdfdomInstall>, ...Lookup<Executable>[]] => {
  const srdfdom = findSrdfdom();
  return [findCxx(), srdfdom, ...(srdfdom.ok && srdfdom.via === 'cmake' ? [findCmake()] : [])];
});

const srdfSource = join(projectRoot, 'test/peers/srdf_check.cpp');
const srdfBinary = join(projectRoot, 'build/srdf_check');

/**
 * Builds test/peers/srdf_check.cpp against the srdfdom peers.ts found, with only the include folders srdfdom
 * needs: its CMake config's (CMake then also gives the dependencies' folders and the run-time paths), or,
 * for an install without one, its own include folder with urdfdom's, tinyxml2's and console_bridge's. Never
 * every folder under a prefix's include: a ROS 2 prefix holds Cyclone DDS's include/idl/string.h, which
 * would shadow the C library's <string.h>.
 */
export function buildSrdfHarness(): string {
  const [cxx, srdfdom, cmake] = srdfdomPeers();
  const install = found(srdfdom);
  if (install.via === 'include') return buildWithFlags(found(cxx).exe, install);
  if (!cmake) throw new Error('srdfdom has a CMake config, and CMake was not looked for');
  return buildWithCmake(found(cmake).exe, found(cxx).exe, install);
}

function buildWithFlags(cxx: string, install: SrdfdomInstall & { via: 'include' }): string {
  const deps = pkgConfig(['urdfdom', 'tinyxml2', 'console_bridge']);
  if (!deps.ok) throw new Error(`srdfdom's dependencies: pkg-config urdfdom tinyxml2 console_bridge: ${deps.error}`);
  return compileHarness({ cxx, source: srdfSource, binary: srdfBinary, flags: srdfdomFlags(install, deps), before: ['-O1'], after: ['-std=c++17'] });
}

/**
 * srdfdom installed without a CMake config: its include folder, the urdf package's own include folder in
 * the same prefix where there is one (srdfdom/model.h includes <urdf/model.h>), and its dependencies'.
 */
export function srdfdomFlags(install: SrdfdomInstall & { via: 'include' }, deps: CompileFlags): CompileFlags {
  const urdf = [join(install.prefix, 'include', 'urdf')].filter((d) => existsSync(join(d, 'urdf', 'model.h')));
  return {
    cflags: [`-I${install.includeDir}`, ...urdf.map((d) => `-I${d}`), ...deps.cflags],
    libs: [`-L${install.libDir}`, `-Wl,-rpath,${install.libDir}`, '-lsrdfdom', ...deps.libs],
  };
}

const SRDF_CMAKE = `cmake_minimum_required(VERSION 3.16)
project(srdf_check CXX)
find_package(srdfdom REQUIRED)
find_package(urdfdom REQUIRED)
add_executable(srdf_check \${HARNESS_SOURCE})
target_compile_features(srdf_check PRIVATE cxx_std_17)
# ament packages export a target; older configs only <name>_INCLUDE_DIRS / _LIBRARIES, their dependencies' included.
if(TARGET srdfdom::srdfdom)
  target_link_libraries(srdf_check srdfdom::srdfdom)
endif()
target_include_directories(srdf_check PRIVATE \${srdfdom_INCLUDE_DIRS} \${urdfdom_INCLUDE_DIRS})
target_link_libraries(srdf_check \${srdfdom_LIBRARIES} \${urdfdom_LIBRARIES})
`;

function buildWithCmake(cmakeExe: string, cxx: string, install: SrdfdomInstall & { via: 'cmake' }): string {
  const dir = join(projectRoot, 'build', 'srdf_check.cmake');
  const stampFile = `${srdfBinary}.cmd`;
  const stamp = JSON.stringify([cxx, install.configDir, process.env.CMAKE_PREFIX_PATH ?? '', process.env.AMENT_PREFIX_PATH ?? '', SRDF_CMAKE]);
  if (existsSync(srdfBinary) && statSync(srdfBinary).mtimeMs >= statSync(srdfSource).mtimeMs && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return srdfBinary;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'CMakeLists.txt'), SRDF_CMAKE);
  const cmake = (args: string[]): void => {
    const r = spawnSync(cmakeExe, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cmake ${args.join(' ')} failed:\n${(r.stdout + r.stderr).slice(-4000)}`);
  };
  const build = join(dir, `build.${process.pid}`);
  cmake(['-S', dir, '-B', build, `-DCMAKE_CXX_COMPILER=${cxx}`, '-DCMAKE_BUILD_TYPE=Release', `-Dsrdfdom_DIR=${install.configDir}`, `-DHARNESS_SOURCE=${srdfSource}`]);
  cmake(['--build', build]);
  renameSync(join(build, 'srdf_check'), srdfBinary);
  rmSync(build, { recursive: true, force: true });
  writeFileSync(stampFile, stamp);
  return srdfBinary;
}

export interface FclRun {
  /** Links with collision geometry FCL could read. */
  links: string[];
  /** Shapes it could not read, by link. */
  skipped: Map<string, string>;
  /** Per configuration: colliding pairs as "A\u0000B" with A < B. */
  hits: Set<string>[];
  /** Seconds FCL (with the harness's kinematics) spent in the checks. */
  seconds: number;
}

export const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** A box of the world around the robot, in its URDF root link's frame (fcl_collide's `obstacle`). */
export interface ObstacleBox {
  name: string;
  /** Centre, and the box's rotation as a quaternion [x, y, z, w]. */
  centre: readonly [number, number, number];
  quaternion?: readonly [number, number, number, number];
  size: readonly [number, number, number];
}

/**
 * FCL's verdicts for each configuration; every primitive's dimensions multiplied by `scale`. A link touching an
 * obstacle shows as the pair (link, `@<obstacle name>`).
 */
export function fclCollisions(urdfFile: string, configurations: readonly ReadonlyMap<string, number>[], scale = 1, obstacles: readonly ObstacleBox[] = []): FclRun {
  const script = [`scale ${scale}`];
  for (const o of obstacles) script.push(`obstacle ${o.name} ${o.centre.join(' ')} ${(o.quaternion ?? [0, 0, 0, 1]).join(' ')} ${o.size.join(' ')}`);
  for (const q of configurations) {
    script.push('reset');
    for (const [name, value] of q) script.push(`q ${value} ${name}`);
    script.push('check');
  }
  script.push('time');
  const r = spawnSync(buildFclHarness(), [urdfFile], { input: `${script.join('\n')}\n`, encoding: 'utf8', timeout: 600_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`fcl_collide failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const out: FclRun = { links: [], skipped: new Map(), hits: [], seconds: NaN };
  let current = new Set<string>();
  for (const line of r.stdout.split('\n')) {
    const [head, a, ...rest] = line.split(' ');
    if (head === 'link') out.links.push(a!);
    else if (head === 'skip') out.skipped.set(a!, rest.join(' '));
    else if (head === 'hit') current.add(pairKey(a!, rest[0]!));
    else if (head === 'time') out.seconds = Number(a);
    else if (head === 'end') {
      out.hits.push(current);
      current = new Set();
    }
  }
  return out;
}

/** The robots the MoveIt peers check: arms, arms with hands, humanoids, a tracked vehicle, a wheeled base with an arm. */
export const MOVEIT_ROBOTS = [
  'choreonoid/share/model/PA10/PA10.body',
  'choreonoid/share/model/UniversalRobots/UR10.body',
  'choreonoid/share/model/HRP4C/HRP4C.body',
  'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl',
  'choreonoid/share/model/GR001/GR001.body',
  'choreonoid/share/model/Tank/SimpleTank.body',
  'choreonoid/share/model/UniversalRobots/UR10-2F85.body',
  'openhrp3/sample/model/RH2/RH2_WithArm_withoutSensor.wrl',
];
