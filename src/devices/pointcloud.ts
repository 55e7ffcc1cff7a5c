// PointCloud2 and depth Image builders over typed arrays. Every function writes into one
// preallocated ArrayBuffer through Float32Array / Uint32Array views: no per-point objects, so a
// 640×480 frame costs a few passes over memory, not 300k allocations.
import { Buffer } from 'node:buffer';
import type { Header, Image, PointCloud2, PointField } from '../messages/messages.js';
import type { Mat3 } from '../model/types.js';
import type { Intrinsics } from './camera-info.js';

/**
 * An ArrayBuffer of `bytes` bytes whose contents are NOT zeroed, for outputs the caller overwrites
 * completely: zeroing a multi-megabyte cloud before writing every byte of it cost about a fifth of a
 * 640×480 conversion. (Buffer.allocUnsafeSlow: unpooled, so the buffer is exactly this one allocation.)
 */
export function uninitializedBuffer(bytes: number): ArrayBuffer {
  const b = Buffer.allocUnsafeSlow(bytes);
  return b.byteOffset === 0 && b.buffer.byteLength === bytes ? (b.buffer as ArrayBuffer) : new ArrayBuffer(bytes);
}

/** sensor_msgs/PointField datatype constants. */
export const PointFieldType = { INT8: 1, UINT8: 2, INT16: 3, UINT16: 4, INT32: 5, UINT32: 6, FLOAT32: 7, FLOAT64: 8 } as const;

/** Typed-array views use the host byte order; messages say which one that is. */
export const HOST_IS_BIG_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;

const field = (name: string, offset: number): PointField => ({ name, offset, datatype: PointFieldType.FLOAT32, count: 1 });

/** x, y, z as float32: the layout of pcl::PointXYZ without padding. */
export const XYZ_FIELDS: readonly PointField[] = [field('x', 0), field('y', 4), field('z', 8)];
/**
 * x, y, z, rgb: rgb is the PCL packing (0x00RRGGBB in a 32-bit word) declared FLOAT32, as
 * depth_image_proc and pcl_conversions publish it, so rviz and PCL both decode the colour.
 */
export const XYZRGB_FIELDS: readonly PointField[] = [...XYZ_FIELDS, field('rgb', 12)];

/** A cloud of x, y, z (and rgb) float32 points over `data` (no copy). */
export function pointCloud(
  header: Header,
  width: number,
  height: number,
  withRgb: boolean,
  data: Uint8Array,
  isDense: boolean,
): PointCloud2 {
  const pointStep = withRgb ? 16 : 12;
  return {
    header,
    height,
    width,
    fields: (withRgb ? XYZRGB_FIELDS : XYZ_FIELDS).map((f) => ({ ...f })),
    is_bigendian: HOST_IS_BIG_ENDIAN,
    point_step: pointStep,
    row_step: pointStep * width,
    data,
    is_dense: isDense,
  };
}

/** A 32FC1 depth image message over `depth` (no copy). */
export function depthImage(depth: Float32Array, width: number, height: number, header: Header): Image {
  return {
    header,
    height,
    width,
    encoding: '32FC1',
    is_bigendian: HOST_IS_BIG_ENDIAN ? 1 : 0,
    step: width * 4,
    data: new Uint8Array(depth.buffer, depth.byteOffset, depth.byteLength),
  };
}

/** Where x, y, z (and rgb) sit in an incoming cloud's points. */
export interface CloudLayout {
  count: number;
  pointStep: number;
  x: number;
  y: number;
  z: number;
  rgb: number | null;
}

/**
 * Reads the layout of an incoming cloud, accepting what choreonoid_ros writes (x/y/z FLOAT32 with
 * `count: 4`, rgb UINT32; BodyROS2Item::updateRangeVisionSensor) as well as the standard form.
 * Returns a reason string when the cloud cannot be read as little- or host-endian float xyz.
 */
