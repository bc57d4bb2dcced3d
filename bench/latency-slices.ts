// A window's answers by the 100 ms slice of time in which they arrived. A p99 over its target reads
// two ways at 50 closed-loop connections: slow answers spread across the window (each request waits
// behind the other 49, so the tail follows the rate: 50 / rate on average, and short pauses that come
// once a slice or so look the same), or a few stretches much slower than the rest (a long stall: a
// checkpoint, a burst of background work). The percentiles cannot tell the two apart; the slices can.
// Recorded as the answers come (three numbers a slice, nothing kept per request), so the load
// generator does no more work for it. The first slice holds only requests started in the window, so
// it leans fast; the last may run past the window's end. A window combined from several (the million
// repeats, bench/paired.ts) keeps none.

/** The width of a slice. */
export const SLICE_MS = 100;

export interface LatencySlice {
  /** When the slice starts, from the window's start. */
  readonly startMs: number;
  readonly answers: number;
  readonly meanMs: number;
  readonly maxMs: number;
}

/** Answers of one window, added as they arrive. */
export class SliceRecorder {
  private readonly counts: number[] = [];
  private readonly sums: number[] = [];
  private readonly maxima: number[] = [];

  /** An answer `latencyMs` long that arrived `sinceWindowMs` after the window opened. */
  record(sinceWindowMs: number, latencyMs: number): void {
    const i = Math.max(0, Math.floor(sinceWindowMs / SLICE_MS));
    while (this.counts.length <= i) {
      this.counts.push(0);
      this.sums.push(0);
      this.maxima.push(0);
    }
    this.counts[i]! += 1;
    this.sums[i]! += latencyMs;
    if (latencyMs > this.maxima[i]!) this.maxima[i] = latencyMs;
  }

  /** The slices that had an answer, in time order. */
  slices(): LatencySlice[] {
    const out: LatencySlice[] = [];
    this.counts.forEach((answers, i) => {
      if (answers > 0) out.push({ startMs: i * SLICE_MS, answers, meanMs: this.sums[i]! / answers, maxMs: this.maxima[i]! });
    });
    return out;
  }
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Where the answers over a p99 target came from, for the notes of a window that missed it: how many
 * slices had one, the spread of the slices' mean latencies, and the slowest slice. Null with no slices.
 */
export function slicesNote(slices: readonly LatencySlice[], p99TargetMs: number): string | null {
  if (slices.length === 0) return null;
  const over = slices.filter((slice) => slice.maxMs > p99TargetMs).length;
  const means = slices.map((slice) => slice.meanMs).sort((a, b) => a - b);
  const slowest = slices.reduce((worst, slice) => (slice.meanMs > worst.meanMs ? slice : worst));
  const share = over / slices.length;
  // Half the slices or more: the slow answers are spread across the window, as the queue of 50
  // connections behind a busy service spreads them (short pauses once a slice or so look the same).
  const reading =
    share >= 0.5
      ? 'spread across the window'
      : share <= 0.1
        ? 'in a few stretches, while the rest of the window met it'
        : 'in part of the window';
  return (
    `latency by ${SLICE_MS} ms slice: ${over} of ${slices.length} slices had an answer over ${p99TargetMs} ms (${reading}); ` +
    `slice means ${quantile(means, 0.1).toFixed(1)} (p10) / ${quantile(means, 0.5).toFixed(1)} (median) / ${quantile(means, 0.9).toFixed(1)} (p90) ms; ` +
    `slowest slice ${(slowest.startMs / 1000).toFixed(1)} s into the window: ${slowest.answers} answers, mean ${slowest.meanMs.toFixed(1)}, max ${slowest.maxMs.toFixed(1)} ms`
  );
}
