// Small hand-built RobotModels for the URDF tests: every joint type, every geometry kind, devices.
import { defaultJoint } from '../../src/model/joint.js';
import { axisAngle, identity3, mulMat } from '../../src/model/math.js';
import type { Affine, Device, Geometry, Joint, Link, Mat3, Pose, RobotModel, Shape, Vec3 } from '../../src/model/types.js';

export function joint(name: string, type: Joint['type'], extra: Partial<Joint> = {}): Joint {
  return { ...defaultJoint(name, type), ...extra };
}

export const pose = (t: Vec3, r: Mat3 = identity3()): Pose => ({ translation: t, rotation: r });
export const affine = (t: Vec3, linear: Mat3 = identity3()): Affine => ({ translation: t, linear });

export function shape(geometry: Geometry, transform: Affine = affine([0, 0, 0]), color?: Vec3): Shape {
  return { geometry, transform, material: color ? { diffuseColor: color, transparency: 0 } : null };
}

export function link(name: string, parent: string | null, j: Joint, offset: Pose, extra: Partial<Link> = {}): Link {
  return {
    name,
    parent,
    joint: j,
    offset,
    mass: 1,
    centerOfMass: [0, 0, 0],
    inertia: identity3(),
    visuals: [],
    collisions: [],
    ...extra,
  };
}

const rot = (axis: Vec3, angle: number): Mat3 => axisAngle(axis, angle);

/** A robot with every joint type, offsets with awkward rotations, shapes of every kind, and two devices. */
export function sampleRobot(): RobotModel {
  const box = shape({ kind: 'box', size: [0.3, 0.2, 0.1] }, affine([0.1, 0, 0], rot([0, 0, 1], 0.3)), [1, 0, 0]);
  const scaledCylinder = shape(
    { kind: 'cylinder', radius: 0.05, height: 0.4, top: true, bottom: true, side: true },
    affine([0, 0.1, 0], mulMat(rot([1, 0, 0], 0.5), [[2, 0, 0], [0, 3, 0], [0, 0, 2]])),
    [0, 1, 0],
  );
  const ellipsoid = shape({ kind: 'sphere', radius: 0.1 }, affine([0, 0, 0.2], [[1, 0, 0], [0, 2, 0], [0, 0, 1]]));
  const sheared = shape({ kind: 'box', size: [0.1, 0.1, 0.1] }, affine([0, 0, 0], [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]));
  const links: Link[] = [
    link('base', null, joint('base', 'free'), pose([0.5, -0.2, 1.0], rot([0, 1, 0], 0.2)), {
      visuals: [box, scaledCylinder],
      collisions: [box],
      mass: 10,
      centerOfMass: [0.01, 0.02, 0.03],
      inertia: [[0.5, 0.01, 0.02], [0.01, 0.6, 0.03], [0.02, 0.03, 0.7]],
    }),
    link('arm', 'base', joint('shoulder', 'revolute', { axis: [0, 1, 0], lower: -1, upper: 1.5, velocityLower: -2, velocityUpper: 2, effortLower: -30, effortUpper: 30, id: 0, initial: 0.3, rotorInertia: 1e-4, gearRatio: 100 }), pose([0, 0.2, 0.3], rot([1, 1, 0].map((x) => x / Math.SQRT2) as Vec3, 1.2)), {
      visuals: [ellipsoid, sheared],
      collisions: [ellipsoid],
    }),
    link('wheel', 'arm', joint('wheel_joint', 'revolute', { axis: [1, 0, 0], id: 1 }), pose([0.1, 0, 0], rot([0, 0, 1], Math.PI / 2)), {
      visuals: [shape({ kind: 'capsule', radius: 0.05, height: 0.1 }), shape({ kind: 'cone', radius: 0.05, height: 0.1, bottom: true, side: true })],
    }),
    link('slider', 'base', joint('slide', 'prismatic', { axis: [0, 0, 1], lower: 0, upper: 0.2, id: 2 }), pose([0, -0.2, 0], rot([0, 1, 0], Math.PI / 2)), {
      mass: 0,
      inertia: [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    }),
    link('free_slider', 'slider', joint('free_slide', 'prismatic', { axis: [1, 0, 0], id: 3 }), pose([0, 0, 0.1])),
    link('track', 'base', joint('track', 'pseudo_continuous_track', { axis: [0, 1, 0] }), pose([0.3, 0, -0.1])),
    link('carried', 'base', joint('carried', 'free'), pose([0, 0, 0.5], rot([0, 0, 1], -2.5))),
    link('tool', 'arm', joint('tool', 'fixed'), pose([0, 0, 0.3], rot([0, 1, 0], Math.PI / 2))),
  ];
  const vision = { frame_rate: 30, on: true, optical_frame_rotation: identity3() };
  const devices: Device[] = [
    {
      type: 'Camera',
      name: 'head_camera',
      id: 0,
      link: 'arm',
      pose: pose([0, 0.05, 0.1], rot([0, 1, 0], -Math.PI / 2)),
      params: { ...vision, width: 640, height: 480, field_of_view: 1, near_clip: 0.01, far_clip: 100, image_type: 'COLOR_IMAGE', lens_type: 'NORMAL', format: 'COLOR' },
    },
    {
      type: 'RangeSensor',
      name: 'lidar',
      id: 0,
      link: 'base',
      pose: pose([0.2, 0, 0.3], rot([1, 0, 0], Math.PI / 2)),
      params: {
        ...vision,
        yaw_range: 3, min_yaw_angle: -1.5, max_yaw_angle: 1.5, yaw_step: 0.01, num_yaw_samples: 301,
        pitch_range: 0, min_pitch_angle: 0, max_pitch_angle: 0, pitch_step: 0, num_pitch_samples: 1,
        min_distance: 0.1, max_distance: 30, scan_rate: 30, detection_rate: 1, error_deviation: 0,
      },
    },
    { type: 'ForceSensor', name: 'wrist', id: 0, link: 'tool', pose: pose([0, 0, 0.05]), params: { max_force: [1, 1, 1], max_torque: [1, 1, 1] } },
  ];
  return {
    name: 'sample',
    sourceFile: '/nonexistent/sample.body',
    format: 'body',
    root: 'base',
    links,
    devices,
    extraJoints: [
      { type: 'ball', link1: 'arm', link2: 'slider', axis: [0, 0, 1], localPose1: pose([0, 0, 0.1]), localPose2: pose([0, 0, -0.1]) },
    ],
    warnings: [],
  };
}
