// One model simulated by `ros2 launch body_bridge simulation.launch.py`, as test/ros-live-control.test.ts and the
// corpus sweep (sweep/) both run it: the launch with Choreonoid's probe (test/live/choreonoid/probe.py) reporting
// the simulation, the wait for the spawners, /clock, and a drive commanded in simulation time.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRobotModel } from '../../src/load.js';
import { urdfRobotName } from '../../src/urdf/urdf.js';
import { simulationBodyItemName } from '../../src/project/simulation-project.js';
import { stampSeconds } from '../live/choreonoid/geometry.js';
import { type ProbeLog, readProbeLog } from './control-live.js';
import { type Any, type Proc, type processGroup, sleep, sourced, waitFor } from './live-rig.js';
import { projectRoot } from './oracle.js';

export const PROBE_SCRIPT = join(projectRoot, 'test/live/choreonoid/probe.py');

export interface SimulationRun {
  /** The run's own folder: TMPDIR of the launch (body-bridge control writes there) and the probe's. */
  dir: string;
  launch: Proc;
  /** What Choreonoid's probe has written so far. */
  probe(): ProbeLog;
  /** The folder body-bridge control wrote the configuration into (removed when the launch stops). */
  controlDir(): string;
  /** The body item the probe reads: the model's name as the generated project names it (simulationBodyItemName). */
  bodyName: string;
}

/**
 * Starts the simulation launch for one model in `scratch/<name>` with the installed package `setup` sourced;
 * `item`: the body item Choreonoid's probe reads, if not the model's name (a user's project).
 */
export function startSimulation(
  procs: ReturnType<typeof processGroup>,
  setup: string,
  scratch: string,
  robot: { name: string; file: string },
  extra: readonly string[] = [],
  item?: string,
  env: NodeJS.ProcessEnv = process.env,
): SimulationRun {
  const dir = join(scratch, robot.name);
  const probeDir = join(dir, 'probe');
  mkdirSync(probeDir, { recursive: true });
  // The item as body-bridge control names it in the project it writes: a nameless model by its file, a name
  // choreonoid_ros cannot make a node of (2F-85) made one.
  const bodyName = simulationBodyItemName(urdfRobotName(loadRobotModel(robot.file)));
  const launch = procs.start('bash', sourced(setup, `ros2 launch body_bridge simulation.launch.py body_file:=${robot.file} script:=${PROBE_SCRIPT} ${extra.join(' ')}`), {
    ...env,
    TMPDIR: dir,
    BB_PROBE_DIR: probeDir,
    BB_PROBE_BODY: item ?? bodyName,
    // --start-simulation starts it (through the SimulationBar, so WorldROS2Item publishes /clock).
    BB_PROBE_NOSTART: '1',
  });
  const probeFile = join(probeDir, 'probe.jsonl');
  const probe = () => readProbeLog(existsSync(probeFile) ? readFileSync(probeFile, 'utf8') : '');
  const controlDir = (): string => {
    const d = readdirSync(dir).find((f) => f.startsWith('body_bridge_control_'));
    if (!d) throw new Error(`no body_bridge_control_* folder in ${dir}`);
    return join(dir, d);
  };
  return { dir, launch, probe, controlDir, bodyName };
}

/**
 * Hands Choreonoid's probe (test/live/choreonoid/probe.py, in `probeDir`) a command, whole: it polls for the file,
 * so a file written in place can be read between its truncation and its text (seen in CI: the probe read "",
 * removed it, and the command was lost).
 */
export function probeCommand(probeDir: string, text: string): void {
  writeFileSync(join(probeDir, 'command.tmp'), text);
  renameSync(join(probeDir, 'command.tmp'), join(probeDir, 'command'));
}

