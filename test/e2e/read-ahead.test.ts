// Read routes (readAhead, src/http/app.ts) start their database read while the Signature's record
// commits; the answer waits for that record and the rate limit, and takes their error if they refuse it.
// On every store: a refusal outranks whatever the read answered (404, 400); the rate limit's 429 on a
// read route is in rate-limit.test.ts. On PostgreSQL, where the
// wait can be made deterministic: another transaction holds an uncommitted row of the same Signature,
// so the service's insert of its record waits on it; meanwhile the page is read (the list's metrics
// count it) and nothing is answered; the answer then follows the other transaction's fate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SignedRequest } from '../../sdk/src/index.js';
import { signatureHash } from '../../src/http/replay-guard.js';
import { initiateBody } from '../payments/api-helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => server.close());

interface Answer {
  readonly status: number;
  readonly message: string;
  readonly data: any;
  }

async function send(path: string, request: SignedRequest): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}/v1/api/${path}`, { method: 'POST', headers: request.headers, body: request.body });
  const body = await response.json();
  return { status: response.status, message: body.message, data: body.data };
}

describe('a read route whose Signature is refused', () => {
  it('answers SIGNATURE_REUSED, not the 404 its read found', async () => {
    const shop = await server.createMerchant();
    const request = shop.client.buildSignedRequest({ transactionRef: 'pay_nothing_here' });
    expect((await send('payment/refund', request)).status).toBe(404);
    expect(await send('payment/status', request)).toMatchObject({ status: 401, message: 'SIGNATURE_REUSED' });
  });

  it('answers SIGNATURE_REUSED, not the 400 its body earns', async () => {
    const shop = await server.createMerchant();
    const request = shop.client.buildSignedRequest({ transactionRef: 7 });
    expect(await send('payment/refund', request)).toMatchObject({ status: 400, message: 'VALIDATION_FAILED' });
    expect(await send('payment/list', request)).toMatchObject({ status: 401, message: 'SIGNATURE_REUSED' });
  });
});

/** Waits (no deadline of its own: the test's timeout is the bound) until `check` holds. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(usingPostgres())('a read route while its Signature record waits to commit', () => {
  let shop: TestMerchant;
  beforeAll(async () => {
    shop = await server.createMerchant();
    for (let i = 0; i < 3; i += 1) expect((await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE'))).status).toBe(200);
  }, 60_000);

  const pageReads = async (): Promise<number> => {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const value = (result: string) => Number(new RegExp(`^paygate_list_records_total\\{list="payments",result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return value('hit') + value('miss');
  };

  const insertWaiting = async (): Promise<boolean> => {
    const waiting = await sql<{ n: string }>`
      select count(*)::text as n from pg_stat_activity
      where wait_event_type = 'Lock' and query ilike '%insert into "used_signatures"%'`.execute(server.services.store.db);
    return Number(waiting.rows[0]!.n) > 0;
  };

  /**
   * Sends `request` to payment/list while another transaction holds an uncommitted record of its
   * Signature (for `heldPath`); checks that the page is read meanwhile and nothing answered, then ends
   * that transaction (`commit` or roll back) and returns the answer.
   */
  async function listWhileHeld(request: SignedRequest, heldPath: string, commit: boolean): Promise<Answer> {
    const db = server.services.store.db;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const rollback = new Error('rolled back on purpose');
    const holder = db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('used_signatures')
          .values({ signature_hash: signatureHash(request.headers.Signature!), merchant_id: shop.id, expires_at_ms: BigInt(Date.now() + 600_000), path: heldPath, path_effect: 'change' })
          .execute();
        holding();
        await ended;
        if (!commit) throw rollback;
      })
      .catch((error) => {
        if (error !== rollback) throw error;
      });
    await held;
    const readsBefore = await pageReads();
    let answered = false;
    const answer = send('payment/list', request).finally(() => (answered = true));
    await until(insertWaiting);
    await until(async () => (await pageReads()) >= readsBefore + 3);
    // The page was read and the record still waits: nothing may be answered before it is judged.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    end();
    await holder;
    return answer;
  }

  it('reads the page meanwhile and answers it once the record commits', async () => {
    const request = shop.client.buildSignedRequest({ limit: 10 });
    const answer = await listWhileHeld(request, '/v1/api/payment/list', false);
    expect(answer.status).toBe(200);
    expect(answer.data.items).toHaveLength(3);
    const stored = await server.services.store.db
      .selectFrom('used_signatures')
      .select(['path', 'path_effect'])
      .where('signature_hash', '=', signatureHash(request.headers.Signature!))
      .executeTakeFirst();
    expect(stored).toEqual({ path: '/v1/api/payment/list', path_effect: 'read' });
  });

  it('throws the page away and answers SIGNATURE_REUSED when the other record commits first', async () => {
    const request = shop.client.buildSignedRequest({ limit: 9 });
    const answer = await listWhileHeld(request, '/v1/api/payment/refund', true);
    expect({ status: answer.status, message: answer.message }).toEqual({ status: 401, message: 'SIGNATURE_REUSED' });
    expect(answer.data).not.toHaveProperty('items');
  });
});
