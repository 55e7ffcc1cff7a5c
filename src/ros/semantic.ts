// robot_description_semantic for move_group: the SRDF `body-bridge moveit` writes (same conventions,
// same seed, so the node and the CLI agree byte for byte), published latched on its topic and mirrored
// into a read-only parameter whenever a reload changes it. served-model.ts asks for the SRDF when it
// prepares a model and hands each served one to `semanticOutput`.
import type { RosModel } from '../model/ros-conventions.js';
import type { CollisionMatrix } from '../moveit/collision-matrix.js';
import { semanticDescription } from '../moveit/config.js';
import { MessageType, type StringMsg } from '../messages/messages.js';
import type { NodeParams } from './params.js';
import { servedRoles } from './served-roles.js';
import { latchedQoS, type Publisher, type Transport } from './transport.js';

export const SEMANTIC_TOPIC = 'robot_description_semantic';

/** What the node serves to MoveIt of a model: the SRDF and the collision matrix it was written from. */
export interface ServedSemantic {
  srdf: string;
  /** The SRDF's disabled pairs and the links with collision geometry (the allowed collision matrix MoveIt makes of them). */
  matrix: CollisionMatrix;
}

/** The SRDF for a prepared model, or null when the node is not asked to publish one. */
export function semanticFor(ros: RosModel, params: NodeParams): ServedSemantic | null {
  if (!params.publish_robot_description_semantic) return null;
  const { srdf, matrix } = semanticDescription(ros, { samples: Math.round(params.collision_samples), seed: 0, roles: servedRoles(ros.model, params) });
  return { srdf, matrix };
}

/**
 * Publishes each new SRDF on robot_description_semantic (transient local, like robot_description) and
 * tells `onSemantic` (the rclnodejs layer's parameter mirror). The topic is advertised on first use, so
 * a node not asked for an SRDF shows no publisher there.
 */
export function semanticOutput(transport: Transport, onSemantic?: (srdf: string) => void): (srdf: string | null) => void {
  let publisher: Publisher<StringMsg> | null = null;
  let last: string | null = null;
  return (srdf) => {
    if (srdf === null || srdf === last) return;
    last = srdf;
    publisher ??= transport.publisher(SEMANTIC_TOPIC, MessageType.String, latchedQoS);
    publisher.publish({ data: srdf });
    onSemantic?.(srdf);
  };
}
