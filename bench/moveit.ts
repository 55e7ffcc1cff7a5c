// `npm run bench:moveit`: the collision matrix of `body-bridge moveit` on corpus robots — the time of the
// whole matrix at the Setup Assistant's 10,000 samples, and the self-collision check itself (every pair
// of links, no early exit) next to FCL, MoveIt's checker, doing the same checks on the same
// configurations in the same run (test/peers/fcl_collide.cpp: urdfdom + FCL as test/support/peers.ts finds them, -O2; its own clock
// around kinematics + collision, so process start and parsing are not counted). Prints Markdown.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { computeCollisionMatrix, selfCollisionChecker, stateSampler } from '../src/moveit/collision-matrix.js';
import { toUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { compileHarness } from '../test/support/harness.js';
import { findCxx, findFcl, found } from '../test/support/peers.js';
import { findProjectRoot } from './corpus.js';

const ROBOTS = [
  'choreonoid/share/model/PA10/PA10.body',
  'choreonoid/share/model/UniversalRobots/UR10.body',
  'choreonoid/share/model/UniversalRobots/UR10-2F85.body',
  'choreonoid/share/model/HRP4C/HRP4C.body',
  'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl',
  'choreonoid/share/model/GR001/GR001.body',
  'choreonoid/share/model/Tank/SimpleTank.body',
  'openhrp3/sample/model/RH2/RH2_WithArm_withoutSensor.wrl',
];
const CONFIGURATIONS = 2000;
const REPEATS = 3;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function main(): void {
  const root = findProjectRoot();
  const corpus = join(root, '..', 'shared', 'corpus');
  const work = mkdtempSync(join(tmpdir(), 'bb-bench-moveit-'));
  // fcl.pc says -std=c++11; the harness needs C++17, so that flag comes last.
  const harness = compileHarness({
    cxx: found(findCxx()).exe,
    source: join(root, 'test/peers/fcl_collide.cpp'),
    binary: join(root, 'build', 'fcl_collide_bench'),
    flags: found(findFcl()),
    before: ['-O2'],
    after: ['-std=c++17'],
  });
  const rows: string[] = [];
  try {
    for (const file of ROBOTS) {
      const ros = applyRosConventions(loadRobotModel(join(corpus, file)));
      const model = ros.model;
      const urdfFile = join(work, 'robot.urdf');
      writeUrdfSync(toUrdf(model, { meshDir: join(work, 'meshes'), meshFormat: 'stl' }), urdfFile);
      const matrix = Array.from({ length: REPEATS }, () => computeCollisionMatrix(model, { samples: 10000, seed: 0 }));
      const sample = stateSampler(model, 1);
      const configurations = Array.from({ length: CONFIGURATIONS }, sample);
      const checker = selfCollisionChecker(model);
      const n = checker.links.length;
      const ours: number[] = [];
      for (let r = 0; r < REPEATS; r++) {
        const start = performance.now();
        for (const q of configurations) {
          checker.place(q);
          for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) checker.collide(i, j);
        }
        ours.push((performance.now() - start) / 1000);
      }
      const script = configurations.map((q) => ['reset', ...[...q].map(([k, v]) => `q ${v} ${k}`), 'check'].join('\n')).join('\n') + '\ntime\n';
      const fcl: number[] = [];
      for (let r = 0; r < REPEATS; r++) {
        const out = spawnSync(harness, [urdfFile], { input: script, encoding: 'utf8', maxBuffer: 1 << 28 });
        fcl.push(Number(/^time (\S+)$/m.exec(out.stdout)?.[1]));
      }
      const m = matrix[0]!;
      const perConfig = (s: number): string => `${((s / CONFIGURATIONS) * 1e3).toFixed(3)} ms`;
      rows.push(
        `| ${file.split('/').pop()} | ${n} | ${(n * (n - 1)) / 2} | ${m.disabled.length} | ${(median(matrix.map((x) => x.millis)) / 1000).toFixed(2)} s | ` +
          `${perConfig(median(ours))} | ${perConfig(median(fcl))} | ${(median(ours) / median(fcl)).toFixed(2)} |`,
      );
      console.error(rows[rows.length - 1]);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    [
      `Collision matrix (\`body-bridge moveit\`, 10,000 samples, seed 0; median of ${REPEATS}) and one full self-collision check`,
      `(every pair of links with geometry, ${CONFIGURATIONS} random configurations, median of ${REPEATS}) next to FCL on the same configurations.`,
      '',
      '| model | links with geometry | pairs | disabled | matrix | our check / configuration | FCL check / configuration | ratio |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
}

main();
