// A mobile manipulator in its world (issue 38), live: `ros2 launch body_bridge simulation.launch.py` with body_bridge's
// test robot test/models/roles/mobile-manipulator.body (a two-wheeled base carrying a 6-joint arm), from the model
// alone and in a user's project with a table (test/live/mobile/Workshop.cnoid), and the corpus' OpenHRP RH2 with its
// arm (two drive wheels, two casters, a 7-joint arm) from the model alone, Choreonoid's probe
// (test/live/choreonoid/probe.py) as the ground truth. Nothing is written by hand for the robot: the launch makes
// the gains, the controllers (diff_drive_controller, the arm's joint_trajectory_controller), the SRDF and the
// planning scene. Each run:
// - REP-105: world → odom on /tf_static where the project starts the base, odom → base from the drive; before it
//   moves, body_bridge's world → base equals Choreonoid's root pose;
// - the base is driven 1 m (0.25 m/s on diff_drive_controller's cmd_vel until its odometry counts 1 m); Choreonoid
//   moves the root 1 m ± 5 %, and the odometry's base (world → odom → base) stays within ODOMETRY_TOLERANCE of
//   Choreonoid's root;
// - MoveIt's virtual joint (world → base, read from /tf) is where the odometry puts the base, and its planning
//   scene holds the project's static bodies in world, the floor allowed against the wheels and casters only;
// - model alone: a pose goal for the arm's tip given in world (the tip's pose at a chosen arm state, by move_group's
//   /compute_fk with the base where it now stands) is planned and executed; the tip by body_bridge's /tf ends within
//   TIP_TOLERANCE of the goal as the base's creep meanwhile carried it (/tf's base at the end against the one MoveIt
//   planned from, its virtual joint just before the plan; the creep itself within BASE_CREEP_TOLERANCE), within
//   TIP_TOLERANCE plus the creep of the goal in world, and by Choreonoid's link poses within that plus what the
//   odometry's error moves the tip (the base's odometry pose against Choreonoid's, carried to the tip);
// - in the project: the arm goes to START (stretched out low to the left), then a goal (the same to the right) whose
//   straight joint-space path runs through the table is planned around it and executed: FCL
//   (test/peers/fcl_collide.cpp) finds no contact with the table's own box at any state Choreonoid's joints passed
//   through (the probe's samples, in the base frame where Choreonoid has the base), and MoveIt finds the straight
//   line blocked by the table; rviz2 (rviz:=true, on Xvfb, where rviz2 is installed) draws MoveIt's obstacles from
//   the node's planning_scene_markers in world, with no warning all along.
// Figures: build/live-mobile/report.json and the console. Skipped, with the reason, where ROS 2, rclnodejs,
// Choreonoid with ROS2ControlItem, move_group, FCL or a C++ compiler are absent.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { composePose, mulVec, quaternionFromMatrix, rpyFromMatrix, transpose } from '../src/model/math.js';
import type { Mat3, Pose, Vec3 } from '../src/model/types.js';
import { installedChoreonoid } from '../src/project/path-variables.js';
import { afterHumbleLines, logComplaints, planarDisplacement, type ProbeSample, sampleAt } from './support/control-live.js';
import { type Any, closeObserver, guiEnv, installedPackage, liveRos, observerNode, ownRosDomain, processGroup, sleep, startXvfb, waitFor } from './support/live-rig.js';
import { fclCollisions, fclPeers, type ObstacleBox } from './support/moveit-peers.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { partWith, skipWithout } from './support/peer-skip.js';
import { findChoreonoidRos, findChoreonoidRos2Control, findImageMagick, findMoveGroup, findRviz2, findXvfb } from './support/peers.js';
import { askMoveGroup, MOVEIT_SUCCESS, type PlanAnswer, type SceneAnswer } from './support/move-group-probe.js';
import { driveCommand, holdSpeed, largestGap, simulationClock, type SimulationRun, startSimulation, waitForControllers } from './support/simulation-live.js';
import { matrixFromQuaternion, poseFromMatrix16, rotationAngle, TfBuffer } from './live/choreonoid/geometry.js';

ownRosDomain('ros-live-mobile');

const ros = await liveRos();
const skipAll = skipWithout(ros) || skipWithout(findChoreonoidRos(), findChoreonoidRos2Control(), findMoveGroup(), ...fclPeers());

