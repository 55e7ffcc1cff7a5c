// `body-bridge rviz <model> [-o FILE] ...`: the rviz2 configuration display.launch.py opens, made from the
// same model (and the same naming conventions, frame prefix, namespace and remaps) the node serves.
import { applyRosConventions } from '../model/ros-conventions.js';
import { rvizConfig } from '../rviz/config.js';
import { writeFileAtomic } from '../urdf/index.js';
import { CONVENTION_USAGE, type Command, type CommandIo, conventionOptions, conventionsOf, loadForCommand, parseModelCommand, processIo } from './command.js';

export const RVIZ_USAGE = `usage: body-bridge rviz <model> [-o FILE] [--frame-prefix P] [--world-frame W] [--free-root-frame F]
                        [--namespace NS] [--remap FROM:=TO]... [--planning-scene] [--placement POSE] [--package-path DIR]...
  -o, --output FILE      write the configuration there (atomically) instead of standard output
  --frame-prefix P       the node's frame_prefix (e.g. r1/)
  --world-frame W        the node's world_frame: the fixed frame when set
  --free-root-frame F    the node's free_root_frame: the fixed frame when set and the root is free
  --namespace NS         the node's namespace: its relative topics resolve under it
  --remap FROM:=TO       a remapping of one of the node's topics, as given to the node; repeatable
  --planning-scene       the node sends a project's static bodies to MoveIt (planning_scene_project): draw them
                         (MarkerArray on planning_scene_markers)
  --placement X,Y,Z,QX,QY,QZ,QW
                         the node's placement (the root in W): the view looks at the robot there (a free
                         root, which drives through the world: followed, from behind)
                         (--placement=-1,... when the first number is negative)
${CONVENTION_USAGE}  --package-path DIR     directory holding ROS packages (for package:// in the model); repeatable
The fixed frame is the served root link, or W, or F; displays: Grid, RobotModel (robot_description topic),
TF, and per device Image (image_raw, depth/image_raw), PointCloud2 (points), LaserScan (scan), Wrench.
`;

const FRAME = /^[A-Za-z0-9_./-]*$/;

/** Exit status: 0 written, 1 the model or the output failed, 2 bad usage. */
export async function runRviz(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseModelCommand('rviz', RVIZ_USAGE, argv, io, {
    output: { type: 'string', short: 'o' },
    'frame-prefix': { type: 'string', default: '' },
    'world-frame': { type: 'string', default: '' },
    'free-root-frame': { type: 'string', default: '' },
    namespace: { type: 'string', default: '' },
    remap: { type: 'string', multiple: true, default: [] as string[] },
    'planning-scene': { type: 'boolean', default: false },
    placement: { type: 'string' },
    ...conventionOptions,
  });
  if (typeof args === 'number') return args;
  const { values, packagePath } = args;
  const usageError = (message: string): number => {
    io.stderr(`body-bridge rviz: ${message}\n${RVIZ_USAGE}`);
    return 2;
  };
  for (const key of ['frame-prefix', 'world-frame', 'free-root-frame'] as const) {
    if (!FRAME.test(values[key])) return usageError(`--${key} ${values[key]}: may contain only letters, digits, '_', '-', '.', '/'`);
  }
  const remaps = new Map<string, string>();
  for (const r of values.remap) {
    const at = r.indexOf(':=');
    if (at <= 0 || at + 2 >= r.length) return usageError(`--remap ${r}: expected FROM:=TO`);
    remaps.set(r.slice(0, at), r.slice(at + 2));
  }
  const placement = values.placement === undefined ? undefined : values.placement.split(',').map(Number);
  if (placement && (placement.length !== 7 || !placement.every(Number.isFinite) || Math.hypot(...placement.slice(3)) < 1e-9)) {
    return usageError(`--placement ${values.placement}: expected X,Y,Z,QX,QY,QZ,QW (seven numbers, a non-zero quaternion)`);
  }
  let conventions;
  try {
    conventions = conventionsOf(values, values['world-frame']);
  } catch (e) {
    return usageError((e as Error).message);
  }
  const loaded = loadForCommand(args.file, { packagePath }, io);
  if (loaded === undefined) return 1;
  const ros = applyRosConventions(loaded, conventions);
  const freeRoot = values['free-root-frame'] !== '' && ros.model.links[0]?.joint.type === 'free' ? values['free-root-frame'] : '';
  const config = rvizConfig(ros.model, {
    framePrefix: values['frame-prefix'],
    fixedFrame: values['world-frame'] || freeRoot,
    namespace: values.namespace,
    remaps,
    planningScene: values['planning-scene'],
    placement,
  });
  for (const topic of config.undrawn) io.stderr(`body-bridge rviz: ${topic} (sensor_msgs/Imu) has no display in rviz_default_plugins; not shown\n`);
  if (values.output === undefined) {
    io.stdout(config.yaml);
    return 0;
  }
  try {
    await writeFileAtomic(values.output, config.yaml);
  } catch (e) {
    io.stderr(`body-bridge rviz: ${(e as Error).message}\n`);
    return 1;
  }
  io.stderr(`body-bridge rviz: wrote ${values.output}: fixed frame ${config.fixedFrame}, ${config.displays.length} displays\n`);
  return 0;
}

export const rvizCommand: Command = { name: 'rviz', summary: 'write the rviz2 configuration display.launch.py opens for a model', run: runRviz };
