// The node keeps out of its heap what only some inputs need (src/model/on-demand.ts): xmlbuilder2 is loaded when
// a COLLADA mesh is first read, not when the node starts. Run on the built package (npm test's tsc step), each case
// in a fresh Node.js process, as the node runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/contract.js';

const dist = join(projectRoot, 'dist');

/** The CommonJS modules of `pkg` loaded after importing `module` and running `then` (an expression) in a new process. */
function loadedFrom(pkg: string, module: string, then = ''): number {
  const script = [
    "import { createRequire } from 'node:module';",
    `const m = await import(${JSON.stringify(pathToFileURL(join(dist, module)).href)});`,
    then,
    `console.log(Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/node_modules/${pkg}/')).length);`,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: projectRoot });
  expect(r.stderr, `the child's errors`).toBe('');
  return Number(r.stdout.trim());
}

describe('what the node loads at start', () => {
  it('the package is built', () => {
    expect(existsSync(join(dist, 'ros/run-node.js')), 'dist/ros/run-node.js (npm test builds it first)').toBe(true);
  });

  it('the node starts without xmlbuilder2; reading a COLLADA mesh loads it (the check can fail)', () => {
    expect(loadedFrom('xmlbuilder2', 'ros/run-node.js'), 'xmlbuilder2 modules loaded with the node').toBe(0);
    const tyre = join(projectRoot, 'test/models/roles/tyre.dae');
    const read = `const { readFileSync } = await import('node:fs'); (await import(${JSON.stringify(pathToFileURL(join(dist, 'urdf/dae.js')).href)})).readDae(readFileSync(${JSON.stringify(tyre)}, 'utf8'));`;
    expect(loadedFrom('xmlbuilder2', 'ros/run-node.js', read), 'xmlbuilder2 modules loaded after a COLLADA mesh').toBeGreaterThan(0);
  });
});
