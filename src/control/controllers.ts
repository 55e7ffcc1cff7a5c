// ros2_controllers.yaml: the controller_manager that ROS2ControlItem runs inside Choreonoid, and the
// controllers it loads — joint_state_broadcaster, one joint_trajectory_controller per planning group under
// the names moveit_controllers.yaml gives MoveIt (moveit/limits.ts groupControllers), and a
// diff_drive_controller for a differential base (wheels.ts).
//
// - update_rate = 1 / simulation step. ROS2ControlItem calls the controller manager once per step whatever
//   its update_rate says (ROS2ControlItem.cpp: "TODO: apply update_rate"), and the manager runs a controller
//   with its own update_rate every update_rate / controller_rate calls: only a manager rate equal to the
//   step rate gives controllers the rate (and period) they ask for. It must be an integer (the item reads it
//   with as_int()).
// - Keys are the nodes' fully qualified names in the item's namespace: rcl applies them inside the Choreonoid
//   process (--params-file), and the spawner's --param-file looks controllers up by that name too.
// - One joint, one active controller: a controller whose joints an earlier one already claims is loaded
//   inactive (spawner --inactive) — switch_controller can swap them. whole_body has no controller (MoveIt
//   splits its trajectories over the limbs').
// - Every number a controller declares as double is written with a fraction: a ROS parameter's type
//   is fixed by how it is written.
import { Document, Scalar, YAMLMap } from 'yaml';
import { velocityLimit } from '../model/joint.js';
import type { Joint } from '../model/types.js';
import { accelerationLimit } from '../moveit/limits.js';
import type { GroupController } from '../moveit/limits.js';
import type { GainDesign, JointGains } from './gains.js';
import { type CommandInterface, type ControlMode, claimedInterface } from './modes.js';
import type { SteeringDrive } from '../roles/steering.js';
import type { DiffDrive } from '../roles/wheels.js';

export const JOINT_STATE_BROADCASTER = 'joint_state_broadcaster';
export const DIFF_DRIVE_CONTROLLER = 'diff_drive_controller';
/** A steered base with one traction wheel (steering.ts): ros2_controllers' bicycle model. */
export const BICYCLE_STEERING_CONTROLLER = 'bicycle_steering_controller';
/** s without a new reference after which a drive controller stops the base (diff_drive's cmd_vel_timeout, the steering controllers' reference_timeout). */
export const REFERENCE_TIMEOUT = 0.5;
/** Wheels and tracks no drive takes, each commanded in velocity (a forward command controller). */
export const WHEEL_VELOCITY_CONTROLLER = 'wheel_velocity_controller';
export const CONTROLLER_MANAGER = 'controller_manager';
export const CONTROL_DISTROS = ['humble', 'jazzy'] as const;
export type ControlDistro = (typeof CONTROL_DISTROS)[number];

/** Hz: joint_states for rviz, MoveIt and body_bridge's /tf; every step (1 kHz) would only load the graph. */
export const JOINT_STATE_RATE = 100;

/**
 * joint_state_broadcaster's update_rate. Jazzy's controller manager runs a controller slower than itself when
 * the time since that controller's last update is nearest its period (controller_manager.cpp, `controller_go`):
 * after a simulation restart the time goes back to 0, that difference is negative, and the broadcaster stays
 * silent until the new run's time passes where the last one stopped (seen: no joint_states after a restart, so
 * /tf and MoveIt froze; test/ros-live-faults.test.ts). At the manager's own rate a controller runs on every
 * update, so on Jazzy the broadcaster runs every step. Humble's manager counts updates instead and has no such gap.
 */
export const jointStateRate = (managerRate: number, distro: ControlDistro): number =>
  distro === 'humble' ? Math.min(JOINT_STATE_RATE, managerRate) : managerRate;
