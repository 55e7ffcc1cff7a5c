// test/support/peers.ts on machines made up in a scratch folder: each finder finds its peer where a user's
// machine has it (PATH, a ROS 2 prefix on AMENT_PREFIX_PATH / CMAKE_PREFIX_PATH, a CMake config, pkg-config)
// and nowhere else, and says what installs it when it is absent; the run's notes print as one summary.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { srdfdomFlags } from './support/moveit-peers.js';
import { isLiveSuite, liveSuitesSummary, rosOfRun, suiteRun } from './support/live-summary.js';
import { formatNotes, type PeerNote } from './support/peer-notes.js';
import { skipWithout } from './support/peer-skip.js';
import {
  type Env,
  findCheckUrdf,
  findChoreonoid,
  findChoreonoidRos,
  findChromium,
  findCmakeConfig,
  findMoveGroup,
  findPkgConfig,
  findPython3,
  findRobotStatePublisher,
  findRviz2,
  findSrdfdom,
  type Lookup,
  pkgConfig,
  requiredKinds,
  searchPrefixes,
} from './support/peers.js';
import { scratchDir } from './support/temp-dir.js';

const work = scratchDir('bb-peers-');
let made = 0;
/** A fresh folder with the given files (an `x` mode makes an executable that exits with `code`). */
function machine(files: Record<string, string | { exit: number }>): string {
  const root = join(work, `m${made++}`);
  mkdirSync(root, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'string') writeFileSync(path, content);
    else {
      writeFileSync(path, `#!/bin/sh\nexit ${content.exit}\n`);
      chmodSync(path, 0o755);
    }
  }
  return root;
}

const exe = { exit: 0 };
const notFound = (l: Lookup<object>): string => (l.ok ? 'found' : `${l.kind}: ${l.reason} | ${l.install}`);

describe('executables on PATH', () => {
  it('are found in PATH order, and only there; absent, the reason and the Debian package', () => {
    const a = machine({ 'bin/check_urdf': exe });
    const b = machine({ 'bin/check_urdf': exe });
    expect(findCheckUrdf({ PATH: `${join(a, 'bin')}:${join(b, 'bin')}` })).toEqual({ ok: true, exe: join(a, 'bin', 'check_urdf') });
    // A file that is not executable is not a command.
    const c = machine({ 'bin/check_urdf': 'text' });
    expect(notFound(findCheckUrdf({ PATH: join(c, 'bin') }))).toBe('debian: check_urdf: not on PATH | sudo apt-get install liburdfdom-tools');
    expect(findCheckUrdf({})).toMatchObject({ ok: false, peer: 'check_urdf' });
  });

  it('Chromium: CHROMIUM_PATH when set (and said so when it is wrong), else the usual names', () => {
    const m = machine({ 'bin/chromium-browser': exe, 'opt/chrome': exe });
    expect(findChromium({ PATH: join(m, 'bin') })).toEqual({ ok: true, exe: join(m, 'bin', 'chromium-browser') });
    expect(findChromium({ PATH: join(m, 'bin'), CHROMIUM_PATH: join(m, 'opt/chrome') })).toEqual({ ok: true, exe: join(m, 'opt/chrome') });
    expect(notFound(findChromium({ PATH: join(m, 'bin'), CHROMIUM_PATH: join(m, 'nope') }))).toMatch(/CHROMIUM_PATH=.*nope is not an executable file \| sudo apt-get install chromium/);
  });

  it('python3: every python3 on PATH is tried, so a shim without the module does not hide one with it', () => {
    const shim = machine({ 'bin/python3': { exit: 1 } });
    const real = machine({ 'bin/python3': exe });
    expect(findPython3({ PATH: `${join(shim, 'bin')}:${join(real, 'bin')}` })).toEqual({ ok: true, exe: join(real, 'bin', 'python3') });
    expect(notFound(findPython3({ PATH: join(shim, 'bin') }))).toMatch(/^debian: none of the python3 on PATH \(.*\) can: .* \| sudo apt-get install python3$/);
  });
});

