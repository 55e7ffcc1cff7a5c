// MoveIt 2's move_group planning with what body_bridge serves, as a user runs it: `ros2 launch body_bridge
// moveit.launch.py body_file:=X` with the package built by colcon, then test/peers/moveit_probe.py (rclpy and
// moveit_msgs) asking move_group through its own services and action. For PA10, UR10, SR1 (.body and .wrl), GR001
// and HRP4C:
// - move_group starts with no warning or error in the launch log, nor does body_bridge but for its warnings
//   about the model itself (located in the model file, or a nameless device: isModelWarning), and its
//   planning interface knows every group the SRDF names;
// - the home state, as the SRDF states it and as move_group's current state (the node's joint_states and
//   /tf_static), is free of self-collision in MoveIt's planning scene;
// - for every chain group, a joint-space goal and a Cartesian goal are planned, end where asked, and every
//   trajectory point stays within the URDF's position limits and joint_limits.yaml's velocities and
//   accelerations — the URDF, the SRDF and the YAML read here independently of the writer. Both goals come
//   from random collision-free configurations the current state reaches in a straight line (a random state
//   alone may be where no path leads, like a UR elbow beyond its folded position). The Cartesian goal is the
//   tip's pose there (from /compute_fk; MoveIt samples the goal by IK with the group's KDL solver), asking
//   what the chain can meet: the whole pose with six or more joints, else its position, or its orientation
//   for the chains that only turn their tip (Robot.turning) — which kinematics.yaml's position_only_ik
//   must allow (docs/moveit.md);
// - a goal in self-collision (found with /check_state_validity on random states of the chain groups, so the
//   collision matrix leaves that collision enabled) is refused.
// Planning must stay warning-free too, up to the refused goal (which MoveIt rightly complains about).
// Skipped, with the reason, where ROS 2 or MoveIt's move_group is absent. Figures go to build/live-moveit/.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { type Any, installedPackage, liveRos, processGroup, sourced, waitFor, ownRosDomain, closeObserver, observerNode } from './support/live-rig.js';
import { skipWithout } from './support/peer-skip.js';
import { everyOnPath, findMoveGroup, rosPython } from './support/peers.js';
import {
  chainJoints,
  complaints,
  modelWarnings,
  pairKey,
  peakRatios,
  type ProbePlan,
  readJointLimits,
  readSrdf,
  readUrdf,
  trajectoryViolations,
} from './support/moveit-live.js';

ownRosDomain('ros-live-moveit');

const ros = await liveRos();
// move_group is looked for only where the graph is there: elsewhere the first line says it all.
const skip = skipWithout(ros) || skipWithout(findMoveGroup());

const probeScript = join(projectRoot, 'test/peers/moveit_probe.py');
const results = join(projectRoot, 'build', 'live-moveit');
const SUCCESS = 1;
/** How far past a joint's limit the start-state check starts it: within start_state_max_bounds_error (0.1), and beyond. */
const START_PAST = { within: 0.005, beyond: 0.3 };
/** Jazzy and later: MoveIt's request adapters of the new interface, body_bridge's FixStartStateBounds among them. */
const AFTER_HUMBLE = process.env.ROS_DISTRO !== undefined && process.env.ROS_DISTRO !== 'humble';
// MoveItErrorCodes: a goal whose joint values lie outside the robot model's bounds.
const INVALID_GOAL_CONSTRAINTS = -16;
const READY = 'You can start planning now!';


interface Robot {
  name: string;
  file: string;
  /** Groups the SRDF must name (the inferred names docs/moveit.md promises). */
  groups: string[];
  /** Chain groups of fewer than six joints that only turn their tip (every axis through its origin): orientation goals. */
  turning?: string[];
  /** Joints joint_limits.yaml gives a planning range (docs/moveit.md, "Planning ranges"). */
  narrowed?: string[];
}