/** s a trajectory controller waits past a trajectory's end for the joints to settle within the goal tolerance (MoveIt allows 0.5 s beyond the expected duration). */
export const GOAL_TIME = 0.5;
/** Path tolerance = START_TOLERANCE + this × the error the loop is predicted to show at the joint's velocity and acceleration limits. */
export const PATH_TOLERANCE_FACTOR = 3;
/**
 * rad or m: how far from the robot's state MoveIt may start a trajectory (moveit.launch.py's
 * trajectory_execution.allowed_start_tolerance). Its first point has time_from_start 0, so the trajectory
 * controller's desired state steps there at once, and a lightly damped loop (damping lowered for stability)
 * swings about as far: a path tolerance below it aborts trajectories MoveIt rightly started.
 */
export const START_TOLERANCE = 0.01;
/** rad or m: the path tolerance of a joint the simulator holds itself (high gain), which only a blocked joint exceeds. */
export const HIGH_GAIN_PATH_TOLERANCE = 0.05;

export interface ControllerSpec {
  name: string;
  type: string;
  joints: string[];
  /** Loaded active, or inactive because its joints are claimed by an earlier controller. */
  active: boolean;
}

export interface ControllersOptions {
  /** s (1 / update_rate). */
  timeStep: number;
  /** ROS2ControlItem's namespace: '' or absolute (`/robot1`). */
  namespace: string;
  distro: ControlDistro;
  /** body_bridge's frame_prefix, for the odometry frames. */
  framePrefix: string;
  /** The gain design's allowed sag (goal tolerance floor). */
  maxSag: number;
  /** Wheels and tracks a velocity controller must turn where no drive controller takes them (roles: actuated wheel, track). */
  velocityJoints?: readonly string[];
  /** Joints nothing commands (roles: caster, passive, a wheel rolling with the base). */
  freeJoints?: readonly string[];
  /** A steered base (roles/steering.ts), where no differential drive moves it. */
  steering?: SteeringDrive | null;
  /** The diff drive's acceleration limits (driveAcceleration); none without. */
  driveAcceleration?: DriveAcceleration | null;
}

export interface ControllersFile {
  text: string;
  controllers: ControllerSpec[];
  notes: string[];
}

const double = (x: number): Scalar => {
  const s = new Scalar(Number(x.toPrecision(6)));
  s.minFractionDigits = 1;
  return s;
};

/** A node's fully qualified name in a namespace ('' or absolute). */
export const qualifiedName = (namespace: string, node: string): string => `${namespace.replace(/\/+$/, '')}/${node}`;

export class ControlConfigError extends Error {}

/** Tolerances of one joint: goal (at rest) and trajectory (while moving), from its loop's predicted errors. */
export function jointTolerances(joint: Joint, mode: ControlMode, gains: JointGains | undefined, maxSag: number): { goal: number; trajectory: number } {
  if (!gains || gains.mode === 'velocity_pd') return { goal: 2 * maxSag, trajectory: HIGH_GAIN_PATH_TOLERANCE };
  const v = velocityLimit(joint);
  const a = accelerationLimit(v);
  const moving = gains.sag + gains.lag * v + (gains.inertia / gains.p) * a;
  return { goal: 2 * Math.max(gains.sag, maxSag), trajectory: START_TOLERANCE + PATH_TOLERANCE_FACTOR * moving };
}

/**
 * The controllers file. `modes` gives every moving joint's mode; `gains` the PD gains (the trajectory
 * controllers' PID for effort joints, and the tolerances); `groups` the MoveIt groups' controllers.
 */
