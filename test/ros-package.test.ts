// The ROS 2 package around the node: launch files compile and declare their arguments, the params
// file documents every parameter with its default, package.xml / CMakeLists.txt configure, the
// installed launcher finds the app and the bundled models, and the dry run without ROS 2 reports.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startupMode } from '../src/ros/dry-run.js';
import { MessageType } from '../src/messages/messages.js';
import { paramSpecs } from '../src/ros/params.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { findAmentCmake, findCatkinPkg, findPython3, found } from './support/peers.js';
import { scratchDir } from './support/temp-dir.js';

const scratch = scratchDir('body-bridge-package-');
const read = (rel: string): string => readFileSync(join(projectRoot, rel), 'utf8');
const withoutRos = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.AMENT_PREFIX_PATH;
  return env;
};
const mainJs = join(projectRoot, 'dist', 'ros', 'main.js');
const python3 = findPython3();
const catkinPkg = findCatkinPkg();
/** CMake with ament_cmake, and the python3 on PATH that has ament_package and catkin_pkg for it. */
const amentCmake = findAmentCmake();
const withoutAmentCmake = skipWithout(amentCmake);
function requireBuild(): void {
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run \`npm run build\` (npm test does) first`);
}

describe.skipIf(skipWithout(python3))('launch files', () => {
  const files = ['launch/bridge.launch.py', 'launch/display.launch.py', 'launch/moveit.launch.py', 'launch/simulation.launch.py', 'launch/project.launch.py', 'launch/body_bridge_tools.py'];

  it('compile with python3 -m py_compile', () => {
    const r = spawnSync(found(python3).exe, ['-m', 'py_compile', ...files], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPYCACHEPREFIX: join(scratch, 'pycache') },
    });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('declare the documented arguments, pass them as parameters and show a remapping', () => {
    // Read the launch descriptions' structure with Python's own parser (no launch_ros needed).
    const script = `
import ast, json, sys
out = {}
tools = ast.parse(open('launch/body_bridge_tools.py').read())
arguments = next(n.value for n in ast.walk(tools) if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == 'ARGUMENTS')
names = {'tools.ARGUMENTS': [k.value for k in arguments.keys]}
for path in sys.argv[1:]:
    tree0 = ast.parse(open(path).read())
    for n in ast.walk(tree0):
        if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == 'PASSED_ON':
            names['PASSED_ON'] = [e.value for e in n.value.elts]
    tree = ast.parse(open(path).read())
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    args = [c.args[0].value for c in calls if c.func.id == 'DeclareLaunchArgument']
    # Arguments declared through body_bridge_tools.declare(...): the names it is given.
    for c in ast.walk(tree):
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == 'declare':
            for a in c.args:
                if isinstance(a, ast.Constant):
                    args.append(a.value)
                elif isinstance(a, ast.Starred):
                    args.extend(names[ast.unparse(a.value)])
    names.setdefault('PASSED_ON', [])
    nodes = [{k.arg: ast.unparse(k.value) for k in c.keywords} for c in calls if c.func.id == 'Node']
    out[path] = {'args': args, 'nodes': nodes}
print(json.dumps(out))`;
    const r = spawnSync(found(python3).exe, ['-c', script, ...files.filter((f) => f.endsWith('.launch.py'))], { cwd: projectRoot, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout) as Record<string, { args: string[]; nodes: Record<string, string>[] }>;
    expect(info['launch/moveit.launch.py']!.args).toEqual(expect.arrayContaining(['body_file', 'free_root_frame', 'execution', 'rviz']));
    const bridge = info['launch/bridge.launch.py']!;
    expect(bridge.args).toEqual(expect.arrayContaining(['body_file', 'namespace', 'frame_prefix', 'use_sim_time', 'params_file', 'joint_states_topic']));
    expect(info['launch/display.launch.py']!.args).toEqual(expect.arrayContaining(['body_file', 'fixed_frame', 'gui', 'joint_states_topic']));
    const node = bridge.nodes[0]!;
    expect(node.package).toBe("'body_bridge'");
    expect(node.executable).toBe("'body_bridge'");
    expect(node.remappings).toContain("'joint_states'");
    for (const p of ['body_file', 'frame_prefix', 'use_sim_time', 'params_file']) expect(node.parameters).toContain(`'${p}'`);
    const display = info['launch/display.launch.py']!;
    expect(display.nodes.map((n) => n.package)).toEqual(["'joint_state_publisher_gui'", "'rviz2'"]);
    expect(display.nodes[1]!.arguments).toContain("'-d'");
    const moveit = info['launch/moveit.launch.py']!;
    expect(moveit.args).toEqual(expect.arrayContaining(['body_file', 'free_root_frame', 'joint_states_topic', 'execution', 'rviz']));
    expect(moveit.nodes.map((n) => n.package).sort()).toEqual(["'moveit_ros_move_group'", "'rviz2'"]);
    expect(node.name).toBe("LaunchConfiguration('node_name')");
    const simulation = info['launch/simulation.launch.py']!;
    expect(simulation.args).toEqual(expect.arrayContaining(['body_file', 'project', 'namespace', 'mode', 'joint_modes', 'gains_file', 'gui', 'rviz']));
    expect(simulation.nodes.map((n) => n.package)).toEqual(["'choreonoid_ros'", "'controller_manager'"]);
    expect(simulation.nodes[0]!.parameters).toBe('[gains, controllers]');
    expect(moveit.args).toEqual(expect.arrayContaining(['project_file', 'robot']));
    const project = info['launch/project.launch.py']!;
    expect(project.args).toEqual(expect.arrayContaining(['project_file', 'start_choreonoid', 'gui', 'use_sim_time', 'rviz', 'placement_topics', 'placement_topic_types', 'share']));
    // One body_bridge node per body of the plan (its name and namespace the plan's), rviz2, Choreonoid.
    // (In the order ast.walk finds them: the body's node is made inside tools.kept_running's lambda.)
    const ofPackage = (p: string) => project.nodes.find((n) => n.package === p)!;
    expect(project.nodes.map((n) => n.package).sort()).toEqual(["'body_bridge'", "'choreonoid_ros'", "'rviz2'"]);
    expect(ofPackage("'body_bridge'")).toMatchObject({ name: "body['node_name']", namespace: "body['namespace']" });
    expect(ofPackage("'choreonoid_ros'").arguments).toContain("'--start-simulation'");
  });
});

describe('config', () => {
  it('bridge.params.yaml sets every parameter to its default under /** (lists, which rcl cannot type empty, as comments)', () => {
    const text = read('config/bridge.params.yaml');
    const doc = parse(text) as Record<string, { ros__parameters: Record<string, unknown> }>;
    const values = doc['/**']!.ros__parameters;
    for (const s of paramSpecs) {
      if (s.kind === 'string_array' || s.kind === 'double_array') {
        expect(text, s.name).toMatch(new RegExp(`^\\s*# ${s.name}: \\[`, 'm'));
        expect(values).not.toHaveProperty(s.name);
      } else {
        expect(values[s.name], s.name).toEqual(s.default);
      }
    }
    expect(Object.keys(values).sort()).toEqual([...paramSpecs.filter((s) => s.kind !== 'string_array' && s.kind !== 'double_array').map((s) => s.name), 'use_sim_time'].sort());
  });

  it('display.rviz shows the RobotModel from the latched robot_description topic, TF and the sensor displays', () => {
    const rviz = parse(read('config/display.rviz')) as { 'Visualization Manager': { Displays: Record<string, unknown>[] } };
    const displays = rviz['Visualization Manager'].Displays;
    const robot = displays.find((d) => d.Class === 'rviz_default_plugins/RobotModel') as Record<string, unknown>;
    expect(robot['Description Source']).toBe('Topic');
    expect(robot['Description Topic']).toMatchObject({ Value: 'robot_description', 'Durability Policy': 'Transient Local', 'Reliability Policy': 'Reliable' });
    expect(displays.map((d) => d.Class)).toEqual(
      expect.arrayContaining(['rviz_default_plugins/TF', 'rviz_default_plugins/Image', 'rviz_default_plugins/LaserScan', 'rviz_default_plugins/PointCloud2']),
    );
  });
});

describe('ament package', () => {
  it('package.xml is format 3, body_bridge, ament_cmake, with node and launch run-time dependencies', () => {
    const xml = read('package.xml');
    expect(xml).toMatch(/<package format="3">/);
    expect(xml).toMatch(/<name>body_bridge<\/name>/);
    expect(xml).toMatch(/<buildtool_depend>ament_cmake<\/buildtool_depend>/);
    expect(xml).toMatch(/<build_type>ament_cmake<\/build_type>/);
    for (const dep of ['nodejs', 'ros2launch', 'launch_ros']) expect(xml).toContain(`<exec_depend>${dep}</exec_depend>`);
    for (const dep of ['std_msgs', 'sensor_msgs', 'tf2_msgs', 'rcl']) expect(xml).toContain(`<depend>${dep}</depend>`);
    // Every package of a message type the node may publish or subscribe to (rclnodejs builds their classes from what is installed).
    const packages = new Set(Object.values(MessageType).map((t) => t.split('/')[0]!));
    for (const dep of packages) expect(xml, dep).toContain(`<depend>${dep}</depend>`);
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    expect(xml).toContain(`<version>${version}</version>`);
  });

  it.skipIf(skipWithout(catkinPkg))('package.xml passes catkin_pkg (the parser colcon and rosdep use); rviz2 and the GUI drop out with BODY_BRIDGE_GUI=false', () => {
    const script = `
import json, sys
from catkin_pkg.package import parse_package
p = parse_package(sys.argv[1])
p.validate()
out = {'name': p.name, 'format': p.package_format, 'build_type': p.get_build_type()}
for env in ({}, {'BODY_BRIDGE_GUI': 'false'}):
    p.evaluate_conditions(env)
    out['exec' + ('_nogui' if env else '')] = sorted(d.name for d in p.exec_depends if d.evaluated_condition)
print(json.dumps(out))`;
    const r = spawnSync(found(catkinPkg).exe, ['-c', script, join(projectRoot, 'package.xml')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(info).toMatchObject({ name: 'body_bridge', format: 3, build_type: 'ament_cmake' });
    expect(info.exec).toEqual(expect.arrayContaining(['nodejs', 'ros2launch', 'launch_ros', 'rviz2', 'joint_state_publisher_gui']));
    expect(info.exec_nogui).not.toContain('rviz2');
    expect(info.exec_nogui).not.toContain('joint_state_publisher_gui');
  });

  it.skipIf(withoutAmentCmake)('CMakeLists.txt builds and installs with the real ament_cmake; ros2 run finds one body_bridge executable, which runs the app on the installed models', () => {
    requireBuild();
    requireShared();
    const build = join(scratch, 'cmake-build');
    const prefix = join(scratch, 'install');
    const { cmake, python } = found(amentCmake);
    const configure = spawnSync(
      cmake,
      ['-S', projectRoot, '-B', build, `-DCMAKE_INSTALL_PREFIX=${prefix}`, `-DPython3_EXECUTABLE=${python}`, '-DBODY_BRIDGE_REQUIRE_RCLNODEJS=OFF'],
      { encoding: 'utf8' },
    );
    expect(configure.error, 'cmake must be installed').toBeUndefined();
    expect(configure.status, configure.stdout + configure.stderr).toBe(0);
    expect(configure.stdout).toMatch(/Found ament_cmake/);
    // Stand in for the npm step (npm ci && npm run build, minutes): this checkout's build, fresher than every source.
    const app = join(build, 'app');
    mkdirSync(app, { recursive: true });
    cpSync(join(projectRoot, 'dist'), join(app, 'dist'), { recursive: true });
    symlinkSync(join(projectRoot, 'node_modules'), join(app, 'node_modules'));
    copyFileSync(join(projectRoot, 'package.json'), join(app, 'package.json'));
    const install = spawnSync(cmake, ['--build', build, '--target', 'install'], { encoding: 'utf8' });
    expect(install.status, install.stdout + install.stderr).toBe(0);
    expect(install.stdout).not.toMatch(/npm ci/);

    // What ament_package installs: the package in the ament index and its manifest.
    expect(existsSync(join(prefix, 'share', 'ament_index', 'resource_index', 'packages', 'body_bridge'))).toBe(true);
    expect(existsSync(join(prefix, 'share', 'body_bridge', 'package.xml'))).toBe(true);
    for (const f of ['launch/bridge.launch.py', 'launch/display.launch.py', 'launch/moveit.launch.py', 'launch/body_bridge_tools.py', 'config/bridge.params.yaml', 'config/display.rviz', 'models/sample_arm.body']) {
      expect(existsSync(join(prefix, 'share', 'body_bridge', f)), f).toBe(true);
    }
    // ros2 run walks lib/<package> for executable files: exactly the launcher.
    const executables = readdirSync(join(prefix, 'lib', 'body_bridge'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && (statSync(join(e.parentPath, e.name)).mode & 0o111) !== 0)
      .map((e) => e.name);
    expect(executables).toEqual(['body_bridge']);

    const env = withoutRos();
    delete env.BODY_BRIDGE_MODELS;
    const run = spawnSync(join(prefix, 'lib', 'body_bridge', 'body_bridge'), [], { encoding: 'utf8', env, cwd: scratch });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('ROS 2 is not sourced');
    expect(run.stdout).toContain(`from ${join(prefix, 'share', 'body_bridge', 'models', 'sample_arm.body')}`);
  });
});

describe('rclnodejs built from source by colcon, non-interactively', () => {
  it("rclnodejs's `npx rimraf` finds rimraf in this package, so a non-interactive npm ci neither asks nor cancels", () => {
    // rclnodejs 2.2 builds from source (where it has no prebuilt binary) with `npm run clean`, which runs
    // `npx rimraf ./generated` inside node_modules/rclnodejs. Stand in for that package and run the same
    // command with npx told never to install anything: it must find rimraf from there.
    const dev = (JSON.parse(read('package.json')) as { devDependencies: Record<string, string> }).devDependencies;
    expect(dev.rimraf).toBeDefined();
    const nested = join(projectRoot, 'build', `npx-check-${process.pid}`, 'node_modules', 'rclnodejs-like');
    const target = join(scratch, 'generated');
    mkdirSync(nested, { recursive: true });
    mkdirSync(join(target, 'deep'), { recursive: true });
    try {
      writeFileSync(join(nested, 'package.json'), '{"name":"rclnodejs-like","version":"1.0.0"}\n');
      const r = spawnSync('npx', ['rimraf', target], {
        cwd: nested,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_yes: 'false', npm_config_offline: 'true' },
      });
      expect(r.stderr).not.toMatch(/canceled/);
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(join(projectRoot, 'build', `npx-check-${process.pid}`), { recursive: true, force: true });
    }
  });

  it("package.json's allowScripts covers exactly the lockfile's packages with install scripts: rclnodejs's run, the others' do not", () => {
    // npm 11.16+ reads allowScripts and warns about install scripts it does not cover; npm 12 runs only the
    // approved ones. rclnodejs's install builds its native module against the sourced ROS 2 and its
    // postinstall generates the message bindings: without them it cannot load.
    const pkg = JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean; resolved?: string }> };
    const withScripts = Object.entries(lock.packages).filter(([path, p]) => path !== '' && p.hasInstallScript);
    const names = [...new Set(withScripts.map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))].sort();
    expect(names).toContain('rclnodejs');
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(names);
    expect(Object.entries(pkg.allowScripts!).filter(([, allowed]) => allowed).map(([name]) => name)).toEqual(['rclnodejs']);
    // npm checks a pinned entry (name@version) against the lockfile's resolved URL; this lockfile has none
    // (omit-lockfile-registry-resolved), so only name-only entries match. The lockfile's integrity pins the version.
    if (withScripts.some(([, p]) => p.resolved === undefined)) for (const key of Object.keys(pkg.allowScripts!)) expect(key).not.toMatch(/.@/);
  });

  it.skipIf(withoutAmentCmake)('CMake refuses to configure without ROS_DISTRO (rclnodejs needs it), saying what to source', () => {
    const env = withoutRos();
    delete env.ROS_DISTRO;
    const { cmake, python } = found(amentCmake);
    const r = spawnSync(cmake, ['-S', projectRoot, '-B', join(scratch, 'cmake-no-distro'), `-DPython3_EXECUTABLE=${python}`], { encoding: 'utf8', env });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ROS_DISTRO is not set/);
    expect(r.stderr).toMatch(/setup\.bash/);
  });

  it("after npm ci, a missing rclnodejs fails the build pointing at rclnodejs's own output and what it needs", () => {
    const app = join(scratch, 'app-without-rclnodejs');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0"}\n');
    const r = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'check-rclnodejs.mjs')], {
      cwd: app,
      encoding: 'utf8',
      env: { ...withoutRos(), ROS_DISTRO: 'humble' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('rclnodejs did not build against this ROS 2 (ROS_DISTRO=humble');
    expect(r.stderr).toContain('rclnodejs is not installed');
    expect(r.stderr).toMatch(/own build output is above/);
    expect(r.stderr).toContain('"rclnodejs": true');
  });
});

