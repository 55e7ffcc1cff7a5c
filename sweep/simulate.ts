// One model through the sweep: `simulation.launch.py body_file:=MODEL moveit:=false` with Choreonoid's probe, then
// rest, a random goal per trajectory controller, the drive, and the explosion watch over it all (sweep/checks.ts);
// every process it started stopped before it returns, whatever happened.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { poseFromMatrix16, stampSeconds } from '../test/live/choreonoid/geometry.js';
import { type Any, groupMembers, isModelWarning, type processGroup, waitFor } from '../test/support/live-rig.js';
import { driveCommand, holdSpeed, largestGap, launchFailure, type SimulationRun, simulationClock, startSimulation, waitForControllers } from '../test/support/simulation-live.js';
import {
  DRIFT_FLOOR,
  DRIVE,
  explosionFigures,
  finalErrors,
  type GoalJoint,
  judge,
  REST_SECONDS,
  restDrift,
  realTimeFactor,
  rootMotion,
  sampleAfter,
  sampleBefore,
  samplesBetween,
  speedLimit,
  driveVerdict,
} from './checks.js';
import { goalSetup, type GoalSetup, planGoals } from './goals.js';
import { driveTopics, isDiffDrive, isSteeringDrive, isTrajectoryController, type ModelDesign, modelDesign, type SpawnedController, spawnedControllers } from './design.js';
import { choreonoidLines, complaintLines, controllerAbort } from './logs.js';
import type { SweepModel } from './models.js';
import type { DriveResult, GoalDraws, JointLoad, ModelResult, TrajectoryResult } from './report.js';
import { loadRobotModel } from '../src/load.js';
import { BICYCLE_STEERING_CONTROLLER, DIFF_DRIVE_CONTROLLER } from '../src/control/controllers.js';

export interface Rig {
  procs: ReturnType<typeof processGroup>;
  /** The installed package's setup.bash. */
  setup: string;
  scratch: string;
  /** Where each model's launch log is kept, as evidence for the table's reasons. */
  logs: string;
  node: Any;
}

export interface Limits {
  /** ms for Choreonoid to load the model and the spawners to finish. */
  start: number;
  /** ms for the whole model, start included. */
  model: number;
  seed: number;
}

/** s of simulation time between sending the trajectories and their start. */
const START_AHEAD = 0.3;
/** ms to wait for a controller's subscription to match the sweep's publisher. */
const MATCH_TIMEOUT = 30_000;

/** s of simulation time after the drive's stop command before the root is read at rest. */
const DRIVE_SETTLE = 1.5;
/**
 * s of simulation time of zero commands before the drive's: the publisher's side may see the subscription matched
 * before the controller's side has matched the publisher, and what is sent in between is dropped. Without them the
 * wheels of RH2's variants turned for the equivalent of 2.72–2.95 s of the drive's 3.0 (the probe: their travel
 * over the speed; 28 Nov 2026: RH2_withoutArm_withObstacleSensor's ramps up and down, mid to mid, 2.72 s apart), with
 * no gap in the sending wide enough to time the controller out.
 */
const DRIVE_LEAD = 0.5;

