// Hostile scenarios for the running node, run in a child process by test/hostile-node.test.ts
// (compiled with src/ by test/support/contract.ts) so that a hang is killed by a timeout and heap use
// can be measured after forced GC (--expose-gc). The real loader, URDF writer and bridge run over the
// in-memory transport with manual time. Each scenario prints one JSON report on stdout; the test
// makes the assertions.
//
//   node --expose-gc node-scenarios.js <scenario> <work dir> <body file>
import { mkdirSync, rmSync, unlinkSync, writeFileSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadRobotModel } from '../../src/load.js';
import { startRobotPublisher, type RobotPublisher } from '../../src/ros/robot-publisher.js';
import { describeModel } from '../../src/ros/description.js';
import { fileSignature } from '../../src/ros/dry-run.js';
import { createMemoryTransport, type MemoryTransport } from '../../src/ros/memory-transport.js';
import { peerCodec, peerEncode } from '../support/cdr-peer.js';
import { type JointState, MessageType, type StringMsg, type TFMessage, type Time } from '../../src/messages/messages.js';
import type { NodeParams } from '../../src/ros/params.js';

type Report = Record<string, unknown>;

const [scenario = '', workDir = '', bodyFile = ''] = process.argv.slice(2);

function gcHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

function start(transport: MemoryTransport, params: Partial<NodeParams>): RobotPublisher {
  return startRobotPublisher(
    { transport, loadModel: (f) => loadRobotModel(f), describe: (m, p) => describeModel(m, p), fileSignature },
    { publish_frequency: 20, publish_joint_states: false, watch_body_file: false, mesh_dir: join(workDir, 'meshes'), ...params },
  );
}

const jointState = (stamp: Time, name: string[], position: number[]): JointState => ({
  header: { stamp, frame_id: '' },
  name,
  position,
  velocity: [],
  effort: [],
});

/** Injects a good ARM position and reports whether /tf carried it (rotation about +Z by q). */
function tfFollows(t: MemoryTransport, q: number): boolean {
  t.advance(100);
  const before = t.messages<TFMessage>('/tf').length;
  t.inject('joint_states', jointState(t.now(), ['ARM'], [q]));
  const after = t.messages<TFMessage>('/tf');
  if (after.length !== before + 1) return false;
  // The link ARM moved by the joint ARM: published as ARM_link (a link named like a joint is renamed by default).
  const arm = after[after.length - 1]?.transforms.find((x) => x.child_frame_id === 'ARM_link');
  if (!arm) return false;
  const r = arm.transform.rotation;
  return Math.abs(Math.abs(r.z) - Math.abs(Math.sin(q / 2))) < 1e-9 && Math.abs(Math.abs(r.w) - Math.abs(Math.cos(q / 2))) < 1e-9;
}

const allTfFinite = (t: MemoryTransport): boolean =>
  t.messages<TFMessage>('/tf').every((m) =>
    m.transforms.every((x) => [x.transform.translation.x, x.transform.translation.y, x.transform.translation.z, x.transform.rotation.x, x.transform.rotation.y, x.transform.rotation.z, x.transform.rotation.w].every(Number.isFinite)),
  );

const logsMatching = (t: MemoryTransport, re: RegExp): number => t.logs.filter((l) => re.test(l.message)).length;

