// The shared rate limit's leases, on the real store (both stores by TEST_STORE): several limiters on
// one database stand for several API processes. Whatever the interleaving, no second lets more than
// the limit through; one process alone gets exactly the limit; and a lease spares the round trips.
// Last, both limiters' mayHaveRoom, which decides whether a read route may read before it is counted.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { LEASE_DIVISOR, SharedRateLimiter } from '../../src/http/rate-limit-shared.js';
import { openTestStore } from '../helpers/store.js';

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

const counters = async (): Promise<Map<string, bigint>> => {
  const rows = await store.db.selectFrom('rate_limit_windows').select(['bucket', 'n']).execute();
  return new Map(rows.map((row) => [row.bucket, BigInt(row.n)]));
};

describe('SharedRateLimiter leases', () => {
  it('never lets more than the limit through in a second, and one process alone gets exactly the limit', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.record({ process: fc.nat(2), burst: fc.integer({ min: 1, max: 15 }), together: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        async (perSecond, processes, bursts) => {
          // Every run is a second of its own, with fresh processes.
          clock.advance(1000);
          round += 1;
          const bucket = `m-${round}`;
          const limiters = Array.from({ length: processes }, () => new SharedRateLimiter(store.db, clock));
          const answers: Promise<number>[] = [];
          for (const { process, burst, together } of bursts) {
            const limiter = limiters[process % processes]!;
            const fired = Array.from({ length: burst }, () => Promise.resolve(limiter.take(bucket, perSecond)));
            answers.push(...fired);
            // Some bursts wait for their answers before the next one starts, others overlap it.
            if (!together) await Promise.all(fired);
          }
          const outcomes = await Promise.all(answers);
          const passed = outcomes.filter((o) => o === 0).length;
          expect(outcomes.every((o) => o === 0 || o === 1)).toBe(true);
          expect(passed).toBeLessThanOrEqual(perSecond);
          const spare = Math.floor(perSecond / LEASE_DIVISOR);
          if (processes === 1 || spare === 0) {
            expect(passed).toBe(Math.min(outcomes.length, perSecond));
          } else if (passed < outcomes.length) {
            // Only other processes' unused leases can stand between a refusal and the limit.
            expect(passed).toBeGreaterThanOrEqual(perSecond - processes * spare);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts a tenth of the limit ahead, so the next requests of the second need no round trip', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 7, 0, 0));
    const limiter = new SharedRateLimiter(store.db, clock);
    expect(await limiter.take('lease-a', 100)).toBe(0);
    // One request and a lease of 10 are counted in the database.
    expect((await counters()).get('lease-a')).toBe(11n);
    // The next ten are served from the lease: answered at once, the counter untouched.
    for (let i = 0; i < 10; i += 1) expect(limiter.take('lease-a', 100)).toBe(0);
    expect((await counters()).get('lease-a')).toBe(11n);
    // The eleventh needs the database again, and takes a new lease.
    expect(await limiter.take('lease-a', 100)).toBe(0);
    expect((await counters()).get('lease-a')).toBe(22n);
    // A new second: the old lease is worth nothing.
    clock.advance(1000);
    expect(await limiter.take('lease-a', 100)).toBe(0);
    expect((await counters()).get('lease-a')).toBe(11n);
  });

  it('leases only what the limit leaves: a second process gets the rest, then both are refused', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 8, 0, 0));
    const [a, b] = [new SharedRateLimiter(store.db, clock), new SharedRateLimiter(store.db, clock)];
    // a: 85 requests one after the other, a round trip for every tenth (each leases 9 of the 90).
    let passedA = 0;
    for (let i = 0; i < 85; i += 1) if ((await a.take('lease-b', 90)) === 0) passedA += 1;
    expect(passedA).toBe(85);
    // a's last round trip counted up to the limit and holds 5 unused permits: b gets none of them.
    const outcomesB = await Promise.all(Array.from({ length: 20 }, () => Promise.resolve(b.take('lease-b', 90))));
    const passedB = outcomesB.filter((o) => o === 0).length;
    let more = 0;
    for (let i = 0; i < 20; i += 1) if ((await a.take('lease-b', 90)) === 0) more += 1;
    expect(passedB).toBe(0);
    // a hands out its 5 and is refused after them: 90 in all, exactly the limit.
    expect(more).toBe(5);
    expect(passedA + passedB + more).toBe(90);
  });

  it('limits under the divisor lease nothing: every request is counted where all processes see it', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9, 0, 0));
    const limiter = new SharedRateLimiter(store.db, clock);
    for (let i = 0; i < 3; i += 1) expect(await limiter.take('lease-c', LEASE_DIVISOR - 1)).toBe(0);
    expect((await counters()).get('lease-c')).toBe(3n);
  });
});

describe('mayHaveRoom (whether a read may start before its request is counted)', () => {
  it('SharedRateLimiter: true until this process saw the bucket refused, false for the rest of that second', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 7, 0, 0));
    const limiter = new SharedRateLimiter(store.db, clock);
    const bucket = 'room-shared';
    expect(limiter.mayHaveRoom(bucket)).toBe(true);
    expect(await limiter.take(bucket, 2)).toBe(0);
    expect(await limiter.take(bucket, 2)).toBe(0);
    expect(limiter.mayHaveRoom(bucket)).toBe(true);
    expect(await limiter.take(bucket, 2)).toBeGreaterThan(0);
    expect(limiter.mayHaveRoom(bucket)).toBe(false);
    expect(limiter.mayHaveRoom('another-bucket')).toBe(true);
    clock.advance(1000);
    expect(limiter.mayHaveRoom(bucket)).toBe(true);
  });

  it('MemoryRateLimiter: false exactly while the bucket holds less than one request, spending nothing', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 7, 0, 0));
    const limiter = new MemoryRateLimiter(clock);
    const bucket = 'room-memory';
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(true);
    expect(limiter.take(bucket, 2)).toBe(0);
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(true);
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(true);
    expect(limiter.take(bucket, 2)).toBe(0);
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(false);
    clock.advance(499);
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(false);
    clock.advance(1);
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(true);
    expect(limiter.take(bucket, 2)).toBe(0);
    expect(limiter.mayHaveRoom(bucket, 2)).toBe(false);
  });
});
