// The one place that finds the peers the tests and the benchmarks check body_bridge against, the way a
// user's machine has them: executables on PATH, libraries through pkg-config or their own CMake config,
// ROS 2 packages on the prefixes ROS 2's setup script puts on AMENT_PREFIX_PATH / CMAKE_PREFIX_PATH.
// No folder of one machine is named here. Where a peer is absent its finder says where it looked and what
// installs it; test/support/peer-skip.ts turns that into a skip (or, in strict mode, a failure).
// Plain Node: the benchmarks import it too, so no vitest here.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { installedChoreonoid } from '../../src/project/path-variables.js';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * debian: a Debian package that .ci/run installs (strict mode requires it); ros: a ROS 2 package or a
 * source build that no Debian package provides, found only where the user's ROS 2 is sourced.
 */
export type PeerKind = 'debian' | 'ros';

export interface Missing {
  ok: false;
  peer: string;
  kind: PeerKind;
  /** Where it was looked for. */
  reason: string;
  /** The command that installs it (Debian), or where the instructions are (ROS 2 and source builds). */
  install: string;
}

export type Lookup<T extends object> = ({ ok: true } & T) | Missing;

export interface Executable {
  exe: string;
}

/** What a C++ harness needs to compile and link against a library (and to find it at run time). */
export interface CompileFlags {
  cflags: string[];
  libs: string[];
}

/** A finder's answer for process.env, looked up once per process (each lookup may start pkg-config or python3). */
export function memo<T>(find: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: find() }).v;
}

/** A found peer, or an error saying which is missing and what installs it (callers that skip have checked already). */
export function found<T extends object>(lookup: Lookup<T>): T {
  if (!lookup.ok) throw new Error(`${lookup.peer} is missing (${lookup.reason}); install: ${lookup.install}`);
  return lookup;
}

const apt = (...packages: string[]): string => `sudo apt-get install ${packages.join(' ')}`;
/** ROS 2 packages: the binary packages where ROS 2 has them, otherwise a source build; docs/peers.md says which. */
const rosInstall = (what: string): string => `${what}, then source its setup.bash (docs/peers.md)`;

export const missing = (peer: string, kind: PeerKind, reason: string, install: string): Missing => ({ ok: false, peer, kind, reason, install });

const list = (value: string | undefined): string[] => (value ?? '').split(delimiter).filter((d) => d !== '');
const unique = (xs: readonly string[]): string[] => [...new Set(xs)];

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

const entries = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};

/** Every executable named `name` along PATH, in PATH's order. */
/** The Python the sourced ROS 2 runs its own tools with (the ros2 script's #! line): rclpy is built for it. */
export function rosPython(env: Env = process.env): string {
  const first = readFileSync(everyOnPath('ros2', env)[0]!, 'utf8').split('\n')[0]!;
  return first.startsWith('#!') ? first.slice(2).trim().split(/\s+/)[0]! : 'python3';
}

export function everyOnPath(name: string, env: Env = process.env): string[] {
  return unique(list(env.PATH).map((d) => join(d, name)).filter(isExecutableFile));
}

/** The first of `names` (in that order of preference) that PATH has. */
function firstOnPath(names: readonly string[], env: Env): string | undefined {
  for (const n of names) {
    const found = isAbsolute(n) ? (isExecutableFile(n) ? n : undefined) : everyOnPath(n, env)[0];
    if (found) return found;
  }
  return undefined;
}

function executable(peer: string, names: readonly string[], install: string, env: Env, kind: PeerKind = 'debian'): Lookup<Executable> {
  const exe = firstOnPath(names, env);
  return exe ? { ok: true, exe } : missing(peer, kind, `${names.join(', ')}: not on PATH`, install);
}

// --- executables -------------------------------------------------------------------------------

/** urdfdom's parser as a command (what `check_urdf` users and ROS tutorials run). */
export const findCheckUrdf = (env: Env = process.env): Lookup<Executable> => executable('check_urdf', ['check_urdf'], apt('liburdfdom-tools'), env);

/** assimp's command-line tool: the importer rviz reads meshes with. */
export const findAssimp = (env: Env = process.env): Lookup<Executable> => executable('assimp', ['assimp'], apt('assimp-utils'), env);

/** A C++ compiler for the harnesses: $CXX when set, else g++. */
export const findCxx = (env: Env = process.env): Lookup<Executable> => executable('C++ compiler', [env.CXX || 'g++'], apt('g++', 'make'), env);

