// The library entry: what `import … from 'body-bridge'` gives a TypeScript or JavaScript user.
// Load a .body or .wrl model, turn it into a URDF, write it, and walk its TF frames; the node and
// the CLI are built from exactly these functions.
export { loadRobotModel } from './load.js';
export type { LoadLimits, LoadOptions } from './model/options.js';
export { ModelLoadError, formatDiagnostic } from './model/errors.js';
export type * from './model/types.js';

export { applyRosConventions, LINK_NAMINGS, ROOT_INERTIAS } from './model/ros-conventions.js';
export type { LinkNaming, RootInertia, RosConventions, RosModel } from './model/ros-conventions.js';

export { toUrdf, writeUrdf, writeUrdfSync } from './urdf/index.js';
export type { MeshFile, MeshUriStyle, UrdfOptions, UrdfResult, WrittenUrdf } from './urdf/index.js';

export { frameTree, framePoses } from './kinematics/frames.js';
export type { Frame, FrameKind } from './kinematics/frames.js';
export { linkWorldPoses } from './kinematics/forward.js';
export type { JointPositions } from './kinematics/forward.js';
export { deviceFrames } from './kinematics/device-frames.js';
export type { DeviceFrames } from './kinematics/device-frames.js';