/** One model, judged; never throws. */
export async function simulateModel(rig: Rig, m: SweepModel, hash: string, limits: Limits): Promise<ModelResult> {
  const began = Date.now();
  const result: ModelResult = { model: m.model, hash, date: new Date().toISOString(), wallSeconds: 0, outcome: 'ran', roles: {}, controllers: [], trajectories: [], complaints: [] };
  const finish = (): ModelResult => ({ ...result, wallSeconds: Math.round((Date.now() - began) / 100) / 10 });
  let design: ModelDesign;
  let goals: GoalSetup;
  try {
    design = modelDesign(m.file);
    goals = goalSetup(loadRobotModel(m.file), new Set(design.roles['leg'] ?? []), new Set(design.roles['passive'] ?? []));
  } catch (e) {
    return { ...finish(), outcome: 'error', message: `body_bridge: ${(e as Error).message.split('\n')[0]}` };
  }
  result.roles = design.roles;
  const name = m.model.replace(/[^A-Za-z0-9_.-]+/g, '_');
  let run: SimulationRun | null = null;
  let stage = 'starting';
  const live = watchGraph(rig.node);
  // Aborted once the model is over, so that nothing of a run that timed out goes on sending to the next model's controllers.
  const over = new AbortController();
  try {
    run = startSimulation(rig.procs, rig.setup, rig.scratch, { name, file: m.file }, ['moveit:=false']);
    const started = run;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`no result within ${limits.model / 1000} s (${stage})`)), limits.model);
    });
    try {
      await Promise.race([deadline, judgeRun(rig.node, started, design, goals, live, limits, result, (s) => (stage = s), over.signal)]);
    } finally {
      clearTimeout(timer);
    }
  } catch (e) {
    const log = run?.launch.output() ?? '';
    const failure = run ? launchFailure(run) : null;
    if (failure?.startsWith("Choreonoid's probe") || /failed to load|cannot be loaded|is not supported/i.test(choreonoidLines(log).join('\n'))) {
      result.outcome = 'not loaded by Choreonoid';
      result.message = choreonoidLines(log).filter((l) => /error|fail|cannot|not supported|warning/i.test(l)).slice(0, 4).join(' / ') || failure || (e as Error).message;
    } else {
      result.outcome = e instanceof TimeoutError ? 'timed out' : stage === 'starting' ? 'not started' : 'error';
      result.message = `${(e as Error).message.split('\n')[0]}${failure ? ` (${failure})` : ''}`;
    }
  } finally {
    over.abort();
    live.stop();
    const log = run?.launch.output() ?? '';
    await rig.procs.stopAll();
    if (run) await leaveNothing(run.launch.child.pid!);
    mkdirSync(rig.logs, { recursive: true });
    writeFileSync(join(rig.logs, `${name}.log`), log);
    result.complaints = complaintLines(log).filter((l) => !isModelWarning(l)).slice(0, 6);
    for (const t of result.trajectories) {
      const said = controllerAbort(log, t.controller);
      if (said) t.controllerSaid = said;
    }
    if (run) {
      const rate = realTimeFactor(run.probe().samples);
      if (rate !== null) result.realTimeFactor = rate;
      // Choreonoid's account beside the log, to look into a failure afterwards.
      const probeFile = join(run.dir, 'probe', 'probe.jsonl');
      if (existsSync(probeFile)) copyFileSync(probeFile, join(rig.logs, `${name}.probe.jsonl`));
      rmSync(run.dir, { recursive: true, force: true });
    }
  }
  return finish();
}

class TimeoutError extends Error {}

/**
 * ros2 launch exits once it has signalled its nodes, and Choreonoid may still be shutting down then: the next model
 * must not start beside it. Waits for the launch's process group to empty, and kills what is left of it after 20 s.
 */
async function leaveNothing(pgid: number): Promise<void> {
  const empty = await waitFor(`process group ${pgid} gone`, 20_000, () => groupMembers(pgid).length === 0).catch(() => false);
  if (empty) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone in between
  }
  await waitFor(`process group ${pgid} killed`, 10_000, () => groupMembers(pgid).length === 0);
}

/** s of wall time the goals' planning may take (it holds the event loop): a fallen humanoid's squats took minutes on a loaded machine. */
const PLAN_SECONDS = 60;

// The drive controllers' odometry, as the generated ros2_controllers.yaml names them (src/control/controllers.ts).
const DIFF_DRIVE_ODOMETRY = `/${DIFF_DRIVE_CONTROLLER}/odom`;
const STEERING_ODOMETRY = `/${BICYCLE_STEERING_CONTROLLER}/odometry`;

/** What the observer hears while a model runs: /clock, /joint_states and the drive's odometry. */
interface Graph {
  clock: () => number;
  jointStates: { stamp: number; position: Record<string, number>; velocity: Record<string, number>; effort: Record<string, number> }[];
  odom: { stamp: number; x: number; y: number }[];
  stop: () => void;
}

