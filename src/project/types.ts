// What a Choreonoid project file (.cnoid) means, as Choreonoid restores it (ProjectManager → ItemTreeArchiver →
// each item's restore): the worlds, every BodyItem with its model, where its root is now and where a simulation
// starts it, its joint positions by joint name, whether its root is fixed, and the choreonoid_ros items under it.
// docs/project.md says which key wins where, with the Choreonoid sources it follows.
import type { Diagnostic, JointType, Pose, RobotModel, SourceLocation } from '../model/types.js';

/** A choreonoid_ros BodyROS2Item: the node that publishes the body's joint_states and sensor topics. */
export interface BodyRos2Item {
  itemName: string;
  /** Where the item is in the project file. */
  at: SourceLocation;
  /**
   * The node's name: the owning BodyItem's name with '-' replaced by '_' (BodyROS2Item::initializeRosNode;
   * the item's own name plays no part).
   */
  nodeName: string;
  /**
   * The namespace its topics are in: the node's fully qualified name, `/<nodeName>` (the node is created without a
   * namespace, so a process-wide `__ns` remapping would be prepended). Topics: `<namespace>/joint_states`,
   * `<namespace>/<device name>`…
   */
  namespace: string;
  /** Hz; `joint_state_update_rate` (default 100). */
  jointStateUpdateRate: number;
}

/** A choreonoid_ros ROS2ControlItem: a controller_manager inside Choreonoid driving the body. */
export interface Ros2ControlItem {
  itemName: string;
  at: SourceLocation;
  /** `namespace` as written; '' when none. */
  namespace: string;
  /** Where `namespace` is written, when it is. */
  namespaceAt?: SourceLocation;
  /** Fully qualified names of its nodes: `<ns>/choreonoid_ros2_control` and `<ns>/controller_manager`. */
  controlNode: string;
  controllerManager: string;
  /**
   * The node whose `robot_description` parameter it reads the URDF from (on Humble). The item asks for
   * `<namespace>/robot_state_publisher` relative to its own node, so a relative namespace `r1` ends up at
   * `/r1/r1/robot_state_publisher`, an absolute `/r1` at `/r1/robot_state_publisher`.
   */
  robotStatePublisher: string;
  /**
   * After Humble the item's controller manager takes the URDF from this topic instead, relative to its own node
   * (`<namespace>/robot_description`, a relative namespace not doubled). Where the namespace is absolute the two
   * name the same place, which is why the launches want it absolute.
   */
  robotDescriptionTopic: string;
}

/** A choreonoid_ros WorldROS2Item: publishes /clock while a simulation of its world runs. */
export interface WorldRos2Item {
  itemName: string;
  at: SourceLocation;
  /** The world item's name with '-' replaced by '_'. */
  nodeName: string;
  /** Hz; `max_clock_publishing_rate` (default 100). */
  maxClockPublishingRate: number;
}

/** A simulator's step (s) and where it comes from (SimulatorItem::Impl::restore); value null when it cannot step. */
export interface SimulatorTimeStep {
  value: number | null;
  /** `time_step` as written, `frame_rate` (1 / it), or the time bar's frame rate (the project's TimeBar state, else 1000 Hz). */
  source: 'time_step' | 'frame_rate' | 'time_bar';
  /** Where `time_step` is written, when it is. */
  at?: SourceLocation;
}

/** A simulator item (a SimulatorItem subclass: AIST, ODE, ...), in the item tree's order. */
export interface ProjectSimulator {
  itemName: string;
  itemPath: string;
  /** itemPath of its WorldItem (findOwnerItem<WorldItem>); null outside any world (it cannot run). */
  world: string | null;
  at: SourceLocation;
  /** Its class, e.g. AISTSimulatorItem. */
  className: string;
  /** `is_selected`: SimulationBar starts the selected simulators, or the first one when none is. */
  selected: boolean;
  timeStep: SimulatorTimeStep;
  /** The AIST simulator's integration mode (semi-implicit Euler unless the project says Runge-Kutta). */
  integration?: 'semi-implicit_euler' | 'runge-kutta';
}

export interface ProjectWorld {
  itemName: string;
  /** Item names from the top of the tree down to this item, '/'-separated (unique names are not required). */
  itemPath: string;
  at: SourceLocation;
  ros: { worldRos2?: WorldRos2Item };
}

/** How a BodyItem under another BodyItem follows it (BodyItem's parent_body_linkage; Coordinated by default). */
export interface BodyLinkage {
  /** itemPath of the owning BodyItem. */
  parentItemPath: string;
  kind: 'coordinated' | 'attached';
  /** The parent body's link it follows (`parent_link`, else its root link); undefined when that link does not exist. */
  parentLink?: string;
}

interface ProjectBodyCommon {
  itemName: string;
  itemPath: string;
  /** itemPath of the nearest enclosing WorldItem; null for a body outside any world. */
  world: string | null;
  /** Where the item is in the project file (a sub-project's items are in their own file). */
  at: SourceLocation;
  /** `file` (or the old `modelFile`) exactly as written; null when the item names none. */
  modelFile: string | null;
  /** The model file with its path variable expanded and made absolute, as Choreonoid resolves it; null when it cannot be. */
  path: string | null;
  warnings: Diagnostic[];
  ros: { bodyRos2?: BodyRos2Item; ros2Control?: Ros2ControlItem };
}

/** A body Choreonoid restores, with its state as Choreonoid holds it after loading the project. */
export interface LoadedProjectBody extends ProjectBodyCommon {
  kind: 'loaded';
  model: RobotModel;
  /**
   * The Body's name: the item's name (BodyItemBodyFileIO::load names the body after the item before loading it;
   * the model's own `name` is the body's model name, `model.name`), the model's name for an item without one.
   */
  bodyName: string;
  /** Where the root link is now (what Choreonoid shows after loading). */
  rootPose: Pose;
  /**
   * Where a simulation started from the initial state puts the root (BodyItem's initial state):
   * `initial_root_translation` / `initial_root_rotation`, and the world origin when the project gives none —
   * not `root_translation`.
   */
  initialRootPose: Pose;
  /** Every joint of Body::joint(i)'s order (joint id, then joints without one) by joint name, rad or m. */
  jointPositions: Record<string, number>;
  /** The same joints where a simulation starts them. */
  initialJointPositions: Record<string, number>;
  /** The root's joint type after `fix_root` (Body::setRootLinkFixed): 'fixed' roots stay where they are put. */
  rootJointType: JointType;
  fixedRoot: boolean;
  /** Body::isStaticModel after `fix_root`: fixed root and no joint that moves (floors, walls, tables). */
  staticModel: boolean;
  linkage?: BodyLinkage;
}

/** A BodyItem Choreonoid does not restore (its model does not load, a key cannot be read): why, located. */
export interface FailedProjectBody extends ProjectBodyCommon {
  kind: 'failed';
  /** The first names the item in the project; the rest are the model's own located errors, if any. */
  errors: Diagnostic[];
}

export type ProjectBody = LoadedProjectBody | FailedProjectBody;

export interface Project {
  /** Absolute path of the project file. */
  file: string;
  worlds: ProjectWorld[];
  /** Every simulator item in item-tree order. */
  simulators: ProjectSimulator[];
  /** Every BodyItem in item-tree order, inside a world or not (PoseSeq projects keep bodies outside any world). */
  bodies: ProjectBody[];
  /** The ${SHARE} the paths were resolved with; null when none was known. */
  shareDirectory: string | null;
  /** Problems with the project as a whole or with items other than bodies (errors included: the project still serves). */
  diagnostics: Diagnostic[];
}
