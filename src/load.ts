// One entry point for every model file: chooses the loader by content and extension.
import { loadBodyFile } from './body/index.js';
import { extname } from 'node:path';
import { failAt } from './model/errors.js';
import type { LoadOptions } from './model/options.js';
import type { RobotModel } from './model/types.js';
import { loadVrmlModel } from './vrml/index.js';

export type { LoadOptions } from './model/options.js';

// Choreonoid's BodyLoader also picks its loader by extension; these are the ones it reads as YAML or VRML.
const MODEL_EXTENSIONS = ['.body', '.yaml', '.yml', '.wrl'];
const OTHER_FORMATS: Record<string, string> = {
  '.urdf': 'a URDF file',
  '.xacro': 'a xacro file (URDF macros)',
  '.sdf': 'an SDFormat file',
  '.srdf': 'an SRDF file',
  '.xml': 'an XML file',
  '.dae': 'a COLLADA mesh',
  '.stl': 'an STL mesh',
  '.obj': 'an OBJ mesh',
};

/** Loads a .body / .yaml (including `modelFile:` wrappers) or an OpenHRP .wrl file. Throws ModelLoadError. */
export function loadRobotModel(file: string, options: LoadOptions = {}): RobotModel {
  const ext = extname(file).toLowerCase();
  if (!MODEL_EXTENSIONS.includes(ext)) {
    const what = OTHER_FORMATS[ext];
    failAt(
      { file },
      `${what ? `this is ${what}, not a model format body_bridge reads` : `"${ext || 'no extension'}" is not a model file extension body_bridge reads`}: ` +
        'give a Choreonoid .body (.yaml, .yml) or an OpenHRP .wrl model',
    );
  }
  return /\.wrl$/i.test(file) ? loadVrmlModel(file, options) : loadBodyFile(file, options);
}
