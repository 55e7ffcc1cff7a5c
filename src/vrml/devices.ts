// OpenHRP sensor PROTOs → Choreonoid devices, with the values Choreonoid's VRML body loader gives
// them (VRMLBodyLoader::create*): defaults of its device classes where the node says nothing.
import { failAt } from '../model/errors.js';
import { identity3, mulMat, transformPoint } from '../model/math.js';
import type {
  Affine, CameraFormat, CameraParams, Device, Diagnostic, LightParams, Mat3, RangeCameraParams, RangeSensorParams, Vec3,
} from '../model/types.js';
import type { VrmlNode } from './ast.js';
import { getBool, getField, getFloat, getInt, getRotation, getString, getVec3, locate } from './fields.js';

/** PROTO names that make a device (or are sensors Choreonoid knows but does not create). */
export const DEVICE_PROTOS = new Set([
  'ForceSensor', 'Gyro', 'AccelerationSensor', 'RangeSensor', 'PressureSensor', 'VisionSensor', 'SpotLightDevice',
]);

const INF: Vec3 = [Infinity, Infinity, Infinity];

interface Common {
  name: string;
  id: number | null;
  link: string;
  pose: { translation: Vec3; rotation: Mat3 };
  source: { file: string; path: string; line: number; column: number };
}

/**
 * The device a sensor node makes on `link`, placed by `T` (the Transforms between the Joint and the
 * node), or null for a sensor type without a device (a warning says so).
 */
export function readDevice(node: VrmlNode, path: string, link: string, T: Affine, warnings: Diagnostic[]): Device | null {
  const type = node.type;
  const id = getField(node, 'deviceId')?.type === 'SFInt32'
    ? getInt(node, path, 'deviceId', -1)
    : getField(node, 'sensorId')?.type === 'SFInt32' ? getInt(node, path, 'sensorId', -1) : -1;
  const translation = getVec3(node, path, 'translation', [0, 0, 0]);
  const rotation = getRotation(node, path, 'rotation');
  const common: Common = {
    name: node.defName ?? '',
    id: id >= 0 ? id : null,
    link,
    pose: { translation: transformPoint(T, translation), rotation: mulMat(T.linear, rotation) },
    source: { file: node.file, path, line: node.line, column: node.column },
  };
  const vec = (name: string, fallback: Vec3): Vec3 =>
    getField(node, name)?.type === 'SFVec3f' ? getVec3(node, path, name, fallback) : fallback;
  switch (type) {
    case 'ForceSensor':
      return { ...common, type: 'ForceSensor', params: { max_force: vec('maxForce', INF), max_torque: vec('maxTorque', INF) } };
    case 'Gyro':
      return { ...common, type: 'RateGyroSensor', params: { max_angular_velocity: vec('maxAngularVelocity', INF) } };
    case 'AccelerationSensor': {
      // OpenHRP writes -1 -1 -1 for "not specified"; Choreonoid ends up unlimited for it (its VRML
      // loader never reads maxAcceleration), so only a positive limit is taken.
      const a = vec('maxAcceleration', INF);
      return { ...common, type: 'AccelerationSensor', params: { max_acceleration: a.every((x) => x > 0) ? a : INF } };
    }
    case 'VisionSensor':
      return readCamera(node, path, common, warnings);
    case 'RangeSensor':
      return { ...common, type: 'RangeSensor', params: rangeSensorParams(node, path) };
    case 'SpotLightDevice':
      return { ...common, type: 'SpotLight', params: spotLightParams(node, path) };
    default:
      warnings.push({ severity: 'warning', message: `sensor type ${type} is not supported (no device created)`, ...locate(node, path) });
      return null;
  }
}

const visionCommon = (node: VrmlNode, path: string, frameRate: number) => ({
  frame_rate: frameRate,
  on: getField(node, 'on')?.type === 'SFBool' ? getBool(node, path, 'on', true) : true,
  optical_frame_rotation: identity3(),
});

const CAMERA_FORMATS = new Set<CameraFormat>(['COLOR', 'DEPTH', 'COLOR_DEPTH', 'POINT_CLOUD', 'COLOR_POINT_CLOUD', 'NONE']);

