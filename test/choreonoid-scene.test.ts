// The check scene of test/ros-live-choreonoid.test.ts (test/live/choreonoid/) says one thing everywhere: the
// project file places every body where scene.ts (the ground truth the live test measures against) says, with
// the initial pose too (a body simulated from its initial pose is elsewhere otherwise: ../shared/peers.md,
// trap 1); the object boxes have scene.ts's sizes; the robot has the devices, frames and masses the live test
// relies on; and the motion the project plays holds each pose of scene.ts. Runs without Choreonoid.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadRobotModel } from '../src/load.js';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { renderedImageSize } from '../src/devices/camera-info.js';
import { boxSignedDistance, castRay, nearestSurface, TfBuffer } from './live/choreonoid/geometry.js';
import { BOXES, commandedPose, MASS, MOTION_FILE, motionSeq, POSES, PROJECT, RAMP, ROBOT_BODY, ROBOT_NAME, ROBOT_ROOT, SCENE_DIR, TIME_STEP } from './live/choreonoid/scene.js';

interface ProjectItem {
  name: string;
  class: string;
  plugin?: string;
  data?: Record<string, unknown>;
  children?: ProjectItem[];
}

const project = parse(readFileSync(join(SCENE_DIR, PROJECT), 'utf8')) as { items: ProjectItem };
const allItems = (item: ProjectItem): ProjectItem[] => [item, ...(item.children ?? []).flatMap(allItems)];
const items = allItems(project.items);
const bodyItem = (name: string): ProjectItem => {
  const found = items.find((i) => i.class === 'BodyItem' && i.name === name);
  if (!found) throw new Error(`${PROJECT} has no BodyItem ${name}`);
  return found;
};

type Mat3Like = readonly (readonly number[])[];

