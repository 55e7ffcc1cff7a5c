// The ROS arguments of the command line (`--ros-args ... [--]`), read the way rcl reads them, for the
// two things rclnodejs gets wrong or cannot know in advance:
// - parameter files keyed by a fully qualified node name (`/ns/body_bridge:`), nested namespaces or
//   wildcards (`/**/body_bridge:`), which launch_ros writes and rclnodejs 2.x does not match (it looks
//   up only `/**` and the bare node name);
// - the node's final name and namespace (`-r __node:=...`, `-r __ns:=...`), needed to pick those keys.
// The arguments still go to rcl unchanged, so remapping, logging options and the rest work as usual.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export interface RosArgs {
  /** Node name after `__node` remapping. */
  name: string;
  /** Namespace after `__ns` remapping, absolute, '/' for none. */
  namespace: string;
  /** `--params-file` and `-p` in command-line order. */
  sources: ({ kind: 'file'; path: string } | { kind: 'param'; node: string | null; name: string; value: unknown })[];
  /** The arguments that are not ROS arguments (what the program itself gets). */
  rest: string[];
}

const WITH_VALUE = new Set(['-r', '--remap', '-p', '--param', '--params-file', '-e', '--enclave', '--log-level', '--log-config-file', '--log-file-name']);

const normaliseNamespace = (ns: string): string => {
  const trimmed = ns.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
};

/** Parses argv (without `node` and the script path) for the node called `defaultName` by default. */
export function parseRosArgs(argv: readonly string[], defaultName: string, defaultNamespace = '/'): RosArgs {
  const out: RosArgs = { name: defaultName, namespace: normaliseNamespace(defaultNamespace), sources: [], rest: [] };
  let inRos = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--ros-args') {
      inRos = true;
      continue;
    }
    if (!inRos) {
      out.rest.push(arg);
      continue;
    }
    if (arg === '--') {
      inRos = false;
      continue;
    }
    if (!WITH_VALUE.has(arg)) continue; // flags such as --disable-rosout-logs
    const value = argv[++i];
    if (value === undefined) break;
    if (arg === '-r' || arg === '--remap') {
      // `[node:]from:=to`; only the special names matter here.
      const m = /^(?:([^:]+):)?(__node|__name|__ns):=(.*)$/.exec(value);
      if (m && (m[1] === undefined || m[1] === defaultName)) {
        if (m[2] === '__ns') out.namespace = normaliseNamespace(m[3]!);
        else out.name = m[3]!;
      }
    } else if (arg === '-p' || arg === '--param') {
      const m = /^(?:([^:]+):)?([^:=]+):=(.*)$/s.exec(value);
      if (m) out.sources.push({ kind: 'param', node: m[1] ?? null, name: m[2]!, value: parseParamValue(m[3]!) });
    } else if (arg === '--params-file') {
      out.sources.push({ kind: 'file', path: value });
    }
  }
  return out;
}

/** rcl reads `-p` values as YAML. */
function parseParamValue(text: string): unknown {
  try {
    return parseYaml(text);
  } catch {
    return text;
  }
}

export const fullyQualifiedName = (namespace: string, name: string): string =>
  namespace === '/' ? `/${name}` : `${namespace}/${name}`;

/** Whether an rcl node-name pattern (`/**`, `/ns/*`, `body_bridge`, `/**\/body_bridge`) selects `fqn`. */
export function nodePatternMatches(pattern: string, fqn: string): boolean {
  const pat = (pattern.startsWith('/') ? pattern : `/${pattern}`).split('/').filter((t) => t !== '');
  const name = fqn.split('/').filter((t) => t !== '');
  const match = (p: number, n: number): boolean => {
    if (p === pat.length) return n === name.length;
    const token = pat[p]!;
    if (token === '**') {
      for (let k = n; k <= name.length; k++) if (match(p + 1, k)) return true;
      return false;
    }
    if (n === name.length) return false;
    return (token === '*' || token === name[n]) && match(p + 1, n + 1);
  };
  return match(0, 0);
}

/** `{a: {b: 1}}` → `a.b = 1`, as rcl flattens nested parameter maps. */
function flatten(prefix: string, value: unknown, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(prefix ? `${prefix}.${k}` : k, v, out);
  } else {
    out.set(prefix, value);
  }
}

/**
 * The parameters a params file gives the node `fqn`, in file order (later entries win). Node keys may
 * be nested (`ns: {body_bridge: {ros__parameters: ...}}` is `/ns/body_bridge`) and may use wildcards.
 */
export function paramsFromFile(document: unknown, fqn: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (path: string[], node: unknown): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'ros__parameters') {
        if (nodePatternMatches(path.join('/'), fqn)) {
          const flat = new Map<string, unknown>();
          flatten('', value, flat);
          for (const [k, v] of flat) out.set(k, v);
        }
      } else {
        walk([...path, ...key.split('/').filter((t) => t !== '')], value);
      }
    }
  };
  walk([], document);
  return out;
}

/**
 * launch_ros writes a list parameter given in a launch file as a Python tuple (`!!python/tuple`); rcl's parser
 * takes it as the sequence it is, and so do we (the YAML library would warn about an unknown tag).
 */
const PYTHON_TUPLE = { tag: 'tag:yaml.org,2002:python/tuple', collection: 'seq' as const, resolve: <T>(seq: T): T => seq };

/** Every parameter override for the node, params files and `-p` applied in command-line order. */
export function parameterOverrides(args: RosArgs, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): Map<string, unknown> {
  const fqn = fullyQualifiedName(args.namespace, args.name);
  const out = new Map<string, unknown>();
  for (const source of args.sources) {
    if (source.kind === 'file') {
      for (const [k, v] of paramsFromFile(parseYaml(readFile(source.path), { customTags: [PYTHON_TUPLE] }), fqn)) out.set(k, v);
    } else if (source.node === null || nodePatternMatches(source.node, fqn) || source.node === args.name) {
      out.set(source.name, source.value);
    }
  }
  return out;
}
