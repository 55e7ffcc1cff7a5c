// Per-device summary for `body-bridge info --json`: the frames a device adds to TF and the topics
// the node publishes for it, from the same tables the URDF writer and the bridge use.
import type { RobotModel } from '../model/types.js';
import type { DeviceFrames } from '../kinematics/device-frames.js';
import { renderedImageSize, type ImageSize } from './camera-info.js';
import { deviceTopics } from './topics.js';

export interface DeviceInfo {
  name: string;
  /** Choreonoid's type name (HolderDevice etc. for devices without sensor data). */
  type: string;
  link: string;
  frames: { device: string; optical?: string; scan?: string };
  topics: { name: string; type: string; frame_id: string }[];
  /** Cameras: the size of the images the simulator really sends (a fisheye's differs from `height`). */
  image?: ImageSize;
}

/** Frame names and frame_ids are given with `framePrefix` applied, as the node publishes them. */
export function deviceInfo(model: RobotModel, frames: readonly DeviceFrames[], framePrefix = ''): DeviceInfo[] {
  const topics = new Map(deviceTopics(model, frames).map((s) => [s.device, s.topics]));
  return frames.map((f) => {
    const d = model.devices[f.device]!;
    const out: DeviceInfo = {
      name: d.name,
      type: d.type === 'Other' ? d.typeName : d.type,
      link: d.link,
      frames: { device: framePrefix + f.frame },
      topics: (topics.get(f.device) ?? []).map((t) => ({ name: t.name, type: t.type, frame_id: framePrefix + t.frame })),
    };
    if (d.type === 'Camera' || d.type === 'RangeCamera') out.image = renderedImageSize(d.params);
    if (f.optical) out.frames.optical = framePrefix + f.optical.frame;
    if (f.scan) out.frames.scan = framePrefix + f.scan.frame;
    return out;
  });
}
