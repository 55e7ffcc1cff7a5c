// What a `body-bridge` subcommand is: a name for the dispatcher's table and a function from argv to
// an exit status (0 ok, 1 the model or its output failed, 2 bad usage). I/O is passed in so tests
// can run commands in-process.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { loadRobotModel } from '../load.js';
import { ModelLoadError, formatDiagnostic } from '../model/errors.js';
import type { LoadOptions } from '../model/options.js';
import { applyRosConventions, LINK_NAMINGS, type LinkNaming, ROOT_INERTIAS, type RootInertia, type RosConventions, type RosModel } from '../model/ros-conventions.js';
import type { RobotModel } from '../model/types.js';

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

export interface Command {
  name: string;
  /** One line for `body-bridge --help`. */
  summary: string;
  run: (argv: string[], io: CommandIo) => number | Promise<number>;
}

/**
 * The model file a command argument names. A directory holding exactly one model (.body, .wrl) stands
 * for that model, so `body-bridge info models/` shows the bundled example. Throws RangeError (a
 * usage error) for a directory with none or several.
 */
export function modelArgument(arg: string): string {
  let isDir = false;
  try {
    isDir = statSync(arg).isDirectory();
  } catch {
    return arg; // the loader reports a missing file with its location
  }
  if (!isDir) return arg;
  const models = readdirSync(arg)
    .filter((f) => /\.(body|wrl)$/i.test(f))
    .sort();
  if (models.length !== 1) {
    throw new RangeError(
      models.length === 0 ? `${arg} is a directory without a .body or .wrl model` : `${arg} holds several models; name one: ${models.join(', ')}`,
    );
  }
  return join(arg, models[0]!);
}

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export interface ModelCommandArgs<V> {
  /** The model file (a directory argument resolved to the model in it). */
  file: string;
  values: V;
  packagePath: string[];
}

type ParsedValues<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof commonOptions & O }>
>['values'];

/** Options every model command takes. */
const commonOptions = {
  'package-path': { type: 'string', multiple: true, default: [] as string[] },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies OptionsConfig;

/**
 * The argument handling every model command shares: its own options plus --package-path and --help,
 * exactly one model argument. Returns the parsed values and the model file, or the exit status when the
 * command is already answered (0 after --help, 2 for bad usage, with the usage printed).
 */
export function parseModelCommand<O extends OptionsConfig>(
  name: string,
  usage: string,
  argv: string[],
  io: CommandIo,
  options: O,
): ModelCommandArgs<ParsedValues<O>> | number {
  const config = { args: argv, allowPositionals: true, options: { ...commonOptions, ...options } } as const;
  let args: ReturnType<typeof parseArgs<typeof config>>;
  try {
    args = parseArgs(config);
  } catch (e) {
    io.stderr(`body-bridge ${name}: ${(e as Error).message}\n${usage}`);
    return 2;
  }
  // Inside the generic function the values' type is not resolved yet; callers see it precisely.
  const common = args.values as { help?: boolean; 'package-path'?: string[] };
  if (common.help) {
    io.stdout(usage);
    return 0;
  }
  if (args.positionals.length !== 1) {
    io.stderr(`body-bridge ${name}: expected exactly one model file\n${usage}`);
    return 2;
  }
  try {
    return { file: modelArgument(args.positionals[0]!), values: args.values, packagePath: common['package-path'] ?? [] };
  } catch (e) {
    io.stderr(`body-bridge ${name}: ${(e as Error).message}\n`);
    return 2;
  }
}

/** Loads the model, printing its warnings; on a load error prints the located diagnostics and returns undefined. */
export function loadForCommand(file: string, options: LoadOptions, io: CommandIo): RobotModel | undefined {
  try {
    const model = loadRobotModel(file, options);
    for (const w of model.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
    return model;
  } catch (e) {
    if (e instanceof ModelLoadError) {
      io.stderr(`${e.message}\n`);
      return undefined;
    }
    throw e;
  }
}

/** Options of the commands that show the model as ROS sees it (urdf, tf): see src/model/ros-conventions.ts. */
export const conventionOptions = {
  'link-names': { type: 'string', default: 'distinct' },
  'root-inertia': { type: 'string', default: 'child' },
} satisfies OptionsConfig;

export const CONVENTION_USAGE = `  --link-names RULE     distinct (default): a link named like a joint becomes <name>_link (SDFormat/Gazebo
                       reject the clash; joint names, and so joint_states, stay); model: Choreonoid's names
  --root-inertia WHERE  child (default): the root link's mass moves to a fixed child <root>_inertia (kdl_parser
                       ignores a root link's inertia); root: left on the root link
`;

/** The conventions the options name; throws RangeError (a usage error) for an unknown value. */
export function conventionsOf(values: { 'link-names'?: string; 'root-inertia'?: string }, worldFrame = ''): RosConventions {
  const linkNames = values['link-names'] ?? 'distinct';
  const rootInertia = values['root-inertia'] ?? 'child';
  if (!(LINK_NAMINGS as readonly string[]).includes(linkNames)) {
    throw new RangeError(`--link-names ${linkNames}: expected one of ${LINK_NAMINGS.join(', ')}`);
  }
  if (!(ROOT_INERTIAS as readonly string[]).includes(rootInertia)) {
    throw new RangeError(`--root-inertia ${rootInertia}: expected one of ${ROOT_INERTIAS.join(', ')}`);
  }
  return { linkNames: linkNames as LinkNaming, rootInertia: rootInertia as RootInertia, worldFrame };
}

/**
 * The ROS 2 distribution a command writes for: `--ros-distro`, else $ROS_DISTRO where the command knows it (a
 * sourced Rolling still gets files Humble reads), else humble. Throws RangeError (a usage error) for an unknown one.
 */
export function rosDistroOf<D extends string>(option: string | undefined, env: NodeJS.ProcessEnv, known: readonly D[]): D {
  const isKnown = (d: string): d is D => (known as readonly string[]).includes(d);
  const fromEnv = env.ROS_DISTRO;
  const distro = option ?? (fromEnv !== undefined && isKnown(fromEnv) ? fromEnv : 'humble');
  if (!isKnown(distro)) throw new RangeError(`--ros-distro ${distro}: expected one of ${known.join(', ')}`);
  return distro;
}

/**
 * The model as ROS sees it under the convention options, for the commands that write ROS configurations; a bad
 * option or a model that fails to load is printed and becomes the exit status (usageError's, or 1).
 */
export function loadRosModel(
  file: string,
  values: { 'link-names'?: string; 'root-inertia'?: string },
  packagePath: string[],
  io: CommandIo,
  usageError: (message: string) => number,
): RosModel | number {
  let conventions: RosConventions;
  try {
    conventions = conventionsOf(values);
  } catch (e) {
    return usageError((e as Error).message);
  }
  const loaded = loadForCommand(file, { packagePath }, io);
  return loaded === undefined ? 1 : applyRosConventions(loaded, conventions);
}
