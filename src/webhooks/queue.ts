// The outbox as a work queue: claiming due events under a lease (FOR UPDATE SKIP LOCKED on
// PostgreSQL; one atomic UPDATE on SQLite, whose writers are serialized) and recording a batch of
// attempt results in one transaction, so each delivery costs a fraction of a commit.
import { sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { StoreKind } from '../store/db.js';
import { HotBatchQuery } from '../store/hot-query.js';
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
const ROWS_PER_STATEMENT = 256;

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

/**
 * The batch cut into parts whose sizes are powers of two up to ROWS_PER_STATEMENT (200 results: 128,
 * 64, 8), so the two statements of a part come in at most nine sizes each, every one compiled and
 * prepared once. A statement per batch size (up to 256 of each) cost a delivery a fresh Kysely
 * compile and often a fresh SQLite prepare, and crowded other queries out of the statement cache
 * (docs/benchmarks.md, session 43).
 */
export function partsOf<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  while (at < items.length) {
    let size = ROWS_PER_STATEMENT;
    while (size > items.length - at) size /= 2;
    out.push(items.slice(at, at + size));
    at += size;
  }
  return out;
}

const ATTEMPT_VALUES = 8;
const insertAttempts = new HotBatchQuery(ATTEMPT_VALUES, (db, count, v) =>
  db.insertInto('webhook_attempts').values(
    Array.from({ length: count }, (_, i) => ({
      id: v[i * ATTEMPT_VALUES] as string,
      event_id: v[i * ATTEMPT_VALUES + 1] as string,
      attempt_no: v[i * ATTEMPT_VALUES + 2] as bigint,
      started_at_ms: v[i * ATTEMPT_VALUES + 3] as bigint,
      duration_ms: v[i * ATTEMPT_VALUES + 4] as bigint,
      http_status: v[i * ATTEMPT_VALUES + 5] as bigint | null,
      error: v[i * ATTEMPT_VALUES + 6] as string | null,
      response_snippet: v[i * ATTEMPT_VALUES + 7] as string | null,
    })),
  ),
);

const attemptValues = ({ event, outcome, startedAtMs }: AttemptResult): unknown[] => [
  newId(),
  event.id,
  BigInt(event.attemptCount + 1),
  BigInt(startedAtMs),
  BigInt(outcome.durationMs),
  outcome.httpStatus === null ? null : BigInt(outcome.httpStatus),
  outcome.error,
  outcome.responseSnippet,
];

const UPDATE_VALUES = 8;
/** One statement for a part: each row of the VALUES list carries one event's new state. */
const updateEvents = new HotBatchQuery(UPDATE_VALUES, (db, count, v) => {
  const rows = sql.join(
    Array.from({ length: count }, (_, i) => {
      const at = i * UPDATE_VALUES;
      return sql`(${v[at]}, ${v[at + 1]}, CAST(${v[at + 2]} AS BIGINT), CAST(${v[at + 3]} AS BIGINT), CAST(${v[at + 4]} AS BIGINT), CAST(${v[at + 5]} AS BIGINT), CAST(${v[at + 6]} AS TEXT), CAST(${v[at + 7]} AS BIGINT))`;
    }),
  );
  const update = sql`
    UPDATE webhook_events SET
      status = v.column2,
      attempt_count = v.column3,
      schedule_step = v.column4,
      next_attempt_at_ms = v.column5,
      delivered_at_ms = COALESCE(v.column6, webhook_events.delivered_at_ms),
      last_error = v.column7,
      locked_until_ms = NULL
    FROM (VALUES ${rows}) AS v
    WHERE webhook_events.id = v.column1 AND webhook_events.locked_until_ms = v.column8`;
  return { compile: () => update.compile(db) };
});

const updateValues = (u: EventUpdate): unknown[] => [u.id, u.status, u.attemptCount, u.scheduleStep, u.nextAttemptAtMs, u.deliveredAtMs, u.lastError, u.leaseUntilMs];

/** Records every attempt of the batch and moves each event on, in one transaction. */
export async function recordResults(db: Db, results: readonly AttemptResult[], random: () => number): Promise<void> {
  if (results.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const part of partsOf(results)) {
      await insertAttempts.execute(trx, part.flatMap(attemptValues));
      await updateEvents.execute(trx, part.flatMap((result) => updateValues(eventUpdateOf(result, random))));
    }
  });
}
