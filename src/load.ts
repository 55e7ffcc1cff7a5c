// One entry point for every model file: chooses the loader by content and extension.
import { loadBodyFile } from './body/index.js';
import type { LoadOptions } from './model/options.js';
import type { RobotModel } from './model/types.js';
import { loadVrmlModel } from './vrml/index.js';

export type { LoadOptions } from './model/options.js';

/** Loads a .body / .yaml (including `modelFile:` wrappers) or an OpenHRP .wrl file. Throws ModelLoadError. */
export function loadRobotModel(file: string, options: LoadOptions = {}): RobotModel {
  return /\.wrl$/i.test(file) ? loadVrmlModel(file, options) : loadBodyFile(file, options);
}