export function controllersFile(
  joints: readonly Joint[],
  modes: ReadonlyMap<string, ControlMode>,
  gains: GainDesign,
  groups: readonly GroupController[],
  drive: DiffDrive | null,
  options: ControllersOptions,
): ControllersFile {
  const notes: string[] = [];
  const byJoint = new Map(joints.map((j) => [j.name, j]));
  const gainOf = new Map(gains.joints.map((g) => [g.joint, g]));
  const claimed = new Set<string>();
  const controllers: ControllerSpec[] = [{ name: JOINT_STATE_BROADCASTER, type: 'joint_state_broadcaster/JointStateBroadcaster', joints: [], active: true }];
  const sections: [string, Record<string, unknown>][] = [];
  const updateRate = Math.round(1 / options.timeStep);
  if (Math.abs(updateRate * options.timeStep - 1) > 1e-9) {
    throw new ControlConfigError(`a simulation step of ${options.timeStep} s is not a whole number of steps per second: controller_manager's update_rate is an integer`);
  }
  const common = { use_sim_time: true };
  sections.push([JOINT_STATE_BROADCASTER, { ...common, update_rate: jointStateRate(updateRate, options.distro) }]);

  if (drive) {
    const driveJoints = [...drive.left, ...drive.right].map((w) => w.joint);
    const wheelModes = driveJoints.map((j) => modes.get(j)!);
    if (wheelModes.some((m) => claimedInterface(m) !== 'velocity')) {
      notes.push(`no ${DIFF_DRIVE_CONTROLLER}: it commands wheel velocities, and the ${drive.kind} are in ${[...new Set(wheelModes)].join(', ')} mode`);
    } else {
      controllers.push({ name: DIFF_DRIVE_CONTROLLER, type: 'diff_drive_controller/DiffDriveController', joints: driveJoints, active: true });
      driveJoints.forEach((j) => claimed.add(j));
      sections.push([DIFF_DRIVE_CONTROLLER, { ...common, ...diffDriveParameters(drive, options) }]);
      const a = options.driveAcceleration;
      if (a) notes.push(`${DIFF_DRIVE_CONTROLLER}'s acceleration limits ±${Number(a.linear.toPrecision(3))} m/s² and ±${Number(a.angular.toPrecision(3))} rad/s²: ${a.reason}`);
    }
  }
  const steering = options.steering;
  if (steering) {
    const traction = steering.traction.map((w) => w.joint);
    const wrong = [
      ...traction.filter((j) => claimedInterface(modes.get(j)!) !== 'velocity').map((j) => `${j} (traction) is in ${modes.get(j)} mode, not a velocity one`),
      ...(claimedInterface(modes.get(steering.steering.joint)!) !== 'position' ? [`${steering.steering.joint} (steering) is in ${modes.get(steering.steering.joint)} mode, not a position one`] : []),
    ];
    if (wrong.length > 0) notes.push(`no ${BICYCLE_STEERING_CONTROLLER}: it commands the traction wheel's velocity and the steering angle, and ${wrong.join('; ')}`);
    else {
      const joints = [...traction, steering.steering.joint];
      controllers.push({ name: BICYCLE_STEERING_CONTROLLER, type: 'bicycle_steering_controller/BicycleSteeringController', joints, active: true });
      joints.forEach((j) => claimed.add(j));
      sections.push([BICYCLE_STEERING_CONTROLLER, { ...common, ...bicycleParameters(steering, options) }]);
      notes.push(
        `${BICYCLE_STEERING_CONTROLLER} drives the base: geometry_msgs/TwistStamped on ${BICYCLE_STEERING_CONTROLLER}/reference (linear.x along ${steering.base}'s x, angular.z its yaw rate), stamped in simulation time (older than ${REFERENCE_TIMEOUT} s: stop); ` +
          `odometry on ${BICYCLE_STEERING_CONTROLLER}/odometry, and odom → ${steering.base} on ${BICYCLE_STEERING_CONTROLLER}/tf_odometry, not /tf (steering_controllers_library publishes its transform there)`,
      );
    }
  }
  // Wheels and tracks outside the drive that something must turn: one velocity command each.
  const spinning = (options.velocityJoints ?? []).filter((j) => !claimed.has(j) && claimedInterface(modes.get(j)!) === 'velocity');
  if (spinning.length > 0) {
    controllers.push({ name: WHEEL_VELOCITY_CONTROLLER, type: 'velocity_controllers/JointGroupVelocityController', joints: spinning, active: true });
    spinning.forEach((j) => claimed.add(j));
    sections.push([WHEEL_VELOCITY_CONTROLLER, { ...common, joints: spinning }]);
    notes.push(`${WHEEL_VELOCITY_CONTROLLER} commands ${spinning.join(', ')} in velocity (std_msgs/Float64MultiArray on ${WHEEL_VELOCITY_CONTROLLER}/commands, in that order): no drive controller takes ${spinning.length === 1 ? 'it' : 'them'}`);
  }

  for (const group of groups) {
    // A free joint inside a chain (a bushing, a follower): nothing commands it, so no controller claims it.
    const free = group.joints.filter((j) => options.freeJoints?.includes(j));
    const g = free.length === 0 ? group : { ...group, joints: group.joints.filter((j) => !free.includes(j)) };
    if (free.length > 0) notes.push(`${g.name} leaves out ${free.join(', ')}: free joints inside ${g.group}'s chain (MoveIt plans them; nothing commands them)`);
    if (g.joints.length === 0) continue;
    const interfaces = new Set(g.joints.map((j) => claimedInterface(modes.get(j)!)));
    if (interfaces.size > 1) {
      const by = (i: CommandInterface): string => g.joints.filter((j) => claimedInterface(modes.get(j)!) === i).join(', ');
      throw new ControlConfigError(
        `group ${g.group} mixes command interfaces (${[...interfaces].map((i) => `${i}: ${by(i)}`).join('; ')}); ` +
          `its joint_trajectory_controller ${g.name} commands one kind: give its joints modes of one kind (--joint-mode)`,
      );
    }
    const command = [...interfaces][0]!;
    const overlap = g.joints.filter((j) => claimed.has(j));
    const active = overlap.length === 0;
    if (!active) notes.push(`${g.name} is loaded inactive: ${overlap.join(', ')} ${overlap.length === 1 ? 'is' : 'are'} already claimed by an active controller`);
    else g.joints.forEach((j) => claimed.add(j));
    controllers.push({ name: g.name, type: 'joint_trajectory_controller/JointTrajectoryController', joints: g.joints, active });
    sections.push([g.name, { ...common, ...trajectoryParameters(g, command, byJoint, modes, gainOf, options) }]);
  }

  const manager: Record<string, unknown> = { update_rate: updateRate };
  for (const c of controllers) manager[c.name] = { type: c.type };
  const doc = new Document({});
  const root = doc.contents as YAMLMap;
  const add = (node: string, params: Record<string, unknown>, comment: string): void => {
    const value = doc.createNode({ ros__parameters: params });
    const pair = doc.createPair(qualifiedName(options.namespace, node), value);
    (pair.key as Scalar).commentBefore = ` ${comment}`;
    root.items.push(pair);
  };
  add(CONTROLLER_MANAGER, manager, `The controller manager ROS2ControlItem runs inside Choreonoid; update_rate = 1 / simulation step (${options.timeStep} s).`);
  for (const [name, params] of sections) {
    const spec = controllers.find((c) => c.name === name)!;
    add(name, params, `${spec.type}${spec.joints.length > 0 ? ` for ${spec.joints.join(', ')}` : ''}${spec.active ? '' : ' (loaded inactive)'}`);
  }
  doc.commentBefore =
    ` ros2_control controllers for ${options.distro}, generated by body_bridge (docs/control.md).\n` +
    ` Give this file to Choreonoid (ros2 run choreonoid_ros choreonoid ... --ros-args --params-file FILE)\n` +
    ` and to the spawners (--param-file FILE).`;
  return { text: doc.toString({ lineWidth: 0 }), controllers, notes };
}

