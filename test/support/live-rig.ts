// What the live suites share: a sourced ROS 2 with rclnodejs loaded (or the reason it is not), the package
// built by colcon once per run as a user would build it, processes started in their own groups and stopped
// with them, and an X display (Xvfb) with screenshots for the GUI peers (rviz2, Choreonoid).
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadRclnodejs } from '../../src/ros/rclnodejs-transport.js';
import { liveCycloneUri } from './cyclone.js';
import { projectRoot } from './oracle.js';
import { findXvfb, found, type Lookup, missing } from './peers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

const run = promisify(execFile);

const rosInstall = 'source a ROS 2 (its setup.bash), then run npm ci so that rclnodejs builds against it (docs/peers.md)';

/**
 * The sourced ROS 2 with rclnodejs loaded against it, as a peer lookup (test/support/peers.ts), which also
 * says `skip` (the reason, or null) and `rcl` (or null) for suites that read those.
 */
export async function liveRos(): Promise<(Lookup<{ rcl: Any }> & { skip: null; rcl: Any }) | (Lookup<{ rcl: Any }> & { skip: string; rcl: null })> {
  const absent = (reason: string) => ({ ...missing('ROS 2 with rclnodejs', 'ros', reason, rosInstall), skip: reason, rcl: null });
  if (!process.env.AMENT_PREFIX_PATH) return absent('AMENT_PREFIX_PATH is not set (no ROS 2 is sourced)');
  const loaded = await loadRclnodejs();
  if ('error' in loaded) return absent(loaded.error);
  return { ok: true, rcl: loaded.rcl, skip: null };
}

export interface Proc {
  child: ChildProcess;
  output(): string;
}

/** Processes started by a suite: each in a process group of its own, stopped with its children. */
export function processGroup() {
  const procs: Proc[] = [];
  const start = (cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Proc => {
    let out = '';
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true, ...(cwd ? { cwd } : {}) });
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    const p = { child, output: () => out };
    procs.push(p);
    return p;
  };
  const stop = async (p: Proc, signal: NodeJS.Signals = 'SIGINT'): Promise<void> => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return;
    const exited = new Promise((r) => p.child.once('exit', r));
    // SIGINT first: ros2 launch shuts its children down on it; SIGKILL if anything hangs.
    try {
      process.kill(-p.child.pid!, signal);
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-p.child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 15_000);
    await exited;
    clearTimeout(timer);
  };
  const stopAll = async (): Promise<void> => {
    for (const p of procs.splice(0)) await stop(p);
  };
  return { start, stop, stopAll };
}

