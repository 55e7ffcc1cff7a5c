// The code under measurement, resolved at run time: the bench must still run, and say why, when a
// piece of body_bridge is missing or broken (that measurement then reports "not available: <reason>").
import type { RobotModel } from '../src/model/types.js';
import type { TFMessage, Time } from '../src/messages/messages.js';
import type { TfDriver } from './tf.js';

export type Resolved<T> = { ok: true; value: T } | { ok: false; reason: string };

export const unavailable = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

async function attempt<T>(what: string, load: () => Promise<T>): Promise<Resolved<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    return unavailable(`${what}: ${reasonOf(error)}`);
  }
}

export type LoadModel = (file: string) => RobotModel;

/** URDF text and the generated mesh files, as the node produces them (in memory, nothing written). */
export type ConvertToUrdf = (model: RobotModel) => { xml: string; meshCount: number; meshBytes: number };

/** A bridge over the in-memory transport, fed by `send`, for a model loaded by `loadModel(file)`. */
export type StartRobotPublisher = (file: string, loadModel: LoadModel, toUrdf: ConvertToUrdf) => TfDriver & { model: RobotModel };

export interface Subjects {
  loadRobotModel: Resolved<LoadModel>;
  toUrdf: Resolved<ConvertToUrdf>;
  startRobotPublisher: Resolved<StartRobotPublisher>;
}

export async function resolveSubjects(meshDir: string): Promise<Subjects> {
  const loadRobotModel = await attempt('src/load.ts loadRobotModel', async () => {
    const m = await import('../src/load.js');
    const load = m.loadRobotModel;
    return ((file: string) => load(file)) satisfies LoadModel;
  });

  const toUrdf = await attempt('src/urdf toUrdf', async () => {
    const { toUrdf: convert } = await import('../src/urdf/index.js');
    return ((model: RobotModel) => {
      const out = convert(model, { meshDir });
      return { xml: out.xml, meshCount: out.meshes.length, meshBytes: out.meshes.reduce((n, f) => n + f.data.byteLength, 0) };
    }) satisfies ConvertToUrdf;
  });

  const startRobotPublisher = await attempt('src/ros robot publisher over the memory transport', async () => {
    const ros = await import('../src/ros/robot-publisher.js');
    const mem = await import('../src/ros/memory-transport.js');
    const readTf = (await import('../src/cdr/tf-message.js')).readTfMessage;
    return ((file: string, loadModel: LoadModel, urdf: ConvertToUrdf) => {
      // The publications are only read back after timing: no copy of each one on the way.
      const transport = mem.createMemoryTransport({ copyRaw: false });
      let model: RobotModel | undefined;
      const bridge = ros.startRobotPublisher(
        {
          transport,
          loadModel: (f) => (model = loadModel(f)),
          describe: (m) => ({ xml: urdf(m).xml, warnings: [] }),
        },
        // No initial-position publisher and no file watching: only the joint_states path runs. Choreonoid's link
        // names and the root's mass on the root, so frames match the peer's URDF of the same model (the per-message
        // work does not depend on the names).
        { body_file: file, publish_joint_states: false, watch_body_file: false, link_names: 'model', root_inertia: 'root' },
      );
      if (!model || !bridge.served()) {
        const why = transport.logs.filter((l) => l.level === 'error').map((l) => l.message)[0];
        bridge.stop();
        throw new Error(`the bridge did not load ${file}: ${why ?? 'no reason logged'}`);
      }
      transport.clear();
      const served = model;
      return {
        model: served,
        send: (bytes: Uint8Array, stamp: Time) => {
          // The node's clock follows the stamps, as with a live publisher or use_sim_time: the bridge
          // drops stamps too far ahead of its clock and resets its cache when they jump back.
          transport.setTime(stamp);
          transport.inject(ros.Topics.jointStates, bytes);
        },
        drain: (): TFMessage[] => {
          // /tf goes out as CDR: read back after the timed loop, for the comparison with KDL.
          const out = transport.published.filter((p) => p.topic === ros.Topics.tf).map((p) => readTf(p.bytes!));
          transport.clear();
          return out;
        },
        stop: () => bridge.stop(),
      };
    }) satisfies StartRobotPublisher;
  });

  return { loadRobotModel, toUrdf, startRobotPublisher };
}
