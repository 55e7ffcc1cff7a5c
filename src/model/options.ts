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

export function resolveLimits(options: LoadOptions): LoadLimits {
  return { ...defaultLimits, ...options.limits };
}