function watchGraph(node: Any): Graph {
  const clock = simulationClock(node);
  const jointStates: Graph['jointStates'] = [];
  const odom: Graph['odom'] = [];
  const subs = [
    node.createSubscription('sensor_msgs/msg/JointState', '/joint_states', {}, (msg: Any) => {
      const names: string[] = [...msg.name];
      jointStates.push({
        stamp: stampSeconds(msg.header.stamp),
        position: Object.fromEntries(names.map((n, i) => [n, Number(msg.position[i])])),
        velocity: Object.fromEntries(names.map((n, i) => [n, Number(msg.velocity[i] ?? 0)])),
        effort: Object.fromEntries(names.map((n, i) => [n, Number(msg.effort[i] ?? NaN)])),
      });
    }),
    // A model has one drive: diff_drive_controller's odometry, or its steering controller's.
    ...[DIFF_DRIVE_ODOMETRY, STEERING_ODOMETRY].map((topic) =>
      node.createSubscription('nav_msgs/msg/Odometry', topic, {}, (msg: Any) =>
        odom.push({ stamp: stampSeconds(msg.header.stamp), x: msg.pose.pose.position.x, y: msg.pose.pose.position.y }),
      ),
    ),
  ];
  return {
    clock: clock.now,
    jointStates,
    odom,
    stop: () => {
      clock.stop();
      subs.forEach((s) => node.destroySubscription(s));
    },
  };
}

/** Waits for `seconds` of simulation time from now. */
async function simulate(graph: Graph, run: SimulationRun, seconds: number): Promise<number> {
  if (!Number.isFinite(seconds)) throw new Error(`asked to simulate ${seconds} s`);
  const until = graph.clock() + seconds;
  await waitFor(`${seconds} s of simulation time`, 60_000 + seconds * 20_000, () => {
    const failed = launchFailure(run);
    if (failed) throw new Error(failed);
    return graph.clock() >= until;
  }, run.launch.output);
  return graph.clock();
}

async function judgeRun(
  node: Any,
  run: SimulationRun,
  design: ModelDesign,
  goals: GoalSetup,
  graph: Graph,
  limits: Limits,
  result: ModelResult,
  stage: (s: string) => void,
  signal: AbortSignal,
): Promise<void> {
  await waitForControllers(run, limits.start);
  stage('reading the controllers');
  const dir = run.controlDir();
  const controllers = spawnedControllers(readFileSync(join(dir, 'ros2_controllers.yaml'), 'utf8'), readFileSync(join(dir, 'spawners.yaml'), 'utf8'));
  result.controllers = controllers.filter((c) => c.name !== 'joint_state_broadcaster').map((c) => c.name);
  await waitFor('/clock from Choreonoid (WorldROS2Item)', 60_000, () => graph.clock() >= 0, run.launch.output);
  const units = Object.fromEntries(Object.entries(design.joints).map(([j, f]) => [j, f.type === 'prismatic' ? 'm' : 'rad']));

  // (a) Rest: every joint the gains hold (position_pd) stays within its predicted sag of where the window starts.
  stage('at rest');
  const restFrom = graph.clock();
  const restTo = await simulate(graph, run, REST_SECONDS);
  const restSamples = samplesBetween(run.probe().samples, restFrom, restTo);
  const held = Object.fromEntries(Object.entries(design.sag).map(([j, s]) => [j, Math.max(s, DRIFT_FLOOR)]));
  const initial = run.probe().samples[0]?.q;
  if (restSamples.length > 0 && Object.keys(held).length > 0 && initial) {
    const last = [...graph.jointStates].reverse().find((m) => m.stamp <= restTo);
    const settling = design.freeRoot ? rootMotion(restSamples[0]!, restSamples.at(-1)!, design.freeRoot) : null;
    result.rest = {
      loads: jointLoads(design, Object.keys(held), last?.effort ?? {}),
      ...(settling ? { root: settling } : {}),
      ...judge(restDrift(restSamples, restSamples[0]!.q, held, units)),
      joints: Object.keys(held).length,
      samples: restSamples.length,
      // Not judged: how far the held joints stand from the model's initial pose — the sag under the hardware's hold
      // from the first step, and again under the trajectory controllers' hold of the sagged pose from their activation.
      fromInitial: judge(restDrift(restSamples.slice(0, 1), initial, Object.fromEntries(Object.entries(held).map(([j, a]) => [j, 2 * a])), units)).worst,
    };
  }

  // (b) Each trajectory controller: a seeded random goal in its joints' limits, clear of the floor and of the body
  // itself, a standing body's legs squatting (sweep/goals.ts); all sent at once, or, where no draw sent at once is
  // clear, one joint at a time.
  stage('trajectories');
  const trajectories = controllers.filter(isTrajectoryController);
  // A simulation that has diverged (NaN joint angles) has no pose to start a trajectory from: the explosion watch says so.
  const diverged = Object.values(run.probe().samples.at(-1)?.q ?? {}).some((q) => !Number.isFinite(q));
  if (trajectories.length > 0 && !diverged) {
    const moved = await moveToGoals(node, run, graph, design, goals, trajectories, limits.seed, units);
    result.trajectories = moved.results;
    result.goals = moved.draws;
  }
  const samples = run.probe().samples;
  const first = samples.find((s) => s.running);
  const now = samples.at(-1);
  const moved = design.freeRoot && first && now ? rootMotion(first, now, design.freeRoot) : null;
  if (moved) result.root = moved;

  // (c) The drive, by Choreonoid's root pose.
  const drive = controllers.find((c) => isDiffDrive(c) || isSteeringDrive(c));
  if (drive && design.freeRoot) {
    stage('driving');
    result.drive = await driveBase(node, run, graph, design.freeRoot, driveTopics(drive).command, signal);
  }

  // (d) Nothing moved faster than its limits, from the simulation's start to now.
  const speedLimits = Object.fromEntries(Object.entries(design.joints).filter(([, f]) => f.type === 'revolute' || f.type === 'prismatic').map(([j, f]) => [j, speedLimit(f)]));
  result.explosion = judge(explosionFigures(run.probe().samples, speedLimits, design.freeRoot, graph.jointStates, units, design.freeLinks));
}

