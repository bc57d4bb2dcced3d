// What an operator watches to see a failing provider before merchants do: every call to a connector
// (count, latency, outcome), every notification (accepted or refused), and, read from the database
// at each scrape, the last hour's final statuses per connector and method and the backlogs.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import { AppError } from '../core/errors.js';
import { LoopTurns } from '../core/loop-turns.js';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel } from '../connectors/channel.js';
import type { Db } from '../store/schema.js';

export type CallOutcome = 'ok' | 'refused' | 'unavailable' | 'error';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/**
 * How long after a minute ends its completions are taken as all written. A payment or payout is
 * stamped with the clock of the process that finishes it, in the transaction that commits it, so a
 * minute takes no new completion a moment after it ended; two minutes leave room for a slow commit or
 * a lagging clock (processes sharing a database keep their clocks in step, docs/operations.md).
 */
export const COMPLETION_MINUTE_GRACE_MS = 2 * MINUTE_MS;
/** How long LastHourCompletions reads before it gives the event loop a turn. */
const COUNTS_YIELD_AFTER_MS = 10;

/**
 * The most webhook events the backlog gauge counts: the count reads the status index, about 50 ns an
 * event on SQLite, so a receiver down for a day (8.6 million events at 100 a second) held the event
 * loop for about 0.4 s at every scrape; capped, a scrape holds it for 50 ms at most, and a backlog that
 * size is an incident whatever its exact figure.
 */
export const WEBHOOK_BACKLOG_CAP = 1_000_000;

/** Final statuses of one connector, method and status, counted. */
export interface CompletionCount {
  readonly channel: string;
  readonly method: string;
  readonly status: string;
  readonly n: number;
}

/**
 * The status a payment or payout finished with. A final status never changes again but for a payment's
 * refund (Success -> Refund, its completion time kept), so a refunded payment counts as the Success it
 * finished as: a minute's count then never changes once the minute has closed, and every process
 * reports the same (payouts have no Refund status).
 */
const finishedStatus = sql<string>`CASE WHEN status = 'Refund' THEN 'Success' ELSE status END`;

/**
 * Payments or payouts that reached a final status from `fromMs` (until `toMs`, excluded, when given),
 * per connector, method and the status they finished with: read from `<table>_completed_counts` alone
 * (0027).
 */
export const completionCountsQuery = (db: Db, table: 'payments' | 'payouts', fromMs: number, toMs: number | null) => {
  const from = db
    .selectFrom(table)
    .select(['channel', 'method', finishedStatus.as('status'), (eb) => eb.fn.countAll<string | number | bigint>().as('n')])
    .where('completed_at_ms', '>=', BigInt(fromMs));
  return (toMs === null ? from : from.where('completed_at_ms', '<', BigInt(toMs))).groupBy(['channel', 'method', finishedStatus]);
};

/** completionCountsQuery's rows as counts. */
export const completionCountsOf = async (query: ReturnType<typeof completionCountsQuery>): Promise<CompletionCount[]> =>
  (await query.execute()).map((r) => ({ channel: r.channel, method: r.method, status: r.status, n: Number(r.n) }));

/**
 * The last hour's final statuses of one table, as /metrics reports them at every scrape. Each whole
 * minute of the hour that ended COMPLETION_MINUTE_GRACE_MS ago is counted once and kept in memory; a
 * scrape reads only the rest (the part minute where the hour begins, and the last two or three
 * minutes). Counting the whole hour at every scrape read every row finished in it: 360,000 payments (100
 * a second) held SQLite's event loop for a second (docs/benchmarks.md, session 38). The first scrape
 * counts the hour a minute a read, with a turn of the event loop every 10 ms of reads.
 */
export class LastHourCompletions {
  /** Counts of whole minutes (minutes since 1970) that had closed when they were read. */
  private readonly minutes = new Map<number, readonly CompletionCount[]>();

  constructor(
    private readonly db: Db,
    private readonly table: 'payments' | 'payouts',
    private readonly yieldAfterMs = COUNTS_YIELD_AFTER_MS,
  ) {}

