// robot_state_publisher's work: joint_states in, the moving joints' transforms out on /tf at most
// publish_frequency per joint, and the fixed ones on /tf_static whenever the model or frame_prefix changes.
// joint_states and /tf cross the transport as CDR bytes (src/cdr): converting every message to and from
// JavaScript objects cost far more than the node's own work.
import { jointStateReader } from '../cdr/joint-state.js';
import { tfMessageWriter } from '../cdr/tf-message.js';
import { MessageType, type Time } from '../messages/messages.js';
import {
  createWarningThrottle,
  handleJointState,
  type JointStateInput,
  type JointStateIssue,
  newStampPace,
  newThrottleState,
  notePublished,
  quietPeriodMs,
  stampNs,
  type StampPace,
  type ThrottleState,
} from './joint-states.js';
import type { NodeParams } from './params.js';
import { describeError, type Served } from './served-model.js';
import { placementOf, staticPlacement } from './placement.js';
import { movingTransforms, staticTransforms } from './tf.js';
import { latchedQoS, sensorDataQoS, tfQoS, type Transport } from './transport.js';

export const JOINT_STATES_TOPIC = 'joint_states';
// tf2_ros broadcasters publish on the absolute names; launch files remap them for namespaced robots.
export const TF_TOPIC = '/tf';
export const TF_STATIC_TOPIC = '/tf_static';

/** Repeated warnings of one kind (one unknown joint, time going backwards, ...) at most this often. */
export const WARNING_PERIOD_NS = 5_000_000_000n;

export interface TfPublisher {
  /** A new model is served: its fixed transforms go out on /tf_static and the per-joint rate limits start afresh. */
  serve(s: Served): void;
  /** Publishes /tf_static again (frame_prefix or the placement changed). */
  publishStatic(s: Served): void;
  /** One joint_states message, from the subscription or from our own initial-position publisher. */
  onJointState(msg: JointStateInput): void;
  stop(): void;
}

export interface TfPublisherOptions {
  transport: Transport;
  params(): NodeParams;
  served(): Served | null;
  /** Whether a received message is our own initial-position message coming back (already handled). */
  isOwnMessage(stamp: Time): boolean;
  /** Told when joint_states comes from someone else. */
  onOtherPublisher(): void;
}

type JointStateOptions = Parameters<typeof handleJointState>[3];

export function startTfPublisher(options: TfPublisherOptions): TfPublisher {
  const { transport, params } = options;
  const log = transport.log;
  const tfPub = transport.rawPublisher(TF_TOPIC, MessageType.TFMessage, tfQoS);
  const writeTf = tfMessageWriter();
  const tfStaticPub = transport.rawPublisher(TF_STATIC_TOPIC, MessageType.TFMessage, latchedQoS);
  const writeTfStatic = tfMessageWriter();
  let throttle: ThrottleState = newThrottleState();
  let pace: StampPace = newStampPace();
  const warnGate = createWarningThrottle(WARNING_PERIOD_NS);

  const report = (issue: JointStateIssue): void => {
    // Log pacing is not about the robot's time: on wall time it also holds while /clock stands still or jumps.
    const gate = warnGate(issue.key, transport.wallNowNs());
    if (!gate.emit) return;
    const more = gate.suppressed > 0 ? ` (${gate.suppressed} more like this since the last report)` : '';
    log[issue.level](issue.message + more);
  };

  // handleJointState's options change only with the parameters or the served model: made once for each pair.
  let cached: { served: Served; params: NodeParams; options: JointStateOptions } | null = null;
  const jointStateOptions = (s: Served): JointStateOptions => {
    const p = params();
    if (cached === null || cached.served !== s || cached.params !== p) {
      const names = s.jointNames;
      cached = {
        served: s,
        params: p,
        options: {
          publishFrequency: p.publish_frequency,
          ignoreTimestamp: p.ignore_timestamp,
          stampToleranceNs: BigInt(Math.round(p.stamp_tolerance * 1e9)),
          isKnownJoint: (name) => names.has(name),
        },
      };
    }
    return cached.options;
  };

  const handle = (s: Served, msg: JointStateInput, nowNs: bigint, rules: JointStateOptions): void => {
    const result = handleJointState(throttle, msg, nowNs, rules);
    for (const issue of result.issues) report(issue);
    if (!result.publish) return;
    notePublished(pace, stampNs(msg.header.stamp), transport.wallNowNs());
    const transforms = movingTransforms(s.moving, result.publish, msg.header.stamp, params().frame_prefix);
    if (transforms.length > 0) tfPub.publish(writeTf(transforms));
  };

  const onJointState = (msg: JointStateInput): void => {
    const s = options.served();
    if (s) handle(s, msg, stampNs(transport.now()), jointStateOptions(s));
  };

  const readJointState = jointStateReader();
  const unsubscribe = transport.subscribeRaw(JOINT_STATES_TOPIC, MessageType.JointState, sensorDataQoS, (bytes) => {
    let msg: JointStateInput;
    try {
      msg = readJointState(bytes);
    } catch (error) {
      report({ key: 'malformed', level: 'warn', message: `ignored a malformed JointState message: ${describeError(error)}` });
      return;
    }
    if (options.isOwnMessage(msg.header.stamp)) return;
    options.onOtherPublisher();
    const s = options.served();
    if (!s) return;
    const nowNs = stampNs(transport.now());
    const rules = jointStateOptions(s);
    handle(s, msg, nowNs, rules);
    // What the subscription may then leave untaken (Transport.subscribeRaw's quiet period): /tf comes from at most
    // publish_frequency of the messages, and every message taken costs the node more than its own work.
    return quietPeriodMs(throttle, pace, stampNs(msg.header.stamp), nowNs, rules);
  });

  const publishStatic = (s: Served): void => {
    const p = params();
    const placement = staticPlacement(placementOf(s.model, s.frames, p).placement);
    tfStaticPub.publish(writeTfStatic(staticTransforms(s.model, s.frames, transport.now(), p.frame_prefix, p.world_frame, p.free_root_frame, placement)));
  };

  return {
    serve(s): void {
      throttle = newThrottleState();
      pace = newStampPace();
      publishStatic(s);
    },
    publishStatic,
    onJointState,
    stop: unsubscribe,
  };
}
