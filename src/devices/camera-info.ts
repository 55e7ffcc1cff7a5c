// CameraInfo from the model alone: Choreonoid renders an ideal pinhole camera, so the intrinsics
// follow from the image size and the field of view, with no calibration data needed.
import type { CameraInfo, Header } from '../messages/messages.js';
import type { CameraParams } from '../model/types.js';

/** Pinhole intrinsics in ROS pixel coordinates (the centre of the top-left pixel is (0, 0)). */
export interface Intrinsics {
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
}

/** The width × height of the images a camera really sends. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The size of the images Choreonoid renders for a camera. A pinhole camera honours `width` × `height`;
 * a fisheye camera is rendered at width × width and a dual-fisheye one at width × ⌊width / 2⌋, whatever
 * `height` says (GLFisheyeCameraSimulator::doInitialize in choreonoid src/GLVisionSimulatorPlugin sizes its
 * output from resolutionX alone). choreonoid_ros publishes those images as they are.
 */
export function renderedImageSize(p: CameraParams): ImageSize {
  if (p.lens_type === 'FISHEYE_LENS') return { width: p.width, height: p.width };
  if (p.lens_type === 'DUAL_FISHEYE_LENS') return { width: p.width, height: Math.floor(p.width / 2) };
  return { width: p.width, height: p.height };
}

/**
 * Choreonoid's `field_of_view` spans the shorter image side (SgPerspectiveCamera::fovy in
 * choreonoid src/Util/SceneCameras.cpp uses it as fovy when width ≥ height and widens fovy so that
 * it becomes fovx otherwise), and pixels are square, so
 * fx = fy = (min(w, h) / 2) / tan(fov / 2). The optical axis passes through the image centre,
 * which in ROS pixel coordinates is ((w − 1) / 2, (h − 1) / 2): pixel i covers [i − ½, i + ½].
 * Returns null for fisheye lenses, which are not pinhole cameras.
 */
export function cameraIntrinsics(p: CameraParams): Intrinsics | null {
  if (p.lens_type !== 'NORMAL_LENS' && p.lens_type !== 'NORMAL') return null;
  if (!(p.width > 0 && p.height > 0 && p.field_of_view > 0 && p.field_of_view < Math.PI)) return null;
  const f = Math.min(p.width, p.height) / 2 / Math.tan(p.field_of_view / 2);
  return { width: p.width, height: p.height, fx: f, fy: f, cx: (p.width - 1) / 2, cy: (p.height - 1) / 2 };
}

/**
 * sensor_msgs/CameraInfo of a Camera or RangeCamera: no distortion ('plumb_bob', d = 0), R = I,
 * P = [K | 0] (a monocular camera), no binning, full-image ROI. A camera that is not a pinhole
 * (fisheye lenses) gets zero d/k/r/p, which CameraInfo defines as "uncalibrated", and the size of the
 * images it really sends (renderedImageSize).
 */
export function cameraInfo(p: CameraParams, header: Header): CameraInfo {
  const i = cameraIntrinsics(p);
  const size = renderedImageSize(p);
  const k = i ? [i.fx, 0, i.cx, 0, i.fy, i.cy, 0, 0, 1] : new Array<number>(9).fill(0);
  const r = i ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : new Array<number>(9).fill(0);
  const proj = i ? [i.fx, 0, i.cx, 0, 0, i.fy, i.cy, 0, 0, 0, 1, 0] : new Array<number>(12).fill(0);
  return {
    header,
    height: size.height,
    width: size.width,
    distortion_model: 'plumb_bob',
    d: [0, 0, 0, 0, 0],
    k,
    r,
    p: proj,
    binning_x: 0,
    binning_y: 0,
    roi: { x_offset: 0, y_offset: 0, height: 0, width: 0, do_rectify: false },
  };
}