  async counts(nowMs: number): Promise<CompletionCount[]> {
    const fromMs = nowMs - HOUR_MS;
    const firstMinute = Math.ceil(fromMs / MINUTE_MS);
    const closedEnd = Math.max(firstMinute, Math.floor((nowMs - COMPLETION_MINUTE_GRACE_MS) / MINUTE_MS));
    // Minutes that left the hour go; so do minutes not closed by this clock (one set back).
    for (const minute of [...this.minutes.keys()]) if (minute < firstMinute || minute >= closedEnd) this.minutes.delete(minute);
    const parts: (readonly CompletionCount[])[] = [];
    if (fromMs < firstMinute * MINUTE_MS) parts.push(await completionCountsOf(completionCountsQuery(this.db, this.table, fromMs, firstMinute * MINUTE_MS)));
    const turns = new LoopTurns(this.yieldAfterMs);
    for (let minute = firstMinute; minute < closedEnd; minute++) {
      let counts = this.minutes.get(minute);
      if (counts === undefined) {
        await turns.maybeYield();
        counts = await completionCountsOf(completionCountsQuery(this.db, this.table, minute * MINUTE_MS, (minute + 1) * MINUTE_MS));
        this.minutes.set(minute, counts);
      }
      parts.push(counts);
    }
    parts.push(await completionCountsOf(completionCountsQuery(this.db, this.table, closedEnd * MINUTE_MS, null)));
    const totals = new Map<string, CompletionCount>();
    for (const count of parts.flat()) {
      const key = `${count.channel}\u0000${count.method}\u0000${count.status}`;
      const before = totals.get(key);
      totals.set(key, before === undefined ? count : { ...count, n: before.n + count.n });
    }
    return [...totals.values()];
  }
}

/**
 * Payments waiting for their collection, counted by connector, from the collection queue's small
 * partial index (payment-migrations.ts, 0020) rather than every payment: a planner may read that index
 * only for a query that implies its condition, due time not null. The due time is compared for that
 * (it is a time in ms, never below 0): SQLite drops `IS NOT NULL` on a NOT NULL column from a query
 * before it matches indexes, so that test would not do. The groups are keyed by that test too (true of
 * every row here, so one group a connector): grouped by channel alone, SQLite without statistics (as the
 * service runs it) read every payment through `payments_channel_created`, which gives the channel order.
 */
export const collectionsWaiting = (db: Db) =>
  db
    .selectFrom('payments')
    .select(['channel', (eb) => eb.fn.countAll<string | number | bigint>().as('n')])
    .where('collection_state', '=', 'requested')
    .where('collection_next_at_ms', '>=', 0n)
    .groupBy(['channel', sql`collection_next_at_ms >= 0`]);

/** Payouts not yet final, by connector and status, from the live payouts' partial index (0021) in the same way (the statuses as literals, as the payout job's claim writes them: SQLite proves a partial index's condition from literals only). */
export const payoutsInFlight = (db: Db) =>
  db
    .selectFrom('payouts')
    .select(['channel', 'status', (eb) => eb.fn.countAll<string | number | bigint>().as('n')])
    .where('status', 'in', [sql.lit('Initiated' as const), sql.lit('Processing' as const)])
    .where('next_action_at_ms', '>=', 0n)
    .groupBy(['channel', 'status']);

export function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof UpstreamUnavailableError) return 'unavailable';
  if (error instanceof UpstreamRefusedError || error instanceof AppError) return 'refused';
  return 'error';
}

export class ConnectorMetrics {
  readonly registry = new Registry();
  private readonly calls: Counter<'connector' | 'operation' | 'method' | 'outcome'>;
  private readonly latency: Histogram<'connector' | 'operation'>;
  private readonly notifications: Counter<'connector' | 'outcome'>;

