// Why a model fails the sweep or does not run: a fact about Choreonoid or the model, found in Choreonoid's log or the
// model file (each with where it shows), never "not supported". docs/corpus-sweep.md puts each beside its row.
export const REASONS: Record<string, string> = {};
