// `body-bridge info <model> [--json] [--package-path DIR]...`: the link tree, joints, mass properties
// and devices of a model as our loaders read it. JSON follows ../shared/oracle's conventions: SI
// units, rotations as rows mapping child → parent, and null for "unlimited".
import { deviceFrames } from '../kinematics/device-frames.js';
import { renderedImageSize } from '../devices/camera-info.js';
import { deviceInfo, type DeviceInfo } from '../devices/info.js';
import { ModelLoadError, formatDiagnostic } from '../model/errors.js';
import type { Device, Link, Mat3, RobotModel, Vec3 } from '../model/types.js';
import { BICYCLE_STEERING_CONTROLLER } from '../control/controllers.js';
import { type RoleAnalysis, inferRoles } from '../roles/roles.js';
import { applyRoles, readRolesFile } from '../roles/roles-file.js';
import { readFileSync } from 'node:fs';
import { loadForCommand, parseModelCommand, type Command, type CommandIo } from './command.js';

export const INFO_USAGE = `usage: body-bridge info <model> [--json] [--roles FILE] [--package-path DIR]...
  --json               {name, root, links[], devices[], extra_joints[], roles[]} (SI units, unlimited = null,
                       rotation = 3x3 rows mapping child to parent)
  --roles FILE         joint roles replacing inferred ones (JOINT: ROLE), as body-bridge control takes them
  --package-path DIR   directory holding ROS packages, for package:// URIs in the model; repeatable
`;

/** A limit as JSON: ±Infinity (unlimited) becomes null. */
const limit = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Device parameters with every unlimited number as null, recursively (vectors and matrices included). */
function jsonParams(value: unknown): unknown {
  if (typeof value === 'number') return limit(value);
  if (Array.isArray(value)) return value.map(jsonParams);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonParams(v)]));
  }
  return value;
}

export interface InfoLinkJson {
  name: string;
  parent: string | null;
  joint: {
    name: string;
    type: string;
    id: number | null;
    axis: Vec3;
    lower: number | null;
    upper: number | null;
    velocity_lower: number | null;
    velocity_upper: number | null;
    /** Largest effort (N·m or N); Choreonoid's effort range is symmetric. */
    effort: number | null;
    initial: number;
  };
  offset: { xyz: Vec3; rotation: Mat3 };
  mass: number;
  com: Vec3;
  inertia: Mat3;
}

export type InfoDeviceJson = {
  name: string;
  type: string;
  link: string;
  xyz: Vec3;
  rotation: Mat3;
  params: unknown;
} & Pick<DeviceInfo, 'frames' | 'topics' | 'image'>;

export interface InfoJson {
  name: string;
  root: string;
  links: InfoLinkJson[];
  devices: InfoDeviceJson[];
  extra_joints: {
    name: string | null;
    type: string;
    link1: string;
    link2: string;
    axis: Vec3;
    pose1: { xyz: Vec3; rotation: Mat3 };
    pose2: { xyz: Vec3; rotation: Mat3 };
  }[];
  /** Each joint's role (docs/control.md, "Joint roles"), whether something commands it, and the fact that decided it. */
  roles: { joint: string; role: string; commanded: boolean; reason: string; from: string }[];
  /** The base's drive, if any: the wheels (or tracks) per side, front first, and what diff_drive_controller is given. */
  drive: { kind: string; left: string[]; right: string[]; wheel_radius: number; wheel_separation: number } | null;
  /** A steered base's drive (no differential drive): its steering joint, traction wheels and the controller's geometry; or why none. */
  steering: { controller: string; steering: string; traction: string[]; wheelbase: number; wheel_radius: number } | { none: string } | null;
}

const deviceType = (d: Device): string => (d.type === 'Other' ? d.typeName : d.type);

function linkJson(l: Link): InfoLinkJson {
  const j = l.joint;
  return {
    name: l.name,
    parent: l.parent,
    joint: {
      name: j.name,
      type: j.type,
      id: j.id,
      axis: j.axis,
      lower: limit(j.lower),
      upper: limit(j.upper),
      velocity_lower: limit(j.velocityLower),
      velocity_upper: limit(j.velocityUpper),
      effort: limit(j.effortUpper),
      initial: j.initial,
    },
    offset: { xyz: l.offset.translation, rotation: l.offset.rotation },
    mass: l.mass,
    com: l.centerOfMass,
    inertia: l.inertia,
  };
}

export function infoJson(model: RobotModel, roles: RoleAnalysis = inferRoles(model)): InfoJson {
  const extras = deviceInfo(model, deviceFrames(model));
  return {
    name: model.name,
    root: model.root,
    links: model.links.map(linkJson),
    devices: model.devices.map((d, i) => ({
      name: d.name,
      type: deviceType(d),
      link: d.link,
      xyz: d.pose.translation,
      rotation: d.pose.rotation,
      params: jsonParams(d.params),
      frames: extras[i]!.frames,
      topics: extras[i]!.topics,
      ...(extras[i]!.image ? { image: extras[i]!.image } : {}),
    })),
    extra_joints: model.extraJoints.map((x) => ({
      name: x.name ?? null,
      type: x.type,
      link1: x.link1,
      link2: x.link2,
      axis: x.axis,
      pose1: { xyz: x.localPose1.translation, rotation: x.localPose1.rotation },
      pose2: { xyz: x.localPose2.translation, rotation: x.localPose2.rotation },
    })),
    roles: roles.joints.map((r) => ({ joint: r.joint, role: r.role, commanded: r.actuated, reason: r.reason, from: r.from })),
    drive: roles.drive.drive
      ? {
          kind: roles.drive.drive.kind,
          left: roles.drive.drive.left.map((w) => w.joint),
          right: roles.drive.drive.right.map((w) => w.joint),
          wheel_radius: roles.drive.drive.radius,
          wheel_separation: roles.drive.drive.separation,
        }
      : null,
    steering: roles.steering.drive
      ? { controller: BICYCLE_STEERING_CONTROLLER, steering: roles.steering.drive.steering.joint, traction: roles.steering.drive.traction.map((w) => w.joint), wheelbase: roles.steering.drive.wheelbase, wheel_radius: roles.steering.drive.radius }
      : roles.steering.reason
        ? { none: roles.steering.reason }
        : null,
  };
}

