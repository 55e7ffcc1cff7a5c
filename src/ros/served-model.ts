// The served model's lifecycle: load a body file, serve it (robot_description and the rest), reload it
// on request or when the file changes on disk, and keep the last good model whenever a load fails.
import { type DeviceFrames, deviceFrames } from '../kinematics/device-frames.js';
import { type Frame, frameTree } from '../kinematics/frames.js';
import { formatDiagnostic, ModelLoadError } from '../model/errors.js';
import { applyRosConventions } from '../model/ros-conventions.js';
import { withRootJoint } from '../model/root-joint.js';
import type { Diagnostic, RobotModel } from '../model/types.js';
import { MessageType, type StringMsg } from '../messages/messages.js';
import { conventionsOfParams, type NodeParams, parseJointAssignment } from './params.js';
import { semanticFor, semanticOutput, type ServedSemantic } from './semantic.js';
import { compileMovingFrames, freeRootParent, type MovingFrames, movingFramesByJoint, worldLink } from './tf.js';
import { latchedQoS, type Logger, type Publisher, type Transport } from './transport.js';

export const ROBOT_DESCRIPTION_TOPIC = 'robot_description';

export interface Description {
  /** URDF XML for robot_description. */
  xml: string;
  warnings: Diagnostic[];
}

/** Where models come from: the loader, the URDF writer and the file watcher's signature. */
export interface ModelSource {
  /** Reads a model file; throws ModelLoadError for bad input. */
  loadModel(file: string): RobotModel;
  /** The URDF (and writes the mesh files it references). May throw. */
  describe(model: RobotModel, params: NodeParams): Description;
  /** A value that changes whenever the file's content may have changed (mtime, size); null when it is missing. */
  fileSignature?(file: string): string | null;
}

