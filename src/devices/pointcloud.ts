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

function pointCloud(
  header: Header,
  width: number,
  height: number,
  withRgb: boolean,
  data: ArrayBuffer,
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
    data: new Uint8Array(data),
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
 */
export function rangeCameraFromCloud(
  input: PointCloud2,
  layout: CloudLayout,
  k: Intrinsics,
  header: Header,
  withRgb: boolean,
  /** Buffers of an earlier output that nobody holds any more (the transport copied it): written over when the sizes match. */
  reuse?: { points: ArrayBuffer; depth: Float32Array },
): RangeCameraOutput {
  const { width: w, height: h } = k;
  const n = layout.count;
  const organized = n === w * h;
  const rgb = withRgb && layout.rgb !== null;
  const stride = rgb ? 4 : 3;
  // Every word of both outputs is written below (points: xyz or NaN, rgb when kept; depth: every
  // pixel when organized, filled with NaN first otherwise).
  const buffer = reuse?.points.byteLength === n * stride * 4 ? reuse.points : uninitializedBuffer(n * stride * 4);
  const out = new Float32Array(buffer);
  const outU32 = rgb ? new Uint32Array(buffer) : undefined;
  const { f32, u32 } = words(input.data);
  const depth = reuse?.depth.length === w * h ? reuse.depth : new Float32Array(uninitializedBuffer(w * h * 4));
  const { pointStep: step, x: ox, y: oy, z: oz } = layout;
  let dense = true;
  // Separate loops for the organized and unorganized cases and for the colour words keep the
  // per-point work free of loop-invariant branches.
  if (organized && step === 4 && ox === 0 && oy === 1 && oz === 2 && stride === 4 && layout.rgb === 3) {
    // choreonoid_ros's COLOR_DEPTH layout (x, y, z, rgb at 0, 4, 8, 12, point_step 16) is already the
    // output's: one block copy, then only the invalid points are rewritten (NaN, rgb kept) while depth
    // is filled — a third of the per-point writes of the loops below.
    out.set(f32.subarray(0, n * 4));
    for (let i = 0, s = 0; i < n; i++, s += 4) {
      const z = f32[s + 2]!;
      if (z > 0 && z < Infinity && f32[s]! - f32[s]! === 0 && f32[s + 1]! - f32[s + 1]! === 0) {
        depth[i] = z;
      } else {
        out[s] = out[s + 1] = out[s + 2] = depth[i] = NaN;
        dense = false;
      }
    }
    const points = pointCloud(header, w, h, true, buffer, dense);
    return { points, depth };
  } else if (organized && step === 3 && ox === 0 && oy === 1 && oz === 2 && stride === 3) {
    // choreonoid_ros's own layout (x, y, z at 0, 4, 8, point_step 12) into xyz: the same loop with the
    // field offsets as constants and one index for both clouds, about a fifth faster.
    for (let i = 0, s = 0; i < n; i++, s += 3) {
      const x = f32[s]!;
      const y = f32[s + 1]!;
      const z = f32[s + 2]!;
      if (z > 0 && z < Infinity && x - x === 0 && y - y === 0) {
        out[s] = x;
        out[s + 1] = y;
        out[s + 2] = z;
        depth[i] = z;
      } else {
        out[s] = out[s + 1] = out[s + 2] = depth[i] = NaN;
        dense = false;
      }
    }
  } else if (organized) {
    for (let i = 0, s = 0, o = 0; i < n; i++, s += step, o += stride) {
      const x = f32[s + ox]!;
      const y = f32[s + oy]!;
      const z = f32[s + oz]!;
      // Finite x and y with z > 0: Choreonoid marks a missing pixel with infinite coordinates.
      if (z > 0 && z < Infinity && x - x === 0 && y - y === 0) {
        out[o] = x;
        out[o + 1] = y;
        out[o + 2] = z;
        depth[i] = z;
      } else {
        out[o] = out[o + 1] = out[o + 2] = depth[i] = NaN;
        dense = false;
      }
    }
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
        out[o] = x;
        out[o + 1] = y;
        out[o + 2] = z;
        const u = Math.round((k.fx * x) / z + cu);
        const v = Math.round((k.fy * y) / z + cv);
        if (u >= 0 && u < w && v >= 0 && v < h) {
          const p = v * w + u;
          if (!(depth[p]! <= z)) depth[p] = z;
        }
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
  const points = organized ? pointCloud(header, w, h, rgb, buffer, dense) : pointCloud(header, n, 1, rgb, buffer, dense);
  return { points, depth };
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
  const buffer = count === layout.count ? out.buffer : out.slice(0, o).buffer;
  return pointCloud(header, count, 1, false, buffer, true);
}
