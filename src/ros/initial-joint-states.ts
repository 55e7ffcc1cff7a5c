// joint_state_publisher's first-look role: the served model's initial joint positions on joint_states
// at 10 Hz, so that a robot shows up in rviz with nothing else running, until another node publishes
// joint_states (a simulator, a driver): then this one stops and stays stopped.
import { writeJointState } from '../cdr/joint-state.js';
import { type JointState, MessageType, type Time } from '../messages/messages.js';
import type { RawPublisher, Transport } from './transport.js';

/** joint_state_publisher's default rate. */
export const JOINT_STATE_RATE_HZ = 10;
/** How many of our own recent stamps are remembered to recognise our messages coming back. */
const OWN_STAMPS_KEPT = 64;

export interface InitialJointStates {
  /** Starts or stops the timer for `enabled` (publish_joint_states); stays stopped once another publisher was seen. */
  restart(enabled: boolean): void;
  /** publish_joint_states was set to true again: publish even though another publisher was seen before. */
  forgetOtherPublisher(): void;
  /** Whether `stamp` is one of the messages we published ourselves. */
  isOwnMessage(stamp: Time): boolean;
  /** Another node publishes joint_states: stop for good (until forgetOtherPublisher). */
  otherPublisherSeen(): void;
  stop(): void;
}

export interface InitialJointStatesOptions {
  transport: Transport;
  topic: string;
  /** The positions to publish now (the served model's), or null while nothing is served. */
  positions(): ReadonlyMap<string, number> | null;
  /** Each published message is also handed straight to the TF publisher (its echo is then ignored). */
  deliver(msg: JointState): void;
}

export function startInitialJointStates(options: InitialJointStatesOptions): InitialJointStates {
  const { transport } = options;
  // Advertised only once used, so a node told not to publish joint_states never shows up as a publisher
  // there. joint_state_publisher's QoS: reliable, volatile, depth 10.
  let publisher: RawPublisher | null = null;
  const ownStamps: Time[] = [];
  let otherPublisher = false;
  let stopTimer: (() => void) | null = null;

  const publish = (): void => {
    const positions = options.positions();
    if (!positions) return;
    const stamp = transport.now();
    const msg: JointState = {
      header: { stamp, frame_id: '' },
      name: [...positions.keys()],
      position: [...positions.values()],
      velocity: [],
      effort: [],
    };
    ownStamps.push({ sec: stamp.sec, nanosec: stamp.nanosec });
    if (ownStamps.length > OWN_STAMPS_KEPT) ownStamps.shift();
    publisher ??= transport.rawPublisher(options.topic, MessageType.JointState, { reliability: 'reliable', durability: 'volatile', depth: 10 });
    publisher.publish(writeJointState(msg));
    options.deliver(msg);
  };

  const stop = (): void => {
    stopTimer?.();
    stopTimer = null;
  };

  return {
    restart(enabled): void {
      stop();
      if (enabled && !otherPublisher) stopTimer = transport.timer(1000 / JOINT_STATE_RATE_HZ, publish);
    },
    forgetOtherPublisher(): void {
      otherPublisher = false;
    },
    isOwnMessage(stamp): boolean {
      for (const own of ownStamps) if (own.sec === stamp.sec && own.nanosec === stamp.nanosec) return true;
      return false;
    },
    otherPublisherSeen(): void {
      if (stopTimer === null || otherPublisher) return;
      otherPublisher = true;
      stop();
      transport.log.info('another node publishes joint_states: stopped publishing initial joint positions');
    },
    stop,
  };
}