function trajectoryParameters(
  g: GroupController,
  command: CommandInterface,
  byJoint: ReadonlyMap<string, Joint>,
  modes: ReadonlyMap<string, ControlMode>,
  gainOf: ReadonlyMap<string, JointGains>,
  options: ControllersOptions,
): Record<string, unknown> {
  const constraints: Record<string, unknown> = { stopped_velocity_tolerance: double(0.01), goal_time: double(GOAL_TIME) };
  for (const j of g.joints) {
    const t = jointTolerances(byJoint.get(j)!, modes.get(j)!, gainOf.get(j), options.maxSag);
    constraints[j] = { trajectory: double(t.trajectory), goal: double(t.goal) };
  }
  const out: Record<string, unknown> = {
    joints: g.joints,
    command_interfaces: [command],
    // The trajectory controller's velocity-command and effort-command forms need both.
    state_interfaces: ['position', 'velocity'],
    state_publish_rate: double(JOINT_STATE_RATE),
    allow_partial_joints_goal: false,
    // Humble's controller warns that its default, true, is deprecated; MoveIt's trajectories end at rest.
    allow_nonzero_velocity_at_trajectory_end: false,
    constraints,
  };
  if (command === 'velocity') {
    // The controller closes the position loop around Choreonoid's velocity loop: feed the planned velocity
    // forward, correct position error a quarter as fast as the velocity loop responds (a cascade's usual ratio).
    out.gains = Object.fromEntries(
      g.joints.map((j) => {
        const gj = gainOf.get(j);
        const inner = gj ? 2 * Math.PI * gj.bandwidth : 2 * Math.PI * 10;
        return [j, { p: double(inner / 4), i: double(0), d: double(0), ff_velocity_scale: double(1) }];
      }),
    );
  } else if (command === 'effort') {
    // The PD the model's gains describe, computed by the controller with the planned velocity (d acts on the velocity error).
    out.gains = Object.fromEntries(g.joints.map((j) => [j, { p: double(gainOf.get(j)?.p ?? 0), i: double(0), d: double(gainOf.get(j)?.d ?? 0) }]));
  }
  return out;
}

