// The strict message checker must accept messages written by hand from the .msg definitions and
// reject each kind of defect; otherwise passing it would prove nothing.
import { describe, expect, it } from 'vitest';
import { checkMessage } from './support/msgcheck.js';

const header = { stamp: { sec: 1, nanosec: 5 }, frame_id: 'cam_optical_frame' };

const goodCameraInfo = () => ({
  header,
  height: 2,
  width: 3,
  distortion_model: 'plumb_bob',
  d: [0, 0, 0, 0, 0],
  k: [10, 0, 1, 0, 10, 0.5, 0, 0, 1],
  r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  p: [10, 0, 1, 0, 0, 10, 0.5, 0, 0, 0, 1, 0],
  binning_x: 0,
  binning_y: 0,
  roi: { x_offset: 0, y_offset: 0, height: 0, width: 0, do_rectify: false },
});

const goodCloud = () => ({
  header,
  height: 1,
  width: 2,
  fields: [
    { name: 'x', offset: 0, datatype: 7, count: 1 },
    { name: 'y', offset: 4, datatype: 7, count: 1 },
    { name: 'z', offset: 8, datatype: 7, count: 1 },
  ],
  is_bigendian: false,
  point_step: 12,
  row_step: 24,
  data: new Uint8Array(24),
  is_dense: true,
});

const goodImage = () => ({ header, height: 2, width: 3, encoding: 'rgb8', is_bigendian: 0, step: 9, data: new Uint8Array(18) });

const goodScan = () => ({
  header,
  angle_min: -0.5,
  angle_max: 0.5,
  angle_increment: 0.25,
  time_increment: 0,
  scan_time: 0.1,
  range_min: 0.1,
  range_max: 10,
  ranges: new Float32Array(5),
  intensities: [],
});

describe('checkMessage', () => {
  it('accepts hand-written valid messages of every type the node publishes', () => {
    expect(checkMessage('sensor_msgs/msg/CameraInfo', goodCameraInfo())).toEqual([]);
    expect(checkMessage('sensor_msgs/msg/PointCloud2', goodCloud())).toEqual([]);
    expect(checkMessage('sensor_msgs/msg/Image', goodImage())).toEqual([]);
    expect(checkMessage('sensor_msgs/msg/LaserScan', goodScan())).toEqual([]);
    expect(checkMessage('std_msgs/msg/String', { data: '<robot/>' })).toEqual([]);
    expect(
      checkMessage('sensor_msgs/msg/Imu', {
        header,
        orientation: { x: 0, y: 0, z: 0, w: 1 },
        orientation_covariance: [-1, 0, 0, 0, 0, 0, 0, 0, 0],
        angular_velocity: { x: 0, y: 0, z: 1 },
        angular_velocity_covariance: new Array(9).fill(0),
        linear_acceleration: { x: 0, y: 0, z: 9.8 },
        linear_acceleration_covariance: new Array(9).fill(0),
      }),
    ).toEqual([]);
    expect(
      checkMessage('geometry_msgs/msg/WrenchStamped', { header, wrench: { force: { x: 1, y: 2, z: 3 }, torque: { x: 0, y: 0, z: 0 } } }),
    ).toEqual([]);
    expect(
      checkMessage('tf2_msgs/msg/TFMessage', {
        transforms: [
          { header, child_frame_id: 'b', transform: { translation: { x: 0, y: 0, z: 1 }, rotation: { x: 0, y: 0, z: 0, w: 1 } } },
        ],
      }),
    ).toEqual([]);
    expect(
      checkMessage('sensor_msgs/msg/JointState', { header: { ...header, frame_id: '' }, name: ['j'], position: [0], velocity: [], effort: [] }),
    ).toEqual([]);
  });

  it('rejects missing, unknown and mistyped fields', () => {
    const { roi: _roi, ...noRoi } = goodCameraInfo();
    expect(checkMessage('sensor_msgs/msg/CameraInfo', noRoi)).toEqual([expect.stringContaining('roi: missing')]);
    expect(checkMessage('sensor_msgs/msg/CameraInfo', { ...goodCameraInfo(), D: [0, 0, 0, 0, 0] })).toEqual([
      expect.stringContaining('D: not a field'),
    ]);
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), height: -2 })[0]).toContain('expected uint32');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), width: 3.5 })[0]).toContain('expected uint32');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), is_bigendian: false })[0]).toContain('expected uint8');
    expect(checkMessage('sensor_msgs/msg/PointCloud2', { ...goodCloud(), is_bigendian: 0 })[0]).toContain('expected bool');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), header: { stamp: { sec: 1, nanosec: 2e9 }, frame_id: 'c' } })[0]).toContain('nanosec');
    expect(checkMessage('std_msgs/msg/String', { data: 3 })[0]).toContain('expected string');
    expect(checkMessage('sensor_msgs/msg/Nope', {})[0]).toContain('no such message type');
  });

  it('rejects fixed-size arrays of the wrong length and typed arrays of the wrong element type', () => {
    expect(checkMessage('sensor_msgs/msg/CameraInfo', { ...goodCameraInfo(), k: [1, 0, 0, 0, 1, 0, 0, 0] })[0]).toContain('exactly 9');
    expect(checkMessage('sensor_msgs/msg/CameraInfo', { ...goodCameraInfo(), p: new Array(9).fill(0) })[0]).toContain('exactly 12');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), data: new Float32Array(18) })[0]).toContain('cannot carry uint8');
    expect(checkMessage('sensor_msgs/msg/LaserScan', { ...goodScan(), ranges: new Float64Array(5) })[0]).toContain('cannot carry float32');
  });

  it('rejects inconsistent image, cloud, camera info and scan geometry', () => {
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), data: new Uint8Array(17) })[0]).toContain('step × height');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), step: 8, data: new Uint8Array(16) })[0]).toContain('step 8 < width');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), encoding: 'weird' })[0]).toContain('unknown');
    expect(checkMessage('sensor_msgs/msg/PointCloud2', { ...goodCloud(), row_step: 12 })[0]).toContain('row_step');
    expect(checkMessage('sensor_msgs/msg/PointCloud2', { ...goodCloud(), data: new Uint8Array(12) })[0]).toContain('data length');
    const fourFloats = goodCloud();
    fourFloats.fields[2]!.count = 4; // choreonoid_ros's x/y/z fields claim 4 floats each
    expect(checkMessage('sensor_msgs/msg/PointCloud2', fourFloats)[0]).toContain('exceeds point_step');
    expect(checkMessage('sensor_msgs/msg/CameraInfo', { ...goodCameraInfo(), d: [0, 0, 0, 0] })[0]).toContain('needs 5');
    expect(checkMessage('sensor_msgs/msg/LaserScan', { ...goodScan(), angle_max: 0.75 })[0]).toContain('angle_max');
    expect(checkMessage('sensor_msgs/msg/LaserScan', { ...goodScan(), intensities: [1, 2] })[0]).toContain('intensities');
    expect(checkMessage('sensor_msgs/msg/Image', { ...goodImage(), header: { ...header, frame_id: '' } })[0]).toContain('frame_id');
  });
});
