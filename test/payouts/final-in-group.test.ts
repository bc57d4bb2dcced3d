// A payout's final transition runs in the write group without a savepoint of its own (outcomes.ts,
// FINAL_TRANSITION). That is only safe if a failure halfway through it (after its row and its
// reservation were written, when its journal entry fails) leaves nothing of it behind and takes
// nothing from the other transitions committed with it. A database trigger makes that journal insert
// fail for one payout of three whose final transitions start in the same turn of the event loop, so
// they share a group.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markFinal } from '../../src/domain/payouts/outcomes.js';
import type { PayoutContext } from '../../src/domain/payouts/payout-context.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';
import { fund, payoutBody, payoutRow } from './helpers.js';

let server: TestServer;
let shop: TestMerchant;
beforeAll(async () => {
  // No worker: the payouts stay Initiated until the test ends them.
  server = await startTestServer({}, { worker: false });
  shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', 1_000_000n);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.services.store.db;
const rowOf = (ref: string) => payoutRow(server, ref);

/** Every insert of a journal entry for `ref` fails, as a database error in the middle of the unit. */
async function failEntriesOf(ref: string): Promise<void> {
  if (usingPostgres()) {
    await sql
      .raw(
        `CREATE FUNCTION fail_entry_of_test() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.ref = '${ref}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`,
      )
      .execute(db());
    await sql.raw('CREATE TRIGGER fail_entry_of_test BEFORE INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION fail_entry_of_test()').execute(db());
  } else {
    await sql.raw(`CREATE TRIGGER fail_entry_of_test BEFORE INSERT ON ledger_entries WHEN NEW.ref = '${ref}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`).execute(db());
  }
}

describe('final transitions committed together', () => {
  it('one that fails halfway leaves nothing of itself, and the others commit whole', async () => {
    const refs: string[] = [];
    for (let i = 0; i < 3; i += 1) refs.push((await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef);
    const before = await server.services.ledger.balances(shop.id, 'INR');
    await failEntriesOf(refs[1]!);

    const ctx = (server.services.payouts as unknown as { ctx: PayoutContext }).ctx;
    const rows = await Promise.all(refs.map(rowOf));
    const ends = await Promise.allSettled(rows.map((row) => markFinal(ctx, row, 'Failed', { failureReason: 'INVALID_ACCOUNT' })));

    expect(ends.map((end) => end.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((ends[1] as PromiseRejectedResult).reason)).toContain('injected failure');
    const after = await Promise.all(refs.map(rowOf));
    expect(after.map((row) => row.status)).toEqual(['Failed', 'Initiated', 'Failed']);
    expect(after[1]!.completed_at_ms).toBeNull();

    // The failed one's reservation is still held and nothing was journalled for it; the others' came back.
    const reservations = await db().selectFrom('ledger_reservations').select(['ref', 'status']).where('ref', 'in', refs).orderBy('ref').execute();
    expect(Object.fromEntries(reservations.map((r) => [r.ref, r.status]))).toEqual({ [refs[0]!]: 'released', [refs[1]!]: 'held', [refs[2]!]: 'released' });
    const entries = await db().selectFrom('ledger_entries').select(['ref', 'kind']).where('ref', '=', refs[1]!).execute();
    expect(entries.map((e) => e.kind)).toEqual(['payout_reserve']);
    const events = await db().selectFrom('webhook_events').select(['resource_ref', 'type']).where('resource_ref', 'in', refs).where('type', '=', 'payout.failed').execute();
    expect(events.map((e) => e.resource_ref).sort()).toEqual([refs[0]!, refs[2]!].sort());

    const balances = await server.services.ledger.balances(shop.id, 'INR');
    expect(balances.held).toBe(before.held / 3n);
    expect(balances.available).toBe(before.available + (2n * before.held) / 3n);
    expect(await server.services.ledger.verify()).toEqual([]);
  });
});
