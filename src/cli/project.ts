// `body-bridge project <project.cnoid> [--json] [--share DIR]`: what a Choreonoid project means — each body item's
// model, where its root is now and where a simulation starts it, its joint positions, fixed or free root, and the
// choreonoid_ros items under it (src/project/, docs/project.md).
import { parseArgs } from 'node:util';
import { ModelLoadError, formatDiagnostic } from '../model/errors.js';
import { rpyFromMatrix } from '../model/math.js';
import type { Diagnostic, Mat3, Pose, Vec3 } from '../model/types.js';
import { DEFAULT_ROS2_CONTROL_MODE, launchPlan, readProject, SHARE_ENV, type Project, type ProjectBody, type ProjectOptions } from '../project/index.js';
import { simulatorsStarted } from '../project/simulator-item.js';
import { writeFileAtomic } from '../urdf/index.js';
import type { Command, CommandIo } from './command.js';
import { launchPlanJson, planDiagnostics, planRviz, poseSourcesOf } from './launch-plan.js';
import { isControlMode } from '../control/modes.js';

export const PROJECT_USAGE = `usage: body-bridge project <project.cnoid> [--json] [--share DIR] [--path-variable NAME=DIR]... [--package-path DIR]...
       body-bridge project <project.cnoid> --launch-plan [--rviz FILE] [--placement-topic BODY=TOPIC]...
                           [--placement-topic-type BODY=odometry|pose_stamped]... [--planning-robot BODY]
                           [--ros2-control-mode MODE] [--share DIR] [--path-variable NAME=DIR]...
  --share DIR               Choreonoid's share directory, for \${SHARE} (default: $${SHARE_ENV}, else the share of
                            the choreonoid found on PATH)
  --path-variable NAME=DIR  a user path variable \${NAME}, as Choreonoid's option of that name; repeatable
  --json                    {file, share, worlds[], bodies[], diagnostics[]}: poses as {xyz, rotation} (3x3 rows,
                            child to parent), joint positions by joint name (rad or m)
  --package-path DIR        directory holding ROS packages, for package:// URIs in the models; repeatable
  exit status 0 when every body item loads, 1 when the project cannot be read or a body item does not load (the
  others are still shown), 2 for bad usage. Located errors and warnings go to stderr as file:line:column.

  --launch-plan             instead, what project.launch.py starts, as JSON: per body its node (namespace, name),
                            its parameters (body_file, frame_prefix, placement in world, initial joints, ...) and
                            warnings; the bodies left out with their errors; with --planning-robot, how
                            moveit.launch.py serves that body. Exit 0 when at least one body is served (bodies that
                            fail are left out and reported), 1 when none is or the planning robot cannot be served
  --rviz FILE               also write the rviz2 view of every served body there
  --placement-topic BODY=TOPIC       a free root's pose source (nav_msgs/Odometry unless said otherwise); repeatable
  --placement-topic-type BODY=TYPE   odometry or pose_stamped (geometry_msgs/PoseStamped in world)
  --planning-robot BODY     the body item MoveIt plans for among the project's static bodies
  --ros2-control-mode MODE  the <ros2_control> mode of bodies under a ROS2ControlItem (default ${DEFAULT_ROS2_CONTROL_MODE})
`;

/** A choreonoid_ros item as JSON: its fields in snake_case, without its place in the file. */
function rosJson(item: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(item)
      .filter(([k]) => k !== 'at')
      .map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );
}

const bodyRosJson = (ros: ProjectBody['ros']): Record<string, unknown> => ({
  ...(ros.bodyRos2 ? { body_ros2: rosJson(ros.bodyRos2) } : {}),
  ...(ros.ros2Control ? { ros2_control: rosJson(ros.ros2Control) } : {}),
});

interface PoseJson {
  xyz: Vec3;
  rotation: Mat3;
}
const poseJson = (p: Pose): PoseJson => ({ xyz: p.translation, rotation: p.rotation });

