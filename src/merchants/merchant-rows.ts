// Row types of the merchants module's tables: merchants and their API keys. Every integer column is
// read as bigint on both stores (SQLite safe integers, PostgreSQL int8 parsed to BigInt).
import type { Generated } from 'kysely';

export interface MerchantsTable {
  id: string;
  name: string;
  status: 'active' | 'disabled';
  mode: 'sandbox' | 'live';
  rate_limit_per_second: bigint;
  payment_webhook_url: string | null;
  payout_webhook_url: string | null;
  /** whsec_ secret for Standard Webhooks signatures, encrypted with the service's secret key. */
  webhook_secret_enc: string;
  /** JSON array of normalised CIDR ranges the merchant's calls may come from; null: no allow-list. */
  ip_allow_list: string | null;
  /** Which calls the allow-list guards: those that move money out, or every call. */
  ip_allow_scope: Generated<'money' | 'all'>;
  /** The secret replaced by the last rotation, still signing beside the new one until the time below. */
  previous_webhook_secret_enc: string | null;
  previous_webhook_secret_until_ms: bigint | null;
  created_at_ms: bigint;
  updated_at_ms: bigint;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  type: 'RSA-SHA512' | 'HMAC-SHA256';
  public_key_pem: string | null;
  /** HMAC secret encrypted at rest (AES-256-GCM); null for RSA keys. */
  secret_enc: string | null;
  label: string | null;
  /** What the key may call (docs/signing.md); keys from before scopes existed are `all`. */
  scope: Generated<'read' | 'payments' | 'payouts' | 'all'>;
  status: 'active' | 'revoked';
  created_at_ms: bigint;
  revoked_at_ms: bigint | null;
}

export interface MerchantTables {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
}
