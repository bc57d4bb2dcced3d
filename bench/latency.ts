// Response latencies as the bench records them: a histogram in microseconds per measured window, and
// its percentiles in milliseconds. Windows measured apart merge by adding their histograms.
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

export interface LatencyMs {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** A latency histogram in microseconds, as runLoad records one. */
export const newLatencyHistogram = (): RecordableHistogram => createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 });

/** The percentiles of a histogram in microseconds, in milliseconds (NaN when it holds nothing). */
export function latencyOf(histogram: RecordableHistogram): LatencyMs {
  const empty = histogram.count === 0;
  const ms = (us: number): number => (empty ? NaN : Math.round(us) / 1000);
  return {
    p50: ms(histogram.percentile(50)),
    p90: ms(histogram.percentile(90)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    mean: ms(histogram.mean),
  };
}
