// robot_description for the node: the URDF of src/urdf with its generated meshes on disk *before* the
// description is published (rviz resolves mesh URIs as soon as it sees the URDF). Written synchronously
// so that a reload — including a parameter change, whose verdict ROS needs at once — is one step that
// either fully succeeds or leaves the served model untouched.
import type { RobotModel } from '../model/types.js';
import { defaultMeshDir, toUrdf, writeUrdfSync } from '../urdf/index.js';
import type { Description } from './robot-publisher.js';
import type { NodeParams } from './params.js';

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
  return { xml: result.xml, warnings: result.warnings };
}
