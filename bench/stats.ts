// Timing statistics: warm-up runs are discarded, then the median and spread of the repetitions.
// Medians and quartiles rather than means, because the other processes on a shared machine add
// one-sided outliers.
import { performance } from 'node:perf_hooks';

export interface Stats {
  /** Number of timed repetitions. */
  n: number;
  median: number;
  min: number;
  max: number;
  q1: number;
  q3: number;
}

export interface Repetitions {
  warmup: number;
  reps: number;
}

function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo] ?? NaN;
  const b = sorted[hi] ?? NaN;
  return a + (b - a) * (at - lo);
}

export function summarize(samples: readonly number[]): Stats {
  const s = [...samples].sort((x, y) => x - y);
  return {
    n: s.length,
    median: quantile(s, 0.5),
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
    q1: quantile(s, 0.25),
    q3: quantile(s, 0.75),
  };
}

/** Times `run` (milliseconds per call) after `warmup` untimed calls. */
export function timeRepeated(run: () => void, { warmup, reps }: Repetitions): Stats {
  for (let i = 0; i < warmup; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
}

/** Scales every figure of a Stats (e.g. ms per batch → operations per second, which reverses order). */
export function mapStats(s: Stats, f: (x: number) => number): Stats {
  const values = [f(s.min), f(s.max), f(s.q1), f(s.q3)];
  return {
    n: s.n,
    median: f(s.median),
    min: Math.min(values[0]!, values[1]!),
    max: Math.max(values[0]!, values[1]!),
    q1: Math.min(values[2]!, values[3]!),
    q3: Math.max(values[2]!, values[3]!),
  };
}
