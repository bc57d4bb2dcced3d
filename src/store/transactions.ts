// Running work in a transaction of its own, retried a bounded number of times when PostgreSQL
// picks it as a deadlock or serialization victim (or SQLite reports a busy database).
import type { Transaction } from 'kysely';
import type { Database, Db } from './schema.js';
import { sleep } from '../core/clock.js';

export const TRANSACTION_ATTEMPTS = 4;
const RETRY_BASE_DELAY_MS = 5;

const RETRYABLE_CODES = new Set(['40001', '40P01', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']);

/** Is this a failure that a fresh attempt of the whole transaction can succeed after? */
export function isRetryableDbError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

export async function withTransaction<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
  attempts: number = TRANSACTION_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= attempts || !isRetryableDbError(error)) throw error;
      // Jitter so that two victims of the same deadlock do not collide again.
      await sleep(RETRY_BASE_DELAY_MS * attempt * (0.5 + Math.random()));
    }
  }
}
