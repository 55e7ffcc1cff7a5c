// sensor_msgs/LaserScan.
import type { LaserScan } from '../messages/messages.js';
import { type CdrOut, cdrReader, f32, f32Seq, fixed, header, readFloat32s, readHeader, serialize } from './core.js';

const TYPE = 'sensor_msgs/LaserScan';

/** The header and the ranges (the relay takes its angles from the model); `ranges` may view `bytes`. */
export function readLaserScan(bytes: Uint8Array): Pick<LaserScan, 'header' | 'ranges'> {
  const r = cdrReader(bytes, TYPE);
  const head = readHeader(r, TYPE);
  // angle_min … range_max: seven float32.
  fixed(r, TYPE, () => {
    for (let i = 0; i < 7; i++) r.float32();
  });
  return { header: head, ranges: readFloat32s(r, `${TYPE}.ranges`) };
}

export function writeLaserScan(m: LaserScan): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    f32(o, m.angle_min);
    f32(o, m.angle_max);
    f32(o, m.angle_increment);
    f32(o, m.time_increment);
    f32(o, m.scan_time);
    f32(o, m.range_min);
    f32(o, m.range_max);
    f32Seq(o, m.ranges);
    f32Seq(o, m.intensities);
  });
}
