// Device parameters as Choreonoid's device classes read them (their constructors give the defaults).
// Returns the device type and parameters; the pose and link come from the element reader.
import { failAt } from '../model/errors.js';
import { axisAngle, identity3, mulMat, norm } from '../model/math.js';
import type {
  CameraFormat,
  CameraParams,
  Device,
  LightParams,
  Mat3,
  RangeCameraParams,
  RangeSensorParams,
  Vec3,
} from '../model/types.js';
import { degreeToRadian, toRadian, warn, type BodyContext } from './context.js';
import { asInt, asNumbers, asSeq, asString, boolAt, get, intAt, numberAt, stringAt, vec3At } from './values.js';
import type { YMap, YNode } from './yaml-tree.js';

export type DeviceBody = Pick<Device, 'type' | 'params'> & { typeName?: string; categories?: string[] };

// Choreonoid's DBL_MAX "no limit" is ±Infinity in the model.
const unlimited3 = (): Vec3 => [Infinity, Infinity, Infinity];

export const R_CV: Mat3 = [
  [1, 0, 0],
  [0, -1, 0],
  [0, 0, -1],
];
export const R_ROBOTICS: Mat3 = [
  [0, 0, -1],
  [-1, 0, 0],
  [0, 1, 0],
];

/** Node types that create a device, by the name used in `type:`. */
export const DEVICE_NODE_TYPES = new Set([
  // Choreonoid registers IMU; the reference manual spells the node Imu: both are read, Imu with a warning.
  'Camera', 'CameraDevice', 'RangeSensor', 'ForceSensor', 'RateGyroSensor', 'AccelerationSensor', 'IMU', 'Imu',
  'SpotLight', 'PointLight', 'Holder', 'Attachment', 'MarkerDevice', 'DigitalIO', 'ZmpDevice', 'Conveyor',
]);

// Devices without sensor data keep only their Choreonoid type name.
const OTHER_TYPE_NAMES: Record<string, string> = {
  Holder: 'HolderDevice',
  Attachment: 'AttachmentDevice',
  MarkerDevice: 'MarkerDevice',
  DigitalIO: 'DigitalIoDevice',
  ZmpDevice: 'ZmpDevice',
  Conveyor: 'ConveyorDevice',
};

/** `[x, y, z, angle]` or a list of them, composed as Eigen's AngleAxis product (EigenArchive::readAngleAxis). */
function readAngleAxisProduct(ctx: BodyContext, node: YNode): Mat3 {
  const one = (n: YNode): Mat3 => {
    const [x, y, z, a] = asNumbers(n, 4, 'an axis-angle [x, y, z, angle]') as [number, number, number, number];
    const size = norm([x, y, z]);
    if (size < 1e-6) failAt(n.loc, 'the rotation axis is the zero vector');
    return axisAngle([x / size, y / size, z / size], toRadian(ctx, a));
  };
  const seq = asSeq(node, 'an axis-angle [x, y, z, angle]');
  const first = seq.items[0];
  if (!first) return identity3();
  if (first.kind !== 'seq') return one(seq);
  return seq.items.reduce<Mat3>((r, n) => mulMat(r, one(n)), identity3());
}

function visionCommon(ctx: BodyContext, map: YMap, on: boolean): { frame_rate: number; on: boolean; optical_frame_rotation: Mat3 } {
  const frameNode = get(map, 'optical_frame');
  let r: Mat3 = identity3();
  if (frameNode) {
    const frame = stringAt(map, 'optical_frame');
    if (frame === 'cv') r = R_CV;
    else if (frame === 'robotics') r = R_ROBOTICS;
    else if (frame !== 'gl') failAt(frameNode.loc, `unknown optical_frame "${frame}" (expected gl, cv or robotics)`);
  }
  const extra = get(map, 'optical_frame_rotation');
  if (extra) r = mulMat(r, readAngleAxisProduct(ctx, extra));
  return { frame_rate: numberAt(map, ['frame_rate', 'frameRate']) ?? 30, on, optical_frame_rotation: r };
}

