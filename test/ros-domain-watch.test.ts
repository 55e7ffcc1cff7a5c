// A second launch on the node's ROS domain (src/ros/domain-watch.ts): what one look at the graph makes of it, and
// what the node says over time, on the in-memory transport.
import { describe, expect, it } from 'vitest';
import { DOMAIN_LOOK_MS, DOMAIN_PERSIST_MS, domainLabel, domainProblems, type GraphLook, startDomainWatch } from '../src/ros/domain-watch.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';

const SELF = '/body_bridge';

describe('domainProblems', () => {
  const cases: [string, GraphLook, ReturnType<typeof domainProblems>][] = [
    ['alone, one simulation', { nodes: [SELF, '/choreonoid', '/move_group'], clockPublishers: 1 }, []],
    ['no simulation', { nodes: [SELF], clockPublishers: 0 }, []],
    ['the same name twice', { nodes: [SELF, '/choreonoid', SELF], clockPublishers: 1 }, [{ kind: 'same-name', nodes: 2 }]],
    ['the same name in another namespace is another node', { nodes: [SELF, '/r2/body_bridge'], clockPublishers: 0 }, []],
    ['two clocks', { nodes: [SELF], clockPublishers: 2 }, [{ kind: 'clocks', publishers: 2 }]],
    ['both, three launches', { nodes: [SELF, SELF, SELF], clockPublishers: 3 }, [{ kind: 'same-name', nodes: 3 }, { kind: 'clocks', publishers: 3 }]],
  ];
  it.each(cases)('%s', (_what, look, expected) => {
    expect(domainProblems(SELF, look)).toEqual(expected);
  });
});

describe('domainLabel', () => {
  it.each([
    [undefined, 'ROS_DOMAIN_ID=0 (unset)'],
    ['', 'ROS_DOMAIN_ID=0 (unset)'],
    ['42', 'ROS_DOMAIN_ID=42'],
  ])('%s → %s', (id, label) => expect(domainLabel(id)).toBe(label));
});

describe('startDomainWatch', () => {
  const warnings = (t: ReturnType<typeof createMemoryTransport>) => t.logs.filter((l) => l.level === 'warn').map((l) => l.message);
  const infos = (t: ReturnType<typeof createMemoryTransport>) => t.logs.filter((l) => l.level === 'info').map((l) => l.message);

  it('names a second node of its name once, with the domain, and says once when it has gone', () => {
    const t = createMemoryTransport();
    const stop = startDomainWatch(t, '7');
    t.advanceWall(3 * DOMAIN_LOOK_MS);
    expect(t.logs).toEqual([]);
    t.graph.nodes.push('/body_bridge');
    t.advanceWall(DOMAIN_PERSIST_MS - DOMAIN_LOOK_MS);
    expect(warnings(t), 'not before it has lasted DOMAIN_PERSIST_MS').toEqual([]);
    t.advanceWall(5 * DOMAIN_LOOK_MS);
    expect(warnings(t)).toHaveLength(1);
    expect(warnings(t)[0]).toMatch(/^2 nodes named \/body_bridge are on this ROS domain \(ROS_DOMAIN_ID=7\): .*own ROS_DOMAIN_ID, or its own namespace$/);
    t.graph.nodes.length = 0;
    t.advanceWall(5 * DOMAIN_LOOK_MS);
    expect(infos(t)).toEqual(['/body_bridge is the only node of its name on this ROS domain again']);
    expect(warnings(t)).toHaveLength(1);
    stop();
    expect(t.active().timers).toBe(0);
  });

  it('names a second /clock publisher, on wall time (a clock may stand still)', () => {
    const t = createMemoryTransport({ namespace: '/r1' });
    startDomainWatch(t, undefined);
    t.graph.publishers.set('/clock', 2);
    t.advanceWall(DOMAIN_PERSIST_MS + 2 * DOMAIN_LOOK_MS);
    expect(warnings(t)).toEqual([expect.stringMatching(/^2 publishers of \/clock are on this ROS domain \(ROS_DOMAIN_ID=0 \(unset\)\): two simulations/)]);
    // A third: still the same problem, not said again.
    t.graph.publishers.set('/clock', 3);
    t.advanceWall(DOMAIN_LOOK_MS);
    expect(warnings(t)).toHaveLength(1);
    t.graph.publishers.set('/clock', 1);
    t.advanceWall(DOMAIN_LOOK_MS);
    expect(infos(t)).toEqual(['/clock has one publisher or none on this ROS domain again']);
  });

  it("looks for its own name: /r1/body_bridge beside /body_bridge is no problem", () => {
    const t = createMemoryTransport({ namespace: '/r1' });
    expect(t.nodeName).toBe('/r1/body_bridge');
    startDomainWatch(t, '0');
    t.graph.nodes.push('/body_bridge', '/r2/body_bridge');
    t.advanceWall(DOMAIN_PERSIST_MS + 3 * DOMAIN_LOOK_MS);
    expect(t.logs).toEqual([]);
  });

  it("a killed process's ghost beside its replacement, gone within the DDS lease, is not named", () => {
    const t = createMemoryTransport();
    startDomainWatch(t, '0');
    t.graph.nodes.push('/body_bridge');
    t.graph.publishers.set('/clock', 2);
    // Fast DDS's default lease, 20 s: then the ghosts leave the graph.
    t.advanceWall(20_000);
    t.graph.nodes.length = 0;
    t.graph.publishers.set('/clock', 1);
    t.advanceWall(3 * DOMAIN_PERSIST_MS);
    expect(t.logs).toEqual([]);
    // A problem that comes back starts its time again.
    t.graph.nodes.push('/body_bridge');
    t.advanceWall(DOMAIN_PERSIST_MS - DOMAIN_LOOK_MS);
    expect(t.logs).toEqual([]);
    t.advanceWall(2 * DOMAIN_LOOK_MS);
    expect(warnings(t)).toHaveLength(1);
  });

  it('a graph it cannot query is said once and ends nothing', () => {
    const t = createMemoryTransport();
    let asked = 0;
    const broken = { ...t, graphNodes: (): string[] => { asked++; throw new Error('rcl context invalid'); } };
    startDomainWatch(broken, '0');
    expect(() => t.advanceWall(5 * DOMAIN_LOOK_MS)).not.toThrow();
    expect(asked).toBe(1);
    expect(warnings(t)).toEqual(['cannot look at the ROS graph for a second launch on this domain (rcl context invalid)']);
  });
});
