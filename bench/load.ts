// The load generator: a fixed number of keep-alive connections (undici Pool, no pipelining), each running
// one request at a time, closed-loop. Requests come from a pre-built list (the signed ones are one-time, so
// each is sent at most once unless `cycle` is set); every response's latency goes into a histogram.
import { performance, PerformanceObserver, type RecordableHistogram } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Pool } from 'undici';
import { snapshot, usageBetween, type CpuSnapshot, type CpuUsage } from './cpu.js';
import { latencyOf, newLatencyHistogram, type LatencyMs } from './latency.js';
import { SliceRecorder, type LatencySlice } from './latency-slices.js';

/** One ready-to-send request: `body` is exactly the text that was signed. */
export interface PreparedRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface LoadOptions {
  readonly origin: string;
  readonly requests: readonly PreparedRequest[];
  readonly connections: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Reuse the list from the start when it runs out (only for requests that may be repeated, e.g. the no-op). */
  readonly cycle?: boolean;
  /** Called when the measured window opens (after the warm-up), e.g. to start a profiler. */
  readonly onWindowStart?: () => void;
  /** Called when the window's last request has been answered, before the connections close. */
  readonly onWindowEnd?: () => void;
  /** Processes whose CPU time to account over the measured window (name → pid). */
  readonly watch?: Record<string, number>;
  /** Reads a running count (the service's database statements) at the window's start and end; null when unknown. */
  readonly count?: () => Promise<number | null>;
}

export interface LoadResult {
  /** Responses to requests started inside the measured window. */
  readonly requests: number;
  /** Seconds from the window's start to its last response (shorter than asked when the list ran out). */
  readonly seconds: number;
  readonly rps: number;
  readonly latencyMs: LatencyMs;
  /**
   * Every measured response's latency in microseconds, so that windows measured apart can be merged into
   * the percentiles of all their requests (bench/paired.ts); null where a case measured its own latency.
   * Left out of the JSON results.
   */
  readonly histogram: RecordableHistogram | null;
  /** The window's answers by the 100 ms slice they arrived in (bench/latency-slices.ts); absent where windows were combined or a case timed itself. */
  readonly slices?: readonly LatencySlice[];
  /** Responses other than HTTP 200 in the measured window, by `"<status> <message>"`. */
  readonly non200: number;
  readonly non200ByReason: Record<string, number>;
  /** Non-200 responses during the warm-up, by reason (they did not count, but they point at a broken case). */
  readonly warmupNon200ByReason: Record<string, number>;
  /** The first non-200 answer's body (truncated), warm-up included, to say what went wrong. */
  readonly firstNon200: string | null;
  /** Requests that got no HTTP answer (connection errors, timeouts). */
  readonly networkErrors: number;
  readonly firstNetworkError: string | null;
  readonly requestsSent: number;
  readonly poolSize: number;
  /** True when the list ran out before the measured window was over. */
  readonly exhausted: boolean;
  /**
   * From the first request of the warm-up on: the watched processes' CPU at that moment and the 200
   * answers of warm-up and window together, for what a request costs once its background work is done.
   */
  readonly fromStart?: { readonly before: CpuSnapshot; readonly answered200: number };
  /** CPU used over the measured window by the watched processes and by everything else. */
  readonly cpu: CpuUsage | null;
  /** How much `count` grew over the measured window (the service's database statements); null without one. */
  readonly counted: number | null;
  /** Milliseconds the load generator itself spent in garbage collection inside the window (answers wait meanwhile). */
  readonly loadGcMs: number;
}

interface Answer {
  readonly status: number;
  /** The body text, kept only for non-200 answers. */
  readonly text: string | null;
}

/**
 * One request through `pool.dispatch` with a minimal handler: no response stream objects, and the body of a
 * 200 is discarded unread. That halves the client's CPU per request against `pool.request`, which matters
 * because the load generator shares the machine's two cores with the server it measures.
 */
function send(pool: Pool, origin: string, request: PreparedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let chunks: Buffer[] | null = null;
    pool.dispatch(
      { origin, path: request.path, method: 'POST', headers: request.headers, body: request.body },
      {
        // undici recognises the current handler interface by this method, even when it does nothing.
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode;
          if (statusCode !== 200) chunks = [];
        },
        onResponseData(_controller, chunk) {
          chunks?.push(chunk);
        },
        onResponseEnd() {
          resolve({ status, text: chunks ? Buffer.concat(chunks).toString('utf8') : null });
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

function reasonOf(answer: Answer): string {
  try {
    const parsed = JSON.parse(answer.text ?? '') as { message?: unknown };
    return `${answer.status} ${typeof parsed.message === 'string' ? parsed.message : '?'}`;
  } catch {
    return `${answer.status} (not JSON)`;
  }
}

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * V8's `gc`, exposed at run time. The load generator shares its heap with the rest of the bench, which
 * has just signed the window's requests: tens of thousands of young objects, copied by the scavenges
 * of the warm-up and the window (3 - 18 ms each) while no answer could be read, so every call in flight
 * looked that much slower. Two scavenges before the warm-up move them out of the young generation.
 * (A full collection there made it worse: it set the old generation's next limit just above the small
 * live heap, and the window then had six to ten full collections.)
 */
const scavenge: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (options: { type: 'minor' }) => void;
  return () => gc({ type: 'minor' });
})();

/** The load generator's garbage collections: [start, end] pairs in performance.now() time, while a window is watched. */
const gcSpans: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcSpans.push(entry.startTime, entry.startTime + entry.duration);
}).observe({ entryTypes: ['gc'] });