const num = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(6))) : x > 0 ? '∞' : '-∞');
const vec = (v: readonly number[]): string => `(${v.map(num).join(', ')})`;
const deg = (x: number): string => (Number.isFinite(x) ? `${num((x * 180) / Math.PI)}°` : num(x));

function jointText(l: Link): string {
  const j = l.joint;
  if (j.type === 'fixed' || j.type === 'free') return j.type;
  const unit = j.type === 'revolute' ? deg : (x: number) => `${num(x)} m`;
  const range = Number.isFinite(j.lower) || Number.isFinite(j.upper) ? ` [${unit(j.lower)}, ${unit(j.upper)}]` : ' unlimited';
  const id = j.id === null ? '' : ` id ${j.id}`;
  const name = j.name === l.name ? '' : ` "${j.name}"`;
  return `${j.type}${name}${id} axis ${vec(j.axis)}${range}`;
}

/** The human-readable report: an indented link tree, then devices, extra joints and the joints' roles. */
export function infoText(model: RobotModel, roles: RoleAnalysis = inferRoles(model)): string {
  const out: string[] = [`${model.name || '(unnamed)'}  ${model.sourceFile}`, `links: ${model.links.length}, root ${model.root}`];
  const depth = new Map<string, number>();
  for (const l of model.links) {
    const d = l.parent === null ? 0 : (depth.get(l.parent) ?? 0) + 1;
    depth.set(l.name, d);
    out.push(
      `${'  '.repeat(d + 1)}${l.name}  ${jointText(l)}  mass ${num(l.mass)} kg  com ${vec(l.centerOfMass)}  ` +
        `shapes ${l.visuals.length} visual / ${l.collisions.length} collision`,
    );
  }
  out.push(`devices: ${model.devices.length}`);
  for (const d of model.devices) {
    const image = d.type === 'Camera' || d.type === 'RangeCamera' ? renderedImageSize(d.params) : null;
    const size = image ? `  images ${image.width}×${image.height}` : '';
    out.push(`  ${deviceType(d)} "${d.name}" on ${d.link} at ${vec(d.pose.translation)}${size}`);
  }
  if (model.extraJoints.length > 0) {
    out.push(`extra joints: ${model.extraJoints.length}`);
    for (const x of model.extraJoints) out.push(`  ${x.type} ${x.link1} - ${x.link2}`);
  }
  if (roles.joints.length > 0) {
    out.push(`roles: ${roles.joints.length} joints`);
    const width = Math.max(...roles.joints.map((r) => r.joint.length));
    for (const r of roles.joints) out.push(`  ${r.joint.padEnd(width)}  ${r.role}${r.actuated ? '' : ' (free)'}: ${r.reason}`);
    const d = roles.drive.drive;
    const s = roles.steering;
    if (s.drive) out.push(`drive: steering (${BICYCLE_STEERING_CONTROLLER}), steering ${s.drive.steering.joint}, traction ${s.drive.traction.map((w) => w.joint).join(', ')}; wheelbase ${num(s.drive.wheelbase)} m, traction wheel radius ${num(s.drive.radius)} m`);
    else if (s.reason) out.push(`drive: none (a steering joint and wheels fixed to the base, but ${s.reason})`);
    if (d) out.push(`drive: ${d.kind}, left ${d.left.map((w) => w.joint).join(', ')}, right ${d.right.map((w) => w.joint).join(', ')}; wheel_radius ${num(d.radius)} m, wheel_separation ${num(d.separation)} m`);
  }
  return `${out.join('\n')}\n`;
}

/** Exit status: 0 printed, 1 the model could not be loaded, 2 bad usage. */
export function runInfo(argv: string[], io: CommandIo): number {
  const args = parseModelCommand('info', INFO_USAGE, argv, io, { json: { type: 'boolean', default: false }, roles: { type: 'string' } });
  if (typeof args === 'number') return args;
  const model = loadForCommand(args.file, { packagePath: args.packagePath }, io);
  if (model === undefined) return 1;
  let roles = inferRoles(model);
  for (const w of roles.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
  const file = args.values.roles;
  if (file !== undefined) {
    try {
      roles = applyRoles(roles, readRolesFile(readFileSync(file, 'utf8'), file, model, roles), file);
    } catch (e) {
      io.stderr(`${e instanceof ModelLoadError ? e.message : `body-bridge info: --roles ${file}: ${(e as Error).message}`}\n`);
      return 1;
    }
  }
  io.stdout(args.values.json ? `${JSON.stringify(infoJson(model, roles), null, 2)}\n` : infoText(model, roles));
  return 0;
}

export const infoCommand: Command = { name: 'info', summary: 'the link tree, joints, mass properties and devices of a model', run: runInfo };
