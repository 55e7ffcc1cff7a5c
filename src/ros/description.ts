// robot_description for the node: the URDF of src/urdf with its generated meshes on disk *before* the
// description is published (rviz resolves mesh URIs as soon as it sees the URDF). Written synchronously
// so that a reload — including a parameter change, whose verdict ROS needs at once — is one step that
// either fully succeeds or leaves the served model untouched.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { RobotModel } from '../model/types.js';
import { defaultMeshDir, toUrdf } from '../urdf/index.js';
import type { Description } from './bridge.js';
import type { BridgeParams } from './params.js';

function writeMeshesSync(meshDir: string, meshes: readonly { name: string; data: Uint8Array }[]): void {
  if (meshes.length === 0) return;
  const dir = resolve(meshDir);
  mkdirSync(dir, { recursive: true });
  for (const mesh of meshes) {
    if (basename(mesh.name) !== mesh.name || mesh.name === '' || mesh.name === '.' || mesh.name === '..') {
      throw new RangeError(`mesh file name ${JSON.stringify(mesh.name)} would leave the mesh directory`);
    }
    const target = join(dir, mesh.name);
    // Names are content hashes: a file of that name and size already holds these bytes.
    const existing = (() => {
      try {
        return statSync(target);
      } catch {
        return null;
      }
    })();
    if (existing?.isFile() && existing.size === mesh.data.length) continue;
    const tmp = join(dir, `.${mesh.name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      writeFileSync(tmp, mesh.data, { flag: 'wx' });
      renameSync(tmp, target);
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
      throw error;
    }
  }
}

/** The URDF for `model` under the node's parameters, with its mesh files written. */
export function describeModel(model: RobotModel, params: BridgeParams, env: NodeJS.ProcessEnv = process.env): Description {
  const meshDir = params.mesh_dir !== '' ? params.mesh_dir : defaultMeshDir(env);
  const result = toUrdf(model, {
    meshDir,
    meshUris: params.package_uris ? 'package' : 'file',
    worldFrame: params.world_frame,
    env,
  });
  writeMeshesSync(result.meshDir, result.meshes);
  return { xml: result.xml, warnings: result.warnings };
}