/** An image dimension: a positive integer (Choreonoid would accept any int). */
function imageSize(map: YMap, key: string, fallback: number): number {
  const n = get(map, key);
  if (!n) return fallback;
  const v = asInt(n, `an image ${key} in pixels`);
  if (v < 1) failAt(n.loc, `expected a positive image ${key} in pixels, got ${v}`);
  return v;
}

const LENS: Record<string, string> = { NORMAL: 'NORMAL_LENS', FISHEYE: 'FISHEYE_LENS', DUAL_FISHEYE: 'DUAL_FISHEYE_LENS' };

function cameraParams(ctx: BodyContext, map: YMap, on: boolean, format: CameraFormat): CameraParams {
  const lens = stringAt(map, ['lens_type', 'lensType']);
  const fov = numberAt(map, ['field_of_view', 'fieldOfView']);
  return {
    ...visionCommon(ctx, map, on),
    width: imageSize(map, 'width', 640),
    height: imageSize(map, 'height', 480),
    field_of_view: fov === undefined ? 0.785398 : toRadian(ctx, fov),
    near_clip: numberAt(map, ['near_clip_distance', 'nearClipDistance']) ?? 0.04,
    far_clip: numberAt(map, ['far_clip_distance', 'farClipDistance']) ?? 200,
    image_type: format === 'COLOR' || format === 'COLOR_DEPTH' || format === 'COLOR_POINT_CLOUD' ? 'COLOR_IMAGE' : 'NO_IMAGE',
    lens_type: (lens !== undefined && LENS[lens]) || 'NORMAL_LENS',
    format,
  };
}

const RANGE_FORMATS = new Set(['DEPTH', 'COLOR_DEPTH', 'POINT_CLOUD', 'COLOR_POINT_CLOUD']);

/** Camera: COLOR gives a Camera, the depth formats a RangeCamera, anything else no device (null). */
function readCamera(ctx: BodyContext, map: YMap, on: boolean): DeviceBody | null {
  const format = stringAt(map, 'format');
  if (format === 'COLOR') return { type: 'Camera', params: cameraParams(ctx, map, on, 'COLOR') };
  if (format === undefined || !RANGE_FORMATS.has(format)) return null;
  const params: RangeCameraParams = {
    ...cameraParams(ctx, map, on, format as CameraFormat),
    min_distance: numberAt(map, 'min_distance') ?? 0.1,
    max_distance: numberAt(map, 'max_distance') ?? 10,
    is_organized: format === 'DEPTH' || format === 'COLOR_DEPTH',
    is_dense: false,
    detection_rate: numberAt(map, 'detection_rate') ?? 1,
    error_deviation: numberAt(map, 'error_deviation') ?? 0,
  };
  return { type: 'RangeCamera', params };
}

/** One scan axis of a RangeSensor, with RangeSensor's setters' rules (samples follow the step or vice versa). */
interface ScanAxis {
  min: number;
  max: number;
  step: number;
  samples: number;
  fromStep: boolean;
}

function setStep(a: ScanAxis, step: number): void {
  if (step < 0) return;
  a.step = step;
  a.samples = step === 0 ? 1 : Math.trunc((a.max - a.min) / step + 1e-7) + 1;
  a.fromStep = true;
}
function setSamples(a: ScanAxis, n: number): void {
  if (n < 1) return;
  a.samples = n;
  a.step = n === 1 ? 0 : (a.max - a.min) / (n - 1);
  a.fromStep = false;
}
function setRange(a: ScanAxis, min: number, max: number): void {
  if (max < min) return;
  a.min = min;
  a.max = max;
  if (a.fromStep) setStep(a, a.step);
  else setSamples(a, a.samples);
}

