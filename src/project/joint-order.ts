// The order in which a project lists joint positions: Choreonoid's Body::joint(i) (Body::updateLinkTree,
// src/Body/Body.cpp). Walking the links in traverse order, a link with joint id k takes slot k (the first link
// with that id keeps it); slots no link has are filled with placeholder joints; then every non-root link whose
// joint type is not fixed and that has no id is appended ("virtual joints"). A project's
// joint_displacements / jointPositions has one value per slot, so a placeholder's value goes nowhere.
import type { RobotModel } from '../model/types.js';

/** Joint names by slot (null for a placeholder), and how many slots have an id (Body::numJoints). */
export interface JointSlots {
  names: (string | null)[];
  /** numJoints: slots given by joint ids, placeholders included (the largest id + 1). */
  identified: number;
}

export function jointSlots(model: RobotModel): JointSlots {
  const byId: (string | null)[] = [];
  const virtual: string[] = [];
  model.links.forEach((link, i) => {
    const id = link.joint.id;
    if (id !== null && id >= 0) {
      while (byId.length <= id) byId.push(null);
      if (byId[id] === null) byId[id] = link.joint.name;
    }
    // Link::FixedJoint only: a pseudo continuous track is not "fixed" here although isFixedJoint() says it is.
    if (link.joint.type !== 'fixed' && i > 0 && (id === null || id < 0)) virtual.push(link.joint.name);
  });
  return { names: [...byId, ...virtual], identified: byId.length };
}
