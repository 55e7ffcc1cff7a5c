// How finely OMPL checks a motion for collisions: `longest_valid_segment_fraction` of ompl_planning.yaml.
// OMPL checks a straight joint-space segment at states one "longest valid segment" apart, that length being
// the fraction times the group's maximum extent (MoveIt: the sum of its joints' ranges, a continuous joint 2π;
// distances summed over the joints). MoveIt's usual 0.005 is a fixed share of that extent, so the distance a
// link moves between two checked states grows with the number of joints and their ranges: 13 cm for SR1's
// seven unlimited arm joints, half a metre for UR10's ±360° arm. A collision thinner than that is stepped
// over, and move_group then rejects the path it planned ("Computed path is not valid"). Here the fraction is
// chosen so that no point of the robot moves more than STEP between checked states.
import type { RobotModel } from '../model/types.js';
import { samplingRange } from './collision-matrix.js';
import type { LinkGeometry } from '../urdf/collision-geometry.js';
import { linksBelow } from './srdf.js';

/** Metres a point of the robot may move between two states OMPL checks. */
export const STEP = 0.02;
/** MoveIt's usual fraction: never checked more coarsely than that. */
export const MOVEIT_FRACTION = 0.005;

/** Farthest collision-geometry vertex from each link's origin (0 for a link without geometry). */
export function linkRadii(geometries: readonly LinkGeometry[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of geometries) {
    let r = 0;
    for (const s of g.shapes) {
      const { rotation: R, translation: t } = s.pose;
      const p = s.mesh.positions;
      for (let i = 0; i < p.length; i += 3) {
        const x = R[0][0] * p[i]! + R[0][1] * p[i + 1]! + R[0][2] * p[i + 2]! + t[0];
        const y = R[1][0] * p[i]! + R[1][1] * p[i + 1]! + R[1][2] * p[i + 2]! + t[1];
        const z = R[2][0] * p[i]! + R[2][1] * p[i + 1]! + R[2][2] * p[i + 2]! + t[2];
        r = Math.max(r, Math.hypot(x, y, z));
      }
    }
    out.set(g.link, r);
  }
  return out;
}

/**
 * Metres a point of the robot moves at most per unit of joint-space distance of these joints (MoveIt's: the
 * sum of each joint's change): for a revolute joint, the farthest any geometry below it can be from its axis —
 * bounded, whatever the joints below do, by the lengths of the links down to it plus its own radius; for a
 * prismatic joint, 1.
 */
export function leverArm(model: RobotModel, joints: readonly string[], radii: ReadonlyMap<string, number>): number {
  const wanted = new Set(joints);
  let arm = 0;
  for (const link of model.links) {
    if (link.parent === null || !wanted.has(link.joint.name)) continue;
    if (link.joint.type === 'prismatic') {
      arm = Math.max(arm, 1);
      continue;
    }
    // From the joint's link (its origin lies on the axis) down, adding each link's offset length.
    const along = new Map<string, number>();
    for (const l of linksBelow(model, link.name)) {
      const t = l.offset.translation;
      const d = l.name === link.name ? 0 : along.get(l.parent!)! + Math.hypot(t[0], t[1], t[2]);
      along.set(l.name, d);
      arm = Math.max(arm, d + (radii.get(l.name) ?? 0));
    }
  }
  return arm;
}

/** The group's maximum extent as MoveIt computes it (its joints' ranges summed; continuous 2π), with `bounds` narrowing any joint's range (joint_limits.yaml's planning ranges). */
export function maximumExtent(model: RobotModel, joints: readonly string[], bounds: ReadonlyMap<string, readonly [number, number]> = new Map()): number {
  const wanted = new Set(joints);
  let extent = 0;
  for (const l of model.links) {
    if (l.parent === null || !wanted.has(l.joint.name)) continue;
    // A continuous joint's range is [−π, π] to MoveIt, as to samplingRange.
    const [lo, hi] = bounds.get(l.joint.name) ?? samplingRange(l);
    extent += hi - lo;
  }
  return extent;
}

/** longest_valid_segment_fraction for a group: STEP of motion at most between checked states, never coarser than MoveIt's 0.005. */
export function segmentFraction(
  model: RobotModel,
  joints: readonly string[],
  radii: ReadonlyMap<string, number>,
  step = STEP,
  bounds: ReadonlyMap<string, readonly [number, number]> = new Map(),
): number {
  const extent = maximumExtent(model, joints, bounds);
  const arm = leverArm(model, joints, radii);
  if (!(extent > 0) || !(arm > 0)) return MOVEIT_FRACTION;
  return Math.min(MOVEIT_FRACTION, twoDigitsDown(step / (arm * extent)));
}

/** Two significant digits, rounded towards zero (finer, never coarser, than asked). */
function twoDigitsDown(x: number): number {
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Number((Math.floor(x / unit + 1e-9) * unit).toPrecision(2));
}
