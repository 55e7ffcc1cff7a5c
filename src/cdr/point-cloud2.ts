// sensor_msgs/PointCloud2: read with its points as a view on the incoming bytes, written with them copied once.
import type { PointCloud2, PointField } from '../messages/messages.js';
import { type CdrOut, byteSeq, cdrReader, fixed, header, readBytes, readCount, readHeader, readString, serialize, string, u32, u8 } from './core.js';

const TYPE = 'sensor_msgs/PointCloud2';

/** `data` views `bytes`: valid as long as they are. */
export function readPointCloud2(bytes: Uint8Array): PointCloud2 {
  const r = cdrReader(bytes, TYPE);
  const head = readHeader(r, TYPE);
  const [height, width] = fixed(r, TYPE, () => [r.uint32(), r.uint32()]);
  // A field is at least a string length, offset, datatype and count: 13 bytes.
  const n = readCount(r, 13, `${TYPE}.fields`, 4);
  const fields: PointField[] = [];
  for (let i = 0; i < n; i++) {
    const name = readString(r, `${TYPE}.fields[${i}].name`);
    const [offset, datatype, count] = fixed(r, `${TYPE}.fields[${i}]`, () => [r.uint32(), r.uint8(), r.uint32()]);
    fields.push({ name, offset: offset!, datatype: datatype!, count: count! });
  }
  const [isBig, pointStep, rowStep] = fixed(r, TYPE, () => [r.uint8(), r.uint32(), r.uint32()]);
  const data = readBytes(r, `${TYPE}.data`);
  const isDense = fixed(r, TYPE, () => r.uint8());
  return {
    header: head,
    height: height!,
    width: width!,
    fields,
    is_bigendian: isBig !== 0,
    point_step: pointStep!,
    row_step: rowStep!,
    data,
    is_dense: isDense !== 0,
  };
}

/** `into`: a buffer to write over when the message has its size (see serialize). */
export function writePointCloud2(m: PointCloud2, into?: Uint8Array): Uint8Array {
  return serialize((o: CdrOut) => {
    header(o, m.header);
    u32(o, m.height);
    u32(o, m.width);
    u32(o, m.fields.length);
    for (const f of m.fields) {
      string(o, f.name);
      u32(o, f.offset);
      u8(o, f.datatype);
      u32(o, f.count);
    }
    u8(o, m.is_bigendian ? 1 : 0);
    u32(o, m.point_step);
    u32(o, m.row_step);
    byteSeq(o, m.data);
    u8(o, m.is_dense ? 1 : 0);
  }, into);
}