/** Why a launch cannot go on, from its log and the probe (null while it can): it exited, a node died, or Choreonoid's probe found no body. */
export function launchFailure(run: SimulationRun): string | null {
  const log = run.launch.output();
  if (run.launch.child.exitCode !== null || run.launch.child.signalCode !== null) return `the launch exited (${run.launch.child.exitCode ?? run.launch.child.signalCode})`;
  const died = /\[ERROR\] \[([^\]]+)\]: process has died/.exec(log);
  if (died) return `${died[1]} died`;
  const probeError = run.probe().events.find((e) => e.event === 'error');
  if (probeError) return `Choreonoid's probe: ${String(probeError.message)}`;
  return null;
}

/** Waits until every spawner has finished cleanly (all controllers active) and the simulation runs. */
export async function waitForControllers(run: SimulationRun, timeoutMs: number): Promise<void> {
  const log = run.launch.output;
  await waitFor('the spawners (controllers loaded and active in Choreonoid\'s controller_manager)', timeoutMs, () => {
    const failed = launchFailure(run);
    if (failed) throw new Error(`${failed}:\n${log().slice(-6000)}`);
    const started = (log().match(/\[spawner-\d+\]: process started/g) ?? []).length;
    const finished = (log().match(/\[spawner-\d+\]: process has finished cleanly/g) ?? []).length;
    return started > 0 && finished === started;
  }, log);
  await waitFor('Choreonoid\'s probe (the simulation running)', timeoutMs, () => {
    const failed = launchFailure(run);
    if (failed) throw new Error(`${failed}:\n${log().slice(-6000)}`);
    return run.probe().samples.some((s) => s.running);
  }, log);
}

/** Choreonoid's /clock (WorldROS2Item) as the observer node hears it: -1 until the first message. */
export function simulationClock(node: Any): { now: () => number; stop: () => void } {
  let clock = -1;
  const sub = node.createSubscription('rosgraph_msgs/msg/Clock', '/clock', {}, (m: Any) => (clock = stampSeconds(m.clock)));
  return { now: () => clock, stop: () => node.destroySubscription(sub) };
}

/**
 * A drive's command (Humble: TwistStamped; diff_drive_controller's ~/cmd_vel, a steering controller's ~/reference),
 * stamped with the simulation time: `send(speed, yawRate)`.
 */
export function driveCommand(node: Any, clock: () => number, topic = '/diff_drive_controller/cmd_vel'): { send: (speed: number, yawRate?: number) => void; matched: () => boolean; stop: () => void } {
  const cmd = node.createPublisher('geometry_msgs/msg/TwistStamped', topic);
  const send = (speed: number, yawRate = 0): void => {
    const t = clock();
    const sec = Math.floor(t);
    cmd.publish({ header: { stamp: { sec, nanosec: Math.round((t - sec) * 1e9) }, frame_id: '' }, twist: { linear: { x: speed, y: 0, z: 0 }, angular: { x: 0, y: 0, z: yawRate } } });
  };
  return { send, matched: () => cmd.subscriptionCount > 0, stop: () => node.destroyPublisher(cmd) };
}

/**
 * Sends `speed` 50 times a second until `seconds` of simulation time have passed (or `signal` aborts); returns the simulation time of
 * every command sent, from which a gap wider than the controller's cmd_vel_timeout (a lapse of the sender, starved
 * by the machine's load, not of the controller) shows.
 */
export async function holdSpeed(send: (speed: number) => void, clock: () => number, speed: number, seconds: number, signal?: AbortSignal): Promise<number[]> {
  const start = clock();
  const sentAt: number[] = [];
  // `signal`: the caller gave up (its clock may have stopped with the simulation), so stop sending.
  while (clock() < start + seconds && !signal?.aborted) {
    send(speed);
    sentAt.push(clock());
    await sleep(20);
  }
  return sentAt;
}

/** The widest gap between consecutive commands (s of simulation time). */
export const largestGap = (sentAt: readonly number[]): number => Math.max(0, ...sentAt.slice(1).map((t, i) => t - sentAt[i]!));
