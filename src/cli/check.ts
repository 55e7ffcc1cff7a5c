// `body-bridge check <model> [--package-path DIR]...`: does the model load, and will rviz load the mesh
// files it references? Warnings and errors are printed as `file:line:column: severity: message (at path)`,
// the form editors jump to.
import { formatDiagnostic } from '../model/errors.js';
import { referencedMeshWarnings } from '../urdf/index.js';
import { loadForCommand, parseModelCommand, type Command, type CommandIo } from './command.js';

export const CHECK_USAGE = `usage: body-bridge check <model> [--package-path DIR]...
  exit status 0 when the model loads (warnings are printed, among them mesh files rviz cannot load),
  1 with the located errors when it does not
`;

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function runCheck(argv: string[], io: CommandIo): number {
  const args = parseModelCommand('check', CHECK_USAGE, argv, io, {});
  if (typeof args === 'number') return args;
  const model = loadForCommand(args.file, { packagePath: args.packagePath }, io);
  if (model === undefined) return 1;
  // A broken mesh file is a warning, as the loader's repairs are: the model loads, rviz then fails on the file.
  const meshWarnings = referencedMeshWarnings(model);
  for (const w of meshWarnings) io.stderr(`${formatDiagnostic(w)}\n`);
  const joints = model.links.filter((l) => l.joint.type === 'revolute' || l.joint.type === 'prismatic').length;
  const warnings = model.warnings.length + meshWarnings.length;
  io.stdout(
    `${args.file}: ok: ${count(model.links.length, 'link')}, ${count(joints, 'joint')}, ${count(model.devices.length, 'device')}` +
      `${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}\n`,
  );
  return 0;
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'check that a model loads and rviz can load its mesh files; print located warnings and errors',
  run: runCheck,
};
