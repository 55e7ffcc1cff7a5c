// What body_bridge decides for a model, as the sweep judges it: the joints' roles and the gains' predicted sag
// (computed here exactly as `body-bridge control` computes them with its defaults), and the controllers with
// their goal tolerances (read from the files the launch generated and Choreonoid ran).
import { parse as parseYaml } from 'yaml';
import { controlConfig } from '../src/control/config.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import type { JointType } from '../src/model/types.js';
import { planningGroups } from '../src/moveit/config.js';
import { inferRoles } from '../src/roles/roles.js';

export interface JointFacts {
  type: JointType;
  lower: number;
  upper: number;
  velocityLower: number;
  velocityUpper: number;
}

export interface ModelDesign {
  /** The body item's name (the generated project names it so). */
  name: string;
  /** The root link when it is free (a base that can drive, fall or explode), else null. */
  freeRoot: string | null;
  /** Links on a free joint below the root: each the root of a body of its own in the simulation. */
  freeLinks: string[];
  roles: Record<string, string[]>;
  joints: Record<string, JointFacts>;
  /** Each joint's mode in the <ros2_control> block. */
  modes: Record<string, string>;
  /** position_pd joints: the largest static error the gains predict under their design load (rad or m). */
  sag: Record<string, number>;
  /**
   * position_pd joints: the static torque (N·m) or force (N) the gains were designed to hold, G = sag · P: gravity, or for
   * a leg or flipper the body it carries through the ground where larger (rows before 30 Nov 2026, 02:00 UTC: gravity).
   */
  gravity: Record<string, number>;
}

/** The design `body-bridge control MODEL` (default options, as simulation.launch.py runs it) makes. */
export function modelDesign(file: string): ModelDesign {
  const model = loadRobotModel(file);
  const ros = applyRosConventions(model);
  const roles = inferRoles(ros.model);
  const config = controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles });
  const byRole: Record<string, string[]> = {};
  for (const r of roles.joints) (byRole[r.role] ??= []).push(r.joint);
  const joints: Record<string, JointFacts> = {};
  for (const l of model.links) {
    if (l.parent === null) continue;
    const { type, lower, upper, velocityLower, velocityUpper } = l.joint;
    joints[l.joint.name] = { type, lower, upper, velocityLower, velocityUpper };
  }
  const root = model.links[0]!;
  return {
    name: model.name,
    freeRoot: root.joint.type === 'free' ? root.name : null,
    freeLinks: model.links.slice(1).filter((l) => l.joint.type === 'free').map((l) => l.name),
    roles: byRole,
    joints,
    modes: Object.fromEntries(config.block.modes.joints.map((m) => [m.joint, m.mode])),
    sag: Object.fromEntries(config.gains.joints.filter((g) => g.mode === 'position_pd').map((g) => [g.joint, g.sag])),
    gravity: Object.fromEntries(config.gains.joints.filter((g) => g.mode === 'position_pd').map((g) => [g.joint, g.held])),
  };
}

export interface SpawnedController {
  name: string;
  type: string;
  joints: string[];
  /** joint_trajectory_controller: each joint's goal tolerance (constraints.<joint>.goal). */
  goal: Record<string, number>;
  /** joint_trajectory_controller: constraints.goal_time (s). */
  goalTime: number | null;
}

/** The active controllers of a generated spawners.yaml with their types, joints and goal tolerances from ros2_controllers.yaml. */
export function spawnedControllers(controllersYaml: string, spawnersYaml: string): SpawnedController[] {
  const spawners = parseYaml(spawnersYaml) as { active?: string[]; controller_manager?: string };
  const doc = parseYaml(controllersYaml) as Record<string, { ros__parameters?: Record<string, unknown> }>;
  const manager = doc[spawners.controller_manager ?? '/controller_manager']?.ros__parameters ?? {};
  return (spawners.active ?? []).map((name) => {
    const params = Object.entries(doc).find(([key]) => key.split('/').pop() === name)?.[1]?.ros__parameters ?? {};
    const constraints = (params.constraints ?? {}) as Record<string, unknown>;
    const joints = (params.joints ?? [...((params.left_wheel_names as string[]) ?? []), ...((params.right_wheel_names as string[]) ?? [])]) as string[];
    const goal: Record<string, number> = {};
    for (const j of joints) {
      const c = constraints[j] as { goal?: number } | undefined;
      if (typeof c?.goal === 'number') goal[j] = c.goal;
    }
    return {
      name,
      type: String((manager[name] as { type?: string } | undefined)?.type ?? ''),
      joints,
      goal,
      goalTime: typeof constraints.goal_time === 'number' ? constraints.goal_time : null,
    };
  });
}

export const isTrajectoryController = (c: SpawnedController): boolean => c.type === 'joint_trajectory_controller/JointTrajectoryController';
export const isDiffDrive = (c: SpawnedController): boolean => c.type === 'diff_drive_controller/DiffDriveController';
export const isSteeringDrive = (c: SpawnedController): boolean => c.type === 'bicycle_steering_controller/BicycleSteeringController';
/** Where a drive takes its speed (a TwistStamped) and publishes its odometry: diff_drive_controller's topics, or a steering controller's. */
export const driveTopics = (c: SpawnedController): { command: string; odometry: string } =>
  isSteeringDrive(c) ? { command: `/${c.name}/reference`, odometry: `/${c.name}/odometry` } : { command: `/${c.name}/cmd_vel`, odometry: `/${c.name}/odom` };
