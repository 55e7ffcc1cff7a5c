// choreonoid_ros itself says which ROS names a project's items take: Choreonoid (choreonoid_ros's `choreonoid`,
// headless) loads a small project — a world with a WorldROS2Item, a body item named "my-robot" with a BodyROS2Item,
// one whose BodyROS2Item sits in a folder under it, and one with a ROS2ControlItem in namespace "r1" — and the ROS
// graph (`ros2 node / topic / service list`) must hold exactly the nodes, topics and the robot_state_publisher
// lookup that readProject predicts for them.
//
// Choreonoid never finishes loading this project: the ROS2ControlItem waits for a robot_state_publisher that never
// comes (and ignores SIGINT then), which is why it is last, and why Choreonoid is stopped with SIGKILL. Skipped,
// with the reason, where ROS 2 (sourced, with the ros2 CLI) or choreonoid_ros is absent.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProject } from '../src/project/index.js';
import { ownRosDomain, processGroup, waitFor } from './support/live-rig.js';
import { skipWithout } from './support/peer-skip.js';
import { everyOnPath, findChoreonoidRos, missing, type Lookup, type Executable } from './support/peers.js';
import { projectRoot } from './support/oracle.js';
import { withScratchDir } from './support/temp-dir.js';

const chor = findChoreonoidRos();
const ros2Cli = (): Lookup<Executable> => {
  const found = process.env.AMENT_PREFIX_PATH ? everyOnPath('ros2')[0] : undefined;
  return found ? { ok: true, exe: found } : missing('ros2 CLI', 'ros', 'no ROS 2 is sourced (ros2 is not on PATH)', 'source a ROS 2 (its setup.bash)');
};
const cli = ros2Cli();
const skip = skipWithout(chor, cli);

const PROJECT = `items:
  name: "Root"
  plugin: Base
  class: RootItem
  children:
    - name: "My-World"
      plugin: Body
      class: WorldItem
      children:
        - { name: "Clock", plugin: ROS2, class: WorldROS2Item, data: { max_clock_publishing_rate: 30 } }
        - name: "my-robot"
          plugin: Body
          class: BodyItem
          data: { file: "arm.body" }
          children:
            - { name: "Publisher", plugin: ROS2, class: BodyROS2Item, data: { joint_state_update_rate: 50 } }
        - name: "Other"
          plugin: Body
          class: BodyItem
          data: { file: "arm.body" }
          children:
            - name: "Folder"
              plugin: Base
              class: FolderItem
              children:
                - { name: "Deep", plugin: ROS2, class: BodyROS2Item }
        - name: "Ctl"
          plugin: Body
          class: BodyItem
          data: { file: "arm.body" }
          children:
            - { name: "Control", plugin: ROS2, class: ROS2ControlItem, data: { namespace: r1 } }
`;

describe.skipIf(skip)('the ROS names of a project\'s choreonoid_ros items, as choreonoid_ros makes them', () => {
  const procs = processGroup();
  afterAll(async () => {
    await procs.stopAll();
  });

  it('nodes, joint_states topics, /clock and the robot_state_publisher the ROS2ControlItem asks', () => withScratchDir('ros-live-project-', (dir) => check(dir)), 180_000);

  async function check(dir: string): Promise<void> {
    copyFileSync(join(projectRoot, 'test/models/project/arm.body'), join(dir, 'arm.body'));
    const file = join(dir, 'live.cnoid');
    writeFileSync(file, PROJECT);
    const project = readProject(file, { env: {} });
    const world = project.worlds[0]!.ros.worldRos2!;
    const [robot, other, ctl] = project.bodies.map((b) => (b.kind === 'loaded' ? b.ros : {}));
    const expectedNodes = [`/${world.nodeName}`, robot!.bodyRos2!.namespace, other!.bodyRos2!.namespace, ctl!.ros2Control!.controlNode];
    // What readProject says, worked out by hand from choreonoid_ros's sources (docs/project.md).
    expect(expectedNodes).toEqual(['/My_World', '/my_robot', '/Other', '/r1/choreonoid_ros2_control']);
    expect(ctl!.ros2Control!.robotStatePublisher).toBe('/r1/r1/robot_state_publisher');

    // A domain of its own, so that other ROS graphs on the machine do not show up; Qt's runtime directory in the
    // scratch folder (without one it makes <tmp>/runtime-<user>).
    const runtime = join(dir, 'runtime');
    mkdirSync(runtime, { mode: 0o700 });
    const env = { ...process.env, ROS_DOMAIN_ID: String(ownRosDomain('ros-live-project')), XDG_RUNTIME_DIR: runtime, QT_QPA_PLATFORM: 'offscreen' };
    const list = (what: string): string[] => {
      try {
        return execFileSync((cli as Executable).exe, [what, 'list', '--no-daemon', '--spin-time', '1'], { env, encoding: 'utf8', timeout: 30_000 }).split('\n').filter((l) => l !== '');
      } catch {
        return [];
      }
    };
    // Nothing of ours runs yet: a node on the domain is another run's (a Choreonoid left from a killed run made
    // every node below appear twice), and the comparison would fail for it.
    const before = list('node').filter((n) => !n.startsWith('/_'));
    if (before.length > 0) throw new Error(`ROS domain ${env.ROS_DOMAIN_ID} already has nodes before the suite starts any: ${before.join(', ')}. Another run of the live suites (or a process left from one) is on it: stop it, or give one of the runs another BODY_BRIDGE_LIVE_DOMAIN_BASE`);
    const choreonoid = procs.start((chor as Executable).exe, ['--no-window', file], env, dir);
    const nodes = await waitFor('the ROS2ControlItem\'s node', 90_000, () => {
      const n = list('node');
      return n.includes('/r1/choreonoid_ros2_control') ? n : undefined;
    }, choreonoid.output);
    // After Humble the item makes its controller_manager at once (it takes robot_description from a topic, below).
    const afterHumble = process.env.ROS_DISTRO !== undefined && process.env.ROS_DISTRO !== 'humble';
    const graphNodes = afterHumble ? [...expectedNodes, ctl!.ros2Control!.controllerManager] : expectedNodes;
    expect(nodes.filter((n) => !n.startsWith('/_')).sort()).toEqual([...graphNodes].sort());
    const topics = list('topic');
    expect(topics).toEqual(expect.arrayContaining([`${robot!.bodyRos2!.namespace}/joint_states`, `${other!.bodyRos2!.namespace}/joint_states`, '/clock']));
    // On Humble the ROS2ControlItem's parameter client waits for this service (its own node's namespace, then the
    // item's); after Humble controller_manager subscribes to robot_description in its own namespace (no doubling).
    if (afterHumble) expect(topics).toContain(ctl!.ros2Control!.robotDescriptionTopic);
    else expect(list('service')).toContain(`${ctl!.ros2Control!.robotStatePublisher}/get_parameters`);
    await procs.stop(choreonoid, 'SIGKILL');
  }
});
