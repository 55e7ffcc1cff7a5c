// Choreonoid project files (.cnoid): what they mean, for the CLI and the launch that serves a whole project.
export { readProject } from './read-project.js';
export type { ProjectOptions } from './read-project.js';
export { expandPath, installedChoreonoid, pathVariablesFor, SHARE_ENV } from './path-variables.js';
export type { ExpandedPath, PathVariables } from './path-variables.js';
export { jointSlots } from './joint-order.js';
export { rosNodeName } from './ros-items.js';
export type { JointSlots } from './joint-order.js';
export type * from './types.js';
export { DEFAULT_ROS2_CONTROL_MODE, generatedBodyParameters, launchPlan, placementOfPose, POSE_SOURCE_TYPES, rootJointOverride, simulatedBodyParameters, WORLD_FRAME } from './launch-plan.js';
export type { BodyLaunch, BodyNodeParameters, SimulatedBodyParameters, LaunchPlan, LaunchPlanOptions, LeftOutBody, PlanningLaunch, PoseSource, PoseSourceType } from './launch-plan.js';
