// The TF frames of devices: one rule, shared by the URDF, /tf_static, the topics' frame_ids and
// `body-bridge tf`, so that every consumer agrees on every name.
import { diag, mulMat } from '../model/math.js';
import type { Device, Mat3, Pose, RobotModel } from '../model/types.js';
import { uniqueNamer } from '../model/unique-name.js';

export interface DeviceFrames {
  /** Index into model.devices. */
  device: number;
  /** The device frame, exactly as the model places it. */
  frame: string;
  /** Link the device frame hangs from. */
  link: string;
  /** Device frame in the link frame. */
  pose: Pose;
  /** REP-103 optical frame (z forward, x right, y down) for cameras and range sensors, child of `frame`. */
  optical?: { frame: string; rotation: Mat3 };
  /** Scan frame of a RangeSensor (x along the zero yaw direction, z up), child of `frame`. */
  scan?: { frame: string; rotation: Mat3 };
}

/** GL camera axes (look along −Z, +Y up) → REP-103 optical axes (z forward, y down). */
const GL_TO_OPTICAL: Mat3 = diag(1, -1, -1);

/**
 * GL sensor axes → scan axes: x_scan = −Z (the zero yaw direction), z_scan = +Y (Choreonoid's yaw
 * turns about +Y, counter-clockwise seen from above), y_scan = z × x = −X.
 */
const GL_TO_SCAN: Mat3 = [
  [0, -1, 0],
  [0, 0, 1],
  [-1, 0, 0],
];

type VisionDevice = Extract<Device, { type: 'Camera' | 'RangeCamera' | 'RangeSensor' }>;

const isVisionDevice = (d: Device): d is VisionDevice =>
  d.type === 'Camera' || d.type === 'RangeCamera' || d.type === 'RangeSensor';

function baseName(d: Device): string {
  if (d.name !== '') return d.name;
  const type = d.type === 'Other' ? d.typeName : d.type;
  return `${d.link}_${type}`;
}

/**
 * Frame names are unique across links and devices. A device keeps its own name when it is
 * non-empty and unused; a nameless device is called `<link>_<Type>`; on a clash with a link or an
 * earlier device frame the first free `<name>_<k>` (k = 2, 3, …) is used. Optical and scan frames
 * append `_optical_frame` / `_scan_frame` to the device frame and take part in the same check.
 */
export function deviceFrames(model: RobotModel): DeviceFrames[] {
  const claim = uniqueNamer(model.links.map((l) => l.name));
  return model.devices.map((d, index) => {
    const optical = isVisionDevice(d);
    const scan = d.type === 'RangeSensor';
    // The derived names must be free with the device name, so a later link-like clash cannot split them.
    const derived = (f: string): string[] => [...(optical ? [`${f}_optical_frame`] : []), ...(scan ? [`${f}_scan_frame`] : [])];
    const frame = claim(baseName(d), derived);
    const result: DeviceFrames = { device: index, frame, link: d.link, pose: d.pose };
    if (isVisionDevice(d)) {
      const rOptical = d.params.optical_frame_rotation;
      result.optical = { frame: claim(`${frame}_optical_frame`), rotation: mulMat(rOptical, GL_TO_OPTICAL) };
      if (scan) result.scan = { frame: claim(`${frame}_scan_frame`), rotation: mulMat(rOptical, GL_TO_SCAN) };
    }
    return result;
  });
}
