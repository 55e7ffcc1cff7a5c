// `body-bridge tf <model> [--joint NAME=VALUE]... [--initial] [--json]`: the pose of every frame
// (links, devices, optical and scan frames) for given joint values, from the same frame tree the
// URDF and the node use.
import { type Frame, framePoses, frameTree } from '../kinematics/frames.js';
import { quaternionFromMatrix, rpyFromMatrix } from '../model/math.js';
import { applyRosConventions } from '../model/ros-conventions.js';
import type { Mat3, Pose, RobotModel, Vec3 } from '../model/types.js';
import { CONVENTION_USAGE, type CommandIo, conventionOptions, conventionsOf, loadForCommand, parseModelCommand, processIo } from './command.js';

export const TF_USAGE = `usage: body-bridge tf <model> [--joint NAME=VALUE]... [--initial] [--json] [--package-path DIR]...
  --joint NAME=VALUE   joint position in SI units (rad or m); repeatable. Other joints are at 0
  --initial            other joints at their initial positions instead of 0
  --json               {root, frames: [{name, parent, local: {xyz, rotation}, root: {xyz, rotation}}]};
                       rotation is a 3x3 matrix as rows, child -> parent; root = pose in the root link's frame
  --world-frame NAME   as for \`urdf\` (only changes which frames the conventions below add)
${CONVENTION_USAGE}`;

export interface TfFrameJson {
  name: string;
  parent: string | null;
  kind: Frame['kind'];
  local: { xyz: Vec3; rotation: Mat3 };
  root: { xyz: Vec3; rotation: Mat3 };
}

export interface TfJson {
  root: string;
  joints: Record<string, number>;
  frames: TfFrameJson[];
}

/** Joint positions from `--joint` values over zeros or initial positions. Throws RangeError on a bad name or value. */
export function jointPositions(model: RobotModel, assignments: readonly string[], initial: boolean): Map<string, number> {
  // The joints that move a frame: revolute and prismatic ones, and tracks (their surfaces turn with them).
  const movable = new Map<string, number>();
  for (const f of frameTree(model)) {
    if (f.moving && f.link) movable.set(f.link.joint.name, initial ? f.link.joint.initial : 0);
  }
  for (const a of assignments) {
    const eq = a.lastIndexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    const text = eq < 0 ? '' : a.slice(eq + 1).trim();
    const value = text === '' ? NaN : Number(text);
    if (!movable.has(name)) {
      throw new RangeError(`--joint ${a}: "${name}" is not a revolute or prismatic joint or a track of the model (joints: ${[...movable.keys()].join(', ') || 'none'})`);
    }
    if (!Number.isFinite(value)) throw new RangeError(`--joint ${a}: expected NAME=VALUE with a finite number`);
    movable.set(name, value);
  }
  return movable;
}

export function tfJson(model: RobotModel, q: ReadonlyMap<string, number>): TfJson {
  const frames = frameTree(model);
  const poses = framePoses(frames, q);
  const json = (p: Pose): { xyz: Vec3; rotation: Mat3 } => ({ xyz: p.translation, rotation: p.rotation });
  return {
    root: model.root,
    joints: Object.fromEntries(q),
    frames: frames.map((f) => {
      const p = poses.get(f.name)!;
      return { name: f.name, parent: f.parent, kind: f.kind, local: json(p.local), root: json(p.root) };
    }),
  };
}

const fixed = (x: number): string => (Object.is(x, -0) ? 0 : x).toFixed(6).padStart(11);

/** A table: frame, parent, position and roll-pitch-yaw / quaternion in the root link's frame. */
export function tfText(tf: TfJson): string {
  const lines = [`# poses in the root link "${tf.root}" frame: x y z (m), roll pitch yaw (rad), quaternion x y z w`];
  const width = Math.max(5, ...tf.frames.map((f) => f.name.length));
  for (const f of tf.frames) {
    const rpy = rpyFromMatrix(f.root.rotation);
    const q = quaternionFromMatrix(f.root.rotation);
    lines.push(
      `${f.name.padEnd(width)} ${(f.parent ?? '-').padEnd(width)} ${f.root.xyz.map(fixed).join('')} ${rpy.map(fixed).join('')} ${[q.x, q.y, q.z, q.w].map(fixed).join('')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Warnings for values outside a joint's range: used as given (robot_state_publisher does not clamp either). */
export function outOfRange(model: RobotModel, q: ReadonlyMap<string, number>, assigned: readonly string[]): string[] {
  const named = new Set(assigned.map((a) => (a.lastIndexOf('=') < 0 ? a : a.slice(0, a.lastIndexOf('=')))));
  const out: string[] = [];
  for (const l of model.links) {
    const v = q.get(l.joint.name);
    if (l.parent === null || v === undefined || !named.has(l.joint.name)) continue;
    if (v < l.joint.lower || v > l.joint.upper) {
      out.push(`--joint ${l.joint.name}=${v} is outside the joint's range [${l.joint.lower}, ${l.joint.upper}]; used as given`);
    }
  }
  return out;
}

/** Exit status: 0 printed, 1 the model could not be loaded, 2 bad usage (including unknown joints). */
export async function runTf(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseModelCommand('tf', TF_USAGE, argv, io, {
    joint: { type: 'string', multiple: true, default: [] },
    initial: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'world-frame': { type: 'string', default: '' },
    ...conventionOptions,
  });
  if (typeof args === 'number') return args;
  let conventions;
  try {
    conventions = conventionsOf(args.values, args.values['world-frame']);
  } catch (e) {
    io.stderr(`body-bridge tf: ${(e as Error).message}\n${TF_USAGE}`);
    return 2;
  }
  const loaded = loadForCommand(args.file, { packagePath: args.packagePath, shapes: false }, io);
  if (loaded === undefined) return 1;
  const { model } = applyRosConventions(loaded, conventions);
  let q: Map<string, number>;
  try {
    q = jointPositions(model, args.values.joint, args.values.initial);
  } catch (e) {
    io.stderr(`body-bridge tf: ${(e as Error).message}\n`);
    return 2;
  }
  for (const w of outOfRange(model, q, args.values.joint)) io.stderr(`body-bridge tf: warning: ${w}\n`);
  const tf = tfJson(model, q);
  io.stdout(args.values.json ? `${JSON.stringify(tf, null, 2)}\n` : tfText(tf));
  return 0;
}
