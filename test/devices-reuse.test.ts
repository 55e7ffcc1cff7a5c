// Buffer reuse in the RangeCamera relay: the converted cloud and depth are copied into each outgoing
// message, and both transports copy those bytes on publish (rclnodejs hands them to rcl, the memory
// transport keeps a copy), so reuse is never visible in what was published. The relayed content itself is
// checked against Choreonoid in ros-device-relay.test.ts.
import { describe, expect, it } from 'vitest';
import { defaultRelayParams, startDeviceRelay } from '../src/ros/device-relay.js';
import { cameraIntrinsics } from '../src/devices/camera-info.js';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { cloudLayout, rangeCameraFromCloud } from '../src/devices/pointcloud.js';
import type { Device, RobotModel } from '../src/model/types.js';
import type { Image, PointCloud2 } from '../src/messages/messages.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { peerCodec } from './support/cdr-peer.js';
import { modelFromOracle, oracleEntry } from './support/oracle-devices.js';

const FILE = 'choreonoid/share/model/Tank/Tank.body';
const NAME = 'Kinect';

/** An organized cloud as choreonoid_ros lays it out (x/y/z FLOAT32, count 4), depth varying with `seed`; every 13th pixel invalid. */
function upstreamCloud(width: number, height: number, seed: number): PointCloud2 {
  const xyz = new Float32Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const z = 1 + seed + (i % 7) * 0.01;
    if (i % 13 === seed % 13) xyz[3 * i] = xyz[3 * i + 1] = xyz[3 * i + 2] = Infinity;
    else [xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]] = [((i % width) - width / 2) * 0.001 * z, (Math.floor(i / width) - height / 2) * 0.001 * z, z];
  }
  const field = (name: string, offset: number) => ({ name, offset, datatype: 7, count: 4 });
  return {
    header: { stamp: { sec: 10 + seed, nanosec: 0 }, frame_id: NAME },
    height,
    width,
    fields: [field('x', 0), field('y', 4), field('z', 8)],
    is_bigendian: false,
    point_step: 12,
    row_step: 12 * width,
    data: new Uint8Array(xyz.buffer),
    is_dense: false,
  };
}

function kinect(): { model: RobotModel; device: Extract<Device, { type: 'RangeCamera' }> } {
  const model = modelFromOracle(oracleEntry(FILE).oracle);
  const device = model.devices.find((d) => d.name === NAME) as Extract<Device, { type: 'RangeCamera' }>;
  // No colour: the relay then publishes points, depth image and depth CameraInfo only.
  device.params = { ...device.params, image_type: 'NO_IMAGE' };
  return { model, device };
}

/** Byte-for-byte equality of two views (a compact failure message instead of million-element arrays). */
const sameBytes = (a: ArrayBufferView, b: ArrayBufferView): boolean =>
  Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

describe('RangeCamera relay buffer reuse', () => {
  it('rangeCameraFromCloud writes over the buffers it is given, with the same result as fresh ones', () => {
    const { device } = kinect();
    const k = cameraIntrinsics(device.params)!;
    const first = upstreamCloud(k.width, k.height, 1);
    const second = upstreamCloud(k.width, k.height, 2);
    const header = { stamp: { sec: 1, nanosec: 0 }, frame_id: 'f' };
    const a = rangeCameraFromCloud(first, cloudLayout(first) as never, k, header, false);
    const fresh = rangeCameraFromCloud(second, cloudLayout(second) as never, k, header, false);
    const reused = rangeCameraFromCloud(second, cloudLayout(second) as never, k, header, false, { points: a.points.data, depth: a.depth });
    expect(reused.points.data.buffer).toBe(a.points.data.buffer);
    expect(reused.depth).toBe(a.depth);
    expect(sameBytes(reused.points.data, fresh.points.data)).toBe(true);
    expect(sameBytes(reused.depth, fresh.depth)).toBe(true);
    expect(reused.points.is_dense).toBe(fresh.points.is_dense);
    // A buffer of the wrong size is not used.
    const other = rangeCameraFromCloud(second, cloudLayout(second) as never, k, header, false, { points: new Uint8Array(12), depth: new Float32Array(1) });
    expect(other.points.data.buffer).not.toBe(a.points.data.buffer);
    expect(sameBytes(other.points.data, fresh.points.data)).toBe(true);
  });

  it('published messages stay as published across frames', () => {
    const { model, device } = kinect();
    const k = cameraIntrinsics(device.params)!;
    const t = createMemoryTransport({ codec: peerCodec });
    const stop = startDeviceRelay({ model, frames: deviceFrames(model), transport: t, framePrefix: '', params: defaultRelayParams });
    const clouds = [1, 2, 3].map((seed) => upstreamCloud(k.width, k.height, seed));
    for (const c of clouds) expect(t.inject(`/${model.name}/${NAME}/point_cloud`, c)).toBe(1);
    stop();
    const points = t.messages<PointCloud2>(`${NAME}/points`);
    const depth = t.messages<Image>(`${NAME}/depth/image_raw`);
    expect(points).toHaveLength(3);
    expect(depth).toHaveLength(3);
    const header = { stamp: { sec: 0, nanosec: 0 }, frame_id: '' };
    clouds.forEach((c, i) => {
      const expected = rangeCameraFromCloud(c, cloudLayout(c) as never, k, header, false);
      expect(sameBytes(points[i]!.data, expected.points.data), `points of frame ${i}`).toBe(true);
      expect(sameBytes(depth[i]!.data, expected.depth), `depth of frame ${i}`).toBe(true);
      expect(points[i]!.header.stamp).toEqual(c.header.stamp);
    });
  });
});
