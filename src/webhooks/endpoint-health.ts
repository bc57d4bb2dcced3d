// Which merchants' webhook endpoints are failing: events given up on (failed) or still retrying after
// an error, grouped by merchant and URL, for the operator's console. A read of the outbox only.
import type { Executor } from '../store/schema.js';
import { isoFromMs } from '../core/clock.js';

export interface FailingEndpoint {
  readonly merchantId: string;
  readonly url: string;
  /** Events given up on after the whole retry schedule. */
  readonly failed: number;
  /** Events still being retried after at least one failed attempt. */
  readonly retrying: number;
  readonly lastError: string | null;
  readonly lastEventAt: string;
}

export interface FailingEndpointPage {
  readonly items: FailingEndpoint[];
  /** Pass as `after` for the next page; null on the last. */
  readonly nextAfter: string | null;
}

const cursorOf = (merchantId: string, url: string): string => Buffer.from(JSON.stringify([merchantId, url])).toString('base64url');

function parseCursor(cursor: string | undefined): [string, string] | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string') ? (value as [string, string]) : null;
  } catch {
    return null;
  }
}

/** Endpoints with failing events created since `sinceMs`, by merchant then URL (keyset pages). */
export async function failingEndpoints(db: Executor, query: { readonly sinceMs: number; readonly limit: number; readonly after?: string }): Promise<FailingEndpointPage> {
  const after = parseCursor(query.after);
  const rows = await db
    .selectFrom('webhook_events')
    .select((eb) => [
      'merchant_id',
      'url',
      eb.fn.sum<string | number | bigint>(eb.case().when('status', '=', 'failed').then(1).else(0).end()).as('failed'),
      eb.fn.sum<string | number | bigint>(eb.case().when('status', '=', 'pending').then(1).else(0).end()).as('retrying'),
      eb.fn.max<string | number | bigint>('created_at_ms').as('last_at'),
    ])
    .where('url', 'is not', null)
    .where('created_at_ms', '>=', BigInt(query.sinceMs))
    .where((eb) => eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('last_error', 'is not', null)])]))
    .$if(after !== null, (qb) => qb.where((eb) => eb.or([eb('merchant_id', '>', after![0]), eb.and([eb('merchant_id', '=', after![0]), eb('url', '>', after![1])])])))
    .groupBy(['merchant_id', 'url'])
    .orderBy('merchant_id')
    .orderBy('url')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const items: FailingEndpoint[] = [];
  for (const row of page) {
    const last = await db
      .selectFrom('webhook_events')
      .select('last_error')
      .where('merchant_id', '=', row.merchant_id)
      .where('url', '=', row.url!)
      .where('last_error', 'is not', null)
      .orderBy('created_at_ms', 'desc')
      .limit(1)
      .executeTakeFirst();
    items.push({
      merchantId: row.merchant_id,
      url: row.url!,
      failed: Number(row.failed),
      retrying: Number(row.retrying),
      lastError: last?.last_error ?? null,
      lastEventAt: isoFromMs(BigInt(row.last_at)),
    });
  }
  const tail = page[page.length - 1];
  return { items, nextAfter: rows.length > query.limit && tail ? cursorOf(tail.merchant_id, tail.url!) : null };
}
