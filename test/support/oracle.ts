// Access to ../shared (corpus + the oracle dumps of Choreonoid's own loader) and the comparison of
// a loaded RobotModel against an oracle dump. Tests that need ../shared fail loudly without it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkWorldPoses } from '../../src/kinematics/forward.js';
import type { Mat3, RobotModel, Vec3 } from '../../src/model/types.js';

/**
 * The directory holding body_bridge's package.json, searched upwards from this file: the same from the sources
 * (vitest) and from a compiled copy under build/ (the bench, the sweep).
 */
export function findProjectRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'body-bridge') return dir;
    if (dirname(dir) === dir) throw new Error(`no body-bridge package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot();
export const sharedDir = resolve(projectRoot, '../shared');
export const corpusDir = join(sharedDir, 'corpus');
export const oracleDir = join(sharedDir, 'oracle');
export const specDir = join(sharedDir, 'spec');

export function requireShared(): void {
  if (!existsSync(join(oracleDir, 'README.md')) || !existsSync(join(corpusDir, 'INDEX.md'))) {
    throw new Error(`../shared is missing: expected the corpus and oracle at ${sharedDir}`);
  }
}

const DBL_MAX = 1.7976931348623157e308;

export interface OraclePose {
  position: Vec3;
  rotation: Mat3;
}

export interface OracleLink {
  index: number;
  name: string;
  joint_name: string;
  parent: string | null;
  joint_type: string;
  joint_id: number;
  test_config_index: number;
  joint_axis: Vec3;
  q_lower: number;
  q_upper: number;
  dq_lower: number;
  dq_upper: number;
  u_lower: number;
  u_upper: number;
  q_initial: number;
  Jm2: number;
  offset_translation: Vec3;
  offset_rotation: Mat3;
  mass: number;
  center_of_mass: Vec3;
  inertia: Mat3;
  visual_bbox: { min: Vec3; max: Vec3 } | null;
  collision_bbox: { min: Vec3; max: Vec3 } | null;
}

export interface OracleDevice {
  index: number;
  id: number;
  type_name: string;
  name: string;
  link: string;
  local_translation: Vec3;
  local_rotation: Mat3;
  params: Record<string, unknown>;
}

export interface OracleConfiguration {
  q: Record<string, number>;
  link_world_poses: Record<string, OraclePose>;
  device_world_poses: Record<string, OraclePose>;
}

export interface Oracle {
  file: string;
  ok: boolean;
  shape_loading?: boolean;
  loader_messages: string;
  error?: string;
  body_name?: string;
  model_name?: string;
  root_link?: string;
  links: OracleLink[];
  devices: OracleDevice[];
  extra_joints: {
    type: string;
    link1: string;
    link2: string;
    axis: Vec3;
    local_pose1: OraclePose;
    local_pose2: OraclePose;
  }[];
  configurations: Record<string, OracleConfiguration>;
  placeholder_meshes?: string[];
}

export interface OracleEntry {
  /** Corpus-relative path, e.g. `openhrp3/sample/model/sample1.wrl`. */
  file: string;
  /** Absolute path of the model file in the corpus. */
  modelPath: string;
  oracle: Oracle;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

export function oracleEntries(filter: (file: string) => boolean = () => true): OracleEntry[] {
  requireShared();
  return walk(oracleDir)
    .map((p) => relative(oracleDir, p).slice(0, -'.json'.length))
    .filter(filter)
    .map((file) => ({
      file,
      modelPath: join(corpusDir, file),
      oracle: JSON.parse(readFileSync(join(oracleDir, `${file}.json`), 'utf8')) as Oracle,
    }));
}

/** ±DBL_MAX in the oracle means unlimited, which the model spells ±Infinity. */
export const fromOracleNumber = (x: number): number =>
  x >= DBL_MAX ? Infinity : x <= -DBL_MAX ? -Infinity : x;

export function close(a: number, b: number, rel = 1e-9, abs = 1e-12): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= Math.max(abs, rel * Math.max(Math.abs(a), Math.abs(b)));
}

/** Deep comparison: numbers with `close`, ±DBL_MAX as ±Infinity, everything else exactly. Returns mismatches. */
export function compareValues(path: string, ours: unknown, theirs: unknown, rel = 1e-9, abs = 1e-12): string[] {
  if (typeof theirs === 'number') {
    const t = fromOracleNumber(theirs);
    return typeof ours === 'number' && close(ours, t, rel, abs) ? [] : [`${path}: ours ${fmt(ours)}, oracle ${fmt(t)}`];
  }
  if (Array.isArray(theirs)) {
    if (!Array.isArray(ours) || ours.length !== theirs.length) return [`${path}: ours ${fmt(ours)}, oracle ${fmt(theirs)}`];
    return theirs.flatMap((t, i) => compareValues(`${path}[${i}]`, ours[i], t, rel, abs));
  }
  if (theirs !== null && typeof theirs === 'object') {
    if (ours === null || typeof ours !== 'object') return [`${path}: ours ${fmt(ours)}, oracle object`];
    return Object.entries(theirs).flatMap(([k, t]) =>
      compareValues(`${path}.${k}`, (ours as Record<string, unknown>)[k], t, rel, abs),
    );
  }
  return ours === theirs ? [] : [`${path}: ours ${fmt(ours)}, oracle ${fmt(theirs)}`];
}

const fmt = (v: unknown): string => JSON.stringify(v, (_k, x) => (x === Infinity ? 'Inf' : x === -Infinity ? '-Inf' : x));

/**
 * Compares a loaded model with Choreonoid's dump: links (order, names, parents, joints, limits,
 * offsets, mass properties), devices (order, type, pose, params), extra joints, and forward
 * kinematics in every configuration. An empty list means equal.
 */
export function compareWithOracle(model: RobotModel, oracle: Oracle, rel = 1e-9): string[] {
  const out: string[] = [];
  const c = (path: string, ours: unknown, theirs: unknown): void => {
    out.push(...compareValues(path, ours, theirs, rel));
  };
  c('root', model.root, oracle.root_link);
  c('links.length', model.links.length, oracle.links.length);
  oracle.links.forEach((ol, i) => {
    const l = model.links[i];
    const p = `links[${i}](${ol.name})`;
    if (!l) return;
    const j = l.joint;
    c(`${p}.name`, l.name, ol.name);
    c(`${p}.joint_name`, j.name, ol.joint_name);
    c(`${p}.parent`, l.parent, ol.parent);
    c(`${p}.joint_type`, j.type, ol.joint_type);
    c(`${p}.joint_id`, j.id ?? -1, ol.joint_id);
    c(`${p}.joint_axis`, j.axis, ol.joint_axis);
    c(`${p}.q_lower`, j.lower, ol.q_lower);
    c(`${p}.q_upper`, j.upper, ol.q_upper);
    c(`${p}.dq_lower`, j.velocityLower, ol.dq_lower);
    c(`${p}.dq_upper`, j.velocityUpper, ol.dq_upper);
    c(`${p}.u_lower`, j.effortLower, ol.u_lower);
    c(`${p}.u_upper`, j.effortUpper, ol.u_upper);
    c(`${p}.q_initial`, j.initial, ol.q_initial);
    c(`${p}.Jm2`, j.gearRatio * j.gearRatio * j.rotorInertia, ol.Jm2);
    c(`${p}.offset_translation`, l.offset.translation, ol.offset_translation);
    c(`${p}.offset_rotation`, l.offset.rotation, ol.offset_rotation);
    c(`${p}.mass`, l.mass, ol.mass);
    c(`${p}.center_of_mass`, l.centerOfMass, ol.center_of_mass);
    c(`${p}.inertia`, l.inertia, ol.inertia);
  });
  c('devices.length', model.devices.length, oracle.devices.length);
  oracle.devices.forEach((od, i) => {
    const d = model.devices[i];
    const p = `devices[${i}](${od.name})`;
    if (!d) return;
    c(`${p}.type_name`, d.type === 'Other' ? d.typeName : d.type, od.type_name);
    c(`${p}.name`, d.name, od.name);
    c(`${p}.id`, d.id ?? -1, od.id);
    c(`${p}.link`, d.link, od.link);
    c(`${p}.local_translation`, d.pose.translation, od.local_translation);
    c(`${p}.local_rotation`, d.pose.rotation, od.local_rotation);
    c(`${p}.params`, d.params, od.params);
  });
  c('extra_joints.length', model.extraJoints.length, oracle.extra_joints.length);
  oracle.extra_joints.forEach((ox, i) => {
    const x = model.extraJoints[i];
    const p = `extra_joints[${i}]`;
    if (!x) return;
    c(`${p}.type`, x.type, ox.type);
    c(`${p}.link1`, x.link1, ox.link1);
    c(`${p}.link2`, x.link2, ox.link2);
    c(`${p}.axis`, x.axis, ox.axis);
    c(`${p}.local_pose1`, { position: x.localPose1.translation, rotation: x.localPose1.rotation }, ox.local_pose1);
    c(`${p}.local_pose2`, { position: x.localPose2.translation, rotation: x.localPose2.rotation }, ox.local_pose2);
  });
  for (const [name, config] of Object.entries(oracle.configurations ?? {})) {
    const q = oracleJointPositions(model, config);
    const poses = linkWorldPoses(model, q);
    for (const [link, pose] of Object.entries(config.link_world_poses)) {
      const ours = poses.get(link);
      c(`configurations.${name}.${link}`, ours && { position: ours.translation, rotation: ours.rotation }, pose);
    }
  }
  return out;
}

/** The oracle keys q by link name; the model's FK takes joint names. */
export function oracleJointPositions(model: RobotModel, config: OracleConfiguration): Map<string, number> {
  const byLink = new Map(model.links.map((l) => [l.name, l.joint.name]));
  return new Map(Object.entries(config.q).map(([link, v]) => [byLink.get(link) ?? link, v]));
}
