// The neutral robot model: what the .body and .wrl loaders produce and what URDF, TF and the
// device topics consume. It carries Choreonoid's meaning, not a file format's spelling:
// SI units and radians throughout, every pose already resolved into its link's frame.
//
// Conventions (the same as ../shared/oracle/README.md, so tests compare field for field):
// - Mat3 is a list of rows, R[row][col], mapping child-frame vectors into the parent frame:
//   v_parent = R · v_child + p.
// - "Unlimited" is ±Infinity. (The oracle writes ±DBL_MAX; `body-bridge info --json` writes null.)

export type Vec3 = [number, number, number];
export type Mat3 = [Vec3, Vec3, Vec3];

/** A rigid transform: the child frame's pose in its parent frame. */
export interface Pose {
  translation: Vec3;
  rotation: Mat3;
}

/**
 * A general affine transform (rotation times scale, plus translation). Shapes carry one because
 * Choreonoid's Transform nodes may scale; links, joints and devices never do.
 */
export interface Affine {
  /** 3×3 linear part, rows; may include scale and shear. */
  linear: Mat3;
  translation: Vec3;
}

/** Where in a source file something came from. Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  /** YAML path such as `links[3].elements[1].geometry.size`, or a VRML node path. */
  path?: string;
  line?: number;
  column?: number;
}

export interface Diagnostic extends SourceLocation {
  severity: 'warning' | 'error';
  message: string;
}

export type JointType = 'fixed' | 'free' | 'revolute' | 'prismatic' | 'pseudo_continuous_track';

export interface Joint {
  /** `joint_name` if given, otherwise the link name. */
  name: string;
  type: JointType;
  /** `joint_id`; null when the file gives none (Choreonoid's −1). */
  id: number | null;
  /** Unit vector in the link frame (which is also the joint frame). As given; not normalised. */
  axis: Vec3;
  /** Position limits (rad or m); ±Infinity when unlimited. */
  lower: number;
  upper: number;
  /** Velocity limits (rad/s or m/s); ±Infinity when unlimited. */
  velocityLower: number;
  velocityUpper: number;
  /** Effort limits (N·m or N); ±Infinity when unlimited. */
  effortLower: number;
  effortUpper: number;
  /** Initial position: joint_angle / joint_displacement / VRML default (rad or m). */
  initial: number;
  /** Rotor inertia and gear ratio as given (defaults 0 and 1); Choreonoid's Jm2 = gearRatio² · rotorInertia. */
  rotorInertia: number;
  gearRatio: number;
  /** Other joint data the file gives that has no dedicated field (e.g. VRML rotorResistor, torqueConst, encoderPulse). */
  extras?: Record<string, number>;
}

/** Geometry as the file describes it, in the shape's own frame (see Shape.transform). */
export type Geometry =
  | { kind: 'box'; size: Vec3 }
  | { kind: 'sphere'; radius: number }
  /** Choreonoid/VRML cylinder: axis along +Y, centred at the origin. */
  | { kind: 'cylinder'; radius: number; height: number; top: boolean; bottom: boolean; side: boolean }
  /** Capsule: axis along +Y; `height` is the length of the cylindrical part. */
  | { kind: 'capsule'; radius: number; height: number }
  /** Cone: axis along +Y, apex at +height/2. */
  | { kind: 'cone'; radius: number; height: number; bottom: boolean; side: boolean }
  | {
      kind: 'extrusion';
      crossSection: [number, number][];
      spine: Vec3[];
      /** Per spine point, or one value for all. */
      scale: [number, number][];
      /** Per spine point, or one value for all: axis-angle [x, y, z, angle]. */
      orientation: [number, number, number, number][];
      beginCap: boolean;
      endCap: boolean;
      ccw: boolean;
      convex: boolean;
      creaseAngle: number;
    }
  | {
      kind: 'elevationGrid';
      xDimension: number;
      zDimension: number;
      xSpacing: number;
      zSpacing: number;
      height: number[];
      ccw: boolean;
      creaseAngle: number;
    }
  /** IndexedFaceSet / triangle mesh. `faces` are polygons (index lists), not yet triangulated. */
  | {
      kind: 'mesh';
      vertices: Vec3[];
      faces: number[][];
      ccw: boolean;
      creaseAngle: number;
      /** Per-vertex or per-face colours as given, if any. */
      colors?: Vec3[];
    }
  /**
   * An external mesh file that URDF can reference directly (.stl, .dae, .obj). `at` is where the model
   * names the file (the Resource's `uri`, the Inline's `url`), for messages about the file itself.
   */
  | { kind: 'meshFile'; path: string; uri: string; format: 'stl' | 'dae' | 'obj'; node?: string; at?: SourceLocation };

