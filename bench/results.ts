// The shape of bench/results/latest.json (and BENCHMARKS.json). Every measured item is either
// { status: 'ok', name, ...figures } or { status: 'not available', name, reason }: never a fake number.
import type { ChoreonoidComparison } from './choreonoid.js';
import type { BenchConfig } from './config.js';
import type { LoadMeasurement } from './load.js';
import type { Machine } from './machine.js';
import type { MemoryMeasurement } from './memory.js';
import type { SensorCase } from './sensors.js';
import type { TfCase } from './tf.js';

export type Item<T extends object> = ({ status: 'ok'; name: string } & T) | { status: 'not available'; name: string; reason: string };

export interface TfSection {
  cases: Item<TfCase>[];
}

export interface BenchResults {
  schema: 1;
  mode: 'full' | 'tiny';
  startedAt: string;
  finishedAt: string;
  durationSec: number;
  machine: Machine;
  config: BenchConfig;
  /** null when the measurement was not asked for (--only). */
  load: Item<LoadMeasurement & { libyaml: string }> | null;
  /** Load against Choreonoid's own C++ BodyLoader; absent in runs from before it existed. */
  choreonoid?: Item<ChoreonoidComparison> | null;
  tf: Item<TfSection> | null;
  sensors: Item<{ cases: Item<SensorCase>[] }> | null;
  memory: Item<MemoryMeasurement> | null;
}
