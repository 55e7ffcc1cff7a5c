// src/kinematics/loop-closure.ts on a loop whose followers are known by hand: test/models/control/lever-loop.body,
// a lever turned by a rod at x = 0.1 m through a slider and a ball extra joint. The rod's travel h puts the lever
// at θ = −asin(h / 0.1) (the pin at x = 0.1 on the lever must stand h above the hinge) and the slider at
// 0.1·cos θ − 0.1 along x (the pin's x, from the rod at 0.1).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeLoops, closingJoints, loopResidual, norm } from '../src/kinematics/loop-closure.js';
import { loadRobotModel } from '../src/load.js';
import { projectRoot } from './support/oracle.js';

const model = loadRobotModel(join(projectRoot, 'test/models/control/lever-loop.body'));
const loops = closingJoints(model);

describe('closeLoops: a lever pushed by a rod', () => {
  it('finds the one ball extra joint to close', () => {
    expect(loops.map((x) => [x.link1, x.link2, x.type])).toEqual([['SLIDER', 'LEVER', 'ball']]);
  });

  it.each([-0.05, -0.03, -0.01, 0, 0.02, 0.045])('rod at %f m: lever and slider where the geometry puts them', (h) => {
    const q = closeLoops(model, loops, ['LEVER', 'SLIDER'], new Map([['ROD', h], ['LEVER', 0], ['SLIDER', 0]]), 1e-6);
    expect(q).not.toBeNull();
    const theta = -Math.asin(h / 0.1);
    // Closed to CLOSURE_TOLERANCE (1e-7 m) at a pin 0.1 m from the hinge: the lever within 1e-6 rad.
    expect(Math.abs(q!.get('LEVER')! - theta)).toBeLessThan(2e-6);
    expect(Math.abs(q!.get('SLIDER')! - (0.1 * Math.cos(theta) - 0.1))).toBeLessThan(2e-7);
    expect(norm(loopResidual(model, loops, q!))).toBeLessThan(1e-7);
  });

  it('says so where the loop cannot close: the rod past the lever\'s reach (h > 0.1 m)', () => {
    expect(closeLoops(model, loops, ['LEVER', 'SLIDER'], new Map([['ROD', 0.15], ['LEVER', 0], ['SLIDER', 0]]), 1e-6)).toBeNull();
  });
});
