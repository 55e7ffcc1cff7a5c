// The planning_scene_project parameter at work: the project is read, its static bodies sent to MoveIt's
// planning scene (planning-scene-publisher.ts) in the served robot's planning frame, and read again whenever
// the project file or one of its bodies' files changes on disk, or the robot is reloaded or placed again.
// A project that cannot be read leaves the last good scene in place, and the node says why.
import { describeError, type Served } from './served-model.js';
import { conventionsOfParams, type NodeParams } from './params.js';
import { placementPose } from './placement.js';
import { type PlanningScenePublisher, startPlanningScenePublisher } from './planning-scene-publisher.js';
import { projectFiles, sceneFromProject } from './scene-from-project.js';
import type { Transport } from './transport.js';
import { drivenBasePadding, matrixWithContacts, type StaticBody } from '../moveit/planning-scene.js';
import { MOBILITY_ROLES } from '../roles/roles.js';
import { servedRoles } from './served-roles.js';
import type { Project } from '../project/index.js';

export interface ProjectSceneOptions {
  transport: Transport;
  params(): NodeParams;
  served(): Served | null;
  /** Reads a project (readProject); throws when the project itself cannot be read. */
  readProject(file: string): Project;
  /** Changes whenever a file's content may have changed; null when it is missing. */
  fileSignature(file: string): string | null;
}

export interface ProjectScene {
  /** Reads the project again and sends what changed (a parameter changed, the robot was served anew). */
  refresh(why: string): void;
  /** Follows planning_scene_project, watch_body_file and watch_period: starts, restarts or stops. */
  restart(): void;
  stop(): void;
}

/**
 * A driven base's wheels, casters and tracks (placement_odom_frame: its drive moves it over the floor), by the roles
 * the node serves by; null for any other robot.
 */
function mobilityJoints(p: NodeParams, served: Served): Set<string> | null {
  if (p.placement_odom_frame === '') return null;
  // The served model loaded with these roles: they read again as they did then.
  return new Set(servedRoles(served.model, p).joints.filter((j) => MOBILITY_ROLES.has(j.role)).map((j) => j.joint));
}

/** The world frame the node places its robot in, and where: what TF says, so the scene agrees with it. */
function robotPlacement(p: NodeParams, served: Served): { worldFrame: string; robotPose: ReturnType<typeof placementPose> | null } {
  if (p.placement_frame === '') return { worldFrame: 'world', robotPose: null };
  return { worldFrame: p.placement_frame, robotPose: placementPose(p.placement, served.model) };
}

