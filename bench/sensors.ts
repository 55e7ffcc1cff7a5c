// Measurement 3: sensor conversions (choreonoid_ros message in → standard message out), against
// the physical limit measured in the same run: copying as many bytes as the conversion writes with
// TypedArray.set into a preallocated buffer.
import { type Repetitions, type Stats, timeRepeated } from './stats.js';

export interface SensorWork {
  name: string;
  /** Bytes of the incoming payload (image / scan data). */
  inputBytes: number;
  /** Runs one conversion; returns the bytes of the outgoing payload (PointCloud2 / Image data). */
  run: () => number;
}

export interface SensorCase {
  name: string;
  inputBytes: number;
  outputBytes: number;
  /** Milliseconds per conversion. */
  oursMs: Stats;
  /** Milliseconds to copy outputBytes (or inputBytes if larger) with Uint8Array.prototype.set. */
  copyMs: Stats;
  copyBytes: number;
  /**
   * Not the limit the targets use, shown to explain ratios: the same copy into a freshly allocated
   * buffer, as a conversion that hands out a new message each time must pay for (zeroed pages).
   */
  copyFreshMs: Stats;
  /** MB/s (10^6 bytes) at the medians: bytes in and out of the conversion, bytes copied by the copy. */
  oursInputMBps: number;
  oursOutputMBps: number;
  copyMBps: number;
  /** oursMs.median / copyMs.median. */
  ratio: number;
}

export function measureSensorCase(work: SensorWork, reps: Repetitions): SensorCase {
  const outputBytes = work.run();
  const oursMs = timeRepeated(() => {
    work.run();
  }, reps);
  const copyBytes = Math.max(outputBytes, work.inputBytes);
  const source = new Uint8Array(copyBytes);
  for (let i = 0; i < copyBytes; i++) source[i] = i & 0xff;
  const target = new Uint8Array(copyBytes);
  const copyMs = timeRepeated(() => target.set(source), reps);
  const copyFreshMs = timeRepeated(() => new Uint8Array(copyBytes).set(source), reps);
  return {
    name: work.name,
    inputBytes: work.inputBytes,
    outputBytes,
    oursMs,
    copyMs,
    copyBytes,
    copyFreshMs,
    oursInputMBps: work.inputBytes / 1e3 / oursMs.median,
    oursOutputMBps: outputBytes / 1e3 / oursMs.median,
    copyMBps: copyBytes / 1e3 / copyMs.median,
    ratio: oursMs.median / copyMs.median,
  };
}
