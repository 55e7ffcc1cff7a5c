// Optical and scan frames against what Choreonoid renders. The "Choreonoid sees" side is built only
// from the oracle README's statements — the renderer uses device pose · R_optical and looks along −Z
// with +Y up (x right); R_optical is I (gl), diag(1,−1,−1) (cv), [[0,0,−1],[−1,0,0],[0,1,0]]
// (robotics); a RangeSensor sample at (yaw, pitch) looks along Ry(yaw)·Rx(pitch)·(0,0,−1) in that
// render frame (yaw counter-clockwise seen from above, first sample at min_yaw_angle) — and never
// from src/kinematics/device-frames.ts, whose frames are reached only through TF (framePoses).
import { describe, expect, it } from 'vitest';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { laserScan } from '../src/devices/scan.js';
import { rangeScanToPointCloud } from './support/reference-clouds.js';
import { frameTree, framePoses } from '../src/kinematics/frames.js';
import { axisAngle, composePose, diag, mulMat, mulVec, transformPoint } from '../src/model/math.js';
import { invertPose } from './support/rotations.js';
import type { Affine, Device, Mat3, Pose, RangeSensorParams, RobotModel, Vec3 } from '../src/model/types.js';
import { oracleJointPositions, type OracleEntry } from './support/oracle.js';
import { modelFromOracle, oracleEntry } from './support/oracle-devices.js';

const poseToAffine = (p: Pose): Affine => ({ linear: p.rotation, translation: p.translation });

const R_OPTICAL: Record<'gl' | 'cv' | 'robotics', Mat3> = {
  gl: diag(1, 1, 1),
  cv: diag(1, -1, -1),
  robotics: [
    [0, 0, -1],
    [-1, 0, 0],
    [0, 1, 0],
  ],
};
const MODES = ['gl', 'cv', 'robotics'] as const;

const header = { stamp: { sec: 0, nanosec: 0 }, frame_id: 'x' };

function expectVec(actual: Vec3, expected: Vec3, tol: number): void {
  for (let i = 0; i < 3; i++) expect(Math.abs(actual[i]! - expected[i]!), `${actual} vs ${expected}`).toBeLessThan(tol);
}

/** World poses of every TF frame for the oracle's `test` configuration (the root at its offset). */
function worldPoses(model: RobotModel, entry: OracleEntry): Map<string, Pose> {
  const config = entry.oracle.configurations.test!;
  const q = oracleJointPositions(model, config);
  const root = model.links[0]!.offset;
  const out = new Map<string, Pose>();
  for (const [name, p] of framePoses(frameTree(model), q)) out.set(name, composePose(root, p.root));
  return out;
}

function oracleDeviceWorld(entry: OracleEntry, device: string): Pose {
  const p = entry.oracle.configurations.test!.device_world_poses[device]!;
  return { translation: p.position, rotation: p.rotation };
}

/** A corpus model whose device `name` has its optical_frame_rotation replaced by `mode`'s. */
function withMode(entry: OracleEntry, name: string, mode: (typeof MODES)[number]): { model: RobotModel; index: number } {
  const model = modelFromOracle(entry.oracle);
  const index = model.devices.findIndex((d) => d.name === name);
  const d = model.devices[index] as Extract<Device, { type: 'Camera' | 'RangeCamera' | 'RangeSensor' }>;
  d.params = { ...d.params, optical_frame_rotation: R_OPTICAL[mode] } as typeof d.params;
  return { model, index };
}

const CAMERAS: [string, string, 'gl' | 'robotics'][] = [
  ['openhrp3/sample/model/sample1.wrl', 'VISION_SENSOR1', 'gl'],
  ['choreonoid/share/model/SR1/SR1.body', 'LeftCamera', 'gl'],
  ['choreonoid/share/model/AizuSpider/AizuSpiderSS.body', 'ARM_CAMERA', 'gl'],
  ['choreonoid/share/model/Tank/Tank.body', 'Kinect', 'robotics'],
  ['choreonoid/share/model/Tank/Tank.body', 'Theta', 'robotics'],
];

describe('optical frames', () => {
  it('the named R_optical matrices are what Choreonoid stored for the corpus cameras', () => {
    for (const [file, name, mode] of CAMERAS) {
      const d = oracleEntry(file).oracle.devices.find((x) => x.name === name)!;
      const r = d.params.optical_frame_rotation as Mat3;
      for (let i = 0; i < 3; i++) expectVec(r[i]!, R_OPTICAL[mode][i]!, 1e-12);
    }
  });

  for (const [file, name] of CAMERAS) {
    for (const mode of MODES) {
      it(`${file} ${name} with optical_frame ${mode}: ahead → +z, right → +x, above → −y`, () => {
        const entry = oracleEntry(file);
        const { model, index } = withMode(entry, name, mode);
        const frames = deviceFrames(model).find((f) => f.device === index)!;
        const poses = worldPoses(model, entry);

        // Our device frame sits where Choreonoid's loader put the device.
        const deviceWorld = poses.get(frames.frame)!;
        const oracle = oracleDeviceWorld(entry, name);
        expectVec(deviceWorld.translation, oracle.translation, 1e-9);
        for (let i = 0; i < 3; i++) expectVec(deviceWorld.rotation[i]!, oracle.rotation[i]!, 1e-9);

        // Choreonoid's render camera: device · R_optical, looking along −Z, +Y up, +X right.
        const render: Pose = { translation: oracle.translation, rotation: mulMat(oracle.rotation, R_OPTICAL[mode]) };
        const seen = (v: Vec3): Vec3 => transformPoint(poseToAffine(render), v);
        const ahead = seen([0, 0, -2]);
        const right = seen([0.3, 0, -2]);
        const above = seen([0, 0.3, -2]);

        const optical = poses.get(frames.optical!.frame)!;
        const toOptical = poseToAffine(invertPose(optical));
        expectVec(transformPoint(toOptical, ahead), [0, 0, 2], 1e-9);
        expectVec(transformPoint(toOptical, right), [0.3, 0, 2], 1e-9);
        expectVec(transformPoint(toOptical, above), [0, -0.3, 2], 1e-9);
      });
    }
  }
});

