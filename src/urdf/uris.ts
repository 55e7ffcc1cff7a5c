// Mesh URIs in the URDF: absolute `file://` URIs by default, `package://NAME/...` when asked for
// and the file lies inside a ROS package on the package path (what rviz's resource_retriever and
// Gazebo resolve on another machine with the same packages installed).
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export type MeshUriStyle = 'file' | 'package';

/**
 * Roots under which packages are looked for: the explicit list, then ROS_PACKAGE_PATH entries,
 * then `<prefix>/share` for each AMENT_PREFIX_PATH entry (where ament installs package.xml).
 */
export function packageRoots(explicit: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): string[] {
  const split = (v: string | undefined): string[] => (v ? v.split(delimiter).filter((s) => s !== '') : []);
  return [
    ...explicit,
    ...split(env.ROS_PACKAGE_PATH),
    ...split(env.AMENT_PREFIX_PATH).map((p) => join(p, 'share')),
  ].map((p) => resolve(p));
}

const isInside = (dir: string, file: string): boolean => {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..';
};

/** `<name>` of a package.xml, or null when the file has none. */
function packageXmlName(dir: string): string | null {
  const file = join(dir, 'package.xml');
  if (!existsSync(file)) return null;
  try {
    const m = /<name>\s*([^<\s]+)\s*<\/name>/.exec(readFileSync(file, 'utf8'));
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}

const encodeSegments = (path: string): string => path.split(sep).map(encodeURIComponent).join('/');

/**
 * The `package://` URI of a file, or null when no package on the path contains it. The nearest
 * enclosing directory with a package.xml names the package (as catkin/ament do); a file under a
 * package root without any package.xml is taken to be in the package named by its first directory
 * (the rule `package://` resolution uses when loading models).
 */
export function packageUri(file: string, roots: readonly string[]): string | null {
  const abs = resolve(file);
  for (const root of roots) {
    if (!isInside(root, abs)) continue;
    for (let dir = dirname(abs); dir === root || isInside(root, dir); dir = dirname(dir)) {
      const name = packageXmlName(dir);
      if (name) return `package://${encodeURIComponent(name)}/${encodeSegments(relative(dir, abs))}`;
      if (dir === root) break;
    }
    const rel = relative(root, abs).split(sep);
    if (rel.length >= 2) return `package://${rel.map(encodeURIComponent).join('/')}`;
  }
  return null;
}

export const fileUri = (file: string): string => pathToFileURL(resolve(file)).href;
