// Real peers for the URDF checks: check_urdf (urdfdom), the KDL forward-kinematics harness built
// from test/peers/kdl_fk.cpp against kdl_parser + orocos-kdl, assimp, sdformat, plus a small independent
// XML reader so tests can look inside the URDF without trusting the writer's own data structures.
// Each peer is found by peers.ts; the `…Peers` lists are what a test passes to skipWithout.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Mat3, Pose, Vec3 } from '../../src/model/types.js';
import { compileHarness } from './harness.js';
import { projectRoot } from './oracle.js';
import { type Executable, findAssimp, findCheckUrdf, findCxx, findKdl, findSdformat, found, type Lookup, memo } from './peers.js';

export const checkUrdfPeer = memo(findCheckUrdf);
export const assimpPeer = memo(findAssimp);
export const kdlPeers = memo(() => [findCxx(), findKdl()] as const);
export const sdformatPeers = memo(() => [findCxx(), findSdformat()] as const);
const exe = (lookup: Lookup<Executable>): string => found(lookup).exe;

export interface CheckUrdfResult {
  ok: boolean;
  output: string;
}

export function checkUrdf(file: string): CheckUrdfResult {
  const r = spawnSync(exe(checkUrdfPeer()), [file], { encoding: 'utf8', timeout: 60_000 });
  return { ok: r.status === 0 && /Successfully Parsed XML/.test(r.stdout), output: `${r.stdout}${r.stderr}` };
}

const harnessSource = join(projectRoot, 'test/peers/kdl_fk.cpp');
const harnessBinary = join(projectRoot, 'build/kdl_fk');

/** Builds the KDL harness against the kdl_parser and orocos-kdl peers.ts finds (rebuilt when they or the source change). */
export function buildKdlHarness(): string {
  const [cxx, kdl] = kdlPeers();
  return compileHarness({ cxx: exe(cxx), source: harnessSource, binary: harnessBinary, flags: found(kdl), before: ['-O1', '-std=c++17'] });
}

export type JointValues = Record<string, number>;

/** Runs the harness once over several configurations; each result maps segment name → pose in the root segment. */
export function kdlForwardKinematics(urdfFile: string, configurations: JointValues[]): Map<string, Pose>[] {
  const script: string[] = [];
  for (const q of configurations) {
    script.push('reset');
    for (const [name, value] of Object.entries(q)) script.push(`q ${value} ${name}`);
    script.push('fk');
  }
  const r = spawnSync(buildKdlHarness(), [urdfFile], { input: `${script.join('\n')}\n`, encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`kdl_fk failed (${r.status}): ${r.stderr}`);
  const results: Map<string, Pose>[] = [];
  let current = new Map<string, Pose>();
  for (const line of r.stdout.split('\n')) {
    if (line === '') continue;
    if (line === 'end') {
      results.push(current);
      current = new Map();
      continue;
    }
    const parts = line.split(' ');
    const n = parts.slice(0, 12).map(Number);
    const name = parts.slice(12).join(' ');
    current.set(name, {
      translation: [n[0]!, n[1]!, n[2]!],
      rotation: [
        [n[3]!, n[4]!, n[5]!],
        [n[6]!, n[7]!, n[8]!],
        [n[9]!, n[10]!, n[11]!],
      ],
    });
  }
  return results;
}

/** KDL's view of the joints: segment joint name → fixed | rotational | translational. */
export function kdlJoints(urdfFile: string): Map<string, string> {
  const r = spawnSync(buildKdlHarness(), [urdfFile], { input: 'joints\n', encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kdl_fk failed (${r.status}): ${r.stderr}`);
  const out = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    if (line === '' || line === 'end') continue;
    const i = line.indexOf(' ');
    out.set(line.slice(i + 1), line.slice(0, i));
  }
  return out;
}

/** KDL's chain from base to tip (Tree::getChain, what MoveIt's KDL plugin solves): its moving joints, or null when there is none. */
export function kdlChains(urdfFile: string, chains: readonly { base: string; tip: string }[]): (string[] | null)[] {
  const r = spawnSync(buildKdlHarness(), [urdfFile], { input: chains.map((c) => `chain ${c.base} ${c.tip}\n`).join(''), encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kdl_fk failed (${r.status}): ${r.stderr}`);
  const out: (string[] | null)[] = [];
  let current: string[] | null = null;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('chain ')) current = [];
    else if (line === 'nochain') current = null;
    else if (line.startsWith('joint ')) current?.push(line.slice(6));
    else if (line === 'end') out.push(current);
  }
  return out;
}

/** `assimp info FILE`: opens the file with assimp's importer; returns its text output. */
export function assimpInfo(file: string): { ok: boolean; output: string } {
  const r = spawnSync(exe(assimpPeer()), ['info', file], { encoding: 'utf8', timeout: 120_000 });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

export interface XmlNodeRead {
  name: string;
  attributes: Record<string, string>;
  children: XmlNodeRead[];
  /** The element's own character content (a ros2_control <param>'s value), entities decoded. */
  text: string;
}

const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]!;
  });