/** Milliseconds of the recorded collections inside [from, until]. */
function gcMsBetween(from: number, until: number): number {
  let ms = 0;
  for (let i = 0; i < gcSpans.length; i += 2) ms += Math.max(0, Math.min(gcSpans[i + 1]!, until) - Math.max(gcSpans[i]!, from));
  return ms;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { requests, connections } = options;
  if (requests.length === 0) throw new Error('runLoad: no requests to send');
  scavenge();
  scavenge();
  gcSpans.length = 0;
  const pool = new Pool(options.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const histogram = newLatencyHistogram();
  const slices = new SliceRecorder();
  const non200ByReason: Record<string, number> = {};
  const warmupNon200ByReason: Record<string, number> = {};
  let next = 0;
  let sent = 0;
  let answered200 = 0;
  let measured = 0;
  let non200 = 0;
  let networkErrors = 0;
  let exhausted = false;
  let lastResponseAt = 0;
  let firstNon200: string | null = null;
  let firstNetworkError: string | null = null;

  const watch = { ...options.watch, 'load generator': process.pid };
  const fromStart = snapshot(watch);
  const start = performance.now();
  const measureFrom = start + options.warmupMs;
  const measureUntil = measureFrom + options.durationMs;

  const take = (): PreparedRequest | undefined => {
    if (next >= requests.length) {
      if (!options.cycle) return undefined;
      next = 0;
    }
    return requests[next++];
  };

  const connectionLoop = async (): Promise<void> => {
    for (;;) {
      const startedAt = performance.now();
      if (startedAt >= measureUntil) return;
      const request = take();
      if (!request) {
        if (startedAt < measureUntil) exhausted = true;
        return;
      }
      sent++;
      const inWindow = startedAt >= measureFrom;
      try {
        const answer = await send(pool, options.origin, request);
        const endedAt = performance.now();
        let reason: string | null = null;
        if (answer.status === 200) answered200++;
        else {
          reason = reasonOf(answer);
          firstNon200 ??= `${request.path} → ${(answer.text ?? '').slice(0, 400)}`;
        }
        if (inWindow) {
          measured++;
          lastResponseAt = endedAt;
          histogram.record(Math.max(1, Math.round((endedAt - startedAt) * 1000)));
          slices.record(endedAt - measureFrom, endedAt - startedAt);
          if (reason !== null) {
            non200++;
            bump(non200ByReason, reason);
          }
        } else if (reason !== null) {
          bump(warmupNon200ByReason, reason);
        }
      } catch (error) {
        networkErrors++;
        firstNetworkError ??= error instanceof Error ? error.message : String(error);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  };

  const cpuWindow: { before: CpuSnapshot | null; after: CpuSnapshot | null } = { before: null, after: null };
  let countedBefore: Promise<number | null> | null = null;
  let counted: number | null = null;
  const windowTimer = setTimeout(() => {
    cpuWindow.before = snapshot(watch);
    countedBefore = options.count?.() ?? null;
    options.onWindowStart?.();
  }, Math.max(0, measureFrom - performance.now()));
  try {
    await Promise.all(Array.from({ length: connections }, () => connectionLoop()));
    cpuWindow.after = snapshot(watch);
    options.onWindowEnd?.();
    if (countedBefore !== null && options.count) {
      const [before, after] = await Promise.all([countedBefore, options.count()]);
      counted = before === null || after === null ? null : after - before;
    }
  } finally {
    clearTimeout(windowTimer);
    await pool.close().catch(() => undefined);
  }
  // The observer hears of a collection after it ended, from a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const loadGcMs = gcMsBetween(measureFrom, Math.max(measureFrom, lastResponseAt));
  gcSpans.length = 0;

  const seconds = measured > 0 ? (lastResponseAt - measureFrom) / 1000 : 0;
  return {
    requests: measured,
    seconds,
    rps: seconds > 0 ? measured / seconds : 0,
    latencyMs: latencyOf(histogram),
    histogram,
    slices: slices.slices(),
    non200,
    non200ByReason,
    warmupNon200ByReason,
    firstNon200,
    networkErrors,
    firstNetworkError,
    requestsSent: sent,
    fromStart: { before: fromStart, answered200 },
    poolSize: requests.length,
    exhausted,
    cpu: cpuWindow.before && cpuWindow.after ? usageBetween(cpuWindow.before, cpuWindow.after) : null,
    counted,
    loadGcMs,
  };
}
