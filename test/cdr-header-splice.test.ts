// The relay's header splice (src/cdr/header-splice.ts) against the independent codec: what it makes must
// decode, with @foxglove/rosmsg2-serialization, to the incoming message with only its frame_id (or stamp)
// changed, whatever the two frame ids' lengths do to the alignment of the fields after them, and a reused
// output buffer must carry nothing of the message before.
import { describe, expect, it } from 'vitest';
import { utf8 } from '../src/cdr/core.js';
import { frameIdSplicer, writeStamp } from '../src/cdr/header-splice.js';
import { readImage, writeImage } from '../src/cdr/image.js';
import { writePointCloud2 } from '../src/cdr/point-cloud2.js';
import type { Image, PointCloud2 } from '../src/messages/messages.js';
import { peerDecode, peerEncode, plain } from './support/cdr-peer.js';

const pattern = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

const image = (frame_id: string, width: number, height: number, seed = 1): Image => ({
  header: { stamp: { sec: 1_795_000_123, nanosec: 987_654_321 }, frame_id },
  height,
  width,
  encoding: 'rgb8',
  is_bigendian: 0,
  step: width * 3,
  data: pattern(width * height * 3, seed),
});

/** The image's bytes up to its last field's end, as the relay computes it from what readImage viewed. */
const endOf = (bytes: Uint8Array): number => {
  const m = readImage(bytes);
  return m.data.byteOffset - bytes.byteOffset + m.data.byteLength;
};

const splicedImage = (splice: (b: Uint8Array, end: number) => Uint8Array, bytes: Uint8Array): Uint8Array => splice(bytes, endOf(bytes));

// Frame ids of every length mod 4 on both sides (the data moves by 0, 4, 8 or 12 bytes, or back), empty ones, and a long one.
const FRAME_IDS = ['', 'a', 'ab', 'abc', 'abcd', 'CAM', 'RANGE', 'bb/CAM_optical_frame', 'x'.repeat(301)];

describe('frameIdSplicer', () => {
  it.each(FRAME_IDS)('input frame id %j: every output frame id decodes to the input with only frame_id changed', (inFrame) => {
    const input = image(inFrame, 5, 3);
    const bytes = peerEncode('sensor_msgs/msg/Image', input);
    for (const outFrame of FRAME_IDS) {
      const out = splicedImage(frameIdSplicer(utf8(outFrame)), bytes);
      const expected = { ...input, header: { ...input.header, frame_id: outFrame } };
      expect(plain(peerDecode('sensor_msgs/msg/Image', out)), `${inFrame} → ${outFrame}`).toEqual(plain(expected));
      // Byte for byte what our writer makes of the same message (itself held to the peer's bytes in cdr-codecs).
      expect(Buffer.compare(Buffer.from(out), Buffer.from(writeImage(expected))), `${inFrame} → ${outFrame}`).toBe(0);
    }
  });

  it('a reused buffer: the input frame id changes between messages, stale bytes do not survive', () => {
    const splice = frameIdSplicer(utf8('bb/CAM_optical'));
    const outputs: Uint8Array[] = [];
    ['CAM', 'CAMERA', '', 'CAM'].forEach((inFrame, i) => {
      const input = image(inFrame, 4, 2, i);
      const out = splicedImage(splice, peerEncode('sensor_msgs/msg/Image', input));
      const expected = { ...input, header: { ...input.header, frame_id: 'bb/CAM_optical' } };
      expect(plain(peerDecode('sensor_msgs/msg/Image', out)), `message ${i}`).toEqual(plain(expected));
      // The padding too: a decoder skips it, a reader of the bytes does not.
      expect(Buffer.compare(Buffer.from(out), Buffer.from(writeImage(expected))), `message ${i}`).toBe(0);
      outputs.push(out);
      // The transport is done with it: anything left in it must be written over by the next message.
      out.fill(0xee);
    });
    // Same size every time: one buffer.
    expect(new Set(outputs).size).toBe(1);
  });

  it('a size change takes a new buffer; big-endian input stays big-endian and decodes right', () => {
    const splice = frameIdSplicer(utf8('cam_optical'));
    const small = splicedImage(splice, writeImage(image('c', 2, 2)));
    const large = splicedImage(splice, writeImage(image('c', 3, 2)));
    expect(large).not.toBe(small);
    expect(readImage(large).width).toBe(3);

    // Image 1×2 mono8 "cam" written big-endian by hand.
    const parts: number[] = [0, 0, 0, 0];
    const u32 = (v: number) => parts.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
    const pad = () => {
      while ((parts.length - 4) % 4) parts.push(0);
    };
    u32(5);
    u32(6);
    u32(4);
    parts.push(...utf8('cam'), 0);
    pad();
    u32(1);
    u32(2);
    u32(6);
    parts.push(...utf8('mono8'), 0);
    parts.push(0);
    pad();
    u32(2);
    u32(2);
    parts.push(9, 8);
    const be = splicedImage(splice, Uint8Array.from(parts));
    expect(be[1]).toBe(0);
    const decoded = peerDecode<Image>('sensor_msgs/msg/Image', be);
    expect(plain(decoded)).toEqual(plain({ header: { stamp: { sec: 5, nanosec: 6 }, frame_id: 'cam_optical' }, height: 1, width: 2, encoding: 'mono8', is_bigendian: 0, step: 2, data: Uint8Array.of(9, 8) }));
  });

  it('PointCloud2 (fields, a trailing byte): the same', () => {
    const field = (name: string, offset: number) => ({ name, offset, datatype: 7, count: 1 });
    const cloud: PointCloud2 = {
      header: { stamp: { sec: 3, nanosec: 4 }, frame_id: 'ab' },
      height: 1,
      width: 3,
      fields: [field('x', 0), field('y', 4), field('z', 8)],
      is_bigendian: false,
      point_step: 12,
      row_step: 36,
      data: pattern(36, 3),
      is_dense: true,
    };
    const bytes = writePointCloud2(cloud);
    for (const outFrame of FRAME_IDS) {
      const out = frameIdSplicer(utf8(outFrame))(bytes, bytes.byteLength);
      expect(plain(peerDecode('sensor_msgs/msg/PointCloud2', out))).toEqual(plain({ ...cloud, header: { ...cloud.header, frame_id: outFrame } }));
    }
  });

  it('a message whose fields cannot end where the caller says is refused, not read past', () => {
    const bytes = writeImage(image('cam', 2, 2));
    expect(() => frameIdSplicer(utf8('x'))(bytes, bytes.byteLength + 1)).toThrow(/header splice/);
    expect(() => frameIdSplicer(utf8('x'))(bytes, 10)).toThrow(/header splice/);
  });
});

describe('writeStamp', () => {
  it('writes the stamp in the message byte order and nothing else', () => {
    const input = image('cam', 2, 1);
    const bytes = Uint8Array.from(writeImage(input));
    const before = Uint8Array.from(bytes);
    writeStamp(bytes, { sec: -7, nanosec: 999_999_999 });
    expect(plain(peerDecode('sensor_msgs/msg/Image', bytes))).toEqual(plain({ ...input, header: { ...input.header, stamp: { sec: -7, nanosec: 999_999_999 } } }));
    expect(Buffer.compare(Buffer.from(bytes.subarray(12)), Buffer.from(before.subarray(12)))).toBe(0);
    const be = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    writeStamp(be, { sec: 1, nanosec: 2 });
    expect(Array.from(be.subarray(4))).toEqual([0, 0, 0, 1, 0, 0, 0, 2]);
  });
});
