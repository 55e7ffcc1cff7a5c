// The device layer on models from our own .wrl loader: the same topics, frames and CameraInfo as on
// the models built from Choreonoid's dump, so the loader's device parameters mean what the device
// layer assumes (lens and image types, yaw conventions, units).
import { describe, expect, it } from 'vitest';
import { cameraInfo } from '../src/devices/camera-info.js';
import { deviceFrames } from '../src/devices/frames.js';
import { deviceTopics } from '../src/devices/topics.js';
import { loadVrmlModel } from '../src/vrml/index.js';
import { modelFromOracle, oracleEntriesWithDevices } from './support/oracle-devices.js';

const header = { stamp: { sec: 0, nanosec: 0 }, frame_id: 'f' };

describe('devices of loaded .wrl models', () => {
  const entries = oracleEntriesWithDevices().filter((e) => e.file.endsWith('.wrl'));

  it('covers the OpenHRP sensor models', () => {
    expect(entries.length).toBeGreaterThan(10);
  });

  for (const e of entries) {
    it(e.file, () => {
      const ours = loadVrmlModel(e.modelPath, { shapes: false });
      const theirs = modelFromOracle(e.oracle);
      expect(deviceTopics(ours, deviceFrames(ours))).toEqual(deviceTopics(theirs, deviceFrames(theirs)));
      ours.devices.forEach((d, i) => {
        const o = theirs.devices[i]!;
        if ((d.type === 'Camera' || d.type === 'RangeCamera') && (o.type === 'Camera' || o.type === 'RangeCamera')) {
          const a = cameraInfo(d.params, header);
          const b = cameraInfo(o.params, header);
          a.k.forEach((v, j) => expect(v).toBeCloseTo(b.k[j]!, 9));
        }
      });
    });
  }
});
