// Balances compared across a step that must book nothing. The settlement job may move a payment's net
// amount from `pending` to `available` at any moment while a test runs (the test servers settle at
// once), so an exact comparison of the two fields races with it; their sum, and every other field,
// must not change.

interface MerchantBalance {
  readonly available: number;
  readonly pending: number;
  readonly [field: string]: unknown;
}

/** The balance with `pending` folded into `available` (as minor units), so settlement cannot change it. */
export function settlementBlind(balance: MerchantBalance): Record<string, unknown> {
  const { available, pending, ...rest } = balance;
  return { ...rest, availablePlusPendingMinor: Math.round(available * 100) + Math.round(pending * 100) };
}
