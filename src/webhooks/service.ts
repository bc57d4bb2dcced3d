// What merchants and operators see of webhooks: events with their delivery attempts, resending one,
// and the service's public key. A merchant-scoped call never reveals another merchant's event.
import { failingEndpoints, type FailingEndpointPage } from './endpoint-health.js';
import { isoFromMs, type Clock } from '../core/clock.js';
import { recordAudit } from '../audit/audit-log.js';
import { AppError, notFound } from '../core/errors.js';
import type { Db, Executor } from '../store/schema.js';
import { eventIdTimeMs, merchantDefaultUrl } from './outbox.js';
import { ServiceKeyring, type PublicServiceKey, type ServiceKey } from './signer.js';
import type { WebhookEventStatus, WebhookEventType, WebhookEventsTable, WebhookResourceKind } from './webhook-rows.js';

export const DEFAULT_EVENT_PAGE = 50;
export const MAX_EVENT_PAGE = 200;
export { WEBHOOK_EVENT_STATUSES } from './webhook-rows.js';

export interface WebhookEventView {
  readonly id: string;
  readonly merchantId: string;
  readonly type: WebhookEventType;
  readonly resourceKind: WebhookResourceKind;
  readonly resourceRef: string;
  readonly url: string | null;
  readonly status: WebhookEventStatus;
  readonly attemptCount: number;
  /** When the next attempt is due; null unless the event is pending. */
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  readonly lastError: string | null;
}

export interface WebhookAttemptView {
  readonly attemptNo: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly responseSnippet: string | null;
}

export interface WebhookEventDetail extends WebhookEventView {
  /** The body as sent: the record plus its `event` object. */
  readonly payload: unknown;
  readonly attempts: WebhookAttemptView[];
}

export interface WebhookEventPage {
  readonly events: WebhookEventView[];
  /** Pass as `before` to get the next (older) page; null on the last page. */
  readonly nextBefore: string | null;
}

/**
 * A page of events, newest first, after `cursor` (an event of the page before); `merchantId` null:
 * every merchant's. A merchant's events of one payment, payout or batch (the console's record page)
 * are a range of `webhook_events_merchant_resource` (0025).
 */
export function eventsPageQuery(
  db: Db,
  merchantId: string | null,
  query: Pick<ListEventsQuery, 'status' | 'resourceRef'>,
  cursor: Pick<WebhookEventsTable, 'created_at_ms' | 'id'> | null,
  limit: number,
) {
  return db
    .selectFrom('webhook_events')
    .select(VIEW_COLUMNS)
    .$if(merchantId !== null, (qb) => qb.where('merchant_id', '=', merchantId!))
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
    .$if(query.resourceRef !== undefined, (qb) => qb.where('resource_ref', '=', query.resourceRef!))
    .$if(cursor !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('created_at_ms', '<', cursor!.created_at_ms),
          eb.and([eb('created_at_ms', '=', cursor!.created_at_ms), eb('id', '<', cursor!.id)]),
        ]),
      ),
    )
    .orderBy('created_at_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

export interface ListEventsQuery {
  readonly limit?: number;
  /** An event id: list only events older than it. */
  readonly before?: string;
  readonly status?: WebhookEventStatus;
  /** Only the events of this payment, payout or batch (its transactionRef or batchId). */
  readonly resourceRef?: string;
}

type EventRow = Omit<WebhookEventsTable, 'payload_json' | 'locked_until_ms' | 'schedule_step' | 'destination_source'>;

const VIEW_COLUMNS = [
  'id',
  'merchant_id',
  'type',
  'resource_kind',
  'resource_ref',
  'url',
  'status',
  'attempt_count',
  'next_attempt_at_ms',
  'created_at_ms',
  'delivered_at_ms',
  'last_error',
] as const;

function eventView(row: EventRow): WebhookEventView {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    type: row.type,
    resourceKind: row.resource_kind,
    resourceRef: row.resource_ref,
    url: row.url,
    status: row.status,
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: row.status === 'pending' ? isoFromMs(row.next_attempt_at_ms) : null,
    createdAt: isoFromMs(row.created_at_ms),
    deliveredAt: row.delivered_at_ms === null ? null : isoFromMs(row.delivered_at_ms),
    lastError: row.last_error,
  };
}

export class WebhookService {
  constructor(
    private readonly db: Db,
    /** The keys the dispatcher signs with (the service's keyring), or one fixed key (tests). */
    readonly serviceKey: ServiceKey | ServiceKeyring,
    private readonly clock: Clock,
  ) {}

  /** The PEM (SPKI) of the key that signs every webhook's `Signature` header now. */
  async servicePublicKeyPem(): Promise<string> {
    const keys = this.serviceKey;
    return (keys instanceof ServiceKeyring ? await keys.current() : keys).publicKeyPem;
  }

  /** The current key and the replaced ones still in their overlap, each with its id (`Signature-Key-Id`). */
  async servicePublicKeys(): Promise<PublicServiceKey[]> {
    const keys = this.serviceKey;
    if (keys instanceof ServiceKeyring) return keys.listed();
    return [{ keyId: keys.keyId, algorithm: 'RSA-SHA512', publicKeyPem: keys.publicKeyPem, status: 'current', createdAt: isoFromMs(0), retiresAt: null }];
  }

