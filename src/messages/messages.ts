// Plain TypeScript shapes of the ROS 2 messages body_bridge publishes and subscribes to, field
// for field as in the .msg definitions (checked against @foxglove/rosmsg-msgs-common in tests).
// Nothing here touches rclnodejs: the bridge logic and the devices build these plain objects and
// a Transport carries them.

export interface Time {
  sec: number;
  nanosec: number;
}

export interface Header {
  stamp: Time;
  frame_id: string;
}

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

export interface Quaternion {
  x: number;
  y: number;
  z: number;
  w: number;
}

export interface Transform {
  translation: Vector3;
  rotation: Quaternion;
}

export interface TransformStamped {
  header: Header;
  child_frame_id: string;
  transform: Transform;
}

export interface TFMessage {
  transforms: TransformStamped[];
}

export interface StringMsg {
  data: string;
}

export interface JointState {
  header: Header;
  name: string[];
  position: number[];
  velocity: number[];
  effort: number[];
}

export interface Image {
  header: Header;
  height: number;
  width: number;
  encoding: string;
  is_bigendian: number;
  step: number;
  data: Uint8Array;
}

export interface RegionOfInterest {
  x_offset: number;
  y_offset: number;
  height: number;
  width: number;
  do_rectify: boolean;
}

export interface CameraInfo {
  header: Header;
  height: number;
  width: number;
  distortion_model: string;
  d: number[];
  k: number[];
  r: number[];
  p: number[];
  binning_x: number;
  binning_y: number;
  roi: RegionOfInterest;
}

export interface PointField {
  name: string;
  offset: number;
  datatype: number;
  count: number;
}

export interface PointCloud2 {
  header: Header;
  height: number;
  width: number;
  fields: PointField[];
  is_bigendian: boolean;
  point_step: number;
  row_step: number;
  data: Uint8Array;
  is_dense: boolean;
}

export interface LaserScan {
  header: Header;
  angle_min: number;
  angle_max: number;
  angle_increment: number;
  time_increment: number;
  scan_time: number;
  range_min: number;
  range_max: number;
  ranges: Float32Array | number[];
  intensities: Float32Array | number[];
}

export interface Imu {
  header: Header;
  orientation: Quaternion;
  orientation_covariance: number[];
  angular_velocity: Vector3;
  angular_velocity_covariance: number[];
  linear_acceleration: Vector3;
  linear_acceleration_covariance: number[];
}

export interface Wrench {
  force: Vector3;
  torque: Vector3;
}

export interface WrenchStamped {
  header: Header;
  wrench: Wrench;
}

/** ROS type names as rclnodejs and ros2 topic spell them. */
export const MessageType = {
  String: 'std_msgs/msg/String',
  JointState: 'sensor_msgs/msg/JointState',
  TFMessage: 'tf2_msgs/msg/TFMessage',
  Image: 'sensor_msgs/msg/Image',
  CameraInfo: 'sensor_msgs/msg/CameraInfo',
  PointCloud2: 'sensor_msgs/msg/PointCloud2',
  LaserScan: 'sensor_msgs/msg/LaserScan',
  Imu: 'sensor_msgs/msg/Imu',
  WrenchStamped: 'geometry_msgs/msg/WrenchStamped',
} as const;

export type MessageTypeName = (typeof MessageType)[keyof typeof MessageType];