/** The JSON form: the project's meaning with each model summarised (its file, name and size), not dumped. */
export function projectJson(project: Project): unknown {
  return {
    file: project.file,
    share: project.shareDirectory,
    worlds: project.worlds.map((w) => ({ item_name: w.itemName, item_path: w.itemPath, ros: w.ros.worldRos2 ? { world_ros2: rosJson(w.ros.worldRos2) } : {} })),
    simulators: project.simulators.map((s) => ({
      item_name: s.itemName,
      item_path: s.itemPath,
      world: s.world,
      class: s.className,
      selected: s.selected,
      started: simulatorsStarted(project.simulators).includes(s),
      time_step: s.timeStep.value,
      time_step_from: s.timeStep.source,
      ...(s.integration ? { integration: s.integration } : {}),
    })),
    bodies: project.bodies.map((b) => {
      const common = { item_name: b.itemName, item_path: b.itemPath, world: b.world, model_file: b.modelFile, path: b.path, loaded: b.kind === 'loaded' };
      if (b.kind === 'failed') return { ...common, errors: b.errors, warnings: b.warnings };
      return {
        ...common,
        body_name: b.bodyName,
        model_name: b.model.name,
        links: b.model.links.length,
        root_link: b.model.root,
        root_pose: poseJson(b.rootPose),
        initial_root_pose: poseJson(b.initialRootPose),
        joint_positions: b.jointPositions,
        initial_joint_positions: b.initialJointPositions,
        root_joint_type: b.rootJointType,
        fixed_root: b.fixedRoot,
        static_model: b.staticModel,
        ...(b.linkage ? { linkage: { parent_item_path: b.linkage.parentItemPath, kind: b.linkage.kind, parent_link: b.linkage.parentLink ?? null } } : {}),
        ros: bodyRosJson(b.ros),
        warnings: b.warnings,
      };
    }),
    diagnostics: project.diagnostics,
  };
}

/** A number for people: at most 6 decimals, no trailing zeros, no -0. */
const num = (x: number): string => {
  const s = Number(x.toFixed(6)).toString();
  return s === '-0' ? '0' : s;
};
const poseText = (p: Pose): string => `xyz ${p.translation.map(num).join(' ')}  rpy ${rpyFromMatrix(p.rotation).map(num).join(' ')}`;

function bodyText(b: ProjectBody, indent: string): string[] {
  const lines = [`${indent}body item "${b.itemName}" (${b.itemPath})${b.kind === 'failed' ? ': NOT LOADED' : ''}`];
  const at = `${indent}  `;
  if (b.modelFile !== null) lines.push(`${at}model    ${b.modelFile}${b.path !== null && b.path !== b.modelFile ? `\n${at}         = ${b.path}` : ''}`);
  if (b.kind === 'failed') {
    for (const e of b.errors) lines.push(`${at}${formatDiagnostic(e)}`);
    return lines;
  }
  const joints = Object.keys(b.jointPositions);
  lines.push(`${at}body     "${b.bodyName}" (model ${b.model.name}): ${b.model.links.length} link${b.model.links.length === 1 ? '' : 's'}, root ${b.model.root} ${b.fixedRoot ? 'fixed' : b.rootJointType}${b.staticModel ? ' (static: does not move)' : ''}`);
  lines.push(`${at}root     ${poseText(b.rootPose)}   (now)`);
  lines.push(`${at}initial  ${poseText(b.initialRootPose)}   (where a simulation starts it)`);
  if (b.linkage) lines.push(`${at}linkage  ${b.linkage.kind} to ${b.linkage.parentItemPath}${b.linkage.parentLink ? `, link ${b.linkage.parentLink}` : ''}`);
  if (joints.length > 0) {
    const width = Math.max(...joints.map((j) => j.length));
    lines.push(`${at}joints   (rad or m; initial where a simulation starts it, if different)`);
    for (const j of joints) {
      const q = b.jointPositions[j]!;
      const q0 = b.initialJointPositions[j]!;
      lines.push(`${at}  ${j.padEnd(width)}  ${num(q)}${q0 !== q ? `   initial ${num(q0)}` : ''}`);
    }
  }
  const { bodyRos2, ros2Control } = b.ros;
  if (bodyRos2) lines.push(`${at}ros      BodyROS2Item "${bodyRos2.itemName}": namespace ${bodyRos2.namespace}, joint_states at ${num(bodyRos2.jointStateUpdateRate)} Hz`);
  if (ros2Control) {
    lines.push(`${at}ros      ROS2ControlItem "${ros2Control.itemName}": namespace "${ros2Control.namespace}", ${ros2Control.controllerManager}, URDF from ${ros2Control.robotStatePublisher} (Humble) or the topic ${ros2Control.robotDescriptionTopic} (later)`);
  }
  return lines;
}

