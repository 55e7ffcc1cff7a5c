// What the node would do, shown without ROS 2: the very same bridge runs on the in-memory transport for
// a moment of simulated time, and the report lists the topics (types, QoS), the frames (static or
// moving) and a summary of the URDF it would publish.
import { readTfMessage } from '../cdr/tf-message.js';
import { statSync } from 'node:fs';
import { loadRobotModel } from '../load.js';
import { type RobotPublisher, startRobotPublisher, Topics } from './robot-publisher.js';
import { describeModel } from './description.js';
import { createMemoryTransport, type MemoryTransport } from './memory-transport.js';
import type { StringMsg, TFMessage } from '../messages/messages.js';
import type { NodeParams } from './params.js';
import type { QoS } from './transport.js';

export const fileSignature = (file: string): string | null => {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return null;
  }
};

export type StartupMode = { mode: 'ros' } | { mode: 'dry-run'; why: string } | { mode: 'error'; message: string };

/**
 * How the node starts: on ROS 2 when it is sourced and rclnodejs loads; as a dry run where ROS 2 is not
 * sourced or one is asked for (--dry-run); and with an error where ROS 2 is sourced but rclnodejs cannot be
 * loaded, since a dry run there would look like a node that ran.
 */
export function startupMode(s: { rosUnavailable: string | null; rclnodejsError: string | null; dryRunAsked: boolean }): StartupMode {
  if (s.dryRunAsked) return { mode: 'dry-run', why: s.rosUnavailable ?? 'a dry run was asked for (--dry-run)' };
  if (s.rosUnavailable !== null) return { mode: 'dry-run', why: s.rosUnavailable };
  if (s.rclnodejsError === null) return { mode: 'ros' };
  return {
    mode: 'error',
    message:
      `body_bridge: ROS 2 is sourced, but ${s.rclnodejsError}.\n` +
      'rclnodejs compiles its native module against the ROS 2 that is sourced while it installs: rebuild body_bridge with ' +
      'ROS 2 sourced (colcon build --packages-select body_bridge, or npm ci in a source checkout) and read rclnodejs\'s ' +
      'build output there (docs/ros.md, "Install with colcon").\n' +
      'To see what the node would publish without ROS 2, run it with --dry-run.',
  };
}

const qosText = (q: QoS): string => `${q.reliability}, ${q.durability}, depth ${q.depth}`;

function urdfSummary(xml: string): string {
  const count = (re: RegExp): number => (xml.match(re) ?? []).length;
  const types = new Map<string, number>();
  for (const m of xml.matchAll(/<joint\b[^>]*\btype="([^"]+)"/g)) types.set(m[1]!, (types.get(m[1]!) ?? 0) + 1);
  const jointText = [...types].map(([t, n]) => `${n} ${t}`).join(', ');
  return (
    `${count(/<link\b/g)} links, ${count(/<joint\b/g)} joints (${jointText || 'none'}), ` +
    `${count(/<visual\b/g)} visuals, ${count(/<collision\b/g)} collisions, ${count(/<mesh\b/g)} mesh references, ${xml.length} bytes`
  );
}

export interface DryRunReport {
  ok: boolean;
  text: string;
}

/** Runs the bridge for `simulatedMs` of manual time on `params` and reports what it published. */
export function dryRun(params: Partial<NodeParams>, why: string, simulatedMs = 500): DryRunReport {
  const transport: MemoryTransport = createMemoryTransport();
  const bridge: RobotPublisher = startRobotPublisher(
    // Nothing is written: the URDF's mesh files are only named.
    { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p, process.env, false), fileSignature },
    { ...params, watch_body_file: false },
  );
  transport.advance(simulatedMs);
  bridge.stop();

  const lines: string[] = [];
  lines.push(`body_bridge dry run: ${why}.`);
  lines.push('Nothing was published to ROS; this is what the node would publish (simulated in memory).');
  lines.push('');
  const served = bridge.served();
  const errors = transport.logs.filter((l) => l.level === 'error');
  if (!served) {
    lines.push(`No model could be served from ${params.body_file ?? '(no body_file)'}:`);
    for (const e of errors) lines.push(`  ${e.message.replace(/\n/g, '\n  ')}`);
    return { ok: false, text: lines.join('\n') };
  }
  const p = bridge.params();
  const { model } = served;
  lines.push(`Model: ${model.name} (${model.format}) from ${served.file}`);
  lines.push(`  ${model.links.length} links, root ${model.root}, ${model.devices.length} devices, ${model.warnings.length} loader warnings`);
  lines.push('');
  lines.push('Parameters:');
  for (const [k, v] of Object.entries(p)) lines.push(`  ${k} = ${JSON.stringify(v)}`);
  lines.push('');
  lines.push('Topics:');
  const seen = new Set<string>();
  const topics = transport.topics().filter((t) => {
    const key = `${t.direction}:${t.topic}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const topicWidth = Math.max(...topics.map((t) => t.topic.length));
  const typeWidth = Math.max(...topics.map((t) => t.type.length));
  for (const t of topics) {
    const count = transport.messages(t.topic).length;
    const dir = t.direction === 'publish' ? 'publishes ' : 'subscribes';
    const sent = t.direction === 'publish' ? `  (${count} message${count === 1 ? '' : 's'} in ${simulatedMs} ms)` : '';
    lines.push(`  ${dir} ${t.topic.padEnd(topicWidth)}  ${t.type.padEnd(typeWidth)}  ${qosText(t.qos)}${sent}`);
  }
  lines.push('');
  // /tf and /tf_static go out as CDR bytes, read back here as a subscriber would.
  const lastTf = (topic: string): TFMessage | undefined => {
    const bytes = transport.last<Uint8Array>(topic);
    return bytes ? readTfMessage(bytes) : undefined;
  };
  const staticMsg = lastTf(Topics.tfStatic);
  const movingMsg = lastTf(Topics.tf);
  const moving = new Set((movingMsg?.transforms ?? []).map((t) => t.child_frame_id));
  lines.push(
    `Frames: ${
      served.frames.length +
      (p.world_frame && staticMsg?.transforms.some((t) => t.header.frame_id === p.frame_prefix + p.world_frame) ? 1 : 0) +
      (p.placement_frame && staticMsg?.transforms.some((t) => t.header.frame_id === p.placement_frame) ? 1 : 0)
    }` +
      ` (${staticMsg?.transforms.length ?? 0} on /tf_static, ${served.byJoint.size} moving joints on /tf)`,
  );
  for (const t of staticMsg?.transforms ?? []) lines.push(`  static  ${t.header.frame_id} -> ${t.child_frame_id}`);
  for (const f of served.frames) {
    if (!f.moving || !f.link) continue;
    const mark = moving.has(p.frame_prefix + f.name) ? '' : '  (not yet published)';
    lines.push(`  moving  ${p.frame_prefix}${f.parent} -> ${p.frame_prefix}${f.name}  [${f.kind === 'track' ? 'track' : f.link.joint.type} joint ${f.link.joint.name}]${mark}`);
  }
  lines.push('');
  const description = transport.last<StringMsg>(Topics.robotDescription);
  lines.push(`URDF (robot_description): ${description ? urdfSummary(description.data) : 'not published'}`);
  for (const w of served.description.warnings) lines.push(`  warning: ${w.message}`);
  const warnings = transport.logs.filter((l) => l.level === 'warn');
  if (warnings.length > 0) {
    lines.push('');
    lines.push('Warnings the node would log:');
    for (const w of warnings) lines.push(`  ${w.message}`);
  }
  return { ok: true, text: lines.join('\n') };
}