/** A mobile manipulator the test drives and moves: its file, its root and tip (as the URDF and as Choreonoid name them). */
interface MobileRobot {
  name: string;
  file: string;
  root: string;
  tip: string;
  tipChoreonoid: string;
  /** The arm state whose tip pose is the pose goal (model alone). */
  reach: Record<string, number>;
  /** The links that rest on the floor, by construction: the contacts MoveIt is to allow, and no other. */
  resting: string[];
}
/** Ours (by construction, its header), and the corpus' OpenHRP RH2 with its arm (two drive wheels, two casters, a 7-joint arm). */
const OURS: MobileRobot = {
  name: 'MobileManipulator',
  file: join(projectRoot, 'test/models/roles/mobile-manipulator.body'),
  root: 'Chassis',
  tip: 'TOOL_link',
  tipChoreonoid: 'TOOL',
  // Reaching forward and down, wrist turned.
  reach: { ARM_J1: 0.4, ARM_J2: 0.7, ARM_J3: 1.3, ARM_J4: 0.3, ARM_J5: 0.8, ARM_J6: -0.5 },
  // The tyres and the ball under the chassis.
  resting: ['Chassis', 'LeftWheel_link', 'RightWheel_link'],
};
const RH2: MobileRobot = {
  name: 'RH2_WithArm',
  file: join(corpusDir, 'openhrp3/sample/model/RH2/RH2_WithArm_withoutSensor.wrl'),
  root: 'BODY',
  tip: 'J7_link',
  tipChoreonoid: 'J7',
  reach: { J1: 0.3, J2: 0.6, J3: 1.0, J4: 0.2, J5: 0.8, J6: 0.3, J7: 0.04 },
  // The two drive wheels and the two casters' wheels.
  resting: ['CASTER_WHEEL1_link', 'CASTER_WHEEL2_link', 'MAIN_WHEEL1_link', 'MAIN_WHEEL2_link'],
};
const WORKSHOP = join(projectRoot, 'test/live/mobile/Workshop.cnoid');
const ROOT = OURS.root;
const TIP = OURS.tip;
const GROUP = 'arm';
/**
 * 1 m at 0.25 m/s, until the odometry has counted it less the braking distance at the drive's acceleration limit
 * (at most 8 s of simulation time). Open-loop, 4 s at 0.25 m/s
 * moved this 16.6 kg base 0.92–0.94 m (28 Nov 2026, the odometry within 1 cm of Choreonoid): the wheels' velocity
 * loop (velocity_pd, P only, lowered for stability at the 1 ms step) holds its speed 6–8 % low against the tyres'
 * rolling resistance. A user drives to a distance, as here. The stop comes when the test hears the odometry's metre:
 * at a load of 13 on 2 cores its messages and the test's zero command lag, and the base rolled on to 1.058 m (the
 * odometry then within 1 cm of it): `tolerance` allows 10 %; the odometry against Choreonoid is the tight check.
 */
const DRIVE = { speed: 0.25, distance: 1.0, seconds: 8, tolerance: 0.1 };
/** m: the odometry's base against Choreonoid's root after the drive (wheel slip on 1 m; measured 2026-11-28: see the report). */
const ODOMETRY_TOLERANCE = 0.03;
/** m, rad: the tip against a pose goal (MoveIt's tolerances 1 mm and 0.01 rad, the PD gains' sag, tracking). */
const TIP_TOLERANCE = { position: 0.005, angle: 0.02 };
/**
 * m: how far the base, standing on velocity-held wheels, may carry the tip while the arm moves. RH2 with its arm:
 * 4.3 and 5.4 mm (28 Nov 2026). Ours: 0.05–0.3 mm in most runs, but 13–15 mm in 3 of 17 here and once on CI (29 Nov
 * 2026): the base had come to rest from the drive with its yaw 0.02 rad short of where other runs' braking left it,
 * and the arm's motion let it turn the rest, pivoting on one wheel, to the same wheel angles (within 5 mrad) as
 * those runs (docs/control.md: braking seems to leave the chassis rolled onto a tyre's edge). In one more run /tf's
 * base moved 7 mm (carried to the tip) between the drive's end and the plan (`settledBeforePlan`).
 */
const BASE_CREEP_TOLERANCE = 0.025;
/**
 * MoveIt's velocity and acceleration scaling for the arm's motions: slow, as near a table. With an earlier form of
 * the model (a fourth ball under the base) the turret (ARM_J1) swinging the stretched-out arm lagged 5.4–5.6 mrad
 * behind its path, then 3 × its predicted error (5.31 mrad) alone, at 0.5, 0.25 and 0.1 alike, and its controller
 * aborted (28 Nov 2026; the model's header); so again with this model under CI's load (5.67 mrad). The path tolerance
 * now adds MoveIt's start tolerance, 0.01 (docs/control.md).
 */
const SCALING = 0.1;
const START_TIMEOUT = 900_000;
/**
 * The table case: the arm stretched out low (its tip 0.18 m above the floor, 0.53 m from the turret's axis) to the
 * left, then the same to the right. Straight ahead of the base, where the line from one to the other passes, stands
 * the table (top 0.3 m).
 */
const START: Record<string, number> = { ARM_J1: 1.4, ARM_J2: 1.2, ARM_J3: 1.2, ARM_J4: 0, ARM_J5: 0, ARM_J6: 0 };
const GOAL: Record<string, number> = { ...START, ARM_J1: -1.4 };
/** The table in the project (Workshop.cnoid, Table.body): its box in world. */
const TABLE_YAW = Math.PI / 6;
const TABLE: ObstacleBox = { name: 'Table', centre: [1.84234, 0.475, 0.15], quaternion: [0, 0, Math.sin(TABLE_YAW / 2), Math.cos(TABLE_YAW / 2)], size: [0.4, 1.0, 0.3] };
/** States FCL checks between two of Choreonoid's samples (50 ms apart). */
const SUBSTEPS = 5;
/**
 * Planning attempts for the way around the table, as a user asks with rviz's "Replanning" (MoveGroupInterface's
 * allowReplanning). OMPL checks its path at states 2 cm of the arm's motion apart (motion-check.ts); move_group then
 * checks the timed path at the states the time parameterisation resampled, between those, and refuses a path that
 * passes that close to the padded table (INVALID_MOTION_PLAN, which move_group itself treats as a reason to plan
 * again). In one of the 36 runs since the padding became 5 cm (9 on Humble, 27 on Jazzy, to 1 Dec 2026; that one
 * on CI, Jazzy) the first plan was refused so: one state of 207, the tool against the table.
 */