export function startProjectScene(options: ProjectSceneOptions): ProjectScene {
  const { transport, params } = options;
  const log = transport.log;
  let publisher: PlanningScenePublisher | null = null;
  let previous = new Map<string, StaticBody>();
  /** The files the last read depended on, and their signatures then. */
  let watched: { file: string; signature: string | null }[] = [];
  let stopWatch: (() => void) | null = null;
  let waitingSaid = false;
  /** Set by restart(): refreshes before it (the first serve at the node's start) have nothing to do yet. */
  let started = false;

  const signatures = (files: readonly string[]): { file: string; signature: string | null }[] => files.map((file) => ({ file, signature: options.fileSignature(file) }));

  const refresh = (why: string): void => {
    const p = params();
    const file = p.planning_scene_project;
    if (file === '' || !started) return;
    const served = options.served();
    if (!served) {
      if (!waitingSaid) log.warn(`planning scene from ${file}: waiting for the robot model to load (its planning frame is the robot's)`);
      waitingSaid = true;
      return;
    }
    waitingSaid = false;
    let project: Project;
    try {
      project = options.readProject(file);
    } catch (error) {
      // Watch the project file itself for the fix; the rest as before.
      watched = signatures([file, ...watched.map((w) => w.file).filter((f) => f !== file)]);
      const kept = publisher?.objectIds().length ?? 0;
      log.error(`planning scene: cannot read ${file} (${why}): ${describeError(error)}\nkeeping the last good scene (${kept} object${kept === 1 ? '' : 's'})`);
      return;
    }
    watched = signatures(projectFiles(project));
    const placed = robotPlacement(p, served);
    let mobility: Set<string> | null;
    try {
      mobility = mobilityJoints(p, served);
    } catch (error) {
      log.error(`planning scene: ${describeError(error)}\nkeeping the last good scene`);
      return;
    }
    const world = sceneFromProject(project, {
      robot: served.model,
      robotPose: placed.robotPose,
      worldFrame: placed.worldFrame,
      planningRobot: p.planning_robot,
      mobility,
      conventions: conventionsOfParams(p),
      previous,
    });
    for (const e of world.errors) log.error(e);
    for (const w of world.warnings) log.warn(w);
    const semantic = served.semantic;
    const contactsByBody = new Map<string, typeof world.baseContacts>();
    for (const c of world.baseContacts) contactsByBody.set(c.body, [...(contactsByBody.get(c.body) ?? []), c]);
    for (const [body, contacts] of contactsByBody) {
      const meet = `its link${contacts.length === 1 ? '' : 's'} ${contacts.map((c) => `'${c.robotLink}'`).join(', ')} meet${contacts.length === 1 ? 's' : ''} '${contacts[0]!.bodyLink}'`;
      if (semantic) {
        const why = mobility ? 'the base drives on it, so they touch in every state MoveIt plans the robot\'s groups in' : 'since neither moves and they touch in every state of the robot';
        log.info(`'${body}' touches the robot's base (${meet}) where the project puts them: the contact is allowed in MoveIt's collision matrix, ${why}`);
      } else {
        log.warn(
          `'${body}' touches the robot's base (${meet}) where the project puts them: the base never moves, so MoveIt may find every state of the robot in collision with it. ` +
            "With publish_robot_description_semantic (the node serving MoveIt's SRDF, as moveit.launch.py has it) the node allows the contact; otherwise leave a gap between them, or keep the body out of the project MoveIt reads",
        );
      }
    }
    // The matrix replaces MoveIt's whole, so it is only ours to send with the SRDF we serve; once sent it follows
    // every change (a contact gone puts the SRDF's own matrix back).
    publisher ??= startPlanningScenePublisher({ transport });
    const matrix = semantic && (world.baseContacts.length > 0 || publisher.hasMatrix()) ? matrixWithContacts(semantic.matrix, world.baseContacts) : null;
    // A driven base is where the odometry says, and creeps while the arm moves: its arm is kept clear of the world by that.
    const padding = mobility ? drivenBasePadding(served.model, mobility, p.planning_padding) : [];
    // MoveIt names the robot's links unprefixed; rviz finds them in TF with the node's frame_prefix.
    const markerFrame = served.model.links.some((l) => l.name === world.frame.name) ? p.frame_prefix + world.frame.name : world.frame.name;
    const result = publisher.update({ frame: world.frame, bodies: world.bodies, matrix, padding, markerFrame });
    if (result.successful) previous = new Map(world.bodies.map((b) => [b.name, b]));
    log.info(`planning scene from ${file} (${why}): ${world.bodies.length} static bod${world.bodies.length === 1 ? 'y' : 'ies'} considered, expressed in ${world.frame.name}`);
  };

  const restart = (): void => {
    stopWatch?.();
    stopWatch = null;
    started = true;
    const p = params();
    if (p.planning_scene_project === '') {
      publisher?.stop();
      publisher = null;
      previous = new Map();
      watched = [];
      return;
    }
    refresh('planning_scene_project');
    if (!p.watch_body_file) return;
    // Wall time, as for body_file: an edit must take effect while a simulation holds /clock still.
    stopWatch = transport.wallTimer(p.watch_period * 1000, () => {
      const now = signatures(watched.map((w) => w.file));
      // The project file mid-save (missing for a moment) is looked at again next tick; a body file that went away
      // is a change (that body then keeps its last good object).
      if (now[0]?.signature === null) return;
      if (now.every((n, i) => n.signature === watched[i]!.signature)) return;
      refresh('a file of the project changed on disk');
    });
  };

  return {
    refresh,
    restart,
    stop(): void {
      stopWatch?.();
      stopWatch = null;
      publisher?.stop();
      publisher = null;
    },
  };
}
