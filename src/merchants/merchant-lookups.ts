// What other modules read of a merchant, asked of the merchants module instead of its tables: the
// ledger and the fees check that a merchant exists, webhooks read its default URLs and its secret.
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
  const row = await db
    .selectFrom('merchants')
    .select(['payment_webhook_url', 'payout_webhook_url'])
    .where('id', '=', merchantId)
    .executeTakeFirst();
  return row && { payment: row.payment_webhook_url, payout: row.payout_webhook_url };
}

/**
 * The webhook secret of each listed merchant that exists, still sealed with the service's key, by
 * merchant id: the caller opens each one and decides what an unreadable secret means.
 */
export async function sealedWebhookSecrets(db: Executor, merchantIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('merchants').select(['id', 'webhook_secret_enc']).where('id', 'in', merchantIds).execute();
  return new Map(rows.map((row) => [row.id, row.webhook_secret_enc]));
}