/**
 * bicycle_steering_controller's parameters per distro: humble names the joints front_wheels_names (steering,
 * with front_steering) and rear_wheels_names (traction) and takes both radii; jazzy names them
 * traction_joints_names and steering_joints_names (the humble names are deprecated there) and takes one radius.
 * The steering controllers have no frame prefix parameter: the prefix goes into the frame ids.
 */
function bicycleParameters(s: SteeringDrive, options: ControllersOptions): Record<string, unknown> {
  const traction = s.traction.map((w) => w.joint);
  const names =
    options.distro === 'humble'
      ? { front_steering: true, front_wheels_names: [s.steering.joint], rear_wheels_names: traction, use_stamped_vel: true }
      : { traction_joints_names: traction, steering_joints_names: [s.steering.joint] };
  const radii = options.distro === 'humble' ? { front_wheel_radius: double(s.steering.wheel.radius), rear_wheel_radius: double(s.radius) } : { traction_wheel_radius: double(s.radius) };
  return {
    ...names,
    wheelbase: double(s.wheelbase),
    ...radii,
    // Odometry from the traction wheel's measured position and the steering joint's, as diff_drive's wheels. Not on
    // jazzy: its steering kinematics divide the wheel's position change by the period before looking at the period,
    // so one update with period 0 makes the odometry NaN for good (FourWheelCar in Choreonoid on jazzy); from the
    // measured velocity instead, which a zero period leaves finite.
    open_loop: false,
    position_feedback: options.distro === 'humble',
    reference_timeout: double(REFERENCE_TIMEOUT),
    odom_frame_id: `${options.framePrefix}odom`,
    base_frame_id: `${options.framePrefix}${s.base}`,
    enable_odom_tf: true,
  };
}

/** Choreonoid's default material table (share/default/materials.yaml): friction 0.5 between Default and Ground. */
export const GROUND_FRICTION = 0.5;
/** m/s²: Choreonoid's (and the gain design's) gravity. */
const G = 9.80665;
/** Of the braking the friction could give with the whole weight on the driven wheels: the rest is margin (slopes, a hard stop). */
export const FRICTION_MARGIN = 0.5;
/**
 * The share of the weight the drive counts on when other links (casters, a skid) touch the floor too: the support is
 * statically indeterminate, and Choreonoid's contact solver may leave the drive wheels little of it — AizuWheel.body's
 * bore 3.7 % (the corpus sweep: its braked wheels slowed the 42 kg base at 0.18 m/s², friction 0.5).
 */
export const SHARED_SUPPORT_SHARE = 0.03;

export interface DriveAcceleration {
  /** m/s² of the base, either way. */
  linear: number;
  /** rad/s²: the same acceleration at each side's wheels, ±linear / (separation / 2). */
  angular: number;
  /** Why, for the README. */
  reason: string;
}

