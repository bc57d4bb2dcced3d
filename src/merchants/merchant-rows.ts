// Row types of the merchants module's tables: merchants and their API keys. Every integer column is
// read as bigint on both stores (SQLite safe integers, PostgreSQL int8 parsed to BigInt).

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
  status: 'active' | 'revoked';
  created_at_ms: bigint;
  revoked_at_ms: bigint | null;
}

export interface MerchantTables {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
}