/** A Chromium for playwright-core (which brings no browser of its own): $CHROMIUM_PATH, else the usual names on PATH. */
export function findChromium(env: Env = process.env): Lookup<Executable> {
  const install = `${apt('chromium')} (Ubuntu: chromium-browser), or set CHROMIUM_PATH to a Chromium or Chrome`;
  if (env.CHROMIUM_PATH) {
    return isExecutableFile(env.CHROMIUM_PATH)
      ? { ok: true, exe: env.CHROMIUM_PATH }
      : missing('Chromium', 'debian', `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`, install);
  }
  return executable('Chromium', ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'], install, env);
}

/** pkg-config, which most library peers are found with. */
export const findPkgConfig = (env: Env = process.env): Lookup<Executable> => executable('pkg-config', ['pkg-config'], apt('pkg-config'), env);

/** CMake, to build a harness against a library by the library's own CMake config. */
export const findCmake = (env: Env = process.env): Lookup<Executable> => executable('CMake', ['cmake'], apt('cmake', 'make'), env);

/** An X server without a screen, for GUI peers (rviz2, Choreonoid) run headless. */
export const findXvfb = (env: Env = process.env): Lookup<Executable> => executable('Xvfb', ['Xvfb'], apt('xvfb'), env);

/** ImageMagick's `import` (screenshots of an X display) and `convert` (raw pixels to PNG). */
export const findImageMagick = (env: Env = process.env): Lookup<Executable> => executable('ImageMagick import', ['import'], apt('imagemagick'), env);

// --- Python ------------------------------------------------------------------------------------

/**
 * The first python3 along PATH for which `check` runs: every python3 on PATH is tried, since a pyenv shim
 * or a virtualenv earlier on PATH may lack what Debian's python3 further down has (or the other way round).
 */
function python(peer: string, check: string, install: string, env: Env): Lookup<Executable> {
  const candidates = everyOnPath('python3', env);
  if (candidates.length === 0) return missing(peer, 'debian', 'python3: not on PATH', install);
  const exe = candidates.find((p) => spawnSync(p, ['-c', check], { env: { ...env }, stdio: 'ignore', timeout: 30_000 }).status === 0);
  return exe ? { ok: true, exe } : missing(peer, 'debian', `none of the python3 on PATH (${candidates.join(', ')}) can: ${check.replace(/\n/g, '; ')}`, install);
}

/** Any python3 (the launch files are Python). */
export const findPython3 = (env: Env = process.env): Lookup<Executable> => python('python3', 'import ast; ast.unparse', apt('python3'), env);

/** PyYAML with libyaml's C loader: the load benchmark's peer. */
export const findPythonLibyaml = (env: Env = process.env): Lookup<Executable> =>
  python('PyYAML with libyaml', 'import yaml\nassert yaml.__with_libyaml__', apt('python3-yaml'), env);

/** catkin_pkg: the package.xml parser colcon and rosdep use. */
export const findCatkinPkg = (env: Env = process.env): Lookup<Executable> =>
  python('catkin_pkg', 'from catkin_pkg.package import parse_package', apt('python3-catkin-pkg'), env);

// --- CMake and pkg-config ----------------------------------------------------------------------

/**
 * The prefixes CMake's find_package searches, in its order: CMAKE_PREFIX_PATH, then (ROS 2's) AMENT_PREFIX_PATH,
 * then the parent of every PATH entry that ends in bin or sbin (CMake's own rule, which is how it finds the
 * system's /usr without naming it).
 */
export function searchPrefixes(env: Env = process.env): string[] {
  const fromPath = list(env.PATH)
    .filter((d) => /\/s?bin\/?$/.test(d))
    .map((d) => dirname(d.replace(/\/$/, '')));
  return unique([...list(env.CMAKE_PREFIX_PATH), ...list(env.AMENT_PREFIX_PATH), ...fromPath]).filter(isDir);
}

/** The prefixes ROS 2 says it has: AMENT_PREFIX_PATH and CMAKE_PREFIX_PATH, which its setup scripts set. */
export const rosPrefixes = (env: Env = process.env): string[] => unique([...list(env.AMENT_PREFIX_PATH), ...list(env.CMAKE_PREFIX_PATH)]).filter(isDir);

/** lib, lib64 and the multiarch folders (lib/x86_64-linux-gnu, …) of a prefix. */
export const libDirs = (prefix: string): string[] =>
  [join(prefix, 'lib'), join(prefix, 'lib64'), ...entries(join(prefix, 'lib')).filter((d) => /-linux-/.test(d)).map((d) => join(prefix, 'lib', d))].filter(isDir);

/** The folder of `<name>Config.cmake` / `<name>-config.cmake` under one of `prefixes`, where find_package(<name>) looks. */
export function findCmakeConfig(name: string, prefixes: readonly string[]): string | undefined {
  const files = [`${name}Config.cmake`, `${name.toLowerCase()}-config.cmake`];
  const matches = (d: string): boolean => d.toLowerCase() === name.toLowerCase() || d.toLowerCase().startsWith(`${name.toLowerCase()}-`);
  for (const prefix of prefixes) {
    for (const base of [...libDirs(prefix), join(prefix, 'share')]) {
      const dirs = [
        ...entries(join(base, 'cmake')).filter(matches).map((d) => join(base, 'cmake', d)),
        ...entries(base).filter(matches).flatMap((d) => [join(base, d), join(base, d, 'cmake')]),
      ];
      const found = dirs.find((d) => files.some((f) => existsSync(join(d, f))));
      if (found) return found;
    }
  }
  return undefined;
}

/** `pkg-config --cflags` and `--libs` of the modules, or pkg-config's complaint. */
export function pkgConfig(modules: readonly string[], env: Env = process.env): ({ ok: true } & CompileFlags) | { ok: false; error: string; noPkgConfig?: true } {
  const run = (what: string) => spawnSync('pkg-config', [what, ...modules], { encoding: 'utf8', env: { ...env } });
  const cflags = run('--cflags');
  if (cflags.error) return { ok: false, error: 'pkg-config is not installed', noPkgConfig: true };
  if (cflags.status !== 0) return { ok: false, error: (cflags.stderr || `pkg-config could not resolve ${modules.join(' ')}`).trim().split('\n').pop()! };
  const libs = run('--libs');
  if (libs.status !== 0) return { ok: false, error: libs.stderr.trim() };
  const split = (s: string): string[] => s.trim().split(/\s+/).filter((x) => x !== '');
  return { ok: true, cflags: split(cflags.stdout), libs: withRunPaths(split(libs.stdout)) };
}

/** The Debian packages of a library found by pkg-config, with pkg-config itself where that is what is missing. */
const aptFor = (r: { noPkgConfig?: true }, ...packages: string[]): string => apt(...packages, ...(r.noPkgConfig ? ['pkg-config'] : []));

/** Each -L folder also as the run-time path, so a harness runs without LD_LIBRARY_PATH (a source build's prefix). */
const withRunPaths = (libs: readonly string[]): string[] => [...libs, ...libs.filter((f) => f.startsWith('-L')).map((f) => `-Wl,-rpath,${f.slice(2)}`)];

/** The pkg-config modules installed, by name. */
function pkgConfigModules(env: Env): string[] {
  const r = spawnSync('pkg-config', ['--list-all'], { encoding: 'utf8', env: { ...env } });
  return r.status === 0 ? r.stdout.split('\n').map((l) => l.split(/\s/)[0]!).filter((n) => n !== '') : [];
}

/** A library's header folder and library folder in one of `prefixes`: `header` under include or include/<name> (ROS 2's per-package folders). */
function findLibrary(name: string, header: string, prefixes: readonly string[]): { includeDir: string; libDir: string } | undefined {
  for (const prefix of prefixes) {
    const includeDir = [join(prefix, 'include', name), join(prefix, 'include')].find((d) => existsSync(join(d, header)));
    const libDir = libDirs(prefix).find((d) => existsSync(join(d, `lib${name}.so`)));
    if (includeDir && libDir) return { includeDir, libDir };
  }
  return undefined;
}

// --- libraries ---------------------------------------------------------------------------------

/**
 * KDL and kdl_parser (what robot_state_publisher and MoveIt's KDL plugin use). pkg-config when it resolves
 * both; Debian's kdl_parser.pc requires urdf.pc, which requires pluginlib's .pc, which Debian does not ship, so
 * then kdl_parser's header and library are found in the CMake prefixes beside orocos-kdl's pkg-config.
 */
export function findKdl(env: Env = process.env): Lookup<CompileFlags> {
  const packages = ['liborocos-kdl-dev', 'libkdl-parser-dev', 'liburdfdom-headers-dev'];
  const both = pkgConfig(['kdl_parser', 'orocos-kdl'], env);
  if (both.ok) return both;
  const kdl = pkgConfig(['orocos-kdl'], env);
  if (!kdl.ok) return missing('KDL (orocos-kdl)', 'debian', `pkg-config orocos-kdl: ${kdl.error}`, aptFor(kdl, ...packages));
  const install = apt(...packages);
  const prefixes = searchPrefixes(env);
  const parser = findLibrary('kdl_parser', 'kdl_parser/kdl_parser.hpp', prefixes);
  if (!parser) return missing('kdl_parser', 'debian', `kdl_parser/kdl_parser.hpp and libkdl_parser.so are in none of ${prefixes.join(', ')} (and pkg-config kdl_parser: ${both.error})`, install);
  const headers = pkgConfig(['urdfdom_headers'], env);
  return {
    ok: true,
    cflags: [`-I${parser.includeDir}`, ...(headers.ok ? headers.cflags : []), ...kdl.cflags],
    libs: [`-L${parser.libDir}`, `-Wl,-rpath,${parser.libDir}`, '-lkdl_parser', ...kdl.libs],
  };
}

/** sdformat (what Gazebo and ros_gz read URDF with): the newest sdformatN that pkg-config has. */
export function findSdformat(env: Env = process.env): Lookup<CompileFlags & { module: string }> {
  const install = findPkgConfig(env).ok ? apt('libsdformat-dev') : apt('libsdformat-dev', 'pkg-config');
  const modules = pkgConfigModules(env)
    .filter((m) => /^sdformat\d+$/.test(m))
    .sort((a, b) => Number(b.slice(8)) - Number(a.slice(8)));
  const module = modules[0];
  if (!module) return missing('sdformat', 'debian', 'pkg-config has no sdformatN module', install);
  const flags = pkgConfig([module], env);
  return flags.ok ? { ...flags, module } : missing('sdformat', 'debian', `pkg-config ${module}: ${flags.error}`, install);
}

/** FCL (MoveIt's collision checker) with urdfdom to read the URDF. */
export function findFcl(env: Env = process.env): Lookup<CompileFlags> {
  for (const [module, pkg] of [['fcl', 'libfcl-dev'], ['urdfdom', 'liburdfdom-dev']] as const) {
    const one = pkgConfig([module], env);
    if (!one.ok) return missing(module === 'fcl' ? 'FCL' : 'urdfdom', 'debian', `pkg-config ${module}: ${one.error}`, aptFor(one, pkg));
  }
  const flags = pkgConfig(['fcl', 'urdfdom'], env);
  return flags.ok ? flags : missing('FCL', 'debian', `pkg-config fcl urdfdom: ${flags.error}`, apt('libfcl-dev', 'liburdfdom-dev'));
}

/**
 * CMake with ament_cmake, and a python3 with ament_package and catkin_pkg for it: what configuring this
 * package's CMakeLists.txt needs without a sourced ROS 2.
 */
export function findAmentCmake(env: Env = process.env): Lookup<{ cmake: string; python: string }> {
  const install = apt('cmake', 'make', 'ament-cmake', 'python3-catkin-pkg');
  const cmake = firstOnPath(['cmake'], env);
  if (!cmake) return missing('ament_cmake', 'debian', 'cmake: not on PATH', install);
  if (!firstOnPath(['make'], env)) return missing('ament_cmake', 'debian', 'make: not on PATH', install);
  const prefixes = searchPrefixes(env);
  if (!findCmakeConfig('ament_cmake', prefixes)) return missing('ament_cmake', 'debian', `no ament_cmakeConfig.cmake in ${prefixes.join(', ')}`, install);
  const py = python('ament_cmake', 'import ament_package, catkin_pkg', install, env);
  return py.ok ? { ok: true, cmake, python: py.exe } : py;
}

// --- ROS 2 packages ----------------------------------------------------------------------------

const notSourced = (env: Env): string | null =>
  rosPrefixes(env).length === 0 ? 'AMENT_PREFIX_PATH and CMAKE_PREFIX_PATH name no folder (no ROS 2 is sourced)' : null;

/** An executable a ROS 2 package installs where `ros2 run <pkg> <exe>` finds it: <prefix>/lib/<pkg>/<exe>. */
/**
 * `<prefix>/bin/<exe>` on PATH where `<prefix>` is a ROS 2 install that is not sourced: another distribution's
 * leftover (sourcing Jazzy after Humble keeps Humble's bin on PATH), whose program would load the wrong libraries.
 */
function inUnsourcedRos(file: string, env: Env): boolean {
  const prefix = dirname(dirname(file));
  return existsSync(join(prefix, 'share', 'ament_index')) && !rosPrefixes(env).includes(prefix);
}

function rosExecutable(peer: string, pkg: string, exe: string, install: string, env: Env, alsoOnPath = false): Lookup<Executable> {
  const onPath = (): string | undefined => everyOnPath(exe, env).find((f) => !inUnsourcedRos(f, env));
  const found = rosPrefixes(env).map((p) => join(p, 'lib', pkg, exe)).find(isExecutableFile) ?? (alsoOnPath ? onPath() : undefined);
  if (found) return { ok: true, exe: found };
  const why = notSourced(env) ?? `lib/${pkg}/${exe} is in none of the ROS 2 prefixes (${rosPrefixes(env).join(', ')})`;
  const foreign = alsoOnPath ? everyOnPath(exe, env).filter((f) => inUnsourcedRos(f, env)) : [];
  const pathWhy = foreign.length > 0 ? `PATH's ${foreign.join(', ')} belongs to a ROS 2 that is not sourced` : `${exe} is not on PATH`;
  return missing(peer, 'ros', alsoOnPath ? `${why}, and ${pathWhy}` : why, install);
}

export const findRobotStatePublisher = (env: Env = process.env): Lookup<Executable> =>
  rosExecutable('robot_state_publisher', 'robot_state_publisher', 'robot_state_publisher', rosInstall('a ROS 2 with robot_state_publisher (ros-<distro>-robot-state-publisher)'), env);

export const findRviz2 = (env: Env = process.env): Lookup<Executable> => rosExecutable('rviz2', 'rviz2', 'rviz2', rosInstall('a ROS 2 with rviz2 (ros-<distro>-rviz2)'), env, true);

export const findMoveGroup = (env: Env = process.env): Lookup<Executable> =>
  rosExecutable('move_group', 'moveit_ros_move_group', 'move_group', rosInstall('a ROS 2 with MoveIt 2 (ros-<distro>-moveit)'), env);

/** topic_tools' C++ relay: the floor a relay's CPU is measured against. */
export const findTopicToolsRelay = (env: Env = process.env): Lookup<Executable> =>
  rosExecutable('topic_tools relay', 'topic_tools', 'relay', rosInstall('a ROS 2 with topic_tools (ros-<distro>-topic-tools)'), env);

/**
 * The installed Choreonoid's share directory (its models and samples): the `choreonoid` on PATH, as Choreonoid
 * itself finds it (`<prefix>/share/choreonoid-X.Y` beside its bin; src/project/path-variables.ts), and as
 * project files name it (${SHARE}). It holds robots the corpus lacks (test/support/role-expectations.ts).
 */
export function findChoreonoidShare(env: Env = process.env): Lookup<{ dir: string }> {
  const share = installedChoreonoid(env)?.share;
  if (share !== undefined && existsSync(join(share, 'model'))) return { ok: true, dir: share };
  const why = share === undefined ? 'no choreonoid on PATH' : `${share} has no model directory`;
  return missing("Choreonoid's share", 'ros', why, rosInstall('build github.com/choreonoid/choreonoid into /opt/ros/<distro>'));
}

/** choreonoid_ros's `choreonoid` (what `ros2 run choreonoid_ros choreonoid` starts, the ROS 2 plugin found through AMENT_PREFIX_PATH). */
export const findChoreonoidRos = (env: Env = process.env): Lookup<Executable> =>
  rosExecutable('choreonoid_ros', 'choreonoid_ros', 'choreonoid', rosInstall('build github.com/choreonoid/choreonoid_ros in a workspace over Choreonoid'), env);

/**
 * choreonoid_ros built with ros2_control — its ROS2 plugin (<prefix>/lib/choreonoid-X.Y/libCnoidROS2Plugin.so)
 * registering ROS2ControlItem — with controller_manager's spawner and the controllers the generated configuration
 * names (joint_state_broadcaster, joint_trajectory_controller, diff_drive_controller, bicycle_steering_controller) in the ROS 2 prefixes.
 */
export function findChoreonoidRos2Control(env: Env = process.env): Lookup<{ plugin: string; spawner: string }> {
  const install = rosInstall('build ros2_control, ros2_controllers and github.com/choreonoid/choreonoid_ros (with ROS2ControlItem) in a workspace over Choreonoid');
  const prefixes = rosPrefixes(env);
  const plugin = prefixes
    .flatMap((p) => entries(join(p, 'lib')).filter((d) => /^choreonoid-[0-9.]+$/.test(d)).map((d) => join(p, 'lib', d, 'libCnoidROS2Plugin.so')))
    .find((f) => existsSync(f));
  const why = notSourced(env);
  if (why) return missing('choreonoid_ros with ros2_control', 'ros', why, install);
  if (!plugin) return missing('choreonoid_ros with ros2_control', 'ros', `no lib/choreonoid-X.Y/libCnoidROS2Plugin.so in ${prefixes.join(', ')}`, install);
  if (!readFileSync(plugin).includes('ROS2ControlItem')) return missing('choreonoid_ros with ros2_control', 'ros', `${plugin} has no ROS2ControlItem (choreonoid_ros built without ros2_control)`, install);
  const spawner = rosExecutable('controller_manager spawner', 'controller_manager', 'spawner', install, env);
  if (!spawner.ok) return spawner;
  const controllers = ['joint_state_broadcaster', 'joint_trajectory_controller', 'diff_drive_controller', 'bicycle_steering_controller'];
  const absent = controllers.filter((c) => !prefixes.some((p) => libDirs(p).some((d) => existsSync(join(d, `lib${c}.so`)))));
  if (absent.length > 0) return missing('ros2_controllers', 'ros', `lib${absent.join('.so, lib')}.so in none of ${prefixes.join(', ')}`, install);
  return { ok: true, plugin, spawner: spawner.exe };
}

/** The folders of installed .msg definitions, <prefix>/share/<package>/msg, for every package named: where rosidl reads them. */
export function findMessagePackages(packages: readonly string[], env: Env = process.env): Lookup<{ dirs: Record<string, string> }> {
  const dirs: Record<string, string> = {};
  for (const pkg of packages) {
    const dir = rosPrefixes(env).map((p) => join(p, 'share', pkg, 'msg')).find(isDir);
    if (dir) dirs[pkg] = dir;
  }
  const absent = packages.filter((p) => !dirs[p]);
  if (absent.length === 0) return { ok: true, dirs };
  const why = notSourced(env) ?? `share/${absent.join('/msg, share/')}/msg in none of the ROS 2 prefixes (${rosPrefixes(env).join(', ')})`;
  return missing(`message definitions (${absent.join(', ')})`, 'ros', why, rosInstall(`a ROS 2 with ${absent.join(', ')} (ros-<distro>-moveit-msgs)`));
}

/** srdfdom (MoveIt's SRDF parser): by its CMake config, or by its include folder and library. */
export type SrdfdomInstall = { prefix: string } & ({ via: 'cmake'; configDir: string } | { via: 'include'; includeDir: string; libDir: string });

export function findSrdfdom(env: Env = process.env): Lookup<SrdfdomInstall> {
  const install = rosInstall('a ROS 2 with srdfdom (ros-<distro>-srdfdom, or github.com/moveit/srdfdom built in a workspace)');
  const prefixes = searchPrefixes(env);
  for (const prefix of prefixes) {
    const configDir = findCmakeConfig('srdfdom', [prefix]);
    if (configDir) return { ok: true, prefix, via: 'cmake', configDir };
    const lib = findLibrary('srdfdom', 'srdfdom/model.h', [prefix]);
    if (lib) return { ok: true, prefix, via: 'include', ...lib };
  }
  const why = notSourced(env) ?? `no srdfdomConfig.cmake, nor srdfdom/model.h with libsrdfdom.so, in ${rosPrefixes(env).join(', ')}`;
  return missing('srdfdom', 'ros', why, install);
}

/**
 * ros2_control's URDF reader (hardware_interface's component_parser): its header and library in a ROS 2 prefix,
 * with tinyxml2 where the ROS 2 install or the system has it.
 */
export function findHardwareInterface(env: Env = process.env): Lookup<CompileFlags> {
  const install = rosInstall('a ROS 2 with ros2_control (ros-<distro>-hardware-interface, or github.com/ros-controls/ros2_control built in a workspace)');
  for (const prefix of rosPrefixes(env)) {
    const lib = findLibrary('hardware_interface', 'hardware_interface/component_parser.hpp', [prefix]);
    // Its headers include its dependencies' (Jazzy's hardware_info.hpp: joint_limits/joint_limits.hpp), each under
    // include/<package> of the prefix that has it, as the package's CMake export would add them.
    const deps = packageDependencies('hardware_interface', rosPrefixes(env)).map((d) => `-I${d}`);
    if (lib) return { ok: true, cflags: [`-I${lib.includeDir}`, ...deps], libs: [`-L${lib.libDir}`, `-Wl,-rpath,${lib.libDir}`, '-lhardware_interface'] };
  }
  const why = notSourced(env) ?? `hardware_interface/component_parser.hpp with libhardware_interface.so is in none of ${rosPrefixes(env).join(', ')}`;
  return missing('hardware_interface (ros2_control)', 'ros', why, install);
}

/**
 * The include/<package> folders of a ROS package's dependencies, transitively (package.xml's <depend> and
 * <build_export_depend>), each from the first prefix that has the package; packages without headers are skipped.
 */
export function packageDependencies(name: string, prefixes: readonly string[]): string[] {
  const dirs: string[] = [];
  const seen = new Set<string>([name]);
  const queue = [name];
  while (queue.length > 0) {
    const pkg = queue.shift()!;
    const prefix = prefixes.find((p) => existsSync(join(p, 'share', pkg, 'package.xml')));
    if (!prefix) continue;
    if (pkg !== name && existsSync(join(prefix, 'include', pkg))) dirs.push(join(prefix, 'include', pkg));
    const xml = readFileSync(join(prefix, 'share', pkg, 'package.xml'), 'utf8');
    for (const m of xml.matchAll(/<(?:depend|build_export_depend)(?:\s[^>]*)?>\s*([^<\s]+)\s*<\//g)) {
      if (!seen.has(m[1]!)) {
        seen.add(m[1]!);
        queue.push(m[1]!);
      }
    }
  }
  return dirs;
}

/** An installed Choreonoid SDK: its include/choreonoid-X.Y (with cnoid/BodyLoader) and libCnoidBody.so. */
export interface ChoreonoidInstall {
  prefix: string;
  includeDir: string;
  libDir: string;
  version: string;
}

/**
 * Choreonoid (built with INSTALL_SDK): $CHOREONOID_PREFIX when set, else the prefix of `choreonoid` on PATH,
 * else a ChoreonoidConfig.cmake in the CMake prefixes.
 */
export function findChoreonoid(env: Env = process.env): Lookup<ChoreonoidInstall> {
  const install = 'build github.com/choreonoid/choreonoid with -DINSTALL_SDK=ON, then set CHOREONOID_PREFIX to its install prefix or put its bin on PATH (BENCHMARKS.md, docs/peers.md)';
  const sdk = (prefix: string): ChoreonoidInstall | undefined => {
    const dir = entries(join(prefix, 'include')).find((d) => /^choreonoid-[0-9.]+$/.test(d) && existsSync(join(prefix, 'include', d, 'cnoid', 'BodyLoader')));
    const libDir = libDirs(prefix).find((d) => existsSync(join(d, 'libCnoidBody.so')));
    return dir && libDir ? { prefix, includeDir: join(prefix, 'include', dir), libDir, version: dir.slice('choreonoid-'.length) } : undefined;
  };
  if (env.CHOREONOID_PREFIX) {
    const found = sdk(env.CHOREONOID_PREFIX);
    return found
      ? { ok: true, ...found }
      : missing('Choreonoid', 'ros', `CHOREONOID_PREFIX=${env.CHOREONOID_PREFIX} has no include/choreonoid-X.Y/cnoid/BodyLoader with libCnoidBody.so`, install);
  }
  const onPath = everyOnPath('choreonoid', env).map((exe) => dirname(dirname(exe)));
  const byConfig = searchPrefixes(env).filter((p) => findCmakeConfig('Choreonoid', [p]) !== undefined);
  for (const prefix of unique([...onPath, ...byConfig])) {
    const found = sdk(prefix);
    if (found) return { ok: true, ...found };
  }
  return missing('Choreonoid', 'ros', 'CHOREONOID_PREFIX is not set, and neither `choreonoid` on PATH nor a ChoreonoidConfig.cmake in the CMake prefixes leads to an SDK', install);
}

// --- strict mode -------------------------------------------------------------------------------

/**
 * BODY_BRIDGE_REQUIRE_PEERS: `debian` (what .ci/run sets) makes an absent Debian peer fail the run instead
 * of skipping its tests, so CI cannot pass by skipping; `all` requires the ROS 2 peers too; unset, nothing.
 */
export function requiredKinds(env: Env = process.env): PeerKind[] {
  const v = env.BODY_BRIDGE_REQUIRE_PEERS ?? '';
  if (v === '') return [];
  if (v === 'debian') return ['debian'];
  if (v === 'all') return ['debian', 'ros'];
  throw new Error(`BODY_BRIDGE_REQUIRE_PEERS=${v}: expected debian, all, or nothing`);
}

/** A controller's parameters as generate_parameter_library declares them: name → C++ type, and whether it has a default. */
export type ParameterDefinitions = Map<string, { type: string; required: boolean }>;

/**
 * The parameters of ros2_controllers' packages (e.g. steering_controllers_library, bicycle_steering_controller) as
 * the sourced ROS 2 declares them: the `struct Params` of each <prefix>/include/<pkg>/<pkg>_parameters.hpp that
 * generate_parameter_library wrote from the package's YAML definitions. A member without an initialiser has no
 * default: the controller refuses to configure without it.
 */
export function findControllerParameters(packages: readonly string[], env: Env = process.env): Lookup<{ distro: string; parameters: ParameterDefinitions }> {
  const install = rosInstall('build ros2_controllers (with its steering controllers) in a workspace');
  const why = notSourced(env);
  if (why) return missing('ros2_controllers parameter headers', 'ros', why, install);
  const parameters: ParameterDefinitions = new Map();
  for (const pkg of packages) {
    const header = rosPrefixes(env).map((p) => join(p, 'include', pkg, `${pkg}_parameters.hpp`)).find((f) => existsSync(f));
    if (!header) return missing('ros2_controllers parameter headers', 'ros', `no include/${pkg}/${pkg}_parameters.hpp in ${rosPrefixes(env).join(', ')}`, install);
    const struct = /struct Params \{([\s\S]*?)\n\s*\};/.exec(readFileSync(header, 'utf8'));
    if (!struct) return missing('ros2_controllers parameter headers', 'ros', `${header} has no struct Params`, install);
    for (const m of struct[1]!.matchAll(/^\s*([\w:<>]+)\s+(\w+)\s*(=[^;]*)?;/gm)) if (!m[2]!.startsWith('__')) parameters.set(m[2]!, { type: m[1]!, required: m[3] === undefined });
  }
  return { ok: true, distro: env.ROS_DISTRO ?? '', parameters };
}

/**
 * Every parameter a ros2_controllers package declares, by its full dotted name (nested ones too:
 * diff_drive_controller's `linear.x.max_acceleration`), with the type its value is read as (`param.as_double()` →
 * `double`, `as_bool`, `as_string_array`, ...): from the update function generate_parameter_library writes into the
 * sourced ROS 2's <prefix>/include/<pkg>/<pkg>_parameters.hpp.
 */
export function findDeclaredParameters(pkg: string, env: Env = process.env): Lookup<{ distro: string; header: string; parameters: Map<string, string> }> {
  const install = rosInstall('build ros2_controllers in a workspace');
  const why = notSourced(env);
  if (why) return missing('ros2_controllers parameter headers', 'ros', why, install);
  const header = rosPrefixes(env).map((p) => join(p, 'include', pkg, `${pkg}_parameters.hpp`)).find((f) => existsSync(f));
  if (!header) return missing('ros2_controllers parameter headers', 'ros', `no include/${pkg}/${pkg}_parameters.hpp in ${rosPrefixes(env).join(', ')}`, install);
  const parameters = new Map<string, string>();
  for (const chunk of readFileSync(header, 'utf8').split('if (param.get_name() == (prefix_ + "').slice(1)) {
    const name = chunk.slice(0, chunk.indexOf('"'));
    const type = /param\.as_(\w+)\(\)/.exec(chunk)?.[1];
    if (type && !parameters.has(name)) parameters.set(name, type);
  }
  if (parameters.size === 0) return missing('ros2_controllers parameter headers', 'ros', `${header} has no parameter updates`, install);
  return { ok: true, distro: env.ROS_DISTRO ?? '', header, parameters };
}
