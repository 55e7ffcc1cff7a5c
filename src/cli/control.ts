// `body-bridge control <model> -o DIR [--mode MODE] [--joint-mode JOINT=MODE]... [--gains FILE] ...`: the
// ros2_control configuration choreonoid_ros's ROS2ControlItem runs — the <ros2_control> block, the PD gains,
// the controllers file and a README — for the URDF `body-bridge urdf --ros2-control MODE` writes and the
// MoveIt configuration `body-bridge moveit` writes with the same conventions.
import { mkdirSync, readFileSync } from 'node:fs';
import { Document, visit } from 'yaml';
import { join, resolve } from 'node:path';
import { type ControlOptions, ControlConfigError, controlConfig } from '../control/config.js';
import { CONTROL_DISTROS, type ControlDistro, DIFF_DRIVE_CONTROLLER } from '../control/controllers.js';
import { readGainsFile } from '../control/gains-file.js';
import { DEFAULT_BANDWIDTH, DEFAULT_DAMPING, DEFAULT_MAX_SAG, DEFAULT_TIME_STEP } from '../control/gains.js';
import { DEFAULT_LOAD_SAMPLES } from '../control/joint-loads.js';
import { CONTROL_MODES, type ControlMode, DEFAULT_CONTROL_MODE, chooseModes, isControlMode, parseJointModes } from '../control/modes.js';
import { type RoleAnalysis, inferRoles } from '../roles/roles.js';
import { applyRoles, readRolesFile } from '../roles/roles-file.js';
import { ModelLoadError, formatDiagnostic } from '../model/errors.js';
import { planningGroups } from '../moveit/config.js';
import { readGroupsFile } from '../moveit/groups-file.js';
import { type LoadedProjectBody, readProject, SHARE_ENV, simulatedBodyParameters, type Project } from '../project/index.js';
import { checkSimulationProject } from '../project/simulation-check.js';
import { deviceNamingScript, generatedProjectParameters, namelessDeviceNames, simulationBodyItemName, simulationProject } from '../project/simulation-project.js';
import { floorLift } from '../roles/ground.js';
import { writeFileAtomic } from '../urdf/index.js';
import { CONVENTION_USAGE, type Command, type CommandIo, conventionOptions, loadRosModel, parseModelCommand, processIo, rosDistroOf } from './command.js';

/** The project `--project` writes into DIR. */
export const PROJECT_FILE = 'simulation.cnoid';
/** With --project-file: body_bridge's parameters for the body in that project (simulatedBodyParameters). */
export const NODE_PARAMETERS_FILE = 'body_bridge.params.yaml';

export const CONTROL_USAGE = `usage: body-bridge control <model> -o DIR [--mode MODE] [--joint-mode JOINT=MODE]... [--gains FILE] [--bandwidth HZ] [--damping Z] [--max-sag S] [--time-step T] ...
  -o, --output DIR        write ros2_control.xml (the <ros2_control> block), choreonoid_ros2_control.yaml (PD gains),
                          ros2_controllers.yaml and README.md into DIR
  --mode MODE             every joint's command interface: ${CONTROL_MODES.join(', ')} (default ${DEFAULT_CONTROL_MODE};
                          drive wheels take its velocity form)
  --joint-mode J=MODE     one joint's mode instead; repeatable
  --gains FILE            P and D per joint replacing the model's (the gains file's own form; docs/control.md)
  --bandwidth HZ          position and velocity loops' bandwidth at the heaviest load (default ${DEFAULT_BANDWIDTH})
  --damping Z             damping ratio at the heaviest load (default ${DEFAULT_DAMPING})
  --max-sag S             largest static error under gravity, rad or m (default ${DEFAULT_MAX_SAG})
  --time-step T           the simulation step in s (default ${DEFAULT_TIME_STEP}); controller_manager runs every step
  --samples N             random configurations the loads are taken over (default ${DEFAULT_LOAD_SAMPLES})
  --seed N                their seed (default 0)
  --groups FILE           planning groups as for body-bridge moveit (one trajectory controller per group)
  --roles FILE            joint roles replacing inferred ones (JOINT: ROLE per line; roles: drive_wheel, track,
                          steering, wheel, caster, flipper, head, arm, gripper, leg, joint, passive); README.md
                          lists each joint's role and the fact that decided it
  --namespace NS          ROS2ControlItem's namespace: '' (default) or absolute, /robot1
  --frame-prefix P        body_bridge's frame_prefix, for the drive's odometry frames
  --ros-distro D          ${CONTROL_DISTROS.join(' or ')} (default: $ROS_DISTRO, else humble)
  --project               also write ${PROJECT_FILE}: a Choreonoid project simulating the model with these
                          (AIST simulator at --time-step, floor, BodyROS2Item, ROS2ControlItem, WorldROS2Item);
                          with name_devices.py for nameless devices and ${NODE_PARAMETERS_FILE} where the node's
                          defaults would not match it (a renamed item, a free body placed on the floor, a driven
                          base placed in that project's world as below)
  --project-file FILE     the user's own project instead: checked for what ros2_control needs there (a
                          ROS2ControlItem under the model's BodyItem, its namespace, WorldROS2Item, a simulator),
                          its simulation step and namespace taken unless given; also writes
                          ${NODE_PARAMETERS_FILE}: the body placed in world where the project starts it and
                          the project's static bodies for MoveIt's planning scene; a driven base gets REP-105's
                          world → odom there instead (its drive publishes odom → base), the floor it stands
                          on allowed against its wheels in MoveIt's collision matrix
  --share DIR             Choreonoid's share directory, for \${SHARE} in that project (default: $${SHARE_ENV},
                          else the share of the choreonoid found on PATH)
${CONVENTION_USAGE}  --package-path DIR      directory holding ROS packages (for package:// in the model); repeatable
`;

