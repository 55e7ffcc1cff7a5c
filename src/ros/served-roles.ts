// The joints' roles the node serves by: inferred from the model, with the roles_file parameter's file applied.
// robot_description's <ros2_control> block and the SRDF's planning groups both follow them, so they agree with
// what `body-bridge control --roles` and `body-bridge moveit --roles` write from the same file.
import { readFileSync } from 'node:fs';
import { ModelLoadError } from '../model/errors.js';
import type { RobotModel } from '../model/types.js';
import { type RoleAnalysis, inferRoles } from '../roles/roles.js';
import { applyRoles, readRolesFile } from '../roles/roles-file.js';
import type { NodeParams } from './params.js';

/** Roles for `model` (as ROS sees it); a roles file that cannot be read or is wrong throws, located. */
export function servedRoles(model: RobotModel, params: Pick<NodeParams, 'roles_file'>): RoleAnalysis {
  const inferred = inferRoles(model);
  const file = params.roles_file;
  if (file === '') return inferred;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ModelLoadError([{ file, severity: 'error', message: `roles_file cannot be read: ${(e as Error).message}` }]);
  }
  return applyRoles(inferred, readRolesFile(text, file, model, inferred), file);
}
