// The seam between the bridge logic and ROS 2. The rclnodejs implementation (src/ros/rclnodejs-transport.ts)
// is the only code that touches rclnodejs; the in-memory implementation (src/ros/memory-transport.ts)
// runs the very same bridge in tests and in the dry run without ROS 2.
import type { MessageTypeName, Time } from '../messages/messages.js';

export interface QoS {
  reliability: 'reliable' | 'best_effort';
  durability: 'volatile' | 'transient_local';
  depth: number;
}

/** robot_description and /tf_static: late joiners get the last message. */
export const latchedQoS: QoS = { reliability: 'reliable', durability: 'transient_local', depth: 1 };
/** /tf, as tf2_ros's TransformBroadcaster publishes it. */
export const tfQoS: QoS = { reliability: 'reliable', durability: 'volatile', depth: 100 };
/** rclcpp's SensorDataQoS: best effort, so it matches both reliable and best-effort publishers. */
export const sensorDataQoS: QoS = { reliability: 'best_effort', durability: 'volatile', depth: 5 };

/** What a raw subscriber may return: ms during which it needs no message, or nothing. */
export type QuietMs = number | void;

export interface Publisher<T> {
  readonly topic: string;
  publish(message: T): void;
  /**
   * How many subscriptions on the graph this publisher reaches now (rcl_publisher_get_subscription_count):
   * a volatile subscriber that joins later gets nothing already sent, so a publisher whose last message
   * must reach it (the planning scene for move_group) watches this and sends again.
   */
  subscriptionCount(): number;
}

/** Publishes messages already serialized as CDR (encapsulation header included), as they go on the wire. */
export interface RawPublisher {
  readonly topic: string;
  /** The transport is done with `bytes` when this returns: the caller may reuse them. */
  publish(bytes: Uint8Array): void;
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Transport {
  /** The node's namespace ('/' for the root): where its relative topic names resolve (remappings aside). */
  readonly namespace: string;
  /** Topic names are relative unless they start with '/', so namespaces and remapping apply. */
  publisher<T>(topic: string, type: MessageTypeName, qos: QoS): Publisher<T>;
  /** Returns a function that ends the subscription. */
  subscribe<T>(topic: string, type: MessageTypeName, qos: QoS, onMessage: (message: T) => void): () => void;
  /**
   * The high-rate path: messages cross as their CDR bytes (src/cdr reads and writes them), not as
   * objects built field by field by the client library.
   */
  rawPublisher(topic: string, type: MessageTypeName, qos: QoS): RawPublisher;
  /**
   * Like subscribe(), with each message's CDR bytes; they are the callback's only for the call's duration: the
   * transport may free them once it returns (every view of them then reads as empty), so whatever outlives the
   * call is copied out of them.
   *
   * The callback may return a quiet period in ms: no message arriving within it can change what the subscriber
   * does. The transport may then leave the topic untaken for that long, so its queue keeps only the newest
   * `qos.depth` of what arrives meanwhile (quiet-hold.ts).
   */
  subscribeRaw(topic: string, type: MessageTypeName, qos: QoS, onBytes: (bytes: Uint8Array) => QuietMs): () => void;
  /** Calls `tick` every `periodMs` until the returned function is called. */
  timer(periodMs: number, tick: () => void): () => void;
  /**
   * Like timer(), on wall (steady) time: for work that is not about the robot's time, such as watching
   * the body file, which must go on while a simulation holds /clock still.
   */
  wallTimer(periodMs: number, tick: () => void): () => void;
  /** Wall (steady) time in nanoseconds, for pacing what is not about the robot's time (log throttling). */
  wallNowNs(): bigint;
  /** The node's clock (ROS time when use_sim_time is set). */
  now(): Time;
  /** The node's fully qualified name (`/ns/body_bridge`), remappings applied. */
  readonly nodeName: string;
  /** Fully qualified names of the nodes on the graph now, this one included (rcl_get_node_names). */
  graphNodes(): string[];
  /** Publishers of `topic` on the graph now (rcl_count_publishers; a relative name resolves in the namespace). */
  publisherCount(topic: string): number;
  readonly log: Logger;
}