describe('dry run without ROS 2', () => {
  it('prints topics with types and QoS, static and moving frames and a URDF summary, and exits 0', () => {
    requireBuild();
    requireShared();
    const model = join(corpusDir, 'choreonoid/share/model/Tank/Tank.body');
    const r = spawnSync(process.execPath, [mainJs, model, '--ros-args', '-p', 'frame_prefix:=t1/', '-p', `mesh_dir:=${join(scratch, 'meshes')}`], {
      encoding: 'utf8',
      env: withoutRos(),
    });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain('ROS 2 is not sourced');
    expect(out).toMatch(/publishes\s+robot_description\s+std_msgs\/msg\/String\s+reliable, transient_local, depth 1/);
    expect(out).toMatch(/publishes\s+\/tf_static\s+tf2_msgs\/msg\/TFMessage\s+reliable, transient_local, depth 1/);
    expect(out).toMatch(/subscribes joint_states\s+sensor_msgs\/msg\/JointState\s+best_effort/);
    expect(out).toMatch(/static\s+t1\/TURRET_P_link -> t1\/Kinect\n/);
    expect(out).toMatch(/moving\s+t1\/CHASSIS -> t1\/TURRET_Y_link\s+\[revolute joint TURRET_Y\]/);
    // The tracks' surfaces turn on continuous joints that carry the tracks' names (docs/urdf.md).
    expect(out).toMatch(/moving\s+t1\/TRACK_L_link -> t1\/TRACK_L_link_surface\s+\[track joint TRACK_L\]/);
    expect(out).toMatch(/URDF \(robot_description\): \d+ links, \d+ joints \(2 revolute, \d+ fixed, 2 continuous\)/);
    expect(out).toContain('frame_prefix = "t1/"');
    expect(existsSync(join(scratch, 'meshes')), 'a dry run writes no mesh files').toBe(false);
  });

  it('starts on ROS 2 only when rclnodejs loads; a sourced ROS 2 without it is an error, not a dry run', () => {
    expect(startupMode({ rosUnavailable: null, rclnodejsError: null, dryRunAsked: false })).toEqual({ mode: 'ros' });
    expect(startupMode({ rosUnavailable: 'ROS 2 is not sourced', rclnodejsError: null, dryRunAsked: false })).toEqual({ mode: 'dry-run', why: 'ROS 2 is not sourced' });
    expect(startupMode({ rosUnavailable: null, rclnodejsError: null, dryRunAsked: true })).toMatchObject({ mode: 'dry-run', why: expect.stringContaining('--dry-run') });
    const failed = startupMode({ rosUnavailable: null, rclnodejsError: 'rclnodejs cannot be loaded: no such module', dryRunAsked: false });
    expect(failed.mode).toBe('error');
    const message = (failed as { message: string }).message;
    expect(message).toContain('rclnodejs cannot be loaded: no such module');
    expect(message).toContain('colcon build --packages-select body_bridge');
    expect(message).toContain('--dry-run');
  });

  // Where rclnodejs is built, a sourced ROS 2 starts the real node instead (test/ros-live.test.ts).
  it.skipIf(existsSync(join(projectRoot, 'node_modules', 'rclnodejs')))('with ROS 2 sourced but rclnodejs missing: exits 1 saying why and what to do, and prints no dry run', () => {
    requireBuild();
    requireShared();
    const model = join(corpusDir, 'choreonoid-legacy-wrl/share/model/misc/box1.wrl');
    const r = spawnSync(process.execPath, [mainJs, model], {
      encoding: 'utf8',
      env: { ...withoutRos(), AMENT_PREFIX_PATH: join(scratch, 'no-ros'), NODE_PATH: '' },
      cwd: scratch,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ROS 2 is sourced, but rclnodejs cannot be loaded/);
    expect(r.stderr).toContain('--dry-run');
    expect(r.stdout).not.toMatch(/publishes/);
  });

  it('--dry-run with ROS 2 sourced prints the dry run and exits 0', () => {
    requireBuild();
    requireShared();
    const model = join(corpusDir, 'choreonoid-legacy-wrl/share/model/misc/box1.wrl');
    const r = spawnSync(process.execPath, [mainJs, model, '--dry-run'], {
      encoding: 'utf8',
      env: { ...withoutRos(), AMENT_PREFIX_PATH: join(scratch, 'no-ros') },
      cwd: scratch,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('a dry run was asked for (--dry-run)');
    expect(r.stdout).toMatch(/publishes\s+robot_description/);
  });

  it('`npm start` with no model runs the dry run on the bundled example in models/', () => {
    requireBuild();
    const r = spawnSync(process.execPath, [mainJs], { encoding: 'utf8', env: withoutRos(), cwd: scratch });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`from ${join(projectRoot, 'models', 'sample_arm.body')}`);
    expect(r.stdout).toMatch(/URDF \(robot_description\): \d+ links/);
  });

  it('exits 1 with the located error when the model does not load', () => {
    requireBuild();
    const bad = join(scratch, 'bad.body');
    writeFileSync(bad, 'format: ChoreonoidBody\nformat_version: 2.0\nlinks: 12\n');
    const r = spawnSync(process.execPath, [mainJs, bad], { encoding: 'utf8', env: withoutRos() });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`No model could be served from ${bad}`);
    expect(r.stdout).toContain(`${bad}:`);
  });
});
