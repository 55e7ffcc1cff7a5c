// The machine a run happened on, for BENCHMARKS.md (absolute figures only mean something next to it).
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  v8: string;
  gxx: string;
  python: string;
  kdl: string;
  /** 1-minute load average when the run started: above the core count, figures are noisy. */
  loadAverageAtStart: number;
}

function firstLine(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? (`${r.stdout}${r.stderr}`.trim().split('\n')[0] ?? '') : 'unavailable';
}

export function describeMachine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${process.platform} ${release()}`,
    node: process.version,
    v8: process.versions.v8,
    gxx: firstLine('g++', ['--version']),
    python: firstLine('python3', ['--version']),
    kdl: `orocos-kdl ${firstLine('pkg-config', ['--modversion', 'orocos-kdl'])}`,
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
