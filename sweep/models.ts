// Which models the sweep simulates: every articulated model of the corpus (test/support/role-expectations.ts, the
// list the roles test judges: each file of the corpus with at least one joint that moves), the models of our
// own for the roles the corpus lacks (test/models/roles), and the installed Choreonoid's models that the corpus
// lacks or loads without a sub-body (SHARE_ROLES), named as Choreonoid's projects name them, ${SHARE}/model/….
// Which of them a run takes: --only, and resuming.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_ROLES, SHARE_ROLES } from '../test/support/role-expectations.js';

/** Our own models for roles the corpus lacks: a pan-tilt head on a rover without joint limits, skid steer on COLLADA tyres, pseudo tracks with a head. */
export const OWN_MODELS = ['test/models/roles/pantilt-rover.body', 'test/models/roles/skid-steer-mesh.body', 'test/models/roles/tracked-pantilt.body', 'test/models/roles/mobile-manipulator.body'];

export interface SweepModel {
  /** How the table names it: corpus-relative, or repository-relative for our own. */
  model: string;
  file: string;
}

/** How the table names a model of Choreonoid's share: as its own projects do. */
export const shareModelName = (model: string): string => `\${SHARE}/${model}`;

/** The whole list, corpus first in the roles table's order, then ours, then the share's where it is installed. */
export function sweepModels(
  corpusDir: string,
  projectRoot: string,
  shareDir: string | null,
  corpus: readonly string[] = CORPUS_ROLES.map((r) => r.model),
  own: readonly string[] = OWN_MODELS,
  share: readonly string[] = SHARE_ROLES.map((r) => r.model),
): SweepModel[] {
  return [
    ...corpus.map((m) => ({ model: m, file: join(corpusDir, m) })),
    ...own.map((m) => ({ model: m, file: join(projectRoot, m) })),
    ...(shareDir === null ? [] : share.map((m) => ({ model: shareModelName(m), file: join(shareDir, m) }))),
  ];
}

export interface Selection {
  /** A regular expression (case-insensitive) a model's name must match. */
  only?: string;
  /** Run again models the previous results already have with the same hash. */
  rerun?: boolean;
}

/** The models a run takes, in order: those `only` matches, less (unless rerun) those `done` has with the hash they have now. */
export function selectModels(models: readonly SweepModel[], selection: Selection, done: ReadonlyMap<string, string>, hashOf: (m: SweepModel) => string): SweepModel[] {
  const pattern = selection.only ? new RegExp(selection.only, 'i') : null;
  return models.filter((m) => (!pattern || pattern.test(m.model)) && (selection.rerun || done.get(m.model) !== hashOf(m)));
}

/** sha256 of a model file's bytes. */
export const fileHash = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