const robots: Robot[] = [
  { name: 'PA10', file: 'choreonoid/share/model/PA10/PA10.body', groups: ['arm', 'hand', 'whole_body'] },
  // The elbow folds onto the upper arm at about ±170°, within its ±360°.
  { name: 'UR10', file: 'choreonoid/share/model/UniversalRobots/UR10.body', groups: ['arm', 'whole_body'], narrowed: ['FOREARM'] },
  { name: 'SR1', file: 'choreonoid/share/model/SR1/SR1.body', groups: ['CHEST', 'LARM', 'RARM', 'LLEG', 'RLEG', 'whole_body'] },
  // An OpenHRP .wrl robot through the same launch: the corpus has GR001 as a .body only, SR1 as both.
  { name: 'SR1-wrl', file: 'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl', groups: ['CHEST', 'LARM', 'RARM', 'LLEG', 'RLEG', 'whole_body'] },
  // The corpus has GR001 as a .body (with STL meshes) only; no .wrl of it exists there.
  // CHEST_P and HEAD: one joint each; RARM and LARM: three joints, the tip at the elbow joint.
  { name: 'GR001', file: 'choreonoid/share/model/GR001/GR001.body', groups: ['RLEG', 'LLEG', 'CHEST_P', 'HEAD', 'RARM', 'LARM', 'whole_body'], turning: ['CHEST_P', 'HEAD'] },
  // CHEST_Y and HEAD: three joints whose axes meet at the tip's origin.
  { name: 'HRP4C', file: 'choreonoid/share/model/HRP4C/HRP4C.body', groups: ['LLEG', 'RLEG', 'CHEST_Y', 'HEAD', 'LARM', 'RARM', 'whole_body'], turning: ['CHEST_Y', 'HEAD'] },
];

interface ProbeResult {
  planning_frame?: string;
  interfaces?: { name: string; pipeline_id: string; planner_ids: string[] }[];
  home?: { current: { valid: boolean; contacts: string[][] }; srdf: { valid: boolean; contacts: string[][] } };
  plans?: (ProbePlan & { goal: unknown; seconds: number })[];
  self_collision?: { group: string | null; tries: number; state?: Record<string, number>; contacts?: string[][]; error_code?: number; planning_time?: number; points?: number };
  beyond_range?: { joint: string; group: string; goal: Record<string, number> | null; valid: boolean; error_code?: number; planning_time?: number; points?: number }[];
  start_past_limits?: { group: string | null; joint: string | null; bound?: number; starts: { past: number; start: number; error_code: number; first: number | null; points: number }[] };
}

