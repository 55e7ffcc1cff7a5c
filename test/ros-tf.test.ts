// /tf and /tf_static for every corpus model Choreonoid loads, checked against Choreonoid's own forward
// kinematics (the oracle) — composed the way a TF listener composes them — and against the shared
// frame tree that `body-bridge tf` prints, device, optical and scan frames included.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jointPositions, tfJson } from '../src/cli/tf.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { deviceFrames } from '../src/kinematics/device-frames.js';
import { framePoses, frameTree, isMovingJoint } from '../src/kinematics/frames.js';
import { MessageType, type TFMessage } from '../src/messages/messages.js';
import { checkMessage } from './support/msgcheck.js';
import { modelFromOracle } from './support/oracle-devices.js';
import { corpusDir, type OracleConfiguration, oracleEntries } from './support/oracle.js';
import { at, composeTree, jointState, poseError, relative, rig } from './support/ros-rig.js';

const entries = oracleEntries().filter((e) => e.oracle.ok);

describe('TF of corpus models equals Choreonoid forward kinematics', () => {
  it('covers the corpus', () => {
    expect(entries.length).toBeGreaterThan(250);
  });

  // Every naming rule keeps Choreonoid's kinematics exactly: the default (links named like a joint
  // renamed, the root's mass on a child link) and Choreonoid's own names with the mass on the root.
  const rules = [
    { link_names: 'distinct', root_inertia: 'child' },
    { link_names: 'model', root_inertia: 'root' },
  ] as const;
  it.each(entries.flatMap((e) => rules.map((r) => [e.file, `${r.link_names}/${r.root_inertia}`, e, r] as const)))('%s (%s)', (_file, _rule, entry, rule) => {
    const loaded = modelFromOracle(entry.oracle);
    const ros = applyRosConventions(loaded, { linkNames: rule.link_names, rootInertia: rule.root_inertia });
    const model = ros.model;
    const linkFrame = (choreonoidLink: string): string => ros.renamed.get(choreonoidLink) ?? choreonoidLink;
    const frames = frameTree(model);
    // The moving joints, and the tracks' (their surfaces turn with them: docs/urdf.md).
    const jointNames = [...new Set(frames.filter((f) => f.moving).map((f) => f.link!.joint.name))];
    expect(jointNames.length).toBeGreaterThanOrEqual(new Set(model.links.filter(isMovingJoint).map((l) => l.joint.name)).size);
    const { transport } = rig(loaded, rule);

    // Static: published once at load, every non-moving edge exactly once, none of the moving ones.
    const statics = transport.messages<TFMessage>('/tf_static');
    expect(statics).toHaveLength(1);
    const staticTf = statics[0]!.transforms;
    const expectedStatic = frames.filter((f) => f.parent !== null && !f.moving).map((f) => f.name);
    expect(staticTf.map((t) => t.child_frame_id).sort()).toEqual([...expectedStatic].sort());
    for (const t of staticTf) expect(t.header.stamp).toEqual(at(1000));

    const configs = Object.entries(entry.oracle.configurations) as [string, OracleConfiguration][];
    configs.forEach(([name, config], k) => {
      const byLink = new Map(loaded.links.map((l) => [l.name, l.joint.name]));
      const qByJoint = new Map(Object.entries(config.q).map(([link, v]) => [byLink.get(link) ?? link, v]));
      const stamp = at(2000 + k);
      const before = transport.messages('/tf').length;
      transport.setTime(stamp);
      transport.inject('joint_states', jointState(stamp, jointNames, jointNames.map((j) => qByJoint.get(j) ?? 0)));
      const tfs = transport.messages<TFMessage>('/tf');
      if (jointNames.length === 0) {
        expect(tfs.length).toBe(before);
      } else {
        expect(tfs.length).toBe(before + 1);
      }
      const moving = tfs.length > before ? tfs[tfs.length - 1]!.transforms : [];
      expect(moving.map((t) => t.child_frame_id).sort()).toEqual(frames.filter((f) => f.moving).map((f) => f.name).sort());
      for (const t of moving) expect(t.header.stamp).toEqual(stamp);

      const composed = composeTree([...staticTf, ...moving], model.root);
      expect(composed.size).toBe(frames.length);

      // Against Choreonoid: every link, and every device it can name unambiguously, relative to the root.
      const rootWorld = config.link_world_poses[loaded.root]!;
      const errors: string[] = [];
      for (const [link, world] of Object.entries(config.link_world_poses)) {
        const err = poseError(composed.get(linkFrame(link))!, relative(rootWorld, world));
        if (!(err <= 1e-9)) errors.push(`${name}: link ${link} (frame ${linkFrame(link)}) off by ${err}`);
      }
      // A track's surface sits at its track link's origin, where Choreonoid has the link (its position is never integrated).
      for (const f of frames.filter((x) => x.kind === 'track')) {
        const track = loaded.links.find((l) => linkFrame(l.name) === f.parent)!;
        const err = poseError(composed.get(f.name)!, relative(rootWorld, config.link_world_poses[track.name]!));
        if (!(err <= 1e-9)) errors.push(`${name}: track surface ${f.name} off its link ${track.name} by ${err}`);
      }
      // The link carrying the root's mass sits exactly at the root's frame.
      if (ros.rootInertiaLink !== null) {
        const err = poseError(composed.get(ros.rootInertiaLink)!, relative(rootWorld, rootWorld));
        if (!(err <= 1e-9)) errors.push(`${name}: ${ros.rootInertiaLink} off the root frame by ${err}`);
      }
      const names = model.devices.map((d) => d.name);
      for (const df of deviceFrames(model)) {
        const deviceName = model.devices[df.device]!.name;
        const world = config.device_world_poses[deviceName];
        if (deviceName === '' || names.filter((n) => n === deviceName).length > 1 || !world) continue;
        const err = poseError(composed.get(df.frame)!, relative(rootWorld, world));
        if (!(err <= 1e-9)) errors.push(`${name}: device ${deviceName} off by ${err}`);
      }
      // Against the shared frame tree (what `body-bridge tf` prints), optical and scan frames included.
      const poses = framePoses(frames, qByJoint);
      for (const f of frames) {
        const err = poseError(composed.get(f.name)!, poses.get(f.name)!.root);
        if (!(err <= 1e-9)) errors.push(`${name}: frame ${f.name} differs from framePoses by ${err}`);
      }
      expect(errors).toEqual([]);
    });

    const problems = [
      ...checkMessage(MessageType.TFMessage, statics[0]),
      ...transport.messages('/tf').flatMap((m) => checkMessage(MessageType.TFMessage, m)),
    ];
    expect(problems).toEqual([]);
  });
});

