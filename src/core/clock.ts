// The one source of time. Expiry, refund windows, settlement and retries read it,
// so tests move time forward instead of sleeping.
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock tests can move; starts at the given instant. */
export class ManualClock implements Clock {
  constructor(private currentMs: number = Date.now()) {}
  nowMs(): number {
    return this.currentMs;
  }
  advance(ms: number): void {
    this.currentMs += ms;
  }
  set(ms: number): void {
    this.currentMs = ms;
  }
}

/** A clock offset from the system clock; lets a running server be moved forward from outside. */
export class OffsetClock implements Clock {
  private offsetMs = 0;
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/**
 * Time for waits, deadlines and caches, never for business dates: monotonic milliseconds, unmoved by
 * a system clock change or by a test moving the business clock.
 */
export const monotonicMs = (): number => performance.now();

export const isoFromMs = (ms: number | bigint): string => new Date(Number(ms)).toISOString();

/** Waits in real time: for an answer from outside the process, never to let business time pass (that is the Clock's). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const MS_PER_SECOND = 1000;
