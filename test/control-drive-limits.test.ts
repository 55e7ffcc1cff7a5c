// diff_drive_controller's acceleration limits (src/control/controllers.ts, driveAcceleration): without them it stops
// the wheels at once on a zero command, and AizuWheel.body's wheels, bearing little of its weight beside its casters,
// slid while the base rolled on 0.11 m (the corpus sweep, issue 37). The limits from the ground contacts, and the
// parameters against the sourced ROS 2's diff_drive_controller declarations.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ControlOptions, controlConfig, otherContacts } from '../src/control/config.js';
import { CONTROL_DISTROS, type ControlDistro } from '../src/control/controllers.js';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { planningGroups } from '../src/moveit/config.js';
import { inferRoles } from '../src/roles/roles.js';
import { corpusDir, projectRoot } from './support/oracle.js';
import { skipWithout } from './support/peer-skip.js';
import { findDeclaredParameters } from './support/peers.js';

type Params = Record<string, { ros__parameters: Record<string, unknown> }>;
const configOf = (file: string, o: Partial<ControlOptions> = {}) => {
  const ros = applyRosConventions(loadRobotModel(file));
  const roles = inferRoles(ros.model);
  return { ros, roles, config: controlConfig(ros, { mode: 'position_pd', groups: planningGroups(ros, undefined, roles).groups, roles, samples: 0, ...o }) };
};
const driveOf = (file: string, o: Partial<ControlOptions> = {}) => {
  const { config } = configOf(file, o);
  return (parse(config.files.find((f) => f.name === 'ros2_controllers.yaml')!.text) as Params)['/diff_drive_controller']!.ros__parameters;
};

const AIZU_WHEEL = join(corpusDir, 'choreonoid/share/model/AizuWheel/AizuWheel.body');
const CRAWLER = join(corpusDir, 'choreonoid/share/model/misc/crawler.body');
const CART = join(projectRoot, 'test/models/control/cart.body');
const g = 9.80665;

describe('the acceleration limits from what touches the floor', () => {
  it.each([
    // AizuWheel.body: wheels of radius 0.1 at y = ±0.26 (separation 0.52), casters front and back on the floor too:
    // 3 % of the weight at friction 0.5.
    [AIZU_WHEEL, ['BACK_CASTER_link', 'FRONT_CASTER_link'], 0.5 * g * 0.03, 0.52],
    // crawler.body: its two tracks alone: friction 0.5 × g, halved.
    [CRAWLER, [], 0.5 * 0.5 * g, null],
    // The cart's chassis box reaches down to the floor (z = 0) as its wheels do: it shares the support.
    [CART, ['Chassis'], 0.5 * g * 0.03, 0.32],
  ] as const)('%s: other contacts %j, ±%f m/s²', (file, others, linear, separation) => {
    const { ros, roles } = configOf(file);
    const drive = roles.drive.drive!;
    expect(otherContacts(ros.model, drive).sort()).toEqual([...others]);
    const p = driveOf(file);
    const x = (p['linear'] as { x: Record<string, unknown> }).x;
    const z = (p['angular'] as { z: Record<string, unknown> }).z;
    expect(x['has_acceleration_limits']).toBe(true);
    expect(x['max_acceleration']).toBeCloseTo(linear, 4);
    expect(x['min_acceleration']).toBeCloseTo(-linear, 4);
    // The same acceleration at the wheels when it turns on the spot: α = a / (separation / 2).
    expect(z['max_acceleration']).toBeCloseTo(linear / ((separation ?? drive.separation) / 2), 3);
    expect(z['min_acceleration']).toBeCloseTo(-linear / ((separation ?? drive.separation) / 2), 3);
  });

  it('stopping from the sweep\'s 0.2 m/s takes the base less than the 1.5 s the sweep waits (a ≥ 0.134 m/s²), and the limit is below the 0.18 m/s² AizuWheel\'s wheels could brake', () => {
    const a = ((driveOf(AIZU_WHEEL)['linear'] as { x: Record<string, number> }).x)['max_acceleration']!;
    expect(0.2 / a).toBeLessThan(1.5);
    expect(a).toBeLessThan(0.18);
  });

  it('the README says which and why', () => {
    const readme = configOf(AIZU_WHEEL).config.files.find((f) => f.name === 'README.md')!.text;
    expect(readme).toMatch(/diff_drive_controller's acceleration limits ±0\.147 m\/s² and ±0\.566 rad\/s²: FRONT_CASTER_link, BACK_CASTER_link touch the floor beside the driven wheels/);
  });

  it('jazzy: the limits without has_acceleration_limits (its NaN default means none)', () => {
    const x = (driveOf(AIZU_WHEEL, { distro: 'jazzy' })['linear'] as { x: Record<string, unknown> }).x;
    expect(x).not.toHaveProperty('has_acceleration_limits');
    expect(x['max_acceleration']).toBeCloseTo(0.5 * g * 0.03, 4);
  });
});

const distroOf = (d: string | undefined): ControlDistro | null => ((CONTROL_DISTROS as readonly string[]).includes(d ?? '') ? (d as ControlDistro) : null);
const declared = findDeclaredParameters('diff_drive_controller');

describe.skipIf(skipWithout(declared))('diff_drive_controller\'s parameters against the sourced ROS 2\'s declarations', () => {
  const { distro, parameters } = declared as Extract<typeof declared, { ok: true }>;
  const flat = (o: Record<string, unknown>, prefix = ''): [string, unknown][] =>
    Object.entries(o).flatMap(([k, v]) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? flat(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]]));
  const isType: Record<string, (v: unknown) => boolean> = {
    double: (v) => typeof v === 'number',
    bool: (v) => typeof v === 'boolean',
    int: (v) => Number.isInteger(v),
    string: (v) => typeof v === 'string',
    string_array: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  };

  it(`the sourced distro (${distro}) is one body_bridge writes for`, () => expect(distroOf(distro)).not.toBeNull());

  it.each([AIZU_WHEEL, CRAWLER, CART])('%s: every parameter written is declared, with a value of its type', (file) => {
    const written = flat(driveOf(file, { distro: distroOf(distro) ?? 'humble' })).filter(([k]) => k !== 'use_sim_time');
    expect(written.map(([k]) => k)).toEqual(expect.arrayContaining(['linear.x.max_acceleration', 'linear.x.min_acceleration', 'angular.z.max_acceleration', 'angular.z.min_acceleration']));
    for (const [k, v] of written) {
      const type = parameters.get(k);
      expect([k, type]).toEqual([k, expect.any(String)]);
      expect([k, type, isType[type!]?.(v)]).toEqual([k, type, true]);
    }
  });
});