  constructor(db: Db | null, clock: { nowMs(): number }, webhookBacklogCap = WEBHOOK_BACKLOG_CAP) {
    this.calls = new Counter({
      name: 'paygate_connector_calls_total',
      help: 'Calls to a connector by operation, method and outcome (ok, refused: a definitive refusal, unavailable: timeout or 5xx, error).',
      labelNames: ['connector', 'operation', 'method', 'outcome'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'paygate_connector_call_duration_seconds',
      help: 'Time a connector took to answer, by operation (timeouts included).',
      labelNames: ['connector', 'operation'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20],
      registers: [this.registry],
    });
    this.notifications = new Counter({
      name: 'paygate_connector_notifications_total',
      help: 'Notifications received from a connector: accepted (authentic) or refused (failed verification).',
      labelNames: ['connector', 'outcome'],
      registers: [this.registry],
    });
    if (db === null) return;
    // Read at scrape time from the database, so every process reports the same truth.
    // Final statuses of the last hour, per connector, method and status: the success rate an alert reads.
    for (const table of ['payments', 'payouts'] as const) {
      const completions = new LastHourCompletions(db, table);
      new Gauge({
        name: `paygate_${table}_completed_last_hour`,
        help: `${table === 'payments' ? 'Payments' : 'Payouts'} that reached a final status in the last hour, by connector, method and status.`,
        labelNames: ['connector', 'method', 'status'],
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const count of await completions.counts(clock.nowMs())) this.set({ connector: count.channel, method: count.method, status: count.status }, count.n);
        },
      });
    }
    new Gauge({
      name: 'paygate_payouts_in_flight',
      help: 'Payouts not yet final (Initiated or Processing), by connector: the upstream backlog.',
      labelNames: ['connector', 'status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const rows = await payoutsInFlight(db).execute();
        for (const row of rows) this.set({ connector: row.channel, status: row.status }, Number(row.n));
      },
    });
    new Gauge({
      name: 'paygate_collections_waiting',
      help: 'Payments whose collection the connector has not prepared yet (the pay-in outbox), by connector.',
      labelNames: ['connector'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const rows = await collectionsWaiting(db).execute();
        for (const row of rows) this.set({ connector: row.channel }, Number(row.n));
      },
    });
    new Gauge({
      name: 'paygate_webhook_backlog',
      help: `Merchant webhook events not yet delivered (pending or retrying), counted up to ${webhookBacklogCap.toLocaleString('en-US')}: that figure means at least as many.`,
      registers: [this.registry],
      async collect() {
        const row = await sql<{ n: string | number | bigint }>`select count(*) as n from (select 1 from webhook_events where status = 'pending' limit ${webhookBacklogCap}) as backlog`.execute(db);
        this.set(Number(row.rows[0]?.n ?? 0));
      },
    });
  }

  notification(connector: string, outcome: 'accepted' | 'refused'): void {
    this.notifications.inc({ connector, outcome });
  }

  /**
   * The channel under the name it is routed by (`name`: a second account of a provider has its own),
   * with every call counted and timed; the channel itself is unchanged.
   */
  instrument(channel: Channel, name: string = channel.name): Channel {
    const observe = <T>(operation: string, method: string, call: () => Promise<T>): Promise<T> => {
      const end = this.latency.startTimer({ connector: name, operation });
      return call().then(
        (value) => {
          end();
          this.calls.inc({ connector: name, operation, method, outcome: 'ok' });
          return value;
        },
        (error: unknown) => {
          end();
          this.calls.inc({ connector: name, operation, method, outcome: outcomeOf(error) });
          throw error;
        },
      );
    };
    const instrumented: Channel = {
      name,
      payoutCallbacks: channel.payoutCallbacks === true,
      createCollection: (request) => observe('create_collection', request.method, () => channel.createCollection(request)),
      queryCollection: (ref, upstreamRef) => observe('query_collection', '', () => channel.queryCollection(ref, upstreamRef)),
      refund: (request) => observe('refund', '', () => channel.refund(request)),
      submitPayout: (submission) => observe('submit_payout', submission.method, () => channel.submitPayout(submission)),
      queryPayout: (ref) => observe('query_payout', '', () => channel.queryPayout(ref)),
      parseCallback: (headers, rawBody) => {
        try {
          const callback = channel.parseCallback(headers, rawBody);
          this.notification(name, 'accepted');
          return callback;
        } catch (error) {
          this.notification(name, 'refused');
          throw error;
        }
      },
      close: () => channel.close?.() ?? Promise.resolve(),
    };
    if (channel.listBanks) {
      const listBanks = channel.listBanks.bind(channel);
      Object.assign(instrumented, { listBanks: (currency: Parameters<typeof listBanks>[0]) => observe('list_banks', '', () => listBanks(currency)) });
    }
    if (channel.resolveAccount) {
      const resolve = channel.resolveAccount.bind(channel);
      Object.assign(instrumented, { resolveAccount: (request: Parameters<typeof resolve>[0]) => observe('resolve_account', request.method, () => resolve(request)) });
    }
    if (channel.fetchStatement) {
      const fetchStatement = channel.fetchStatement.bind(channel);
      Object.assign(instrumented, { fetchStatement: (dayStartMs: number) => observe('fetch_statement', '', () => fetchStatement(dayStartMs)) });
    }
    return instrumented;
  }
}
