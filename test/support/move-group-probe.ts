// test/peers/moveit_world_probe.py, run as the live suites run it: one JSON request on its stdin, one JSON answer on
// its stdout, move_group's own services and action behind it. Started with the installed package's setup sourced.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Vec3 } from '../../src/model/types.js';
import { type Any, sourced } from './live-rig.js';
import { projectRoot } from './oracle.js';
import { rosPython } from './peers.js';

/** The probe's answer to a `scene` step. */
export interface SceneAnswer {
  robot: string;
  objects: { id: string; frame: string; pose: number[] }[];
  allowed: [string, string][];
  virtual: { joint: string; parent: string; translation: Vec3; rotation: [number, number, number, number] } | null;
}

/** The probe's answer to a `joint` or `pose` step (wall times in s). */
export interface PlanAnswer {
  error_code: number;
  planning_time: number;
  joint_names: string[];
  points: { t: number; p: number[] }[];
  sent: number;
  done: number;
}

/** MoveIt's MoveItErrorCodes SUCCESS. */
export const MOVEIT_SUCCESS = 1;

/** A probe started on `request`: its exit code once it ends, what it printed so far, and a way to stop it. */
export function startMoveGroupProbe(setup: string, request: unknown): { ended: Promise<number | null>; out: () => string; err: () => string; kill: () => void } {
  const p = spawn('bash', sourced(setup, `${rosPython()} ${join(projectRoot, 'test/peers/moveit_world_probe.py')}`), { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => (out += String(d)));
  p.stderr.on('data', (d) => (err += String(d)));
  const ended = new Promise<number | null>((r) => p.once('exit', (code) => r(code)));
  p.stdin.end(JSON.stringify(request));
  return { ended, out: () => out, err: () => err, kill: () => p.kill('SIGKILL') };
}

/** The probe's answer to `request`; rejects with its stderr and the end of `log` when it fails or outlasts `ms`. */
export async function askMoveGroup(setup: string, request: unknown, log: () => string, ms = 900_000): Promise<{ steps: Any[] }> {
  const probe = startMoveGroupProbe(setup, request);
  const timer = setTimeout(probe.kill, ms);
  const code = await probe.ended;
  clearTimeout(timer);
  if (code === 0) return JSON.parse(probe.out()) as { steps: Any[] };
  throw new Error(`moveit_world_probe.py exited ${code}:\n${probe.err().slice(-4000)}\nlaunch log:\n${log().slice(-4000)}`);
}
