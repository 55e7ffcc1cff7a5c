// FCL as the peer for the collision matrix: the harness of test/peers/fcl_collide.cpp (urdfdom + FCL,
// built in the test run like the KDL one) gives, per joint configuration, the link pairs FCL finds in collision.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './oracle.js';

const source = join(projectRoot, 'test/peers/fcl_collide.cpp');
const binary = join(projectRoot, 'build/fcl_collide');

export function buildFclHarness(): string {
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return binary;
  mkdirSync(join(projectRoot, 'build'), { recursive: true });
  const pc = spawnSync('pkg-config', ['--cflags', '--libs', 'fcl', 'urdfdom'], { encoding: 'utf8' });
  if (pc.status !== 0) throw new Error(`fcl or urdfdom not found by pkg-config (apt-get install libfcl-dev liburdfdom-dev): ${pc.stderr}`);
  const tmp = `${binary}.${process.pid}`;
  // fcl.pc says -std=c++11; the harness needs C++17, so that flag comes last.
  execFileSync('g++', ['-O2', '-o', tmp, source, ...pc.stdout.trim().split(/\s+/), '-std=c++17'], { stdio: 'pipe' });
  execFileSync('mv', [tmp, binary]);
  return binary;
}

export interface FclRun {
  /** Links with collision geometry FCL could read. */
  links: string[];
  /** Shapes it could not read, by link. */
  skipped: Map<string, string>;
  /** Per configuration: colliding pairs as "A\u0000B" with A < B. */
  hits: Set<string>[];
  /** Seconds FCL (with the harness's kinematics) spent in the checks. */
  seconds: number;
}

export const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** FCL's verdicts for each configuration; every primitive's dimensions multiplied by `scale`. */
export function fclCollisions(urdfFile: string, configurations: readonly ReadonlyMap<string, number>[], scale = 1): FclRun {
  const script = [`scale ${scale}`];
  for (const q of configurations) {
    script.push('reset');
    for (const [name, value] of q) script.push(`q ${value} ${name}`);
    script.push('check');
  }
  script.push('time');
  const r = spawnSync(buildFclHarness(), [urdfFile], { input: `${script.join('\n')}\n`, encoding: 'utf8', timeout: 600_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`fcl_collide failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const out: FclRun = { links: [], skipped: new Map(), hits: [], seconds: NaN };
  let current = new Set<string>();
  for (const line of r.stdout.split('\n')) {
    const [head, a, ...rest] = line.split(' ');
    if (head === 'link') out.links.push(a!);
    else if (head === 'skip') out.skipped.set(a!, rest.join(' '));
    else if (head === 'hit') current.add(pairKey(a!, rest[0]!));
    else if (head === 'time') out.seconds = Number(a);
    else if (head === 'end') {
      out.hits.push(current);
      current = new Set();
    }
  }
  return out;
}

/** The robots the MoveIt peers check: arms, arms with hands, humanoids, a tracked vehicle, a wheeled base with an arm. */
export const MOVEIT_ROBOTS = [
  'choreonoid/share/model/PA10/PA10.body',
  'choreonoid/share/model/UniversalRobots/UR10.body',
  'choreonoid/share/model/HRP4C/HRP4C.body',
  'choreonoid-legacy-wrl/share/model/SR1/SR1.wrl',
  'choreonoid/share/model/GR001/GR001.body',
  'choreonoid/share/model/Tank/SimpleTank.body',
  'choreonoid/share/model/UniversalRobots/UR10-2F85.body',
  'openhrp3/sample/model/RH2/RH2_WithArm_withoutSensor.wrl',
];
