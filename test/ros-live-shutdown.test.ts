// Ctrl-C on every launch of the package, at every phase (issue 39): configuring (the launch file's body-bridge CLI
// writing the configuration, before any process: moveit and simulation, whose CLI runs longest), loading (the
// processes just started, the model or the project still loading), running (everything served, controllers
// active, move_group ready) and, for the simulation, loading-controllers (a spawner's load request reaching the
// controller manager inside Choreonoid) and mid-trajectory (a joint_trajectory_controller moving the arm). Ctrl-C as
// a terminal sends it: SIGINT to the launch's whole process group; and once per launch as a supervisor sends it:
// SIGINT to `ros2 launch` alone.
// Each time:
//   - the launch exits with status 0 within STOP_SECONDS, and every process it started has ended by then;
//   - no process ends by a crash (a core dump, an abort, a segmentation fault); a process that dies by the SIGINT
//     itself, or that launch has to escalate to SIGTERM, is allowed only where EXPECTED says why;
//   - the ROS graph is empty afterwards (no node of the launch is left on the suite's domain);
//   - nothing of the launch is left in its temporary folder.
// Each case's figures (seconds to exit, processes, exit codes) go to build/live-shutdown/report.json and the console.
// Skipped, with the reason, where ROS 2 or rclnodejs is absent; the launches that need Choreonoid, rviz2 (and Xvfb)
// or move_group each skip where theirs is absent.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import {
  type Any,
  closeObserver,
  commandLine,
  guiEnv,
  installedPackage,
  liveRos,
  observerNode,
  ownRosDomain,
  processGroup,
  processTree,
  type Proc,
  sleep,
  sourced,
  startXvfb,
  waitFor,
  type XDisplay,
} from './support/live-rig.js';
import { alive, deathsIn, moveArm, otherNodes, ourFilesIn, type Seen, seen } from './support/launch-live.js';
import { skipWithout } from './support/peer-skip.js';
import { findChoreonoidRos, findChoreonoidRos2Control, findMoveGroup, findRviz2, findXvfb, type Lookup } from './support/peers.js';

ownRosDomain('ros-live-shutdown');

const ros = await liveRos();
const ok = <T extends object>(l: Lookup<T> | null): boolean => l !== null && l.ok;
const choreonoid = ros.ok ? findChoreonoidRos() : null;
const control = ros.ok ? findChoreonoidRos2Control() : null;
const moveGroup = ros.ok ? findMoveGroup() : null;
const rviz = ros.ok ? findRviz2() : null;
const xvfb = ros.ok ? findXvfb() : null;
const skipAll = skipWithout(ros);

/** The issue's bound: every process of the launch ends within this after the SIGINT. */
const STOP_SECONDS = 10;
/** s (wall) to wait for a phase: generous, the machine runs builds beside the suite. */
const PHASE_MS = 300_000;

type Phase = 'configuring' | 'loading' | 'loading-controllers' | 'running' | 'mid-trajectory';
type Target = 'group' | 'launch';

/**
 * Lines of an unclean end that are no fault of ours, each at the phase where it was seen, with the fact that explains
 * it. Any other death, escalation or crash line fails the case. With `alongside`, the line is explained only where the
 * launch's log also shows the cause `why` names.
 */
