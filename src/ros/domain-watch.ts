// Two launches on one ROS domain: a second simulation of the same robot, a colleague's on the same network, a
// launch left running. Nothing fails outright — every node starts — but every subscriber hears both: two
// body_bridge nodes under one name serve two robot_descriptions and /tf trees, and two simulators' /clock
// publishers move time back and forth between them (the node then keeps saying it moved backwards in time).
// ROS 2 says none of this; the node looks at the graph and names it, once when it has lasted past a killed
// process's ghost, and once when it is over.
import type { Transport } from './transport.js';

/** ms between two looks at the graph (a graph query, no traffic). */
export const DOMAIN_LOOK_MS = 2000;
/**
 * ms a problem must last before the node names it. A process killed without leaving the graph (SIGKILL: the
 * launch restarting body_bridge or Choreonoid) stays on it as a ghost until its DDS lease runs out — 10 s for
 * Cyclone DDS, 20 s for Fast DDS by default — beside the process that replaced it.
 */
export const DOMAIN_PERSIST_MS = 25_000;

/** What one look at the graph saw. */
export interface GraphLook {
  /** Fully qualified names of the nodes on the graph, this one included. */
  nodes: readonly string[];
  /** Publishers of /clock. */
  clockPublishers: number;
}

export type DomainProblem =
  | { kind: 'same-name'; nodes: number }
  | { kind: 'clocks'; publishers: number };

/** What is wrong on the domain for the node named `self` (fully qualified). */
export function domainProblems(self: string, look: GraphLook): DomainProblem[] {
  const problems: DomainProblem[] = [];
  const sameName = look.nodes.filter((n) => n === self).length;
  if (sameName > 1) problems.push({ kind: 'same-name', nodes: sameName });
  if (look.clockPublishers > 1) problems.push({ kind: 'clocks', publishers: look.clockPublishers });
  return problems;
}

/** `ROS_DOMAIN_ID=N`, as the user would set it (unset: 0, ROS 2's default). */
export const domainLabel = (domainId: string | undefined): string => `ROS_DOMAIN_ID=${domainId === undefined || domainId.trim() === '' ? '0 (unset)' : domainId}`;

/** What the node says when `problem` appears. */
export function problemMessage(problem: DomainProblem, self: string, domain: string): string {
  if (problem.kind === 'same-name') {
    return (
      `${problem.nodes} nodes named ${self} are on this ROS domain (${domain}): another launch of this robot, or of another ` +
      'one under the same name, runs beside this one, and every subscriber hears both robot_descriptions and /tf trees. ' +
      'Give each launch its own ROS_DOMAIN_ID, or its own namespace'
    );
  }
  return (
    `${problem.publishers} publishers of /clock are on this ROS domain (${domain}): two simulations (or a simulation and a ` +
    'bag replay) drive one clock, and time jumps between them for every node with use_sim_time. Give each its own ROS_DOMAIN_ID'
  );
}

/** What the node says when `problem` is over. */
export const resolvedMessage = (problem: DomainProblem, self: string): string =>
  problem.kind === 'same-name' ? `${self} is the only node of its name on this ROS domain again` : '/clock has one publisher or none on this ROS domain again';

/**
 * Looks at the graph every `periodMs` on wall time (a second simulator's clock may be what stands still) and logs a
 * warning when a problem has lasted `persistMs`, info when a named one is over. Returns the function that stops it.
 */
export function startDomainWatch(transport: Transport, domainId: string | undefined, periodMs = DOMAIN_LOOK_MS, persistMs = DOMAIN_PERSIST_MS): () => void {
  const self = transport.nodeName;
  const domain = domainLabel(domainId);
  /** Since when (wall ns) each problem has been seen without a break. */
  const since = new Map<DomainProblem['kind'], bigint>();
  let reported = new Map<DomainProblem['kind'], DomainProblem>();
  let failed = false;
  return transport.wallTimer(periodMs, () => {
    if (failed) return;
    let look: GraphLook;
    try {
      look = { nodes: transport.graphNodes(), clockPublishers: transport.publisherCount('/clock') };
    } catch (error) {
      // A timer callback that throws would end the node: say so once and look no more.
      transport.log.warn(`cannot look at the ROS graph for a second launch on this domain (${error instanceof Error ? error.message : String(error)})`);
      failed = true;
      return;
    }
    const wallNs = transport.wallNowNs();
    const seen = new Map(domainProblems(self, look).map((p) => [p.kind, p]));
    for (const kind of [...since.keys()]) if (!seen.has(kind)) since.delete(kind);
    for (const kind of seen.keys()) if (!since.has(kind)) since.set(kind, wallNs);
    const lasting = new Map([...seen].filter(([kind]) => reported.has(kind) || wallNs - since.get(kind)! >= BigInt(persistMs) * 1_000_000n));
    for (const [kind, problem] of lasting) if (!reported.has(kind)) transport.log.warn(problemMessage(problem, self, domain));
    for (const [kind, problem] of reported) if (!lasting.has(kind)) transport.log.info(resolvedMessage(problem, self));
    reported = lasting;
  });
}
