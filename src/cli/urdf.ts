// `body-bridge urdf <model> [-o FILE] [--mesh-dir DIR] [--package-uris] [--world-frame NAME] [--package-path DIR]...`
// Prints the equivalent URDF (or writes it atomically to FILE) and writes its meshes into the mesh directory.
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { formatDiagnostic } from '../model/errors.js';
import { applyRosConventions } from '../model/ros-conventions.js';
import { defaultMeshDir, toUrdf, type UrdfOptions, writeUrdf } from '../urdf/index.js';
import { controlBlock } from '../control/config.js';
import { CONTROL_MODES, type ControlMode, isControlMode, parseJointModes } from '../control/modes.js';
import { withRos2Control } from '../control/ros2-control-block.js';
import { CONVENTION_USAGE, type CommandIo, conventionOptions, conventionsOf, loadForCommand, parseModelCommand, processIo } from './command.js';

export const URDF_USAGE = `usage: body-bridge urdf <model> [-o FILE] [--mesh-dir DIR] [--package-uris] [--mesh-format keep|stl] [--world-frame NAME] [--ros2-control MODE [--joint-mode J=MODE]...] [--package-path DIR]...
  -o, --output FILE     write the URDF to FILE (atomically) instead of stdout. Without --mesh-dir its meshes,
                        and copies of the mesh files the model references, go to FILE's folder in <name>_meshes/,
                        referenced by paths relative to FILE (package:// when FILE lies in a ROS package), so the
                        folder can be moved or copied to another machine
  --mesh-dir DIR        where generated meshes go (default without -o: $XDG_CACHE_HOME/body_bridge/meshes, file:// URIs)
  --package-uris        package:// URIs for meshes inside a ROS package on the package path
  --mesh-format FORMAT  keep (default): referenced meshes stay as they are (STL, COLLADA, OBJ); stl: OBJ meshes become
                        binary STL (web viewers such as urdf-loader read only STL and COLLADA), colour kept
  --world-frame NAME    add a NAME link joined to the root link (fixed root: fixed, free root: floating)
  --ros2-control MODE   add the <ros2_control> block choreonoid_ros's ROS2ControlItem reads, every joint in MODE
                        (${CONTROL_MODES.join(', ')}; drive wheels in its velocity form), as body-bridge control writes it
  --joint-mode J=MODE   one joint's mode instead; repeatable
${CONVENTION_USAGE}  --package-path DIR    directory holding ROS packages (for package:// in the model and in the URDF); repeatable
`;

/** The ROS package a directory lies in: its nearest folder with a package.xml, or null. */
function enclosingPackage(dir: string): string | null {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'package.xml'))) return d;
    if (dirname(d) === d) return null;
  }
}

/** Exit status: 0 written, 1 the model could not be loaded or the URDF not written, 2 bad usage. */
export async function runUrdf(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseModelCommand('urdf', URDF_USAGE, argv, io, {
    output: { type: 'string', short: 'o' },
    'mesh-dir': { type: 'string' },
    'package-uris': { type: 'boolean', default: false },
    'mesh-format': { type: 'string', default: 'keep' },
    'world-frame': { type: 'string', default: '' },
    'ros2-control': { type: 'string' },
    'joint-mode': { type: 'string', multiple: true, default: [] as string[] },
    ...conventionOptions,
  });
  if (typeof args === 'number') return args;
  const { packagePath, values } = args;
  const meshFormat = values['mesh-format'];
  if (meshFormat !== 'keep' && meshFormat !== 'stl') {
    io.stderr(`body-bridge urdf: --mesh-format ${meshFormat}: expected keep or stl\n${URDF_USAGE}`);
    return 2;
  }
  let control: { mode: ControlMode; overrides: Map<string, ControlMode> } | null = null;
  const controlMode = values['ros2-control'];
  if (controlMode !== undefined) {
    if (!isControlMode(controlMode)) {
      io.stderr(`body-bridge urdf: --ros2-control ${controlMode}: expected one of ${CONTROL_MODES.join(', ')}\n${URDF_USAGE}`);
      return 2;
    }
    const overrides = parseJointModes(values['joint-mode']);
    if (typeof overrides === 'string') {
      io.stderr(`body-bridge urdf: --joint-mode ${overrides}\n${URDF_USAGE}`);
      return 2;
    }
    control = { mode: controlMode, overrides };
  } else if (values['joint-mode'].length > 0) {
    io.stderr(`body-bridge urdf: --joint-mode needs --ros2-control MODE\n${URDF_USAGE}`);
    return 2;
  }
  let conventions;
  try {
    conventions = conventionsOf(values, values['world-frame']);
  } catch (e) {
    io.stderr(`body-bridge urdf: ${(e as Error).message}\n${URDF_USAGE}`);
    return 2;
  }
  const loaded = loadForCommand(args.file, { packagePath }, io);
  if (loaded === undefined) return 1;
  const { model } = applyRosConventions(loaded, conventions);
  const output = values.output;
  // -o without --mesh-dir: a self-contained folder (URDF + meshes) instead of pointers into a cache.
  const portable = output !== undefined && values['mesh-dir'] === undefined;
  const urdfDir = output !== undefined ? dirname(resolve(output)) : undefined;
  const pkg = portable ? enclosingPackage(urdfDir!) : null;
  const options: UrdfOptions = {
    meshDir: portable ? join(urdfDir!, `${basename(output!, extname(output!))}_meshes`) : (values['mesh-dir'] ?? defaultMeshDir(io.env)),
    meshUris: pkg !== null || values['package-uris'] ? 'package' : portable ? 'relative' : 'file',
    packagePath: pkg !== null ? [dirname(pkg), ...packagePath] : packagePath,
    meshFormat,
    copyResources: portable,
    worldFrame: values['world-frame'],
    env: io.env,
    ...(urdfDir !== undefined ? { urdfDir } : {}),
  };
  try {
    let result = toUrdf(model, options);
    if (control) {
      const block = controlBlock(model, control.mode, control.overrides);
      if (block.modes.unknown.length > 0) {
        io.stderr(`body-bridge urdf: --joint-mode names ${block.modes.unknown.map((j) => `"${j}"`).join(', ')}, not a moving joint of ${model.name}\n`);
        return 1;
      }
      for (const w of block.drive.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
      result = { ...result, xml: withRos2Control(result.xml, block.xml) };
    }
    for (const w of result.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
    const written = await writeUrdf(result, output);
    if (output === undefined) io.stdout(result.xml);
    else if (result.meshes.length > 0) {
      const how = options.meshUris === 'package' ? 'package:// URIs' : options.meshUris === 'relative' ? 'paths relative to the URDF' : 'file:// URIs';
      io.stderr(
        `body-bridge urdf: wrote ${written.urdfFile}; ${result.meshes.length} mesh file${result.meshes.length === 1 ? '' : 's'} in ${result.meshDir} ` +
          `(${written.written.length} new), referenced by ${how}\n`,
      );
    }
    return 0;
  } catch (e) {
    // Conversion and writing problems (a world frame that clashes, an unwritable directory) are the user's to fix, not crashes.
    io.stderr(`body-bridge urdf: ${(e as Error).message}\n`);
    return 1;
  }
}
