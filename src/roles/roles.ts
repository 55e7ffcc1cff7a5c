// What each moving joint of a model is for, decided from the model's structure, geometry and devices — never
// from a joint's name — and the fact that decided it, in words a person can check. Control (which
// controller commands a joint, in which mode) and MoveIt (which joints a planning group may hold) follow from
// these roles. A roles file (roles-file.ts) overrides them per joint.
//
// The rules, in the order they are applied (docs/control.md, "Joint roles", shows a model for each):
//  1. Nothing in a model tells a prop from a robot for sure (a prop car is a four-wheeled base, a valve handle a
//     one-joint arm), so every joint is taken to be meant to move unless a fact below says otherwise; a roles
//     file makes a prop's joints `passive`.
//  2. A closed loop (an extra joint): one joint drives it — the one with the lowest joint id; the others
//     follow the constraint (`passive`). Without ids, all follow.
//  3. A pseudo continuous track is a `track`: the belt Choreonoid moves at the commanded surface speed.
//  4. On a free-floating base, the links that touch the ground at the initial pose (ground.ts) decide:
//     - an unlimited revolute joint with nothing moving below it whose subtree touches the ground is a wheel:
//       fixed to the base, a drive candidate; below a vertical swivel that carries nothing else, the swivel
//       and the wheel are a `caster` when the wheel trails behind the swivel axis, else the swivel is
//       `steering` (its axis passes through the wheel) and the wheel rolls;
//     - drive candidates on both sides of the base's x axis make a differential or skid-steer drive
//       (wheels.ts): `drive_wheel`; tracks on both sides make a tracked drive. A wheel the drive cannot take
//       is a `wheel`: free-rolling where a drive moves the base, else commanded in velocity on its own;
//     - a joint fixed to the base whose subtree holds tracks or wheels, and no other moving joint, is a
//       `flipper`.
//  5. A joint without a joint id in a model that gives other joints ids is `passive`: Choreonoid's own
//     controllers address joints by id, so the model's author left it to follow (springs, track shoes).
//     So is a propeller, an unlimited joint with nothing moving below it on or beside a link holding a
//     RotorDevice: the device (Choreonoid's Multicopter plugin) makes the thrust, not the joint.
//  6. The remaining joints form limbs (tree.ts): a short chain (at most 3 joints) carrying a camera or a
//     range sensor is a `head`; short finger chains after an arm, or the only chains of a body, are a
//     `gripper`; a chain of 2 or more joints whose end touches the ground, or that the body lies on, is a
//     `leg`; 3 or more joints an `arm`; anything shorter a single actuated `joint`.
import { isMovingJoint } from '../kinematics/frames.js';
import { cross, dot, mulMat, mulVec, norm, normalize, sub, transpose } from '../model/math.js';
import type { Diagnostic, ExtraJoint, Link, RobotModel, Vec3 } from '../model/types.js';
import { linkWorldPoses } from '../kinematics/forward.js';
import { standingContact } from './ground.js';
import { type Segment, isHand, jointsUnder, rigidToRoot, segmentsOf } from './tree.js';
import { type SteeringAnalysis, steeringDrive } from './steering.js';
import { type DriveAnalysis, diffDrive, short, subtreeLinks } from './wheels.js';

export const JOINT_ROLES = ['drive_wheel', 'track', 'steering', 'wheel', 'caster', 'flipper', 'head', 'arm', 'gripper', 'leg', 'joint', 'passive'] as const;
export type JointRole = (typeof JOINT_ROLES)[number];
export const isJointRole = (s: string): s is JointRole => (JOINT_ROLES as readonly string[]).includes(s);

/** What each role means, for README tables and error messages. */
export const ROLE_MEANING: Record<JointRole, string> = {
  drive_wheel: 'a wheel of the base’s differential or skid-steer drive (diff_drive_controller), or a steered base’s traction wheel (a steering controller)',
  track: 'a pseudo continuous track (its command is the belt speed)',
  steering: 'turns a wheel to steer',
  wheel: 'a wheel outside the drive',
  caster: 'a free caster’s swivel or wheel',
  flipper: 'swings tracks or wheels about the base',
  head: 'a short chain carrying cameras or range sensors, or the top of a body',
  arm: 'a chain of three or more joints to an end effector',
  gripper: 'a gripper’s or hand’s finger',
  leg: 'a chain ending on the ground',
  joint: 'a single actuated joint',
  passive: 'left free: nothing commands it',
};

