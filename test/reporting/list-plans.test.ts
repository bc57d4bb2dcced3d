// PostgreSQL keeps one plan for a list page's statement, however many payments a merchant has.
// A named statement is planned for each call's values until PostgreSQL finds its generic plan as cheap;
// with the page's limit as a parameter, that plan was costed as if it read a tenth of the merchant's
// rows, so on a large table every list call was planned anew (src/reporting/lists.ts, pageQuery).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPage, type RecordFilters } from '../../src/reporting/lists.js';
import { parseRange } from '../../src/reporting/time-range.js';
import { usingPostgres } from '../helpers/store.js';
import { paymentRequest, startPaymentHarness, type PaymentHarness } from '../payments/harness.js';

const COPIES = 20_000;

let h: PaymentHarness;

beforeAll(async () => {
  h = await startPaymentHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe.skipIf(!usingPostgres())('a list page on PostgreSQL', () => {
  it('runs on a generic plan once a merchant has many payments, and still answers the right page', async () => {
    const merchant = await h.createMerchant();
    const { transactionRef } = await h.payments.initiate(merchant, paymentRequest('INR', 'NATIVE'));
    // The merchant's one payment copied COPIES times, each older than the last, then the statistics.
    await sql`
      INSERT INTO payments
      SELECT copy.*
      FROM payments p, generate_series(1, ${COPIES}::int) AS i,
        LATERAL jsonb_populate_record(NULL::payments, to_jsonb(p) || jsonb_build_object(
          'transaction_ref', p.transaction_ref || '-' || i,
          'merchant_ref', p.merchant_ref || '-' || i,
          'checkout_token_hash', p.checkout_token_hash || '-' || i,
          'created_at_ms', p.created_at_ms - i)) AS copy
      WHERE p.transaction_ref = ${transactionRef}`.execute(h.db);
    await sql`ANALYZE payments`.execute(h.db);

    const filters: RecordFilters = {};
    const range = parseRange(filters);
    const plans = await h.db.transaction().execute(async (trx) => {
      // One connection: its named statements and how PostgreSQL planned them.
      for (let call = 0; call < 8; call++) {
        const rows = await recordPage(trx, 'payments', merchant.id, filters, range, null, 51);
        expect(rows.map((row) => row.transaction_ref)).toEqual([transactionRef, ...Array.from({ length: 50 }, (_, k) => `${transactionRef}-${k + 1}`)]);
      }
      return (
        await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
          SELECT statement, generic_plans::text, custom_plans::text FROM pg_prepared_statements
          WHERE statement ILIKE '%from "payments"%' AND statement LIKE '%"merchant_id" = $1%'`.execute(trx)
      ).rows;
    });
    expect(plans).toHaveLength(1);
    // The first five calls are planned for their values; after that the generic plan is used.
    expect(Number(plans[0]!.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(plans[0]!.generic_plans)).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