/** The human report: the worlds with their bodies, then the bodies outside any world. */
export function projectText(project: Project): string {
  const lines = [`project ${project.file}`, `  \${SHARE} = ${project.shareDirectory ?? '(not known)'}`];
  for (const w of project.worlds) {
    lines.push('', `world item "${w.itemName}" (${w.itemPath})`);
    const clock = w.ros.worldRos2;
    if (clock) lines.push(`  ros      WorldROS2Item "${clock.itemName}": node /${clock.nodeName}, /clock at most ${num(clock.maxClockPublishingRate)} Hz`);
    const started = simulatorsStarted(project.simulators);
    for (const s of project.simulators.filter((x) => x.world === w.itemPath)) {
      const step = s.timeStep.value === null ? 'no usable time step' : `step ${num(s.timeStep.value)} s (${s.timeStep.source.replace('_', ' ')})`;
      lines.push(`  sim      ${s.className} "${s.itemName}": ${step}${s.integration ? `, ${s.integration.replace(/_/g, ' ')}` : ''}${started.includes(s) ? ', runs on --start-simulation' : ''}`);
    }
    for (const b of project.bodies.filter((x) => x.world === w.itemPath)) lines.push('', ...bodyText(b, '  '));
  }
  const outside = project.bodies.filter((b) => b.world === null);
  if (outside.length > 0) {
    lines.push('', 'outside any world');
    for (const b of outside) lines.push('', ...bodyText(b, '  '));
  }
  if (project.bodies.length === 0) lines.push('', 'no body items');
  return `${lines.join('\n')}\n`;
}

/** Every warning and error once, models' own warnings once per model file. */
function diagnosticsOf(project: Project): Diagnostic[] {
  const out: Diagnostic[] = [...project.diagnostics];
  const models = new Set<string>();
  for (const b of project.bodies) {
    if (b.kind === 'loaded' && !models.has(b.model.sourceFile)) {
      models.add(b.model.sourceFile);
      out.push(...b.model.warnings);
    }
    out.push(...b.warnings);
    if (b.kind === 'failed') out.push(...b.errors);
  }
  return out;
}

