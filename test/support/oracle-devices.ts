// A RobotModel built straight from an oracle dump (Choreonoid's own loader output): links, joints
// and devices with their poses and parameters. The device tests use it so that they test the device
// layer against Choreonoid's data, independently of our loaders.
import type { Device, Joint, JointType, Link, Mat3, RobotModel, Vec3 } from '../../src/model/types.js';
import { fromOracleNumber, type Oracle, type OracleEntry, oracleEntries } from './oracle.js';

const num = (x: unknown): number => fromOracleNumber(x as number);
const vec = (x: unknown): Vec3 => (x as number[]).map(num) as Vec3;

function deviceParams(type: string, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = typeof v === 'number' ? num(v) : Array.isArray(v) && typeof v[0] === 'number' ? vec(v) : v;
  }
  // The oracle has no `format`; Choreonoid makes a RangeCamera for every format but COLOR.
  if (type === 'Camera') out.format = 'COLOR';
  if (type === 'RangeCamera') out.format = params.image_type === 'NO_IMAGE' ? 'DEPTH' : 'COLOR_DEPTH';
  return out;
}

const KNOWN = new Set(['Camera', 'RangeCamera', 'RangeSensor', 'ForceSensor', 'RateGyroSensor', 'AccelerationSensor', 'Imu', 'SpotLight', 'PointLight']);

export function modelFromOracle(o: Oracle): RobotModel {
  const links: Link[] = o.links.map((l) => {
    const joint: Joint = {
      name: l.joint_name,
      type: l.joint_type as JointType,
      id: l.joint_id < 0 ? null : l.joint_id,
      axis: vec(l.joint_axis),
      lower: num(l.q_lower),
      upper: num(l.q_upper),
      velocityLower: num(l.dq_lower),
      velocityUpper: num(l.dq_upper),
      effortLower: num(l.u_lower),
      effortUpper: num(l.u_upper),
      initial: l.q_initial,
      rotorInertia: l.Jm2,
      gearRatio: 1,
    };
    return {
      name: l.name,
      parent: l.parent,
      joint,
      offset: { translation: vec(l.offset_translation), rotation: l.offset_rotation },
      mass: l.mass,
      centerOfMass: vec(l.center_of_mass),
      inertia: l.inertia,
      visuals: [],
      collisions: [],
    };
  });
  const devices = o.devices.map((d): Device => {
    const common = {
      name: d.name,
      id: d.id < 0 ? null : d.id,
      link: d.link,
      pose: { translation: vec(d.local_translation), rotation: d.local_rotation as Mat3 },
    };
    if (KNOWN.has(d.type_name)) {
      return { ...common, type: d.type_name, params: deviceParams(d.type_name, d.params) } as Device;
    }
    return { ...common, type: 'Other', typeName: d.type_name, params: d.params };
  });
  return {
    // Choreonoid names a BodyItem after body->name(), or modelName() when that is empty (BodyItem.cpp).
    name: o.body_name || o.model_name || '',
    sourceFile: o.file,
    format: o.file.endsWith('.wrl') ? 'wrl' : 'body',
    root: o.root_link ?? links[0]?.name ?? '',
    links,
    devices,
    extraJoints: [],
    warnings: [],
  };
}

/** Every oracle entry that loaded and has at least one device. */
export function oracleEntriesWithDevices(): OracleEntry[] {
  return oracleEntries().filter((e) => e.oracle.ok && e.oracle.devices.length > 0);
}

export function oracleEntry(file: string): OracleEntry {
  const e = oracleEntries((f) => f === file)[0];
  if (!e) throw new Error(`no oracle entry ${file}`);
  return e;
}
