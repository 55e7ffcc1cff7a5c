// What bench/live.ts and bench/live-sim.ts share: the processes they start and stop, and what /proc says of
// them (CPU seconds, per thread, page faults), the machine's load, and Cyclone's settings for large messages.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { RECEIVE_BUFFER, withCycloneSettings } from '../test/support/cyclone.js';

const TICKS_PER_SECOND = 100; // /proc/<pid>/stat's clock ticks (USER_HZ) on Linux


/**
 * With LIVE_LARGE_FRAGMENTS=1: UDP datagrams of up to 64 kB instead of Cyclone's 1344-byte fragments in
 * 14720-byte messages, so a 5 MB cloud is ~80 sends instead of ~3,700 (loopback's MTU is 64 kB).
 */
export const LARGE_FRAGMENTS = '<General><MaxMessageSize>65500B</MaxMessageSize><FragmentSize>65000B</FragmentSize></General>';

export function cycloneUri(): string {
  // LIVE_DEFAULT_RECEIVE_BUFFER=1 leaves the socket buffer at the kernel's default, to see what it loses.
  const add = (process.env.LIVE_DEFAULT_RECEIVE_BUFFER === '1' ? '' : RECEIVE_BUFFER) + (process.env.LIVE_LARGE_FRAGMENTS === '1' ? LARGE_FRAGMENTS : '');
  return withCycloneSettings(process.env.CYCLONEDDS_URI, add);
}

export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Page faults (minor + major) of the whole process: an rclnodejs relay's cost on this machine was mostly the
 * kernel faulting in fresh pages for each message's megabytes (src/ros/malloc-tunables.ts).
 */
export function pageFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[7]) + Number(fields[9]);
}

/** CPU seconds per thread name (/proc/<pid>/task/<tid>/comm), to tell the JavaScript thread from DDS's and rclnodejs's. */
export function threadCpuSeconds(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

export const threadDelta = (after: Record<string, number>, before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, Math.round((v - (before[k] ?? 0)) * 100) / 100]).filter(([, v]) => (v as number) > 0));

/** /proc/loadavg's three averages: the figures are only comparable within one run, and this says how busy the machine was. */
export const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface Proc {
  child: ChildProcess;
  output: () => string;
}

export function start(cmd: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  let out = '';
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  child.stdout!.on('data', (d) => (out = (out + String(d)).slice(-20000)));
  child.stderr!.on('data', (d) => (out = (out + String(d)).slice(-20000)));
  return { child, output: () => out };
}

export async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGINT');
  const timeout = setTimeout(() => p.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timeout);
}

export async function waitFor<T>(what: string, ms: number, poll: () => T | undefined, log: () => string): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = poll();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}\n${log()}`);
    await sleep(50);
  }
}

