// `body-bridge check <model> [--package-path DIR]...`: does the model load? Warnings and errors are
// printed as `file:line:column: severity: message (at path)`, the form editors jump to.
import { parseArgs } from 'node:util';
import { loadRobotModel } from '../load.js';
import { ModelLoadError, formatDiagnostic } from '../model/errors.js';
import { modelArgument, type Command, type CommandIo } from './command.js';

export const CHECK_USAGE = `usage: body-bridge check <model> [--package-path DIR]...
  exit status 0 when the model loads (warnings are printed), 1 with the located errors when it does not
`;

export function runCheck(argv: string[], io: CommandIo): number {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'package-path': { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.stderr(`body-bridge check: ${(e as Error).message}\n${CHECK_USAGE}`);
    return 2;
  }
  if (args.values.help) {
    io.stdout(CHECK_USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) {
    io.stderr(`body-bridge check: expected exactly one model file\n${CHECK_USAGE}`);
    return 2;
  }
  let file: string;
  try {
    file = modelArgument(args.positionals[0]!);
  } catch (e) {
    io.stderr(`body-bridge check: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    const model = loadRobotModel(file, { packagePath: args.values['package-path'] });
    for (const w of model.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
    const joints = model.links.filter((l) => l.joint.type === 'revolute' || l.joint.type === 'prismatic').length;
    const warnings = model.warnings.length;
    io.stdout(
      `${file}: ok: ${model.links.length} links, ${joints} joints, ${model.devices.length} devices` +
        `${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}\n`,
    );
    return 0;
  } catch (e) {
    if (e instanceof ModelLoadError) {
      io.stderr(`${e.diagnostics.map(formatDiagnostic).join('\n')}\n`);
      return 1;
    }
    throw e;
  }
}

export const checkCommand: Command = { name: 'check', summary: 'check that a model loads; print located warnings and errors', run: runCheck };