/**
 * Sends every trajectory controller its goal (its points, on its joint_trajectory topic) and reads each joint at the
 * trajectory's end plus the controller's goal_time — when the controller itself judges the goal — from Choreonoid
 * and from /joint_states.
 */
async function moveToGoals(
  node: Any,
  run: SimulationRun,
  graph: Graph,
  design: ModelDesign,
  setup: GoalSetup,
  controllers: readonly SpawnedController[],
  seed: number,
  units: Record<string, string>,
): Promise<{ results: TrajectoryResult[]; draws: GoalDraws }> {
  const last = run.probe().samples.at(-1)!;
  const now = last.q;
  const rootName = setup.model.links[0]!.name;
  const root = last.links[rootName];
  if (!root) throw new Error(`Choreonoid's probe has no pose of ${rootName}`);
  const plan = planGoals(
    setup,
    controllers.map((c) => ({
      name: c.name,
      joints: c.joints.map((j): GoalJoint => {
        const f = design.joints[j]!;
        return { name: j, type: f.type === 'prismatic' ? 'prismatic' : 'revolute', lower: f.lower, upper: f.upper, velocity: speedLimit(f) };
      }),
    })),
    now,
    poseFromMatrix16(root),
    seed,
    performance.now() + PLAN_SECONDS * 1000,
  );
  // Planning held the event loop (up to seconds for a standing humanoid): graph.clock() is as old as the plan until
  // the /clock messages waiting in the executor are taken, and a trajectory stamped from it would start, or end, in
  // the past — the controllers then jump to the goal (SR1.body's knees 0 → 0.40 rad in 0.25 s, its root turning 16°,
  // 04:54 UTC 30 Nov 2026). So the clock is read again, after some simulation time has passed, before anything is stamped.
  await simulate(graph, run, 0.1);
  const planned = controllers.map((c, i) => ({
    c,
    goal: plan.goals[i]!,
    points: plan.points[i]!,
    duration: plan.durations[i]!,
    publisher: node.createPublisher('trajectory_msgs/msg/JointTrajectory', `/${c.name}/joint_trajectory`),
  }));
  // A message published before the controller's subscription is matched is lost: the joints would never move.
  await waitFor('the trajectory controllers subscribed to their joint_trajectory topics', MATCH_TIMEOUT, () => planned.every((p) => p.publisher.subscriptionCount > 0));
  // Every trajectory starts at one instant a little ahead (the header's stamp), not when its message arrives: the
  // judging times are then exact in simulation time.
  const start = graph.clock() + START_AHEAD;
  const sent = planned.map(({ c, goal, points, duration, publisher }, i) => {
    publisher.publish({
      header: { stamp: { sec: Math.floor(start), nanosec: Math.round((start - Math.floor(start)) * 1e9) }, frame_id: '' },
      joint_names: c.joints,
      // Velocities 0 at every point: the controller's cubic from point to point, the way the goals were checked along.
      points: points.map((p) => ({
        positions: c.joints.map((j) => p.positions[j]!),
        velocities: c.joints.map(() => 0),
        accelerations: [],
        effort: [],
        time_from_start: { sec: Math.floor(p.time), nanosec: Math.round((p.time - Math.floor(p.time)) * 1e9) },
      })),
    });
    return { c, goal, duration, seed: seed + i, publisher, at: start + duration + (c.goalTime ?? 0) };
  });
  // A little past the last judging time, so that a probe sample and a joint_states message exist after it.
  await simulate(graph, run, Math.max(...sent.map((s) => s.at)) - graph.clock() + 0.2);
  sent.forEach((s) => node.destroyPublisher(s.publisher));
  const samples = run.probe().samples;
  const draws: GoalDraws = { draws: plan.draws, found: plan.found, squat: plan.squat, rejected: plan.rejected, moves: plan.moves?.map((m) => ({ joint: m.joint, stop: m.stop })) ?? null, ...(plan.timedOut ? { timedOut: PLAN_SECONDS } : {}) };
  const results = sent.map((s): TrajectoryResult => {
    const probe = sampleAfter(samples, s.at);
    const state = graph.jointStates.find((m) => m.stamp >= s.at);
    return {
      controller: s.c.name,
      joints: s.c.joints,
      seed: s.seed,
      duration: s.duration,
      goal: s.goal,
      probe: judge(finalErrors(probe?.q ?? {}, s.goal, s.c.goal, units)),
      jointStates: judge(finalErrors(state?.position ?? {}, s.goal, s.c.goal, units)),
      loads: jointLoads(design, s.c.joints, state?.effort ?? {}),
    };
  });
  return { results, draws };
}

