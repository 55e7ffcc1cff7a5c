// What the ROS ecosystem requires of a robot's names and root link beyond Choreonoid's own rules, as
// a model → model step that the URDF writer, the node's TF and every CLI command share (so frames in
// the URDF, on /tf and in `body-bridge tf` cannot disagree):
//
// - Link names: Choreonoid names each joint after its link by default. URDF allows that, but SDFormat
//   (Gazebo, ros_gz) rejects a joint named like a link. joint_states, choreonoid_ros and controllers
//   speak joint names, so joints keep theirs and a link that shares its name with a joint gets the
//   suffix `_link` (`distinct`, the default); `model` keeps Choreonoid's link names.
// - Root inertia: kdl_parser (robot_state_publisher, MoveIt) warns about and ignores the inertia of
//   the URDF's root link. With `child` (the default) the root link keeps its name, frame and shapes and
//   hands its mass to a child link `<root>_inertia` on a fixed joint at the same frame, which KDL and
//   SDFormat both lump back into the root; `root` leaves the mass on the root link.
import type { Joint, Link, RobotModel } from './types.js';
import { uniqueNamer } from './unique-name.js';

export type LinkNaming = 'distinct' | 'model';
export type RootInertia = 'child' | 'root';

export const LINK_NAMINGS: readonly LinkNaming[] = ['distinct', 'model'];
export const ROOT_INERTIAS: readonly RootInertia[] = ['child', 'root'];

export interface RosConventions {
  linkNames?: LinkNaming;
  rootInertia?: RootInertia;
  /** A world link above the root (see UrdfOptions.worldFrame): then the root is not the URDF's root. */
  worldFrame?: string;
}

export const LINK_SUFFIX = '_link';
export const ROOT_INERTIA_SUFFIX = '_inertia';

/** Link name in the model → name in the ROS model, for the links that were renamed. */
export type LinkRenames = ReadonlyMap<string, string>;

export interface RosModel {
  model: RobotModel;
  renamed: LinkRenames;
  /** The link that carries the root's mass, when it was moved off the root. */
  rootInertiaLink: string | null;
}

const hasInertia = (link: Link): boolean => link.mass !== 0 || link.inertia.some((row) => row.some((x) => x !== 0));

/** The model as ROS will see it under `conventions` (defaults: distinct link names, root inertia on a child). */
export function applyRosConventions(model: RobotModel, conventions: RosConventions = {}): RosModel {
  const linkNaming = conventions.linkNames ?? 'distinct';
  const rootInertia = conventions.rootInertia ?? 'child';
  // Only joints the URDF writes (every link but the root has one) can collide with a link name.
  const jointNames = new Set(model.links.filter((l) => l.parent !== null).map((l) => l.joint.name));
  const renamed = new Map<string, string>();
  if (linkNaming === 'distinct') {
    const name = uniqueNamer([...model.links.map((l) => l.name), ...jointNames]);
    for (const link of model.links) if (jointNames.has(link.name)) renamed.set(link.name, name(`${link.name}${LINK_SUFFIX}`));
  }
  const rename = (n: string): string => renamed.get(n) ?? n;
  let links: Link[] = model.links.map((l) =>
    renamed.size === 0 ? l : { ...l, name: rename(l.name), parent: l.parent === null ? null : rename(l.parent) },
  );
  let rootInertiaLink: string | null = null;
  const root = links[0];
  if (rootInertia === 'child' && !conventions.worldFrame && root && hasInertia(root)) {
    const taken = [...links.map((l) => l.name), ...jointNames];
    rootInertiaLink = uniqueNamer(taken)(`${root.name}${ROOT_INERTIA_SUFFIX}`);
    const joint: Joint = {
      name: uniqueNamer([...taken, rootInertiaLink])(`${rootInertiaLink}_joint`),
      type: 'fixed',
      id: null,
      axis: [0, 0, 1],
      lower: -Infinity,
      upper: Infinity,
      velocityLower: -Infinity,
      velocityUpper: Infinity,
      effortLower: -Infinity,
      effortUpper: Infinity,
      initial: 0,
      rotorInertia: 0,
      gearRatio: 1,
    };
    const carrier: Link = {
      name: rootInertiaLink,
      parent: root.name,
      joint,
      offset: { translation: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
      mass: root.mass,
      centerOfMass: root.centerOfMass,
      inertia: root.inertia,
      visuals: [],
      collisions: [],
      ...(root.source ? { source: root.source } : {}),
    };
    const massless: Link = { ...root, mass: 0, centerOfMass: [0, 0, 0], inertia: [[0, 0, 0], [0, 0, 0], [0, 0, 0]] };
    links = [massless, ...links.slice(1), carrier];
  }
  if (renamed.size === 0 && rootInertiaLink === null) return { model, renamed, rootInertiaLink };
  return {
    model: {
      ...model,
      root: rename(model.root),
      links,
      devices: renamed.size === 0 ? model.devices : model.devices.map((d) => ({ ...d, link: rename(d.link) })),
      extraJoints:
        renamed.size === 0 ? model.extraJoints : model.extraJoints.map((x) => ({ ...x, link1: rename(x.link1), link2: rename(x.link2) })),
    },
    renamed,
    rootInertiaLink,
  };
}