/** Polls `poll` every `everyMs` until it returns a value; rejects after `ms` with `log()` in the message. */
export function waitFor<T>(what: string, ms: number, poll: () => T | undefined | null | false, log: () => string = () => '', everyMs = 100): Promise<T> {
  return new Promise((resolve, reject) => {
    const startAt = Date.now();
    const tick = (): void => {
      let v: T | undefined | null | false;
      try {
        v = poll();
      } catch (e) {
        return reject(e);
      }
      if (v !== undefined && v !== null && v !== false) return resolve(v);
      if (Date.now() - startAt > ms) return reject(new Error(`timed out waiting for ${what}\n${log().slice(-6000)}`));
      setTimeout(tick, everyMs);
    };
    tick();
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The package built and installed by colcon from the repository's files, as a user would clone and build
 * it, once per content: later suites (and later runs) reuse the install. Returns the workspace's
 * install/setup.bash. Suites run in parallel workers: a lock directory makes one build and the others wait.
 */
export async function installedPackage(): Promise<string> {
  const { stdout } = await run('git', ['ls-files', '-co', '--exclude-standard'], { cwd: projectRoot, maxBuffer: 64 << 20 });
  // What the package is made of: not the tests, the bench or the sweep, nor what the sweep writes into docs/ as it goes.
  const files = stdout.split('\n').filter((l) => l && existsSync(join(projectRoot, l)) && !/^(test|bench|sweep)\//.test(l) && !l.startsWith('docs/corpus-sweep.'));
  const hash = createHash('sha256');
  hash.update(process.env.AMENT_PREFIX_PATH ?? '');
  for (const f of files.sort()) hash.update(f).update(readFileSync(join(projectRoot, f)));
  const ws = join(projectRoot, 'build', `live-ws-${hash.digest('hex').slice(0, 16)}`);
  const setup = join(ws, 'install', 'setup.bash');
  const done = join(ws, 'BUILT');
  const lock = `${ws}.lock`;
  mkdirSync(join(projectRoot, 'build'), { recursive: true });
  // Another worker holding the lock builds for at most BUILD_MS; a lock older than that was left by a run that
  // was killed mid-build, and is taken over rather than waited on for ever.
  const BUILD_MS = 1_200_000;
  for (;;) {
    if (existsSync(done)) return setup;
    try {
      mkdirSync(lock);
      break;
    } catch {
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released between our two looks
      }
      if (age > BUILD_MS + 60_000) {
        rmSync(lock, { recursive: true, force: true });
        console.warn(`live rig: took over ${lock}, left ${Math.round(age / 1000)} s ago by a colcon build of body_bridge that never finished`);
        continue;
      }
      await sleep(2000);
    }
  }
  try {
    if (existsSync(done)) return setup;
    rmSync(ws, { recursive: true, force: true });
    const src = join(ws, 'src', 'body_bridge');
    for (const rel of files) {
      mkdirSync(join(src, rel, '..'), { recursive: true });
      copyFileSync(join(projectRoot, rel), join(src, rel));
    }
    const build = spawnSync('colcon', ['build', '--base-paths', 'src', '--event-handlers', 'console_direct+'], {
      cwd: ws,
      encoding: 'utf8',
      timeout: BUILD_MS,
      maxBuffer: 256 << 20,
    });
    const output = `${build.stdout}${build.stderr}`;
    if (build.error) throw new Error(`colcon build of body_bridge in ${ws} did not finish within ${BUILD_MS / 60_000} min (${build.error.message}):\n${output.slice(-6000)}`);
    if (build.status !== 0) throw new Error(`colcon build of body_bridge failed:\n${output.slice(-6000)}`);
    // CMakeLists.txt's check (scripts/check-rclnodejs.mjs): the node can reach this ROS 2.
    if (!/rclnodejs loads against ROS 2/.test(output)) throw new Error(`colcon build did not confirm rclnodejs loads:\n${output.slice(-6000)}`);
    writeFileSync(`${done}.tmp`, new Date().toISOString());
    renameSync(`${done}.tmp`, done);
    return setup;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A shell command line run with the installed package sourced over the current ROS 2. */
export const sourced = (setup: string, command: string): string[] => ['-c', `source ${setup} && exec ${command}`];

export interface XDisplay {
  display: string;
  width: number;
  height: number;
  /** The whole screen as raw RGB bytes (width × height × 3), and a PNG at `png` when given. */
  screenshot(png?: string): Buffer;
  /**
   * The same without blocking: a suite that feeds a node from its own event loop (a ground truth as it comes)
   * keeps feeding while ImageMagick takes seconds on a loaded machine; a blocked feed bursts its backlog after.
   */
  capture(png?: string): Promise<Buffer>;
  stop(): Promise<void>;
}

/** An Xvfb server on a free display number, 24-bit; GUI peers render with Mesa's software OpenGL there. */
export async function startXvfb(width = 1400, height = 1000): Promise<XDisplay> {
  const xvfb = found(findXvfb()).exe;
  const group = processGroup();
  for (let n = 90 + (process.pid % 100); ; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    const p = group.start(xvfb, [`:${n}`, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp']);
    const up = await waitFor(`Xvfb :${n}`, 10_000, () => existsSync(`/tmp/.X11-unix/X${n}`) || p.child.exitCode !== null).catch(() => false);
    if (!up || p.child.exitCode !== null) continue;
    const display = `:${n}`;
    return {
      display,
      width,
      height,
      screenshot(png?: string): Buffer {
        const raw = spawnSync('import', ['-display', display, '-window', 'root', '-depth', '8', 'rgb:-'], { maxBuffer: 64 << 20 });
        if (raw.status !== 0) throw new Error(`import failed: ${String(raw.stderr)}`);
        if (png) spawnSync('convert', ['-size', `${width}x${height}`, '-depth', '8', 'rgb:-', png], { input: raw.stdout });
        return raw.stdout;
      },
      async capture(png?: string): Promise<Buffer> {
        const raw = await piped('import', ['-display', display, '-window', 'root', '-depth', '8', 'rgb:-']);
        if (png) await piped('convert', ['-size', `${width}x${height}`, '-depth', '8', 'rgb:-', png], raw);
        return raw;
      },
      stop: () => group.stopAll(),
    };
  }
}

/** A command's whole stdout, `input` written to its stdin; rejects with its stderr when it fails. */
function piped(command: string, args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const p = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d) => (err += String(d)));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${command} exited ${code}: ${err}`))));
    p.stdin.end(input);
  });
}

/** The environment for a GUI peer on `display`: Mesa's software renderer, no X access control dance. */
export const guiEnv = (display: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  DISPLAY: display,
  LIBGL_ALWAYS_SOFTWARE: '1',
  QT_X11_NO_MITSHM: '1',
  ...extra,
});

/** Pixels (of a w × h RGB screen) in `box` that differ from `other` by more than `tolerance` in any channel. */
export function differingPixels(a: Buffer, b: Buffer, width: number, box: { x: number; y: number; w: number; h: number }, tolerance = 24): number {
  let n = 0;
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) {
      const i = (y * width + x) * 3;
      if (Math.abs(a[i]! - b[i]!) > tolerance || Math.abs(a[i + 1]! - b[i + 1]!) > tolerance || Math.abs(a[i + 2]! - b[i + 2]!) > tolerance) n++;
    }
  }
  return n;
}

/** Pixels of a colour (within `tolerance` per channel) in an RGB screen. */
export function pixelsOfColour(a: Buffer, rgb: [number, number, number], tolerance = 40): number {
  let n = 0;
  for (let i = 0; i + 2 < a.length; i += 3) {
    if (Math.abs(a[i]! - rgb[0]) <= tolerance && Math.abs(a[i + 1]! - rgb[1]) <= tolerance && Math.abs(a[i + 2]! - rgb[2]) <= tolerance) n++;
  }
  return n;
}

/** The process and all its descendants (from /proc): a launch file's nodes are children of `ros2 launch`. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** The processes still in process group `pgid` (from /proc): what processGroup().stop leaves of a group whose leader has exited. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The command line of a process ('' once it is gone). */
export const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
};

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU each group of processes used over `ms` of wall time, as a fraction of one core. */
export async function cpuOver(groups: Record<string, number[]>, ms: number): Promise<Record<string, number>> {
  const sum = (pids: number[]): number => pids.reduce((a, p) => a + cpuSeconds(p), 0);
  const before = Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, sum(pids)]));
  const t0 = Date.now();
  await sleep(ms);
  const seconds = (Date.now() - t0) / 1000;
  return Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, +((sum(pids) - before[k]!) / seconds).toFixed(4)]));
}

/**
 * A warning of body_bridge about the user's model rather than its configuration: located in the model file
 * (`file.body:L:C: warning:`, as `body-bridge check` prints it) or a nameless device, which choreonoid_ros
 * cannot publish either (its topic is the device's name). The live suites let these lines through.
 */
export const isModelWarning = (line: string): boolean =>
  /^\[body_bridge-\d+\] \[WARN\]/.test(line) && (/\.(body|wrl|yaml):\d+:\d+: warning:/.test(line) || /no input topic \(nameless device/.test(line));

/** The live suites that run ROS nodes, each given a ROS domain of its own by ownRosDomain. */
const LIVE_SUITES = ['ros-live', 'ros-live-choreonoid', 'ros-live-control', 'ros-live-moveit', 'ros-live-rviz', 'ros-live-world', 'ros-live-project', 'ros-live-shutdown', 'ros-live-faults', 'corpus-sweep', 'ros-live-mobile'] as const;

/**
 * Puts this test file's process, and every process it starts, on a ROS domain of the suite's own (and gives them
 * Cyclone's receive buffer for large messages, cyclone.ts): vitest runs
 * files side by side, and two suites on one domain would hear each other's Choreonoid /clock and /tf, and call
 * each other's move_group. It also keeps the suites off the domain of a graph the user has running. Domains
 * BODY_BRIDGE_LIVE_DOMAIN_BASE + 1… (default 60: 61–71, the corpus sweep's (sweep/) 70, clear of the default 0 and of Linux's ephemeral ports);
 * set the base apart to run two checkouts' suites at once.
 */
export function ownRosDomain(suite: (typeof LIVE_SUITES)[number]): number {
  const base = Number(process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE ?? 60);
  if (!Number.isInteger(base) || base < 0 || base + LIVE_SUITES.length > 101) {
    throw new Error(`BODY_BRIDGE_LIVE_DOMAIN_BASE=${process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE}: expected a whole number from 0 to ${101 - LIVE_SUITES.length}`);
  }
  const domain = base + 1 + LIVE_SUITES.indexOf(suite);
  process.env.ROS_DOMAIN_ID = String(domain);
  // Before rcl starts here or in any process the suite starts: large best-effort messages arrive whole (cyclone.ts).
  process.env.CYCLONEDDS_URI = liveCycloneUri(process.env.CYCLONEDDS_URI);
  return domain;
}

/**
 * rcl initialised and the suite's observer node, not yet spinning. No /rosout of its own: on Humble rcl would
 * register it twice and warn, and its log is the test's.
 */
export async function observerNode(rcl: Any, name: string, options: { alone?: boolean } = {}): Promise<Any> {
  await rcl.init(undefined, ['node', name]);
  const nodeOptions = new rcl.NodeOptions();
  nodeOptions.enableRosout = false;
  const node = new rcl.Node(`bb_${name.replace(/-/g, '_')}_${process.pid}`, '', undefined, nodeOptions);
  if (options.alone ?? true) {
    // The suite has started nothing yet: a node already on its domain is another run's, or one left from an
    // interrupted run (seen: a Choreonoid of a killed run made every node of the next run's project appear twice).
    // Discovery on loopback takes well under this; a node found later is not looked for.
    await sleep(FOREIGN_NODE_WAIT_MS);
    const foreign = (node.getNodeNamesAndNamespaces() as { name: string; namespace: string }[])
      .map((n) => `${n.namespace.replace(/\/$/, '')}/${n.name}`)
      .filter((n) => n !== `/${node.name()}` && !n.startsWith('/_'));
    if (foreign.length > 0) {
      closeObserver(rcl, node);
      throw new Error(
        `ROS domain ${process.env.ROS_DOMAIN_ID} already has nodes before the suite starts any: ${foreign.join(', ')}. ` +
          'Another run of the live suites (or a process left from one) is on it: stop it, or give one of the runs another BODY_BRIDGE_LIVE_DOMAIN_BASE',
      );
    }
  }
  return node;
}

/** How long observerNode listens for nodes already on the suite's domain (ms). */
const FOREIGN_NODE_WAIT_MS = 1500;

/** observerNode's other half, for afterAll: whatever of the two was made. */
export function closeObserver(rcl: Any, node: Any): void {
  node?.destroy();
  if (rcl && !rcl.isShutdown()) rcl.shutdown();
}