function readCamera(node: VrmlNode, path: string, common: Common, warnings: Diagnostic[]): Device {
  const typeName = getString(node, path, 'type', 'NONE');
  let format: CameraFormat = 'NONE';
  if (CAMERA_FORMATS.has(typeName as CameraFormat)) {
    format = typeName as CameraFormat;
  } else {
    warnings.push({ severity: 'warning', message: `VisionSensor type "${typeName}" is unknown; read as NONE (a colour camera, as Choreonoid does)`, ...locate(node, path, 'type') });
  }
  const camera: CameraParams = {
    ...visionCommon(node, path, getFloat(node, path, 'frameRate', 30)),
    width: getInt(node, path, 'width', 320),
    height: getInt(node, path, 'height', 240),
    field_of_view: getFloat(node, path, 'fieldOfView', 0.785398),
    near_clip: getFloat(node, path, 'frontClipDistance', 0.01),
    far_clip: getFloat(node, path, 'backClipDistance', 10),
    // NONE (and COLOR) make a plain Camera, whose default image type is colour.
    image_type: format === 'DEPTH' || format === 'POINT_CLOUD' ? 'NO_IMAGE' : 'COLOR_IMAGE',
    lens_type: 'NORMAL_LENS',
    format,
  };
  if (format === 'COLOR' || format === 'NONE') return { ...common, type: 'Camera', params: camera };
  const range: RangeCameraParams = {
    ...camera,
    min_distance: 0.1,
    max_distance: 10,
    is_organized: format === 'DEPTH' || format === 'COLOR_DEPTH',
    is_dense: false,
    detection_rate: 1,
    error_deviation: 0,
  };
  return { ...common, type: 'RangeCamera', params: range };
}

/** RangeSensor::setYawRange / setYawStep arithmetic, in the order VRMLBodyLoader calls them. */
function rangeSensorParams(node: VrmlNode, path: string): RangeSensorParams {
  const scanAngle = getFloat(node, path, 'scanAngle', 3.14159);
  const scanStep = getFloat(node, path, 'scanStep', 0.1);
  const h = Math.abs(scanAngle / 2);
  const yawRange = h - -h;
  // A negative step is ignored by Choreonoid, which keeps its default step of 1 rad.
  const step = scanStep >= 0 ? scanStep : 1;
  const samples = step === 0 ? 1 : Math.trunc(yawRange / step + 1e-7) + 1;
  const frameRate = getFloat(node, path, 'scanRate', 10);
  return {
    ...visionCommon(node, path, frameRate),
    yaw_range: yawRange,
    min_yaw_angle: -h,
    max_yaw_angle: h,
    yaw_step: step,
    num_yaw_samples: samples,
    pitch_range: 0,
    min_pitch_angle: 0,
    max_pitch_angle: 0,
    pitch_step: 0,
    num_pitch_samples: 1,
    min_distance: getFloat(node, path, 'minDistance', 0.01),
    max_distance: getFloat(node, path, 'maxDistance', 10),
    scan_rate: frameRate,
    detection_rate: 1,
    error_deviation: 0,
  };
}

function spotLightParams(node: VrmlNode, path: string): LightParams {
  const need = (name: string): void => {
    if (!getField(node, name)) failAt(locate(node, path), `SpotLightDevice needs the field '${name}'`);
  };
  ['attenuation', 'beamWidth', 'color', 'cutOffAngle', 'direction', 'intensity', 'on'].forEach(need);
  const attenuation = getVec3(node, path, 'attenuation', [1, 0, 0]);
  return {
    on: getBool(node, path, 'on', true),
    color: getVec3(node, path, 'color', [1, 1, 1]),
    intensity: getFloat(node, path, 'intensity', 1),
    constant_attenuation: attenuation[0],
    linear_attenuation: attenuation[1],
    quadratic_attenuation: attenuation[2],
    direction: getVec3(node, path, 'direction', [0, 0, -1]),
    beam_width: getFloat(node, path, 'beamWidth', 1.570796),
    cut_off_angle: getFloat(node, path, 'cutOffAngle', 0.785398),
    cut_off_exponent: getFloat(node, path, 'cutOffExponent', 1),
  };
}
