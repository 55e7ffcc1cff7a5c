// The package as a library: `import … from 'body-bridge'` resolves through package.json's exports to
// the built files and their declarations, for JavaScript at run time and for TypeScript at compile time.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/contract.js';
import { requireShared } from './support/oracle.js';
import { partWith } from './support/peer-skip.js';
import { checkUrdf, checkUrdfPeer } from './support/urdf-peers.js';
import { scratchDir } from './support/temp-dir.js';

const consumerDir = join(projectRoot, 'test/fixtures/library-consumer');
const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
const work = scratchDir('bb-library-');

describe('body-bridge as a library', () => {
  it('is built (npm test builds before it runs the suite)', () => {
    expect(existsSync(join(projectRoot, 'dist/index.js')), 'run npm run build first').toBe(true);
    expect(existsSync(join(projectRoot, 'dist/index.d.ts'))).toBe(true);
  });

  it('type-checks a consumer that imports by the package name, against the emitted declarations', () => {
    const r = spawnSync(process.execPath, [tsc, '-p', join(consumerDir, 'tsconfig.json')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('refuses what the package does not offer (the check can fail)', () => {
    const r = spawnSync(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', join(consumerDir, 'misuse.ts')],
      { encoding: 'utf8' },
    );
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/TS2305: Module '"body-bridge"' has no exported member 'startBridge'/);
    expect(r.stdout).toMatch(/TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/);
  });

  it('loads, converts and writes a corpus model through the package name at run time', () => {
    requireShared();
    const model = join(projectRoot, '../shared/corpus/choreonoid/share/model/PA10/PA10.body');
    const out = join(work, 'pa10.urdf');
    const script = `
      import { applyRosConventions, frameTree, loadRobotModel, toUrdf, writeUrdf } from 'body-bridge';
      const { model } = applyRosConventions(loadRobotModel(process.argv[1]));
      const written = await writeUrdf(toUrdf(model, { meshDir: process.argv[2] + '.meshes' }), process.argv[2]);
      console.log(JSON.stringify({ name: model.name, links: model.links.length, frames: frameTree(model).length, urdf: written.urdfFile }));`;
    // Run from the project root: Node resolves a package's own name there (self-reference through "exports").
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, model, out], { cwd: projectRoot, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const result = JSON.parse(r.stdout) as { name: string; links: number; frames: number; urdf: string };
    expect(result).toMatchObject({ name: 'PA10', urdf: out });
    expect(result.links).toBeGreaterThan(8);
    if (partWith('library: check_urdf on the URDF written through the package name', checkUrdfPeer())) {
      const checked = checkUrdf(out);
      expect(checked.ok, checked.output).toBe(true);
      expect(checked.output).toMatch(/root Link: BASE/);
    }
  });
});
