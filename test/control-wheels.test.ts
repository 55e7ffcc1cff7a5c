// The drive read off the model (src/roles/wheels.ts, chosen by src/roles/roles.ts), on small wheeled bases whose
// radius and separation are known by construction, and the warnings where the geometry is ambiguous.
import { describe, expect, it } from 'vitest';
import { analyseDrive, inferRoles } from '../src/roles/roles.js';
import { axisAngle } from '../src/model/math.js';
import type { Geometry, Link, Mat3, RobotModel, Shape, Vec3 } from '../src/model/types.js';
import { affine, joint, link, pose, shape } from './support/urdf-models.js';

const diag = (x: number, y: number, z: number): Mat3 => [[x, 0, 0], [0, y, 0], [0, 0, z]];
const robot = (links: Link[], root: 'free' | 'fixed' = 'free'): RobotModel => ({
  name: 'cart',
  sourceFile: '/cart.body',
  format: 'body',
  root: 'chassis',
  links: [link('chassis', null, joint('chassis', root), pose([0, 0, 0.1]), { mass: 10, inertia: diag(0.1, 0.2, 0.2), collisions: [shape({ kind: 'box', size: [0.4, 0.25, 0.1] })] }), ...links],
  devices: [],
  extraJoints: [],
  warnings: [],
});
/** Choreonoid's cylinder runs along its y axis: with the joint axis along y it is a tyre about the axle. */
const tyre = (radius: number, at: Vec3 = [0, 0, 0], linear?: Mat3): Shape =>
  shape({ kind: 'cylinder', radius, height: 0.03, top: true, bottom: true, side: true }, affine(at, linear));
function wheel(name: string, y: number, shapes: Shape[], extra: { axis?: Vec3; x?: number; z?: number; velocity?: number } = {}): Link {
  const v = extra.velocity ?? Infinity;
  return link(name, 'chassis', joint(name, 'revolute', { axis: extra.axis ?? [0, 1, 0], velocityLower: -v, velocityUpper: v }), pose([extra.x ?? 0, y, extra.z ?? -0.02]), {
    mass: 0.5,
    inertia: diag(0.001, 0.002, 0.001),
    collisions: shapes,
  });
}

describe('a two-wheeled base', () => {
  it('radius from the tyre cylinder; separation between the treads (outboard of the joints), left = +y', () => {
    const model = robot([wheel('right_wheel', -0.15, [tyre(0.08, [0, -0.01, 0])]), wheel('left_wheel', 0.15, [tyre(0.08, [0, 0.01, 0])])]);
    const a = analyseDrive(model);
    expect(a.warnings).toEqual([]);
    expect(a.wheels).toEqual(['left_wheel', 'right_wheel']);
    const d = a.drive!;
    expect(d.left.map((w) => w.joint)).toEqual(['left_wheel']);
    expect(d.right.map((w) => w.joint)).toEqual(['right_wheel']);
    expect(d.kind).toBe('wheels');
    expect(d.radius).toBeCloseTo(0.08, 12);
    expect(d.separation).toBeCloseTo(0.32, 12);
    expect([d.leftMultiplier, d.rightMultiplier]).toEqual([1, 1]);
    expect(d.base).toBe('chassis');
    expect(d.mass).toBeCloseTo(11, 12);
    expect(d.left[0]!.radiusFrom).toBe('a cylinder about the axis');
  });

  it('a tyre on a link fixed to the wheel counts; a smaller hub beside it does not', () => {
    const hub = (name: string, y: number): Link[] => [
      wheel(name, y, [tyre(0.03)]),
      link(`${name}_tyre`, name, joint(`${name}_tyre`, 'fixed'), pose([0, 0, 0]), { mass: 0.2, collisions: [tyre(0.1)] }),
    ];
    const a = analyseDrive(robot([...hub('l', 0.2), ...hub('r', -0.2)]));
    expect(a.warnings).toEqual([]);
    expect(a.drive!.radius).toBeCloseTo(0.1, 12);
    expect(a.drive!.separation).toBeCloseTo(0.4, 12);
  });

  it('a wheel whose axis points right turns backwards for a positive command: radius multiplier −1, noted', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [tyre(0.08)]), wheel('r', -0.15, [tyre(0.08)], { axis: [0, -1, 0] })]));
    expect(a.warnings).toEqual([]);
    expect([a.drive!.leftMultiplier, a.drive!.rightMultiplier]).toEqual([1, -1]);
    expect(a.notes.join('\n')).toMatch(/r \(right\): its axis points to the base's right.*multiplier −1/);
  });

  it('wheel velocity limits are kept for the controller\'s speed limits', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [tyre(0.08)], { velocity: 10 }), wheel('r', -0.15, [tyre(0.08)], { velocity: 12 })]));
    expect([a.drive!.left[0]!.velocityLimit, a.drive!.right[0]!.velocityLimit]).toEqual([10, 12]);
  });
});

