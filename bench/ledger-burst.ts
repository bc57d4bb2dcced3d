// What the benchmark needs from the ledger: a merchant funded well enough that a burst of payouts
// is not refused, and a ledger-level hot-merchant burst (many concurrent reserves on one merchant's
// rows) that reports its rate and checks afterwards that no balance went negative.
import { newId } from '../src/core/ids.js';
import type { Currency, Minor } from '../src/core/money.js';
import { AppError } from '../src/core/errors.js';
import type { LedgerService } from '../src/ledger/service.js';
import type { Db } from '../src/store/schema.js';
import type { Violation } from '../src/ledger/verify.js';

export interface Funding {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly availableMinor: Minor;
  readonly creditMinor: Minor;
}

/** Tops a merchant up (available by adjustment, credit by a grant); the same call twice funds once. */
export async function fundMerchant(ledger: LedgerService, funding: Funding): Promise<void> {
  const base = { merchantId: funding.merchantId, currency: funding.currency, reason: 'benchmark funding', actor: 'bench' };
  const key = `bench:${funding.merchantId}:${funding.currency}`;
  if (funding.availableMinor > 0n) await ledger.adjust({ ...base, account: 'available', amountMinor: funding.availableMinor, ref: `${key}:available` });
  if (funding.creditMinor > 0n) await ledger.grantCredit({ ...base, amountMinor: funding.creditMinor, ref: `${key}:credit` });
}

export interface HotMerchantBurst {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly operations: number;
  /** Reserves in flight at once (each its own transaction). */
  readonly concurrency: number;
  readonly amountMinor: Minor;
  readonly feeMinor: Minor;
}

export interface BurstResult {
  readonly committed: number;
  /** Refused with INSUFFICIENT_BALANCE: expected once the merchant's money runs out. */
  readonly refused: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
  /** verify() after the burst: must be empty. */
  readonly violations: readonly Violation[];
}

/** Many concurrent payout reservations against one merchant, the contention case of contract 13. */
export async function runHotMerchantBurst(db: Db, ledger: LedgerService, burst: HotMerchantBurst): Promise<BurstResult> {
  let next = 0;
  let committed = 0;
  let refused = 0;
  const reserveOne = (trx: Parameters<LedgerService['reserveForPayout']>[0]) =>
    ledger.reserveForPayout(trx, { merchantId: burst.merchantId, currency: burst.currency, amountMinor: burst.amountMinor, feeMinor: burst.feeMinor, ref: newId() });
  const lane = async () => {
    while (next < burst.operations) {
      next += 1;
      try {
        await db.transaction().execute(reserveOne);
        committed += 1;
      } catch (error) {
        if (!(error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE')) throw error;
        refused += 1;
      }
    }
  };
  const startedMs = performance.now();
  await Promise.all(Array.from({ length: burst.concurrency }, lane));
  const elapsedMs = performance.now() - startedMs;
  return { committed, refused, elapsedMs, perSecond: (committed + refused) / (elapsedMs / 1000), violations: await ledger.verify() };
}
