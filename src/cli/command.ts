// What a `body-bridge` subcommand is: a name for the dispatcher's table and a function from argv to
// an exit status (0 ok, 1 the model or its output failed, 2 bad usage). I/O is passed in so tests
// can run commands in-process.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandIo } from './urdf.js';

export type { CommandIo } from './urdf.js';
export { processIo } from './urdf.js';

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