describe('ROS 2 packages', () => {
  const ros = machine({
    'lib/robot_state_publisher/robot_state_publisher': exe,
    'lib/moveit_ros_move_group/move_group': exe,
    'lib/rviz2/rviz2': exe,
    'lib/choreonoid_ros/choreonoid': exe,
  });

  it('are found in the prefixes AMENT_PREFIX_PATH or CMAKE_PREFIX_PATH name, where `ros2 run` finds them', () => {
    for (const env of [{ AMENT_PREFIX_PATH: `${join(work, 'none')}:${ros}` }, { CMAKE_PREFIX_PATH: ros }] as Env[]) {
      expect(findRobotStatePublisher(env)).toEqual({ ok: true, exe: join(ros, 'lib/robot_state_publisher/robot_state_publisher') });
      expect(findMoveGroup(env)).toEqual({ ok: true, exe: join(ros, 'lib/moveit_ros_move_group/move_group') });
      expect(findRviz2(env)).toEqual({ ok: true, exe: join(ros, 'lib/rviz2/rviz2') });
      expect(findChoreonoidRos(env)).toEqual({ ok: true, exe: join(ros, 'lib/choreonoid_ros/choreonoid') });
    }
  });

  it('without a sourced ROS 2 they are absent, saying so, with where to get them; rviz2 may also be on PATH', () => {
    const plain = machine({ 'bin/rviz2': exe });
    const r = findRobotStatePublisher({ PATH: join(plain, 'bin') });
    expect(notFound(r)).toMatch(/^ros: AMENT_PREFIX_PATH and CMAKE_PREFIX_PATH name no folder \(no ROS 2 is sourced\) \| .*robot-state-publisher.*docs\/peers\.md/);
    expect(notFound(findMoveGroup({ AMENT_PREFIX_PATH: plain }))).toMatch(/^ros: lib\/moveit_ros_move_group\/move_group is in none of the ROS 2 prefixes/);
    expect(findRviz2({ PATH: join(plain, 'bin') })).toEqual({ ok: true, exe: join(plain, 'bin/rviz2') });
  });

  it("another distribution's rviz2 left on PATH (Jazzy sourced after Humble) is not taken for this one's", () => {
    const humble = machine({ 'bin/rviz2': exe, 'share/ament_index/resource_index/packages/rviz2': '' });
    const jazzy = machine({ 'share/ament_index/resource_index/packages/rclcpp': '' });
    const env = { AMENT_PREFIX_PATH: jazzy, PATH: `${join(jazzy, 'bin')}${delimiter}${join(humble, 'bin')}` };
    expect(notFound(findRviz2(env))).toContain(`PATH's ${join(humble, 'bin/rviz2')} belongs to a ROS 2 that is not sourced`);
    expect(findRviz2({ ...env, AMENT_PREFIX_PATH: `${jazzy}${delimiter}${humble}` })).toEqual({ ok: true, exe: join(humble, 'bin/rviz2') });
  });
});

describe('srdfdom', () => {
  it('by its CMake config (an ament prefix), or by its include folder and library', () => {
    const cmake = machine({ 'share/srdfdom/cmake/srdfdomConfig.cmake': '' });
    expect(findSrdfdom({ AMENT_PREFIX_PATH: cmake })).toEqual({ ok: true, prefix: cmake, via: 'cmake', configDir: join(cmake, 'share/srdfdom/cmake') });
    const plain = machine({ 'include/srdfdom/srdfdom/model.h': '', 'lib/libsrdfdom.so': '' });
    expect(findSrdfdom({ CMAKE_PREFIX_PATH: plain })).toEqual({ ok: true, prefix: plain, via: 'include', includeDir: join(plain, 'include/srdfdom'), libDir: join(plain, 'lib') });
    expect(notFound(findSrdfdom({ AMENT_PREFIX_PATH: machine({ 'include/srdfdom/srdfdom/model.h': '' }) }))).toMatch(/^ros: no srdfdomConfig\.cmake, nor srdfdom\/model\.h with libsrdfdom\.so, in /);
  });

  it("compiles with srdfdom's own include folder and urdf's, never the prefix's other folders (Cyclone's include/idl/string.h)", () => {
    const prefix = machine({
      'include/srdfdom/srdfdom/model.h': '',
      'include/urdf/urdf/model.h': '',
      'include/idl/string.h': '#error shadowed',
      'include/rclcpp/rclcpp/rclcpp.hpp': '',
      'lib/libsrdfdom.so': '',
    });
    const found = findSrdfdom({ AMENT_PREFIX_PATH: prefix });
    if (!found.ok || found.via !== 'include') throw new Error(notFound(found));
    const flags = srdfdomFlags(found, { cflags: ['-I/deps'], libs: ['-ldeps'] });
    expect(flags.cflags).toEqual([`-I${join(prefix, 'include/srdfdom')}`, `-I${join(prefix, 'include/urdf')}`, '-I/deps']);
    expect(flags.libs).toEqual([`-L${join(prefix, 'lib')}`, `-Wl,-rpath,${join(prefix, 'lib')}`, '-lsrdfdom', '-ldeps']);
  });
});