export function cloudLayout(c: PointCloud2): CloudLayout | string {
  if (c.is_bigendian !== HOST_IS_BIG_ENDIAN) return 'byte order differs from this host';
  if (!(c.point_step > 0)) return `point_step ${c.point_step}`;
  if (c.data.length % c.point_step !== 0) return `data length ${c.data.length} is not a multiple of point_step ${c.point_step}`;
  const find = (name: string) => c.fields.find((f) => f.name === name);
  const offsets: number[] = [];
  for (const name of ['x', 'y', 'z']) {
    const f = find(name);
    if (!f || f.datatype !== PointFieldType.FLOAT32) return `no FLOAT32 field "${name}"`;
    if (f.offset % 4 !== 0 || f.offset + 4 > c.point_step) return `field "${name}" at offset ${f.offset}`;
    offsets.push(f.offset / 4);
  }
  const rgbField = find('rgb') ?? find('rgba');
  const rgbOk =
    rgbField !== undefined &&
    (rgbField.datatype === PointFieldType.UINT32 || rgbField.datatype === PointFieldType.FLOAT32) &&
    rgbField.offset % 4 === 0 &&
    rgbField.offset + 4 <= c.point_step;
  if (c.point_step % 4 !== 0) return `point_step ${c.point_step} is not a multiple of 4`;
  return {
    count: c.data.length / c.point_step,
    pointStep: c.point_step / 4,
    x: offsets[0]!,
    y: offsets[1]!,
    z: offsets[2]!,
    rgb: rgbOk ? rgbField.offset / 4 : null,
  };
}

/** The cloud's bytes as 32-bit words; copies once only when the bytes are not 4-byte aligned. */
function words(data: Uint8Array | ArrayLike<number>): { f32: Float32Array; u32: Uint32Array } {
  // A transport may hand over uint8[] as a plain array; typed views need bytes.
  const bytes = data instanceof Uint8Array ? data : Uint8Array.from(data);
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const n = aligned.byteLength >> 2;
  return { f32: new Float32Array(aligned.buffer, aligned.byteOffset, n), u32: new Uint32Array(aligned.buffer, aligned.byteOffset, n) };
}

export interface RangeCameraOutput {
  points: PointCloud2;
  /** 32FC1 depth along the optical axis; NaN where there is no measurement. */
  depth: Float32Array;
}

/**
 * A RangeCamera cloud as choreonoid_ros publishes it (points already in the REP-103 optical frame,
 * see ros/device-relay.ts) → a standard cloud plus the depth image. When the cloud has exactly width×height
 * points it is Choreonoid's organized cloud (row-major from the top-left pixel, invalid pixels
 * carrying infinite coordinates; GLRangeCameraSimulator::doStoreScreenImage), even if upstream
 * flattened it to one row: the output is organized again and depth is the z of each point.
 * Otherwise (is_organized: false drops invalid points) each point is projected with the camera's
 * intrinsics back to the pixel Choreonoid computed it from, the nearest one kept per pixel.
 *
 * Every valid output point lies on its pixel's centre ray through the intrinsics (CameraInfo), at the depth
 * Choreonoid measured there: x = (u − cx)·z / fx, y = (v − cy)·z / fy. Choreonoid reads the depth at the
 * pixel's centre but unprojects it through the pixel's left and lower edge (NDC 2x/w − 1, 2y/h − 1), which
 * puts its points half a pixel off the surface they were measured on (a floor seen from 0.7 m lay
 * z / (2·fy) below the floor); on the centre ray the point is on it, and the cloud, the depth image and
 * CameraInfo agree pixel for pixel. A source that already unprojects through the centres gets the same
 * points back.
 */