function readScanAxis(
  ctx: BodyContext,
  map: YMap,
  a: ScanAxis,
  keys: { min: string; max: string; range: string[]; step: string[]; samples: string },
): void {
  const angle = (k: string | string[]): number | undefined => {
    const v = numberAt(map, k);
    return v === undefined ? undefined : toRadian(ctx, v);
  };
  const min = angle(keys.min);
  const max = min === undefined ? undefined : angle(keys.max);
  if (min !== undefined && max !== undefined) {
    setRange(a, min, max);
  } else {
    const range = angle(keys.range);
    if (range !== undefined) {
      const h = Math.abs(range / 2);
      setRange(a, -h, h);
    }
  }
  const step = angle(keys.step);
  if (step !== undefined) setStep(a, step);
  else {
    const samples = intAt(map, keys.samples);
    if (samples !== undefined) setSamples(a, samples);
  }
}

function readRangeSensor(ctx: BodyContext, map: YMap, on: boolean): DeviceBody {
  const common = visionCommon(ctx, map, on);
  const yaw: ScanAxis = { min: 0, max: 0, step: 0, samples: 1, fromStep: true };
  const pitch: ScanAxis = { min: 0, max: 0, step: 0, samples: 1, fromStep: true };
  // RangeSensor(): frame rate 10, yaw ±60° with a 1 rad step, pitch 0.
  setRange(yaw, -degreeToRadian(60), degreeToRadian(60));
  setStep(yaw, 1);
  setStep(pitch, 0);
  const frameRate = numberAt(map, ['frame_rate', 'frameRate']);
  let rate = frameRate ?? 10;
  readScanAxis(ctx, map, yaw, { min: 'min_yaw_angle', max: 'max_yaw_angle', range: ['yaw_range', 'yawRange', 'scanAngle'], step: ['yaw_step', 'yawStep', 'scanStep'], samples: 'yaw_samples' });
  readScanAxis(ctx, map, pitch, { min: 'min_pitch_angle', max: 'max_pitch_angle', range: ['pitch_range', 'pitchRange'], step: ['pitch_step', 'pitchStep'], samples: 'pitch_samples' });
  const scanRate = numberAt(map, ['scan_rate', 'scanRate']);
  if (scanRate !== undefined) rate = scanRate;
  const params: RangeSensorParams = {
    ...common,
    frame_rate: rate,
    yaw_range: yaw.max - yaw.min,
    min_yaw_angle: yaw.min,
    max_yaw_angle: yaw.max,
    yaw_step: yaw.step,
    num_yaw_samples: yaw.samples,
    pitch_range: pitch.max - pitch.min,
    min_pitch_angle: pitch.min,
    max_pitch_angle: pitch.max,
    pitch_step: pitch.step,
    num_pitch_samples: pitch.samples,
    min_distance: numberAt(map, ['min_distance', 'minDistance']) ?? 0.1,
    max_distance: numberAt(map, ['max_distance', 'maxDistance']) ?? 10,
    scan_rate: rate,
    detection_rate: numberAt(map, 'detection_rate') ?? 1,
    error_deviation: numberAt(map, 'error_deviation') ?? 0,
  };
  return { type: 'RangeSensor', params };
}

// Lights store single precision, so the oracle's values are floats widened to double.
const f = Math.fround;
const f3 = (v: Vec3): Vec3 => [f(v[0]), f(v[1]), f(v[2])];
const floatAngle = (ctx: BodyContext, deg: number): number => (ctx.degree ? f(f(Math.PI / 180) * f(deg)) : f(deg));

