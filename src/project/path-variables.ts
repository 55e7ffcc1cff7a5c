// Paths in a project file as Choreonoid's FilePathVariableProcessor::expand resolves them (src/Util/
// FilePathVariableProcessor.cpp): one `${NAME}` at the very start of the path is replaced — SHARE, PROGRAM_TOP,
// PROJECT_DIR, HOME or a user variable — then a relative path is taken from the project's directory and the
// result is normalised lexically (no symbolic link is resolved). `${...}` anywhere else is plain text.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, posix, resolve } from 'node:path';

export interface PathVariables {
  /** Choreonoid's share directory; undefined when it is not known (a `${SHARE}` path is then an error). */
  share?: string;
  /** The installation prefix Choreonoid runs from (`${PROGRAM_TOP}`); undefined when not known. */
  programTop?: string;
  /** `$HOME`; Choreonoid substitutes an empty string when it is unset. */
  home: string;
  /** The project file's directory (absolute, not canonicalised: Choreonoid takes filesystem::absolute). */
  projectDir: string;
  /**
   * User path variables (Choreonoid's `--path-variable NAME=DIR`, or its path variable settings): the first
   * directory under which the path exists wins, else the first.
   */
  user: Readonly<Record<string, readonly string[]>>;
}

export type ExpandedPath = { path: string } | { error: string };

// std::regex "^\\$\\{(\\w+)\\}": \w is ASCII letters, digits and '_'.
const VARIABLE = /^\$\{([A-Za-z0-9_]+)\}/;

/** The absolute path `written` names, or why Choreonoid could not expand it. */
export function expandPath(written: string, vars: PathVariables): ExpandedPath {
  let expanded = written;
  const m = VARIABLE.exec(written);
  if (m) {
    const name = m[1]!;
    const rest = written.slice(m[0].length);
    let value: string | undefined;
    if (name === 'SHARE') {
      if (vars.share === undefined) return { error: `\${SHARE} is not known here: give Choreonoid's share directory (--share DIR or ${SHARE_ENV})` };
      value = vars.share;
    } else if (name === 'PROGRAM_TOP') {
      if (vars.programTop === undefined) return { error: `\${PROGRAM_TOP} is not known here: it is Choreonoid's installation prefix, found only from an installed choreonoid` };
      value = vars.programTop;
    } else if (name === 'PROJECT_DIR') {
      value = vars.projectDir;
    } else if (name === 'HOME') {
      value = vars.home;
    } else {
      const dirs = vars.user[name];
      if (!dirs || dirs.length === 0) return { error: `path variable "${name}" in "${written}" is not defined` };
      value = dirs.find((d) => existsSync(d + rest)) ?? dirs[0]!;
    }
    expanded = value + rest;
  }
  const absolute = isAbsolute(expanded) ? expanded : join(vars.projectDir, expanded);
  return { path: posix.normalize(absolute) };
}

/** The environment variable naming Choreonoid's share directory for body_bridge (Choreonoid itself has none). */
export const SHARE_ENV = 'BODY_BRIDGE_CHOREONOID_SHARE';

const isDirectory = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Choreonoid's share directory and installation prefix for an installed `choreonoid` executable: Choreonoid
 * takes `<prefix>/share/choreonoid-<version>` beside its `bin` (src/Util/ExecutablePath.cpp), or `<prefix>/share`.
 */
export function installedChoreonoid(env: NodeJS.ProcessEnv): { share: string; programTop: string } | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'choreonoid');
    let exe: string;
    try {
      if (!statSync(candidate).isFile()) continue;
      exe = realpathSync(candidate);
    } catch {
      continue;
    }
    const top = dirname(dirname(exe));
    const shareRoot = join(top, 'share');
    if (!isDirectory(shareRoot)) continue;
    // The version suffix is compiled in; the newest one present stands for it.
    const versions = readdirSync(shareRoot)
      .filter((d) => /^choreonoid-\d+\.\d+$/.test(d) && isDirectory(join(shareRoot, d)))
      .sort((a, b) => versionOf(b) - versionOf(a));
    return { share: versions[0] ? join(shareRoot, versions[0]) : shareRoot, programTop: top };
  }
  return undefined;
}

const versionOf = (dir: string): number => {
  const [major, minor] = basename(dir).replace('choreonoid-', '').split('.').map(Number);
  return (major ?? 0) * 1000 + (minor ?? 0);
};

/**
 * The path variables for a project: `share` given, else $BODY_BRIDGE_CHOREONOID_SHARE, else the installed
 * choreonoid's. PROGRAM_TOP comes from the installed choreonoid, or from a share given as `<prefix>/share/choreonoid-x.y`.
 */
export function pathVariablesFor(
  projectFile: string,
  options: { share?: string; pathVariables?: Readonly<Record<string, readonly string[]>> },
  env: NodeJS.ProcessEnv,
): PathVariables {
  const given = options.share ?? (env[SHARE_ENV] ? env[SHARE_ENV] : undefined);
  const installed = given === undefined ? installedChoreonoid(env) : undefined;
  const share = given !== undefined ? resolve(given) : installed?.share;
  let programTop = installed?.programTop;
  if (programTop === undefined && share !== undefined && /^choreonoid-\d+\.\d+$/.test(basename(share)) && basename(dirname(share)) === 'share') {
    programTop = dirname(dirname(share));
  }
  return {
    ...(share !== undefined ? { share } : {}),
    ...(programTop !== undefined ? { programTop } : {}),
    home: env.HOME ?? '',
    projectDir: dirname(resolve(projectFile)),
    user: options.pathVariables ?? {},
  };
}