const REPLANS = 3;
/** What move_group logs when it refuses a plan for a state of its timed path, as one attempt of REPLANS may be. */
const REFUSED_PLAN = [
  {
    pattern: /^\[move_group-\d+\] \[ERROR\] \[[\d.]+\] \[(?:move_group\.moveit\.moveit\.ros\.validate_solution|(?:move_group\.)?moveit\.ros_planning\.planning_pipeline)\]: (?:Computed path is not valid\. Invalid states at index locations: \[ [\d ]+\] out of \d+\. Explanations follow in command line\. Contacts are published on \/display_contacts|Completed listing of explanations for invalid states\.)$/,
    why: "move_group's check of the timed path refusing a plan that passes a state too close to the table (REPLANS); the test holds that every refused state touched the table, and that a later attempt went around it",
  },
  {
    pattern: /^\[move_group-\d+\] \[ERROR\] \[[\d.]+\] \[move_group\]: PlanningResponseAdapter 'ValidateSolution' failed with error code INVALID_MOTION_PLAN$/,
    why: "Jazzy's planning pipeline saying which adapter refused it (the same refusal)",
  },
];
/** MoveIt's MotionPlanning display in rviz2 (rviz:=true), where moveit_ros_visualization is installed (here: Jazzy). */
const RECOGNIZE_OBJECTS = {
  pattern: /^\[rviz2-\d+\] \[ERROR\] \[[\d.]+\] \[[\w.]*motion_planning_frame\]: Action server: \/recognize_objects not available$/,
  why:
    'the display waits 3 s for an object-recognition action server, which only a perception pipeline provides, whatever the model, ' +
    'and says so as an error (moveit/moveit2#2815; docs/moveit.md)',
};

/** Log lines that are no fault of ours, each with its reason (logComplaints lists every other complaint). */
const ALLOWED = [
  ...afterHumbleLines(),
  RECOGNIZE_OBJECTS,
  {
    // The state monitor's logger: Humble's moveit_ros.current_state_monitor, Jazzy's move_group.moveit.moveit.ros.current_state_monitor.
    pattern: /^\[move_group-\d+\] \[WARN\] \[[\d.]+\] \[(?:move_group\.moveit\.)?moveit(?:_ros|\.ros)\.current_state_monitor\]: Unable to update multi-DOF joint 'virtual_joint':Failure to lookup transform between 'world'and '(\w+)' with TF exception: Could not find a connection between 'world' and '\1' because they are not part of the same tree\./,
    why: "move_group starts beside Choreonoid; odom → base comes from diff_drive_controller, which runs only once Choreonoid has loaded and the spawners have activated it: until then world → odom (body_bridge, at once) and base → … (body_bridge) are two trees, and MoveIt's state monitor says so, once",
  },
];


const translationError = (a: Pose, b: Pose): number => Math.hypot(...a.translation.map((v, i) => v - b.translation[i]!));
const rotationOf = (q: readonly number[]): Mat3 => matrixFromQuaternion({ x: q[0]!, y: q[1]!, z: q[2]!, w: q[3]! });
const poseOfList = (p: readonly number[]): Pose => ({ translation: [p[0]!, p[1]!, p[2]!], rotation: rotationOf(p.slice(3)) });
function invertPose(p: Pose): Pose {
  const r = transpose(p.rotation);
  const t = mulVec(r, p.translation);
  return { translation: [-t[0], -t[1], -t[2]], rotation: r };
}
const yawOf = (r: Mat3): number => Math.atan2(r[1][0], r[0][0]);

