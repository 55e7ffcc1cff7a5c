// Which bodies of a Choreonoid project MoveIt plans around, where they stand, and in which frame: the
// planning_scene_project parameter's meaning, as pure functions of a read Project and the robot the node
// serves (docs/project.md, "The world in MoveIt's planning scene").
//
// - Candidates are the bodies of the planning robot's world (every world's when planning_robot is not a body
//   of the project), but the robot itself. Whether one is static — fixed root, no joint that moves — is
//   decided by sceneContent (src/moveit/planning-scene.ts) on the body as the project has it: its fix_root
//   applied, named as ROS names it. Moving ones are left out there, with the reason.
// - A body riding on another (parent_body_linkage) is an obstacle only while what it rides on does not move.
// - Each stands where a simulation of the project starts it (initial_root_*), as project.launch.py places it.
// - A body whose model no longer loads keeps the object it had (the last good one), with its errors logged:
//   an obstacle must not vanish from under a plan because its file is being edited.
// - Object ids are the body items' names; a name used twice gets `_2`, `_3`, ... (MoveIt's ids are unique).
import { formatDiagnostic } from '../model/errors.js';
import { applyRosConventions, type RosConventions } from '../model/ros-conventions.js';
import { withRootJoint } from '../model/root-joint.js';
import type { Pose, RobotModel } from '../model/types.js';
import { uniqueNamer } from '../model/unique-name.js';
import { type BaseContact, planningFrameOf, type StaticBody, touchingBase } from '../moveit/planning-scene.js';
import type { PlacedFrame } from '../moveit/scene-objects.js';
import { type LoadedProjectBody, type Project, rootJointOverride } from '../project/index.js';

/** The SRDF virtual joint's parent the node writes for a free root (semantic.ts: body-bridge moveit's default). */
export const VIRTUAL_PARENT = 'world';

export interface SceneRequest {
  /** The planning robot as the node serves it (the ROS model). */
  robot: RobotModel;
  /** The robot's root in the world frame, as the node places it (placement), or null: take it from the project. */
  robotPose: Pose | null;
  /** The world frame the project's bodies are placed in. */
  worldFrame: string;
  /** The robot's body item ('' = none). */
  planningRobot: string;
  /**
   * For a driven base (placement_odom_frame: it drives on the floor), the joints of its wheels, casters and tracks:
   * what they carry is base, touching the floor in every state MoveIt plans in; null for any other robot.
   */
  mobility?: ReadonlySet<string> | null;
  /** How ROS names the bodies' links (the node's link_names, root_inertia). */
  conventions: RosConventions;
  /** The static bodies of the last good scene, by id: kept for bodies that no longer load. */
  previous: ReadonlyMap<string, StaticBody>;
}

export interface ProjectSceneWorld {
  frame: PlacedFrame;
  bodies: StaticBody[];
  /** Where a fixed or driven base touches a static body where they stand (one entry per base link and body). */
  baseContacts: BaseContact[];
  /** What to tell the user: errors (a body that does not load) and warnings, located where they can be. */
  errors: string[];
  warnings: string[];
}

/** The body as the project has it: its fix_root applied to the model. */
const asProjectHasIt = (b: LoadedProjectBody): RobotModel => {
  const rootJoint = rootJointOverride(b);
  return rootJoint === '' ? b.model : withRootJoint(b.model, rootJoint);
};

/** The static bodies of `project` around the planning robot, and the frame they are expressed in. */
export function sceneFromProject(project: Project, request: SceneRequest): ProjectSceneWorld {
  const errors: string[] = [];
  const warnings: string[] = [];
  const robotBody = request.planningRobot === '' ? undefined : project.bodies.find((b) => b.itemName === request.planningRobot);
  if (request.planningRobot !== '' && !robotBody) {
    warnings.push(`planning_robot '${request.planningRobot}' is no body item of ${project.file}: the bodies of every world are put in the planning scene`);
  }
  const world = robotBody ? robotBody.world : undefined;
  const byPath = new Map(project.bodies.map((b) => [b.itemPath, b]));
  const ids = uniqueNamer();
  const bodies: StaticBody[] = [];
  for (const b of project.bodies) {
    if (b === robotBody) continue;
    // Bodies outside any world are in no simulation: no robot meets them.
    if (b.world === null || (world !== undefined && b.world !== world)) continue;
    const id = ids(b.itemName);
    if (id !== b.itemName) warnings.push(`${formatDiagnostic({ ...b.at, severity: 'warning', message: `a second body item is named "${b.itemName}": its collision object is '${id}'` })}`);
    if (b.kind === 'failed') {
      const kept = request.previous.get(id);
      errors.push(
        `planning scene: body item "${b.itemName}" does not load${kept ? ', its last good object is kept' : ''}:\n${b.errors.map(formatDiagnostic).join('\n')}`,
      );
      if (kept) bodies.push(kept);
      continue;
    }
    if (b.linkage) {
      const parent = byPath.get(b.linkage.parentItemPath);
      if (!parent || parent.kind !== 'loaded' || !parent.staticModel) {
        warnings.push(`'${id}' is left out of the planning scene: it follows body item ${b.linkage.parentItemPath}, which moves`);
        continue;
      }
    }
    bodies.push({ name: id, model: applyRosConventions(asProjectHasIt(b), request.conventions).model, pose: b.initialRootPose });
  }
  const robotPose = request.robotPose ?? (robotBody?.kind === 'loaded' ? robotBody.initialRootPose : request.robot.links[0]!.offset);
  const baseContacts = touchingBase(request.robot, robotPose, bodies, request.mobility ?? undefined);
  const virtualParent = request.robot.links[0]?.joint.type === 'free' ? VIRTUAL_PARENT : null;
  return { frame: planningFrameOf(request.robot, robotPose, virtualParent, request.worldFrame), bodies, baseContacts, errors, warnings };
}

/** Every file the scene depends on: the project and each body's model (a change of any re-reads the project). */
export const projectFiles = (project: Project): string[] => [project.file, ...project.bodies.flatMap((b) => (b.path ? [b.path] : []))];
