// A synthetic serial chain of revolute joints (the TF benchmark's worst case for depth): axes cycle
// through x, y, z and every link sits 5 cm along its parent's z with a small fixed tilt, so no pose
// is trivially identity.
import { axisAngle, identity3 } from '../src/model/math.js';
import type { Link, RobotModel, Vec3 } from '../src/model/types.js';

const AXES: Vec3[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

function link(name: string, parent: string | null, index: number): Link {
  return {
    name,
    parent,
    joint: {
      name: parent === null ? name : `joint_${index}`,
      type: parent === null ? 'fixed' : 'revolute',
      id: parent === null ? null : index - 1,
      axis: AXES[index % 3]!,
      lower: -Math.PI,
      upper: Math.PI,
      velocityLower: -10,
      velocityUpper: 10,
      effortLower: -100,
      effortUpper: 100,
      initial: 0,
      rotorInertia: 0,
      gearRatio: 1,
    },
    offset: {
      translation: parent === null ? [0, 0, 0] : [0.001 * (index % 7), 0, 0.05],
      rotation: parent === null ? identity3() : axisAngle([0, 0, 1], 0.01 * (index % 5)),
    },
    mass: 0.1,
    centerOfMass: [0, 0, 0.025],
    inertia: [
      [1e-4, 0, 0],
      [0, 1e-4, 0],
      [0, 0, 1e-4],
    ],
    visuals: [],
    collisions: [],
  };
}

/** A chain of `joints` revolute joints below a root link, as a loader would produce it. */
export function chainModel(joints: number): RobotModel {
  const links: Link[] = [link('base', null, 0)];
  for (let i = 1; i <= joints; i++) links.push(link(`link_${i}`, links[i - 1]!.name, i));
  return {
    name: `chain${joints}`,
    sourceFile: `/synthetic/chain${joints}.body`,
    format: 'body',
    root: 'base',
    links,
    devices: [],
    extraJoints: [],
    warnings: [],
  };
}
