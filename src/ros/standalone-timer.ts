// A message that goes out on its own at a rate only while its stream is silent (CameraInfo for rviz's frustum
// while no image comes). A timer at the stream's rate that only looked whether something came cost a wake-up
// of rclnodejs's executor per period even while the stream ran: about 0.6 ms of CPU a wake-up on the 2-core test
// machine, 0.5 CPU-s every 10 s for a body with three cameras at 30 Hz doing nothing (BENCHMARKS.md, "Live on a
// simulation"). So while the stream runs, a slow watch timer only notices when it stops, and the timer at the
// stream's rate runs only while it is silent.
import type { Transport } from './transport.js';

/** How often a running stream is looked at: a silent one gets its standalone messages at most this much later. */
export const WATCH_PERIOD_MS = 500;

export interface StandaloneTimer {
  /** The stream sent something now (the caller publishes it itself). */
  streamed(): void;
  stop(): void;
}

/**
 * Calls `alone` every `periodMs` of the node's clock while `streamed()` is not called: at first, and again once
 * a whole watch period (WATCH_PERIOD_MS, or `periodMs` when longer) passed without it. While the stream runs it
 * leaves a period without a call out, as the single timer did: a period with a message of the stream sends nothing.
 */
export function standaloneTimer(timer: Transport['timer'], periodMs: number, alone: () => void): StandaloneTimer {
  const watchMs = Math.max(WATCH_PERIOD_MS, periodMs);
  let sinceTick = false;
  let stopTimer: () => void = () => undefined;
  const silent = (): void => {
    stopTimer = timer(periodMs, () => {
      if (!sinceTick) {
        alone();
        return;
      }
      // The stream runs: from now on only watch it.
      sinceTick = false;
      stopTimer();
      watching();
    });
  };
  const watching = (): void => {
    stopTimer = timer(watchMs, () => {
      if (sinceTick) {
        sinceTick = false;
        return;
      }
      stopTimer();
      silent();
      // A whole watch period went by silent: the first standalone message is due now, not a period later.
      alone();
    });
  };
  silent();
  return {
    streamed: () => void (sinceTick = true),
    stop: () => stopTimer(),
  };
}
