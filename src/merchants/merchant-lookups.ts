// What other modules read of a merchant, asked of the merchants module instead of its tables: the
// ledger and the fees check that a merchant exists, webhooks read its default URLs and its secret.
import { HotQuery } from '../store/hot-query.js';
import type { Executor } from '../store/schema.js';

/** Whether the merchant exists; pass the caller's transaction to read inside it. */
export async function merchantExists(db: Executor, merchantId: string): Promise<boolean> {
  const row = await db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst();
  return row !== undefined;
}

export interface MerchantWebhookUrls {
  readonly payment: string | null;
  readonly payout: string | null;
}

/** The merchant's default webhook URLs, or undefined when there is no such merchant. */
export async function merchantWebhookUrls(db: Executor, merchantId: string): Promise<MerchantWebhookUrls | undefined> {
  const row = await webhookUrlsOf.executeTakeFirst(db, merchantId);
  return row && { payment: row.payment_webhook_url, payout: row.payout_webhook_url };
}

/** Read with every event a payment or payout records (webhooks/outbox.ts), so compiled once (store/hot-query.ts). */
const webhookUrlsOf = new HotQuery(1, (db, merchantId: string) =>
  db.selectFrom('merchants').select(['payment_webhook_url', 'payout_webhook_url']).where('id', '=', merchantId),
);

/** A merchant's webhook secrets, sealed: the current one, and the replaced one while its overlap lasts. */
export interface SealedWebhookSecrets {
  readonly current: string;
  readonly previous: string | null;
}

/**
 * The webhook secrets of each listed merchant that exists, still sealed with the service's key, by
 * merchant id: the caller opens each one and decides what an unreadable secret means. A replaced
 * secret is included only until its overlap ends at `nowMs`.
 */
export async function sealedWebhookSecrets(db: Executor, merchantIds: readonly string[], nowMs: number): Promise<Map<string, SealedWebhookSecrets>> {
  const rows = await db
    .selectFrom('merchants')
    .select(['id', 'webhook_secret_enc', 'previous_webhook_secret_enc', 'previous_webhook_secret_until_ms'])
    .where('id', 'in', merchantIds)
    .execute();
  return new Map(
    rows.map((row) => {
      const live = row.previous_webhook_secret_until_ms !== null && row.previous_webhook_secret_until_ms > BigInt(nowMs);
      return [row.id, { current: row.webhook_secret_enc, previous: live ? row.previous_webhook_secret_enc : null }];
    }),
  );
}
