// sensor_msgs/Image: read with its pixels as a view on the incoming bytes, written with them copied once.
import type { Image } from '../messages/messages.js';
import { type CdrOut, byteSeq, cdrReader, fixed, header, readBytes, readHeader, readString, serialize, string, u32, u8 } from './core.js';

const TYPE = 'sensor_msgs/Image';

/** `data` views `bytes`: valid as long as they are. */
export function readImage(bytes: Uint8Array): Image {
  const r = cdrReader(bytes, TYPE);
  const head = readHeader(r, TYPE);
  const [height, width] = fixed(r, TYPE, () => [r.uint32(), r.uint32()]);
  const encoding = readString(r, `${TYPE}.encoding`);
  const [is_bigendian, step] = fixed(r, TYPE, () => [r.uint8(), r.uint32()]);
  const data = readBytes(r, `${TYPE}.data`);
  return { header: head, height: height!, width: width!, encoding, is_bigendian: is_bigendian!, step: step!, data };
}

/** `into`: a buffer to write over when the message has its size (see serialize). */
export function writeImage(m: Image, into?: Uint8Array): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    u32(o, m.height);
    u32(o, m.width);
    string(o, m.encoding);
    u8(o, m.is_bigendian);
    u32(o, m.step);
    byteSeq(o, m.data);
  }, into);
}