describe('tyres as polygon meshes (OpenHRP models)', () => {
  /** A closed n-gon prism about the y axis: vertices on a circle of radius r, width w, centred at y0. */
  const prism = (n: number, r: number, w: number, y0 = 0): Shape => {
    const vertices: Vec3[] = [];
    for (let k = 0; k < n; k++) {
      const t = (2 * Math.PI * k) / n;
      vertices.push([r * Math.cos(t), y0 - w / 2, r * Math.sin(t)], [r * Math.cos(t), y0 + w / 2, r * Math.sin(t)]);
    }
    const faces = Array.from({ length: n }, (_, k) => [2 * k, 2 * k + 1, 2 * ((k + 1) % n) + 1, 2 * ((k + 1) % n)]);
    return shape({ kind: 'mesh', vertices, faces, ccw: true, creaseAngle: 0 });
  };

  it('a 24-gon is round: its radius the circle its vertices lie on, no warning', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [prism(24, 0.09, 0.04, 0.01)]), wheel('r', -0.15, [prism(24, 0.09, 0.04, -0.01)])]));
    expect(a.warnings).toEqual([]);
    expect(a.drive!.radius).toBeCloseTo(0.09, 12);
    expect(a.drive!.separation).toBeCloseTo(0.32, 12);
    expect(a.drive!.left[0]!.radiusFrom).toBe('a mesh round about the axis (48 rim vertices)');
  });

  it('a square (gaps of 90° around the axle) is not round', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [prism(4, 0.09, 0.04)]), wheel('r', -0.15, [prism(24, 0.09, 0.04)])]));
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/wheel l: radius 0.09 m from the extent of a mesh, not a cylinder about its axis/)]);
  });
});

describe('ambiguous geometry is warned about where it is', () => {
  it('radii that differ: their mean, and each wheel\'s multiplier makes up the difference', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [tyre(0.08)]), wheel('r', -0.15, [tyre(0.082)])]));
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/wheel radii differ between the sides: left 0.08 m, right 0.082 m/)]);
    expect(a.warnings[0]!.file).toBe('/cart.body');
    expect(a.drive!.radius).toBeCloseTo(0.081, 12);
    expect(a.drive!.leftMultiplier).toBeCloseTo(0.08 / 0.081, 12);
    expect(a.drive!.rightMultiplier).toBeCloseTo(0.082 / 0.081, 12);
  });

  it('parallel axes that are not one axle: warned, with the distance across', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [tyre(0.08)]), wheel('r', -0.15, [tyre(0.08)], { x: 0.05 })]));
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/parallel but not on one axis \(0.05 m apart across it\)/)]);
    expect(a.drive!.separation).toBeCloseTo(0.3, 12);
  });

  it('a box for a wheel: the radius is its reach from the axis, warned as not round', () => {
    const box = (size: Vec3): Shape => shape({ kind: 'box', size } as Geometry);
    const a = analyseDrive(robot([wheel('l', 0.15, [box([0.1, 0.03, 0.1])]), wheel('r', -0.15, [box([0.1, 0.03, 0.1])])]));
    expect(a.drive!.radius).toBeCloseTo(Math.hypot(0.05, 0.05), 9);
    expect(a.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/wheel l: radius 0.07071 m from the extent of a box, not a cylinder about its axis/),
      expect.stringMatching(/wheel r: radius 0.07071 m from the extent of a box/),
    ]);
  });

  it('a cylinder lying across the axle does not reach the ground: no wheel', () => {
    const across = tyre(0.08, [0, 0, 0], axisAngle([1, 0, 0], Math.PI / 2));
    const a = analyseDrive(robot([wheel('l', 0.15, [across]), wheel('r', -0.15, [tyre(0.08)])]));
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/no wheel pair across the base \(0 left, 1 right/)]);
  });

  it('a wheel without collision geometry: no drive, said why', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, []), wheel('r', -0.15, [tyre(0.08)])]));
    expect(a.drive).toBeNull();
    expect(a.wheels).toEqual([]);
    // Without collision geometry nothing of it touches the ground: it is no wheel, and r has no partner.
    expect(inferRoles(robot([wheel('l', 0.15, []), wheel('r', -0.15, [tyre(0.08)])])).joints.map((j) => j.role)).toEqual(['joint', 'wheel']);
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/no wheel pair across the base \(0 left, 1 right.* no diff_drive_controller/)]);
  });

  it('an axis off the base\'s y: that wheel leaves the drive, which then has no pair', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [tyre(0.08)]), wheel('r', -0.15, [tyre(0.08)], { axis: [1, 0, 0] })]));
    expect(a.drive).toBeNull();
    expect(a.leftOut.get('r')).toMatch(/is not along the base's y axis/);
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/wheel r: radius .* from the extent of a cylinder off the axis/), expect.stringMatching(/no wheel pair across the base \(1 left, 0 right/)]);
  });

  it('an axle along the base\'s x: no drive (diff_drive_controller drives along x), warned', () => {
    const a = analyseDrive(robot([wheel('f', 0, [tyre(0.08, [0, 0, 0], axisAngle([0, 0, 1], Math.PI / 2))], { axis: [1, 0, 0], x: 0.15 }), wheel('b', 0, [tyre(0.08, [0, 0, 0], axisAngle([0, 0, 1], Math.PI / 2))], { axis: [1, 0, 0], x: -0.15 })]));
    expect(a.drive).toBeNull();
    expect(a.leftOut.get('f')).toMatch(/not along the base's y axis/);
    expect(a.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/no wheel pair across the base \(0 left, 0 right/)]);
  });
});

