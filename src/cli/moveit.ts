// `body-bridge moveit <model> -o DIR [--groups FILE] ...`: a MoveIt 2 configuration (SRDF, joint limits,
// kinematics, controllers, README) for the URDF `body-bridge urdf` writes with the same conventions.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelLoadError } from '../model/errors.js';
import { DEFAULT_SAMPLES } from '../moveit/collision-matrix.js';
import { type MoveItOptions, moveItConfig } from '../moveit/config.js';
import { readGroupsFile } from '../moveit/groups-file.js';
import { inferRoles } from '../roles/roles.js';
import { applyRoles, readRolesFile } from '../roles/roles-file.js';
import { MOVEIT_DISTROS, type MoveItDistro } from '../moveit/ompl.js';
import { STEP } from '../moveit/motion-check.js';
import { DEFAULT_BARRIER_SAMPLES } from '../moveit/planning-ranges.js';
import { writeFileAtomic } from '../urdf/index.js';
import { CONVENTION_USAGE, type Command, type CommandIo, conventionOptions, loadRosModel, parseModelCommand, processIo, rosDistroOf } from './command.js';

export const MOVEIT_USAGE = `usage: body-bridge moveit <model> -o DIR [--groups FILE] [--roles FILE] [--samples N] [--barrier-samples N] [--motion-step M] [--seed N] [--virtual-parent FRAME] [--acceleration A] [--package-path DIR]...
  -o, --output DIR        write <robot>.srdf, joint_limits.yaml, kinematics.yaml, ompl_planning.yaml,
                          moveit_controllers.yaml and README.md into DIR (a MoveIt config package's config/ folder)
  --groups FILE           YAML planning groups and end effectors replacing (same name) or adding to the inferred
                          ones; "replace: true" drops the inferred ones (docs/moveit.md)
  --roles FILE            joint roles replacing inferred ones (JOINT: ROLE), as body-bridge control takes them:
                          groups hold only joints MoveIt may move (no wheel, track, caster or free joint)
  --samples N             random states for the "never in collision" test (default ${DEFAULT_SAMPLES}, as MoveIt's Setup Assistant)
  --barrier-samples N     random states that must all collide for a joint to stop at an angle; joints turning
                          more than a full turn get a planning range in joint_limits.yaml from home to where
                          they stop (default ${DEFAULT_BARRIER_SAMPLES}; 0: keep every joint's limits)
  --motion-step M         metres a point of the robot may move between the states OMPL checks for collisions
                          (longest_valid_segment_fraction per group; default ${STEP}; 0: MoveIt's usual 0.005)
  --seed N                seed of the random states (default 0): the same seed gives the same SRDF
  --virtual-parent FRAME  parent frame of the floating virtual joint of a free root: world (default) or odom
  --ros-distro D          humble or jazzy: MoveIt's parameter names in ompl_planning.yaml (default: $ROS_DISTRO, else humble)
  --fix-start-state-bounds
                          jazzy: plan from a start state whose joints lie up to 0.1 past their limits through
                          body_bridge/FixStartStateBounds (built with the package when MoveIt was there; the launch
                          files pass this when it is installed), not MoveIt's CheckStartStateBounds, which refuses
                          such a state. Humble's MoveIt does so with its own FixStartStateBounds
  --acceleration A        acceleration limit for every joint in joint_limits.yaml (rad/s², m/s²; default: each joint's velocity limit / 0.5 s)
${CONVENTION_USAGE}  --package-path DIR      directory holding ROS packages (for package:// in the model); repeatable
`;

const nonNegativeInteger = (s: string): number | null => (/^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null);