/** A deliberately small XML reader (elements, attributes and text; comments and declarations skipped). */
export function parseXml(xml: string): XmlNodeRead {
  const stack: XmlNodeRead[] = [{ name: '#document', attributes: {}, children: [], text: '' }];
  const token = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (let m = token.exec(xml); m; m = token.exec(xml)) {
    if (m[5] !== undefined) {
      stack[stack.length - 1]!.text += decodeEntities(m[5]);
      continue;
    }
    if (m[1] !== undefined) {
      const open = stack.pop();
      if (!open || open.name !== m[1]) throw new Error(`mismatched </${m[1]}>`);
      continue;
    }
    if (m[2] === undefined) continue;
    const attributes: Record<string, string> = {};
    const attr = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
    for (let a = attr.exec(m[3] ?? ''); a; a = attr.exec(m[3] ?? '')) attributes[a[1]!] = decodeEntities(a[2] ?? a[3] ?? '');
    const node: XmlNodeRead = { name: m[2], attributes, children: [], text: '' };
    stack[stack.length - 1]!.children.push(node);
    if (m[4] !== '/') stack.push(node);
  }
  if (stack.length !== 1) throw new Error('unclosed element');
  const root = stack[0]!.children[0];
  if (!root) throw new Error('no root element');
  return root;
}

export const child = (n: XmlNodeRead, name: string): XmlNodeRead | undefined => n.children.find((c) => c.name === name);
export const childrenNamed = (n: XmlNodeRead, name: string): XmlNodeRead[] => n.children.filter((c) => c.name === name);
export const numbers = (s: string | undefined): number[] => (s ?? '').trim().split(/\s+/).filter((x) => x !== '').map(Number);

/** URDF rpy (fixed axes X, Y, Z): R = Rz(yaw)·Ry(pitch)·Rx(roll), computed independently of src/. */
export function rpyToMatrix(r: number, p: number, y: number): Mat3 {
  const Rx: Mat3 = [[1, 0, 0], [0, Math.cos(r), -Math.sin(r)], [0, Math.sin(r), Math.cos(r)]];
  const Ry: Mat3 = [[Math.cos(p), 0, Math.sin(p)], [0, 1, 0], [-Math.sin(p), 0, Math.cos(p)]];
  const Rz: Mat3 = [[Math.cos(y), -Math.sin(y), 0], [Math.sin(y), Math.cos(y), 0], [0, 0, 1]];
  return mm(Rz, mm(Ry, Rx));
}

export function mm(a: Mat3, b: Mat3): Mat3 {
  const r: Mat3 = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r[i]![j] = a[i]![0]! * b[0]![j]! + a[i]![1]! * b[1]![j]! + a[i]![2]! * b[2]![j]!;
  return r;
}

export const mv = (a: Mat3, v: Vec3): Vec3 => [
  a[0][0] * v[0] + a[0][1] * v[1] + a[0][2] * v[2],
  a[1][0] * v[0] + a[1][1] * v[1] + a[1][2] * v[2],
  a[2][0] * v[0] + a[2][1] * v[1] + a[2][2] * v[2],
];

/** <origin> of an element as a pose (identity when absent). */
export function originOf(n: XmlNodeRead): Pose {
  const o = child(n, 'origin');
  const xyz = numbers(o?.attributes.xyz);
  const rpy = numbers(o?.attributes.rpy);
  return {
    translation: [xyz[0] ?? 0, xyz[1] ?? 0, xyz[2] ?? 0],
    rotation: rpyToMatrix(rpy[0] ?? 0, rpy[1] ?? 0, rpy[2] ?? 0),
  };
}

/** Largest absolute difference between two poses' entries. */
export function poseDifference(a: Pose, b: Pose): number {
  let d = 0;
  for (let i = 0; i < 3; i++) {
    d = Math.max(d, Math.abs(a.translation[i]! - b.translation[i]!));
    for (let j = 0; j < 3; j++) d = Math.max(d, Math.abs(a.rotation[i]![j]! - b.rotation[i]![j]!));
  }
  return d;
}

const sdfHarnessSource = join(projectRoot, 'test/peers/sdf_check.cpp');
const sdfHarnessBinary = join(projectRoot, 'build/sdf_check');

/** Builds the sdformat harness (Debian 12's libsdformat-dev has sdformat 12: what Gazebo Fortress and ros_gz use on Humble). */
export function buildSdfHarness(): string {
  const [cxx, sdf] = sdformatPeers();
  return compileHarness({ cxx: exe(cxx), source: sdfHarnessSource, binary: sdfHarnessBinary, flags: found(sdf), before: ['-O1', '-std=c++17'] });
}

export interface SdfLoad {
  errors: string[];
  model?: { name: string; links: number; joints: { type: string; name: string }[] };
}

/** Loads each URDF with sdf::Root::Load (URDF → SDFormat, as Gazebo does), all in one process. */
export function sdformatLoad(urdfFiles: readonly string[]): Map<string, SdfLoad> {
  const r = spawnSync(buildSdfHarness(), [], { input: `${urdfFiles.join('\n')}\n`, encoding: 'utf8', timeout: 600_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`sdf_check failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const out = new Map<string, SdfLoad>();
  let file = '';
  let current: SdfLoad = { errors: [] };
  for (const line of r.stdout.split('\n')) {
    const space = line.indexOf(' ');
    const head = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    if (head === 'file') {
      file = rest;
      current = { errors: [] };
    } else if (head === 'error') current.errors.push(rest);
    else if (head === 'model') {
      const [name, links] = rest.split(' ');
      current.model = { name: name!, links: Number(links), joints: [] };
    } else if (head === 'joint') {
      const s = rest.indexOf(' ');
      current.model?.joints.push({ type: rest.slice(0, s), name: rest.slice(s + 1) });
    } else if (head === 'end') out.set(file, current);
  }
  return out;
}

/** What kdl_parser prints while reading the URDF (robot_state_publisher shows the same warnings). */
export function kdlParserMessages(urdfFile: string): string {
  const r = spawnSync(buildKdlHarness(), [urdfFile], { input: 'joints\n', encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kdl_fk failed (${r.status}): ${r.stderr}`);
  return r.stderr;
}