describe('what is not a differential drive', () => {
  it('a fixed base (an arm) has none, and says nothing', () => {
    const a = analyseDrive(robot([wheel('l', 0.15, [tyre(0.08)]), wheel('r', -0.15, [tyre(0.08)])], 'fixed'));
    expect(a).toEqual({ drive: null, wheels: [], leftOut: new Map(), notes: [], warnings: [] });
  });

  it('a caster (a wheel under a swivel) is not a drive wheel; of three unlimited joints on the base the one coaxial pair drives', () => {
    const swivel = link('swivel', 'chassis', joint('swivel', 'revolute', { axis: [0, 0, 1] }), pose([-0.2, 0, -0.02]), { mass: 0.1, inertia: diag(1e-4, 1e-4, 1e-4) });
    const caster = link('caster', 'swivel', joint('caster', 'revolute', { axis: [0, 1, 0] }), pose([-0.02, 0, -0.06]), { mass: 0.1, inertia: diag(1e-4, 1e-4, 1e-4), collisions: [tyre(0.02)] });
    const spare = wheel('spare', 0, [tyre(0.05)], { x: 0.2, z: -0.05 });
    const roles = inferRoles(robot([wheel('l', 0.15, [tyre(0.08)]), wheel('r', -0.15, [tyre(0.08)]), swivel, caster, spare]));
    expect(roles.drive.wheels).toEqual(['l', 'r']);
    expect(roles.drive.leftOut.get('spare')).toMatch(/centre line/);
    // The caster and the spare wheel must roll freely: held still they would drag whenever the base turns.
    expect(roles.joints.map((j) => [j.joint, j.role, j.actuated])).toEqual([
      ['l', 'drive_wheel', true],
      ['r', 'drive_wheel', true],
      ['swivel', 'caster', false],
      ['caster', 'caster', false],
      ['spare', 'wheel', false],
    ]);
    expect(roles.joints.find((j) => j.joint === 'swivel')!.reason).toMatch(/trails 0.02 m behind its vertical axis/);
  });

  it('four wheels on two axles: a skid-steer drive, two wheels per side, front first', () => {
    const a = analyseDrive(
      robot([wheel('fl', 0.15, [tyre(0.08)], { x: 0.1 }), wheel('fr', -0.15, [tyre(0.08)], { x: 0.1 }), wheel('rl', 0.15, [tyre(0.08)], { x: -0.1 }), wheel('rr', -0.15, [tyre(0.08)], { x: -0.1 })]),
    );
    expect(a.warnings).toEqual([]);
    expect(a.drive!.left.map((w) => w.joint)).toEqual(['fl', 'rl']);
    expect(a.drive!.right.map((w) => w.joint)).toEqual(['fr', 'rr']);
    expect(a.drive!.separation).toBeCloseTo(0.3, 12);
    expect(a.notes.join('\n')).toMatch(/skid-steer \(2 wheels per side\) drive/);
  });

  it('a limited joint is no wheel', () => {
    const limited = (n: string, y: number): Link => ({ ...wheel(n, y, [tyre(0.08)]), joint: joint(n, 'revolute', { axis: [0, 1, 0], lower: -1, upper: 1 }) });
    expect(analyseDrive(robot([limited('l', 0.15), limited('r', -0.15)])).drive).toBeNull();
  });
});
