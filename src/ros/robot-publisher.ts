// The node's behaviour over a Transport, with no rclnodejs in sight, split as robot_state_publisher
// splits its node: the served model (load, serve, reload, watch: served-model.ts), the TF publisher
// (joint states in, transforms out: tf-publisher.ts), the initial joint-state publisher
// (initial-joint-states.ts), the device relay (device-relay.ts) and the body's placement in a shared frame
// (placement-follower.ts). This file wires them together and owns the one thing they share, the
// parameters, applying each change all or nothing.
import { type RelayContext, type RelayParams, startDeviceRelay } from './device-relay.js';
import { startInitialJointStates } from './initial-joint-states.js';
import { startJointStateWatch } from './joint-state-watch.js';
import { coerceParam, defaultParams, type NodeParams, validateChanges, validateCombination } from './params.js';
import { startPlacementFollower } from './placement-follower.js';
import { startProjectScene } from './project-scene.js';
import { type Project, readProject } from '../project/index.js';
import { type Description, describeError, initialPositions, type ModelSource, prepareServed, ROBOT_DESCRIPTION_TOPIC, type Served, startServedModel } from './served-model.js';
import { JOINT_STATES_TOPIC, startTfPublisher, TF_STATIC_TOPIC, TF_TOPIC } from './tf-publisher.js';
import type { Transport } from './transport.js';

export { JOINT_STATE_RATE_HZ } from './initial-joint-states.js';
export { WARNING_PERIOD_NS } from './tf-publisher.js';
export { describeError, type Description, type Served } from './served-model.js';

export const Topics = {
  robotDescription: ROBOT_DESCRIPTION_TOPIC,
  jointStates: JOINT_STATES_TOPIC,
  tf: TF_TOPIC,
  tfStatic: TF_STATIC_TOPIC,
} as const;

/** The device relay's parameters from the node's. */
export function relayParamsOf(p: NodeParams): RelayParams {
  const inputTopics: Record<string, string> = {};
  for (const entry of p.device_input_topics) {
    const eq = entry.indexOf('=');
    if (eq > 0) inputTopics[entry.slice(0, eq).trim()] = entry.slice(eq + 1).trim();
  }
  return {
    inputNamespace: p.device_input_namespace,
    inputTopics,
    undoUpstreamScaling: p.undo_upstream_scaling,
    cameraInfoWithoutImages: p.camera_info_without_images,
  };
}

export interface RobotPublisherDeps extends ModelSource {
  transport: Transport;
  /** Starts the sensor relay for a model; returns its stop function. Called after every (re)load. Default: device-relay.ts. */
  startDevices?(ctx: RelayContext): () => void;
  /** Told whenever robot_description changes (the rclnodejs layer mirrors it into the parameter). */
  onDescription?(xml: string): void;
  /** Told whenever robot_description_semantic changes (semantic.ts). */
  onSemantic?(srdf: string): void;
  /** Reads planning_scene_project (default: readProject). */
  readProject?(file: string): Project;
}

export interface SetResult {
  successful: boolean;
  reason: string;
}

export interface RobotPublisher {
  params(): NodeParams;
  /** The model being served, or null before the first successful load. */
  served(): Served | null;
  /** Validates, loads what must be loaded and applies — all or nothing. */
  setParams(changes: Partial<Record<string, unknown>>): SetResult;
  /** Reloads body_file now (as a file change would). Returns whether the new model is being served. */
  reload(): boolean;
  /** Drops the subscriptions, timers and device relay. */
  stop(): void;
}

/** Parameters whose change restarts the device relay. */
const RELAY_PARAMS: readonly (keyof NodeParams)[] = ['device_input_namespace', 'device_input_topics', 'undo_upstream_scaling', 'camera_info_without_images', 'relay_devices'];
/** Parameters whose change places the root again (/tf_static, and the placement topic's subscription). */
const PLACEMENT_PARAMS: readonly (keyof NodeParams)[] = ['placement_frame', 'placement', 'placement_topic', 'placement_topic_type', 'placement_odom_frame'];
/** Parameters whose change reads planning_scene_project again (or starts, moves or stops its watch). */
const SCENE_PARAMS: readonly (keyof NodeParams)[] = ['planning_scene_project', 'planning_robot', 'planning_padding', 'watch_body_file', 'watch_period'];

