// `body-bridge urdf <model> [-o FILE] [--mesh-dir DIR] [--package-uris] [--world-frame NAME] [--package-path DIR]...`
// Prints the equivalent URDF (or writes it atomically to FILE) and writes its meshes into the mesh directory.
import { parseArgs } from 'node:util';
import { loadRobotModel } from '../load.js';
import { ModelLoadError, formatDiagnostic } from '../model/errors.js';
import { defaultMeshDir, toUrdf, writeUrdf } from '../urdf/index.js';
import { modelArgument } from './command.js';

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export const processIo = (): CommandIo => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
});

export const URDF_USAGE = `usage: body-bridge urdf <model> [-o FILE] [--mesh-dir DIR] [--package-uris] [--world-frame NAME] [--package-path DIR]...
  -o, --output FILE     write the URDF to FILE (atomically) instead of stdout
  --mesh-dir DIR        where generated meshes go (default: $XDG_CACHE_HOME/body_bridge/meshes)
  --package-uris        package:// URIs for meshes inside a ROS package on the package path
  --world-frame NAME    add a NAME link joined to the root link (fixed root: fixed, free root: floating)
  --package-path DIR    directory holding ROS packages (for package:// in the model and in the URDF); repeatable
`;

/** Exit status: 0 written, 1 the model could not be loaded or the URDF not written, 2 bad usage. */
export async function runUrdf(argv: string[], io: CommandIo = processIo()): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        'mesh-dir': { type: 'string' },
        'package-uris': { type: 'boolean', default: false },
        'world-frame': { type: 'string', default: '' },
        'package-path': { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.stderr(`body-bridge urdf: ${(e as Error).message}\n${URDF_USAGE}`);
    return 2;
  }
  if (args.values.help) {
    io.stdout(URDF_USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) {
    io.stderr(`body-bridge urdf: expected exactly one model file\n${URDF_USAGE}`);
    return 2;
  }
  let file: string;
  try {
    file = modelArgument(args.positionals[0]!);
  } catch (e) {
    io.stderr(`body-bridge urdf: ${(e as Error).message}\n`);
    return 2;
  }
  const packagePath = args.values['package-path'];
  try {
    const model = loadRobotModel(file, { packagePath });
    const result = toUrdf(model, {
      meshDir: args.values['mesh-dir'] ?? defaultMeshDir(io.env),
      meshUris: args.values['package-uris'] ? 'package' : 'file',
      packagePath,
      worldFrame: args.values['world-frame'],
      env: io.env,
    });
    for (const w of [...model.warnings, ...result.warnings]) io.stderr(`${formatDiagnostic(w)}\n`);
    await writeUrdf(result, args.values.output);
    if (args.values.output === undefined) io.stdout(result.xml);
    return 0;
  } catch (e) {
    if (e instanceof ModelLoadError) {
      io.stderr(`${e.message}\n`);
      return 1;
    }
    io.stderr(`body-bridge urdf: ${(e as Error).message}\n`);
    return 1;
  }
}