describe('TF equals `body-bridge tf` on models from our own loaders', () => {
  // A few real files through loadRobotModel (both loaders, devices with optical and scan frames),
  // at reproducible pseudo-random joint values.
  const files = [
    'choreonoid/share/model/Tank/Tank.body',
    'choreonoid/share/model/SR1/SR1.body',
    'choreonoid/share/model/GR001/GR001.body',
    'openhrp3/sample/model/sample1.wrl',
    'choreonoid-legacy-wrl/share/model/SR1/SR1Hand.wrl',
  ];
  it.each(files)('%s', (file) => {
    // As `body-bridge tf` shows it: under the same (default) conventions as the node. Applying them twice changes nothing.
    const model = applyRosConventions(loadRobotModel(join(corpusDir, file), { shapes: false })).model;
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const joints = jointPositions(model, [], false);
    for (const name of joints.keys()) joints.set(name, (random() - 0.5) * 2);
    const cli = tfJson(model, joints);
    const { transport } = rig(model, { frame_prefix: 'x/' });
    transport.setTime(at(2000));
    transport.inject('joint_states', jointState(at(2000), [...joints.keys()], [...joints.values()]));
    const transforms = [...transport.last<TFMessage>('/tf_static')!.transforms, ...(transport.last<TFMessage>('/tf')?.transforms ?? [])];
    const composed = composeTree(transforms, `x/${cli.root}`);
    expect(composed.size).toBe(cli.frames.length);
    const errors: string[] = [];
    for (const f of cli.frames) {
      const ours = composed.get(`x/${f.name}`);
      const err = ours ? poseError(ours, { translation: f.root.xyz, rotation: f.root.rotation }) : Infinity;
      if (!(err <= 1e-9)) errors.push(`${f.name}: ${err}`);
    }
    expect(errors).toEqual([]);
    expect(model.devices.length + joints.size).toBeGreaterThan(0);
  });
});