export function startRobotPublisher(deps: RobotPublisherDeps, initial: Partial<NodeParams>): RobotPublisher {
  const { transport } = deps;
  const log = transport.log;
  let params: NodeParams = { ...defaultParams(), ...initial };
  let stopDevices: (() => void) | null = null;

  const restartDevices = (s: Served): void => {
    stopDevices?.();
    stopDevices = null;
    if (!params.relay_devices) return;
    const start = deps.startDevices ?? startDeviceRelay;
    stopDevices = start({ model: s.model, frames: s.deviceFrames, transport, framePrefix: params.frame_prefix, params: relayParamsOf(params) });
  };

  const model = startServedModel({
    transport,
    source: deps,
    params: () => params,
    onServe(s): void {
      tf.serve(s);
      restartDevices(s);
      placement.restart(s);
      // The planning frame is the served robot's: a new model (another root link) re-expresses the scene.
      scene?.refresh('robot model served');
    },
    ...(deps.onDescription ? { onDescription: deps.onDescription } : {}),
    ...(deps.onSemantic ? { onSemantic: deps.onSemantic } : {}),
  });
  // Remappings aside: the name the user sees in the node's namespace.
  const jointStates = startJointStateWatch(transport, () => `${transport.namespace.replace(/\/$/, '')}/${Topics.jointStates}`);
  const initialStates = startInitialJointStates({
    transport,
    topic: Topics.jointStates,
    positions: () => model.current()?.initialPositions ?? null,
    deliver: (msg) => tf.onJointState(msg),
  });
  const tf = startTfPublisher({
    transport,
    params: () => params,
    served: () => model.current(),
    isOwnMessage: (stamp) => initialStates.isOwnMessage(stamp),
    onOtherPublisher: () => {
      initialStates.otherPublisherSeen();
      jointStates.heard();
    },
  });
  const placement = startPlacementFollower({ transport, params: () => params });
  // Declared before the first serve (model.reload below), which refreshes it.
  let scene: ReturnType<typeof startProjectScene> | null = null;

  const describeAgain = (s: Served, p: NodeParams): Served => ({ ...s, description: deps.describe(s.model, p) });

  const setParams = (raw: Partial<Record<string, unknown>>): SetResult => {
    const changes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) changes[k] = coerceParam(k, v);
    const previous = params;
    const next: NodeParams = { ...previous, ...(changes as Partial<NodeParams>) };
    const reason = validateChanges(changes) ?? validateCombination(next);
    if (reason) return { successful: false, reason };
    const changed = (name: keyof NodeParams): boolean => name in changes && JSON.stringify(next[name]) !== JSON.stringify(previous[name]);
    const served = model.current();

    const describeChanged = (['mesh_dir', 'package_uris', 'ros2_control', 'ros2_control_joint_modes'] as const).some(changed);
    // These change the frame tree itself (world_frame decides whether the root inertia moves): a full reload.
    const reloadChanged = (['world_frame', 'link_names', 'root_inertia', 'root_joint', 'publish_robot_description_semantic', 'collision_samples', 'roles_file'] as const).some(changed);
    // Nothing served yet (the start failed): naming body_file again retries even when unchanged, and so
    // does a new value for anything the failed load depended on (an unwritable mesh_dir, say) — else the
    // node would stay empty until body_file itself changed.
    const needsLoad = changed('body_file') || (served !== null && reloadChanged) || (!served && ('body_file' in changes || describeChanged || reloadChanged));
    const needsDescribe = served !== null && describeChanged;
    let candidate: Served | null = null;
    if (needsLoad || needsDescribe) {
      try {
        candidate = needsLoad ? prepareServed(deps, next.body_file, next, log) : describeAgain(served!, next);
      } catch (error) {
        const message = describeError(error);
        log.error(`refused ${Object.keys(changes).join(', ')}: ${message}`);
        return { successful: false, reason: message };
      }
    }
    params = next;
    if (!candidate && served && changed('initial_joint_positions')) {
      model.setInitialPositions(initialPositions(served.model, served.frames, next.initial_joint_positions, log));
    }
    if (candidate) model.serve(candidate);
    else if (served) {
      const placed = PLACEMENT_PARAMS.some(changed);
      if (changed('frame_prefix') || changed('free_root_frame') || placed) tf.publishStatic(served);
      if (changed('frame_prefix') || changed('free_root_frame') || RELAY_PARAMS.some(changed)) restartDevices(served);
      if (changed('frame_prefix') || placed) placement.restart(served);
    }
    if (changed('publish_joint_states') || changed('initial_joint_positions')) {
      if (changed('publish_joint_states') && next.publish_joint_states) initialStates.forgetOtherPublisher();
      initialStates.restart(params.publish_joint_states);
    }
    if (changed('watch_body_file') || changed('watch_period')) model.restartWatch();
    if (SCENE_PARAMS.some(changed)) scene?.restart();
    else if (!candidate && (PLACEMENT_PARAMS.some(changed) || changed('link_names') || changed('root_inertia'))) scene?.refresh('placement changed');
    return { successful: true, reason: '' };
  };

  scene = startProjectScene({
    transport,
    params: () => params,
    served: () => model.current(),
    readProject: deps.readProject ?? ((file) => readProject(file)),
    fileSignature: (file) => deps.fileSignature?.(file) ?? null,
  });
  // Start: a bad body_file leaves the node up and watching, so fixing the file brings it to life.
  const startReason = validateChanges({ ...params }) ?? validateCombination(params);
  if (startReason) log.error(`invalid parameters: ${startReason}`);
  else model.reload('start');
  initialStates.restart(params.publish_joint_states);
  model.restartWatch();
  if (!startReason) scene.restart();

  return {
    params: () => ({ ...params, initial_joint_positions: [...params.initial_joint_positions], placement: [...params.placement] }),
    served: () => model.current(),
    setParams,
    reload: () => model.reload('reload requested'),
    stop(): void {
      scene?.stop();
      tf.stop();
      placement.stop();
      initialStates.stop();
      jointStates.stop();
      model.stop();
      stopDevices?.();
      stopDevices = null;
    },
  };
}