/** Exit status: 0 written, 1 the model, the groups file or the output failed, 2 bad usage. */
export async function runMoveit(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseModelCommand('moveit', MOVEIT_USAGE, argv, io, {
    output: { type: 'string', short: 'o' },
    groups: { type: 'string' },
    roles: { type: 'string' },
    samples: { type: 'string', default: String(DEFAULT_SAMPLES) },
    'barrier-samples': { type: 'string', default: String(DEFAULT_BARRIER_SAMPLES) },
    'motion-step': { type: 'string', default: String(STEP) },
    seed: { type: 'string', default: '0' },
    'virtual-parent': { type: 'string', default: 'world' },
    acceleration: { type: 'string' },
    'ros-distro': { type: 'string' },
    'fix-start-state-bounds': { type: 'boolean', default: false },
    ...conventionOptions,
  });
  if (typeof args === 'number') return args;
  const { values, packagePath } = args;
  const usageError = (message: string): number => {
    io.stderr(`body-bridge moveit: ${message}\n${MOVEIT_USAGE}`);
    return 2;
  };
  if (values.output === undefined) return usageError('-o DIR is required');
  const samples = nonNegativeInteger(values.samples);
  if (samples === null) return usageError(`--samples ${values.samples}: expected a whole number ≥ 0`);
  const barrierSamples = nonNegativeInteger(values['barrier-samples']);
  if (barrierSamples === null) return usageError(`--barrier-samples ${values['barrier-samples']}: expected a whole number ≥ 0`);
  const motionStep = Number(values['motion-step']);
  if (!/^\d*\.?\d+(e-?\d+)?$/i.test(values['motion-step']) || !Number.isFinite(motionStep)) return usageError(`--motion-step ${values['motion-step']}: expected a length in metres ≥ 0`);
  const seed = nonNegativeInteger(values.seed);
  if (seed === null || seed > 0xffffffff) return usageError(`--seed ${values.seed}: expected a whole number in [0, 4294967295]`);
  const virtualParent = values['virtual-parent'];
  if (!/^[A-Za-z_][A-Za-z0-9_/]*$/.test(virtualParent)) return usageError(`--virtual-parent ${virtualParent}: expected a frame name such as world or odom`);
  let acceleration: number | undefined;
  if (values.acceleration !== undefined) {
    acceleration = Number(values.acceleration);
    if (!(acceleration > 0) || !Number.isFinite(acceleration)) return usageError(`--acceleration ${values.acceleration}: expected a positive number`);
  }
  let distro: MoveItDistro;
  try {
    distro = rosDistroOf(values['ros-distro'], io.env, MOVEIT_DISTROS);
  } catch (e) {
    return usageError((e as Error).message);
  }
  const ros = loadRosModel(args.file, values, packagePath, io, usageError);
  if (typeof ros === 'number') return ros;
  const options: MoveItOptions = { samples, barrierSamples, motionStep, seed, virtualParent, distro, fixStartStateBounds: values['fix-start-state-bounds'], ...(acceleration !== undefined ? { acceleration } : {}) };
  if (values.roles !== undefined) {
    const file = values.roles;
    try {
      const inferred = inferRoles(ros.model);
      options.roles = applyRoles(inferred, readRolesFile(readFileSync(file, 'utf8'), file, ros.model, inferred), file);
    } catch (e) {
      io.stderr(`${e instanceof ModelLoadError ? e.message : `body-bridge moveit: --roles ${file}: ${(e as Error).message}`}\n`);
      return 1;
    }
  }
  if (values.groups !== undefined) {
    let text: string;
    try {
      text = readFileSync(values.groups, 'utf8');
    } catch (e) {
      io.stderr(`body-bridge moveit: --groups ${values.groups}: ${(e as Error).message}\n`);
      return 1;
    }
    try {
      options.groups = { file: readGroupsFile(text, values.groups, ros.model), name: values.groups };
    } catch (e) {
      if (!(e instanceof ModelLoadError)) throw e;
      io.stderr(`${e.message}\n`);
      return 1;
    }
  }
  let config;
  try {
    config = moveItConfig(ros, options);
  } catch (e) {
    // A groups file naming a group that does not exist ends here, located in the file.
    if (!(e instanceof ModelLoadError)) throw e;
    io.stderr(`${e.message}\n`);
    return 1;
  }
  for (const x of config.matrix.incomplete) io.stderr(`body-bridge moveit: warning: link ${x.link}: ${x.why.join('; ')}; its pairs are checked unless adjacent\n`);
  try {
    mkdirSync(values.output, { recursive: true });
    // Everything is computed before the first byte is written; each file is replaced atomically.
    for (const f of config.files) await writeFileAtomic(join(values.output, f.name), f.text);
  } catch (e) {
    io.stderr(`body-bridge moveit: ${(e as Error).message}\n`);
    return 1;
  }
  const m = config.matrix;
  io.stderr(
    `body-bridge moveit: wrote ${config.files.map((f) => f.name).join(', ')} in ${values.output}; ` +
      `${config.semantic.groups.length} groups, ${m.disabled.length} of ${(m.links.length * (m.links.length - 1)) / 2} link pairs disabled; ` +
      `collision matrix in ${(m.millis / 1000).toFixed(2)} s (${m.neverSamples} samples: ${(m.neverMillis / 1000).toFixed(2)} s)\n`,
  );
  return 0;
}

export const moveitCommand: Command = { name: 'moveit', summary: 'write a MoveIt 2 configuration (SRDF, limits, kinematics, controllers)', run: runMoveit };
