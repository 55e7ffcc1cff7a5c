// The live suites' ROS domains: one per suite, so that suites vitest runs side by side never share a graph.
import { afterEach, describe, expect, it } from 'vitest';
import { ownRosDomain } from './support/live-rig.js';

describe('ownRosDomain', () => {
  const saved = { domain: process.env.ROS_DOMAIN_ID, base: process.env.BODY_BRIDGE_LIVE_DOMAIN_BASE };
  afterEach(() => {
    for (const [k, v] of [['ROS_DOMAIN_ID', saved.domain], ['BODY_BRIDGE_LIVE_DOMAIN_BASE', saved.base]] as const) {
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