const positive = (s: string): number | null => {
  const x = Number(s);
  return /^\s*$/.test(s) || !Number.isFinite(x) || !(x > 0) ? null : x;
};
const wholeNumber = (s: string): number | null => (/^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null);

/** The mode a `--mode`/`--ros2-control` value names, or a usage error message. */
export function modeArgument(option: string, value: string): ControlMode | string {
  return isControlMode(value) ? value : `${option} ${value}: expected one of ${CONTROL_MODES.join(', ')}`;
}

/** Exit status: 0 written, 1 the model, a file or the output failed, 2 bad usage. */
export async function runControl(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseModelCommand('control', CONTROL_USAGE, argv, io, {
    output: { type: 'string', short: 'o' },
    mode: { type: 'string', default: DEFAULT_CONTROL_MODE },
    'joint-mode': { type: 'string', multiple: true, default: [] as string[] },
    gains: { type: 'string' },
    bandwidth: { type: 'string', default: String(DEFAULT_BANDWIDTH) },
    damping: { type: 'string', default: String(DEFAULT_DAMPING) },
    'max-sag': { type: 'string', default: String(DEFAULT_MAX_SAG) },
    'time-step': { type: 'string' },
    samples: { type: 'string', default: String(DEFAULT_LOAD_SAMPLES) },
    seed: { type: 'string', default: '0' },
    groups: { type: 'string' },
    roles: { type: 'string' },
    namespace: { type: 'string' },
    'frame-prefix': { type: 'string', default: '' },
    'ros-distro': { type: 'string' },
    project: { type: 'boolean', default: false },
    'project-file': { type: 'string' },
    share: { type: 'string' },
    ...conventionOptions,
  });
  if (typeof args === 'number') return args;
  const { values, packagePath } = args;
  const usageError = (message: string): number => {
    io.stderr(`body-bridge control: ${message}\n${CONTROL_USAGE}`);
    return 2;
  };
  if (values.output === undefined) return usageError('-o DIR is required');
  const mode = modeArgument('--mode', values.mode);
  if (!isControlMode(mode)) return usageError(mode);
  const overrides = parseJointModes(values['joint-mode']);
  if (typeof overrides === 'string') return usageError(`--joint-mode ${overrides}`);
  const numbers: Record<string, number> = {};
  for (const name of ['bandwidth', 'damping', 'max-sag', 'time-step'] as const) {
    const given = values[name];
    if (given === undefined) continue;
    const x = positive(given);
    if (x === null) return usageError(`--${name} ${values[name]}: expected a positive number`);
    numbers[name] = x;
  }
  const samples = wholeNumber(values.samples);
  if (samples === null) return usageError(`--samples ${values.samples}: expected a whole number ≥ 0`);
  const seed = wholeNumber(values.seed);
  if (seed === null || seed > 0xffffffff) return usageError(`--seed ${values.seed}: expected a whole number in [0, 4294967295]`);
  if (values.project && values['project-file'] !== undefined) return usageError('--project (write a project) and --project-file (use one) exclude each other');
  let namespace = values.namespace ?? '';
  if (namespace !== '' && !/^(\/[A-Za-z_][A-Za-z0-9_]*)+$/.test(namespace)) {
    // A relative namespace is looked up twice over by ROS2ControlItem (robot1 → /robot1/robot1/robot_state_publisher).
    return usageError(`--namespace ${namespace}: expected '' or an absolute namespace such as /robot1 (ROS2ControlItem resolves a relative one inside itself)`);
  }
  if (!/^[A-Za-z0-9_/.-]*$/.test(values['frame-prefix'])) return usageError(`--frame-prefix ${values['frame-prefix']}: letters, digits, '_', '-', '.', '/' only`);
  let distro: ControlDistro;
  try {
    distro = rosDistroOf(values['ros-distro'], io.env, CONTROL_DISTROS);
  } catch (e) {
    return usageError((e as Error).message);
  }
  const ros = loadRosModel(args.file, values, packagePath, io, usageError);
  if (typeof ros === 'number') return ros;
  const readText = (option: string, file: string): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      io.stderr(`body-bridge control: ${option} ${file}: ${(e as Error).message}\n`);
      return null;
    }
  };
  let timeStep = numbers['time-step'] ?? DEFAULT_TIME_STEP;
  let simulated: { project: Project; body: LoadedProjectBody } | null = null;
  if (values['project-file'] !== undefined) {
    let project: Project;
    try {
      project = readProject(values['project-file'], { env: io.env, packagePath, ...(values.share !== undefined ? { share: values.share } : {}) });
    } catch (e) {
      if (!(e instanceof ModelLoadError)) throw e;
      io.stderr(`${e.message}\n`);
      return 1;
    }
    const check = checkSimulationProject(project, resolve(args.file), values.namespace !== undefined ? { namespace } : {});
    // What Choreonoid would not restore, then what ros2_control lacks there.
    const dropped = project.diagnostics.filter((d) => d.severity === 'error');
    for (const d of [...dropped, ...check.warnings, ...check.problems]) io.stderr(`${formatDiagnostic(d)}\n`);
    if (check.problems.length > 0) {
      io.stderr(`body-bridge control: ${values['project-file']} cannot simulate ${args.file} under ros2_control (${check.problems.length} problem${check.problems.length === 1 ? '' : 's'} above)\n`);
      return 1;
    }
    simulated = { project, body: check.body! };
    if (values.namespace === undefined) namespace = check.namespace;
    if (numbers['time-step'] === undefined && check.timeStep !== null) timeStep = check.timeStep;
    else if (check.timeStep !== null && Math.abs(check.timeStep - timeStep) > 1e-12) {
      io.stderr(`body-bridge control: warning: the project steps at ${check.timeStep} s; the gains are designed for --time-step ${timeStep} s\n`);
    }
  }
  let groupsFile;
  let userGains: ControlOptions['userGains'];
  let roles: RoleAnalysis = inferRoles(ros.model);
  try {
    if (values.roles !== undefined) {
      const text = readText('--roles', values.roles);
      if (text === null) return 1;
      roles = applyRoles(roles, readRolesFile(text, values.roles, ros.model, roles), values.roles);
    }
    if (values.groups !== undefined) {
      const text = readText('--groups', values.groups);
      if (text === null) return 1;
      groupsFile = { file: readGroupsFile(text, values.groups, ros.model), name: values.groups };
    }
    if (values.gains !== undefined) {
      const text = readText('--gains', values.gains);
      if (text === null) return 1;
      // The modes the joints will have, to tell a gain the item will not read.
      const modes = chooseModes(roles.joints, mode, overrides);
      const read = readGainsFile(text, values.gains, new Map(modes.joints.map((m) => [m.joint, m.mode])));
      for (const w of read.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
      userGains = { gains: read.gains, file: values.gains };
    }
  } catch (e) {
    if (!(e instanceof ModelLoadError)) throw e;
    io.stderr(`${e.message}\n`);
    return 1;
  }
  let config;
  try {
    config = controlConfig(ros, {
      mode,
      overrides,
      groups: planningGroups(ros, groupsFile, roles).groups,
      roles,
      bandwidth: numbers.bandwidth!,
      damping: numbers.damping!,
      maxSag: numbers['max-sag']!,
      timeStep,
      samples,
      seed,
      namespace,
      distro: distro,
      framePrefix: values['frame-prefix'],
      ...(userGains ? { userGains } : {}),
    });
  } catch (e) {
    if (e instanceof ControlConfigError) {
      io.stderr(`body-bridge control: ${e.message}\n`);
      return 1;
    }
    if (e instanceof ModelLoadError) {
      io.stderr(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
  for (const w of config.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
  const files = [...config.files];
  const driven = config.controllers.controllers.some((c) => c.name === DIFF_DRIVE_CONTROLLER);
  /** What the generated project does that the model alone does not say, for the report. */
  const notes: string[] = [];
  let nodeParameters: Record<string, unknown> | null = null;
  let parametersFor = '';
  if (values.project) {
    const root = ros.model.links[0]!;
    const free = root.joint.type === 'free';
    const modelName = ros.model.name || config.robot;
    const itemName = simulationBodyItemName(modelName);
    const lift = free ? floorLift(ros.model) : 0;
    const rootPose = lift !== 0 ? { ...root.offset, translation: [root.offset.translation[0], root.offset.translation[1], root.offset.translation[2] + lift] as typeof root.offset.translation } : root.offset;
    const names = namelessDeviceNames(ros.model);
    const script = names.length > 0 ? 'name_devices.py' : null;
    if (itemName !== modelName) notes.push(`the body item is named "${itemName}", not "${modelName}": choreonoid_ros's BodyROS2Item names its ROS node after the item, and rclcpp refuses "${modelName.replace(/-/g, '_')}"`);
    if (lift > 0) notes.push(`the free body starts ${lift.toFixed(4)} m above its model pose (root at z = ${rootPose.translation[2].toFixed(4)} m), so that its lowest collision geometry rests on the floor instead of starting inside it`);
    if (lift < 0) notes.push(`the free body starts ${(-lift).toFixed(4)} m below its model pose (root at z = ${rootPose.translation[2].toFixed(4)} m), so that its lowest collision geometry rests on the floor instead of dropping onto it`);
    if (script) notes.push(`${script} names ${names.length} nameless device${names.length === 1 ? '' : 's'} in the simulation (${names.map((n) => n.name).join(', ')}): BodyROS2Item would name ${names.length === 1 ? 'its topic' : 'their topics'} "/${itemName.replace(/-/g, '_')}/", which rclcpp refuses`);
    files.push({
      name: PROJECT_FILE,
      text: simulationProject({
        modelFile: resolve(args.file),
        bodyName: itemName,
        fixedRoot: !free,
        rootPose,
        selfCollision: ros.model.links.slice(1).some((l) => l.joint.type === 'free'),
        namespace,
        timeStep,
        ...(script ? { deviceNamingScript: resolve(values.output, script) } : {}),
      }),
    });
    if (script) files.push({ name: script, text: deviceNamingScript(itemName, names) });
    const given = generatedProjectParameters({ modelName, itemName, names, placedRootPose: lift !== 0 ? rootPose : null, driven, rootPose, projectFile: resolve(values.output, PROJECT_FILE) });
    if (Object.keys(given).length > 0) {
      nodeParameters = given;
      parametersFor = ` body_bridge's parameters for body item "${itemName}" of the generated ${PROJECT_FILE}, generated by body_bridge (docs/control.md): where they differ from the defaults.`;
    }
  }
  if (simulated) {
    const placed = simulatedBodyParameters(simulated.project, simulated.body, { driven });
    // An empty list has no ROS parameter type (rcl refuses it): left out, the node's default is empty.
    nodeParameters = Object.fromEntries(Object.entries(placed).filter(([, v]) => !(Array.isArray(v) && v.length === 0)));
    parametersFor = ` body_bridge's parameters for body item "${simulated.body.itemName}" of ${simulated.project.file}, generated by body_bridge (docs/control.md): placed in world where the project starts it; the project's static bodies in MoveIt's planning scene.`;
  }
  if (nodeParameters) {
    const doc = new Document({ '/**': { ros__parameters: nodeParameters } });
    doc.commentBefore = parametersFor;
    // Every number a double (placement [0.5, 0, ...] mixing 0 and 0.5 is no ROS parameter type).
    visit(doc, {
      Scalar(_, node) {
        if (typeof node.value === 'number') node.minFractionDigits = 1;
      },
    });
    files.push({ name: NODE_PARAMETERS_FILE, text: doc.toString({ lineWidth: 0 }) });
  }
  try {
    mkdirSync(values.output, { recursive: true });
    // Everything is computed before the first byte is written; each file is replaced atomically.
    for (const f of files) await writeFileAtomic(join(values.output, f.name), f.text);
  } catch (e) {
    io.stderr(`body-bridge control: ${(e as Error).message}\n`);
    return 1;
  }
  for (const n of notes) io.stderr(`body-bridge control: ${n}\n`);
  io.stderr(
    `body-bridge control: wrote ${files.map((f) => f.name).join(', ')} in ${values.output}; ` +
      `${config.block.modes.joints.length} joints, ${config.gains.joints.length} with gains (stability margin ${config.gains.margin.toFixed(2)} of 4), ` +
      `controllers ${config.controllers.controllers.map((c) => c.name + (c.active ? '' : ' (inactive)')).join(', ')}\n`,
  );
  return 0;
}

export const controlCommand: Command = { name: 'control', summary: 'write a ros2_control configuration for Choreonoid (block, PD gains, controllers)', run: runControl };