describe.skipIf(skip)('moveit.launch.py: move_group plans with what body_bridge serves', () => {
  let rcl: Any;
  let node: Any;
  let setup = '';
  let scratch = '';
  const procs = processGroup();
  const summary: Record<string, unknown> = {};

  beforeAll(async () => {
    requireShared();
    rcl = ros.rcl;
    mkdirSync(results, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'bb-live-moveit-'));
    setup = await installedPackage();
    node = await observerNode(rcl, 'moveit-test');
    node.spin();
  }, 1_500_000);

  // A robot whose run fails must not leave its launch running: the next one would read its latched topics.
  afterEach(async () => {
    await procs.stopAll();
  }, 60_000);

  afterAll(async () => {
    await procs.stopAll();
    closeObserver(rcl, node);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (Object.keys(summary).length > 0) writeFileSync(join(results, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  });

  /** The latest message on a latched String topic, once it names `robot`. */
  const latched = async (topic: string, accept: (text: string) => boolean): Promise<string> => {
    let got: string | undefined;
    const sub = node.createSubscription('std_msgs/msg/String', topic, { qos: new rcl.QoS(1, 1, 1, 1) }, (m: Any) => {
      if (accept(m.data)) got = m.data;
    });
    try {
      return await waitFor(topic, 120_000, () => got);
    } finally {
      node.destroySubscription(sub);
    }
  };

  /** Runs the probe with the installed package sourced; its JSON answer, or an error with its stderr. */
  const probe = (request: unknown, log: () => string): Promise<ProbeResult> =>
    new Promise((resolve, reject) => {
      const p = spawn('bash', sourced(setup, `${rosPython()} ${probeScript}`), { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => (out += String(d)));
      p.stderr.on('data', (d) => (err += String(d)));
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        p.kill('SIGKILL');
      }, 900_000);
      p.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(JSON.parse(out) as ProbeResult);
        else if (expired) reject(new Error(`moveit_probe.py had no answer from move_group within 900 s (planning and checking ${JSON.stringify(request).slice(0, 200)}):\n${err.slice(-4000)}\nlaunch log:\n${log().slice(-4000)}`));
        else reject(new Error(`moveit_probe.py exited ${code}:\n${err.slice(-4000)}\nlaunch log:\n${log().slice(-4000)}`));
      });
      p.stdin.end(JSON.stringify(request));
    });

  for (const robot of robots) {
    it(`${robot.name}: move_group starts clean, home is valid, every chain plans within the limits, a self-colliding goal is refused`, async () => {
      const file = join(corpusDir, robot.file);
      const launchTmp = join(scratch, robot.name);
      mkdirSync(launchTmp);
      const started = Date.now();
      const launch = procs.start('bash', sourced(setup, `ros2 launch body_bridge moveit.launch.py body_file:=${file}`), { ...process.env, TMPDIR: launchTmp });
      // Ready, or given up: the launch keeps running when move_group alone dies.
      await waitFor('move_group ready', 300_000, () => launch.output().includes(READY) || launch.child.exitCode !== null || /\[ERROR\] \[move_group-\d+\]: process has died/.test(launch.output()), launch.output);
      expect(launch.output(), launch.output().slice(-4000)).toContain(READY);
      const startSeconds = (Date.now() - started) / 1000;

      const urdfText = await latched('/robot_description', (t) => t.includes('<robot'));
      const srdfText = await latched('/robot_description_semantic', (t) => t.includes('<robot'));
      const urdf = readUrdf(urdfText);
      const srdf = readSrdf(srdfText);
      expect(srdf.robot).toBe(urdf.robot);
      expect(srdf.groups.map((g) => g.name).sort()).toEqual([...robot.groups].sort());
      const configDir = readdirSync(launchTmp).find((f) => f.startsWith('body_bridge_moveit_'));
      expect(configDir, `the launch's configuration folder in ${launchTmp}`).toBeDefined();
      const limits = readJointLimits(readFileSync(join(launchTmp, configDir!, 'joint_limits.yaml'), 'utf8'));
      for (const j of urdf.moving) expect(limits.get(j)?.acceleration, `${j} in joint_limits.yaml`).toBeGreaterThan(0);

      const narrowed = [...urdf.moving].filter((j) => limits.get(j)!.lower > urdf.joints.get(j)!.lower || limits.get(j)!.upper < urdf.joints.get(j)!.upper);
      expect(narrowed, 'joints joint_limits.yaml gives a planning range').toEqual(robot.narrowed ?? []);
      const chains = srdf.groups.filter((g) => g.chain).map((g) => ({ name: g.name, joints: chainJoints(urdf, g.chain!.base, g.chain!.tip), tip: g.chain!.tip }));
      const request = {
        seed: 1,
        timeout: 120,
        planning_time: 10.0,
        home: Object.fromEntries(srdf.home),
        // MoveIt's bounds: the URDF's limits, narrowed where joint_limits.yaml gives a planning range.
        limits: Object.fromEntries([...urdf.moving].map((j) => [j, [Math.max(urdf.joints.get(j)!.lower, limits.get(j)!.lower), Math.min(urdf.joints.get(j)!.upper, limits.get(j)!.upper)]])),
        ranges: Object.fromEntries(narrowed.map((j) => [j, { planning: [limits.get(j)!.lower, limits.get(j)!.upper], model: [urdf.joints.get(j)!.lower, urdf.joints.get(j)!.upper] }])),
        chains,
        collision_tries: 3000,
      };
      const answers = await probe({ ...request, checks: ['interfaces', 'home', 'joint', 'pose'] }, launch.output);
      const cleanLog = launch.output();
      const refused = await probe({ ...request, checks: ['self_collision', 'beyond_range', 'start_past_limits'], start_past: [START_PAST.within, START_PAST.beyond], bounded: [...urdf.moving].filter((j) => urdf.joints.get(j)!.type !== 'continuous') }, launch.output);
      const refusedLog = launch.output().slice(cleanLog.length);
      await procs.stopAll();
      expect(existsSync(join(launchTmp, configDir!)), 'the launch\'s configuration folder after it ended').toBe(false);

      const plans = answers.plans ?? [];
      const ratios = plans.map((p) => peakRatios(p, limits));
      const record = {
        file: robot.file,
        moveGroupStartSeconds: startSeconds,
        groups: srdf.groups.map((g) => g.name),
        planningFrame: answers.planning_frame,
        home: answers.home,
        plans: plans.map((p, i) => ({
          group: p.group,
          kind: p.kind,
          errorCode: p.error_code,
          planningTime: p.planning_time,
          points: p.points.length,
          duration: p.points.at(-1)?.t,
          end: p.end,
          goal: p.goal,
          peak: ratios[i],
          violations: trajectoryViolations(p, urdf, limits).length,
        })),
        selfCollision: refused.self_collision,
        beyondRange: refused.beyond_range,
        beyondRangeWithoutRanges: undefined as ProbeResult['beyond_range'],
        startPastLimits: refused.start_past_limits,
        warnings: complaints(cleanLog),
        modelWarnings: modelWarnings(cleanLog),
      };
      summary[robot.name] = record;
      writeFileSync(join(results, `${robot.name}.json`), `${JSON.stringify(record, null, 2)}\n`);
      writeFileSync(join(results, `${robot.name}.refused.log`), refusedLog);
      console.log(`${robot.name}: ${JSON.stringify({ ...record, plans: record.plans.map((p) => `${p.group}/${p.kind} ${p.errorCode} ${p.planningTime.toFixed(3)} s`) })}`);
      for (const g of robot.turning ?? []) expect(chains.find((c) => c.name === g)?.joints.length, `${g}: a chain of fewer than six joints`).toBeLessThan(6);

      // Start-up and planning: nothing from move_group, body_bridge or launch complains (body_bridge may about the model).
      expect(complaints(cleanLog), cleanLog.slice(-6000)).toEqual([]);

      // Every group the SRDF names is a planning group of move_group's OMPL pipeline (it lists each group's default configuration by the group's name).
      const ompl = answers.interfaces!.find((i) => i.pipeline_id === 'ompl');
      expect(ompl, JSON.stringify(answers.interfaces)).toBeDefined();
      for (const g of srdf.groups) expect(ompl!.planner_ids, g.name).toContain(g.name);

      expect(answers.home!.srdf).toEqual({ valid: true, contacts: [] });
      expect(answers.home!.current).toEqual({ valid: true, contacts: [] });

      const cartesian = (c: (typeof chains)[number]): string => (c.joints.length >= 6 ? 'pose' : robot.turning?.includes(c.name) ? 'orientation' : 'position');
      expect(plans.map((p) => `${p.group}/${p.kind}`)).toEqual(chains.flatMap((c) => [`${c.name}/joint`, `${c.name}/${cartesian(c)}`]));
      for (const [i, p] of plans.entries()) {
        const what = `${robot.name} ${p.group} ${p.kind} goal`;
        expect(p.error_code, what).toBe(SUCCESS);
        expect(p.points.length, what).toBeGreaterThan(1);
        expect([...p.joint_names].sort(), what).toEqual([...chains.find((c) => c.name === p.group)!.joints].sort());
        expect(trajectoryViolations(p, urdf, limits), what).toEqual([]);
        // Time-optimal parametrisation drives some joint to a velocity or acceleration limit: the limits it met were joint_limits.yaml's.
        expect(Math.max(ratios[i]!.velocity, ratios[i]!.acceleration), what).toBeGreaterThan(0.5);
        if (p.kind === 'joint') expect(p.end!.joint_error!, what).toBeLessThanOrEqual(1e-3 + 1e-9);
        else {
          // The goal's tolerances: 1 mm (a sphere) and 0.01 rad per axis. A turning chain's tip stays put.
          expect(p.end!.position_error!, what).toBeLessThanOrEqual(p.kind === 'orientation' ? 1e-6 : 1e-3 + 1e-6);
          if (p.kind !== 'position') expect(p.end!.angle_error!, what).toBeLessThan(0.05);
        }
      }

      const hit = refused.self_collision!;
      expect(hit.group, `no self-colliding state in ${hit.tries} random states`).not.toBeNull();
      expect(hit.contacts!.length).toBeGreaterThan(0);
      for (const [a, b] of hit.contacts!) expect(srdf.disabled.has(pairKey(a!, b!)), `${a} / ${b}`).toBe(false);
      expect(hit.error_code, `goal in collision ${JSON.stringify(hit.contacts)}`).not.toBe(SUCCESS);
      expect(hit.points).toBe(0);

      // A start state past a joint's limit: by a hair (a simulated joint held at its limit settles so), move_group
      // plans from the limit (Humble: MoveIt's FixStartStateBounds, its trajectory starting where the joint is;
      // Jazzy: body_bridge/FixStartStateBounds, which the launch put in CheckStartStateBounds's place, starting at
      // the limit); well past it, the plan is refused (Jazzy: the adapter's ERROR line names the joint).
      const past = refused.start_past_limits!;
      // SR1.wrl states no joint limits at all (every joint continuous: MoveIt wraps them, nothing is past a limit).
      const limited = chains.some((c) => c.joints.some((j) => urdf.joints.get(j)!.type !== 'continuous'));
      expect(past.joint !== null, `a joint with limits that stands at one without collision, among ${chains.map((c) => c.name).join(', ')}`).toBe(limited);
      if (limited) {
        const [within, beyond] = past.starts;
        expect(within!.error_code, `${past.joint} started ${within!.past} past its limit ${past.bound}`).toBe(SUCCESS);
        expect(within!.first, `the trajectory's first point of ${past.joint}`).toBeCloseTo(AFTER_HUMBLE ? past.bound! : within!.start, 9);
        expect(beyond!.error_code, `${past.joint} started ${beyond!.past} past its limit ${past.bound}`).not.toBe(SUCCESS);
        expect(beyond!.points).toBe(0);
        if (AFTER_HUMBLE) {
          // move_group's plan-only path reports every failed pipeline as FAILURE; the adapter's own code, in its log.
          expect(refusedLog, 'body_bridge/FixStartStateBounds on the start a hair past the limit').toMatch(new RegExp(`\\[INFO\\] \\[[\\d.]+\\] \\[move_group\\.body_bridge_fix_start_state_bounds\\]: Start state: joint '${past.joint}' at \\S+, limits \\[\\S+, \\S+\\], past them by \\S+ \\(within start_state_max_bounds_error 0\\.1\\): planning from the limit`));
          expect(refusedLog, 'body_bridge/FixStartStateBounds on the start well past the limit').toMatch(new RegExp(`\\[ERROR\\] \\[[\\d.]+\\] \\[move_group\\.body_bridge_fix_start_state_bounds\\]: Start state out of bounds by more than start_state_max_bounds_error \\(0\\.1\\): joint '${past.joint}' at`));
        }
      }

      // move_group took joint_limits.yaml's min_position / max_position: a collision-free joint goal past a
      // planning range, within the URDF's limits, is beyond the joint's bounds to MoveIt, which clamps it to the
      // bound (and there the robot collides: the goal fails at once). With planning_ranges:=false (a launch of
      // its own, below) the same kind of goal is within bounds: no such warning.
      expect(refused.beyond_range!.map((b) => b.joint)).toEqual(narrowed);
      for (const b of refused.beyond_range!) {
        const value = b.goal?.[b.joint];
        expect(b.valid, `a collision-free state with ${b.joint} beyond its planning range`).toBe(true);
        expect(b.error_code, `${b.joint} at ${value}`).not.toBe(SUCCESS);
        expect(b.points).toBe(0);
        expect(boundWarning(launch.output(), b.joint), `move_group on ${b.joint} at ${value}`).toBe(value! > limits.get(b.joint)!.upper ? 'above' : 'below');
      }
      if (narrowed.length > 0) {
        const wide = procs.start('bash', sourced(setup, `ros2 launch body_bridge moveit.launch.py body_file:=${file} planning_ranges:=false`), { ...process.env, TMPDIR: launchTmp });
        await waitFor('move_group ready (planning_ranges:=false)', 300_000, () => wide.output().includes(READY) || wide.child.exitCode !== null, wide.output);
        expect(wide.output(), wide.output().slice(-4000)).toContain(READY);
        const modelLimits = await probe({ ...request, planning_time: 3.0, limits: Object.fromEntries([...urdf.moving].map((j) => [j, [urdf.joints.get(j)!.lower, urdf.joints.get(j)!.upper]])), checks: ['beyond_range'] }, wide.output);
        const wideLog = wide.output();
        await procs.stopAll();
        record.beyondRangeWithoutRanges = modelLimits.beyond_range;
        writeFileSync(join(results, `${robot.name}.json`), `${JSON.stringify(record, null, 2)}\n`);
        for (const b of modelLimits.beyond_range!) {
          expect(b.valid).toBe(true);
          expect(boundWarning(wideLog, b.joint), `${b.joint} at ${b.goal?.[b.joint]} with the model's limits`).toBeUndefined();
        }
      }
    }, 1_200_000);
  }
});