describe.skipIf(skipAll)('simulation.launch.py: a mobile manipulator drives in its world, and MoveIt moves its arm there', () => {
  let rcl: Any;
  let node: Any;
  let setup = '';
  let scratch = '';
  const procs = processGroup();
  const report: Record<string, unknown> = {};
  const reportDir = join(projectRoot, 'build', 'live-mobile');
  /** The launch's log and Choreonoid's probe, kept for a look after the run. */
  const keep = (name: string, run: SimulationRun): void => {
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(join(reportDir, `${name}.log`), run.launch.output());
    writeFileSync(join(reportDir, `${name}.probe.json`), JSON.stringify(run.probe().samples));
  };

  beforeAll(async () => {
    requireShared();
    rcl = ros.rcl;
    scratch = mkdtempSync(join(tmpdir(), 'bb-live-mobile-'));
    setup = await installedPackage();
    node = await observerNode(rcl, 'mobile-test');
    node.spin();
  }, 1_500_000);

  afterEach(async () => {
    await procs.stopAll();
  }, 60_000);

  afterAll(async () => {
    await procs.stopAll();
    closeObserver(rcl, node);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (Object.keys(report).length > 0) {
      mkdirSync(reportDir, { recursive: true });
      writeFileSync(join(reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
      console.log(`mobile manipulator live figures (build/live-mobile/report.json):\n${JSON.stringify(report, null, 1)}`);
    }
  });

  const probeMoveIt = (request: unknown, log: () => string): Promise<{ steps: Any[] }> => askMoveGroup(setup, request, log);

  const tfListener = (): { tf: TfBuffer; stop: () => void } => {
    const tf = new TfBuffer();
    const subs = [
      node.createSubscription('tf2_msgs/msg/TFMessage', '/tf', { qos: new rcl.QoS(1, 1000, 1, 2) }, (m: Any) => tf.add(m, false)),
      node.createSubscription('tf2_msgs/msg/TFMessage', '/tf_static', { qos: new rcl.QoS(1, 100, 1, 1) }, (m: Any) => tf.add(m, true)),
    ];
    return { tf, stop: () => subs.forEach((s) => node.destroySubscription(s)) };
  };

  /** Choreonoid's pose of a link at a sample. */
  const linkPose = (s: ProbeSample, link: string): Pose => poseFromMatrix16(s.links[link]!);

  /**
   * The launch up to the drive: controllers active, move_group ready; REP-105's frames checked before the base
   * moves; then 1 m driven, and the figures of the base after it. Returns the run, the TF listener and the base's
   * poses after the drive (Choreonoid's and the odometry's, through world → odom → base).
   */
  async function driveOneMetre(robot: MobileRobot, name: string, extra: string[], item?: string, env?: NodeJS.ProcessEnv) {
    const ROOT = robot.root;
    const run: SimulationRun = startSimulation(procs, setup, scratch, { name, file: robot.file }, extra, item, env);
    const log = run.launch.output;
    await waitForControllers(run, START_TIMEOUT);
    await waitFor('move_group ready', START_TIMEOUT, () => log().includes('You can start planning now!') || undefined, log);
    const listener = tfListener();
    const clock = simulationClock(node);
    await waitFor('/clock and /tf world → odom → base', 120_000, () => clock.now() > 1 && listener.tf.poseIn('world', ROOT, clock.now() - 0.1, undefined, 0.5) !== null, log);
    // At rest before the drive: body_bridge's world → base is Choreonoid's root.
    await sleep(1000);
    const restWall = Date.now() / 1000;
    const rest = sampleAt(run.probe().samples, restWall)!;
    const restTf = listener.tf.poseIn('world', ROOT, rest.sim, undefined, 0.5);
    expect(restTf, 'world → Chassis on /tf at rest').not.toBeNull();
    const restError = { position: translationError(restTf!, linkPose(rest, ROOT)), angle: rotationAngle(restTf!.rotation, linkPose(rest, ROOT).rotation) };
    expect(restError.position, 'world → base at rest against Choreonoid (m)').toBeLessThan(0.005);
    expect(restError.angle).toBeLessThan(0.01);
    const odomStatic = listener.tf.poseIn('world', 'odom', rest.sim, undefined, Infinity);

    // Driven as a user drives 1 m: DRIVE.speed on cmd_vel until the odometry has counted the distance (at most
    // DRIVE.seconds of simulation time), then zero.
    const odom: { x: number; y: number }[] = [];
    const odomSub = node.createSubscription('nav_msgs/msg/Odometry', '/diff_drive_controller/odom', {}, (m: Any) => odom.push({ x: m.pose.pose.position.x, y: m.pose.pose.position.y }));
    await waitFor('odometry', 60_000, () => odom.length > 0 || undefined, log);
    const from = odom[odom.length - 1]!;
    const counted = (): number => Math.hypot(odom[odom.length - 1]!.x - from.x, odom[odom.length - 1]!.y - from.y);
    // Braking as a user does: its deceleration is the generated diff_drive_controller's linear.x limit, so the
    // command stops that far before the metre.
    const config = parseYaml(readFileSync(join(run.controlDir(), 'ros2_controllers.yaml'), 'utf8')) as Record<string, Any>;
    const limit: number = config['/diff_drive_controller'].ros__parameters.linear.x.max_acceleration ?? Infinity;
    const braking = (DRIVE.speed * DRIVE.speed) / (2 * limit);
    const reached = new AbortController();
    const watch = setInterval(() => counted() >= DRIVE.distance - braking && reached.abort(), 5);
    const cmd = driveCommand(node, clock.now);
    const startWall = Date.now() / 1000;
    const startSim = clock.now();
    const sentAt = await holdSpeed(cmd.send, clock.now, DRIVE.speed, DRIVE.seconds, reached.signal);
    const drivenSeconds = clock.now() - startSim;
    clearInterval(watch);
    await holdSpeed(cmd.send, clock.now, 0, 2.0 + DRIVE.speed / limit);
    cmd.stop();
    node.destroySubscription(odomSub);
    const afterWall = Date.now() / 1000;
    const before = sampleAt(run.probe().samples, startWall)!;
    const after = sampleAt(run.probe().samples, afterWall)!;
    const moved = planarDisplacement(before, after, ROOT);
    const truth = linkPose(after, ROOT);
    const odometry = listener.tf.poseIn('world', ROOT, after.sim, undefined, 0.5);
    expect(odometry, 'world → odom → Chassis after the drive').not.toBeNull();
    const figures = {
      restError,
      worldToOdom: odomStatic ? { translation: odomStatic.translation, yaw: yawOf(odomStatic.rotation) } : null,
      commanded: { speed: DRIVE.speed, distance: DRIVE.distance, acceleration: limit, brakingFrom: DRIVE.distance - braking, seconds: drivenSeconds, largestGap: largestGap(sentAt) },
      choreonoidMoved: moved,
      odometryError: { position: translationError(odometry!, truth), yaw: yawOf(odometry!.rotation) - yawOf(truth.rotation) },
    };
    report[name] = figures;
    const lapsed = figures.commanded.largestGap > 0.5 ? ` (this test's commands lapsed for ${figures.commanded.largestGap.toFixed(2)} s of simulation time, past cmd_vel_timeout 0.5 s: the machine starved the test)` : '';
    expect(Math.abs(moved - DRIVE.distance), `Choreonoid moved the root ${moved} m${lapsed}`).toBeLessThanOrEqual(DRIVE.tolerance * DRIVE.distance);
    expect(figures.odometryError.position, 'the odometry base against Choreonoid (m)').toBeLessThanOrEqual(ODOMETRY_TOLERANCE);
    clock.stop();
    return { run, listener, truth, odometry: odometry!, figures };
  }

  /** MoveIt's scene: its virtual joint where /tf has the base, the floor allowed against the base only, `present` in world. */
  function checkScene(scene: SceneAnswer, odometry: Pose, present: string[], resting: string[]): void {
    expect(scene.virtual, "MoveIt's virtual joint state").not.toBeNull();
    const v = scene.virtual!;
    const moveitBase: Pose = { translation: v.translation, rotation: rotationOf(v.rotation) };
    expect(v.parent).toBe('world');
    expect(translationError(moveitBase, odometry), "MoveIt's base against /tf's (m)").toBeLessThan(0.01);
    expect(scene.objects.map((o) => o.id).sort()).toEqual([...present].sort());
    for (const o of scene.objects) expect(o.frame, o.id).toBe('world');
    // Only the floor is allowed, and only against what the base stands on.
    expect(scene.allowed.filter((p) => p.includes('Floor')).map((p) => p.find((n) => n !== 'Floor')).sort()).toEqual([...resting].sort());
    expect(scene.allowed.filter((p) => !p.includes('Floor'))).toEqual([]);
  }

  it.each([OURS, RH2])('$name from the model alone: REP-105 frames, 1 m driven, a pose goal in world reached in world', async (robot) => {
    const { ROOT, tip: TIP, tipChoreonoid: TIP_CHOREONOID, reach: REACH } = { ROOT: robot.root, ...robot };
    const key = `${robot.name} alone`;
    const { run, listener, truth, odometry } = await driveOneMetre(robot, key, []);
    const log = run.launch.output;
    try {
      const answer = await probeMoveIt({ timeout: 300, group: GROUP, tip: TIP, scaling: SCALING, planning_time: 10, steps: [{ kind: 'scene' }, { kind: 'fk', joints: REACH }] }, log);
      const scene = answer.steps[0] as SceneAnswer;
      checkScene(scene, odometry, ['Floor'], robot.resting);
      const fk = answer.steps[1] as { frame: string; pose: number[] };
      expect(fk.frame).toBe('world');
      const goal = poseOfList(fk.pose);
      // The scene just before the plan: the base MoveIt plans from (its virtual joint, from /tf), which is where
      // the base's creep while the arm moves is measured from.
      const moved = await probeMoveIt({ timeout: 300, group: GROUP, tip: TIP, scaling: SCALING, planning_time: 10, steps: [{ kind: 'scene' }, { kind: 'pose', execute: true, goal: { frame: 'world', position: fk.pose.slice(0, 3), orientation: fk.pose.slice(3) } }] }, log);
      const planned = (moved.steps[0] as SceneAnswer).virtual;
      expect(planned, "MoveIt's virtual joint before the plan").not.toBeNull();
      const plannedFrom: Pose = { translation: planned!.translation, rotation: rotationOf(planned!.rotation) };
      const plan = moved.steps[1] as PlanAnswer;
      expect(plan.error_code, log().slice(-4000)).toBe(MOVEIT_SUCCESS);
      await sleep(2000);
      const end = sampleAt(run.probe().samples, Date.now() / 1000)!;
      const tipTf = listener.tf.poseIn('world', TIP, end.sim, undefined, 0.5);
      expect(tipTf, 'world → TOOL_link on /tf').not.toBeNull();
      const tipChoreonoid = linkPose(end, TIP_CHOREONOID);
      const baseEnd = linkPose(end, ROOT);
      // How far the tip moves between two poses of the base: the tip in the base frame (Choreonoid's), carried by each.
      const tipInBase = composePose(invertPose(baseEnd), tipChoreonoid);
      const tipMoved = (a: Pose, b: Pose): number => translationError(composePose(a, tipInBase), composePose(b, tipInBase));
      // What the odometry's error moves the tip by.
      const carried = tipMoved(odometry, truth);
      // A base that creeps while the arm swings (velocity-held wheels hold no position: docs/control.md) carries the
      // tip along, in /tf too: /tf's base at the end against the one MoveIt planned from. Where the base stood
      // between the drive's end and the plan is not creep: MoveIt plans from wherever /tf has it then.
      const baseTf = listener.tf.poseIn('world', ROOT, end.sim, undefined, 0.5);
      expect(baseTf, 'world → base on /tf').not.toBeNull();
      const crept = tipMoved(baseTf!, plannedFrom);
      const creptAngle = rotationAngle(baseTf!.rotation, plannedFrom.rotation);
      // The goal where the creep carried it: what the arm, its controller and /tf answer for, whatever the base did.
      const goalOnBase = composePose(baseTf!, composePose(invertPose(plannedFrom), goal));
      // The same in Choreonoid: its root from the plan's dispatch to the end, carrying the tip.
      const dispatched = sampleAt(run.probe().samples, plan.sent);
      const baseDispatched = dispatched ? linkPose(dispatched, ROOT) : null;
      const creptChoreonoid = baseDispatched ? tipMoved(baseDispatched, baseEnd) : null;
      // How far the arm swung (rad, its largest joint travel).
      const swing = dispatched ? Math.max(...Object.keys(robot.reach).map((j) => Math.abs(end.q[j]! - dispatched.q[j]!))) : null;
      const figures = {
        goal: fk.pose,
        planningTime: plan.planning_time,
        // The base before the plan against the odometry's after the drive, carried to the tip (m).
        settledBeforePlan: tipMoved(plannedFrom, odometry),
        baseCreepChoreonoid: creptChoreonoid,
        swing,
        // Choreonoid's root attitude (roll, pitch, yaw; rad) after the drive, at the plan's dispatch and at the end:
        // where the base settles from its braking (docs/control.md).
        baseAttitude: { afterDrive: rpyFromMatrix(truth.rotation), dispatched: baseDispatched ? rpyFromMatrix(baseDispatched.rotation) : null, end: rpyFromMatrix(baseEnd.rotation) },
        tipTf: { position: translationError(tipTf!, goal), angle: rotationAngle(tipTf!.rotation, goal.rotation), baseCreepCarried: crept, baseCreepAngle: creptAngle },
        tipTfOnBase: { position: translationError(tipTf!, goalOnBase), angle: rotationAngle(tipTf!.rotation, goalOnBase.rotation) },
        tipChoreonoid: { position: translationError(tipChoreonoid, goal), angle: rotationAngle(tipChoreonoid.rotation, goal.rotation), odometryCarried: carried },
        tipInBase: { position: translationError(composePose(invertPose(odometry), goal), tipInBase) },
      };
      report[key] = { ...(report[key] as object), pose: figures, scene: { objects: scene.objects.map((o) => o.id), allowed: scene.allowed, virtual: scene.virtual } };
      expect(figures.settledBeforePlan, 'the tip carried by where the base went between the drive and the plan, nothing commanding it (m)').toBeLessThanOrEqual(BASE_CREEP_TOLERANCE);
      expect(crept, "the tip carried by the base's creep while the arm moved, by /tf (m)").toBeLessThanOrEqual(BASE_CREEP_TOLERANCE);
      expect(figures.tipTfOnBase.position, 'tip by /tf against the goal carried by the creep (m)').toBeLessThanOrEqual(TIP_TOLERANCE.position);
      expect(figures.tipTfOnBase.angle, 'tip by /tf against the goal carried by the creep (rad)').toBeLessThanOrEqual(TIP_TOLERANCE.angle);
      expect(figures.tipTf.position, 'tip by /tf against the goal in world (m)').toBeLessThanOrEqual(TIP_TOLERANCE.position + crept);
      expect(figures.tipTf.angle, 'tip by /tf against the goal in world (rad)').toBeLessThanOrEqual(TIP_TOLERANCE.angle + creptAngle);
      expect(figures.tipChoreonoid.position, 'tip in Choreonoid against the goal in world (m)').toBeLessThanOrEqual(TIP_TOLERANCE.position + crept + carried);
      expect(logComplaints(log(), ALLOWED), log().slice(-6000)).toEqual([]);
    } finally {
      listener.stop();
      keep(key.replace(' ', '-'), run);
    }
  }, 3_600_000);

  it(`in a user's project (${WORKSHOP.slice(projectRoot.length + 1)}): 1 m driven towards the table, then a goal straight through it is planned around it`, async () => {
    const share = installedChoreonoid(process.env)?.share;
    if (!share) throw new Error(`no choreonoid on PATH: \${SHARE} in ${WORKSHOP} names nothing`);
    // rviz2 beside it, as a user runs it (rviz:=true), on a virtual display, where rviz2 is installed.
    const x = partWith('rviz2 drawing the workshop', findRviz2(), findXvfb(), findImageMagick()) ? await startXvfb(1400, 1000) : null;
    const env = x ? guiEnv(x.display, { XDG_RUNTIME_DIR: mkdtempSync(join(scratch, 'runtime-')) }) : undefined;
    const { run, listener, odometry } = await driveOneMetre(OURS, 'workshop', [`project:=${WORKSHOP}`, ...(x ? ['rviz:=true'] : [])], 'Rover', env);
    const log = run.launch.output;
    try {
      const steps = [{ kind: 'scene' }, { kind: 'joint', goal: START, execute: true }, { kind: 'valid', joints: GOAL }];
      const n = 20;
      for (let i = 1; i < n; i++) steps.push({ kind: 'valid', joints: Object.fromEntries(Object.keys(START).map((j) => [j, START[j]! + ((GOAL[j]! - START[j]!) * i) / n])) });
      const answer = await probeMoveIt({ timeout: 300, group: GROUP, tip: TIP, scaling: SCALING, planning_time: 20, steps }, log);
      const scene = answer.steps[0] as SceneAnswer;
      checkScene(scene, odometry, ['Floor', 'Table'], OURS.resting);
      const table = scene.objects.find((o) => o.id === 'Table')!;
      expect(translationError(poseOfList(table.pose), { translation: TABLE.centre as Vec3, rotation: rotationOf(TABLE.quaternion!) }), 'the table in MoveIt against the project (m)').toBeLessThan(1e-6);
      const toStart = answer.steps[1] as PlanAnswer;
      expect(toStart.error_code, log().slice(-4000)).toBe(MOVEIT_SUCCESS);
      const goalValid = answer.steps[2] as { valid: boolean; contacts: string[][] };
      expect(goalValid, 'the goal state').toEqual({ valid: true, contacts: [] });
      const straight = answer.steps.slice(3) as { valid: boolean; contacts: string[][] }[];
      const blocked = straight.filter((s) => !s.valid);
      expect(blocked.length, "states of the straight line MoveIt finds in collision").toBeGreaterThan(0);
      expect(blocked.every((s) => s.contacts.some((c) => c.includes('Table'))), JSON.stringify(blocked.slice(0, 2))).toBe(true);

      await sleep(1500);
      const fromWall = Date.now() / 1000;
      const logBefore = log().length;
      const around = (await probeMoveIt({ timeout: 300, group: GROUP, tip: TIP, scaling: SCALING, planning_time: 20, steps: [{ kind: 'joint', goal: GOAL, execute: true, replan: REPLANS }] }, log)).steps[0] as PlanAnswer;
      expect(around.error_code, log().slice(-4000)).toBe(MOVEIT_SUCCESS);
      // The attempts move_group took, and what it found at each state it refused: the table, nothing else.
      const aroundLog = log().slice(logBefore);
      const attempts = Math.max(0, ...[...aroundLog.matchAll(/Planning attempt (\d+) of at most (\d+)/g)].map((m) => Number(m[1])));
      const refused = [...aroundLog.matchAll(/Computed path is not valid\. Invalid states at index locations: \[ ([\d ]+)\] out of (\d+)/g)].map((m) => ({ states: m[1]!.trim().split(/\s+/).map(Number), of: Number(m[2]) }));
      const contacts = [...aroundLog.matchAll(/Found a contact between '([^']+)' \(type '[^']+'\) and '([^']+)'/g)].map((m) => [m[1]!, m[2]!]);
      await sleep(2000);
      const samples = run.probe().samples.filter((s) => s.wall >= fromWall && s.running);
      const end = samples[samples.length - 1]!;
      const goalError = Math.max(...Object.keys(GOAL).map((j) => Math.abs(end.q[j]! - GOAL[j]!)));
      // FCL over what Choreonoid's arm did: its joints at every sample and between, the table's box in the base frame
      // where Choreonoid has the base (it stands still while the arm moves).
      const base = linkPose(end, ROOT);
      const inBase = composePose(invertPose(base), { translation: TABLE.centre as Vec3, rotation: rotationOf(TABLE.quaternion!) });
      const q = (s: ProbeSample): number[] => Object.keys(GOAL).map((j) => s.q[j]!);
      const states: Map<string, number>[] = [];
      for (let k = 0; k + 1 < samples.length; k++) {
        for (let s = 0; s < SUBSTEPS; s++) states.push(new Map(Object.keys(GOAL).map((j, i) => [j, q(samples[k]!)[i]! + ((q(samples[k + 1]!)[i]! - q(samples[k]!)[i]!) * s) / SUBSTEPS])));
      }
      const urdfFile = join(scratch, 'mobile.urdf');
      let urdf: string | undefined;
      const sub = node.createSubscription('std_msgs/msg/String', '/robot_description', { qos: new rcl.QoS(1, 1, 1, 1) }, (m: Any) => (urdf = m.data));
      await waitFor('/robot_description', 60_000, () => urdf);
      node.destroySubscription(sub);
      writeFileSync(urdfFile, urdf!);
      const quaternion = quaternionOf(inBase.rotation);
      const fcl = fclCollisions(urdfFile, states, 1, [{ name: 'Table', centre: inBase.translation, quaternion, size: TABLE.size }]);
      const touching = fcl.hits.filter((h) => [...h].some((k) => k.includes('@Table'))).length;
      // The straight line, by the same check: it does run into the table's box.
      const line = Array.from({ length: 41 }, (_, i) => new Map(Object.keys(GOAL).map((j) => [j, START[j]! + ((GOAL[j]! - START[j]!) * i) / 40])));
      const lineFcl = fclCollisions(urdfFile, line, 1, [{ name: 'Table', centre: inBase.translation, quaternion, size: TABLE.size }]);
      const lineTouching = lineFcl.hits.filter((h) => [...h].some((k) => k.includes('@Table'))).length;
      const lift = Math.min(...samples.map((s) => s.q.ARM_J2!));
      // How far the arm stayed from the real table: the largest of a few growths of its box that no state touches.
      const grown = (m: number): ObstacleBox => ({ name: 'Table', centre: inBase.translation, quaternion, size: TABLE.size.map((v) => v + 2 * m) as [number, number, number] });
      const clearance = [0.05, 0.04, 0.03, 0.02, 0.01, 0.005, 0].find((m) => fclCollisions(urdfFile, states, 1, [grown(m)]).hits.every((h) => ![...h].some((k) => k.includes('@Table'))));
      report.workshop = {
        ...(report.workshop as object),
        scene: { objects: scene.objects.map((o) => o.id), allowed: scene.allowed, virtual: scene.virtual },
        straightLine: { moveitBlocked: blocked.length, of: straight.length, fclTouching: lineTouching, fclStates: line.length },
        around: { attempts, refused, contacts, planningTime: around.planning_time, points: around.points.length, duration: around.points[around.points.length - 1]?.t, choreonoidStates: states.length, fclTouching: touching, clearanceAtLeast: clearance ?? null, finalError: goalError, lowestJ2: lift },
      };
      expect(attempts, 'planning attempts, "Planning attempt N of at most" in move_group\'s log').toBeGreaterThanOrEqual(1);
      expect(refused.length, 'plans refused: at most one per attempt before the last').toBeLessThanOrEqual(attempts - 1);
      expect(contacts.every((c) => c.includes('Table')), JSON.stringify(contacts)).toBe(true);
      expect(contacts.length, 'contacts listed for the refused states').toBeGreaterThanOrEqual(refused.length);
      expect(lineTouching, 'FCL: states of the straight line inside the table').toBeGreaterThan(0);
      expect(touching, 'FCL: states Choreonoid passed through touching the table').toBe(0);
      expect(goalError, 'the arm at the goal in Choreonoid (rad)').toBeLessThan(0.01);

      // rviz2, fixed frame world: the robot where it drove, and MoveIt's obstacles from the node's markers — the
      // floor (blue in Choreonoid's floor.body) and the table (brown, Table.body); no display but the markers
      // draws either. No warning from rviz2 all along.
      if (x) {
        const shot = await x.capture(join(reportDir, 'workshop.png'));
        const view = { x: 470, y: 80, w: 900, h: 760 };
        const counts = colourCounts(shot, x.width, view);
        (report.workshop as Record<string, unknown>).rviz = { colours: counts, complaints: rvizComplaints(log()) };
        expect(counts.table, 'the table (brown) drawn in rviz2').toBeGreaterThan(300);
        expect(counts.floor, 'the floor (blue) drawn in rviz2').toBeGreaterThan(3000);
        expect(rvizComplaints(log()), log().slice(-6000)).toEqual([]);
      }
      expect(logComplaints(log(), [...ALLOWED, ...REFUSED_PLAN]), log().slice(-6000)).toEqual([]);
    } finally {
      listener.stop();
      keep('workshop', run);
      await procs.stopAll();
      await x?.stop();
    }
  }, 3_600_000);
});

