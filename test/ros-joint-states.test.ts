// joint_states from a hostile or broken publisher (hostile findings against src/ros): whatever arrives,
// the node logs a bounded amount, keeps bounded state, and /tf keeps following good messages.
import { describe, expect, it } from 'vitest';
import { createWarningThrottle, handleJointState, invalidStamp, newThrottleState } from '../src/ros/joint-states.js';
import type { TFMessage } from '../src/messages/messages.js';
import { sampleRobot } from './support/urdf-models.js';
import { at, jointState, rig } from './support/ros-rig.js';

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
    // Warnings are paced on wall time (setTime moves only the node clock).
    r.transport.advanceWall(5000);
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

describe('stamps', () => {
  const send = (r: ReturnType<typeof rig>, stamp: { sec: number; nanosec: number }, q: number): void => {
    r.transport.inject('joint_states', jointState(stamp, ['shoulder'], [q]));
  };
  /** A normally stamped message 100 ms later on the node clock; whether /tf carried it. */
  const followsNext = (r: ReturnType<typeof rig>): boolean => {
    r.transport.advance(100);
    const before = tfCount(r);
    send(r, r.transport.now(), 0.5);
    return tfCount(r) === before + 1;
  };

  it('a message stamped at 2^31-1 s is dropped with a warning; later, normally stamped messages still move /tf', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    send(r, at(2_147_483_647, 999_999_999), 0.9);
    expect(tfCount(r)).toBe(0);
    expect(warnings(r).filter((w) => /ahead of the node clock/.test(w))).toHaveLength(1);
    expect(warnings(r)[0]).toMatch(/stamped 2147481648 s ahead of the node clock \(more than stamp_tolerance = 5 s\)/);
    expect(followsNext(r)).toBe(true);
    expect(followsNext(r)).toBe(true);
  });

  it('nanosec 4294967295 (not below 1e9: no builtin_interfaces/Time) is dropped with a warning; the next message moves /tf', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    send(r, at(T0, 4_294_967_295), 0.9);
    expect(tfCount(r)).toBe(0);
    expect(warnings(r)).toEqual(['ignored a JointState message with an invalid stamp: nanosec 4294967295 is not in [0, 1e9)']);
    expect(followsNext(r)).toBe(true);
  });

  it('out-of-range nanosec are invalid stamps, never an exception', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    // CDR carries sec as int32 and nanosec as uint32: what can be wrong on the wire is nanosec ≥ 1e9.
    for (const stamp of [at(T0, 1e9), at(T0, 4_294_967_295)]) {
      expect(() => r.transport.inject('joint_states', jointState(stamp, ['shoulder'], [0.2]))).not.toThrow();
    }
    for (const stamp of [at(T0 + 0.5), at(T0, 1.5), at(T0, -1), at(2 ** 31), { sec: 'x', nanosec: 0 }]) {
      expect(invalidStamp(stamp as never)).not.toBeNull();
    }
    expect(tfCount(r)).toBe(0);
    expect(followsNext(r)).toBe(true);
  });

  it('within stamp_tolerance a stamp ahead is used as robot_state_publisher would; the tolerance changes at run time, 0 = no limit', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    send(r, at(T0 + 4), 0.1);
    expect(tfCount(r)).toBe(1);
    expect(r.transport.last<TFMessage>('/tf')!.transforms[0]!.header.stamp).toEqual(at(T0 + 4));
    send(r, at(T0 + 10), 0.2);
    expect(tfCount(r)).toBe(1);
    expect(r.bridge.setParams({ stamp_tolerance: 20.0 }).successful).toBe(true);
    send(r, at(T0 + 10), 0.2);
    expect(tfCount(r)).toBe(2);
    expect(r.bridge.setParams({ stamp_tolerance: 0.0 }).successful).toBe(true);
    send(r, at(2_147_483_647), 0.3);
    expect(tfCount(r)).toBe(3);
    // robot_state_publisher's behaviour, which the default avoids: the cache now holds /tf back.
    expect(followsNext(r)).toBe(false);
    expect(r.bridge.setParams({ stamp_tolerance: -1 })).toMatchObject({ successful: false, reason: expect.stringMatching(/between 0 and/) });
  });

  it('stamps jumping back by more than stamp_tolerance (a restarted simulation, the node on wall time) clear the cache with a warning', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    for (let k = 0; k < 10; k++) send(r, at(50, k * 100_000_000), 0.1); // sim time 50.0 .. 50.9 s
    expect(tfCount(r)).toBe(10);
    // A stamp 1 s back is reordering, not a restart: throttled as robot_state_publisher throttles it.
    send(r, at(49, 900_000_000), 0.2);
    expect(tfCount(r)).toBe(10);
    expect(warnings(r)).toEqual([]);
    send(r, at(0, 500_000_000), 0.3);
    expect(tfCount(r)).toBe(11);
    expect(warnings(r)).toEqual(['joint_states stamps moved back 50.4 s (a restarted publisher or a looping bag?), re-publishing joint transforms']);
    send(r, at(0, 600_000_000), 0.4);
    expect(tfCount(r)).toBe(12);
  });

  it('with ignore_timestamp the stamp is not measured against the clock (robot_state_publisher), but must be valid', () => {
    const r = rig(sampleRobot(), { ignore_timestamp: true });
    r.transport.setTime(at(T0));
    send(r, at(T0 + 3600), 0.1);
    expect(tfCount(r)).toBe(1);
    send(r, at(T0, 1_000_000_000), 0.2);
    expect(tfCount(r)).toBe(1);
    expect(warnings(r)).toEqual(['ignored a JointState message with an invalid stamp: nanosec 1000000000 is not in [0, 1e9)']);
  });

  it('a node clock at 0 (sim time before the first /clock) measures nothing: the message is used', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(0));
    send(r, at(100), 0.1);
    expect(tfCount(r)).toBe(1);
  });

  // A simulation restarted under joint_states at 1 kHz (Jazzy's joint_state_broadcaster): the old run's last
  // message can arrive after the new run's first /clock. Let in, it would hold /tf for the old run's length (1.7 s here).
  it.each([
    ['a straggler from before a restart is not let in: the new run is on /tf at once', true],
    ['with ignore_timestamp every message is used, the straggler too', false],
  ] as const)('%s', (_, checked) => {
    const state = newThrottleState();
    const o = { ...rules, ignoreTimestamp: !checked };
    const ns = (s: number): bigint => BigInt(Math.round(s * 1e9));
    const msg = (s: number) => jointState(at(Math.floor(s), Math.round((s % 1) * 1e9)), ['shoulder'], [s]);
    expect(handleJointState(state, msg(1.7), ns(1.7), o).publish).not.toBeNull();
    // The clock went back to 0.01 s; the message stamped 1.765 s was sent before that.
    const straggler = handleJointState(state, msg(1.765), ns(0.01), o);
    expect(straggler.issues.map((i) => i.key)).toEqual(['backwards']);
    expect(straggler.publish === null).toBe(checked);
    // The new run: published at once (with the straggler cached it would wait for 1.815 s).
    expect(handleJointState(state, msg(0.06), ns(0.06), o).publish?.get('shoulder')).toBe(0.06);
    // A stamp just ahead of the clock (a step or two) is the new run's, not a straggler; so is one far past the old
    // clock (not the old run's), and once the clock has caught up with the old one, nothing is held back.
    const late = newThrottleState();
    handleJointState(late, msg(1.7), ns(1.7), rules);
    handleJointState(late, msg(0.02), ns(0.01), rules);
    expect(handleJointState(late, msg(0.2), ns(0.15), rules).publish).not.toBeNull();
    expect(handleJointState(late, msg(2.3), ns(0.3), rules).publish).not.toBeNull();
    expect(late.jumpedFrom).not.toBeNull();
    handleJointState(late, msg(2.4), ns(1.8), rules);
    expect(late.jumpedFrom).toBeNull();
  });

  it('time going backwards after a far-future message: nothing was cached, /tf follows the replay at once', () => {
    const r = rig(sampleRobot());
    r.transport.setTime(at(T0));
    send(r, at(T0 + 100), 0.1);
    r.transport.setTime(at(T0 - 50));
    send(r, at(T0 - 50), 0.2);
    expect(tfCount(r)).toBe(1);
    expect(followsNext(r)).toBe(true);
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

  it('a position that is not a number is skipped and logged short', () => {
    const state = newThrottleState();
    const msg = { header: { stamp: at(T0) }, name: ['shoulder'], position: ['y'.repeat(1_000_000) as unknown as number] };
    const result = handleJointState(state, msg, BigInt(T0) * S, rules);
    expect(result.publish?.size).toBe(0);
    expect(result.issues.map((i) => i.message)).toEqual([`skipping joint 'shoulder': position ${'y'.repeat(40)} is not finite`]);
    // Over CDR a position is a float64: NaN is what gets through.
    const r = rig(sampleRobot());
    sendAt(r, 0, ['shoulder', 'slide'], [Number.NaN, 0.1]);
    expect(r.transport.last<TFMessage>('/tf')!.transforms.map((t) => t.child_frame_id)).toEqual(['slider']);
    expect(warnings(r)).toEqual([`skipping joint 'shoulder': position NaN is not finite`]);
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

describe('the per-names cache', () => {
  it('a names array seen again gives what a fresh copy of it gives, message for message, whatever other name sets and clock jumps come between', () => {
    // A tiny random walk over stamps, node clock and name sets; the same messages go to two states: one
    // gets the reader's habit (the same array while the names stay), the other a new array each time.
    const known = new Set(['a', 'b', 'c']);
    const opts = { publishFrequency: 20, ignoreTimestamp: false, stampToleranceNs: S, isKnownJoint: (n: string) => known.has(n) };
    const sets = [['a', 'b', 'c'], ['b', 'c'], ['a', 'ghost'], ['c', 'a', 'b']];
    const shared = newThrottleState();
    const fresh = newThrottleState();
    let seed = 7;
    const rnd = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    let stampMs = 10_000;
    let clockMs = 10_000;
    const published: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const names = sets[rnd(8) < 6 ? 0 : rnd(sets.length)]!;
      const step = rnd(100) === 0 ? -3000 : rnd(40); // now and then a restarted publisher
      stampMs = Math.max(0, stampMs + step);
      clockMs += rnd(100) === 0 ? -500 : rnd(30); // and a node clock going back
      const stamp = { sec: Math.floor(stampMs / 1000), nanosec: (stampMs % 1000) * 1_000_000 };
      const nowNs = BigInt(clockMs) * 1_000_000n;
      const positions = names.map((_, j) => i + j);
      const a = handleJointState(shared, { header: { stamp }, name: names, position: positions }, nowNs, opts);
      const b = handleJointState(fresh, { header: { stamp }, name: [...names], position: positions }, nowNs, opts);
      expect(a.publish && [...a.publish], `message ${i}`).toEqual(b.publish && [...b.publish]);
      expect(a.issues, `message ${i}`).toEqual(b.issues);
      if (a.publish) published.push(names.join());
    }
    // The walk did exercise the throttle both ways.
    expect(published.length).toBeGreaterThan(100);
    expect(published.length).toBeLessThan(2900);
    expect(new Set(published).size).toBeGreaterThan(2);
  });
});