describe('the Choreonoid check scene (test/live/choreonoid)', () => {
  it('places every body where scene.ts says, initial pose included, fixed to the world', () => {
    for (const placed of [{ name: ROBOT_NAME, file: ROBOT_BODY, ...ROBOT_ROOT }, ...BOXES]) {
      const data = bodyItem(placed.name).data!;
      expect(data.file, placed.name).toBe(placed.file);
      for (const key of ['root_translation', 'initial_root_translation']) expect(data[key], `${placed.name} ${key}`).toEqual(placed.translation);
      for (const key of ['root_rotation', 'initial_root_rotation']) expect(data[key], `${placed.name} ${key}`).toEqual([0, 0, 1, placed.yawDeg]);
      expect(data.fix_root, placed.name).toBe(true);
    }
  });

  it('each object is one box of scene.ts size centred on its body origin', () => {
    for (const box of BOXES) {
      const model = loadRobotModel(join(SCENE_DIR, box.file));
      expect(model.links).toHaveLength(1);
      const shapes = model.links[0]!.visuals;
      expect(shapes).toHaveLength(1);
      const shape = shapes[0]!;
      expect(shape.geometry).toEqual({ kind: 'box', size: box.size });
      expect(shape.transform).toEqual({ linear: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] });
    }
  });

  it('runs the AIST simulator at 1 ms with GLVisionSimulator, BodyROS2Item under the robot and WorldROS2Item', () => {
    const simulator = items.find((i) => i.class === 'AISTSimulatorItem')!;
    expect(simulator.data!.time_step).toBe(TIME_STEP);
    const vision = simulator.children!.find((c) => c.class === 'GLVisionSimulatorItem')!;
    // MSAA off: with it (Choreonoid's default, 4x) a range camera's depth is one sample's of its pixel, not the
    // pixel centre's (docs/devices.md), and the live test holds depth to the pixel-centre rays exactly.
    expect(vision.data!.msaa_level).toBe(0);
    const robot = bodyItem(ROBOT_NAME);
    expect(robot.children!.map((c) => c.class)).toEqual(expect.arrayContaining(['BodyROS2Item', 'BodyMotionControllerItem']));
    const motion = allItems(robot).find((i) => i.class === 'BodyMotionItem')!;
    expect(motion.data!.file).toBe(MOTION_FILE);
    expect(items.filter((i) => i.class === 'WorldROS2Item')).toHaveLength(1);
  });

  it('the robot carries every kind of device the live test checks, each optical_frame kind and an optical_frame_rotation', () => {
    const model = loadRobotModel(join(SCENE_DIR, ROBOT_BODY));
    expect(model.name).toBe(ROBOT_NAME);
    expect(Object.fromEntries(model.links.map((l) => [l.name, l.mass]))).toEqual(MASS);
    const kinds = model.devices.map((d) =>
      d.type === 'Camera' || d.type === 'RangeCamera' ? `${d.type}:${d.params.format}:${d.params.lens_type}` : d.type === 'RangeSensor' ? `RangeSensor:${d.params.pitch_range > 0 ? '3D' : 'planar'}` : d.type,
    );
    expect(kinds.sort()).toEqual(
      [
        'AccelerationSensor',
        'Camera:COLOR:DUAL_FISHEYE_LENS',
        'Camera:COLOR:FISHEYE_LENS',
        'Camera:COLOR:NORMAL_LENS',
        'ForceSensor',
        'ForceSensor',
        'Imu',
        'RangeCamera:COLOR_DEPTH:NORMAL_LENS',
        'RangeCamera:COLOR_POINT_CLOUD:NORMAL_LENS',
        'RangeSensor:3D',
        'RangeSensor:planar',
        'RateGyroSensor',
      ].sort(),
    );
    // Every lens and the 3D scanner's yaw 0 look along the head's +x; the planar scan plane is horizontal.
    const frames = deviceFrames(model);
    for (const f of frames) {
      const d = model.devices[f.device]!;
      if (f.optical && d.name !== 'PointCloudCamera' && d.name !== 'Theta') {
        const r = f.pose.rotation;
        const o = f.optical.rotation;
        // The optical z axis in the link frame: device rotation · optical rotation · e_z.
        const z = [0, 1, 2].map((i) => r[i]![0]! * o[0]![2]! + r[i]![1]! * o[1]![2]! + r[i]![2]! * o[2]![2]!);
        expect(z.map((v) => Math.round(v * 1e9) / 1e9 + 0), d.name).toEqual([1, 0, 0]);
      }
    }
    const fisheye = model.devices.find((d) => d.name === 'Fisheye')!;
    const theta = model.devices.find((d) => d.name === 'Theta')!;
    if (fisheye.type !== 'Camera' || theta.type !== 'Camera') throw new Error('fisheyes are Cameras');
    expect(renderedImageSize(fisheye.params)).toEqual({ width: 256, height: 256 });
    expect(renderedImageSize(theta.params)).toEqual({ width: 256, height: 128 });
  });

  it('the motion holds every pose of scene.ts from its start to its end, at the simulator rate', () => {
    const text = motionSeq();
    // The header through the yaml package; the 11 000 frame lines by hand (yaml takes seconds over them).
    const head = text.slice(0, text.indexOf('      - ['));
    const seq = parse(`${head}      []\n`) as { frameRate: number; numFrames: number; components: { numParts: number; content: string }[] };
    expect(seq.frameRate).toBe(1 / TIME_STEP);
    expect(seq.components[0]).toMatchObject({ numParts: 2, content: 'JointDisplacement' });
    const frames = [...text.matchAll(/^ {6}- \[ (\S+), (\S+) \]$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(frames).toHaveLength(seq.numFrames);
    for (const pose of POSES) {
      for (const t of [pose.from, (pose.from + pose.to) / 2, pose.to - TIME_STEP]) {
        const q = frames[Math.round(t / TIME_STEP)]!;
        expect(q[0]).toBeCloseTo(pose.PAN, 8);
        expect(q[1]).toBeCloseTo(pose.TILT, 8);
      }
    }
    // Smooth and monotone between poses: no step larger than the ramp's peak speed allows.
    let largest = 0;
    for (let i = 1; i < frames.length; i++) {
      for (const j of [0, 1]) largest = Math.max(largest, Math.abs(frames[i]![j]! - frames[i - 1]![j]!));
    }
    const widest = Math.max(...POSES.slice(1).map((p, i) => Math.max(Math.abs(p.PAN - POSES[i]!.PAN), Math.abs(p.TILT - POSES[i]!.TILT))));
    // A smoothstep's peak speed is 1.5 × distance / duration.
    expect(largest).toBeLessThan((1.5 * widest * TIME_STEP) / RAMP + 1e-9);
    expect(commandedPose(1e6)).toEqual({ PAN: POSES.at(-1)!.PAN, TILT: POSES.at(-1)!.TILT });
  });

  it("the live test's geometry: distances to the boxes, rays cast at them, a tf2-like buffer that starts a new epoch when time jumps back", () => {
    const wall = BOXES.find((b) => b.name === 'Wall')!;
    const box = BOXES.find((b) => b.name === 'Box')!;
    // The wall's front face is at x = 3.2; the floor's top at z = 0.
    expect(boxSignedDistance(wall, [3.1, 0, 1])).toBeCloseTo(0.1, 12);
    expect(boxSignedDistance(wall, [3.3, 0, 1])).toBeCloseTo(-0.1, 12);
    expect(nearestSurface([1, -1, 0.003])).toEqual({ distance: expect.closeTo(0.003, 12), box: 'Floor' });
    // The box is yawed 30°: its +x face lies 0.25 m from its centre along (cos 30°, sin 30°).
    const a = Math.PI / 6;
    expect(boxSignedDistance(box, [box.translation[0] + 0.3 * Math.cos(a), box.translation[1] + 0.3 * Math.sin(a), 0.25])).toBeCloseTo(0.05, 12);
    expect(castRay([0, 0, 0.2], [1, 0, 0])).toEqual({ distance: expect.closeTo(3.2, 12), box: 'Wall' });
    expect(castRay([0, 0, 1], [0, 0, -1])).toEqual({ distance: expect.closeTo(1, 12), box: 'Floor' });
    expect(castRay([0, 0, 0.2], [-1, 0, 0]).distance).toBe(Infinity);
    const towardBox = [box.translation[0], box.translation[1], 0.2 - 0.2];
    const n = Math.hypot(towardBox[0]!, towardBox[1]!);
    expect(castRay([0, 0, 0.2], [towardBox[0]! / n, towardBox[1]! / n, 0]).box).toBe('Box');

    const tf = new TfBuffer();
    const msg = (t: number, z: number) => ({
      transforms: [{ header: { stamp: { sec: Math.floor(t), nanosec: Math.round((t % 1) * 1e9) }, frame_id: 'base' }, child_frame_id: 'head', transform: { translation: { x: 0, y: 0, z }, rotation: { x: 0, y: 0, z: 0, w: 1 } } }],
    });
    tf.add({ transforms: [{ ...msg(0, 0).transforms[0]!, header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'head' }, child_frame_id: 'camera', transform: { translation: { x: 1, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } } }] }, true);
    tf.add(msg(10, 0.5), false);
    tf.add(msg(10.05, 0.6), false);
    expect(tf.poseIn('base', 'camera', 10.04)!.translation).toEqual([1, 0, expect.closeTo(0.58, 12)]);
    expect(tf.poseIn('base', 'camera', 10.1)!.translation[2]).toBeCloseTo(0.6, 12);
    expect(tf.poseIn('base', 'camera', 12)).toBeNull();
    tf.add(msg(0.01, 0.7), false);
    expect(tf.jumps).toEqual([expect.closeTo(0.01, 9)]);
    expect(tf.poseIn('base', 'camera', 0.02)!.translation[2]).toBeCloseTo(0.7, 12);
    expect(tf.poseIn('base', 'camera', 10.04, 0)!.translation[2]).toBeCloseTo(0.58, 12);
    expect(tf.poseIn('base', 'camera', 10.04, 1)).toBeNull();
    expect(tf.poseIn('base', 'camera', 0.02)!.rotation[1]![0]).toBeCloseTo(1, 12);
    // Rotations are interpolated by slerp: halfway between 0 and 90° about z is 45°.
    const turn = new TfBuffer();
    const yawMsg = (t: number, deg: number) => ({
      transforms: [{ header: { stamp: { sec: Math.floor(t), nanosec: Math.round((t % 1) * 1e9) }, frame_id: 'base' }, child_frame_id: 'head', transform: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: Math.sin((deg * Math.PI) / 360), w: Math.cos((deg * Math.PI) / 360) } } }],
    });
    turn.add(yawMsg(1, 0), false);
    turn.add(yawMsg(2, 90), false);
    const half = turn.poseIn('base', 'head', 1.5)!.rotation;
    expect(Math.atan2(half[1]![0]!, half[0]![0]!)).toBeCloseTo(Math.PI / 4, 12);
    // Within a hold, the sample nearest t inside it, never an interpolation across a gap: the head turns from 0°
    // and holds 90° from 2 s to 5 s; the messages from 1.5 s to 2.4 s were lost. At 2.2 s interpolating between
    // the samples at 1.5 s and 2.4 s gives 70°, a pose the head never had there; the hold's sample is exact.
    const gap = new TfBuffer();
    for (const [t, deg] of [[1.5, 0], [2.4, 90], [5, 90]] as const) gap.add(yawMsg(t, deg), false);
    const yawAt = (r: Mat3Like): number => (Math.atan2(r[1]![0]!, r[0]![0]!) * 180) / Math.PI;
    expect(yawAt(gap.poseIn('base', 'head', 2.2)!.rotation)).toBeCloseTo(70, 9);
    expect(yawAt(gap.poseIn('base', 'head', 2.2, gap.epoch, 0.1, [2, 5])!.rotation)).toBeCloseTo(90, 12);
    expect(gap.poseIn('base', 'head', 3, gap.epoch, 0.1, [3, 4.5])).toBeNull();
  });
});