export async function runProject(argv: string[], io: CommandIo): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        share: { type: 'string' },
        'path-variable': { type: 'string', multiple: true, default: [] },
        'package-path': { type: 'string', multiple: true, default: [] },
        'launch-plan': { type: 'boolean', default: false },
        rviz: { type: 'string' },
        'placement-topic': { type: 'string', multiple: true, default: [] },
        'placement-topic-type': { type: 'string', multiple: true, default: [] },
        'planning-robot': { type: 'string' },
        'ros2-control-mode': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.stderr(`body-bridge project: ${(e as Error).message}\n${PROJECT_USAGE}`);
    return 2;
  }
  if (args.values.help) {
    io.stdout(PROJECT_USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) {
    io.stderr(`body-bridge project: expected exactly one project file\n${PROJECT_USAGE}`);
    return 2;
  }
  const pathVariables: Record<string, string[]> = {};
  for (const v of args.values['path-variable']) {
    const eq = v.indexOf('=');
    if (eq <= 0 || !/^[A-Za-z0-9_]+$/.test(v.slice(0, eq))) {
      io.stderr(`body-bridge project: --path-variable ${v}: expected NAME=DIR (NAME of letters, digits and _)\n`);
      return 2;
    }
    (pathVariables[v.slice(0, eq)] ??= []).push(v.slice(eq + 1));
  }
  const planOnly = ['rviz', 'placement-topic', 'placement-topic-type', 'planning-robot', 'ros2-control-mode'] as const;
  const misplaced = planOnly.find((o) => { const v = args.values[o]; return Array.isArray(v) ? v.length > 0 : v !== undefined; });
  if (misplaced && !args.values['launch-plan']) {
    io.stderr(`body-bridge project: --${misplaced} goes with --launch-plan\n${PROJECT_USAGE}`);
    return 2;
  }
  const sources = poseSourcesOf(args.values['placement-topic'], args.values['placement-topic-type']);
  if (typeof sources === 'string') {
    io.stderr(`body-bridge project: ${sources}\n`);
    return 2;
  }
  const mode = args.values['ros2-control-mode'];
  if (mode !== undefined && !isControlMode(mode)) {
    io.stderr(`body-bridge project: --ros2-control-mode ${mode}: not a ros2_control mode body_bridge writes\n`);
    return 2;
  }
  const options: ProjectOptions = { env: io.env, pathVariables, packagePath: args.values['package-path'], ...(args.values.share !== undefined ? { share: args.values.share } : {}) };
  let project: Project;
  try {
    project = readProject(args.positionals[0]!, options);
  } catch (e) {
    if (!(e instanceof ModelLoadError)) throw e;
    io.stderr(`${e.message}\n`);
    return 1;
  }
  if (args.values['launch-plan']) {
    const plan = launchPlan(project, {
      poseSources: sources,
      ...(args.values['planning-robot'] !== undefined ? { planningRobot: args.values['planning-robot'] } : {}),
      ...(mode !== undefined ? { ros2ControlMode: mode } : {}),
    });
    if (plan.unknownPoseSources.length > 0) {
      io.stderr(`body-bridge project: --placement-topic names ${plan.unknownPoseSources.join(', ')}, which the project does not serve (its bodies: ${plan.bodies.map((b) => b.itemName).join(', ') || 'none'})\n`);
      return 2;
    }
    const lines = new Set([...diagnosticsOf(project), ...planDiagnostics(plan)].map(formatDiagnostic));
    for (const line of lines) io.stderr(`${line}\n`);
    const rviz = args.values.rviz;
    if (rviz !== undefined) {
      const config = planRviz(project, plan);
      try {
        await writeFileAtomic(rviz, config.yaml);
      } catch (e) {
        io.stderr(`body-bridge project: ${(e as Error).message}\n`);
        return 1;
      }
      for (const topic of config.undrawn) io.stderr(`body-bridge project: ${topic} (sensor_msgs/Imu) has no display in rviz_default_plugins; not shown\n`);
    }
    io.stdout(`${JSON.stringify(launchPlanJson(plan, rviz ?? null), null, 2)}\n`);
    if (plan.planningProblem) {
      io.stderr(`body-bridge project: cannot plan for ${args.values['planning-robot']}: ${plan.planningProblem}\n`);
      return 1;
    }
    if (plan.bodies.length === 0) {
      io.stderr(`body-bridge project: no body of ${project.file} can be served\n`);
      return 1;
    }
    io.stderr(`body-bridge project: ${plan.bodies.length} bod${plan.bodies.length === 1 ? 'y' : 'ies'} to serve${plan.leftOut.length > 0 ? `, ${plan.leftOut.length} left out (${plan.leftOut.map((b) => b.itemName).join(', ')})` : ''}${rviz !== undefined ? `; rviz view in ${rviz}` : ''}\n`);
    return 0;
  }
  const diagnostics = diagnosticsOf(project);
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  io.stdout(args.values.json ? `${JSON.stringify(projectJson(project), null, 2)}\n` : projectText(project));
  const problem = diagnostics.some((d) => d.severity === 'error');
  return problem ? 1 : 0;
}

export const projectCommand: Command = {
  name: 'project',
  summary: "read a Choreonoid project (.cnoid) as Choreonoid does: each body's model, root pose, joints, ROS items",
  run: runProject,
};
