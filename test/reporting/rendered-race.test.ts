// On PostgreSQL a rendered list page takes two reads when some of its records are not kept yet: the page
// query (refs and versions) and the missing rows, packed. A row changed in between may no longer match
// the filters; the page must then be read again in one query. Here the change is made, deterministically,
// right after the page query answered (a Kysely plugin that holds its result until the update is done).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { renderedPayments } from '../../src/api/list-rendering.js';
import { CursorCodec } from '../../src/reporting/cursor.js';
import { listRendered, type ListContext } from '../../src/reporting/lists.js';
import { collectionReady, initiateBody } from '../payments/api-helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';

/** Runs `between` once, after the first page query (a result of refs and versions) answered. */
class AfterPageQuery implements KyselyPlugin {
  private done = false;
  constructor(private readonly between: () => Promise<void>) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const first = args.result.rows[0];
    if (!this.done && first !== undefined && 'row_version' in first && !('packed_row' in first)) {
      this.done = true;
      await this.between();
    }
    return args.result;
  }
}

describe.runIf(usingPostgres())('a rendered page whose row changes between its two reads', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  const refs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.createMerchant();
    for (let i = 0; i < 3; i++) {
      const created = await merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
      expect(created.status).toBe(200);
      refs.push(created.data.transactionRef);
      server.clock.advance(1000);
    }
    // The worker's collection request updates each row once: let it finish, so that only the test's own
    // update changes a row's version from here on.
    for (const ref of refs) await collectionReady(server, ref);
  }, 60_000);
  afterAll(async () => server.close());

  it('is read again in one query, so that every item matches the filters', async () => {
    const db = server.services.store.db;
    const changed = refs[1]!;
    const plugin = new AfterPageQuery(async () => {
      await db.updateTable('payments').set({ status: 'Failed', failure_reason: 'changed between the reads' }).where('transaction_ref', '=', changed).execute();
    });
    const nowMs = () => server.clock.nowMs();
    const ctx: ListContext = { db: db.withPlugin(plugin), cursors: new CursorCodec(Buffer.alloc(32, 7), nowMs), nowMs };
    const records = renderedPayments();
    const page = await listRendered(ctx, 'payments', records, merchant.id, { status: 'Pending', limit: 10 });
    const items = page.items.map((item) => JSON.parse(item));
    expect(items.map((item) => item.status)).toEqual(['Pending', 'Pending']);
    expect(items.map((item) => item.transactionRef)).toEqual([refs[2], refs[0]]);

    // Read again with nothing changing: the same answer, now from the records kept.
    const again = await listRendered({ ...ctx, db }, 'payments', records, merchant.id, { status: 'Pending', limit: 10 });
    expect(again.items).toEqual(page.items);
    expect(records.stats().hits).toBeGreaterThanOrEqual(2);
  });
});