  /** Makes a new signing key; the replaced one stays listed for the overlap (SERVICE_KEY_OVERLAP_SECONDS). */
  async rotateServiceKey(actor: string): Promise<PublicServiceKey> {
    const keys = this.serviceKey;
    if (!(keys instanceof ServiceKeyring)) throw new AppError('CONFLICT', 'This service signs with a fixed key.');
    return keys.rotate(actor);
  }

  /** Merchants' endpoints whose recent events failed or keep failing (the operator's console). */
  failingEndpoints(query: { readonly sinceMs: number; readonly limit: number; readonly after?: string }): Promise<FailingEndpointPage> {
    return failingEndpoints(this.db, query);
  }

  /** Newest first; `merchantId` null lists every merchant's events (operator). */
  async listEvents(merchantId: string | null, query: ListEventsQuery = {}): Promise<WebhookEventPage> {
    const limit = Math.min(Math.max(query.limit ?? DEFAULT_EVENT_PAGE, 1), MAX_EVENT_PAGE);
    const cursor = query.before === undefined ? null : await this.pagePosition(query.before, merchantId);
    const rows = await eventsPageQuery(this.db, merchantId, query, cursor, limit + 1).execute();
    const page = rows.slice(0, limit);
    return { events: page.map(eventView), nextBefore: rows.length > limit ? page[page.length - 1]!.id : null };
  }

  async getEvent(id: string, merchantId: string | null): Promise<WebhookEventDetail> {
    const row = await this.findEvent(id, merchantId);
    const attempts = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('event_id', '=', id)
      .orderBy('attempt_no')
      .orderBy('started_at_ms')
      .execute();
    return {
      ...eventView(row),
      payload: JSON.parse(row.payload_json) as unknown,
      attempts: attempts.map((a) => ({
        attemptNo: Number(a.attempt_no),
        startedAt: isoFromMs(a.started_at_ms),
        durationMs: Number(a.duration_ms),
        httpStatus: a.http_status === null ? null : Number(a.http_status),
        error: a.error,
        responseSnippet: a.response_snippet,
      })),
    };
  }

  /**
   * Sends the event again now, with a fresh retry schedule; delivered events too (receivers dedupe by
   * id). An event whose URL came from the merchant's settings goes to the current setting.
   */
  async resend(id: string, merchantId: string | null, actor: string): Promise<WebhookEventView> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.findEvent(id, merchantId, trx);
      const url = row.destination_source === 'request' ? row.url : await merchantDefaultUrl(trx, row.merchant_id, row.resource_kind);
      if (!url) {
        throw new AppError('CONFLICT', `No ${row.resource_kind} webhook URL is configured; set one, then resend.`);
      }
      const updated = await trx
        .updateTable('webhook_events')
        .set({
          status: 'pending',
          url,
          destination_source: row.destination_source === 'request' ? 'request' : 'merchant',
          schedule_step: 0n,
          next_attempt_at_ms: BigInt(this.clock.nowMs()),
        })
        .where('id', '=', id)
        .executeTakeFirst();
      // Deleted since it was read (the retention job, on PostgreSQL where the read did not wait for it):
      // nothing is resent, so nothing is recorded either.
      if (updated.numUpdatedRows === 0n) throw eventNotFound(id, merchantId);
      const details = { type: row.type, resourceRef: row.resource_ref, url: url.split(/[?#]/, 1)[0]! };
      await recordAudit(trx, { actor, action: 'webhook.resend', target: id, merchantId: row.merchant_id, details, nowMs: this.clock.nowMs() });
    });
    return eventView(await this.findEvent(id, merchantId));
  }

  /**
   * Where a page that starts before event `id` starts: that event's creation time and id. An id the
   * merchant has no event under (the retention job deleted it, or it is another merchant's, or it was
   * never stored) is placed by the time it carries (UUID v7: the first 48 bits are the Unix time in ms
   * it was made at), so a merchant paging back through the oldest events is not stranded when retention
   * deletes the one its cursor names, and the answer says nothing of whether another merchant's event
   * exists. An id is made just after its event's created_at_ms is read, so that place may repeat an
   * event made in between; it skips none (the service's clock is the system's). Only an id that carries
   * no time is not found.
   */
  private async pagePosition(id: string, merchantId: string | null): Promise<Pick<WebhookEventsTable, 'created_at_ms' | 'id'>> {
    const row = await eventOf(this.db, id, merchantId).select(['created_at_ms', 'id']).executeTakeFirst();
    if (row) return row;
    const madeAtMs = eventIdTimeMs(id);
    if (madeAtMs === null) throw eventNotFound(id, merchantId);
    return { created_at_ms: BigInt(madeAtMs), id };
  }

  private async findEvent(id: string, merchantId: string | null, db: Executor = this.db): Promise<WebhookEventsTable> {
    const row = await eventOf(db, id, merchantId).selectAll().executeTakeFirst();
    if (!row) throw eventNotFound(id, merchantId);
    return row;
  }
}

/** Event `id`, if it is `merchantId`'s (any merchant's when null): the one place a lookup by id is scoped to its merchant. */
const eventOf = (db: Executor, id: string, merchantId: string | null) =>
  db
    .selectFrom('webhook_events')
    .where('id', '=', id)
    .$if(merchantId !== null, (qb) => qb.where('merchant_id', '=', merchantId!));

const eventNotFound = (id: string, merchantId: string | null): AppError =>
  merchantId === null ? new AppError('NOT_FOUND', `No webhook event ${id}.`) : notFound('webhook event');