describe('CMake prefixes and configs', () => {
  it("search CMAKE_PREFIX_PATH, AMENT_PREFIX_PATH, then the parent of PATH's bin folders, as find_package does", () => {
    const a = machine({ 'x': '' });
    const b = machine({ 'bin/tool': exe });
    expect(searchPrefixes({ CMAKE_PREFIX_PATH: a, PATH: `${join(b, 'bin')}:${join(work, 'shims')}` })).toEqual([a, b]);
  });

  it("find <name>Config.cmake and <name>-config.cmake in CMake's layouts, versioned folders included", () => {
    const m = machine({
      'share/srdfdom/cmake/srdfdomConfig.cmake': '',
      'lib/x86_64-linux-gnu/cmake/urdfdom/urdfdom-config.cmake': '',
      'share/choreonoid-2.5/cmake/ChoreonoidConfig.cmake': '',
      'lib/cmake/fcl/fclConfig.cmake': '',
    });
    expect(findCmakeConfig('srdfdom', [m])).toBe(join(m, 'share/srdfdom/cmake'));
    expect(findCmakeConfig('urdfdom', [m])).toBe(join(m, 'lib/x86_64-linux-gnu/cmake/urdfdom'));
    expect(findCmakeConfig('Choreonoid', [m])).toBe(join(m, 'share/choreonoid-2.5/cmake'));
    expect(findCmakeConfig('fcl', [m])).toBe(join(m, 'lib/cmake/fcl'));
    expect(findCmakeConfig('kdl_parser', [m])).toBeUndefined();
  });

  it.skipIf(skipWithout(findPkgConfig()))('pkg-config flags carry each -L folder as the run-time path too (a source build needs no LD_LIBRARY_PATH)', () => {
    const m = machine({ 'pc/fake.pc': 'prefix=/p\nName: fake\nDescription: d\nVersion: 1\nCflags: -I/p/include/fake\nLibs: -L/p/lib -lfake\n' });
    expect(pkgConfig(['fake'], { PATH: process.env.PATH, PKG_CONFIG_PATH: join(m, 'pc') })).toEqual({ ok: true, cflags: ['-I/p/include/fake'], libs: ['-L/p/lib', '-lfake', '-Wl,-rpath,/p/lib'] });
    expect(pkgConfig(['no-such-module-here'], { PATH: process.env.PATH, PKG_CONFIG_PATH: join(m, 'pc') })).toMatchObject({ ok: false });
  });
});

describe('Choreonoid', () => {
  const sdk = { 'include/choreonoid-2.5/cnoid/BodyLoader': '', 'lib/libCnoidBody.so': '' };
  const expected = (p: string) => ({ ok: true, prefix: p, includeDir: join(p, 'include/choreonoid-2.5'), libDir: join(p, 'lib'), version: '2.5' });

  it('CHOREONOID_PREFIX, else the prefix of `choreonoid` on PATH, else its CMake config; no default folder', () => {
    const a = machine(sdk);
    expect(findChoreonoid({ CHOREONOID_PREFIX: a })).toEqual(expected(a));
    const b = machine({ ...sdk, 'bin/choreonoid': exe });
    expect(findChoreonoid({ PATH: join(b, 'bin') })).toEqual(expected(b));
    const c = machine({ ...sdk, 'share/choreonoid-2.5/cmake/ChoreonoidConfig.cmake': '' });
    expect(findChoreonoid({ CMAKE_PREFIX_PATH: c })).toEqual(expected(c));
    expect(notFound(findChoreonoid({ CHOREONOID_PREFIX: machine({}) }))).toMatch(/^ros: CHOREONOID_PREFIX=.* has no include\/choreonoid-X\.Y\/cnoid\/BodyLoader/);
    expect(findChoreonoid({})).toMatchObject({ ok: false, peer: 'Choreonoid' });
  });
});

