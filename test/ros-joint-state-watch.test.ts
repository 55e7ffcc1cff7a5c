// joint_states that stop and resume (issue 40, the simulator killed): the node says so once each way, on wall
// time, and its /tf holds the last positions — it publishes nothing while the stream is silent.
import { describe, expect, it } from 'vitest';
import { JOINT_STATES_SILENCE_MS, lookAtStream, newStreamState, type StreamState } from '../src/ros/joint-state-watch.js';
import type { TFMessage } from '../src/messages/messages.js';
import { sampleRobot } from './support/urdf-models.js';
import { at, jointState, rig } from './support/ros-rig.js';

describe('lookAtStream', () => {
  const flowing: StreamState = { heard: 50, silentMs: 0, stopped: false };
  it.each([
    ['messages keep a flowing stream flowing', flowing, 5, 250, { heard: 55, silentMs: 0, stopped: false }, null],
    ['silence short of the bound says nothing', flowing, 0, JOINT_STATES_SILENCE_MS - 1, { heard: 50, silentMs: JOINT_STATES_SILENCE_MS - 1, stopped: false }, null],
    ['silence at the bound: stopped', { ...flowing, silentMs: JOINT_STATES_SILENCE_MS - 250 }, 0, 250, { heard: 50, silentMs: JOINT_STATES_SILENCE_MS, stopped: true }, 'stopped'],
    ['once stopped, more silence says nothing again', { heard: 50, silentMs: 5000, stopped: true }, 0, 250, { heard: 50, silentMs: 5250, stopped: true }, null],
    ['a message after the stop: resumed, counting afresh', { heard: 50, silentMs: 5000, stopped: true }, 1, 250, { heard: 1, silentMs: 0, stopped: false }, 'resumed'],
    ['one stray message is not a stream that stopped', { heard: 1, silentMs: 0, stopped: false }, 0, 60_000, { heard: 1, silentMs: 60_000, stopped: false }, null],
    ['nothing ever heard: nothing to say', newStreamState(), 0, 60_000, { heard: 0, silentMs: 60_000, stopped: false }, null],
  ] as const)('%s', (_what, state, messages, elapsed, next, say) => {
    expect(lookAtStream(state, messages, elapsed)).toEqual({ state: next, say });
  });
});

describe('the node when joint_states stop and resume', () => {
  it('warns once after the silence (wall time, the node clock standing still), /tf stays quiet, and says when it resumes', () => {
    const r = rig(sampleRobot(), { use_sim_time: true });
    const stamp = (k: number) => at(100, k * 10_000_000);
    for (let k = 0; k < 20; k++) {
      r.transport.setTime(stamp(k));
      r.transport.inject('joint_states', jointState(stamp(k), ['shoulder'], [0.01 * k]));
      r.transport.advanceWall(10);
    }
    const tfBefore = r.transport.messages<TFMessage>('/tf').length;
    const stops = () => r.transport.logs.filter((l) => / stopped: no message for 2 s after \d+ \(its publisher ended or paused\); \/tf holds the last positions/.test(l.message));
    r.transport.advanceWall(JOINT_STATES_SILENCE_MS - 300);
    expect(stops()).toHaveLength(0);
    r.transport.advanceWall(600);
    expect(stops()).toHaveLength(1);
    expect(stops()[0]).toMatchObject({ level: 'warn' });
    expect(stops()[0]!.message).toMatch(/^\/joint_states stopped/);
    r.transport.advanceWall(30_000);
    expect(stops(), 'said once').toHaveLength(1);
    expect(r.transport.messages<TFMessage>('/tf').length, 'nothing invented while silent').toBe(tfBefore);
    r.transport.setTime(stamp(30));
    r.transport.inject('joint_states', jointState(stamp(30), ['shoulder'], [0.3]));
    r.transport.advanceWall(300);
    expect(r.transport.logs.filter((l) => /^\/joint_states resumed after \d+\.\d s of silence$/.test(l.message))).toHaveLength(1);
  });

  it('the node\'s own initial positions are not a stream that can stop', () => {
    const r = rig(sampleRobot(), { publish_joint_states: true });
    r.transport.advance(1000);
    r.bridge.setParams({ publish_joint_states: false });
    r.transport.advanceWall(10_000);
    expect(r.transport.logs.filter((l) => /stopped: no message/.test(l.message))).toEqual([]);
  });
});
