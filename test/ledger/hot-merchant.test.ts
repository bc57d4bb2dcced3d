// One hot merchant, many concurrent payouts: exactly as many succeed as available + credit allow,
// none more, none fewer, and no balance goes negative (the contract 13 contention case).
import { expect, it } from 'vitest';
import { fundMerchant, runHotMerchantBurst } from '../../bench/ledger-burst.js';
import { openLedger } from './helpers.js';

it('a burst of concurrent payouts on one merchant reserves exactly what available + credit allow', async () => {
  const f = await openLedger(['mch_hot']);
  try {
    const funding = { merchantId: 'mch_hot', currency: 'INR' as const, availableMinor: 1_000_00n, creditMinor: 500_00n };
    await fundMerchant(f.ledger, funding);
    await fundMerchant(f.ledger, funding); // funds once: the same call is idempotent
    const result = await runHotMerchantBurst(f.db, f.ledger, {
      merchantId: 'mch_hot',
      currency: 'INR',
      operations: 40,
      concurrency: 8,
      amountMinor: 100_00n,
      feeMinor: 5_00n,
    });
    // 1,500.00 of room at 105.00 each: 14 fit (1,470.00), the 15th would need 1,575.00.
    expect({ committed: result.committed, refused: result.refused, violations: result.violations }).toEqual({ committed: 14, refused: 26, violations: [] });
    expect(await f.ledger.balances('mch_hot', 'INR')).toEqual({ available: 0n, pending: 0n, held: 1_470_00n, credit: 30_00n, security: 0n });
  } finally {
    await f.close();
  }
});