export interface JointRoleEntry {
  joint: string;
  link: string;
  role: JointRole;
  /** The fact that decided it. */
  reason: string;
  /** Whether a controller commands it; a wheel outside the drive rolls free where a drive moves the base. */
  actuated: boolean;
  /** Inferred, or given by the user's roles file. */
  from: 'inferred' | 'roles file';
}

export interface RoleAnalysis {
  /** Every moving joint (revolute, prismatic, pseudo continuous track) in model order. */
  joints: JointRoleEntry[];
  /** The base's drive (wheels or tracks), if the roles make one. */
  drive: DriveAnalysis;
  /** A steered base (steering.ts), where no differential drive moves it. */
  steering: SteeringAnalysis;
  notes: string[];
  warnings: Diagnostic[];
}

/** Joints whose role is one of these never join a planning group: MoveIt plans no wheel, track or caster. */
export const MOBILITY_ROLES: ReadonlySet<JointRole> = new Set(['drive_wheel', 'track', 'steering', 'wheel', 'caster', 'passive']);

/** Every joint a role can be given: revolute, prismatic, and pseudo continuous tracks. */
export const hasRole = (l: Link): boolean => isMovingJoint(l) || (l.parent !== null && l.joint.type === 'pseudo_continuous_track');

const unlimited = (l: Link): boolean => l.joint.type === 'revolute' && !Number.isFinite(l.joint.lower) && !Number.isFinite(l.joint.upper);
const VISION = new Set(['Camera', 'RangeCamera', 'RangeSensor']);
/** A swivel's axis is vertical within this |sin| of its angle to z; a wheel's horizontal likewise. */
const UPRIGHT = 0.1;
/** m, and fraction of the wheel radius: a wheel centre farther behind the swivel axis makes a caster. */
const TRAIL = { absolute: 0.002, relative: 0.05 };
/** At most this many joints make a head. */
export const HEAD_JOINTS = 3;

/** The links of the loop an extra joint closes: both links' paths up to their common ancestor. */
export function loopLinks(model: RobotModel, a: string, b: string): Link[] {
  const byName = new Map(model.links.map((l) => [l.name, l]));
  const up = (name: string): Link[] => {
    const out: Link[] = [];
    for (let l = byName.get(name); l; l = l.parent === null ? undefined : byName.get(l.parent)) out.push(l);
    return out;
  };
  const pa = up(a);
  const pb = up(b);
  const inB = new Set(pb.map((l) => l.name));
  const common = pa.find((l) => inB.has(l.name));
  const until = (path: Link[]): Link[] => path.slice(0, common ? path.findIndex((l) => l.name === common.name) : path.length);
  return [...until(pa), ...until(pb)];
}

/** The links of every loop `loops` close, each once (a link two loops share, once). */
export function loopsLinks(model: RobotModel, loops: readonly ExtraJoint[]): Link[] {
  return [...new Map(loops.flatMap((x) => loopLinks(model, x.link1, x.link2)).map((l) => [l.name, l] as const)).values()];
}

/**
 * A ContinuousTrack node's chain of shoes is a track only where it is closed into a loop, and Choreonoid closes it
 * only in its AGX Dynamics simulator (AGXContinuousTrack::createTrackConstraint hinges the last shoe to the first).
 * In the AIST simulator the first shoe stays on its free joint: measured with ContinuousTrackVehicle.body
 * (docs/corpus-sweep.md), its front loop unrolls onto the floor within a second and the wheels roll over shoes
 * that never move round.
 */
function openTrackWarning(model: RobotModel, first: Link): Diagnostic {
  const childOf = new Map<string, Link>();
  for (const l of model.links) if (l.parent !== null && !childOf.has(l.parent)) childOf.set(l.parent, l);
  let last = first;
  for (let i = 1; i < first.continuousTrack!; i++) last = childOf.get(last.name) ?? last;
  return {
    file: model.sourceFile,
    ...first.source,
    severity: 'warning',
    message:
      `${first.name}…${last.name}, the ${first.continuousTrack} shoes of a ContinuousTrack, close into a loop only in Choreonoid's ` +
      `AGX Dynamics simulator (it hinges ${last.name} back to ${first.name}); the AIST simulator, which simulation.launch.py's ` +
      `project runs, leaves the chain open at ${first.name} (a free joint), so the track falls open onto the floor and its ` +
      'wheels roll over its shoes instead of driving them round',
  };
}

