// Sizes and repetition counts of a full run and of the tiny run the test suite uses.
import type { Repetitions } from './stats.js';

export interface BenchConfig {
  mode: 'full' | 'tiny';
  /** Corpus-relative paths (substring match) to restrict the load benchmark to; empty = every model. */
  models: string[];
  loadReps: Repetitions;
  /** Slow models get fewer timed repetitions (at least 3), about this many ms each. */
  loadBudgetMsPerModel: number;
  /** Load against Choreonoid's BodyLoader: best of `reps` after `warmup`, both sides alternating every `chunk` models. */
  choreonoid: { reps: Repetitions; chunk: number };
  bigWrl: { rings: number; segments: number };
  tf: { reps: Repetitions; cornerMessages: number; chainJoints: number; chainMessages: number };
  sensorReps: Repetitions;
  memoryMessages: number;
}

export const fullConfig: BenchConfig = {
  mode: 'full',
  models: [],
  loadReps: { warmup: 2, reps: 7 },
  loadBudgetMsPerModel: 1500,
  choreonoid: { reps: { warmup: 1, reps: 3 }, chunk: 20 },
  // 2 · 160 · 320 = 102,400 triangles.
  bigWrl: { rings: 160, segments: 320 },
  tf: { reps: { warmup: 2, reps: 7 }, cornerMessages: 5_000, chainJoints: 200, chainMessages: 2_000 },
  sensorReps: { warmup: 5, reps: 31 },
  memoryMessages: 1_000_000,
};

export const tinyConfig: BenchConfig = {
  mode: 'tiny',
  models: ['choreonoid/share/model/misc/box1.body', 'openhrp3/sample/model/sample1.wrl'],
  loadReps: { warmup: 1, reps: 2 },
  loadBudgetMsPerModel: 1000,
  choreonoid: { reps: { warmup: 1, reps: 2 }, chunk: 20 },
  bigWrl: { rings: 20, segments: 25 },
  tf: { reps: { warmup: 1, reps: 2 }, cornerMessages: 50, chainJoints: 200, chainMessages: 20 },
  sensorReps: { warmup: 1, reps: 3 },
  memoryMessages: 2_000,
};
