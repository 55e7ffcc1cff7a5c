// `--roles FILE`: the user's word on what a joint is for, where the inference (roles.ts) guessed wrong.
// A mapping from joint name to role; every entry is checked against the model, and a bad one is reported at
// its line and column in FILE, with what would have been accepted.
//
//   PanJoint: head
//   TiltJoint: head
//   LeftWheel: drive_wheel
//   Valve: passive
//
// What a role can apply to: a `track` only to a pseudo continuous track (Choreonoid's joint type decides
// what moves it), and a track only to `track` or `passive`; `drive_wheel` only to a revolute joint of a
// free-floating base that the drive analysis measured (wheels.ts), since diff_drive_controller needs its
// radius and side. The drive itself is not re-derived from the file: a joint the file takes out of the
// drive leaves the drive, and the drive goes if a side is left empty.
import { LineCounter, type Node, isMap, isScalar, parseDocument } from 'yaml';
import { ModelLoadError } from '../model/errors.js';
import type { Diagnostic, RobotModel } from '../model/types.js';
import { JOINT_ROLES, type JointRole, type RoleAnalysis, hasRole, isJointRole } from './roles.js';

/** Parses and checks a roles file against the model (as ROS sees it). Throws ModelLoadError (every problem, located). */
export function readRolesFile(text: string, file: string, model: RobotModel, inferred: RoleAnalysis): Map<string, JointRole> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const problems: Diagnostic[] = [];
  const at = (node: Node | null | undefined, path: string, message: string): void => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    problems.push({ file, line, column: col, path, severity: 'error', message });
  };
  for (const e of doc.errors) {
    const { line, col } = lines.linePos(e.pos[0]);
    problems.push({ file, line, column: col, severity: 'error', message: e.message.split('\n')[0]! });
  }
  if (problems.length > 0) throw new ModelLoadError(problems);
  const out = new Map<string, JointRole>();
  const root = doc.contents;
  if (root === null) return out;
  if (!isMap(root)) {
    at(root, '', 'expected a mapping from joint names to roles (JOINT: ROLE)');
    throw new ModelLoadError(problems);
  }
  const byJoint = new Map(model.links.filter(hasRole).map((l) => [l.joint.name, l]));
  const root0 = model.links[0];
  for (const pair of root.items) {
    const joint = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value;
    const role = isScalar(value) && typeof value.value === 'string' ? value.value : null;
    const link = byJoint.get(joint);
    if (!link) {
      const near = [...byJoint.keys()].filter((j) => j.toLowerCase() === joint.toLowerCase());
      at(pair.key as Node, joint, `no joint "${joint}" with a role in ${model.name || 'the model'}${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}: joints: ${[...byJoint.keys()].join(', ')}`);
      continue;
    }
    if (role === null || !isJointRole(role)) {
      at((value as Node | null) ?? (pair.key as Node), joint, `${role === null ? 'expected a role' : `"${role}" is not a role`}: one of ${JOINT_ROLES.join(', ')}`);
      continue;
    }
    if (out.has(joint)) {
      at(pair.key as Node, joint, `joint "${joint}" is given a role twice`);
      continue;
    }
    const isTrack = link.joint.type === 'pseudo_continuous_track';
    if (role === 'track' && !isTrack) at(value as Node, joint, `"track" applies only to a pseudo continuous track; ${joint} is ${link.joint.type}`);
    else if (isTrack && role !== 'track' && role !== 'passive') at(value as Node, joint, `${joint} is a pseudo continuous track: its role is track or passive, not ${role}`);
    else if (role === 'drive_wheel' && (link.joint.type !== 'revolute' || root0?.joint.type !== 'free')) {
      at(value as Node, joint, `"drive_wheel" needs a revolute joint on a free-floating base; ${joint} is ${link.joint.type}${root0?.joint.type !== 'free' ? ` and the root ${root0?.name} is ${root0?.joint.type}` : ''}`);
    } else if (role === 'drive_wheel' && !inferred.drive.wheels.includes(joint) && !inferred.steering.drive?.traction.some((w) => w.joint === joint)) {
      const was = inferred.joints.find((j) => j.joint === joint)!;
      at(value as Node, joint, `${joint} cannot join the drive: ${inferred.drive.leftOut.get(joint) ?? `the drive analysis did not take it (inferred ${was.role}: ${was.reason})`}; the role wheel commands it in velocity on its own`);
    } else out.set(joint, role);
  }
  if (problems.length > 0) throw new ModelLoadError(problems);
  return out;
}

const ACTUATED_ROLES = new Set<JointRole>(['drive_wheel', 'track', 'steering', 'wheel', 'flipper', 'head', 'arm', 'gripper', 'leg', 'joint']);

/**
 * The inferred roles with the file's (read by readRolesFile, so every drive wheel it names is one the drive
 * measured) applied; a wheel the file takes out of the drive leaves it.
 */
export function applyRoles(inferred: RoleAnalysis, given: ReadonlyMap<string, JointRole>, file: string): RoleAnalysis {
  if (given.size === 0) return inferred;
  const joints = inferred.joints.map((j) => {
    const role = given.get(j.joint);
    if (role === undefined || role === j.role) return role === undefined ? j : { ...j, from: 'roles file' as const, reason: `${file} (inferred the same: ${j.reason})` };
    return { ...j, role, actuated: ACTUATED_ROLES.has(role), from: 'roles file' as const, reason: `${file} (inferred ${j.role}: ${j.reason})` };
  });
  const roleOf = new Map(joints.map((j) => [j.joint, j.role]));
  let drive = inferred.drive;
  const d = drive.drive;
  const notes = [...inferred.notes];
  if (d) {
    const stays = (w: { joint: string }): boolean => roleOf.get(w.joint) === (d.kind === 'tracks' ? 'track' : 'drive_wheel');
    const left = d.left.filter(stays);
    const right = d.right.filter(stays);
    if (left.length !== d.left.length || right.length !== d.right.length) {
      if (left.length === 0 || right.length === 0 || left.length !== right.length) {
        notes.push(`${file} takes ${[...d.left, ...d.right].filter((w) => !stays(w)).map((w) => w.joint).join(', ')} out of the drive, leaving ${left.length} left and ${right.length} right: no diff_drive_controller`);
        drive = { ...drive, drive: null, wheels: [] };
      } else {
        drive = { ...drive, drive: { ...d, left, right }, wheels: [...left, ...right].map((w) => w.joint) };
      }
    }
  }
  // A steering drive stays only while its steering joint steers and its traction wheels are drive wheels.
  let steering = inferred.steering;
  const s = steering.drive;
  if (s && (roleOf.get(s.steering.joint) !== 'steering' || s.traction.some((w) => roleOf.get(w.joint) !== 'drive_wheel'))) {
    const reason = `${file} gives ${[s.steering.joint, ...s.traction.map((w) => w.joint)].filter((j) => given.has(j)).join(', ')} another role`;
    notes.push(`${reason}: no steering drive`);
    steering = { ...steering, drive: null, reason };
  }
  return { ...inferred, joints, drive, steering, notes };
}
