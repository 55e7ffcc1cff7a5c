// Why a model fails the sweep or does not run: a fact about Choreonoid or the model, found in Choreonoid's log or the
// model file (each with where it shows), never "not supported". docs/corpus-sweep.md puts each beside its rows,
// with what the row's own figures show (sweep/report.ts, measuredFacts).
export interface Reason {
  /** The models it explains (their names in the table). */
  models: RegExp;
  reason: string;
}

export const REASONS: Reason[] = [];

/** The reason of the first entry whose pattern matches the model, or null. */
export function reasonFor(reasons: readonly Reason[], model: string): string | null {
  return reasons.find((r) => r.models.test(model))?.reason ?? null;
}