/** DRIVE's speed for its time on the drive's `topic` (diff_drive_controller's or the steering controller's), then zero until the base rests; the root's travel by Choreonoid. */
async function driveBase(node: Any, run: SimulationRun, graph: Graph, root: string, topic: string, signal: AbortSignal): Promise<DriveResult> {
  const cmd = driveCommand(node, graph.clock, topic);
  try {
    // Commands sent before the drive's subscription is matched are lost, and the base drives short.
    await waitFor(`the drive subscribed to ${topic}`, MATCH_TIMEOUT, cmd.matched);
    await holdSpeed(cmd.send, graph.clock, 0, DRIVE_LEAD, signal);
    const from = graph.clock();
    const sentAt = await holdSpeed(cmd.send, graph.clock, DRIVE.speed, DRIVE.seconds, signal);
    await holdSpeed(cmd.send, graph.clock, 0, DRIVE_SETTLE, signal);
    const to = await simulate(graph, run, 0.1);
    const samples = run.probe().samples;
    const a = sampleBefore(samples, from);
    const b = sampleBefore(samples, to);
    if (!a || !b || !a.links[root] || !b.links[root]) throw new Error(`Choreonoid's probe has no pose of ${root} around the drive`);
    const verdict = driveVerdict(a, b, root);
    const odomAt = (t: number) => graph.odom.reduce<Graph['odom'][number] | null>((best, o) => (!best || Math.abs(o.stamp - t) < Math.abs(best.stamp - t) ? o : best), null);
    const o0 = odomAt(a.sim);
    const o1 = odomAt(b.sim);
    return {
      pass: verdict.value <= verdict.bound,
      worst: { what: verdict.what, value: verdict.value, bound: verdict.bound, unit: verdict.unit },
      distance: verdict.distance,
      odometry: o0 && o1 ? Math.hypot(o1.x - o0.x, o1.y - o0.y) : null,
      largestGap: largestGap(sentAt),
    };
  } finally {
    cmd.stop();
  }
}

/** What each joint bore (the PD's torque or force, /joint_states' effort) beside the gravity load its gains were designed for. */
const jointLoads = (design: ModelDesign, joints: readonly string[], effort: Readonly<Record<string, number>>): Record<string, JointLoad> =>
  Object.fromEntries(joints.filter((j) => design.gravity[j] !== undefined).map((j) => [j, { effort: effort[j] ?? NaN, gravity: design.gravity[j]! }]));
