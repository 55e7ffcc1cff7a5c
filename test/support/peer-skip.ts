// What a test does when a peer is absent: it is skipped, and the reason (which peer, where it was looked
// for, what installs it) is noted for the summary at the end of the run (peer-notes.ts). In strict mode
// (BODY_BRIDGE_REQUIRE_PEERS, see peers.ts) the absence of a required peer is a failing test instead.
import { expect, it, TestRunner } from 'vitest';
import { writeNote } from './peer-notes.js';
import { type Lookup, type Missing, requiredKinds } from './peers.js';

const isRequired = (m: Missing): boolean => requiredKinds().includes(m.kind);

function note(m: Missing, file: string | undefined, part?: string): void {
  const { ok: _ok, ...rest } = m;
  writeNote({ ...rest, ...(file ? { file } : {}), ...(part ? { part } : {}), required: isRequired(m) });
}

export const describeMissing = (m: Missing): string => `${m.peer} is missing (${m.reason}); install: ${m.install}`;

/**
 * For describe.skipIf / it.skipIf, at collection time: true when one of the peers is missing. Each missing
 * peer is noted; one that strict mode requires also gets a failing test of its own in place of the skipped
 * ones, so the run fails saying what to install (rather than passing, or crashing on a command not there).
 */
export function skipWithout(...lookups: Lookup<object>[]): boolean {
  const absent = lookups.filter((l): l is Missing => !l.ok);
  const file = TestRunner.getCurrentSuite()?.file?.filepath;
  for (const m of absent) {
    note(m, file);
    if (isRequired(m)) {
      it(`needs ${m.peer} (BODY_BRIDGE_REQUIRE_PEERS=${process.env.BODY_BRIDGE_REQUIRE_PEERS})`, () => {
        throw new Error(describeMissing(m));
      });
    }
  }
  return absent.length > 0;
}

/**
 * Inside a test, for checks that are one part of it (check_urdf in the hostile-input contract): whether to
 * run that part. A missing peer is noted with the part left out; strict mode fails the test on it.
 */
export function partWith(part: string, ...lookups: Lookup<object>[]): boolean {
  const absent = lookups.filter((l): l is Missing => !l.ok);
  for (const m of absent) note(m, expect.getState().testPath, part);
  const required = absent.filter(isRequired);
  if (required.length > 0) throw new Error(`${part}: ${required.map(describeMissing).join('; ')}`);
  return absent.length === 0;
}
