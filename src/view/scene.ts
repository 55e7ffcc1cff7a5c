// What the browser view draws besides the URDF: the model's frames by kind, its moving joints with their
// limits, what each camera and range sensor covers (from the same intrinsics and scan geometry the node
// publishes), centres of mass, the link tree and the warnings. Plain data, built from the model as ROS
// sees it (the conventions applied), so every name matches a link of the served URDF.
import { cameraIntrinsics } from '../devices/camera-info.js';
import { deviceFrames } from '../kinematics/device-frames.js';
import { type FrameKind, frameTree } from '../kinematics/frames.js';
import { formatDiagnostic } from '../model/errors.js';
import type { Diagnostic, RobotModel, Vec3 } from '../model/types.js';

export interface SceneJoint {
  name: string;
  /** The URDF child link it moves. */
  link: string;
  type: 'revolute' | 'continuous' | 'prismatic';
  lower: number;
  upper: number;
  initial: number;
}

export interface SceneFrustum {
  device: string;
  /** Optical frame the frustum is drawn in (z forward, x right, y down). */
  frame: string;
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  near: number;
  far: number;
}

export interface SceneFan {
  device: string;
  /** Scan frame (x along yaw 0, z up). */
  frame: string;
  minYaw: number;
  maxYaw: number;
  minPitch: number;
  maxPitch: number;
  minDistance: number;
  maxDistance: number;
}

export interface Scene {
  name: string;
  sourceFile: string;
  root: string;
  frames: { name: string; parent: string | null; kind: FrameKind }[];
  joints: SceneJoint[];
  frustums: SceneFrustum[];
  fans: SceneFan[];
  masses: { link: string; mass: number; centerOfMass: Vec3 }[];
  warnings: string[];
}

/** Range of a joint the URDF leaves unlimited (continuous), for the slider. */
const CONTINUOUS = Math.PI;

export function describeScene(model: RobotModel, warnings: readonly Diagnostic[]): Scene {
  const frames = frameTree(model);
  const joints: SceneJoint[] = [];
  for (const l of model.links) {
    if (l.parent === null || (l.joint.type !== 'revolute' && l.joint.type !== 'prismatic')) continue;
    const limited = Number.isFinite(l.joint.lower) && Number.isFinite(l.joint.upper);
    const type = l.joint.type === 'revolute' && !limited ? 'continuous' : l.joint.type;
    // The URDF bounds an unlimited prismatic joint at ±1e6 m; a slider needs a range a person can use.
    const lower = limited ? l.joint.lower : type === 'continuous' ? -CONTINUOUS : Math.max(l.joint.lower, -1);
    const upper = limited ? l.joint.upper : type === 'continuous' ? CONTINUOUS : Math.min(l.joint.upper, 1);
    joints.push({ name: l.joint.name, link: l.name, type, lower, upper, initial: Math.min(upper, Math.max(lower, l.joint.initial)) });
  }
  const frustums: SceneFrustum[] = [];
  const fans: SceneFan[] = [];
  for (const df of deviceFrames(model)) {
    const d = model.devices[df.device]!;
    if ((d.type === 'Camera' || d.type === 'RangeCamera') && df.optical) {
      const k = cameraIntrinsics(d.params);
      if (!k) continue;
      const far = d.type === 'RangeCamera' && Number.isFinite(d.params.max_distance) ? d.params.max_distance : d.params.far_clip;
      frustums.push({ device: df.frame, frame: df.optical.frame, ...k, near: d.params.near_clip, far: Number.isFinite(far) ? far : 10 });
    } else if (d.type === 'RangeSensor' && df.scan) {
      const p = d.params;
      fans.push({
        device: df.frame,
        frame: df.scan.frame,
        minYaw: p.min_yaw_angle,
        maxYaw: p.max_yaw_angle,
        minPitch: p.min_pitch_angle,
        maxPitch: p.max_pitch_angle,
        minDistance: p.min_distance,
        maxDistance: p.max_distance,
      });
    }
  }
  return {
    name: model.name,
    sourceFile: model.sourceFile,
    root: model.root,
    frames: frames.map((f) => ({ name: f.name, parent: f.parent, kind: f.kind })),
    joints,
    frustums,
    fans,
    masses: model.links.filter((l) => l.mass > 0).map((l) => ({ link: l.name, mass: l.mass, centerOfMass: l.centerOfMass })),
    warnings: warnings.map(formatDiagnostic),
  };
}