/** Runs `body` and records an escaped exception instead of dying. */
function attempt(body: () => void): string | null {
  try {
    body();
    return null;
  } catch (e) {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
}

function jointStates(): Report {
  // Every step gets a fresh node, so that one problem cannot hide or cause another.
  const fresh = (): { t: MemoryTransport; bridge: RobotPublisher } => {
    const t = createMemoryTransport({ codec: peerCodec });
    return { t, bridge: start(t, { body_file: bodyFile }) };
  };
  const first = fresh();
  const report: Report = { served: first.bridge.served() !== null, baseline: tfFollows(first.t, 0.1) };
  first.bridge.stop();
  const steps: Record<string, { threw: string | null; tfFollows: boolean; logs: number; cpuMs: number }> = {};
  const step = (name: string, q: number, logPattern: RegExp, body: (t: MemoryTransport) => void): void => {
    const { t, bridge } = fresh();
    tfFollows(t, 0.05);
    t.clear();
    const c0 = cpuMs();
    const threw = attempt(() => body(t));
    const used = cpuMs() - c0;
    const logs = logsMatching(t, logPattern);
    steps[name] = { threw, tfFollows: tfFollows(t, q), logs, cpuMs: used };
    if (!allTfFinite(t)) report.allTfFinite = false;
    bridge.stop();
  };
  report.allTfFinite = true;

  // 1000 messages naming an unknown joint within one second: one warning.
  step('unknownNames', 0.11, /ghost/, (t) => {
    for (let i = 0; i < 1000; i++) {
      t.advance(1);
      t.inject('joint_states', jointState(t.now(), ['ghost', 'ARM'], [1, 0.3]));
    }
  });
  step('nan', 0.12, /NaN|finite/i, (t) => {
    for (let i = 0; i < 100; i++) {
      t.advance(1);
      t.inject('joint_states', jointState(t.now(), ['ARM'], [Number.NaN]));
    }
  });
  step('infinity', 0.13, /Infinity|finite/i, (t) => {
    for (let i = 0; i < 100; i++) {
      t.advance(1);
      t.inject('joint_states', jointState(t.now(), ['ARM', 'HAND'], [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]));
    }
  });
  step('lengthMismatch', 0.14, /names but|position/i, (t) => {
    for (let i = 0; i < 100; i++) {
      t.advance(1);
      t.inject('joint_states', jointState(t.now(), ['ARM', 'HAND'], [0.5]));
    }
  });
  step('hugeArrays', 0.15, /./, (t) => {
    const n = 1_000_000;
    t.inject('joint_states', jointState(t.now(), Array.from({ length: n }, () => 'ARM'), Array.from({ length: n }, (_, i) => i * 1e-6)));
  });
  step('manyUnknownNamesInOneMessage', 0.16, /ghost_/, (t) => {
    const n = 100_000;
    t.advance(100);
    t.inject('joint_states', jointState(t.now(), Array.from({ length: n }, (_, i) => `ghost_${i}`), new Array<number>(n).fill(0)));
  });
  step('megabyteName', 0.165, /./, (t) => {
    t.advance(100);
    t.inject('joint_states', jointState(t.now(), ['x'.repeat(1_000_000), 'ARM'], [0, 0.3]));
    report.longestLogLine = Math.max(0, ...t.logs.map((l) => l.message.length));
  });
  step('stampFarFuture', 0.17, /./, (t) => {
    t.inject('joint_states', jointState({ sec: 2_147_483_647, nanosec: 999_999_999 }, ['ARM', 'HAND'], [0.9, 0.05]));
  });
  step('stampFarPast', 0.18, /./, (t) => {
    t.inject('joint_states', jointState({ sec: 0, nanosec: 0 }, ['ARM', 'HAND'], [0.9, 0.05]));
  });
  step('stampNegative', 0.19, /./, (t) => {
    t.inject('joint_states', jointState({ sec: -2_147_483_648, nanosec: 0 }, ['ARM'], [0.9]));
  });
  step('nanosecOutOfRange', 0.2, /./, (t) => {
    t.inject('joint_states', jointState({ sec: t.now().sec, nanosec: 4_294_967_295 }, ['ARM'], [0.9]));
  });
  // joint_states arrive as CDR bytes: cut short, claiming a billion names, in an encapsulation ROS does not
  // use, or no message at all.
  step('malformedBytes', 0.21, /malformed/i, (t) => {
    const good = peerEncode(MessageType.JointState, jointState(t.now(), ['ARM'], [0.9]));
    const billion = good.slice();
    new DataView(billion.buffer).setUint32(20, 1e9, true); // the names count, after the stamp and an empty frame_id
    const plCdr = good.slice();
    plCdr[1] = 3;
    for (const bytes of [new Uint8Array(0), Uint8Array.of(0, 1), good.subarray(0, 20), good.subarray(0, good.length - 4), billion, plCdr, new Uint8Array(64).fill(0xff)]) {
      t.inject('joint_states', bytes);
    }
  });

  // A 10 kHz flood for 5 simulated seconds: /tf at publish_frequency (20 Hz), not 10 kHz.
  const { t, bridge } = fresh();
  t.clear();
  const c0 = cpuMs();
  const floodThrew = attempt(() => {
    for (let i = 0; i < 50_000; i++) {
      t.advance(0.1);
      t.inject('joint_states', jointState(t.now(), ['ARM', 'HAND'], [Math.sin(i * 1e-3), 0.01]));
    }
  });
  report.flood = {
    threw: floodThrew,
    tf: t.messages<TFMessage>('/tf').length,
    cpuMs: cpuMs() - c0,
    warnings: t.logs.filter((l) => l.level === 'warn' || l.level === 'error').length,
  };
  report.steps = steps;
  bridge.stop();
  return report;
}

/** Heap growth (after forced GC) across a long stream of hostile joint_states. */
function memory(kind: 'mixed' | 'uniqueUnknown'): Report {
  const t = createMemoryTransport({ codec: peerCodec });
  const bridge = start(t, { body_file: bodyFile });
  const send = (i: number): void => {
    t.advance(0.5);
    const now = t.now();
    if (kind === 'uniqueUnknown') t.inject('joint_states', jointState(now, [`ghost_${i}`, 'ARM'], [0, 0.1]));
    else if (i % 3 === 0) t.inject('joint_states', jointState(now, ['ghost', 'ARM'], [Number.NaN, 0.1]));
    else if (i % 3 === 1) t.inject('joint_states', jointState(now, ['ARM', 'HAND'], [0.1]));
    else t.inject('joint_states', jointState(now, ['ARM', 'HAND'], [Math.sin(i), 0.02]));
    // The memory transport records everything published; the node is what is measured, not the recorder.
    if (i % 1000 === 999) t.clear();
  };
  for (let i = 0; i < 20_000; i++) send(i);
  t.clear();
  const heap0 = gcHeap();
  for (let i = 20_000; i < 220_000; i++) send(i);
  t.clear();
  const heap1 = gcHeap();
  const follows = tfFollows(t, 0.3);
  bridge.stop();
  return { heap0, heap1, growth: heap1 - heap0, tfFollows: follows };
}

function reload(): Report {
  const good = readFileSync(bodyFile, 'utf8');
  const variant = (i: number): string => good.replace('joint_range: [ -90, 90 ]', `joint_range: [ -90, ${80 + (i % 10)} ]`);
  const broken = `${good}\n  - { name: BROKEN, parent: [ \n`;
  const t = createMemoryTransport({ codec: peerCodec });
  const bridge = start(t, { body_file: bodyFile, watch_body_file: true, watch_period: 0.1 });
  const first = bridge.served();
  const descriptions = (): number => t.messages<StringMsg>('robot_description').length;
  const report: Report = { servedAtStart: first !== null, descriptionsAtStart: descriptions() };
  const errorLogs = (): number => t.logs.filter((l) => l.level === 'error').length;

  writeFileSync(bodyFile, broken);
  t.advance(300);
  report.broken = {
    stillServingSame: bridge.served() === first,
    errors: errorLogs(),
    located: t.logs.some((l) => l.level === 'error' && /robot\.body:\d+:\d+/.test(l.message)),
    tfFollows: tfFollows(t, 0.1),
  };
  t.advance(10_000);
  report.brokenFor10s = { errors: errorLogs(), tfFollows: tfFollows(t, 0.11) };

  writeFileSync(bodyFile, variant(1));
  t.advance(300);
  report.restored = { newModel: bridge.served() !== first, descriptions: descriptions(), tfFollows: tfFollows(t, 0.12) };

  t.clear();
  const beforeMissing = bridge.served();
  unlinkSync(bodyFile);
  t.advance(1000);
  report.missing = { stillServing: bridge.served() === beforeMissing, errors: errorLogs(), tfFollows: tfFollows(t, 0.13) };

  t.clear();
  mkdirSync(bodyFile);
  t.advance(300);
  report.directory = { stillServing: bridge.served() === beforeMissing, errors: errorLogs(), tfFollows: tfFollows(t, 0.14) };
  rmSync(bodyFile, { recursive: true });
  writeFileSync(bodyFile, variant(2));
  t.advance(300);
  report.afterDirectory = { reloaded: bridge.served() !== beforeMissing, tfFollows: tfFollows(t, 0.15) };

  // Back and forth quickly: broken and good every 100 ms, forty times.
  t.clear();
  let threw: string | null = null;
  let lostModel = false;
  let tfLost = 0;
  for (let i = 0; i < 40 && !threw; i++) {
    threw = attempt(() => {
      writeFileSync(bodyFile, broken);
      t.advance(100);
      if (!bridge.served()) lostModel = true;
      writeFileSync(bodyFile, variant(i + 3));
      t.advance(100);
      if (!tfFollows(t, 0.2 + i * 0.01)) tfLost++;
    });
  }
  t.advance(300);
  report.backAndForth = {
    threw,
    lostModel,
    tfLost,
    errors: errorLogs(),
    finalIsLastGood: Math.abs((bridge.served()?.model.links[1]?.joint.upper ?? 0) - (82 * Math.PI) / 180) < 1e-12,
  };

  // Parameter changes to bad files are refused with a reason; the served model stays.
  const serving = bridge.served();
  const missingPath = join(workDir, 'no-such.body');
  const dirPath = join(workDir, 'a-directory.body');
  mkdirSync(dirPath, { recursive: true });
  const brokenPath = join(workDir, 'broken.body');
  writeFileSync(brokenPath, broken);
  const results: Record<string, { successful: boolean; reason: string; stillServing: boolean }> = {};
  for (const [name, path] of [['missing', missingPath], ['directory', dirPath], ['broken', brokenPath]] as const) {
    const r = attempt(() => {
      const res = bridge.setParams({ body_file: path });
      results[name] = { ...res, stillServing: bridge.served() === serving };
    });
    if (r) results[name] = { successful: false, reason: `threw ${r}`, stillServing: false };
  }
  report.setParams = results;
  report.paramsKept = bridge.params().body_file === bodyFile;

  // Heap growth over 100 broken → good reload cycles.
  writeFileSync(bodyFile, good);
  t.advance(300);
  const cycle = (i: number): void => {
    writeFileSync(bodyFile, broken);
    t.advance(150);
    writeFileSync(bodyFile, variant(i));
    t.advance(150);
    t.clear();
  };
  for (let i = 0; i < 20; i++) cycle(i);
  const heap0 = gcHeap();
  for (let i = 0; i < 100; i++) cycle(i);
  const heap1 = gcHeap();
  report.reloadMemory = { heap0, heap1, growth: heap1 - heap0 };
  const meshFiles = readdirSync(join(workDir, 'meshes'));
  report.meshDir = { files: meshFiles.length, tempLeft: meshFiles.filter((f) => f.startsWith('.') || f.endsWith('.tmp')) };
  bridge.stop();
  return report;
}

function meshDir(): Report {
  const aFile = join(workDir, 'a-file');
  writeFileSync(aFile, 'not a directory');
  const bad = join(aFile, 'meshes');
  const good = join(workDir, 'good-meshes');
  const report: Report = {};

  // A: the node starts with an unwritable mesh_dir, then gets a writable one.
  {
    const t = createMemoryTransport({ codec: peerCodec });
    let bridge: RobotPublisher | null = null;
    report.startThrew = attempt(() => {
      bridge = start(t, { body_file: bodyFile, mesh_dir: bad });
    });
    const b = bridge as RobotPublisher | null;
    if (!b) return report;
    report.servedWithBadDir = b.served() !== null;
    report.errorNamesDir = t.logs.some((l) => l.level === 'error' && l.message.includes(aFile));
    report.injectThrew = attempt(() => t.inject('joint_states', jointState(t.now(), ['ARM'], [0.1])));
    const toGood = b.setParams({ mesh_dir: good });
    report.toGood = { ...toGood, served: b.served() !== null, descriptions: t.messages<StringMsg>('robot_description').length, tfFollows: tfFollows(t, 0.2) };
    const goodFiles = existsSync(good) ? readdirSync(good) : [];
    report.goodDir = { files: goodFiles.length, tempLeft: goodFiles.filter((f) => f.startsWith('.') || f.endsWith('.tmp')) };
    b.stop();
  }

  // B: the node serves with a writable mesh_dir, then is told to use the unwritable one.
  {
    const t = createMemoryTransport({ codec: peerCodec });
    const b = start(t, { body_file: bodyFile, mesh_dir: good });
    const served = b.served();
    const descriptionsBefore = t.messages<StringMsg>('robot_description').length;
    const toBad = b.setParams({ mesh_dir: bad });
    report.toBad = {
      ...toBad,
      servedBefore: served !== null,
      stillServing: served !== null && b.served() === served,
      descriptionsUnchanged: t.messages<StringMsg>('robot_description').length === descriptionsBefore,
      meshDirKept: b.params().mesh_dir === good,
      tfFollows: tfFollows(t, 0.25),
    };
    b.stop();
  }
  return report;
}

const scenarios: Record<string, () => Report> = {
  jointStates,
  memoryMixed: () => memory('mixed'),
  memoryUniqueUnknown: () => memory('uniqueUnknown'),
  reload,
  meshDir,
};

const run = scenarios[scenario];
if (!run) {
  console.error(`unknown scenario ${scenario}`);
  process.exit(2);
}
// Node's logs go to the memory transport; stdout carries only the report.
process.stdout.write(`${JSON.stringify(run())}\n`);
