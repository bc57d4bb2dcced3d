// A payout's final transition runs in the write group without a savepoint of its own (outcomes.ts,
// FINAL_TRANSITION). That is only safe if a failure halfway through it (after its row and its
// reservation were written, when its journal entry fails) leaves nothing of it behind and takes
// nothing from the other transitions committed with it. A database trigger makes that journal insert
// fail for one payout of three whose final transitions start in the same turn of the event loop, so
// they share a group. On PostgreSQL a group's successes go in together (outcomes.ts closeSuccesses),
// so the same holds there for a statement that ends several payouts at once.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markFinal } from '../../src/domain/payouts/outcomes.js';
import type { PayoutContext } from '../../src/domain/payouts/payout-context.js';
import { accountBalance } from '../ledger/helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';
import { fund, payoutBody, payoutRow } from './helpers.js';

let server: TestServer;
let shop: TestMerchant;
beforeAll(async () => {
  // No worker: the payouts stay Initiated until the test ends them.
  server = await startTestServer({}, { worker: false });
  shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', 100_000_000n); // INR 1,000,000: every payout of the file fits
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

async function dropFailure(): Promise<void> {
  await sql.raw('DROP TRIGGER IF EXISTS fail_entry_of_test' + (usingPostgres() ? ' ON ledger_entries' : '')).execute(db());
  if (usingPostgres()) await sql.raw('DROP FUNCTION IF EXISTS fail_entry_of_test()').execute(db());
}

const payoutCtx = () => (server.services.payouts as unknown as { ctx: PayoutContext }).ctx;

async function newPayouts(count: number): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < count; i += 1) refs.push((await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef);
  return refs;
}

describe('final transitions committed together', () => {
  afterEach(dropFailure);

  it('successes that end together: each payout final once, its reservation completed, its event recorded', async () => {
    const refs = await newPayouts(4);
    const rows = await Promise.all(refs.map(rowOf));
    const before = await server.services.ledger.balances(shop.id, 'INR');
    const settlement = () => accountBalance(db(), 'p:INR:settlement');
    const settledBefore = await settlement();
    // The first payout's news twice in the same turn (the callback and a poll, say), both read while it was Initiated.
    const ends = await Promise.all([...rows, rows[0]!].map((row) => markFinal(payoutCtx(), row, 'Success', { upstreamRef: `up-${row.transaction_ref}` })));

    expect(ends.map((end) => end?.status ?? null)).toEqual(['Success', 'Success', 'Success', 'Success', null]);
    const after = await Promise.all(refs.map(rowOf));
    expect(after.map((row) => [row.status, row.upstream_ref, row.completed_at_ms !== null, row.next_action_at_ms])).toEqual(
      refs.map((ref) => ['Success', `up-${ref}`, true, null]),
    );
    const completions = await db().selectFrom('ledger_entries').select(['ref', 'posting_count']).where('ref', 'in', refs).where('kind', '=', 'payout_complete').execute();
    expect(completions.map((e) => [e.ref, e.posting_count]).sort()).toEqual(refs.map((ref) => [ref, 3n]).sort());
    const reservations = await db().selectFrom('ledger_reservations').select('status').where('ref', 'in', refs).execute();
    expect(reservations.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    const events = await db().selectFrom('webhook_events').select(['resource_ref', 'payload_json']).where('resource_ref', 'in', refs).where('type', '=', 'payout.succeeded').execute();
    expect(events.map((e) => e.resource_ref).sort()).toEqual([...refs].sort());
    for (const event of events) expect(JSON.parse(event.payload_json)).toMatchObject({ transactionRef: event.resource_ref, status: 'Success' });

    const amounts = rows.reduce((sum, row) => sum + row.amount_minor, 0n);
    expect(await settlement()).toBe(settledBefore + amounts);
    expect(await server.services.ledger.balances(shop.id, 'INR')).toMatchObject({ held: before.held - rows.reduce((sum, row) => sum + row.amount_minor + row.fee_minor, 0n), available: before.available });
    expect(await server.services.ledger.verify()).toEqual([]);
  });

  it('news that arrives first wins within a group too: a failure before a success of the same payout', async () => {
    const [failing, other, third] = await newPayouts(3);
    const rows = await Promise.all([failing!, other!, third!].map(rowOf));
    const before = await server.services.ledger.balances(shop.id, 'INR');
    // In one turn: the failure of the first payout, then its success, and two other payouts' successes
    // (on PostgreSQL those two go in one batch, the first payout's success kept out of it).
    const ends = await Promise.all([
      markFinal(payoutCtx(), rows[0]!, 'Failed', { failureReason: 'INVALID_ACCOUNT' }),
      markFinal(payoutCtx(), rows[0]!, 'Success', { upstreamRef: 'late-news' }),
      markFinal(payoutCtx(), rows[1]!, 'Success', { upstreamRef: 'up-other' }),
      markFinal(payoutCtx(), rows[2]!, 'Success', { upstreamRef: 'up-third' }),
    ]);
    expect(ends.map((end) => end?.status ?? null)).toEqual(['Failed', null, 'Success', 'Success']);
    expect((await rowOf(failing!)).status).toBe('Failed');
    const reservations = await db().selectFrom('ledger_reservations').select(['ref', 'status']).where('ref', 'in', [failing!, other!, third!]).execute();
    expect(Object.fromEntries(reservations.map((r) => [r.ref, r.status]))).toEqual({ [failing!]: 'released', [other!]: 'completed', [third!]: 'completed' });
    const each = rows[0]!.amount_minor + rows[0]!.fee_minor;
    expect(await server.services.ledger.balances(shop.id, 'INR')).toMatchObject({ available: before.available + each, held: before.held - 3n * each });
    expect(await server.services.ledger.verify()).toEqual([]);
  });

  it.each(['Failed', 'Success'] as const)('one %s that fails halfway leaves nothing of itself, and the others commit whole', async (outcome) => {
    const refs = await newPayouts(3);
    const before = await server.services.ledger.balances(shop.id, 'INR');
    await failEntriesOf(refs[1]!);
    const ctx = payoutCtx();
    const rows = await Promise.all(refs.map(rowOf));
    const ends = await Promise.allSettled(rows.map((row) => markFinal(ctx, row, outcome, { failureReason: 'INVALID_ACCOUNT' })));

    expect(ends.map((end) => end.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((ends[1] as PromiseRejectedResult).reason)).toContain('injected failure');
    const after = await Promise.all(refs.map(rowOf));
    expect(after.map((row) => row.status)).toEqual([outcome, 'Initiated', outcome]);
    expect(after[1]!.completed_at_ms).toBeNull();

    // The failed one's reservation is still held and nothing was journalled for it; the others' came back.
    const reservations = await db().selectFrom('ledger_reservations').select(['ref', 'status']).where('ref', 'in', refs).orderBy('ref').execute();
    const closed = outcome === 'Failed' ? 'released' : 'completed';
    expect(Object.fromEntries(reservations.map((r) => [r.ref, r.status]))).toEqual({ [refs[0]!]: closed, [refs[1]!]: 'held', [refs[2]!]: closed });
    const entries = await db().selectFrom('ledger_entries').select(['ref', 'kind']).where('ref', '=', refs[1]!).execute();
    expect(entries.map((e) => e.kind)).toEqual(['payout_reserve']);
    const type = outcome === 'Failed' ? 'payout.failed' : 'payout.succeeded';
    const events = await db().selectFrom('webhook_events').select(['resource_ref', 'type']).where('resource_ref', 'in', refs).where('type', '=', type).execute();
    expect(events.map((e) => e.resource_ref).sort()).toEqual([refs[0]!, refs[2]!].sort());

    // Three equal payouts, on top of what earlier tests left held: two of them closed.
    const balances = await server.services.ledger.balances(shop.id, 'INR');
    const each = rows[0]!.amount_minor + rows[0]!.fee_minor;
    expect(balances.held).toBe(before.held - 2n * each);
    expect(balances.available).toBe(before.available + (outcome === 'Failed' ? 2n * each : 0n));
    expect(await server.services.ledger.verify()).toEqual([]);
  });
});