describe('strict mode and the summary', () => {
  it('BODY_BRIDGE_REQUIRE_PEERS: debian requires the Debian peers, all every peer; anything else is refused', () => {
    expect(requiredKinds({})).toEqual([]);
    expect(requiredKinds({ BODY_BRIDGE_REQUIRE_PEERS: 'debian' })).toEqual(['debian']);
    expect(requiredKinds({ BODY_BRIDGE_REQUIRE_PEERS: 'all' })).toEqual(['debian', 'ros']);
    expect(() => requiredKinds({ BODY_BRIDGE_REQUIRE_PEERS: 'yes' })).toThrow(/expected debian, all, or nothing/);
  });

  it('one paragraph per absent peer: why, how to install it, which files went without it', () => {
    const note = (file: string, extra: Partial<PeerNote> = {}): PeerNote => ({
      peer: 'assimp',
      kind: 'debian',
      reason: 'assimp: not on PATH',
      install: 'sudo apt-get install assimp-utils',
      file: `/r/test/${file}`,
      required: false,
      ...extra,
    });
    expect(formatNotes([], '/r')).toEqual([]);
    const notes = [note('b.test.ts'), note('a.test.ts'), note('b.test.ts'), note('c.test.ts', { part: 'assimp on the meshes' }), note('a.test.ts', { part: 'assimp on the meshes' })];
    expect(formatNotes(notes, '/r')).toEqual([
      'Skipped for want of a peer (install it and run again; docs/peers.md lists them all):',
      '  assimp: assimp: not on PATH',
      '    install: sudo apt-get install assimp-utils',
      '    skipped in: test/a.test.ts, test/b.test.ts',
      '    left out: assimp on the meshes (test/a.test.ts, test/c.test.ts)',
    ]);
    expect(formatNotes([note('a.test.ts', { required: true })], '/r')[1]).toBe('  assimp [required by BODY_BRIDGE_REQUIRE_PEERS: the run fails]: assimp: not on PATH');
  });

  it('the live suites in one place at the end: the ROS 2 sourced, each suite ran or skipped for want of which peer, their time', () => {
    const note = (peer: string, file: string, part?: string): PeerNote => ({ peer, kind: 'ros', reason: `${peer} absent`, install: 'x', file, required: false, ...(part ? { part } : {}) });
    const runs = [
      { file: '/r/test/ros-live.test.ts', passed: 12, failed: 0, skipped: 0, millis: 95_000 },
      { file: '/r/test/ros-live-moveit.test.ts', passed: 3, failed: 1, skipped: 2, millis: 400_000 },
      { file: '/r/test/ros-live-rviz.test.ts', passed: 0, failed: 0, skipped: 8, millis: 1_200 },
      { file: '/r/test/urdf.test.ts', passed: 40, failed: 0, skipped: 0, millis: 3_800 },
    ];
    const notes = [note('rviz2', '/r/test/ros-live-rviz.test.ts'), note('Xvfb', '/r/test/ros-live-rviz.test.ts'), note('move_group', '/r/test/ros-live-moveit.test.ts'), note('assimp', '/r/test/ros-live.test.ts', 'meshes')];
    const env = { AMENT_PREFIX_PATH: '/opt/ros/humble', ROS_DISTRO: 'humble', BODY_BRIDGE_ROS_SETUP: '/opt/ros/humble/setup.bash' };
    expect(liveSuitesSummary(runs, notes, env, '/r')).toEqual([
      'Live suites, ROS 2 humble from /opt/ros/humble/setup.bash:',
      '  test/ros-live-moveit.test.ts  ran: 3 passed, 1 failed, 2 skipped (no move_group), 6.7 min',
      '  test/ros-live-rviz.test.ts    skipped (no Xvfb, no rviz2), 1.2 s',
      '  test/ros-live.test.ts         ran: 12 passed, 0 failed, 1.6 min',
      '  live suites 8.3 min of 8.3 min summed over all 4 test files',
    ]);
    expect(liveSuitesSummary(runs.slice(3), [], env, '/r')).toEqual([]);
    // A suite whose beforeAll threw: vitest marks its tests skipped, the file failed.
    const setupFailed = suiteRun('/r/test/ros-live.test.ts', ['skipped', 'skipped'], 'failed', 2_000);
    expect(setupFailed).toMatchObject({ passed: 0, failed: 1, skipped: 2, fileFailed: true });
    expect(liveSuitesSummary([setupFailed], [], env, '/r')[1]).toBe('  test/ros-live.test.ts  failed outside its tests (its error is above), 0 passed, 2 skipped, 2.0 s');
    expect(suiteRun('/r/test/a.test.ts', [], 'failed', 0).failed).toBe(1);
    expect(suiteRun('/r/test/a.test.ts', ['passed', 'failed', 'skipped'], 'failed', 0)).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
    expect(suiteRun('/r/test/a.test.ts', ['skipped'], 'skipped', 0)).toMatchObject({ failed: 0, skipped: 1 });
    expect(rosOfRun({})).toBe('no ROS 2 sourced (AMENT_PREFIX_PATH is not set)');
    expect(rosOfRun({ AMENT_PREFIX_PATH: '/ws/install:/opt/ros/jazzy', ROS_DISTRO: 'jazzy' })).toBe('ROS 2 jazzy from /opt/ros/jazzy');
    expect(['test/ros-live.test.ts', 'test/ros-live-choreonoid.test.ts'].every(isLiveSuite)).toBe(true);
    expect(['test/ros-args.test.ts', 'test/ros-live.test.ts.orig', 'test/live/ros-live.ts'].some(isLiveSuite)).toBe(false);
  });
});
