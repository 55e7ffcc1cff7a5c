// The run's record of peers that were absent: test workers append to it (peer-skip.ts), the summary reporter
// reads it once at the end and prints what was skipped for want of which peer, and how to install each.
// A file in the run's temporary directory, named through the environment, because vitest runs the test
// files in forked workers and only the environment set up before them (temp-guard.ts) reaches them all.
// No vitest here: the reporter and the global setup run in vitest's main process.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Missing } from './peers.js';

export const PEER_NOTES_ENV = 'BODY_BRIDGE_PEER_NOTES';
/** Its name in the run's temporary directory, which temp-guard.ts does not count as left behind. */
export const PEER_NOTES_FILE = 'peer-notes.jsonl';

export interface PeerNote extends Omit<Missing, 'ok'> {
  /** The test file that needed the peer. */
  file?: string;
  /** What was left out, where that is less than whole tests. */
  part?: string;
  /** Required by strict mode: the run fails on it. */
  required: boolean;
}

/** Appends a note; nothing to do where the run has no notes file (a test file run without the global setup). */
export function writeNote(note: PeerNote, env: NodeJS.ProcessEnv = process.env): void {
  const path = env[PEER_NOTES_ENV];
  if (path) appendFileSync(path, `${JSON.stringify(note)}\n`);
}

export function readNotes(env: NodeJS.ProcessEnv = process.env): PeerNote[] {
  const path = env[PEER_NOTES_ENV];
  if (!path || !existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as PeerNote);
}

/**
 * One paragraph per absent peer: why it was not found, what installs it, and which test files (and parts
 * of tests) went without it. Empty when every peer was there.
 */
export function formatNotes(notes: readonly PeerNote[], root: string): string[] {
  const byPeer = new Map<string, { note: PeerNote; files: Set<string>; parts: Map<string, Set<string>> }>();
  for (const n of notes) {
    const key = `${n.peer}\u0000${n.reason}`;
    const entry = byPeer.get(key) ?? { note: n, files: new Set<string>(), parts: new Map<string, Set<string>>() };
    const file = n.file ? [relative(root, n.file)] : [];
    if (n.part) entry.parts.set(n.part, new Set([...(entry.parts.get(n.part) ?? []), ...file]));
    else file.forEach((f) => entry.files.add(f));
    byPeer.set(key, entry);
  }
  if (byPeer.size === 0) return [];
  const lines = ['Skipped for want of a peer (install it and run again; docs/peers.md lists them all):'];
  for (const { note, files, parts } of [...byPeer.values()].sort((a, b) => a.note.peer.localeCompare(b.note.peer))) {
    lines.push(`  ${note.peer}${note.required ? ' [required by BODY_BRIDGE_REQUIRE_PEERS: the run fails]' : ''}: ${note.reason}`);
    lines.push(`    install: ${note.install}`);
    if (files.size > 0) lines.push(`    skipped in: ${[...files].sort().join(', ')}`);
    for (const [part, where] of [...parts].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`    left out: ${part}${where.size > 0 ? ` (${[...where].sort().join(', ')})` : ''}`);
    }
  }
  return lines;
}
