// A stand-in for load-worker that misbehaves on purpose, chosen by the requested file's base name,
// so the contract's self-test (test/hostile-contract.test.ts) can show that each failure mode of a
// loader — hang, stack overflow, memory blow-up, stray exception, unlocated error — is caught.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

// Diagnostics must name an existing file: this one.
const here = fileURLToPath(import.meta.url);

const goodModel = {
  name: 'm', sourceFile: '/m.body', format: 'body', root: 'A',
  links: [{
    name: 'A', parent: null,
    joint: { name: 'A', type: 'fixed', id: null, axis: [0, 0, 1], lower: -Infinity, upper: Infinity,
      velocityLower: -Infinity, velocityUpper: Infinity, effortLower: -Infinity, effortUpper: Infinity,
      initial: 0, rotorInertia: 0, gearRatio: 1 },
    offset: { translation: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
    mass: 1, centerOfMass: [0, 0, 0], inertia: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], visuals: [], collisions: [],
  }],
  devices: [], extraJoints: [], warnings: [],
};

function recurse(n) { return recurse(n + 1) + 1; }

const behaviours = {
  ok: () => ({ kind: 'loaded', model: goodModel, nonFinite: [], ms: 1, cpuMs: 1, heapUsed: 0 }),
  located: () => ({ kind: 'load-error', diagnostics: [{ severity: 'error', file: here, path: 'links[0].mass', line: 3, column: 5, message: 'expected a number for mass' }], message: 'x', ms: 1, cpuMs: 1, heapUsed: 0 }),
  unlocated: () => ({ kind: 'load-error', diagnostics: [{ severity: 'error', file: here, message: 'expected a number for mass' }], message: 'x', ms: 1, cpuMs: 1, heapUsed: 0 }),
  nofile: () => ({ kind: 'load-error', diagnostics: [{ severity: 'error', file: '', line: 1, column: 1, message: 'expected a number for mass' }], message: 'x', ms: 1, cpuMs: 1, heapUsed: 0 }),
  ghostfile: () => ({ kind: 'load-error', diagnostics: [{ severity: 'error', file: '/nonexistent/m.body', line: 2, column: 1, message: 'expected a number for mass' }], message: 'x', ms: 1, cpuMs: 1, heapUsed: 0 }),
  leaky: () => ({ kind: 'load-error', diagnostics: [{ severity: 'error', file: here, line: 1, column: 1, message: 'expected undefined but got [object Object]' }], message: 'x', ms: 1, cpuMs: 1, heapUsed: 0 }),
  typeerror: () => {
    try { null.x; } catch (e) { return { kind: 'exception', stage: 'load', name: e.constructor.name, message: e.message, stack: e.stack, ms: 1 }; }
  },
  stack: () => {
    try { recurse(0); } catch (e) { return { kind: 'exception', stage: 'load', name: e.constructor.name, message: e.message, stack: e.stack, ms: 1 }; }
  },
  nan: () => ({ kind: 'loaded', model: goodModel, nonFinite: [{ path: 'links[0].mass', value: NaN }], ms: 1, cpuMs: 1, heapUsed: 0 }),
  infinitePose: () => ({ kind: 'loaded', model: goodModel, nonFinite: [{ path: 'links[0].offset.translation[0]', value: Infinity }], ms: 1, cpuMs: 1, heapUsed: 0 }),
  twoRoots: () => ({ kind: 'loaded', model: { ...goodModel, links: [goodModel.links[0], { ...goodModel.links[0], name: 'B' }] }, nonFinite: [], ms: 1, cpuMs: 1, heapUsed: 0 }),
  hang: () => { for (;;) {} },
  oom: () => { const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random())); },
  exit: () => process.exit(3),
};

process.on('message', (req) => {
  const behaviour = behaviours[basename(req.file)];
  process.send({ id: req.id, outcome: behaviour() });
});
process.send({ ready: true });
