// The live suites' ROS domains: one per suite, so that suites vitest runs side by side never share a graph.
import { afterEach, describe, expect, it } from 'vitest';
import { liveCycloneUri, RECEIVE_BUFFER, withCycloneSettings } from './support/cyclone.js';
import { ownRosDomain } from './support/live-rig.js';

describe('ownRosDomain', () => {
  const saved = { domain: process.env.ROS_DOMAIN_ID, base: process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE, cyclone: process.env.CYCLONEDDS_URI };
  afterEach(() => {
    for (const [k, v] of [['ROS_DOMAIN_ID', saved.domain], ['BODY_BRIDGE_LIVE_DOMAIN_BASE', saved.base], ['CYCLONEDDS_URI', saved.cyclone]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('gives every live suite a domain of its own, off the default 0, and sets it for what the suite starts', () => {
    delete process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE;
    const suites = ['ros-live', 'ros-live-choreonoid', 'ros-live-control', 'ros-live-moveit', 'ros-live-rviz', 'ros-live-world', 'ros-live-project', 'ros-live-shutdown', 'ros-live-faults', 'corpus-sweep', 'ros-live-mobile'] as const;
    const domains = suites.map((s) => {
      const d = ownRosDomain(s);
      expect(process.env.ROS_DOMAIN_ID).toBe(String(d));
      return d;
    });
    expect(new Set(domains).size).toBe(suites.length);
    expect(Math.min(...domains)).toBeGreaterThan(0);
    expect(Math.max(...domains)).toBeLessThanOrEqual(101);
  });

  it('moves them all with BODY_BRIDGE_LIVE_DOMAIN_BASE, and refuses a base that would leave the valid domains', () => {
    process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE = '10';
    expect(ownRosDomain('ros-live')).toBe(11);
    process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE = '99';
    expect(() => ownRosDomain('ros-live')).toThrow(/BODY_BRIDGE_LIVE_DOMAIN_BASE=99: expected a whole number from 0 to 90/);
    process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE = 'x';
    expect(() => ownRosDomain('ros-live')).toThrow(/BODY_BRIDGE_LIVE_DOMAIN_BASE=x/);
  });
});

describe("the live graph's Cyclone receive buffer", () => {
  const domain = '<CycloneDDS><Domain><Discovery><Peers><Peer address="127.0.0.1"/></Peers></Discovery></Domain></CycloneDDS>';
  it.each([
    { what: 'nothing set', uri: undefined, expected: `<CycloneDDS><Domain>${RECEIVE_BUFFER}</Domain></CycloneDDS>` },
    { what: 'empty', uri: '', expected: `<CycloneDDS><Domain>${RECEIVE_BUFFER}</Domain></CycloneDDS>` },
    { what: "a user's Domain element: ours goes inside it", uri: domain, expected: domain.replace('</Domain>', `${RECEIVE_BUFFER}</Domain>`) },
    { what: 'a file: kept, ours beside it (Cyclone reads a comma-separated list)', uri: 'file:///etc/cyclone.xml', expected: `file:///etc/cyclone.xml,<CycloneDDS><Domain>${RECEIVE_BUFFER}</Domain></CycloneDDS>` },
    { what: 'a buffer the user sized: left as it is', uri: '<CycloneDDS><Domain><Internal><SocketReceiveBufferSize min="1MB"/></Internal></Domain></CycloneDDS>', expected: '<CycloneDDS><Domain><Internal><SocketReceiveBufferSize min="1MB"/></Internal></Domain></CycloneDDS>' },
  ])('$what', ({ uri, expected }) => {
    expect(liveCycloneUri(uri)).toBe(expected);
  });

  it('nothing to add leaves the URI alone', () => {
    expect(withCycloneSettings(domain, '')).toBe(domain);
  });

  it('ownRosDomain sets it for the suite and what it starts', () => {
    const saved = { domain: process.env.ROS_DOMAIN_ID, cyclone: process.env.CYCLONEDDS_URI };
    try {
      delete process.env.CYCLONEDDS_URI;
      ownRosDomain('ros-live');
      expect(process.env.CYCLONEDDS_URI).toBe(`<CycloneDDS><Domain>${RECEIVE_BUFFER}</Domain></CycloneDDS>`);
    } finally {
      for (const [k, v] of [['ROS_DOMAIN_ID', saved.domain], ['CYCLONEDDS_URI', saved.cyclone]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
