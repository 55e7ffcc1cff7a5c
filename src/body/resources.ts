// Where a resource URI points on disk: relative to the current base directory, `file://`, or
// `package://NAME/...` through options.packagePath, then ROS_PACKAGE_PATH, then AMENT_PREFIX_PATH.
import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { failAt } from '../model/errors.js';
import type { SourceLocation } from '../model/types.js';
import type { BodyContext } from './context.js';

function isFile(path: string): boolean {
  // One stat, no exception for a missing file (a model asks for hundreds of resources).
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** Candidate directories holding package NAME, in search order. */
export function packageDirs(name: string, packagePath: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): string[] {
  const split = (v: string | undefined): string[] => (v ? v.split(delimiter).filter((s) => s !== '') : []);
  return [
    ...packagePath.map((d) => join(d, name)),
    // ROS 1 style: each entry holds packages (or is the package itself).
    ...split(env.ROS_PACKAGE_PATH).flatMap((d) => [join(d, name), ...(d.endsWith(`/${name}`) ? [d] : [])]),
    // ROS 2 install prefixes keep packages under share/.
    ...split(env.AMENT_PREFIX_PATH).map((d) => join(d, 'share', name)),
  ];
}

/**
 * The absolute path of `uri`, or undefined when it does not exist and `mustExist` is false.
 * Throws a located ModelLoadError for URIs that cannot be resolved at all.
 */
export function resolveResourcePath(
  ctx: BodyContext,
  uri: string,
  where: SourceLocation,
  { mustExist }: { mustExist: boolean },
): string | undefined {
  let path: string | undefined;
  const pkg = /^package:\/\/([^/]+)\/(.*)$/.exec(uri);
  if (pkg) {
    const [, name, rest] = pkg as unknown as [string, string, string];
    path = packageDirs(name, ctx.options.packagePath).map((d) => join(d, rest)).find(isFile);
    if (!path) {
      if (!mustExist) return undefined;
      failAt(where, `package "${name}" of "${uri}" was not found (searched options.packagePath, ROS_PACKAGE_PATH and AMENT_PREFIX_PATH)`);
    }
    return path;
  }
  if (/^\$\{/.test(uri)) failAt(where, `path variables such as "${uri}" are not supported; use a relative path or package://`);
  const local = uri.replace(/^file:\/\//, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(local)) failAt(where, `unsupported URI scheme in "${uri}" (expected a file path, file:// or package://)`);
  path = isAbsolute(local) ? local : resolve(ctx.baseDir, local);
  if (!isFile(path)) {
    if (!mustExist) return undefined;
    failAt(where, `resource file "${uri}" not found (looked for ${path})`);
  }
  return path;
}
