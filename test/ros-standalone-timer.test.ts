// The standalone timer (src/ros/standalone-timer.ts) on the in-memory transport's manual clock: what it sends, and
// when, is held against an independent account of the rule — a message at every period boundary of a silent
// stretch, none in a period with a streamed message — and how many timers it keeps (the point of it: while the
// stream runs, only the slow watch timer).
import { describe, expect, it } from 'vitest';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { standaloneTimer, WATCH_PERIOD_MS } from '../src/ros/standalone-timer.js';

const setup = (periodMs: number) => {
  const t = createMemoryTransport({ start: { sec: 100, nanosec: 0 } });
  const sent: number[] = [];
  const ms = (): number => Math.round((t.now().sec - 100) * 1000 + t.now().nanosec / 1e6);
  const timer = standaloneTimer(t.timer, periodMs, () => sent.push(ms()));
  return { t, sent, timer, ms };
};

describe('standaloneTimer', () => {
  it('sends at every period while nothing streams', () => {
    const { t, sent } = setup(100);
    t.advance(1000);
    expect(sent).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  });

  it('sends nothing while the stream runs, and keeps only the watch timer then', () => {
    const { t, sent, timer } = setup(1000 / 30);
    // 30 Hz images for 3 s: one before every tick.
    for (let i = 0; i < 90; i++) {
      timer.streamed();
      t.advance(1000 / 30);
    }
    expect(sent).toEqual([]);
    expect(t.active().timers).toBe(1);
  });

  it('sends again once a whole watch period went by silent, at once and then at every period', () => {
    const { t, sent, timer, ms } = setup(100);
    for (let i = 0; i < 20; i++) {
      timer.streamed();
      t.advance(100);
    }
    const stoppedAt = ms();
    t.advance(2000);
    expect(sent.length).toBeGreaterThan(0);
    // The first one within two watch periods of the last streamed message (the watch tick that finds a silent period).
    expect(sent[0]! - stoppedAt).toBeLessThanOrEqual(2 * WATCH_PERIOD_MS);
    // Then at the period, with none missing up to the end.
    for (let i = 1; i < sent.length; i++) expect(sent[i]! - sent[i - 1]!).toBe(100);
    expect(sent.at(-1)).toBe(ms());
  });

  it('a slower stream than the watch period is watched at its own period', () => {
    const { t, sent, timer } = setup(2000);
    for (let i = 0; i < 5; i++) {
      timer.streamed();
      t.advance(2000);
    }
    expect(sent).toEqual([]);
    t.advance(6000);
    expect(sent.length).toBeGreaterThanOrEqual(2);
  });

  it('stop releases whichever timer runs', () => {
    const a = setup(100);
    a.timer.stop();
    expect(a.t.active().timers).toBe(0);
    const b = setup(100);
    b.timer.streamed();
    b.t.advance(100);
    expect(b.t.active().timers).toBe(1);
    b.timer.stop();
    expect(b.t.active().timers).toBe(0);
    b.t.advance(5000);
    expect(b.sent).toEqual([]);
  });
});