/** rviz2's lines that say it could not draw something, as the other rviz suites read them; not RECOGNIZE_OBJECTS. */
const rvizComplaints = (log: string): string[] =>
  log
    .split('\n')
    .filter((l) => /^\[rviz2-\d+\]/.test(l) && /\[(WARN|ERROR|FATAL)\]|\bERROR\b|Could not|No transform|Message Filter dropping/.test(l))
    .filter((l) => !RECOGNIZE_OBJECTS.pattern.test(l));

/** Pixels of the table's brown (0.6 0.4 0.2) and the floor's blue (0 0 1) as rviz shades them, in `box` of an RGB screen. */
function colourCounts(shot: Buffer, width: number, box: { x: number; y: number; w: number; h: number }): { table: number; floor: number } {
  const out = { table: 0, floor: 0 };
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [shot[i]!, shot[i + 1]!, shot[i + 2]!];
      if (r > 60 && r > 1.2 * g && g > 1.3 * b && r > 2 * b) out.table++;
      if (b > 70 && b > 2.5 * r && b > 2.5 * g) out.floor++;
    }
  }
  return out;
}

/** A unit quaternion [x, y, z, w] of a rotation matrix. */
function quaternionOf(m: Mat3): [number, number, number, number] {
  const q = quaternionFromMatrix(m);
  return [q.x, q.y, q.z, q.w];
}