/** What one load produced; swapped in whole, so readers never see half of two models. */
export interface Served {
  model: RobotModel;
  file: string;
  signature: string | null;
  description: Description;
  /** The MoveIt SRDF and its collision matrix when publish_robot_description_semantic asks for them (semantic.ts). */
  semantic: ServedSemantic | null;
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

/** A located, human-readable account of a load failure. */
export function describeError(error: unknown): string {
  if (error instanceof ModelLoadError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** The moving joints' initial positions with `initial_joint_positions` applied, warning about unknown names. */
export function initialPositions(model: RobotModel, frames: readonly Frame[], overrides: readonly string[], log: Logger): Map<string, number> {
  const positions = new Map<string, number>();
  for (const f of frames) if (f.moving && f.link) positions.set(f.link.joint.name, f.link.joint.initial);
  for (const entry of overrides) {
    const parsed = parseJointAssignment(entry);
    if (typeof parsed === 'string') continue; // refused by validation before it gets here
    if (positions.has(parsed[0])) positions.set(parsed[0], parsed[1]);
    else log.warn(`initial_joint_positions names '${parsed[0]}', which is not a moving joint of ${model.name}`);
  }
  return positions;
}

/** Loads and describes `file` without touching what is served; throws with a located message on failure. */
export function prepareServed(source: ModelSource, file: string, params: NodeParams, log: Logger): Served {
  const signature = source.fileSignature?.(file) ?? null;
  const loaded = source.loadModel(file);
  // A project's fix_root overrides the model's root joint before anything is made of the model.
  const rooted = params.root_joint === 'fixed' || params.root_joint === 'free' ? withRootJoint(loaded, params.root_joint) : loaded;
  const ros = applyRosConventions(rooted, conventionsOfParams(params));
  const model = ros.model;
  const description = source.describe(model, params);
  const semantic = semanticFor(ros, params);
  const frames = frameTree(model);
  const byJoint = movingFramesByJoint(frames);
  return {
    model,
    file,
    signature,
    description,
    semantic,
    frames,
    deviceFrames: deviceFrames(model),
    byJoint,
    moving: compileMovingFrames(byJoint),
    jointNames: new Set(model.links.map((l) => l.joint.name)),
    initialPositions: initialPositions(model, frames, params.initial_joint_positions, log),
  };
}

export interface ServedModel {
  /** The model being served, or null before the first successful load. */
  current(): Served | null;
  /** Loads body_file and serves it, or logs why not and keeps the last good model. */
  reload(why: string): boolean;
  /** Serves an already prepared model (a parameter change that needed a load). */
  serve(s: Served): void;
  /** Replaces the served model's initial positions (no reload). */
  setInitialPositions(positions: Map<string, number>): void;
  /** Starts, restarts or stops the on-disk watch after watch_body_file / watch_period changed. */
  restartWatch(): void;
  stop(): void;
}

export interface ServedModelOptions {
  transport: Transport;
  source: ModelSource;
  params(): NodeParams;
  /** Everything else that follows the served model: static transforms, the device relay. */
  onServe(s: Served): void;
  /** Told whenever robot_description changes (the rclnodejs layer mirrors it into the parameter). */
  onDescription?(xml: string): void;
  /** Told whenever robot_description_semantic changes (semantic.ts). */
  onSemantic?(srdf: string): void;
}

export function startServedModel(options: ServedModelOptions): ServedModel {
  const { transport, source, params } = options;
  const log = transport.log;
  const descriptionPub: Publisher<StringMsg> = transport.publisher(ROBOT_DESCRIPTION_TOPIC, MessageType.String, latchedQoS);
  const publishSemantic = semanticOutput(transport, options.onSemantic);
  let served: Served | null = null;
  /** The signature of a file that failed to load: the watch does not retry it until it changes again. */
  let failedSignature: string | null = null;
  let stopWatch: (() => void) | null = null;

  const serve = (s: Served): void => {
    const previous = served;
    served = s;
    failedSignature = null;
    // Located (file:line:column (at path)), as `body-bridge check` prints them: a loader repair or a mesh rviz
    // will fail on points at the line of the model that causes it.
    for (const w of s.description.warnings) log.warn(`URDF: ${formatDiagnostic(w)}`);
    for (const w of s.model.warnings) log.warn(formatDiagnostic(w));
    const world = worldLink(s.model, params().world_frame);
    const freeParent = freeRootParent(s.model, params().free_root_frame, s.frames);
    if (world && !world.static && !(freeParent && 'frame' in freeParent)) log.info(`not publishing ${world.frame} -> ${s.model.root}: ${world.reason}`);
    if (freeParent && 'reason' in freeParent) log[freeParent.level](freeParent.reason);
    else if (freeParent) log.info(`publishing ${freeParent.frame} -> ${s.model.root} on /tf_static at the initial root pose (free_root_frame)`);
    if (!previous || previous.description.xml !== s.description.xml) {
      descriptionPub.publish({ data: s.description.xml });
      options.onDescription?.(s.description.xml);
    }
    publishSemantic(s.semantic?.srdf ?? null);
    options.onServe(s);
    log.info(
      `Robot initialized: ${s.model.name} from ${s.file} (${s.model.links.length} links, ${s.byJoint.size} moving joints, ${s.model.devices.length} devices)`,
    );
  };

  const reload = (why: string): boolean => {
    const file = params().body_file;
    try {
      const s = prepareServed(source, file, params(), log);
      log.info(`loading ${file} (${why})`);
      serve(s);
      return true;
    } catch (error) {
      failedSignature = source.fileSignature?.(file) ?? null;
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
    const p = params();
    if (!p.watch_body_file || !source.fileSignature) return;
    const signatureOf = source.fileSignature;
    // Wall time: an edit must reload while a simulation holds /clock still (use_sim_time).
    stopWatch = transport.wallTimer(p.watch_period * 1000, () => {
      const file = params().body_file;
      const signature = signatureOf(file);
      if (signature === null) return; // mid-save or deleted: keep serving, look again next tick
      const servedSig = served && served.file === file ? served.signature : null;
      if (signature === servedSig || signature === failedSignature) return;
      reload('file changed on disk');
    });
  };

  return {
    current: () => served,
    reload,
    serve,
    setInitialPositions(positions): void {
      if (served) served = { ...served, initialPositions: positions };
    },
    restartWatch,
    stop(): void {
      stopWatch?.();
      stopWatch = null;
    },
  };
}
