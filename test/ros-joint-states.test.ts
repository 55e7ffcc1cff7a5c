// joint_states from a hostile or broken publisher (issue 8 findings against src/ros): whatever arrives,
// the node logs a bounded amount, keeps bounded state, and /tf keeps following good messages.
import { describe, expect, it } from 'vitest';
import { createWarningThrottle, handleJointState, newThrottleState } from '../src/ros/joint-states.js';
import type { TFMessage } from '../src/ros/messages.js';
import { sampleRobot } from './support/urdf-models.js';
import { at, jointState, rig } from './ros-helpers.js';

const T0 = 2000;
const S = 1_000_000_000n;
const rules = { publishFrequency: 20, ignoreTimestamp: false, isKnownJoint: (n: string) => n === 'shoulder' };

/** Moves the clock to T0 + ms and delivers a joint_states message stamped with that time. */
function sendAt(r: ReturnType<typeof rig>, ms: number, names: string[], positions?: number[]): void {
  const stamp = at(T0 + Math.floor(ms / 1000), (ms % 1000) * 1_000_000);
  r.transport.setTime(stamp);
  r.transport.inject('joint_states', jointState(stamp, names, positions ?? names.map(() => 0.1)));
}
const tfCount = (r: ReturnType<typeof rig>): number => r.transport.messages('/tf').length;
const warnings = (r: ReturnType<typeof rig>): string[] => r.transport.logs.filter((l) => l.level === 'warn').map((l) => l.message);

describe('unknown joint names', () => {
  it('one message naming 100,000 unknown joints gives one warning with the count and a few names; the known joint still moves', () => {
    const r = rig(sampleRobot());
    const names = Array.from({ length: 100_000 }, (_, i) => `ghost_${i}`);
    sendAt(r, 0, [...names, 'shoulder'], [...names.map(() => 0), 0.4]);
    const ghost = warnings(r).filter((w) => /ghost_/.test(w));
    expect(ghost).toHaveLength(1);
    expect(ghost[0]).toMatch(/100000 unknown joints/);
    expect(ghost[0]).toMatch(/'ghost_0', 'ghost_1'/);
    expect(ghost[0]).toMatch(/99995 more/);
    expect(ghost[0]!.length).toBeLessThan(1000);
    expect(r.transport.last<TFMessage>('/tf')!.transforms.map((t) => t.child_frame_id)).toEqual(['arm']);
  });

  it('ever-new unknown names: one warning per 5 s window in all, counting the held-back ones', () => {
    const r = rig(sampleRobot());
    for (let k = 0; k < 50; k++) sendAt(r, k * 100, [`ghost_${k}`, 'shoulder'], [0, 0.1]);
    const ghost = () => warnings(r).filter((w) => /ghost_/.test(w));
    expect(ghost()).toEqual(["ignoring unknown joint 'ghost_0' in joint_states"]);
    sendAt(r, 5000, ['ghost_x'], [0]);
    expect(ghost()).toHaveLength(2);
    expect(ghost()[1]).toMatch(/'ghost_x'.*49 more like this/);
  });

  it('only the model joints enter the timestamp cache, however many new names arrive', () => {
    const state = newThrottleState();
    for (let k = 0; k < 10_000; k++) {
      const stamp = at(T0, k * 100_000);
      handleJointState(state, jointState(stamp, [`ghost_${k}`, 'shoulder'], [0, 0.1]), BigInt(T0) * S + BigInt(k) * 100_000n, rules);
    }
    expect([...state.lastPublished.keys()]).toEqual(['shoulder']);
  });

  it('unknown names do not get round the publish_frequency throttle', () => {
    const r = rig(sampleRobot());
    for (const ms of [0, 10, 20, 49]) sendAt(r, ms, [`ghost_${ms}`, 'shoulder']);
    expect(tfCount(r)).toBe(1);
    sendAt(r, 50, ['ghost_50', 'shoulder']);
    expect(tfCount(r)).toBe(2);
  });

  it('a message naming only unknown joints is warned about even while its stamp would be throttled', () => {
    const r = rig(sampleRobot());
    sendAt(r, 0, ['shoulder']);
    sendAt(r, 1, ['ghost'], [0]);
    expect(warnings(r).some((w) => /unknown joint 'ghost'/.test(w))).toBe(true);
    expect(tfCount(r)).toBe(1);
  });
});

describe('names in log lines', () => {
  it('a megabyte-long joint name is cut to its first 100 characters and its length', () => {
    const r = rig(sampleRobot());
    const huge = 'x'.repeat(1_000_000);
    sendAt(r, 0, [huge, 'shoulder'], [0, 0.3]);
    sendAt(r, 6000, [huge], []);
    expect(tfCount(r)).toBe(1);
    const lines = r.transport.logs.map((l) => l.message);
    expect(lines.filter((l) => l.includes(`'${'x'.repeat(100)}…' (1000000 characters)`))).toHaveLength(2);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(400);
  });
});

describe('the warning throttle', () => {
  it('remembers a bounded number of kinds: past the bound the oldest live kind is forgotten (its next warning comes early)', () => {
    const gate = createWarningThrottle(5n * S, 2);
    expect(['a', 'b', 'c'].map((k) => gate(k, 0n).emit)).toEqual([true, true, true]);
    // 'a' was forgotten to make room for 'c'; 'c' and 'b' are still in their windows.
    expect(gate('a', S).emit).toBe(true);
    expect(gate('c', S).emit).toBe(false);
  });

  it('forgets expired kinds before live ones', () => {
    const gate = createWarningThrottle(5n * S, 2);
    gate('a', 0n);
    gate('b', 4n * S);
    gate('c', 6n * S); // 'a' has expired: it goes, 'b' stays
    expect(gate('b', 7n * S)).toEqual({ emit: false, suppressed: 1 });
    gate('d', 7n * S); // 'b' and 'c' are live: the older, 'b', goes
    expect(gate('c', 8n * S).emit).toBe(false);
    expect(gate('b', 8n * S).emit).toBe(true);
  });
});
