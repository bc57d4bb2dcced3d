// How many requests a case pre-signs for a window (bench/run.ts measureSigned), and how many the second
// list gets when the first ran out early.

export interface ListSettings {
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly connections: number;
  /** The cap on a list (--max-requests). */
  readonly maxRequests: number;
}

/** Enough for warm-up + window at the expected rate, with a margin; at least 1,000. */
export function listSize(settings: ListSettings, expectedRps: number): number {
  const seconds = settings.warmupSeconds + settings.durationSeconds;
  const size = Math.ceil(expectedRps * seconds * 1.3) + 4 * settings.connections;
  return Math.min(settings.maxRequests, Math.max(1000, size));
}

/**
 * The rate to size the next list by after `listed` requests ran out `ranOutAfterSeconds` into the
 * window, where the window saw `windowRps`: the larger of that rate and twice the rate expected, and
 * never less than what a list used up in the warm-up alone implies (its requests over the warm-up). A
 * list that runs out before the window opens sees no rate at all, and doubling an expectation of 0
 * (a repeat whose base case did not run in this run, with `--case @1M`) gave 1,000 requests again.
 */
export function retryRate(windowRps: number, ranOutAfterSeconds: number, expectedRps: number, listed: number, warmupSeconds: number): number {
  const usedInWarmup = ranOutAfterSeconds <= 0 && warmupSeconds > 0 ? listed / warmupSeconds : 0;
  return Math.max(windowRps, 2 * expectedRps, usedInWarmup);
}
