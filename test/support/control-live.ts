// What test/ros-live-control.test.ts judges, apart from the live graph: Choreonoid's account of the simulation
// (test/live/choreonoid/probe.py's lines), the trajectory controllers' tracking error, the tolerances the test
// states up front, and which log lines are complaints.
import type { Pose, Vec3 } from '../../src/model/types.js';
import { isModelWarning } from './live-rig.js';

/**
 * The gain design's allowed static error (docs/control.md, `--max-sag`, default 1 mrad or 1 mm): at rest every
 * position_pd joint holds its command within its predicted gravity sag, which the design keeps at or below this.
 */
export const DESIGN_SAG = 1e-3;
/**
 * rad or m: how far a joint may end from the trajectory's last point once at rest — twice the design sag, the
 * goal tolerance the generated controllers enforce before they report success (docs/control.md, Controllers).
 */
export const FINAL_JOINT_TOLERANCE = 2 * DESIGN_SAG;
/** MoveIt's goal region in test/peers/moveit_probe.py: a sphere of 1 mm, 0.01 rad about each axis, 1 mrad per joint. */
export const GOAL_POSITION_TOLERANCE = 1e-3;
export const GOAL_AXIS_TOLERANCE = 1e-2;
export const GOAL_JOINT_TOLERANCE = 1e-3;

/** One line of probe.jsonl with the simulation running. */
export interface ProbeSample {
  wall: number;
  sim: number;
  running: boolean;
  q: Record<string, number>;
  /** World poses of the links, 4×4 row-major. */
  links: Record<string, number[]>;
}

export interface ProbeLog {
  samples: ProbeSample[];
  events: { event: string; wall: number; [k: string]: unknown }[];
}

export function readProbeLog(text: string): ProbeLog {
  const samples: ProbeSample[] = [];
  const events: ProbeLog['events'] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: Record<string, unknown>;
    try {
      // Python's json writes a diverged simulation's NaN and Infinity bare, which JSON.parse refuses: read them as numbers.
      entry = JSON.parse(line.replace(/(?<=[:,[]\s*)(NaN|-?Infinity)(?=\s*[,}\]])/g, '"\\u0000$1"'), (_, v) =>
        typeof v === 'string' && v.startsWith('\u0000') ? Number(v.slice(1)) : v,
      ) as Record<string, unknown>;
    } catch {
      continue; // the last line may be half written
    }
    if (typeof entry.event === 'string') events.push(entry as ProbeLog['events'][number]);
    else if (typeof entry.sim === 'number') samples.push(entry as unknown as ProbeSample);
  }
  return { samples, events };
}

/** The last sample taken at or before wall time t (null when none is). */
export function sampleAt(samples: readonly ProbeSample[], wall: number): ProbeSample | null {
  let found: ProbeSample | null = null;
  for (const s of samples) {
    if (s.wall > wall) break;
    found = s;
  }
  return found;
}

/** A joint_trajectory_controller's controller_state, reduced to what the test reads. */
export interface ControllerState {
  /** Its header stamp: simulation time. */
  stamp: number;
  joints: string[];
  /** reference − feedback, per joint. */
  error: number[];
}

/** The largest |error| per joint among the states stamped in [from, to] (simulation time). */
export function largestTrackingErrors(states: readonly ControllerState[], from: number, to: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of states) {
    if (s.stamp < from || s.stamp > to) continue;
    s.joints.forEach((j, i) => {
      out[j] = Math.max(out[j] ?? 0, Math.abs(s.error[i] ?? NaN));
    });
  }
  return out;
}

/**
 * How far the tip may be from where the commanded joint angles put it when each joint of the chain ends within
 * `jointTolerance` of its command: a joint turning by δ moves the tip by at most δ × its distance from the joint's
 * axis (≤ the distance from the joint's origin), and turns it by δ; a sliding joint moves it by δ. So
 * position ≤ Σ δ·rᵢ (revolute) + Σ δ (prismatic), angle ≤ Σ δ (revolute).
 */
export function tipTolerance(joints: readonly { type: 'revolute' | 'prismatic'; distance: number }[], jointTolerance: number): { position: number; angle: number } {
  let position = 0;
  let angle = 0;
  for (const j of joints) {
    if (j.type === 'prismatic') position += jointTolerance;
    else {
      position += jointTolerance * j.distance;
      angle += jointTolerance;
    }
  }
  return { position, angle };
}

/** MoveIt's goal region as bounds: 1 mm, and 0.01 rad about each of three axes (√3 × 0.01 at most as one angle). */
export const GOAL_REGION = { position: GOAL_POSITION_TOLERANCE, angle: Math.sqrt(3) * GOAL_AXIS_TOLERANCE };

/** Distance between two positions, and the angle between two rotations (rad). */
export function poseDifference(a: Pose, b: Pose): { position: number; angle: number } {
  const d = a.translation.map((x, i) => x - b.translation[i]!) as Vec3;
  // trace(Aᵀ B) = 1 + 2 cos θ
  let trace = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) trace += a.rotation[k]![i]! * b.rotation[k]![i]!;
  const c = Math.min(1, Math.max(-1, (trace - 1) / 2));
  return { position: Math.hypot(...d), angle: Math.acos(c) };
}

