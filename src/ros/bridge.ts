// The node's behaviour over a Transport, with no rclnodejs in sight: robot_description, /tf and
// /tf_static as robot_state_publisher publishes them, joint_states in (and out, for a first look),
// parameters with validation, and hot reload that never drops the last good model.
import { type DeviceBridgeContext, type DeviceBridgeParams, startDeviceBridge } from './device-relay.js';
import { type DeviceFrames, deviceFrames } from '../kinematics/device-frames.js';
import { type Frame, frameTree } from '../kinematics/frames.js';
import { jointStateReader, writeJointState } from '../cdr/joint-state.js';
import { tfMessageWriter } from '../cdr/tf-message.js';
import { ModelLoadError } from '../model/errors.js';
import { applyRosConventions } from '../model/ros-conventions.js';
import type { Diagnostic, RobotModel } from '../model/types.js';
import {
  createWarningThrottle,
  handleJointState,
  type JointStateInput,
  type JointStateIssue,
  newThrottleState,
  stampNs,
  type ThrottleState,
} from './joint-states.js';
import { type JointState, MessageType, type StringMsg, type Time } from '../messages/messages.js';
import { type BridgeParams, coerceParam, conventionsOfParams, defaultParams, parseJointAssignment, validateChanges } from './params.js';
import { compileMovingFrames, type MovingFrames, movingFramesByJoint, movingTransforms, staticTransforms, worldLink } from './tf.js';
import { latchedQoS, type Publisher, type RawPublisher, sensorDataQoS, tfQoS, type Transport } from './transport.js';

export const Topics = {
  robotDescription: 'robot_description',
  jointStates: 'joint_states',
  // tf2_ros broadcasters publish on the absolute names; launch files remap them for namespaced robots.
  tf: '/tf',
  tfStatic: '/tf_static',
} as const;

/** joint_state_publisher's default rate, used for the initial-position publisher. */
export const JOINT_STATE_RATE_HZ = 10;
/** Repeated warnings of one kind (one unknown joint, time going backwards, ...) at most this often. */
export const WARNING_PERIOD_NS = 5_000_000_000n;

export interface Description {
  /** URDF XML for robot_description. */
  xml: string;
  warnings: Diagnostic[];
}