const EXPECTED: { line: RegExp; alongside?: (line: string, log: string) => boolean; phases: Phase[]; why: string }[] = [
  {
    line: /\[ERROR\] \[choreonoid-\d+\]: process has died \[pid \d+, exit code -2,/,
    phases: ['loading'],
    why:
      "Choreonoid installs its SIGINT handler in App::exec's initialisation (choreonoid src/Base/App.cpp: std::signal(SIGINT, onCtrl_C_Input)), " +
      'after its plugins load; a SIGINT before that meets the default disposition',
  },
  {
    line: /\[ERROR\] \[choreonoid-\d+\]: process\[choreonoid-\d+\] failed to terminate '\d+' seconds after receiving 'SIGINT', escalating to 'SIGTERM'/,
    phases: ['loading', 'loading-controllers'],
    why:
      "Choreonoid took the SIGINT while loading its project (ROS2ControlItem waiting for robot_description), did not quit when the load was done, " +
      "and ended cleanly on launch's SIGTERM (simulation.launch.py: after 3 s) (seen on Humble; docs/ros.md \"Ctrl-C\")",
  },
  {
    line: /\[ERROR\] \[choreonoid-\d+\]: process has died \[pid \d+, exit code (-6|134),/,
    phases: ['loading'],
    why:
      "Choreonoid's SIGINT and SIGTERM handler (choreonoid src/Base/App.cpp onCtrl_C_Input) calls callLater: `new` and QCoreApplication::postEvent, " +
      'neither async-signal-safe. A signal that lands while its loading thread is inside malloc corrupts the heap (reproduced with plain choreonoid ' +
      "here: 5 of 90 SIGINTs 0.05–3 s into loading a sample project, all five 0.42–0.62 s in, ended in glibc's 'malloc assertion failure in sysmalloc', abort): " +
      'docs/ros.md "Ctrl-C"',
  },
  {
    line: /\[ERROR\] \[choreonoid-\d+\]: process\[choreonoid-\d+\] failed to terminate '[\d.]+' seconds after receiving 'SIGTERM', escalating to 'SIGKILL'|\[ERROR\] \[choreonoid-\d+\]: process has died \[pid \d+, exit code -9,/,
    phases: ['loading', 'loading-controllers'],
    why:
      'a spawner asked the controller manager to load a controller as the Ctrl-C came: Choreonoid stopped its simulation, so ' +
      'ControllerManager::add_controller_impl waits for a real-time update that never comes (wait_until_rt_not_using, which gives up only when ' +
      "rclcpp::ok() turns false), and Choreonoid quitting on the SIGTERM joins that executor thread in ROS2ControlItem::finalize before choreonoid_ros's " +
      'main calls rclcpp::shutdown (App::exec replaced rclcpp\'s SIGINT handler): a deadlock, gdb stacks taken here (Humble). SIGKILL at 6 s (simulation.launch.py) ends it ' +
      '(docs/ros.md "Ctrl-C")',
  },
  {
    line: /\[choreonoid-\d+\] terminate called after throwing an instance of 'rclcpp::exceptions::RCLError'/,
    phases: ['loading'],
    why:
      "a SIGINT after choreonoid_ros's main called rclcpp::init (choreonoid_ros src/node/choreonoid_ros2.cpp) and before App::exec replaced " +
      "rclcpp's handler with Choreonoid's: rclcpp's handler shuts the context down, and BodyROS2Item, restored from the project next, creates " +
      'its rclcpp::Node in that context ("failed to create guard condition: the given context is not valid"), uncaught: abort (Humble, .ci/run ' +
      '29 Nov 2026: Choreonoid now starts after body_bridge serves the model, so a Ctrl-C at the model load can meet it here)',
  },
  {
    line: /\[ERROR\] \[rviz2-\d+\]: process has died \[pid \d+, exit code -6,|\[rviz2-\d+\] terminate called after throwing an instance of 'rclcpp::exceptions::RCLError'/,
    phases: ['loading'],
    why:
      "rviz2, like move_group, does not look for a shutdown while it initialises: rclcpp's SIGINT handler invalidates the context and its " +
      'next service throws "could not create service: rcl node\'s context is invalid" (rviz2 jazzy 14.1.5, seen here), uncaught: abort',
  },
  {
    line: /\[ERROR\] \[rviz2-\d+\]: process has died \[pid \d+, exit code -2,/,
    phases: ['loading'],
    why:
      "a SIGINT before rviz2's rclcpp::init installed rclcpp's handler meets the default disposition (Humble, 30 Nov 2026, at a load of " +
      'about 4: rviz2 still starting when body_bridge began loading the model)',
  },
  {
    line: /\[ERROR\] \[move_group-\d+\]: process has died \[pid \d+, exit code -6,|\[move_group-\d+\] terminate called after throwing an instance of 'rclcpp::exceptions::RCLError'/,
    phases: ['loading', 'loading-controllers'],
    why:
      "move_group does not look for a shutdown while it initialises: a SIGINT then invalidates the context and its next publisher throws " +
      '"could not create publisher: rcl node\'s context is invalid" (MoveIt 2 humble, seen here), uncaught: abort',
  },
  {
    line: /\[ERROR\] \[move_group-\d+\]: process\[move_group-\d+\] failed to terminate '[\d.]+' seconds after receiving 'SIG(INT|TERM)', escalating to 'SIG(TERM|KILL)'|\[ERROR\] \[move_group-\d+\]: process has died \[pid \d+, exit code (-9|-15),/,
    phases: ['loading', 'loading-controllers'],
    why:
      'a SIGINT while move_group loads the robot model ("Loading robot model ...", Jazzy, 30 Nov 2026) left it acting on neither SIGINT nor ' +
      "SIGTERM: launch's SIGKILL ends it, after 3 + 3 s (moveit.launch.py) instead of launch's 5 + 5, which overran the 10 s bound",
  },
  {
    line: /\[ERROR\] \[move_group-\d+\]: process has died \[pid \d+, exit code -2,/,
    // While the controllers load, move_group may be initialising (the entry above) or ready (this one); at the model's
    // load it may not yet have reached rclcpp::init, whose handler is the first it has.
    phases: ['loading', 'loading-controllers', 'running', 'mid-trajectory'],
    why:
      "before rclcpp::init a SIGINT meets the default disposition, as Choreonoid's does before App::exec (the first entry); after it, " +
      "rclcpp restores SIGINT's default disposition once the first SIGINT has shut it down; a terminal's Ctrl-C reaches move_group twice " +
      "(the terminal's to the whole group, then launch's), and the second ends it mid-teardown (seen with MoveIt 2 humble here; with SIGINT to " +
      "ros2 launch alone it ends cleanly). Running move_group in a session of its own (setsid) avoids it but renames its log lines: not done",
  },
  {
    line: /\[ERROR\] \[spawner-\d+\]: process has died \[pid \d+, exit code -2,/,
    phases: ['loading', 'loading-controllers'],
    why: "controller_manager's spawner (Python) is waiting for the controller manager; the SIGINT ends it with a KeyboardInterrupt, as any Python script",
  },
  {
    line: /\[ERROR\] \[spawner-\d+\]: process has died \[pid \d+, exit code 1,/,
    alongside: (line, log) => {
      const spawner = /\[(spawner-\d+)\]/.exec(line)![1]!;
      const said = (text: string): boolean => log.includes(`[${spawner}] ${text}`);
      // CPython names its start-up stages init_*: init_import_site, init_sys_streams, ...
      return said('Fatal Python error: init_') || (said('KeyboardInterrupt') && said('ImportError: initialization failed'));
    },
    phases: ['loading'],
    why:
      'the SIGINT reached the spawner while its Python was still starting, before its KeyboardInterrupt can end it with the signal: ' +
      "while importing `site` CPython prints 'Fatal Python error: init_import_site' and exits with status 1 (Humble, .ci/run 29 Nov 2026), " +
      "while setting up sys.stdout 'Fatal Python error: init_sys_streams' (Jazzy, 30 Nov 2026); " +
      "while importing rclpy's C extension pybind11 turns the KeyboardInterrupt into 'ImportError: initialization failed', which ends " +
      'the script with status 1 (Jazzy, .ci/run 29 Nov 2026). Choreonoid and the spawners start once body_bridge serves the model, so a ' +
      'Ctrl-C at the model load can meet a spawner starting',
  },
  {
    line: /\[ERROR\] \[[\w-]+-\d+\]: process has died \[pid \d+, exit code 255,/,
    alongside: (line, log) => log.includes(`Unknown child process pid ${/\[pid (\d+),/.exec(line)?.[1]}, will report returncode 255`),
    phases: ['loading'],
    why:
      "not the process's status but CPython's: asyncio's transport close() (base_subprocess.py) polls the child, and so reaps one that " +
      'has just died (here Choreonoid, by the SIGINT before its handler) before the child watcher\'s waitpid, which then finds no child ' +
      'and reports 255 with "Unknown child process pid N" (asyncio unix_events.py, ThreadedChildWatcher; Python 3.11): launch closes ' +
      'its processes\' transports as it shuts down (seen once in 12 Ctrl-Cs at the model\'s load here, Humble)',
  },
  {
    line: /\[ERROR\] \[spawner-\d+\]: process\[spawner-\d+\] failed to terminate '\d+' seconds after receiving 'SIGINT', escalating to 'SIGTERM'|\[ERROR\] \[spawner-\d+\]: process has died \[pid \d+, exit code -15,/,
    phases: ['loading', 'loading-controllers'],
    why:
      "the spawner (controller_manager humble) does not act on a SIGINT while a call to the controller manager is unanswered: against a " +
      'list_controllers service that never answers it was still alive 16 s after the SIGINT, retrying every 10 s (measured here). A load ' +
      'it asked for as the Ctrl-C came is never answered (the SIGKILL entry above), so launch SIGTERMs it (2 s: simulation.launch.py) and it ends on that',
  },
  {
    line: /\[ERROR\] \[spawner-\d+\]: process\[spawner-\d+\] failed to terminate '[\d.]+' seconds after receiving 'SIGTERM', escalating to 'SIGKILL'|\[ERROR\] \[spawner-\d+\]: process has died \[pid \d+, exit code -9,/,
    phases: ['loading', 'loading-controllers'],
    why:
      "as above; on Jazzy the spawner waiting on that unanswered call does not end on SIGTERM either, only on SIGKILL (seen on Jazzy: " +
      "killed at 10 s with launch's 5 + 5 s, which overran the bound; simulation.launch.py gives spawners 2 + 2 s)",
  },
];

/** The lines of a launch's log that say something ended uncleanly. */
const uncleanLines = (log: string): string[] =>
  log.split('\n').filter((l) => /process has died|escalating to|failed to terminate|core dumped|terminate called|Segmentation fault|Aborted/.test(l));

interface Case {
  name: string;
  /** The launch file and its arguments. */
  command: (scratch: string) => string;
  phases: Phase[];
  /** Where the peer the launch needs is absent: why the case is skipped (null: runs). */
  skip: string | null;
  gui?: boolean;
}

const share = (file: string): string => join(corpusDir, 'choreonoid/share', file);
const PA10 = share('model/PA10/PA10.body');
const missing = (...lookups: (Lookup<object> | null)[]): string | null => {
  const absent = lookups.filter((l): l is Lookup<object> & { ok: false } => l !== null && !l.ok);
  return absent.length ? absent.map((m) => `${m.peer}: ${m.reason}`).join('; ') : lookups.some((l) => l === null) ? 'ROS 2 is absent' : null;
};

const CASES: Case[] = [
  { name: 'bridge', command: () => `bridge.launch.py body_file:=${PA10}`, phases: ['loading', 'running'], skip: null },
  { name: 'display', command: () => `display.launch.py body_file:=${PA10}`, phases: ['loading', 'running'], skip: missing(rviz, xvfb), gui: true },
  { name: 'moveit', command: () => `moveit.launch.py body_file:=${PA10}`, phases: ['configuring', 'loading', 'running'], skip: missing(moveGroup) },
  {
    name: 'project',
    command: (scratch) => `project.launch.py project_file:=${servedProject(scratch)} start_choreonoid:=true rviz:=false`,
    phases: ['loading', 'running'],
    skip: missing(choreonoid),
  },
  {
    name: 'simulation',
    command: () => `simulation.launch.py body_file:=${PA10} moveit:=${ok(moveGroup) ? 'true' : 'false'}`,
    phases: ['configuring', 'loading', 'loading-controllers', 'running', 'mid-trajectory'],
    skip: missing(choreonoid, control),
  },
];

/**
 * A project for project.launch.py: test/models/control/arm1.cnoid (PA10 on a floor, AIST simulator, WorldROS2Item)
 * without its ROS2ControlItem, whose controller manager would wait for a robot_state_publisher in /arm1 that
 * project.launch.py does not start (it serves the body in /Arm).
 */
function servedProject(scratch: string): string {
  const text = readFileSync(join(projectRoot, 'test/models/control/arm1.cnoid'), 'utf8');
  const without = text.replace(/\n {12}- id: 4\n[\s\S]*?namespace: "\/arm1"\n/, '\n');
  expect(without, 'arm1.cnoid without its ROS2ControlItem').not.toMatch(/ROS2ControlItem/);
  const file = join(scratch, 'arm.cnoid');
  writeFileSync(file, without);
  return file;
}

interface Outcome {
  launch: string;
  phase: Phase;
  target: Target;
  seconds: number;
  exitCode: number | null;
  processes: string[];
  deaths: { process: string; code: number }[];
}

const report: Outcome[] = [];

describe.skipIf(skipAll)('Ctrl-C on each launch, at each phase, ends everything cleanly', () => {
  const procs = processGroup();
  let rcl: Any;
  let node: Any;
  let setup = '';
  let x: XDisplay | null = null;
  // Made in beforeAll: a skipped suite's describe body still runs, and would leave it behind.
  let scratchRoot = '';
  const results = join(projectRoot, 'build', 'live-shutdown');

  beforeAll(async () => {
    requireShared();
    scratchRoot = mkdtempSync(join(tmpdir(), 'bb-live-shutdown-'));
    rcl = ros.rcl;
    node = await observerNode(rcl, 'shutdown-test');
    node.spin();
    setup = await installedPackage();
    if (CASES.some((c) => c.gui && c.skip === null)) x = await startXvfb();
  }, 1_500_000);

  afterAll(async () => {
    await procs.stopAll();
    await x?.stop();
    closeObserver(rcl, node);
    if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true });
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    for (const o of report) {
      console.log(`shutdown: ${o.launch} ${o.phase} (${o.target}): exit ${o.exitCode} after ${o.seconds.toFixed(2)} s; ${o.processes.length} processes; died: ${o.deaths.map((d) => `${d.process} ${d.code}`).join(', ') || 'none'}`);
    }
  });

  /** The launch at the phase: what the log (and, mid-trajectory, the robot) shows. */
  async function reach(c: Case, phase: Phase, launch: Proc, scratch: string): Promise<void> {
    const log = launch.output;
    const has = (re: RegExp) => () => re.test(log()) || undefined;
    if (phase === 'configuring') {
      // The launch file's body-bridge CLI (an OpaqueFunction) is writing the configuration: a Ctrl-C ends it with
      // launch, and the launch must start nothing and end as for any other Ctrl-C (body_bridge_tools.unless_interrupted).
      const cli = (): number | undefined => processTree(launch.child.pid!).find((pid) => commandLine(pid).includes('dist/cli/main.js'));
      await waitFor(`${c.name}: the body-bridge CLI running`, PHASE_MS, cli, log, 5);
      return;
    }
    if (phase === 'loading') {
      // body_bridge has begun to load the model, and whatever else the launch starts is starting beside it. Not
      // earlier: a SIGINT within Node's own start-up, before any JavaScript runs, meets the default disposition (Node
      // resets every handler as it starts), and ends the node by the signal (that start-up took 0.4 s for `node -e ""` at a load of 7 on this 2-core machine).
      await waitFor(`${c.name}: body_bridge loading the model`, PHASE_MS, has(/\]: loading .* \(start\)/), log);
      return;
    }
    if (phase === 'loading-controllers') {
      // A spawner's load request reached the controller manager inside Choreonoid: the moment its parameters file
      // must still be there (the launch once deleted its files at shutdown, under the load), and the moment
      // choreonoid_ros and ros2_control deadlock on a stopped simulation (EXPECTED).
      await waitFor(`${c.name}: a controller loading`, PHASE_MS, has(/\[controller_manager\]: Loading controller /), log);
      return;
    }
    await waitFor(`${c.name}: the model served`, PHASE_MS, has(/\]: Robot initialized: /), log);
    if (c.name === 'moveit' || (c.name === 'simulation' && ok(moveGroup))) await waitFor(`${c.name}: move_group ready`, PHASE_MS, has(/You can start planning now!/), log);
    if (c.name === 'project') await waitFor('project: the simulation running', PHASE_MS, has(/Simulation by AISTSimulator has started/), log);
    if (c.name === 'display') {
      // rviz2 logs its render system well before its initialisation is done, and a SIGINT before the end of it
      // aborts rviz2 (EXPECTED, 'loading'; seen 100 ms after 'OpenGl version' on Humble and Jazzy). Its displays,
      // loaded from the configuration last, subscribe to robot_description: up from there, and a moment to finish.
      await waitFor('display: rviz2 up', PHASE_MS, has(/\[rviz2-\d+\].*(OpenGl version|Stereo is NOT SUPPORTED)/), log);
      await waitFor('display: rviz2 showing robot_description', PHASE_MS, () => node.countSubscribers('/robot_description') > 0 || undefined, log);
      await sleep(1000);
    }
    if (c.name !== 'simulation') return;
    // Every spawner done: the controllers are active.
    const spawners = (): number => (log().match(/\[spawner-\d+\]: process has finished cleanly/g) ?? []).length;
    const started = (): number => (log().match(/\[spawner-\d+\]: process started/g) ?? []).length;
    await waitFor('simulation: the controllers active', PHASE_MS, () => (started() > 0 && spawners() === started()) || undefined, log);
    if (phase === 'running') return;
    await moveArm(node, join(scratch, 'tmp'), launch, PHASE_MS);
  }

  async function ctrlC(c: Case, phase: Phase, target: Target): Promise<void> {
    const scratch = mkdtempSync(join(scratchRoot, `${c.name}-${phase}-`));
    mkdirSync(join(scratch, 'tmp'));
    const env = { ...process.env, TMPDIR: join(scratch, 'tmp') };
    const launch = procs.start('bash', sourced(setup, `ros2 launch body_bridge ${c.command(scratch)}`), c.gui && x ? guiEnv(x.display, env) : env);
    await reach(c, phase, launch, scratch);
    const before = processTree(launch.child.pid!)
      .map(seen)
      .filter((s): s is Seen => s !== null);
    const exited = new Promise<number | null>((r) => launch.child.once('exit', (code) => r(code)));
    const sent = Date.now();
    process.kill(target === 'group' ? -launch.child.pid! : launch.child.pid!, 'SIGINT');
    const code = await Promise.race([exited, sleep(STOP_SECONDS * 3000).then(() => 'hung' as const)]);
    const seconds = (Date.now() - sent) / 1000;
    const left = before.filter(alive);
    const log = launch.output();
    const deaths = deathsIn(log);
    report.push({ launch: c.name, phase, target, seconds, exitCode: code === 'hung' ? null : code, processes: before.map((s) => s.name), deaths });
    const tail = `--- launch (last 6000 characters) ---\n${log.slice(-6000)}`;
    expect(code, `the launch did not end within ${STOP_SECONDS * 3} s\n${tail}`).not.toBe('hung');
    expect(seconds, tail).toBeLessThan(STOP_SECONDS);
    expect(code, tail).toBe(0);
    expect(left.map((s) => `${s.pid} ${s.name}`), 'processes of the launch left running').toEqual([]);
    const unexplained = uncleanLines(log).filter(
      (l) => !EXPECTED.some((e) => e.phases.includes(phase) && e.line.test(l) && (e.alongside === undefined || e.alongside(l, log))),
    );
    expect(unexplained, tail).toEqual([]);
    // A node that ended cleanly leaves the graph at once; give discovery a moment to say so.
    await waitFor('the ROS graph empty of the launch\'s nodes', 15_000, () => otherNodes(node).length === 0 || undefined, () => otherNodes(node).join(', '));
    expect(ourFilesIn(join(scratch, 'tmp')), 'left in the launch\'s temporary folder').toEqual([]);
  }

  // Not a launch of the package: what its launch files do about Ctrl-C (body_bridge_tools.leave_ctrl_c_to_launch),
  // tried where the window is wide. A Ctrl-C as launch starts processes met, without it, 13 hangs in 20 tries on
  // Humble and 8 in 20 on Jazzy (launch's task starting a process ended by the KeyboardInterrupt, launch waiting on
  // it), and once simulation.launch.py as it started Choreonoid (this suite, Humble); with it, none in 40.
  it('a Ctrl-C as launch starts a burst of processes: with leave_ctrl_c_to_launch launch ends every time', async () => {
    const file = join(projectRoot, 'test', 'live', 'ctrl-c', 'process-burst.launch.py');
    const trial = async (leave: boolean): Promise<number | 'hung'> => {
      const scratch = mkdtempSync(join(scratchRoot, 'burst-'));
      const launch = procs.start('bash', sourced(setup, `ros2 launch ${file}`), { ...process.env, TMPDIR: scratch, BB_LEAVE_CTRL_C: leave ? '1' : '0' });
      const exited = new Promise<number | null>((r) => launch.child.once('exit', (code) => r(code)));
      await waitFor('the burst started', PHASE_MS, () => (launch.output().match(/\[burst-\d+\]: process started/g) ?? []).length >= 3 || undefined, launch.output, 5);
      process.kill(launch.child.pid!, 'SIGINT');
      const code = await Promise.race([exited, sleep(STOP_SECONDS * 1500).then(() => 'hung' as const)]);
      await procs.stop(launch, 'SIGKILL');
      return code ?? -1;
    };
    const left: (number | 'hung')[] = [];
    for (let i = 0; i < 5; i++) left.push(await trial(true));
    const kept: (number | 'hung')[] = [];
    for (let i = 0; i < 4; i++) kept.push(await trial(false));
    console.log(`shutdown: a Ctrl-C in a burst of process starts: with leave_ctrl_c_to_launch ${left.join(', ')}; without ${kept.join(', ')}`);
    expect(left).toEqual([0, 0, 0, 0, 0]);
  }, PHASE_MS * 3);

  for (const c of CASES) {
    for (const phase of c.phases) {
      it.skipIf(c.skip !== null)(`${c.name}.launch.py, ${phase}: SIGINT to the process group${c.skip ? ` (skipped: ${c.skip})` : ''}`, () => ctrlC(c, phase, 'group'), PHASE_MS * 3);
    }
    it.skipIf(c.skip !== null)(`${c.name}.launch.py, running: SIGINT to ros2 launch alone`, () => ctrlC(c, 'running', 'launch'), PHASE_MS * 3);
  }
});
