// Row type of the USDT reference rates the operator sets (rates.ts): one row per local currency.
// Integer columns are bigint on both stores.

export interface UsdtRatesTable {
  currency: string;
  /** Reference rate in millionths of the local currency per USDT (83.25 INR -> 83250000). */
  reference_rate_micros: bigint;
  deposit_spread_bps: bigint;
  withdraw_spread_bps: bigint;
  set_at_ms: bigint;
  set_by: string;
}

export interface RateTables {
  usdt_rates: UsdtRatesTable;
}
