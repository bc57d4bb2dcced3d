// Spies on a pooled job's slot reservations (core/pooled-job.ts), for the tests of intakes that hand
// their new row to the job (payouts' submissions, payments' collections).
import { vi, type MockInstance } from 'vitest';
import type { PooledJob } from '../../src/core/pooled-job.js';

/**
 * The job's next reservation, as it is: `reserved` resolves as soon as the slot is reserved (before
 * the intake writes its row), so the test can move the clock between the two. Call `restore()` after.
 */
export function watchNextReservation<T>(job: PooledJob<T>): { readonly reserved: Promise<void>; restore(): void } {
  const real = job.reserveSlot.bind(job);
  let reserved = (): void => undefined;
  const reservedNow = new Promise<void>((resolve) => (reserved = resolve));
  const spy = vi.spyOn(job, 'reserveSlot').mockImplementationOnce(() => {
    const slot = real();
    reserved();
    return slot;
  });
  return { reserved: reservedNow, restore: () => spy.mockRestore() };
}

/**
 * The job's next reservation hands out a slot that neither starts nor gives back its row: the process
 * "dies" between the intake's commit and the call. Restore the spy after.
 */
export function dropNextSlot<T>(job: PooledJob<T>): MockInstance<PooledJob<T>['reserveSlot']> {
  return vi.spyOn(job, 'reserveSlot').mockImplementationOnce(() => ({ start: () => undefined, release: () => undefined }));
}
