import type { Diagnostic, SourceLocation } from './types.js';

/**
 * The one error type a loader throws for bad input. Everything else escaping a loader is a bug:
 * the hostile-input tests assert exactly that.
 */
export class ModelLoadError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'ModelLoadError';
    this.diagnostics = diagnostics;
  }
}

/** Throws a ModelLoadError for one located problem. `expected` says what would have been valid. */
export function failAt(where: SourceLocation, message: string): never {
  throw new ModelLoadError([{ severity: 'error', message, ...where }]);
}

/** `file:line:column: error: message (at links[3].joint_axis)`, the shape compilers and editors understand. */
export function formatDiagnostic(d: Diagnostic): string {
  let where = d.file;
  if (d.line !== undefined) where += `:${d.line}`;
  if (d.line !== undefined && d.column !== undefined) where += `:${d.column}`;
  const path = d.path ? ` (at ${d.path})` : '';
  return `${where}: ${d.severity}: ${d.message}${path}`;
}
