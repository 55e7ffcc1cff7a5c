// robot_description for the node: the URDF of src/urdf with its generated meshes on disk *before* the
// description is published (rviz resolves mesh URIs as soon as it sees the URDF). Written synchronously
// so that a reload — including a parameter change, whose verdict ROS needs at once — is one step that
// either fully succeeds or leaves the served model untouched.
import { controlBlock } from '../control/config.js';
import { type ControlMode, isControlMode, parseJointModes } from '../control/modes.js';
import { withRos2Control } from '../control/ros2-control-block.js';
import type { Diagnostic, RobotModel } from '../model/types.js';
import { defaultMeshDir, toUrdf, writeUrdfSync } from '../urdf/index.js';
import type { Description } from './robot-publisher.js';
import type { NodeParams } from './params.js';
import { servedRoles } from './served-roles.js';

/** The URDF for `model` under the node's parameters, with its mesh files written (unless `write` is false: the dry run). */
export function describeModel(model: RobotModel, params: NodeParams, env: NodeJS.ProcessEnv = process.env, write = true): Description {
  const meshDir = params.mesh_dir !== '' ? params.mesh_dir : defaultMeshDir(env);
  const result = toUrdf(model, {
    meshDir,
    meshUris: params.package_uris ? 'package' : 'file',
    worldFrame: params.world_frame,
    env,
  });
  if (write) writeUrdfSync(result);
  if (!isControlMode(params.ros2_control)) return { xml: result.xml, warnings: result.warnings };
  // The block choreonoid_ros's ROS2ControlItem reads, exactly as `body-bridge urdf --ros2-control` writes it.
  const overrides = parseJointModes(params.ros2_control_joint_modes);
  const block = controlBlock(model, params.ros2_control as ControlMode, typeof overrides === 'string' ? new Map() : overrides, servedRoles(model, params));
  const unknown: Diagnostic[] = block.modes.unknown.map((j) => ({
    file: model.sourceFile,
    severity: 'warning',
    message: `ros2_control_joint_modes names '${j}', which is not a moving joint of ${model.name}; ignored`,
  }));
  return { xml: withRos2Control(result.xml, block.xml), warnings: [...result.warnings, ...block.roles.warnings, ...unknown] };
}
