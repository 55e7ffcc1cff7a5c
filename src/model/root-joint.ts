// A root joint other than the model file's: a Choreonoid project's `fix_root` (Body::setRootLinkFixed) fixes a
// free root or frees a fixed one for that body item, whatever the model says. Serving such a body as the model
// file has it would make a bolted-down box "free" (its placement warned about as not live, left out of MoveIt's
// planning scene as a moving body) or a freed robot fixed.
import type { RobotModel } from './types.js';

export const ROOT_JOINTS = ['fixed', 'free'] as const;
export type RootJoint = (typeof ROOT_JOINTS)[number];

/** The model with its root link's joint of type `type` (the same model when it already is). */
export function withRootJoint(model: RobotModel, type: RootJoint): RobotModel {
  const [root, ...rest] = model.links;
  if (!root || root.joint.type === type) return model;
  return { ...model, links: [{ ...root, joint: { ...root.joint, type } }, ...rest] };
}