export interface Material {
  diffuseColor: Vec3;
  /** 0 = opaque. */
  transparency: number;
  ambientIntensity?: number;
  specularColor?: Vec3;
  emissiveColor?: Vec3;
  shininess?: number;
}

export interface Shape {
  geometry: Geometry;
  /** Full pose of the geometry in the link frame, with every enclosing Transform (and scale) applied. */
  transform: Affine;
  material: Material | null;
  /** Texture image path as resolved on disk, if any. */
  texture?: string;
  /** Name of the enclosing named node (Shape/Transform/Resource), for messages and mesh file names. */
  name?: string;
  source?: SourceLocation;
}

export interface Link {
  name: string;
  /** Parent link name; null for the root. */
  parent: string | null;
  joint: Joint;
  /** This link's frame in the parent link's frame at q = 0 (Choreonoid's offsetTranslation/offsetRotation); for the root, the body's initial root pose. */
  offset: Pose;
  /** Combined over link-level values and every RigidBody / Segment node. */
  mass: number;
  centerOfMass: Vec3;
  /** About the centre of mass, axes of the link frame. */
  inertia: Mat3;
  /** Shapes rendered (Visual, or plain shapes). */
  visuals: Shape[];
  /** Shapes used for collision (Collision, or plain shapes). */
  collisions: Shape[];
  source?: SourceLocation;
  /**
   * On the first shoe of a .body ContinuousTrack node (Choreonoid's `isContinuousTrack` link info): how many shoes
   * its chain has, this one on a free joint and each next one on a revolute joint below the previous. Choreonoid
   * closes the chain into a loop only in its AGX Dynamics simulator; elsewhere it stays open at this shoe.
   */
  continuousTrack?: number;
  /**
   * Node types in the link's elements that only a Choreonoid plugin reads (RotorDevice of the Multicopter plugin,
   * AGX Dynamics' devices, ...), in file order: the core loader, and so body_bridge, skips them with a warning,
   * but what they are still says what the link is for (a rotor's propeller is no joint to command).
   */
  pluginNodes?: string[];
}

export type ImageType = 'COLOR_IMAGE' | 'GRAYSCALE_IMAGE' | 'NO_IMAGE';

/** Choreonoid's `format` key of a Camera node, which decides Camera vs RangeCamera. */
export type CameraFormat = 'COLOR' | 'DEPTH' | 'COLOR_DEPTH' | 'POINT_CLOUD' | 'COLOR_POINT_CLOUD' | 'NONE';

interface VisionSensorParams {
  frame_rate: number;
  on: boolean;
  /** R_optical: identity for gl, diag(1,−1,−1) for cv, [[0,0,−1],[−1,0,0],[0,1,0]] for robotics. */
  optical_frame_rotation: Mat3;
}

export interface CameraParams extends VisionSensorParams {
  width: number;
  height: number;
  /** Radians; spans the shorter image side. */
  field_of_view: number;
  near_clip: number;
  far_clip: number;
  image_type: ImageType;
  lens_type: string;
  /** The `format` the file gave (COLOR for VRML COLOR cameras). */
  format: CameraFormat;
}

export interface RangeCameraParams extends CameraParams {
  min_distance: number;
  max_distance: number;
  is_organized: boolean;
  is_dense: boolean;
  detection_rate: number;
  error_deviation: number;
}