/**
 * How fast diff_drive_controller may change the base's speed: as fast as the driven wheels' friction can push or
 * brake it. Without a limit it stops the wheels at once on a zero command, and wheels bearing little of the weight
 * slide while the base rolls on (AizuWheel.body went 0.11 m past its stop on its casters). With the whole weight on
 * the driven wheels (nothing else of the body touches the floor at its initial pose): friction × g, halved
 * (FRICTION_MARGIN); with other contacts: friction × g × SHARED_SUPPORT_SHARE, no margin — already the worst seen.
 * `otherContacts`: links touching the floor that are no driven wheel's (roles/ground.ts).
 */
export function driveAcceleration(drive: DiffDrive, otherContacts: readonly string[]): DriveAcceleration {
  const shared = otherContacts.length > 0;
  const linear = shared ? GROUND_FRICTION * G * SHARED_SUPPORT_SHARE : FRICTION_MARGIN * GROUND_FRICTION * G;
  const reason = shared
    ? `${otherContacts.join(', ')} touch${otherContacts.length === 1 ? 'es' : ''} the floor beside the driven ${drive.kind}: they may bear little of the weight, so ${SHARED_SUPPORT_SHARE * 100} % of it (friction ${GROUND_FRICTION}) is what braking counts on`
    : `only the driven ${drive.kind} touch the floor: friction ${GROUND_FRICTION} × g under the whole weight, halved`;
  return { linear, angular: linear / (drive.separation / 2), reason };
}

function diffDriveParameters(drive: DiffDrive, options: ControllersOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    // diff_drive_controller counts the wheels per side from these lists (its wheels_per_side is set from them).
    left_wheel_names: drive.left.map((w) => w.joint),
    right_wheel_names: drive.right.map((w) => w.joint),
    wheel_separation: double(drive.separation),
    wheel_radius: double(drive.radius),
    wheel_separation_multiplier: double(1),
    left_wheel_radius_multiplier: double(drive.leftMultiplier),
    right_wheel_radius_multiplier: double(drive.rightMultiplier),
    odom_frame_id: 'odom',
    base_frame_id: drive.base,
    // Wheels: odometry from their measured positions. Tracks: from the commanded belt speeds, since a pseudo
    // continuous track's link does not turn (Choreonoid moves its contacts' surface at dq_target, not its joint).
    open_loop: drive.kind === 'tracks',
    position_feedback: drive.kind === 'wheels',
    enable_odom_tf: true,
    publish_rate: double(50),
    cmd_vel_timeout: double(REFERENCE_TIMEOUT),
  };
  // Frames as body_bridge names them: its frame_prefix, or none (the default would be the controller's namespace).
  if (options.framePrefix === '') out.tf_frame_prefix_enable = false;
  else Object.assign(out, { tf_frame_prefix_enable: true, tf_frame_prefix: options.framePrefix });
  if (options.distro === 'humble') out.use_stamped_vel = true;
  const wheelSpeed = Math.min(...[...drive.left, ...drive.right].map((w) => w.velocityLimit));
  const linear: Record<string, unknown> = {};
  const angular: Record<string, unknown> = {};
  if (Number.isFinite(wheelSpeed)) {
    const v = wheelSpeed * drive.radius;
    const w = (2 * v) / drive.separation;
    const limit = (max: number): Record<string, unknown> => ({
      ...(options.distro === 'humble' ? { has_velocity_limits: true } : {}),
      max_velocity: double(max),
      min_velocity: double(-max),
    });
    Object.assign(linear, limit(v));
    Object.assign(angular, limit(w));
  }
  const a = options.driveAcceleration;
  if (a) {
    // Humble's SpeedLimiter applies a limit only with has_*_limits; min is written too (it is -max when left NaN).
    const limit = (max: number): Record<string, unknown> => ({
      ...(options.distro === 'humble' ? { has_acceleration_limits: true } : {}),
      max_acceleration: double(max),
      min_acceleration: double(-max),
    });
    Object.assign(linear, limit(a.linear));
    Object.assign(angular, limit(a.angular));
  }
  if (Object.keys(linear).length > 0) out.linear = { x: linear };
  if (Object.keys(angular).length > 0) out.angular = { z: angular };
  return out;
}
