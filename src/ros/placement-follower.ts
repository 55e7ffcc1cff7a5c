// The live half of placement.ts: for a free root with placement_topic, placement_frame → root (or, under
// REP-105, odom → root) on /tf for every message, stamped with the message's own stamp. Restarted whenever the
// served model or the parameters it reads change; a bad message is dropped with a (throttled) warning and never
// stops it.
import { tfMessageWriter } from '../cdr/tf-message.js';
import { MessageType } from '../messages/messages.js';
import { createWarningThrottle, stampNs } from './joint-states.js';
import type { NodeParams } from './params.js';
import { type Placement, placementFromMessage, placementOf, placementParent } from './placement.js';
import type { Served } from './served-model.js';
import { poseToTransform } from './tf.js';
import { TF_TOPIC, WARNING_PERIOD_NS } from './tf-publisher.js';
import { type QoS, sensorDataQoS, tfQoS, type Transport } from './transport.js';

/**
 * Best effort, so that it hears reliable and best-effort publishers alike, keeping what a tf2 listener buffers
 * (10 s) of a 50 Hz source: a late pose is still right at its stamp, a lost one is a gap in the root's /tf. Poses
 * come in bursts — a node busy relaying sensors takes its messages late, and Choreonoid's compensatory real-time
 * sync runs a stalled simulation fast to catch up — and with 5 a busy node lost 0.3 s of a 50 Hz ground truth at a
 * time, with 50 1.6 s on a loaded machine (seen live, test/ros-live-world.test.ts).
 */
export const POSE_SOURCE_QOS: QoS = { ...sensorDataQoS, depth: 500 };

/** Wall seconds without a first message on placement_topic before the node says the body has no pose. */
export const FIRST_POSE_WAIT_S = 5;

export interface PlacementFollower {
  /** Applies the placement of `served` under the current parameters: logs what it does, (re)subscribes or stops. */
  restart(served: Served | null): void;
  stop(): void;
}

export function startPlacementFollower(options: { transport: Transport; params(): NodeParams }): PlacementFollower {
  const { transport } = options;
  const log = transport.log;
  const writeTf = tfMessageWriter();
  const warnGate = createWarningThrottle(WARNING_PERIOD_NS);
  // Advertised on first use (the TF publisher's /tf publisher is the same one in rclnodejs: same topic and QoS).
  let tfPub: ReturnType<Transport['rawPublisher']> | null = null;
  let unsubscribe: (() => void) | null = null;
  let stopWait: (() => void) | null = null;

  const stop = (): void => {
    unsubscribe?.();
    unsubscribe = null;
    stopWait?.();
    stopWait = null;
  };

  const warn = (key: string, message: string): void => {
    const gate = warnGate(key, transport.wallNowNs());
    if (!gate.emit) return;
    log.warn(message + (gate.suppressed > 0 ? ` (${gate.suppressed} more like this since the last report)` : ''));
  };

  const follow = (placement: Extract<Placement, { kind: 'topic' }>): void => {
    let received = false;
    const parent = placementParent(placement);
    const type = placement.type === 'odometry' ? MessageType.Odometry : MessageType.PoseStamped;
    unsubscribe = transport.subscribe<unknown>(placement.topic, type, POSE_SOURCE_QOS, (message) => {
      let update: ReturnType<typeof placementFromMessage>;
      try {
        update = placementFromMessage(placement, message);
      } catch (error) {
        update = { key: 'malformed', reason: error instanceof Error ? error.message : String(error) };
      }
      if ('reason' in update) {
        warn(update.key, `ignored a message on ${placement.topic}: ${update.reason}`);
        return;
      }
      // As for joint_states: a stamp far ahead of the node clock would make tf2 listeners refuse later ones.
      const maxLeadNs = BigInt(Math.round(options.params().stamp_tolerance * 1e9));
      const now = stampNs(transport.now());
      if (maxLeadNs > 0n && now > 0n && stampNs(update.stamp) - now > maxLeadNs) {
        warn('future', `ignored a message on ${placement.topic} stamped more than stamp_tolerance ahead of the node clock: check the publisher's clock and use_sim_time`);
        return;
      }
      if (!received) {
        received = true;
        stopWait?.();
        stopWait = null;
        log.info(`first pose on ${placement.topic}: ${parent} -> ${placement.root} is live`);
      }
      tfPub ??= transport.rawPublisher(TF_TOPIC, MessageType.TFMessage, tfQoS);
      tfPub.publish(writeTf([{ header: { stamp: update.stamp, frame_id: parent }, child_frame_id: placement.root, transform: poseToTransform(update.pose) }]));
    });
    stopWait = transport.wallTimer(FIRST_POSE_WAIT_S * 1000, () => {
      stopWait?.();
      stopWait = null;
      if (!received) log.warn(`no message on ${placement.topic} yet: ${placement.root} has no pose in ${parent} (is the simulation or the controller publishing, and is the topic remapped?)`);
    });
  };

  return {
    restart(served): void {
      stop();
      if (!served) return;
      const decision = placementOf(served.model, served.frames, options.params());
      for (const note of decision.notes) log[note.level](note.message);
      const placement = decision.placement;
      if (placement?.kind === 'topic') follow(placement);
    },
    stop,
  };
}