/** A pose from a position and an (x, y, z, w) quaternion. */
export function poseFromQuaternion(position: readonly number[], q: readonly number[]): Pose {
  const [x, y, z, w] = q as [number, number, number, number];
  const n = Math.hypot(x, y, z, w);
  const [a, b, c, d] = [x / n, y / n, z / n, w / n];
  return {
    translation: [position[0]!, position[1]!, position[2]!],
    rotation: [
      [1 - 2 * (b * b + c * c), 2 * (a * b - c * d), 2 * (a * c + b * d)],
      [2 * (a * b + c * d), 1 - 2 * (a * a + c * c), 2 * (b * c - a * d)],
      [2 * (a * c - b * d), 2 * (b * c + a * d), 1 - 2 * (a * a + b * b)],
    ],
  };
}

/** The root's planar displacement between two probe samples (m). */
export function planarDisplacement(a: ProbeSample, b: ProbeSample, root: string): number {
  const pa = a.links[root]!;
  const pb = b.links[root]!;
  return Math.hypot(pb[3]! - pa[3]!, pb[7]! - pa[7]!);
}

/**
 * Lines that complain in a `ros2 launch` log — [WARN], [ERROR], [FATAL] from any ROS node, a Python traceback,
 * and Choreonoid's own messages (printed bare on stdout with --no-window) that say error, warning, failed or
 * cannot — but for body_bridge's warnings about the model itself (isModelWarning) and the lines `allowed`
 * matches (each with its reason in the test).
 */
export function logComplaints(log: string, allowed: readonly { pattern: RegExp; why: string }[] = []): string[] {
  return log.split('\n').filter((l) => {
    const ros = /\[(WARN|WARNING|ERROR|FATAL)\]/.test(l) || /\b(Traceback|Exception)\b/.test(l);
    const choreonoid = /^\[choreonoid-\d+\] /.test(l) && /\b(error|warning|failed|cannot)\b/i.test(l);
    return (ros || choreonoid) && !isModelWarning(l) && !allowed.some((a) => a.pattern.test(l));
  });
}

/**
 * Log lines that are no fault of our files, each narrowly (the note in docs/control.md lists them with what was
 * tried). After Humble (Jazzy: choreonoid_ros 3716c75, ros2_control 4.46, ros2_controllers 4.42) six more, of
 * choreonoid_ros's Jazzy path and Jazzy's diff_drive_controller.
 */
const AFTER_HUMBLE: { pattern: RegExp; why: string }[] = [
  {
    pattern: /\[(?:\w+\.)*move_group\.moveit\.moveit\.core\.time_optimal_trajectory_generation\]: There is a combination of revolute and prismatic joints in the robot model\. TOTG's `path_tolerance` will not function correctly\.$/,
    why: "MoveIt 2.12's time parameterisation says so of any robot with both kinds of joint (RH2's arm ends in a prismatic finger); it concerns TOTG's path_tolerance, which the generated configuration leaves at MoveIt's default",
  },
  {
    pattern: /\[(?:\w+\.)*controller_manager\]: The resource manager is not yet initialized, will wait for the robot description to initialize it\.\.$/,
    why: "choreonoid_ros's Jazzy path creates the controller manager without a URDF; it takes robot_description from the topic (the lines after it say so)",
  },
  {
    pattern: /\[(?:\w+\.)*controller_manager\]: Waiting for data on 'robot_description' topic to finish initialization$/,
    why: "the same wait, repeated once a second until the manager's subscription has body_bridge's robot_description (latched; simulation.launch.py starts Choreonoid once the node serves it)",
  },
  {
    pattern: /\[(?:\w+\.)*controller_manager\]: No clock received, using time argument instead! /,
    why: "choreonoid_ros updates the manager before the manager's own /clock subscription has a message; the time it passes is the simulation time",
  },
  {
    pattern: /\[(?:\w+\.)*controller_manager\.hardware_component\.system\.[^\]]+\]: Executor is not available during hardware component initialization for '[^']+'\. Skipping node creation!$/,
    why: "choreonoid_ros imports BodySystemInterface without an executor; the component's own node is optional and BodySystemInterface uses none",
  },
  {
    pattern: /\[(?:\w+\.)*controller_manager\]: Component '[^']+' does not have read or write statistics initialized, skipping registration\.$/,
    why: 'ros2_control gives read/write statistics only to components it loads through pluginlib; choreonoid_ros imports its own',
  },
  {
    pattern: /\[(?:\w+\.)*diff_drive_controller\]: Velocity command timed out\. Braking\.$/,
    why: "Jazzy's diff_drive_controller warns once a second whenever no command is younger than cmd_vel_timeout, i.e. whenever the base stands idle (Humble's brakes silently); a command lost while driving shows in the distance check",
  },
];

/** AFTER_HUMBLE where the sourced ROS 2 is later than Humble, else none. */
export const afterHumbleLines = (): { pattern: RegExp; why: string }[] =>
  process.env.ROS_DISTRO !== undefined && process.env.ROS_DISTRO !== 'humble' ? AFTER_HUMBLE : [];
