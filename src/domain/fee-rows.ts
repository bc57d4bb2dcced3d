// Row types of the per-merchant fee and limit overrides (fees.ts); a merchant without a row pays the
// defaults. Integer columns are bigint on both stores.

export interface MerchantFeesTable {
  merchant_id: string;
  currency: string;
  method: string;
  direction: 'payin' | 'payout';
  bps: bigint;
  fixed_minor: bigint;
  updated_at_ms: bigint;
}

export interface MerchantLimitsTable {
  merchant_id: string;
  currency: string;
  method: string;
  direction: 'payin' | 'payout';
  min_minor: bigint;
  max_minor: bigint;
  updated_at_ms: bigint;
}

export interface FeeTables {
  merchant_fees: MerchantFeesTable;
  merchant_limits: MerchantLimitsTable;
}
