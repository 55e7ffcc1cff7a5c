// sensor_msgs/CameraInfo: the node only writes it (from the model's camera parameters).
import type { CameraInfo } from '../messages/messages.js';
import { type CdrOut, f64Fixed, f64Seq, header, serialize, string, u32, u8 } from './core.js';

export function writeCameraInfo(m: CameraInfo): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    u32(o, m.height);
    u32(o, m.width);
    string(o, m.distortion_model);
    f64Seq(o, m.d);
    f64Fixed(o, m.k, 9);
    f64Fixed(o, m.r, 9);
    f64Fixed(o, m.p, 12);
    u32(o, m.binning_x);
    u32(o, m.binning_y);
    u32(o, m.roi.x_offset);
    u32(o, m.roi.y_offset);
    u32(o, m.roi.height);
    u32(o, m.roi.width);
    u8(o, m.roi.do_rectify ? 1 : 0);
  });
}
