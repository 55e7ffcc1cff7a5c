// The corpus models the load benchmark covers: every model with an oracle dump whose ok is true
// (Choreonoid itself loaded it). Paths are found from the project root, wherever the bench is compiled to.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export { findProjectRoot } from '../test/support/oracle.js';

export interface CorpusModel {
  /** Corpus-relative path, e.g. `openhrp3/sample/model/sample1.wrl`. */
  file: string;
  /** Absolute path. */
  path: string;
}

function walkJson(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walkJson(p, out);
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

/** Models Choreonoid loaded (oracle ok: true), sorted by path. Throws when ../shared is missing. */
export function corpusModels(sharedDir: string): CorpusModel[] {
  const oracleDir = join(sharedDir, 'oracle');
  const corpusDir = join(sharedDir, 'corpus');
  if (!existsSync(join(oracleDir, 'README.md')) || !existsSync(join(corpusDir, 'INDEX.md'))) {
    throw new Error(`../shared is missing: expected the corpus and oracle at ${sharedDir}`);
  }
  return walkJson(oracleDir)
    .filter((p) => (JSON.parse(readFileSync(p, 'utf8')) as { ok?: boolean }).ok === true)
    .map((p) => relative(oracleDir, p).slice(0, -'.json'.length))
    .map((file) => ({ file, path: join(corpusDir, file) }));
}
