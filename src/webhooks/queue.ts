// The outbox as a work queue: claiming due events under a lease (FOR UPDATE SKIP LOCKED on
// PostgreSQL; one atomic UPDATE on SQLite, whose writers are serialized) and recording a batch of
// attempt results in one transaction, so each delivery costs a fraction of a commit.
import { sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { StoreKind } from '../store/db.js';
import type { Db } from '../store/schema.js';
import { nextRetryDelayMs } from './schedule.js';
import type { DeliveryOutcome } from './sender.js';
import type { WebhookEventStatus } from './webhook-rows.js';

export interface ClaimedEvent {
  readonly id: string;
  readonly merchantId: string;
  readonly url: string | null;
  readonly body: string;
  readonly attemptCount: number;
  readonly scheduleStep: number;
  readonly nextAttemptAtMs: bigint;
  /** The lease this claim holds; results are written only while the event still carries it. */
  readonly leaseUntilMs: bigint;
}

export interface AttemptResult {
  readonly event: ClaimedEvent;
  readonly outcome: DeliveryOutcome;
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
}

/** Rows per multi-row statement: far below both stores' bound-parameter limits. */
const ROWS_PER_STATEMENT = 500;

export async function claimDueEvents(db: Db, kind: StoreKind, limit: number, nowMs: number, leaseMs: number): Promise<ClaimedEvent[]> {
  const now = BigInt(nowMs);
  const lease = BigInt(nowMs + leaseMs);
  const due = db
    .selectFrom('webhook_events')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at_ms', '<=', now)
    .where((eb) => eb.or([eb('locked_until_ms', 'is', null), eb('locked_until_ms', '<', now)]))
    .orderBy('next_attempt_at_ms')
    .limit(limit)
    .$if(kind === 'postgres', (qb) => qb.forUpdate().skipLocked());
  const rows = await db
    .updateTable('webhook_events')
    .set({ locked_until_ms: lease })
    .where('id', 'in', due)
    .where((eb) => eb.or([eb('locked_until_ms', 'is', null), eb('locked_until_ms', '<', now)]))
    .returning(['id', 'merchant_id', 'url', 'payload_json', 'attempt_count', 'schedule_step', 'next_attempt_at_ms'])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    merchantId: row.merchant_id,
    url: row.url,
    body: row.payload_json,
    attemptCount: Number(row.attempt_count),
    scheduleStep: Number(row.schedule_step),
    nextAttemptAtMs: BigInt(row.next_attempt_at_ms),
    leaseUntilMs: lease,
  }));
}

interface EventUpdate {
  readonly id: string;
  readonly status: WebhookEventStatus;
  readonly attemptCount: bigint;
  readonly scheduleStep: bigint;
  readonly nextAttemptAtMs: bigint;
  readonly deliveredAtMs: bigint | null;
  readonly lastError: string | null;
  readonly leaseUntilMs: bigint;
}

/** What an attempt's result makes of its event: delivered, due again later, or failed for good. */
export function eventUpdateOf(result: AttemptResult, random: () => number): EventUpdate {
  const { event, outcome } = result;
  const base = {
    id: event.id,
    attemptCount: BigInt(event.attemptCount + 1),
    scheduleStep: BigInt(event.scheduleStep + 1),
    leaseUntilMs: event.leaseUntilMs,
  };
  if (outcome.delivered) {
    return { ...base, status: 'delivered', nextAttemptAtMs: event.nextAttemptAtMs, deliveredAtMs: BigInt(result.finishedAtMs), lastError: null };
  }
  const delayMs = nextRetryDelayMs(event.scheduleStep + 1, random);
  return delayMs === null
    ? { ...base, status: 'failed', nextAttemptAtMs: event.nextAttemptAtMs, deliveredAtMs: null, lastError: outcome.error }
    : { ...base, status: 'pending', nextAttemptAtMs: BigInt(result.finishedAtMs + delayMs), deliveredAtMs: null, lastError: outcome.error };
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

async function updateEvents(trx: Db, updates: readonly EventUpdate[]): Promise<void> {
  // One statement for the whole batch: each row of the VALUES list carries one event's new state.
  const rows = sql.join(
    updates.map(
      (u) =>
        sql`(${u.id}, ${u.status}, CAST(${u.attemptCount} AS BIGINT), CAST(${u.scheduleStep} AS BIGINT), CAST(${u.nextAttemptAtMs} AS BIGINT), CAST(${u.deliveredAtMs} AS BIGINT), CAST(${u.lastError} AS TEXT), CAST(${u.leaseUntilMs} AS BIGINT))`,
    ),
  );
  await sql`
    UPDATE webhook_events SET
      status = v.column2,
      attempt_count = v.column3,
      schedule_step = v.column4,
      next_attempt_at_ms = v.column5,
      delivered_at_ms = COALESCE(v.column6, webhook_events.delivered_at_ms),
      last_error = v.column7,
      locked_until_ms = NULL
    FROM (VALUES ${rows}) AS v
    WHERE webhook_events.id = v.column1 AND webhook_events.locked_until_ms = v.column8`.execute(trx);
}

/** Records every attempt of the batch and moves each event on, in one transaction. */
export async function recordResults(db: Db, results: readonly AttemptResult[], random: () => number): Promise<void> {
  if (results.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(results)) {
      await trx
        .insertInto('webhook_attempts')
        .values(
          part.map(({ event, outcome, startedAtMs }) => ({
            id: newId(),
            event_id: event.id,
            attempt_no: BigInt(event.attemptCount + 1),
            started_at_ms: BigInt(startedAtMs),
            duration_ms: BigInt(outcome.durationMs),
            http_status: outcome.httpStatus === null ? null : BigInt(outcome.httpStatus),
            error: outcome.error,
            response_snippet: outcome.responseSnippet,
          })),
        )
        .execute();
      await updateEvents(trx, part.map((result) => eventUpdateOf(result, random)));
    }
  });
}
