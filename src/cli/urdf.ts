// `body-bridge urdf <model> [-o FILE] [--mesh-dir DIR] [--package-uris] [--world-frame NAME] [--package-path DIR]...`
// Prints the equivalent URDF (or writes it atomically to FILE) and writes its meshes into the mesh directory.
import { formatDiagnostic } from '../model/errors.js';
import { defaultMeshDir, toUrdf, writeUrdf } from '../urdf/index.js';
import { type CommandIo, loadForCommand, parseModelCommand, processIo } from './command.js';


export const URDF_USAGE = `usage: body-bridge urdf <model> [-o FILE] [--mesh-dir DIR] [--package-uris] [--world-frame NAME] [--package-path DIR]...
  -o, --output FILE     write the URDF to FILE (atomically) instead of stdout
  --mesh-dir DIR        where generated meshes go (default: $XDG_CACHE_HOME/body_bridge/meshes)
  --package-uris        package:// URIs for meshes inside a ROS package on the package path
  --world-frame NAME    add a NAME link joined to the root link (fixed root: fixed, free root: floating)
  --package-path DIR    directory holding ROS packages (for package:// in the model and in the URDF); repeatable
`;

/** Exit status: 0 written, 1 the model could not be loaded or the URDF not written, 2 bad usage. */
export async function runUrdf(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseModelCommand('urdf', URDF_USAGE, argv, io, {
    output: { type: 'string', short: 'o' },
    'mesh-dir': { type: 'string' },
    'package-uris': { type: 'boolean', default: false },
    'world-frame': { type: 'string', default: '' },
  });
  if (typeof args === 'number') return args;
  const { packagePath } = args;
  const model = loadForCommand(args.file, { packagePath }, io);
  if (model === undefined) return 1;
  try {
    const result = toUrdf(model, {
      meshDir: args.values['mesh-dir'] ?? defaultMeshDir(io.env),
      meshUris: args.values['package-uris'] ? 'package' : 'file',
      packagePath,
      worldFrame: args.values['world-frame'],
      env: io.env,
    });
    for (const w of result.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
    await writeUrdf(result, args.values.output);
    if (args.values.output === undefined) io.stdout(result.xml);
    return 0;
  } catch (e) {
    // Conversion and writing problems (a world frame that clashes, an unwritable directory) are the user's to fix, not crashes.
    io.stderr(`body-bridge urdf: ${(e as Error).message}\n`);
    return 1;
  }
}
