// Reference conversions for the frame and intrinsics checks, written plainly (one point at a time) and
// independent of the relay's code: a depth image through the pinhole model into the optical frame, and
// RangeSensor samples along Choreonoid's spherical angles into the scan frame. The node never does either
// (choreonoid_ros sends clouds; the relay turns them into depth images and rotates them into our frames).
import type { Header, PointCloud2, PointField } from '../../src/messages/messages.js';
import type { RangeSensorParams } from '../../src/model/types.js';
import type { Intrinsics } from '../../src/devices/camera-info.js';

const FLOAT32 = 7;
const field = (name: string, offset: number): PointField => ({ name, offset, datatype: FLOAT32, count: 1 });
const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function cloud(header: Header, width: number, height: number, rgb: boolean, data: ArrayBuffer, dense: boolean): PointCloud2 {
  const step = rgb ? 16 : 12;
  return {
    header,
    height,
    width,
    fields: [field('x', 0), field('y', 4), field('z', 8), ...(rgb ? [field('rgb', 12)] : [])],
    is_bigendian: !littleEndianHost,
    point_step: step,
    row_step: step * width,
    data: new Uint8Array(data),
    is_dense: dense,
  };
}

/** Colour for a coloured cloud: rgb8 (3 bytes per pixel) or mono8 (1 byte), row-major. */
export interface ColorPixels {
  data: Uint8Array;
  channels: 1 | 3;
}

/** Depth (m, 0 / NaN / ±Inf = no return) → an organized cloud in the optical frame, PCL's packed rgb when coloured. */
export function depthToPointCloud(depth: Float32Array, k: Intrinsics, header: Header, color?: ColorPixels): PointCloud2 {
  const { width: w, height: h } = k;
  if (depth.length !== w * h) throw new RangeError(`depth image has ${depth.length} pixels, expected ${w}×${h}`);
  if (color && color.data.length < w * h * color.channels) throw new RangeError('colour image smaller than the depth image');
  const stride = color ? 4 : 3;
  const buffer = new ArrayBuffer(w * h * stride * 4);
  const xyz = new Float32Array(buffer);
  const words = new Uint32Array(buffer);
  let dense = true;
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      const i = v * w + u;
      const z = depth[i]!;
      const ok = z > 0 && z < Infinity;
      if (!ok) dense = false;
      xyz[i * stride] = ok ? ((u - k.cx) / k.fx) * z : NaN;
      xyz[i * stride + 1] = ok ? ((v - k.cy) / k.fy) * z : NaN;
      xyz[i * stride + 2] = ok ? z : NaN;
      if (color) {
        const c = color.data;
        const [r, g, b] = color.channels === 3 ? [c[3 * i]!, c[3 * i + 1]!, c[3 * i + 2]!] : [c[i]!, c[i]!, c[i]!];
        words[i * stride + 3] = (r << 16) | (g << 8) | b;
      }
    }
  }
  return cloud(header, w, h, color !== undefined, buffer, dense);
}

/** RangeSensor samples (yaw fastest, then pitch) → an organized cloud in the scan frame; no return or beyond max_distance = NaN. */
export function rangeScanToPointCloud(p: RangeSensorParams, ranges: ArrayLike<number>, header: Header): PointCloud2 {
  const nYaw = Math.max(1, p.num_yaw_samples);
  const nPitch = Math.max(1, p.num_pitch_samples);
  if (ranges.length !== nYaw * nPitch) throw new RangeError(`range sensor has ${nYaw}×${nPitch} samples, got ${ranges.length}`);
  const buffer = new ArrayBuffer(nYaw * nPitch * 12);
  const xyz = new Float32Array(buffer);
  let dense = true;
  for (let j = 0; j < nPitch; j++) {
    const pitch = p.min_pitch_angle + j * p.pitch_step;
    for (let k = 0; k < nYaw; k++) {
      const i = j * nYaw + k;
      const yaw = p.min_yaw_angle + k * p.yaw_step;
      const r = ranges[i]!;
      const ok = r >= 0 && r <= p.max_distance;
      if (!ok) dense = false;
      xyz[3 * i] = ok ? r * Math.cos(pitch) * Math.cos(yaw) : NaN;
      xyz[3 * i + 1] = ok ? r * Math.cos(pitch) * Math.sin(yaw) : NaN;
      xyz[3 * i + 2] = ok ? r * Math.sin(pitch) : NaN;
    }
  }
  return cloud(header, nYaw, nPitch, false, buffer, dense);
}
