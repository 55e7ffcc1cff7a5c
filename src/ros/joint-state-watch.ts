// joint_states that stop flowing: the simulator killed or paused, a driver crashed. robot_state_publisher says
// nothing, and its /tf holds the last positions (it publishes only when joint_states arrive); this node does the
// same — it never extrapolates a joint — and says so, once when a stream that was flowing goes silent, once when
// it comes back. Silence is measured on wall time: a killed simulator stops /clock too, so simulation time would
// never see it.
import type { Transport } from './transport.js';

/** ms of wall time without a message before a flowing stream counts as stopped. */
export const JOINT_STATES_SILENCE_MS = 2000;
/** ms between two looks at the stream: the silence is noticed at most this late. */
const LOOK_MS = 250;
/** Messages that make a stream "flowing": one stray message is not a stream that stopped. */
const FLOWING = 2;

export interface StreamState {
  /** Messages heard since the stream (re)started flowing, or since the node began listening. */
  heard: number;
  /** ms of wall time since the last message. */
  silentMs: number;
  /** Whether the stop was reported and not yet the resumption. */
  stopped: boolean;
}

export const newStreamState = (): StreamState => ({ heard: 0, silentMs: 0, stopped: false });

/**
 * One look at the stream, `elapsedMs` after the previous one, having heard `messages` since: the next state and
 * what to say, if anything.
 */
export function lookAtStream(state: StreamState, messages: number, elapsedMs: number): { state: StreamState; say: 'stopped' | 'resumed' | null } {
  if (messages > 0) {
    const resumed = state.stopped;
    return { state: { heard: (resumed ? 0 : state.heard) + messages, silentMs: 0, stopped: false }, say: resumed ? 'resumed' : null };
  }
  const silentMs = state.silentMs + elapsedMs;
  if (!state.stopped && state.heard >= FLOWING && silentMs >= JOINT_STATES_SILENCE_MS) return { state: { ...state, silentMs, stopped: true }, say: 'stopped' };
  return { state: { ...state, silentMs }, say: null };
}

export interface JointStateWatch {
  /** One message from another publisher: as cheap as a counter, it runs for every message. */
  heard(): void;
  stop(): void;
}

export function startJointStateWatch(transport: Transport, topic: () => string): JointStateWatch {
  let messages = 0;
  let state = newStreamState();
  const stopTimer = transport.wallTimer(LOOK_MS, () => {
    const look = lookAtStream(state, messages, LOOK_MS);
    const silence = (state.silentMs / 1000).toFixed(1);
    state = look.state;
    messages = 0;
    if (look.say === 'stopped') {
      transport.log.warn(
        `${topic()} stopped: no message for ${(JOINT_STATES_SILENCE_MS / 1000).toFixed(0)} s after ${state.heard} (its publisher ended or paused); ` +
          '/tf holds the last positions until it resumes',
      );
    } else if (look.say === 'resumed') {
      transport.log.info(`${topic()} resumed after ${silence} s of silence`);
    }
  });
  return {
    heard(): void {
      messages++;
    },
    stop: stopTimer,
  };
}
