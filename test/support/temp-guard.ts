// vitest globalSetup: the run gets a temporary directory of its own (TMPDIR, which os.tmpdir() and the
// peers the tests start read), and fails if anything is left in it when the run ends — a test that
// forgets to remove its scratch files is caught by name instead of piling up in the shared /tmp.
// The run's peer notes (peer-notes.ts) live there too; the summary reporter reads them before this ends.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PEER_NOTES_ENV, PEER_NOTES_FILE } from './peer-notes.js';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'body-bridge-tests-'));
  process.env.TMPDIR = root;
  process.env[PEER_NOTES_ENV] = join(root, PEER_NOTES_FILE);
  return () => {
    const left = readdirSync(root)
      .filter((n) => n !== PEER_NOTES_FILE)
      .sort();
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      process.exitCode = 1;
      const shown = left.slice(0, 20).join(', ') + (left.length > 20 ? `, … (${left.length - 20} more)` : '');
      throw new Error(`the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory: ${shown}`);
    }
  };
}