export interface RangeSensorParams extends VisionSensorParams {
  yaw_range: number;
  min_yaw_angle: number;
  max_yaw_angle: number;
  yaw_step: number;
  num_yaw_samples: number;
  pitch_range: number;
  min_pitch_angle: number;
  max_pitch_angle: number;
  pitch_step: number;
  num_pitch_samples: number;
  min_distance: number;
  max_distance: number;
  /** Hz; equal to frame_rate. */
  scan_rate: number;
  detection_rate: number;
  error_deviation: number;
}

export interface ForceSensorParams {
  max_force: Vec3;
  max_torque: Vec3;
}
export interface RateGyroSensorParams {
  max_angular_velocity: Vec3;
}
export interface AccelerationSensorParams {
  max_acceleration: Vec3;
}
export interface ImuParams {
  max_angular_velocity: Vec3;
  max_acceleration: Vec3;
}
export interface LightParams {
  on: boolean;
  color: Vec3;
  intensity: number;
  constant_attenuation: number;
  linear_attenuation: number;
  quadratic_attenuation: number;
  direction?: Vec3;
  beam_width?: number;
  cut_off_angle?: number;
  cut_off_exponent?: number;
}

interface DeviceCommon {
  /** As given; may be empty (Choreonoid allows nameless devices). Frame names come from kinematics/device-frames. */
  name: string;
  /** `id`; null when none is given (Choreonoid's −1). */
  id: number | null;
  /** Name of the link the device is attached to. */
  link: string;
  /** Device frame in the link frame (Choreonoid's Device::T_local). */
  pose: Pose;
  source?: SourceLocation;
}

/** Choreonoid's device types (type_name), each with its own parameters. */
export type Device =
  | (DeviceCommon & { type: 'Camera'; params: CameraParams })
  | (DeviceCommon & { type: 'RangeCamera'; params: RangeCameraParams })
  | (DeviceCommon & { type: 'RangeSensor'; params: RangeSensorParams })
  | (DeviceCommon & { type: 'ForceSensor'; params: ForceSensorParams })
  | (DeviceCommon & { type: 'RateGyroSensor'; params: RateGyroSensorParams })
  | (DeviceCommon & { type: 'AccelerationSensor'; params: AccelerationSensorParams })
  | (DeviceCommon & { type: 'Imu'; params: ImuParams })
  | (DeviceCommon & { type: 'SpotLight' | 'PointLight'; params: LightParams })
  /**
   * Devices with no sensor data (HolderDevice, AttachmentDevice, MarkerDevice, DigitalIoDevice, ...). A holder's
   * `categories` (or `category`) and an attachment's `category` say which attachment fits which holder: a body
   * item attached to another in a project sits where they meet (HolderDevice / AttachmentDevice).
   */
  | (DeviceCommon & { type: 'Other'; typeName: string; params: Record<string, unknown>; categories?: string[] });

export type DeviceType = Device['type'];

export interface ExtraJoint {
  name?: string;
  type: 'fixed' | 'hinge' | 'ball' | 'piston';
  link1: string;
  link2: string;
  axis: Vec3;
  /** Each in its own link's frame. */
  localPose1: Pose;
  localPose2: Pose;
  source?: SourceLocation;
}

export interface RobotModel {
  /** The body's `name` (VRML: the Humanoid name). */
  name: string;
  /** Absolute path of the file the model was loaded from. */
  sourceFile: string;
  /** Which loader produced it. */
  format: 'body' | 'wrl';
  /** Name of the root link; links[0] is always the root. */
  root: string;
  /** Links in Choreonoid's traverse order: depth-first pre-order from the root, children in the order they were attached. */
  links: Link[];
  /** Devices in Choreonoid's order (by link order, then file order). */
  devices: Device[];
  extraJoints: ExtraJoint[];
  /** Warnings the loader produced (unknown nodes skipped, repairs, ...). */
  warnings: Diagnostic[];
}