/**
 * Which bound of a joint move_group found a joint goal beyond, from the warning MoveIt 2 (2.5 and 2.12 alike)
 * logs as it clamps the goal to the joint's bounds: "above" the maximum, "below" the minimum, or undefined.
 */
function boundWarning(log: string, joint: string): 'above' | 'below' | undefined {
  const m = new RegExp(`Joint ${joint} is constrained to be (above the maximum|below the minimum) bounds\\. Assuming`).exec(log);
  return m ? (m[1]!.startsWith('above') ? 'above' : 'below') : undefined;
}

// Runs everywhere: the checks the live suite relies on must be able to fail.
describe('the live suite\'s trajectory and log checks', () => {
  it('the trajectory check finds what it is for (a trajectory doubled in speed, one pushed past a limit)', () => {
    const urdf = readUrdf('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" velocity="2" effort="1"/></joint></robot>');
    const limits = readJointLimits('joint_limits:\n  j: {has_velocity_limits: true, max_velocity: 2.0, has_acceleration_limits: true, max_acceleration: 4.0}\n');
    const plan: ProbePlan = {
      group: 'g', kind: 'joint', error_code: 1, planning_time: 0, joint_names: ['j'],
      points: [{ t: 0, p: [0], v: [0], a: [4] }, { t: 0.5, p: [0.5], v: [2], a: [0] }, { t: 1, p: [1], v: [0], a: [-4] }],
    };
    expect(trajectoryViolations(plan, urdf, limits)).toEqual([]);
    expect(peakRatios(plan, limits)).toEqual({ velocity: 1, acceleration: 1 });
    const fast = { ...plan, points: plan.points.map((p) => ({ ...p, v: p.v.map((v) => v * 2), a: p.a.map((a) => a * 4) })) };
    expect(trajectoryViolations(fast, urdf, limits)).toHaveLength(3);
    // Acceleration: TOTG's small overshoot passes (0.5 %), 2 % over does not; velocity keeps its 0.1 %.
    const overshoot = (f: number, g: number) => ({ ...plan, points: plan.points.map((p) => ({ ...p, v: p.v.map((v) => v * g), a: p.a.map((a) => a * f) })) });
    expect(trajectoryViolations(overshoot(1.005, 1), urdf, limits)).toEqual([]);
    expect(trajectoryViolations(overshoot(1.02, 1), urdf, limits)).toEqual(['point 0: j acceleration 4.08 beyond 4', 'point 2: j acceleration -4.08 beyond 4']);
    expect(trajectoryViolations(overshoot(1, 1.005), urdf, limits)).toEqual(['point 1: j velocity 2.01 beyond 2']);
    const out = { ...plan, points: [...plan.points, { t: 1.1, p: [1.01], v: [0], a: [0] }] };
    expect(trajectoryViolations(out, urdf, limits)).toEqual(['point 3: j at 1.01 outside [-1, 1]']);
    expect(trajectoryViolations({ ...plan, points: [...plan.points].reverse() }, urdf, limits)[0]).toMatch(/^point 1: time/);
    // A planning range in joint_limits.yaml narrower than the URDF's limits is the one that holds.
    const narrowed = readJointLimits('joint_limits:\n  j: {has_velocity_limits: true, max_velocity: 2.0, has_acceleration_limits: true, max_acceleration: 4.0, has_position_limits: true, min_position: -0.5, max_position: 0.9}\n');
    expect(trajectoryViolations(plan, urdf, narrowed)).toEqual(['point 2: j at 1 outside [-0.5, 0.9]']);
  });

  it('move_group\'s warning on a joint goal beyond the bounds is read as MoveIt 2 prints it', () => {
    const log = '[move_group-2] [WARN] [1795717045.474093445] [moveit_kinematic_constraints.kinematic_constraints]: Joint FOREARM is constrained to be above the maximum bounds. Assuming maximum bounds instead.\n';
    expect(boundWarning(log, 'FOREARM')).toBe('above');
    expect(boundWarning(log.replace('above the maximum', 'below the minimum'), 'FOREARM')).toBe('below');
    expect(boundWarning(log, 'WRIST1')).toBeUndefined();
  });

  it('the log check lets through only body_bridge\'s warnings about the model', () => {
    const log = [
      '[body_bridge-1] [WARN] [1.0] [body_bridge]: /m/GR001.body:11:34: warning: "0.t" is read as 0: the characters after the number are ignored (at links[0])',
      '[body_bridge-1] [WARN] [1.0] [body_bridge]: WAIST_RateGyroSensor: no input topic (nameless device or body); set inputTopics to relay its data',
      '[body_bridge-1] [WARN] [1.0] [body_bridge]: joint_states stamped 9.0 s ahead of the node clock: dropped',
      '[body_bridge-1] [ERROR] [1.0] [body_bridge]: /m/GR001.body:11:34: warning: as an error',
      '[move_group-2] [WARN] [1.0] [moveit.ros.occupancy_map_monitor.middleware_handle]: /m/x.yaml:1:1: warning: not the node',
      '[move_group-2] [INFO] [1.0] [moveit]: You can start planning now!',
    ].join('\n');
    expect(modelWarnings(log)).toHaveLength(2);
    expect(complaints(log).map((l) => l.slice(0, 30))).toEqual(['[body_bridge-1] [WARN] [1.0] [', '[body_bridge-1] [ERROR] [1.0] ', '[move_group-2] [WARN] [1.0] [m']);
  });
});
