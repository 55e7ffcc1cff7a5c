// A steered base read off the model: one steering joint turning a wheel, and traction wheels fixed to the base
// behind it — a car's bicycle model, which ros2_controllers' steering controllers drive from a Twist
// (steering_controllers_library). Which joints steer is decided in roles.ts (a vertical axis through a wheel);
// this file checks what the controllers assume and measures what they need.
//
// What the controllers assume (steering_controllers_library, humble and jazzy; steering_odometry.cpp):
// - the base rolls along its x axis: a positive linear.x turns the traction wheels forward at v / radius, and
//   the odometry integrates the heading of the base's x axis. A base rolling along its y axis (traction axles
//   along x) would take cmd_vel's x as its own y, and its odometry would be 90° off its frame: no controller.
// - a positive traction command rolls the base forward: the wheel's axis points to the base's left (+y); the
//   controllers have no per-wheel sign or multiplier to reverse one pointing right.
// - a positive steering angle turns the base left (positive yaw): the steering axis points up (+z).
// - the steering is in front of the traction axle (front_steering; jazzy deprecates the rear form).
// - wheelbase: along x, from the steering axis to the traction wheels' axle.
// One traction wheel (or one joint turning an axle, FourWheelCar's rear) makes bicycle_steering_controller.
// Two traction wheels would make tricycle_steering_controller; body_bridge does not generate it yet, and says so.
import { mulMat, mulVec, normalize, sub, transpose } from '../model/math.js';
import type { Diagnostic, Link, RobotModel, Vec3 } from '../model/types.js';
import { linkWorldPoses } from '../kinematics/forward.js';
import { type Wheel, COAXIAL_TOLERANCE, measureWheel, short } from './wheels.js';

/** |component| an axis must have along the base axis it is meant to lie along. */
const ALONG = 0.99;

export interface SteeringDrive {
  base: string;
  /** The steering joint (a position command: the steering angle) and the wheel it turns. */
  steering: { joint: string; wheel: Wheel };
  /** The wheels the controller turns in velocity. */
  traction: Wheel[];
  /** m, along the base's x axis from the steering axis to the traction axle. */
  wheelbase: number;
  /** m: the traction wheels' mean radius. */
  radius: number;
  /** Sum of every link's mass (kg): what the traction wheels push. */
  mass: number;
}

export interface SteeringAnalysis {
  drive: SteeringDrive | null;
  /** Why there is none, where a steering joint and traction wheels were found (a fact about the model). */
  reason: string | null;
  notes: string[];
  warnings: Diagnostic[];
}

const none = (reason: string | null, warnings: Diagnostic[] = []): SteeringAnalysis => ({ drive: null, reason, notes: [], warnings });

/**
 * The steering drive of one steering joint `swivel` turning `steered`, pushed by `traction` (wheels fixed to
 * the base that no differential drive takes), or the fact that rules it out.
 */
export function steeringDrive(model: RobotModel, swivel: Link, steered: Link, traction: readonly Link[]): SteeringAnalysis {
  const root = model.links[0]!;
  const warnings: Diagnostic[] = [];
  const warn = (l: Link) => (message: string): void => {
    warnings.push({ file: model.sourceFile, ...l.source, severity: 'warning', message });
  };
  if (traction.length === 0) return none(null);
  const wheels: Wheel[] = [];
  for (const l of [steered, ...traction]) {
    const w = measureWheel(model, l, warn(l));
    if (w === null) return none(`wheel ${l.joint.name} has no collision shape body_bridge can read for its radius`, warnings);
    wheels.push(w);
  }
  const [front, ...rear] = wheels as [Wheel, ...Wheel[]];
  const poses = linkWorldPoses(model);
  const base = poses.get(root.name)!;
  const inBase = (l: Link): { at: Vec3; axis: Vec3 } => {
    const p = poses.get(l.name)!;
    const rt = transpose(base.rotation);
    return { at: mulVec(rt, sub(p.translation, base.translation)), axis: normalize(mulVec(mulMat(rt, p.rotation), l.joint.axis)) };
  };
  const steer = inBase(swivel);
  for (const w of rear) {
    if (Math.abs(w.axis[1]) < ALONG) {
      return none(`traction wheel ${w.joint}'s axis (${w.axis.map((x) => x.toFixed(3)).join(', ')} in ${root.name}) is not along the base's y axis: the base does not roll along its x axis, which the steering controllers take as forward (cmd_vel's x and the odometry's heading would be off the base frame)`, warnings);
    }
    if (w.axis[1] < 0) return none(`traction wheel ${w.joint}'s axis points to the base's right: a positive command would roll it backwards, and the steering controllers have no per-wheel sign`, warnings);
  }
  if (rear.length > 1) {
    return none(`${rear.length} traction wheels (${rear.map((w) => w.joint).join(', ')}) behind steering ${swivel.joint.name}: that is tricycle_steering_controller's drive, which body_bridge does not generate yet`, warnings);
  }
  if (steer.axis[2] < ALONG) return none(`steering ${swivel.joint.name}'s axis (${steer.axis.map((x) => x.toFixed(3)).join(', ')} in ${root.name}) does not point up: a positive steering angle would not turn the base left`, warnings);
  if (Math.abs(front.axis[1]) < ALONG) return none(`steered wheel ${front.joint} does not roll along the base's x axis at steering angle 0`, warnings);
  const axle = rear.reduce((s, w) => s + w.tread[0], 0) / rear.length;
  const wheelbase = steer.at[0] - axle;
  if (!(wheelbase > COAXIAL_TOLERANCE)) return none(`steering ${swivel.joint.name} is not in front of the traction axle (x ${short(steer.at[0])} m against ${short(axle)} m): body_bridge writes front steering only`, warnings);
  const radius = rear.reduce((s, w) => s + w.radius, 0) / rear.length;
  const notes = [
    `steering drive (bicycle_steering_controller): steering ${swivel.joint.name} turns ${front.joint}; traction ${rear.map((w) => w.joint).join(', ')}; ` +
      `wheelbase ${short(wheelbase, 6)} m (along ${root.name}'s x, from the steering axis to the traction axle), traction wheel radius ${short(radius, 6)} m (${rear[0]!.radiusFrom})`,
  ];
  const offset = Math.abs(steer.at[1]);
  if (offset > COAXIAL_TOLERANCE) notes.push(`the steering axis is ${short(offset)} m off the base's centre line: the controller's bicycle model puts it on the line, so its turning radius is that of the line's, not of ${front.joint}'s`);
  return {
    drive: { base: root.name, steering: { joint: swivel.joint.name, wheel: front }, traction: rear, wheelbase, radius, mass: model.links.reduce((m, l) => m + l.mass, 0) },
    reason: null,
    notes,
    warnings,
  };
}