export function rangeCameraFromCloud(
  input: PointCloud2,
  layout: CloudLayout,
  k: Intrinsics,
  header: Header,
  withRgb: boolean,
  /**
   * Where to write: views nobody holds any more (an earlier output the transport copied, or the payload of
   * the outgoing message itself, 4-byte aligned), used when their sizes are the output's.
   */
  reuse?: { points: Uint8Array; depth: Float32Array },
): RangeCameraOutput {
  const { width: w, height: h } = k;
  const n = layout.count;
  const shape = rangeCameraShape(layout, k, withRgb);
  const organized = shape.organized;
  const rgb = shape.rgb;
  const stride = rgb ? 4 : 3;
  // Every word of both outputs is written below (points: xyz or NaN, rgb when kept; depth: every
  // pixel when organized, filled with NaN first otherwise).
  const bytes = reuse?.points.byteLength === n * stride * 4 ? reuse.points : new Uint8Array(uninitializedBuffer(n * stride * 4));
  const out = new Float32Array(bytes.buffer, bytes.byteOffset, n * stride);
  const outU32 = rgb ? new Uint32Array(bytes.buffer, bytes.byteOffset, n * stride) : undefined;
  const { f32, u32 } = words(input.data);
  const depth = reuse?.depth.length === w * h ? reuse.depth : new Float32Array(uninitializedBuffer(w * h * 4));
  const { pointStep: step, x: ox, y: oy, z: oz } = layout;
  // The centre ray of column u is (rayX[u], rayY[v], 1).
  const rayX = new Float64Array(w);
  const rayY = new Float64Array(h);
  for (let u = 0; u < w; u++) rayX[u] = (u - k.cx) / k.fx;
  for (let v = 0; v < h; v++) rayY[v] = (v - k.cy) / k.fy;
  let dense = true;
  if (organized) {
    // One pass over the pixels, row by row, colour words included; x and y are read only to tell a valid
    // point (finite) from a missing one (Choreonoid's infinite coordinates).
    const orgb = rgb ? layout.rgb! : -1;
    for (let v = 0, i = 0, s = 0, o = 0; v < h; v++) {
      const ry = rayY[v]!;
      for (let u = 0; u < w; u++, i++, s += step, o += stride) {
        const x = f32[s + ox]!;
        const y = f32[s + oy]!;
        const z = f32[s + oz]!;
        if (z > 0 && z < Infinity && x - x === 0 && y - y === 0) {
          out[o] = rayX[u]! * z;
          out[o + 1] = ry * z;
          out[o + 2] = z;
          depth[i] = z;
        } else {
          out[o] = out[o + 1] = out[o + 2] = depth[i] = NaN;
          dense = false;
        }
        if (orgb >= 0) outU32![o + 3] = u32[s + orgb]!;
      }
    }
    return { points: pointCloud(header, w, h, rgb, bytes, dense), depth };
  } else {
    depth.fill(NaN);
    // Choreonoid unprojects pixel (x, row v) through its left and lower edge (NDC 2x/w − 1 and
    // 2y/h − 1 with GL rows counted from the bottom), half a pixel off the pixel centre the
    // intrinsics describe; undoing that offset sends every point back to its own pixel.
    const cu = k.cx + 0.5;
    const cv = k.cy - 0.5;
    for (let i = 0, s = 0, o = 0; i < n; i++, s += step, o += stride) {
      const x = f32[s + ox]!;
      const y = f32[s + oy]!;
      const z = f32[s + oz]!;
      if (z > 0 && z < Infinity && x - x === 0 && y - y === 0) {
        const u = Math.round((k.fx * x) / z + cu);
        const v = Math.round((k.fy * y) / z + cv);
        if (u >= 0 && u < w && v >= 0 && v < h) {
          out[o] = rayX[u]! * z;
          out[o + 1] = rayY[v]! * z;
          const p = v * w + u;
          if (!(depth[p]! <= z)) depth[p] = z;
        } else {
          out[o] = x;
          out[o + 1] = y;
        }
        out[o + 2] = z;
      } else {
        out[o] = out[o + 1] = out[o + 2] = NaN;
        dense = false;
      }
    }
  }
  if (outU32 && layout.rgb !== null) {
    const orgb = layout.rgb;
    for (let i = 0, s = orgb, o = 3; i < n; i++, s += step, o += 4) outU32[o] = u32[s]!;
  }
  return { points: pointCloud(header, shape.width, shape.height, rgb, bytes, dense), depth };
}

/**
 * The cloud rangeCameraFromCloud makes of an input of this layout: the camera's width × height when the input
 * has a point per pixel (organized), one row of the input's points otherwise; rgb kept when asked for and there.
 */
export function rangeCameraShape(layout: CloudLayout, k: Intrinsics, withRgb: boolean): { organized: boolean; width: number; height: number; rgb: boolean } {
  const organized = layout.count === k.width * k.height;
  return { organized, width: organized ? k.width : layout.count, height: organized ? k.height : 1, rgb: withRgb && layout.rgb !== null };
}

/**
 * An xyz cloud re-expressed in another frame: p_out = R · p_in. Non-finite points are dropped
 * (choreonoid_ros already drops no-return samples of range sensors), so the result is unorganized.
 */
export function rotateCloud(input: PointCloud2, layout: CloudLayout, rotation: Mat3, header: Header): PointCloud2 {
  const { f32 } = words(input.data);
  const [[a, b, c], [d, e, f], [g, hh, ii]] = rotation;
  const out = new Float32Array(layout.count * 3);
  const { pointStep: step, x: ox, y: oy, z: oz } = layout;
  let o = 0;
  for (let i = 0, s = 0; i < layout.count; i++, s += step) {
    const x = f32[s + ox]!;
    const y = f32[s + oy]!;
    const z = f32[s + oz]!;
    if (!(x - x === 0 && y - y === 0 && z - z === 0)) continue;
    out[o++] = a * x + b * y + c * z;
    out[o++] = d * x + e * y + f * z;
    out[o++] = g * x + hh * y + ii * z;
  }
  const count = o / 3;
  const kept = count === layout.count ? out : out.slice(0, o);
  return pointCloud(header, count, 1, false, new Uint8Array(kept.buffer), true);
}
