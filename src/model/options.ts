// Limits and switches every loader honours. The limits make hostile files fail fast with a located
// error instead of eating memory or time; README's "errors and limits" section documents them.

export interface LoadLimits {
  /** Largest model, fragment or mesh file read, in bytes. */
  maxFileBytes: number;
  /** Most YAML aliases resolved in one file (alias bombs). */
  maxAliases: number;
  /** Deepest YAML / VRML nesting. */
  maxDepth: number;
  /** Most files one model may pull in (import, Resource, Inline, modelFile). */
  maxIncludedFiles: number;
  /** Most triangles one model's shapes may expand to. */
  maxTriangles: number;
}

export const defaultLimits: LoadLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxAliases: 10_000,
  maxDepth: 1_000,
  maxIncludedFiles: 10_000,
  maxTriangles: 20_000_000,
};

export interface LoadOptions {
  /** Load shapes (visual/collision geometry and mesh resources). Default true. */
  shapes?: boolean;
  /** Directories searched for `package://NAME/...` (each holding package NAME), before ROS_PACKAGE_PATH / AMENT_PREFIX_PATH. */
  packagePath?: string[];
  limits?: Partial<LoadLimits>;
}

/**
 * Environment variables that raise (or lower) a limit for every entry point — the CLI, the node and
 * the API — without a code change: BODY_BRIDGE_MAX_FILE_BYTES, BODY_BRIDGE_MAX_ALIASES, BODY_BRIDGE_MAX_DEPTH,
 * BODY_BRIDGE_MAX_INCLUDED_FILES, BODY_BRIDGE_MAX_TRIANGLES. A value that is not a positive integer is ignored.
 */
export const limitEnvironment: Readonly<Record<keyof LoadLimits, string>> = {
  maxFileBytes: 'BODY_BRIDGE_MAX_FILE_BYTES',
  maxAliases: 'BODY_BRIDGE_MAX_ALIASES',
  maxDepth: 'BODY_BRIDGE_MAX_DEPTH',
  maxIncludedFiles: 'BODY_BRIDGE_MAX_INCLUDED_FILES',
  maxTriangles: 'BODY_BRIDGE_MAX_TRIANGLES',
};

export function limitsFromEnvironment(env: NodeJS.ProcessEnv): Partial<LoadLimits> {
  const out: Partial<LoadLimits> = {};
  for (const [key, name] of Object.entries(limitEnvironment) as [keyof LoadLimits, string][]) {
    const raw = env[name]?.trim();
    if (raw && /^[0-9]+$/.test(raw) && Number(raw) > 0 && Number.isSafeInteger(Number(raw))) out[key] = Number(raw);
  }
  return out;
}

/** Defaults, then the environment, then `options.limits` (the most specific wins). */
export function resolveLimits(options: LoadOptions, env: NodeJS.ProcessEnv = process.env): LoadLimits {
  return { ...defaultLimits, ...limitsFromEnvironment(env), ...options.limits };
}
