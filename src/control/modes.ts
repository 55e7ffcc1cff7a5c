// How each joint is commanded inside Choreonoid: the command interface its <ros2_control> joint names,
// which choreonoid_ros's BodySystemInterface turns into an actuation mode of the simulated joint
// (choreonoid_ros 3716c75, src/plugin/BodySystemInterface.cpp):
//
//   position     Choreonoid's high-gain mode: the joint is put where commanded (JointDisplacement)
//   velocity     high-gain velocity (JointVelocity)
//   effort       the command is the joint torque or force
//   position_pd  torque u = −P·(q − q_cmd) − D·dq, computed by BodySystemInterface every step
//   velocity_pd  torque u = −P·(dq − dq_cmd) − D·ddq
//
// The `_pd` modes export their command interface under the plain name (`position`, `velocity`): that is
// what a controller claims. Choreonoid's ros2-control documentation recommends them with the AIST
// simulator, whose high-gain modes "may result in unexpected behavior".

export const CONTROL_MODES = ['position', 'velocity', 'effort', 'position_pd', 'velocity_pd'] as const;
export type ControlMode = (typeof CONTROL_MODES)[number];

/** The mode `body-bridge control` uses unless told otherwise. */
export const DEFAULT_CONTROL_MODE: ControlMode = 'position_pd';

export const isControlMode = (s: string): s is ControlMode => (CONTROL_MODES as readonly string[]).includes(s);

export type CommandInterface = 'position' | 'velocity' | 'effort';

/** The command interface BodySystemInterface exports for a joint in `mode`: the one a controller claims. */
export const claimedInterface = (mode: ControlMode): CommandInterface =>
  mode === 'position_pd' ? 'position' : mode === 'velocity_pd' ? 'velocity' : mode;

/** Modes whose PD loop runs inside Choreonoid, with gains from the `choreonoid_ros2_control` node. */
export const hasItemGains = (mode: ControlMode): mode is 'position_pd' | 'velocity_pd' => mode === 'position_pd' || mode === 'velocity_pd';

/** The same kind of actuation, commanding velocity: what a wheel driven by diff_drive_controller needs. */
export const velocityCounterpart = (mode: ControlMode): ControlMode => (mode === 'position_pd' ? 'velocity_pd' : mode === 'position' ? 'velocity' : mode);

/** `JOINT=MODE` → [joint, mode]; a reason string when malformed. */
export function parseJointMode(entry: string): [string, ControlMode] | string {
  const eq = entry.lastIndexOf('=');
  if (eq <= 0) return `'${entry}' is not JOINT=MODE`;
  const joint = entry.slice(0, eq).trim();
  const mode = entry.slice(eq + 1).trim();
  if (joint === '') return `'${entry}' has no joint name`;
  if (!isControlMode(mode)) return `'${entry}': '${mode}' is not one of ${CONTROL_MODES.join(', ')}`;
  return [joint, mode];
}

/** Every `JOINT=MODE` entry parsed; the first malformed one (or a joint named twice) is the reason. */
export function parseJointModes(entries: readonly string[]): Map<string, ControlMode> | string {
  const out = new Map<string, ControlMode>();
  for (const entry of entries) {
    const parsed = parseJointMode(entry);
    if (typeof parsed === 'string') return parsed;
    if (out.has(parsed[0]) && out.get(parsed[0]) !== parsed[1]) return `joint '${parsed[0]}' is given two modes (${out.get(parsed[0])}, ${parsed[1]})`;
    out.set(parsed[0], parsed[1]);
  }
  return out;
}

export interface JointMode {
  joint: string;
  mode: ControlMode;
  /**
   * Why this mode: the default, the user's JOINT=MODE, a drive wheel (or another commanded wheel) taking the
   * default's velocity form, a track (velocity: Choreonoid takes a track's command as its belt speed, a PD
   * torque means nothing to it), or a joint left free (effort with nothing commanding it: BodySystemInterface
   * starts every command at the joint's torque, 0, and keeps writing it) — a caster, a wheel rolling with the
   * base, a passive joint.
   */
  from: 'default' | 'override' | 'wheel' | 'track' | 'passive';
}

export interface ModeChoice {
  /** Every joint with a role (revolute, prismatic, pseudo continuous track) in model order. */
  joints: JointMode[];
  /** Overrides naming no such joint (the caller decides: a CLI error, a node warning). */
  unknown: string[];
}

/** What the mode rule needs of a joint's role (roles/roles.ts). */
export interface RoleForMode {
  joint: string;
  role: string;
  actuated: boolean;
}

/**
 * Each joint's mode: its override, else by its role — a free joint (not actuated) effort, a track velocity,
 * a commanded wheel the velocity form of the default — else the default.
 */
export function chooseModes(roles: readonly RoleForMode[], defaultMode: ControlMode, overrides: ReadonlyMap<string, ControlMode>): ModeChoice {
  const known = new Set(roles.map((r) => r.joint));
  return {
    joints: roles.map(({ joint, role, actuated }): JointMode => {
      const given = overrides.get(joint);
      if (given !== undefined) return { joint, mode: given, from: 'override' };
      if (!actuated) return { joint, mode: 'effort', from: 'passive' };
      if (role === 'track') return { joint, mode: 'velocity', from: 'track' };
      if (role === 'drive_wheel' || role === 'wheel') return { joint, mode: velocityCounterpart(defaultMode), from: 'wheel' };
      return { joint, mode: defaultMode, from: 'default' };
    }),
    unknown: [...overrides.keys()].filter((j) => !known.has(j)),
  };
}