/** Roles as inferred from the model (see the header), before any roles file. */
export function inferRoles(model: RobotModel): RoleAnalysis {
  const notes: string[] = [];
  const warnings: Diagnostic[] = [];
  const links = model.links.filter(hasRole);
  const decided = new Map<string, Omit<JointRoleEntry, 'from'>>();
  const set = (l: Link, role: JointRole, reason: string, actuated = role !== 'passive' && role !== 'caster'): void => {
    if (!decided.has(l.joint.name)) decided.set(l.joint.name, { joint: l.joint.name, link: l.name, role, reason, actuated });
  };
  const root = model.links[0];
  const noDrive = (): DriveAnalysis => ({ drive: null, wheels: [], leftOut: new Map(), notes: [], warnings: [] });
  let steering: SteeringAnalysis = { drive: null, reason: null, notes: [], warnings: [] };
  const finish = (drive: DriveAnalysis): RoleAnalysis => ({
    joints: links.map((l) => ({ ...decided.get(l.joint.name)!, from: 'inferred' as const })),
    drive,
    steering,
    notes: [...drive.notes, ...steering.notes, ...notes],
    warnings: [...drive.warnings, ...steering.warnings, ...warnings],
  });
  if (!root || links.length === 0) return finish(noDrive());

  const fixedRoot = root.joint.type !== 'free';
  const ids = links.some((l) => l.joint.id !== null);

  // 2. Closed loops.
  for (const x of model.extraJoints) {
    const loop = loopLinks(model, x.link1, x.link2).filter(hasRole);
    if (loop.length === 0) continue;
    const withId = loop.filter((l) => l.joint.id !== null).sort((a, b) => a.joint.id! - b.joint.id!);
    const driver = withId[0];
    const closing = `the closed loop of extra joint ${x.name ?? `${x.link1}–${x.link2}`}`;
    for (const l of loop) {
      if (l === driver) continue;
      set(l, 'passive', driver ? `follows ${closing}, which ${driver.joint.name} (the lowest joint id in it) drives` : `follows ${closing} (no joint in it has an id)`);
    }
    if (driver) notes.push(`${closing}: driven by ${driver.joint.name}; ${loop.filter((l) => l !== driver).map((l) => l.joint.name).join(', ')} follow`);
  }

  // 3. Tracks.
  const tracks = links.filter((l) => l.joint.type === 'pseudo_continuous_track');
  for (const l of tracks) set(l, 'track', fixedRoot ? 'a pseudo continuous track on a fixed base (a conveyor belt)' : 'a pseudo continuous track (joint type)');
  for (const first of model.links) if (first.continuousTrack !== undefined) warnings.push(openTrackWarning(model, first));

  // 4. The mobile base.
  let drive = noDrive();
  const driving = new Set<string>();
  // Ground contact, read once: a free-floating body's, or that of the bodies a fixed root carries on free joints
  // (ground.ts); a fixed body without free parts stands where it is bolted. A mobile base is a free root's.
  const contact = standingContact(model);
  if (contact && !fixedRoot) {
    const touches = (l: Link): boolean => subtreeLinks(model, l.name).some((s) => contact.touching.has(s.name));
    const free = (l: Link): boolean => !decided.has(l.joint.name);
    const movingBelow = (l: Link): Link[] => subtreeLinks(model, l.name).filter((s) => s !== l && hasRole(s) && decided.get(s.joint.name)?.role !== 'passive');
    const poses = linkWorldPoses(model);
    const basePose = poses.get(root.name)!;
    const axisInBase = (l: Link): Vec3 => normalize(mulVec(mulMat(transpose(basePose.rotation), poses.get(l.name)!.rotation), l.joint.axis));
    const wheels = links.filter((l) => free(l) && unlimited(l) && movingBelow(l).length === 0 && touches(l));
    // The nearest joint above a link that moves it (not a passive follower): a wheel's swivel or flipper.
    const byName = new Map(model.links.map((l) => [l.name, l]));
    const carrier = (w: Link): Link | undefined => {
      for (let p = byName.get(w.parent ?? ''); p; p = byName.get(p.parent ?? '')) if (hasRole(p) && decided.get(p.joint.name)?.role !== 'passive') return p;
      return undefined;
    };
    const candidates: Link[] = [];
    const swivels = new Map<string, Link[]>();
    // Steering joints and the wheel each turns: a steered base's front (steering.ts).
    const steered: [Link, Link][] = [];
    for (const w of wheels) {
      if (rigidToRoot(model, w, hasRole)) {
        candidates.push(w);
        continue;
      }
      const swivel = carrier(w);
      if (swivel && swivel.joint.type === 'revolute' && rigidToRoot(model, swivel, hasRole) && free(swivel)) {
        swivels.set(swivel.name, [...(swivels.get(swivel.name) ?? []), w]);
      }
    }
    for (const [name, ws] of swivels) {
      const swivel = byName.get(name)!;
      const others = movingBelow(swivel).filter((l) => !ws.includes(l));
      const a = axisInBase(swivel);
      if (ws.length !== 1 || others.length > 0 || norm(cross(a, [0, 0, 1])) > UPRIGHT) continue;
      const w = ws[0]!;
      // How far the wheel's centre trails behind the swivel axis, along the direction it rolls.
      const sp = poses.get(swivel.name)!;
      const wp = poses.get(w.name)!;
      const wheelAxis = normalize(mulVec(wp.rotation, w.joint.axis));
      const swivelAxis = normalize(mulVec(sp.rotation, swivel.joint.axis));
      const rolling = normalize(cross(swivelAxis, wheelAxis));
      const trail = Math.abs(dot(sub(wp.translation, sp.translation), rolling));
      const radius = Math.max(0, (contact.lowest.has(w.name) ? wp.translation[2] - contact.lowest.get(w.name)! : 0));
      if (trail > Math.max(TRAIL.absolute, TRAIL.relative * radius)) {
        set(swivel, 'caster', `a free swivel: its wheel ${w.joint.name} trails ${short(trail)} m behind its vertical axis, so it turns to follow the base`);
        set(w, 'caster', `a caster's wheel, below swivel ${swivel.joint.name}`);
      } else {
        set(swivel, 'steering', `a vertical axis through its wheel ${w.joint.name} (trail ${short(trail)} m): turning it steers`);
        steered.push([swivel, w]);
        set(w, 'wheel', `a steered wheel, below ${swivel.joint.name}`, false);
      }
    }
    // The drive: tracks if there are tracks on both sides, else the wheels fixed to the base.
    // All tracks (a flipper's sub-tracks run at their side's speed), else those fixed to the base.
    const baseTracks = tracks.filter((t) => rigidToRoot(model, t, hasRole));
    if (tracks.length > 0) {
      drive = diffDrive(model, tracks, 'tracks');
      if (!drive.drive && baseTracks.length !== tracks.length) drive = diffDrive(model, baseTracks, 'tracks');
    }
    if (!drive.drive && candidates.length > 0) drive = diffDrive(model, candidates, 'wheels');
    for (const j of drive.wheels) driving.add(j);
    // No differential drive: one steering joint and the wheels fixed to the base make a car (steering.ts).
    if (!drive.drive && candidates.length > 0 && steered.length > 0) {
      steering =
        steered.length === 1
          ? steeringDrive(model, steered[0]![0], steered[0]![1], candidates)
          : { drive: null, reason: `${steered.length} steering joints (${steered.map(([s]) => s.joint.name).join(', ')}): that is ackermann_steering_controller's drive, which body_bridge does not generate yet`, notes: [], warnings: [] };
      const s = steering.drive;
      for (const w of candidates) {
        if (s) set(w, 'drive_wheel', `a traction wheel fixed to the base, ${short(s.wheelbase)} m behind steering ${s.steering.joint}: the steering drive's (bicycle_steering_controller)`);
        else if (steering.reason) set(w, 'wheel', `a wheel fixed to the base with no drive to join (no steering drive: ${steering.reason}): commanded in velocity on its own`);
      }
    }
    for (const w of candidates) {
      if (driving.has(w.joint.name)) set(w, 'drive_wheel', `a wheel fixed to the base, touching the ground, ${drive.drive!.left.some((x) => x.joint === w.joint.name) ? 'left' : 'right'} of its x axis`);
      else if (drive.drive) set(w, 'wheel', `a wheel the drive does not take (${drive.leftOut.get(w.joint.name) ?? 'not one of the drive’s pairs'}): it rolls with the base`, false);
      else set(w, 'wheel', `a wheel fixed to the base with no drive to join (${drive.leftOut.get(w.joint.name) ?? 'no wheel across the base from it'}): commanded in velocity on its own`);
    }
    // Wheels below a joint fixed to the base (a flipper's sub-track wheel): they roll with what carries them.
    for (const w of wheels) {
      const c = carrier(w);
      if (!decided.has(w.joint.name) && c && rigidToRoot(model, c, hasRole)) set(w, 'wheel', `a wheel below ${c.joint.name}, rolling with it`, false);
    }
    // Where a drive moves the base, its other wheels fixed to it (a track's idlers and sprockets off the ground) roll along.
    if (drive.drive) {
      for (const l of links) {
        if (free(l) && unlimited(l) && movingBelow(l).length === 0 && rigidToRoot(model, l, hasRole)) set(l, 'wheel', `an unlimited joint fixed to the base with nothing below it, off the ground: it rolls with the ${drive.drive.kind === 'tracks' ? 'tracks' : 'drive'}`, false);
      }
    }
    // Flippers: a joint on the base swinging tracks or wheels.
    for (const l of links) {
      if (!free(l) || !rigidToRoot(model, l, hasRole)) continue;
      const below = subtreeLinks(model, l.name).filter((s) => s !== l && hasRole(s));
      const carried = below.filter((s) => ['track', 'wheel', 'drive_wheel', 'caster'].includes(decided.get(s.joint.name)?.role ?? ''));
      if (carried.length > 0 && carried.length === below.filter((s) => decided.get(s.joint.name)?.role !== 'passive').length) {
        set(l, 'flipper', `fixed to the base, it swings ${carried.map((s) => s.joint.name).join(', ')} and nothing else`);
      }
    }
  }

  // 5. and 6. Joints without ids, then limbs, of what is left.
  const limbLink = (l: Link): boolean => hasRole(l) && !decided.has(l.joint.name);
  const linkOf = new Map(model.links.map((l) => [l.joint.name, l]));
  const vision = (s: Segment): string[] => {
    const below = new Set(jointsUnder(s).flatMap((j) => subtreeLinks(model, linkOf.get(j)!.name).map((l) => l.name)));
    return model.devices.filter((d) => VISION.has(d.type) && below.has(d.link)).map((d) => d.name || d.type);
  };
  // A limb stretched out on the ground (a four-limbed crawler modelled lying flat): touching it along its length, not at its end.
  const lyingOn = (s: Segment): string | undefined => (contact === null ? undefined : subtreeLinks(model, linkOf.get(s.joints[0]!)!.name).find((l) => contact.touching.has(l.name))?.name);
  const touchesGround = (s: Segment): boolean => contact !== null && subtreeLinks(model, s.tip).some((l) => contact.touching.has(l.name));
  // A joint without a joint id where others have one: Choreonoid's controllers, which address joints by id, never command it.
  if (ids) {
    for (const l of links) if (limbLink(l) && l.joint.id === null) set(l, 'passive', 'no joint id, where the model gives its actuated joints ids: nothing in Choreonoid commands it (a spring, a track shoe, a part that follows)');
  }
  for (const l of links) {
    const rotor = [l, model.links.find((p) => p.name === l.parent)].find((x) => x?.pluginNodes?.includes('RotorDevice'));
    if (rotor && limbLink(l) && unlimited(l) && subtreeLinks(model, l.name).every((x) => x === l || !hasRole(x))) {
      set(l, 'passive', `a propeller: the RotorDevice of ${rotor.name} (Choreonoid's Multicopter plugin) makes the thrust, not this joint, and no ros2_control interface commands a RotorDevice`);
    }
  }
  // The top of the body: a short chain holding the highest link is a head, as on a humanoid or a pan-tilt unit.
  const q = new Map(model.links.filter((l) => l.parent !== null && Number.isFinite(l.joint.initial)).map((l) => [l.joint.name, l.joint.initial]));
  const heights = linkWorldPoses(model, q);
  const highest = model.links.reduce((a, b) => (heights.get(b.name)!.translation[2] > heights.get(a.name)!.translation[2] ? b : a));
  const holdsTop = (s: Segment): boolean => jointsUnder(s).some((j) => subtreeLinks(model, linkOf.get(j)!.name).some((l) => l.name === highest.name));
  // A pan: the chain's first joint turns about the vertical.
  const pans = (s: Segment): boolean => {
    const first = linkOf.get(s.joints[0]!)!;
    return norm(cross(normalize(mulVec(heights.get(first.name)!.rotation, first.joint.axis)), [0, 0, 1])) <= UPRIGHT;
  };
  const flatten = (ss: Segment[]): Segment[] => ss.flatMap((s) => (s.joints.length === 0 ? flatten(s.below) : [s]));
  const segments = flatten(segmentsOf(model, limbLink));
  const visit = (s: Segment, fingersOf: string | null): void => {
    const all = jointsUnder(s);
    const leaf = s.below.length === 0;
    if (fingersOf !== null) {
      for (const j of s.joints) set(linkOf.get(j)!, 'gripper', `a finger: one of the short chains after ${fingersOf}`);
    } else if (all.length <= HEAD_JOINTS && vision(s).length > 0 && !touchesGround(s)) {
      for (const j of all) set(linkOf.get(j)!, 'head', `a short chain (${all.length} joint${all.length === 1 ? '' : 's'}) carrying ${vision(s).join(', ')}`);
      return;
    } else if (leaf && all.length <= HEAD_JOINTS && !fixedRoot && s.base !== root.name && holdsTop(s) && pans(s) && segments.some((o) => o !== s && jointsUnder(o).length >= 2)) {
      for (const j of all) set(linkOf.get(j)!, 'head', `a short chain (${all.length} joint${all.length === 1 ? '' : 's'}) at the top of the body (${highest.name} is its highest link)`);
      return;
    } else if (s.below.length >= 2 && s.joints.length >= 1 && !isHand(s)) {
      for (const j of s.joints) set(linkOf.get(j)!, 'joint', `a waist or torso: ${s.below.length} limbs branch from ${s.tip}`);
    } else if (s.joints.length >= 2 && s.below.length === 0 && touchesGround(s)) {
      for (const j of s.joints) set(linkOf.get(j)!, 'leg', `a chain of ${s.joints.length} joints from ${s.base} whose end touches the ground`);
    } else if (s.joints.length >= 2 && s.below.length === 0 && lyingOn(s) !== undefined) {
      for (const j of s.joints) set(linkOf.get(j)!, 'leg', `a chain of ${s.joints.length} joints from ${s.base} that the body lies on (${lyingOn(s)} touches the ground at the model pose)`);
    } else if (s.joints.length >= 3) {
      for (const j of s.joints) set(linkOf.get(j)!, 'arm', `a chain of ${s.joints.length} joints from ${s.base} to ${s.tip}`);
    } else {
      for (const j of s.joints) set(linkOf.get(j)!, 'joint', s.joints.length === 1 ? `a single actuated joint below ${s.base}` : `a short chain of ${s.joints.length} joints below ${s.base}`);
    }
    const hand = isHand(s);
    for (const b of s.below) visit(b, hand ? s.tip : null);
  };
  // A body whose only chains are short ones branching off one link, with no arm before them: a gripper.
  const fingers = fixedRoot && segments.length >= 2 && segments.every((s) => s.base === segments[0]!.base && s.base !== root.name) && segments.every((s) => s.below.length === 0 && s.joints.length >= 1 && s.joints.length <= 3) && !segments.some((s) => vision(s).length > 0 || touchesGround(s));
  for (const s of segments) visit(s, fingers ? `${s.base} (the body's only chains)` : null);
  for (const l of links) if (!decided.has(l.joint.name)) set(l, 'joint', 'an actuated joint no other rule takes');
  return finish(drive);
}

/** The drive alone (what a caller that needs no other role asks for). */
export const analyseDrive = (model: RobotModel): DriveAnalysis => inferRoles(model).drive;