/** Choreonoid's direction of sample i, in the world. */
function choreonoidSample(p: RangeSensorParams, deviceWorld: Pose, rOptical: Mat3, i: number): Vec3 {
  const n = Math.max(1, p.num_yaw_samples);
  const yaw = p.min_yaw_angle + (i % n) * p.yaw_step;
  const pitch = p.min_pitch_angle + Math.floor(i / n) * p.pitch_step;
  const inRender = mulVec(mulMat(axisAngle([0, 1, 0], yaw), axisAngle([1, 0, 0], pitch)), [0, 0, -1]);
  return mulVec(mulMat(deviceWorld.rotation, rOptical), inRender);
}

const SCANNERS: [string, string][] = [
  ['openhrp3/sample/model/RH2/RH2_withoutArm_withObstacleSensor.wrl', 'URG_SENSOR0'],
  ['choreonoid/share/model/AizuSpider/AizuSpiderSS.body', 'LRF'],
  ['openhrp3/sample/model/simple_vehicle_with_rangesensor.wrl', 'RANGE_SENSOR1'],
];

describe('scan frames', () => {
  for (const [file, name] of SCANNERS) {
    for (const mode of MODES) {
      for (const asymmetric of [false, true]) {
        it(`${file} ${name} (${mode}${asymmetric ? ', asymmetric yaw' : ''}): LaserScan beams point where Choreonoid's samples do`, () => {
          const entry = oracleEntry(file);
          const { model, index } = withMode(entry, name, mode);
          const d = model.devices[index] as Extract<Device, { type: 'RangeSensor' }>;
          if (asymmetric) {
            // 16 samples from −0.3 to 1.2 rad: far more to the left than to the right.
            d.params = { ...d.params, min_yaw_angle: -0.3, max_yaw_angle: 1.2, yaw_range: 1.5, yaw_step: 0.1, num_yaw_samples: 16 };
          }
          const p = d.params;
          const frames = deviceFrames(model).find((f) => f.device === index)!;
          const scanWorld = worldPoses(model, entry).get(frames.scan!.frame)!;
          const scan = laserScan(p, new Float64Array(p.num_yaw_samples).fill(1), header);
          expect(scan.ranges.length).toBe(p.num_yaw_samples);
          if (asymmetric) {
            expect(scan.angle_min).toBeCloseTo(-0.3, 12);
            expect(scan.angle_max).toBeCloseTo(1.2, 12);
          }
          const deviceWorld = oracleDeviceWorld(entry, name);
          for (const i of [0, 1, Math.floor(p.num_yaw_samples / 2), p.num_yaw_samples - 1]) {
            // LaserScan: beam i at angle_min + i·angle_increment, counter-clockwise about +z from +x.
            const a = Math.fround(scan.angle_min) + i * Math.fround(scan.angle_increment);
            const ours = mulVec(scanWorld.rotation, [Math.cos(a), Math.sin(a), 0]);
            expectVec(ours, choreonoidSample(p, deviceWorld, R_OPTICAL[mode], i), 1e-5);
          }
          // The first sample is Choreonoid's right end: clockwise from straight ahead.
          const first = mulVec(scanWorld.rotation, [Math.cos(scan.angle_min), Math.sin(scan.angle_min), 0]);
          const ahead = choreonoidSample({ ...p, min_yaw_angle: 0, min_pitch_angle: 0 }, deviceWorld, R_OPTICAL[mode], 0);
          const up = mulVec(mulMat(deviceWorld.rotation, R_OPTICAL[mode]), [0, 1, 0]);
          const turn = up[0] * (ahead[1] * first[2] - ahead[2] * first[1]) + up[1] * (ahead[2] * first[0] - ahead[0] * first[2]) + up[2] * (ahead[0] * first[1] - ahead[1] * first[0]);
          expect(Math.sign(turn)).toBe(Math.sign(p.min_yaw_angle));
        });
      }
    }
  }

  for (const mode of MODES) {
    it(`Tank VLP-16 (${mode}): 3D scan points lie along Choreonoid's sample directions`, () => {
      const entry = oracleEntry('choreonoid/share/model/Tank/Tank.body');
      const { model, index } = withMode(entry, 'VLP-16', mode);
      const p = (model.devices[index] as Extract<Device, { type: 'RangeSensor' }>).params;
      expect(p.num_pitch_samples).toBe(16);
      const frames = deviceFrames(model).find((f) => f.device === index)!;
      const scanWorld = worldPoses(model, entry).get(frames.scan!.frame)!;
      const n = p.num_yaw_samples * p.num_pitch_samples;
      const cloud = rangeScanToPointCloud(p, new Float64Array(n).fill(2), header);
      const xyz = new Float32Array(cloud.data.buffer, cloud.data.byteOffset, n * 3);
      const deviceWorld = oracleDeviceWorld(entry, 'VLP-16');
      for (const i of [0, 1, p.num_yaw_samples - 1, p.num_yaw_samples, Math.floor(n / 2) + 7, n - 1]) {
        const ours = mulVec(scanWorld.rotation, [xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!]);
        const theirs = choreonoidSample(p, deviceWorld, R_OPTICAL[mode], i);
        expectVec(ours, [2 * theirs[0], 2 * theirs[1], 2 * theirs[2]], 1e-5);
      }
    });
  }
});
