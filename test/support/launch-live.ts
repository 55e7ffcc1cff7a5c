// What the live suites that stop, kill and restart launches share (ros-live-shutdown, ros-live-faults): processes
// seen by pid and start time, the graph's other nodes, the "process has died" lines of ros2 launch, and a simulated
// arm set moving by its joint_trajectory_controller.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { expect } from 'vitest';
import { type Any, commandLine, type Proc, processTree, waitFor } from './live-rig.js';

/**
 * What of body_bridge's a launch left in its temporary folder (TMPDIR): its generated files are named body_bridge*
 * and go as `ros2 launch` exits; launch_ros's own launch_params_* files stay (launch_ros does not delete them).
 */
export const ourFilesIn = (tmp: string): string[] => readdirSync(tmp).filter((f) => f.startsWith('body_bridge'));

/** A process as seen at one moment: pid, name and start time (so a reused pid is not taken for it). */
export interface Seen {
  pid: number;
  name: string;
  start: string;
}

const statFields = (pid: number): string[] | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return [stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ...stat.slice(stat.lastIndexOf(')') + 2).split(' ')];
  } catch {
    return null;
  }
};

export const seen = (pid: number): Seen | null => {
  const f = statFields(pid);
  // Fields after the name: state is the 1st, starttime the 20th (stat(5) field 22).
  return f ? { pid, name: f[0]!, start: f[20]! } : null;
};

/** Still there: the same process (same start time), and not a zombie waiting for its parent. */
export const alive = (s: Seen): boolean => {
  const f = statFields(s.pid);
  return f !== null && f[20] === s.start && f[1] !== 'Z';
};

/** "[name-N]: process has died [pid P, exit code C, ..." lines of ros2 launch. */
export const deathsIn = (log: string): { process: string; code: number }[] =>
  [...log.matchAll(/\[ERROR\] \[([^\]]+)\]: process has died \[pid \d+, exit code (-?\d+)/g)].map((m) => ({ process: m[1]!, code: Number(m[2]) }));

/** Nodes on the domain other than the observer. */
export const otherNodes = (observer: Any): string[] =>
  (observer.getNodeNamesAndNamespaces() as { name: string; namespace: string }[])
    .map((n) => `${n.namespace.replace(/\/$/, '')}/${n.name}`)
    .filter((n) => n !== `/${observer.name()}` && !n.startsWith('/_'));

/**
 * A 4 s goal, 0.3 rad from where the arm stands, to the first joint_trajectory_controller of simulation.launch.py's
 * ros2_controllers.yaml (in the launch's temporary folder `tmp`; the arm's: groups come arms first), on the
 * controller's joint_trajectory topic. Resolves once /joint_states shows the arm moving; returns the goal.
 */
export async function moveArm(observer: Any, tmp: string, launch: Proc, ms: number): Promise<{ controller: string; goal: Record<string, number> }> {
  const folder = readdirSync(tmp).find((d) => d.startsWith('body_bridge_control_'));
  expect(folder, "the launch's ros2_control folder").toBeDefined();
  const config = parseYaml(readFileSync(join(tmp, folder!, 'ros2_controllers.yaml'), 'utf8')) as Record<string, Any>;
  const manager = Object.entries(config).find(([k]) => k.endsWith('controller_manager'))![1].ros__parameters as Record<string, Any>;
  const controller = Object.keys(manager).find((k) => manager[k]?.type === 'joint_trajectory_controller/JointTrajectoryController');
  expect(controller, 'a joint_trajectory_controller in ros2_controllers.yaml').toBeDefined();
  const joints: string[] = (config[`/${controller}`] ?? config[controller!]).ros__parameters.joints;
  const positions = new Map<string, number[]>();
  const sub = observer.createSubscription('sensor_msgs/msg/JointState', '/joint_states', {}, (m: Any) => {
    (m.name as string[]).forEach((n, i) => positions.set(n, [...(positions.get(n) ?? []).slice(-50), m.position[i]]));
  });
  const pub = observer.createPublisher('trajectory_msgs/msg/JointTrajectory', `/${controller}/joint_trajectory`);
  try {
    await waitFor('joint_states from the simulation', ms, () => joints.every((j) => positions.has(j)) || undefined, launch.output);
    const start = joints.map((j) => positions.get(j)!.at(-1)!);
    const goal = Object.fromEntries(joints.map((j, i) => [j, start[i]! + 0.3]));
    pub.publish({
      joint_names: joints,
      points: [{ positions: joints.map((j) => goal[j]!), velocities: [], accelerations: [], effort: [], time_from_start: { sec: 4, nanosec: 0 } }],
    });
    await waitFor('the arm moving', 60_000, () => joints.some((j, i) => Math.abs(positions.get(j)!.at(-1)! - start[i]!) > 0.02) || undefined, launch.output);
    return { controller: controller!, goal };
  } finally {
    observer.destroySubscription(sub);
    observer.destroyPublisher(pub);
  }
}

/**
 * The launch's first process that `which` picks, stopped (SIGSTOP) as soon as it appears, as a process slow to start
 * would be: the rest of the launch goes on without it until `resume()` (SIGCONT). Polls every 20 ms.
 */
export async function holdAtStart(launchPid: number, which: (s: Seen) => boolean, ms: number): Promise<{ held: Seen; resume: () => void }> {
  const held = await waitFor('the process to hold', ms, () => {
    const s = processTree(launchPid).map(seen).find((p) => p !== null && which(p));
    if (s) process.kill(s.pid, 'SIGSTOP');
    return s ?? undefined;
  }, () => processTree(launchPid).map((pid) => commandLine(pid)).join('\n'), 20);
  return {
    held,
    resume: () => {
      if (alive(held)) process.kill(held.pid, 'SIGCONT');
    },
  };
}

/** body_bridge's own process (Node.js running the package's dist/ros/main.js), not a shell that starts it. */
export const isBodyBridge = (s: Seen): boolean => /dist\/ros\/main\.js/.test(commandLine(s.pid)) && !/^(ba|da)?sh$/.test(s.name);