/** The device relay's parameters from the node's. */
export function deviceParams(p: BridgeParams): DeviceBridgeParams {
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

export interface BridgeDeps {
  transport: Transport;
  /** Reads a model file; throws ModelLoadError for bad input. */
  loadModel(file: string): RobotModel;
  /** The URDF (and writes the mesh files it references). May throw. */
  describe(model: RobotModel, params: BridgeParams): Description;
  /** A value that changes whenever the file's content may have changed (mtime, size); null when it is missing. */
  fileSignature?(file: string): string | null;
  /** Starts the sensor relay for a model; returns its stop function. Called after every (re)load. Default: devices/bridge.ts. */
  startDevices?(ctx: DeviceBridgeContext): () => void;
  /** Told whenever robot_description changes (the rclnodejs layer mirrors it into the parameter). */
  onDescription?(xml: string): void;
}

export interface SetResult {
  successful: boolean;
  reason: string;
}

/** What one load produced; swapped in whole, so readers never see half of two models. */
export interface Served {
  model: RobotModel;
  file: string;
  signature: string | null;
  description: Description;
  frames: Frame[];
  deviceFrames: DeviceFrames[];
  byJoint: Map<string, Frame[]>;
  /** byJoint compiled for the per-message TF work. */
  moving: MovingFrames;
  /** Every joint name of the model, moving or not (naming a fixed joint in joint_states is no error). */
  jointNames: Set<string>;
  /** Moving joints in link order, with the position published for them by the initial-position publisher. */
  initialPositions: Map<string, number>;
}

export interface Bridge {
  params(): BridgeParams;
  /** The model being served, or null before the first successful load. */
  served(): Served | null;
  /** Validates, loads what must be loaded and applies — all or nothing. */
  setParams(changes: Partial<Record<string, unknown>>): SetResult;
  /** Reloads body_file now (as a file change would). Returns whether the new model is being served. */
  reload(): boolean;
  /** Drops the subscriptions, timers and device relay. */
  stop(): void;
}

/** A located, human-readable account of a load failure. */
export function describeError(error: unknown): string {
  if (error instanceof ModelLoadError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function initialPositions(frames: readonly Frame[], overrides: readonly string[]): { positions: Map<string, number>; unknown: string[] } {
  const positions = new Map<string, number>();
  for (const f of frames) if (f.moving && f.link) positions.set(f.link.joint.name, f.link.joint.initial);
  const unknown: string[] = [];
  for (const entry of overrides) {
    const parsed = parseJointAssignment(entry);
    if (typeof parsed === 'string') continue; // refused by validation before it gets here
    if (positions.has(parsed[0])) positions.set(parsed[0], parsed[1]);
    else unknown.push(parsed[0]);
  }
  return { positions, unknown };
}

export function startBridge(deps: BridgeDeps, initial: Partial<BridgeParams>): Bridge {
  const { transport } = deps;
  const log = transport.log;
  let params: BridgeParams = { ...defaultParams(), ...initial };
  let served: Served | null = null;
  let throttle: ThrottleState = newThrottleState();
  const warnGate = createWarningThrottle(WARNING_PERIOD_NS);
  let stopDevices: (() => void) | null = null;
  let stopJointStateTimer: (() => void) | null = null;
  let stopWatch: (() => void) | null = null;
  /** Stamps of joint_states we published ourselves, to tell our own echo from another publisher. */
  const ownStamps: Time[] = [];
  let otherJointStatePublisher = false;
  let failedSignature: string | null = null;

  const descriptionPub: Publisher<StringMsg> = transport.publisher(Topics.robotDescription, MessageType.String, latchedQoS);
  // /tf, /tf_static and joint_states cross the transport as CDR bytes (src/cdr): rclnodejs's conversion
  // of every message to and from JavaScript objects cost far more than the node's own work.
  const tfPub: RawPublisher = transport.rawPublisher(Topics.tf, MessageType.TFMessage, tfQoS);
  const writeTf = tfMessageWriter();
  const tfStaticPub: RawPublisher = transport.rawPublisher(Topics.tfStatic, MessageType.TFMessage, latchedQoS);
  const writeTfStatic = tfMessageWriter();
  // Advertised only once used, so a node told not to publish joint_states never shows up as a publisher
  // there. joint_state_publisher's QoS: reliable, volatile, depth 10.
  let jointStatePub: RawPublisher | null = null;
  const jointStatePublisher = (): RawPublisher =>
    (jointStatePub ??= transport.rawPublisher(Topics.jointStates, MessageType.JointState, { reliability: 'reliable', durability: 'volatile', depth: 10 }));
  const nowNs = (): bigint => stampNs(transport.now());

  const report = (issue: JointStateIssue): void => {
    // Log pacing is not about the robot's time: on wall time it also holds while /clock stands still or jumps.
    const gate = warnGate(issue.key, transport.wallNowNs());
    if (!gate.emit) return;
    const more = gate.suppressed > 0 ? ` (${gate.suppressed} more like this since the last report)` : '';
    log[issue.level](issue.message + more);
  };

  /** Loads and describes without touching what is served; throws with a located message on failure. */
  const prepare = (file: string, p: BridgeParams): Served => {
    const signature = deps.fileSignature?.(file) ?? null;
    const model = applyRosConventions(deps.loadModel(file), conventionsOfParams(p)).model;
    const description = deps.describe(model, p);
    const frames = frameTree(model);
    const { positions, unknown } = initialPositions(frames, p.initial_joint_positions);
    for (const name of unknown) log.warn(`initial_joint_positions names '${name}', which is not a moving joint of ${model.name}`);
    const byJoint = movingFramesByJoint(frames);
    return {
      model,
      file,
      signature,
      description,
      frames,
      deviceFrames: deviceFrames(model),
      byJoint,
      moving: compileMovingFrames(byJoint),
      jointNames: new Set(model.links.map((l) => l.joint.name)),
      initialPositions: positions,
    };
  };

  const publishStatic = (s: Served): void => {
    tfStaticPub.publish(writeTfStatic(staticTransforms(s.model, s.frames, transport.now(), params.frame_prefix, params.world_frame)));
  };

  const restartDevices = (s: Served): void => {
    stopDevices?.();
    stopDevices = null;
    const start = deps.startDevices ?? startDeviceBridge;
    stopDevices = start({ model: s.model, frames: s.deviceFrames, transport, framePrefix: params.frame_prefix, params: deviceParams(params) });
  };

  /** Makes `s` the served model: description, static transforms, device relay, fresh timestamp cache. */
  const serve = (s: Served): void => {
    const previous = served;
    served = s;
    failedSignature = null;
    throttle = newThrottleState();
    for (const w of s.description.warnings) log.warn(`URDF: ${w.message}`);
    for (const w of s.model.warnings) log.warn(`${s.model.sourceFile}: ${w.message}`);
    const world = worldLink(s.model, params.world_frame);
    if (world && !world.static) log.info(`not publishing ${world.frame} -> ${s.model.root}: ${world.reason}`);
    if (!previous || previous.description.xml !== s.description.xml) {
      descriptionPub.publish({ data: s.description.xml });
      deps.onDescription?.(s.description.xml);
    }
    publishStatic(s);
    restartDevices(s);
    const moving = [...s.byJoint.keys()].length;
    log.info(
      `Robot initialized: ${s.model.name} from ${s.file} (${s.model.links.length} links, ${moving} moving joints, ${s.model.devices.length} devices)`,
    );
  };

  const publishTf = (positions: Map<string, number>, stamp: Time): void => {
    if (!served) return;
    const transforms = movingTransforms(served.moving, positions, stamp, params.frame_prefix);
    if (transforms.length > 0) tfPub.publish(writeTf(transforms));
  };

  // handleJointState's options change only with the parameters or the served model: made once for each pair.
  let stateOptions: { for: [Served, BridgeParams]; options: Parameters<typeof handleJointState>[3] } | null = null;
  const jointStateOptions = (s: Served): Parameters<typeof handleJointState>[3] => {
    if (stateOptions === null || stateOptions.for[0] !== s || stateOptions.for[1] !== params) {
      const names = s.jointNames;
      stateOptions = {
        for: [s, params],
        options: {
          publishFrequency: params.publish_frequency,
          ignoreTimestamp: params.ignore_timestamp,
          stampToleranceNs: BigInt(Math.round(params.stamp_tolerance * 1e9)),
          isKnownJoint: (name) => names.has(name),
        },
      };
    }
    return stateOptions.options;
  };

  const onJointState = (msg: JointStateInput): void => {
    if (!served) return;
    const result = handleJointState(throttle, msg, nowNs(), jointStateOptions(served));
    for (const issue of result.issues) report(issue);
    if (result.publish) publishTf(result.publish, msg.header.stamp);
  };

  /** Whether `t` is the stamp of one of our own joint_states messages. */
  const isOwnStamp = (t: Time): boolean => {
    for (const own of ownStamps) if (own.sec === t.sec && own.nanosec === t.nanosec) return true;
    return false;
  };

  const readJointState = jointStateReader();
  const unsubscribe = transport.subscribeRaw(Topics.jointStates, MessageType.JointState, sensorDataQoS, (bytes) => {
    let msg: JointStateInput;
    try {
      msg = readJointState(bytes);
    } catch (error) {
      report({ key: 'malformed', level: 'warn', message: `ignored a malformed JointState message: ${describeError(error)}` });
      return;
    }
    if (isOwnStamp(msg.header.stamp)) return; // our own initial-position message coming back: already handled
    if (stopJointStateTimer && !otherJointStatePublisher) {
      otherJointStatePublisher = true;
      stopJointStateTimer();
      stopJointStateTimer = null;
      log.info('another node publishes joint_states: stopped publishing initial joint positions');
    }
    onJointState(msg);
  });

  const publishInitialJointState = (): void => {
    if (!served) return;
    const stamp = transport.now();
    const msg: JointState = {
      header: { stamp, frame_id: '' },
      name: [...served.initialPositions.keys()],
      position: [...served.initialPositions.values()],
      velocity: [],
      effort: [],
    };
    ownStamps.push({ sec: stamp.sec, nanosec: stamp.nanosec });
    if (ownStamps.length > 64) ownStamps.shift();
    jointStatePublisher().publish(writeJointState(msg));
    onJointState(msg);
  };

  const restartJointStatePublisher = (): void => {
    stopJointStateTimer?.();
    stopJointStateTimer = null;
    if (!params.publish_joint_states || otherJointStatePublisher) return;
    stopJointStateTimer = transport.timer(1000 / JOINT_STATE_RATE_HZ, publishInitialJointState);
  };

  const tryReload = (why: string): boolean => {
    const file = params.body_file;
    try {
      const s = prepare(file, params);
      log.info(`loading ${file} (${why})`);
      serve(s);
      return true;
    } catch (error) {
      failedSignature = deps.fileSignature?.(file) ?? null;
      log.error(
        `failed to load ${file} (${why}): ${describeError(error)}` +
          (served ? `\nstill serving the last good model, loaded from ${served.file}` : ''),
      );
      return false;
    }
  };

  const restartWatch = (): void => {
    stopWatch?.();
    stopWatch = null;
    if (!params.watch_body_file || !deps.fileSignature) return;
    const signatureOf = deps.fileSignature;
    // Wall time: an edit must reload while a simulation holds /clock still (use_sim_time).
    stopWatch = transport.wallTimer(params.watch_period * 1000, () => {
      const file = params.body_file;
      const signature = signatureOf(file);
      if (signature === null) return; // mid-save or deleted: keep serving, look again next tick
      const servedSig = served && served.file === file ? served.signature : null;
      if (signature === servedSig || signature === failedSignature) return;
      tryReload('file changed on disk');
    });
  };

  const setParams = (raw: Partial<Record<string, unknown>>): SetResult => {
    const changes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) changes[k] = coerceParam(k, v);
    const reason = validateChanges(changes);
    if (reason) return { successful: false, reason };
    const previous = params;
    const next: BridgeParams = { ...previous, ...(changes as Partial<BridgeParams>) };
    const changed = (name: keyof BridgeParams): boolean =>
      name in changes && JSON.stringify(next[name]) !== JSON.stringify(previous[name]);

    const describeChanged = (['mesh_dir', 'package_uris'] as const).some(changed);
    // These change the frame tree itself (world_frame decides whether the root inertia moves): a full reload.
    const reloadChanged = (['world_frame', 'link_names', 'root_inertia'] as const).some(changed);
    // Nothing served yet (the start failed): naming body_file again retries even when unchanged, and so
    // does a new value for anything the failed load depended on (an unwritable mesh_dir, say) — else the
    // node would stay empty until body_file itself changed.
    const needsLoad = changed('body_file') || (served !== null && reloadChanged) || (!served && ('body_file' in changes || describeChanged || reloadChanged));
    const needsDescribe = served !== null && describeChanged;
    let candidate: Served | null = null;
    if (needsLoad || needsDescribe) {
      try {
        candidate = needsLoad ? prepare(next.body_file, next) : { ...served!, ...rebuild(served!, next) };
      } catch (error) {
        const message = describeError(error);
        log.error(`refused ${Object.keys(changes).join(', ')}: ${message}`);
        return { successful: false, reason: message };
      }
    }
    params = next;
    if (!candidate && served && changed('initial_joint_positions')) {
      served = { ...served, initialPositions: initialPositionsOf(served, next) };
    }
    if (candidate) serve(candidate);
    else if (served && changed('frame_prefix')) {
      publishStatic(served);
      restartDevices(served);
    } else if (served && ['device_input_namespace', 'device_input_topics', 'undo_upstream_scaling', 'camera_info_without_images'].some((n) => changed(n as keyof BridgeParams))) {
      restartDevices(served);
    }
    if (changed('publish_joint_states') || changed('initial_joint_positions')) {
      if (changed('publish_joint_states') && next.publish_joint_states) otherJointStatePublisher = false;
      restartJointStatePublisher();
    }
    if (changed('watch_body_file') || changed('watch_period')) restartWatch();
    return { successful: true, reason: '' };
  };

  const initialPositionsOf = (s: Served, p: BridgeParams): Map<string, number> => {
    const { positions, unknown } = initialPositions(s.frames, p.initial_joint_positions);
    for (const name of unknown) log.warn(`initial_joint_positions names '${name}', which is not a moving joint of ${s.model.name}`);
    return positions;
  };

  const rebuild = (s: Served, p: BridgeParams): Partial<Served> => ({ description: deps.describe(s.model, p) });

  // Start: a bad body_file leaves the node up and watching, so fixing the file brings it to life.
  const startReason = validateChanges({ ...params });
  if (startReason) log.error(`invalid parameters: ${startReason}`);
  else tryReload('start');
  restartJointStatePublisher();
  restartWatch();

  return {
    params: () => ({ ...params, initial_joint_positions: [...params.initial_joint_positions] }),
    served: () => served,
    setParams,
    reload: () => tryReload('reload requested'),
    stop(): void {
      unsubscribe();
      stopJointStateTimer?.();
      stopJointStateTimer = null;
      stopWatch?.();
      stopWatch = null;
      stopDevices?.();
      stopDevices = null;
    },
  };
}
