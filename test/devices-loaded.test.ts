// The device layer on models from our own loaders: the same topics, frames and CameraInfo as on
// the models built from Choreonoid's dump, so the loader's device parameters mean what the device
// layer assumes (lens and image types, yaw conventions, units).
import { describe, expect, it } from 'vitest';
import { cameraInfo } from '../src/devices/camera-info.js';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { deviceTopics } from '../src/devices/topics.js';
import { loadRobotModel } from '../src/load.js';
import { corpusDir } from './support/oracle.js';
import { modelFromOracle, oracleEntriesWithDevices } from './support/oracle-devices.js';

const header = { stamp: { sec: 0, nanosec: 0 }, frame_id: 'f' };

describe('devices of loaded models', () => {
  // Every OpenHRP model with devices, and .body models that together hold every sensor type (the
  // whole .body corpus is the loader's own oracle test; loading it all again here would be slow).
  const BODY = [
    'choreonoid/share/model/Tank/Tank.body',
    'choreonoid/share/model/SR1/SR1.body',
    'choreonoid/share/model/SR1/SR1-2D.body',
    'choreonoid/share/model/misc/FourWheelCar.body',
  ];
  const entries = oracleEntriesWithDevices().filter((e) => e.file.endsWith('.wrl') || BODY.includes(e.file));

  it('covers the corpus sensor models of both formats', () => {
    expect(entries.filter((e) => e.file.endsWith('.wrl')).length).toBeGreaterThan(10);
    expect(entries.filter((e) => !e.file.endsWith('.wrl')).length).toBe(BODY.length);
  });

  for (const e of entries) {
    it(e.file, () => {
      // Shapes off, as the oracle did for files that need plugins; devices do not depend on shapes.
      const ours = loadRobotModel(e.modelPath, { shapes: false, packagePath: [corpusDir] });
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