function readLight(ctx: BodyContext, map: YMap, on: boolean, spot: boolean): DeviceBody {
  const attenuation = vec3At(map, 'attenuation') ?? [1, 0, 0];
  const params: LightParams = {
    on,
    color: f3(vec3At(map, 'color') ?? [1, 1, 1]),
    intensity: f(numberAt(map, 'intensity') ?? 1),
    constant_attenuation: f(attenuation[0]),
    linear_attenuation: f(attenuation[1]),
    quadratic_attenuation: f(attenuation[2]),
  };
  if (!spot) return { type: 'PointLight', params };
  const beam = numberAt(map, ['beam_width', 'beamWidth']);
  const cutOff = numberAt(map, ['cut_off_angle', 'cutOffAngle']);
  params.direction = f3(vec3At(map, 'direction') ?? [0, 0, -1]);
  params.beam_width = beam === undefined ? f(1.570796) : floatAngle(ctx, beam);
  params.cut_off_angle = cutOff === undefined ? f(0.785398) : floatAngle(ctx, cutOff);
  params.cut_off_exponent = f(numberAt(map, ['cut_off_exponent', 'cutOffExponent']) ?? 1);
  return { type: 'SpotLight', params };
}

/**
 * The device a node of `type` creates, or null when Choreonoid creates none (a Camera whose
 * `format` is missing or unknown). `type` must be in DEVICE_NODE_TYPES.
 */
export function readDeviceBody(ctx: BodyContext, type: string, map: YMap): DeviceBody | null {
  const on = boolAt(map, 'on') ?? true;
  switch (type) {
    case 'Camera':
    case 'CameraDevice':
      return readCamera(ctx, map, on);
    case 'RangeSensor':
      return readRangeSensor(ctx, map, on);
    case 'ForceSensor': {
      const force = vec3At(map, ['max_force', 'maxForce']) ?? unlimited3();
      const torque = vec3At(map, ['max_torque', 'maxTorque']) ?? unlimited3();
      return { type: 'ForceSensor', params: { max_force: force, max_torque: torque } };
    }
    case 'RateGyroSensor':
      return { type: 'RateGyroSensor', params: { max_angular_velocity: vec3At(map, ['max_angular_velocity', 'maxAngularVelocity']) ?? unlimited3() } };
    case 'AccelerationSensor':
      return { type: 'AccelerationSensor', params: { max_acceleration: vec3At(map, ['max_acceleration', 'maxAcceleration']) ?? unlimited3() } };
    case 'Imu':
    case 'IMU':
      // "Imu" is the reference manual's spelling; Choreonoid itself (StdBodyLoader's device registry) knows only
      // IMU and refuses the whole body file on `type: Imu`, so the same file would not open in Choreonoid.
      if (type === 'Imu') warn(ctx, get(map, 'type')?.loc ?? map.loc, 'node type "Imu" is read as IMU, but Choreonoid registers only "IMU" and refuses this body file: write type: IMU');
      return {
        type: 'Imu',
        params: {
          max_angular_velocity: vec3At(map, 'max_angular_velocity') ?? unlimited3(),
          max_acceleration: vec3At(map, 'max_acceleration') ?? unlimited3(),
        },
      };
    case 'SpotLight':
      return readLight(ctx, map, on, true);
    case 'PointLight':
      return readLight(ctx, map, on, false);
    default: {
      const typeName = OTHER_TYPE_NAMES[type];
      if (!typeName) return failAt(map.loc, `internal: "${type}" is not a device node type`);
      if (type === 'Holder' || type === 'Attachment') return { type: 'Other', typeName, params: {}, categories: readCategories(map, type === 'Holder') };
      return { type: 'Other', typeName, params: {} };
    }
  }
}

/**
 * HolderDevice::readDescription takes a `categories` list, else one `category`; AttachmentDevice::readSpecifications
 * only `category`. Both read them leniently (Mapping::read): a value of another kind counts as none.
 */
function readCategories(map: YMap, holder: boolean): string[] {
  const list = holder ? get(map, 'categories') : undefined;
  if (list !== undefined && list.kind === 'seq') return list.items.map((c) => asString(c, 'a category name'));
  const one = get(map, 'category');
  return one !== undefined && one.kind === 'scalar' && one.value !== '' ? [one.value] : [];
}
