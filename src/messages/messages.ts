// Plain TypeScript shapes of the ROS 2 messages body_bridge publishes and subscribes to, field
// for field as in the .msg definitions (checked in tests against @foxglove/rosmsg-msgs-common and, for
// moveit_msgs and its dependencies, which that package lacks, against the definitions the sourced ROS 2
// installed: test/support/msgcheck.ts).
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

/** geometry_msgs/Point. */
export interface Point {
  x: number;
  y: number;
  z: number;
}

/** geometry_msgs/Pose (not the model's Pose: a position and a quaternion). */
export interface Pose {
  position: Point;
  orientation: Quaternion;
}

export interface PoseStamped {
  header: Header;
  pose: Pose;
}

export interface PoseWithCovariance {
  pose: Pose;
  /** 36 values, row-major 6×6 (x, y, z, rotation about x, y, z). */
  covariance: number[] | Float64Array;
}

export interface Twist {
  linear: Vector3;
  angular: Vector3;
}

export interface TwistWithCovariance {
  twist: Twist;
  covariance: number[] | Float64Array;
}

/** nav_msgs/Odometry: the pose of child_frame_id in header.frame_id (diff_drive_controller: odom → base). */
export interface Odometry {
  header: Header;
  child_frame_id: string;
  pose: PoseWithCovariance;
  twist: TwistWithCovariance;
}

export interface Point32 {
  x: number;
  y: number;
  z: number;
}

export interface Polygon {
  points: Point32[];
}

/** shape_msgs/SolidPrimitive: centred on its frame; CYLINDER and CONE along z (the cone's tip at +z). */
export interface SolidPrimitive {
  type: number;
  /** BOX: x, y, z sizes; SPHERE: radius; CYLINDER, CONE: height, radius (at most 3 values). */
  dimensions: number[];
  /** PRISM only. */
  polygon: Polygon;
}

/** shape_msgs/SolidPrimitive's type constants. */
export const SolidPrimitiveType = { BOX: 1, SPHERE: 2, CYLINDER: 3, CONE: 4, PRISM: 5 } as const;

export interface MeshTriangle {
  vertex_indices: [number, number, number];
}

/** shape_msgs/Mesh: triangles indexing vertices. MoveIt and FCL take it as a surface, not a solid. */
export interface Mesh {
  triangles: MeshTriangle[];
  vertices: Point[];
}

/** shape_msgs/Plane: a·x + b·y + c·z + d = 0. */
export interface Plane {
  coef: [number, number, number, number];
}

/** object_recognition_msgs/ObjectType. */
export interface ObjectType {
  key: string;
  db: string;
}

/**
 * moveit_msgs/CollisionObject. The shapes' poses are relative to `pose`, which is relative to
 * header.frame_id (MoveIt 2 applies `pose` on Humble and Jazzy alike).
 */
export interface CollisionObject {
  header: Header;
  pose: Pose;
  id: string;
  type: ObjectType;
  primitives: SolidPrimitive[];
  primitive_poses: Pose[];
  meshes: Mesh[];
  mesh_poses: Pose[];
  planes: Plane[];
  plane_poses: Pose[];
  subframe_names: string[];
  subframe_poses: Pose[];
  operation: number;
}

/** moveit_msgs/CollisionObject's operation constants. */
export const CollisionObjectOperation = { ADD: 0, REMOVE: 1, APPEND: 2, MOVE: 3 } as const;

export interface ColorRGBA {
  r: number;
  g: number;
  b: number;
  a: number;
}

export interface ObjectColor {
  id: string;
  color: ColorRGBA;
}

/** octomap_msgs/Octomap. */
export interface Octomap {
  header: Header;
  binary: boolean;
  id: string;
  resolution: number;
  data: number[] | Int8Array;
}

export interface OctomapWithPose {
  header: Header;
  origin: Pose;
  octomap: Octomap;
}

export interface PlanningSceneWorld {
  collision_objects: CollisionObject[];
  octomap: OctomapWithPose;
}

export interface AllowedCollisionEntry {
  enabled: boolean[];
}

export interface AllowedCollisionMatrix {
  entry_names: string[];
  entry_values: AllowedCollisionEntry[];
  default_entry_names: string[];
  default_entry_values: boolean[];
}

export interface LinkPadding {
  link_name: string;
  padding: number;
}

export interface LinkScale {
  link_name: string;
  scale: number;
}

export interface MultiDOFJointState {
  header: Header;
  joint_names: string[];
  transforms: Transform[];
  twist: Twist[];
  wrench: Wrench[];
}

export interface Duration {
  sec: number;
  nanosec: number;
}

export interface JointTrajectoryPoint {
  positions: number[];
  velocities: number[];
  accelerations: number[];
  effort: number[];
  time_from_start: Duration;
}

export interface JointTrajectory {
  header: Header;
  joint_names: string[];
  points: JointTrajectoryPoint[];
}

export interface AttachedCollisionObject {
  link_name: string;
  object: CollisionObject;
  touch_links: string[];
  detach_posture: JointTrajectory;
  weight: number;
}

export interface RobotState {
  joint_state: JointState;
  multi_dof_joint_state: MultiDOFJointState;
  attached_collision_objects: AttachedCollisionObject[];
  is_diff: boolean;
}

/** moveit_msgs/PlanningScene; with is_diff, only what it names changes in the receiver's scene. */
export interface PlanningScene {
  name: string;
  robot_state: RobotState;
  robot_model_name: string;
  fixed_frame_transforms: TransformStamped[];
  allowed_collision_matrix: AllowedCollisionMatrix;
  link_padding: LinkPadding[];
  link_scale: LinkScale[];
  object_colors: ObjectColor[];
  world: PlanningSceneWorld;
  is_diff: boolean;
}

/** sensor_msgs/CompressedImage. */
export interface CompressedImage {
  header: Header;
  format: string;
  data: number[] | Uint8Array;
}

/** visualization_msgs/MeshFile: a mesh file's bytes, for a marker that carries its own. */
export interface MeshFile {
  filename: string;
  data: number[] | Uint8Array;
}

/** visualization_msgs/UVCoordinate. */
export interface UVCoordinate {
  u: number;
  v: number;
}

/** visualization_msgs/Marker (the same fields on Humble and Jazzy). */
export interface Marker {
  header: Header;
  ns: string;
  id: number;
  type: number;
  action: number;
  pose: Pose;
  scale: Vector3;
  color: ColorRGBA;
  lifetime: Duration;
  frame_locked: boolean;
  points: Point[];
  colors: ColorRGBA[];
  texture_resource: string;
  texture: CompressedImage;
  uv_coordinates: UVCoordinate[];
  text: string;
  mesh_resource: string;
  mesh_file: MeshFile;
  mesh_use_embedded_materials: boolean;
}

/** visualization_msgs/MarkerArray. */
export interface MarkerArray {
  markers: Marker[];
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
  Odometry: 'nav_msgs/msg/Odometry',
  PoseStamped: 'geometry_msgs/msg/PoseStamped',
  PlanningScene: 'moveit_msgs/msg/PlanningScene',
  MarkerArray: 'visualization_msgs/msg/MarkerArray',
} as const;

export type MessageTypeName = (typeof MessageType)[keyof typeof MessageType];
