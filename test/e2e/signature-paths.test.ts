// Contract section 6, one-time signatures bound to a path: the same signed request again on the same
// path is answered like the first (polling twice in one second works), two read paths may share a
// Signature, and a Signature never crosses to or from a path that changes state, not even in a race.
//
// Read routes (readAhead, src/http/app.ts) start their database read while the Signature's record
// commits; the answer waits for that record and the rate limit, and takes their error if they refuse it.
// On every store: a refusal outranks whatever the read answered (404, 400); the rate limit's 429 on a
// read route is in rate-limit.test.ts. On PostgreSQL, where the wait can be made deterministic: another
// transaction holds an uncommitted row of the same Signature, so the service's insert of its record
// waits on it; meanwhile the page is read (the list's metrics count it) and nothing is answered; the
// answer then follows the other transaction's fate.
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDeclaredEffect } from '../../src/http/auth.js';
import { signatureHash } from '../../src/http/replay-guard.js';
import { PaymentClient, type SignedRequest } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { entriesOf, fund, initiateBody, paidPayment } from '../payments/api-helpers.js';
import { usingPostgres } from '../helpers/store.js';
import { listRecordCounts } from '../helpers/metrics.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  expect((await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 })).status).toBe(200);
});
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

const simulatorRefunds = (): number => server.services.channels.simulator.server!.stats.refunds;

/** A refundable, paid payment of a fresh merchant, with money to refund it. */
async function refundablePayment(): Promise<{ shop: TestMerchant; ref: string }> {
  const shop = await server.createMerchant();
  const ref = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
  await fund(server, shop.id, 'INR', 50_00n);
  return { shop, ref };
}

async function paymentStatus(ref: string): Promise<string> {
  const row = await server.services.store.db.selectFrom('payments').select('status').where('transaction_ref', '=', ref).executeTakeFirstOrThrow();
  return row.status;
}

describe('the same signed request on the same path', () => {
  it('answers payment/status twice in one second, both 200 with the same record', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('IDR', 'QRIS'));
    const request = shop.client.buildSignedRequest({ transactionRef: created.data.transactionRef });
    const first = await send('payment/status', request);
    const second = await send('payment/status', request);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.data).toEqual(first.data);
  });

  it('lets the SDK poll twice in the same second with the same Timestamp', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('IDR', 'QRIS'));
    const sent: Record<string, string>[] = [];
    const second = Math.floor(server.clock.nowMs() / 1000);
    const client = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: shop.id,
      key: { type: 'HMAC-SHA256', secret: shop.secret! },
      clock: () => second + 0.5,
      fetch: (input, init) => {
        sent.push(init!.headers as Record<string, string>);
        return fetch(input, init);
      },
    });
    const answers = [await client.paymentStatus({ transactionRef: created.data.transactionRef }), await client.paymentStatus({ transactionRef: created.data.transactionRef })];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(sent.map((h) => h.Timestamp)).toEqual([String(second), String(second)]);
  });

  it('lets the SDK check a payment and refund it in the same second: it signs the refund for a later second', async () => {
    const { shop, ref } = await refundablePayment();
    const sent: Record<string, string>[] = [];
    const second = Math.floor(server.clock.nowMs() / 1000);
    const client = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: shop.id,
      key: { type: 'HMAC-SHA256', secret: shop.secret! },
      clock: () => second + 0.5,
      fetch: (input, init) => {
        sent.push(init!.headers as Record<string, string>);
        return fetch(input, init);
      },
    });
    expect((await client.paymentStatus({ transactionRef: ref })).data.status).toBe('Success');
    expect((await client.paymentRefund({ transactionRef: ref })).data.status).toBe('Refund');
    expect((await client.paymentRefund({ transactionRef: ref })).data.status).toBe('Refund');
    expect(sent.map((h) => Number(h.Timestamp) - second)).toEqual([0, 1, 1]);
  });

  it('answers concurrent identical refund requests alike and refunds once', async () => {
    const { shop, ref } = await refundablePayment();
    const before = simulatorRefunds();
    const request = shop.client.buildSignedRequest({ transactionRef: ref });
    const answers = await Promise.all(Array.from({ length: 4 }, () => send('payment/refund', request)));
    expect(answers.map((a) => [a.status, a.data.status])).toEqual(Array.from({ length: 4 }, () => [200, 'Refund']));
    expect(simulatorRefunds()).toBe(before + 1);
    expect(await entriesOf(server, shop.id, 'refund')).toBe(1);
  });
});

describe('the same Signature on another path', () => {
  it('is accepted on two read paths: account/balance then account/usdt/rate', async () => {
    const shop = await server.createMerchant();
    const request = shop.client.buildSignedRequest({ currency: 'INR' });
    const balance = await send('account/balance', request);
    const rate = await send('account/usdt/rate', request);
    expect([balance.status, rate.status]).toEqual([200, 200]);
    expect(rate.data).toMatchObject({ currency: 'INR', deposit: expect.any(Number) });
  });

  it('refuses a payment/status body re-sent to payment/refund, and refunds nothing', async () => {
    const { shop, ref } = await refundablePayment();
    const before = simulatorRefunds();
    const request = shop.client.buildSignedRequest({ transactionRef: ref });
    expect((await send('payment/status', request)).status).toBe(200);
    const replay = await send('payment/refund', request);
    expect({ status: replay.status, message: replay.message }).toEqual({ status: 401, message: 'SIGNATURE_REUSED' });
    expect(await paymentStatus(ref)).toBe('Success');
    expect(await entriesOf(server, shop.id, 'refund')).toBe(0);
    expect(simulatorRefunds()).toBe(before);
  });

  it('refuses a refund Signature on payment/status afterwards', async () => {
    const { shop, ref } = await refundablePayment();
    const request = shop.client.buildSignedRequest({ transactionRef: ref });
    expect((await send('payment/refund', request)).data.status).toBe('Refund');
    const status = await send('payment/status', request);
    expect({ status: status.status, message: status.message }).toEqual({ status: 401, message: 'SIGNATURE_REUSED' });
  });

  it('refuses a state-changing path after two read paths shared the Signature', async () => {
    const shop = await server.createMerchant();
    const request = shop.client.buildSignedRequest({ currency: 'INR' });
    expect((await send('account/balance', request)).status).toBe(200);
    expect((await send('payment/methods', request)).status).toBe(200);
    expect((await send('payment/initiate', request)).message).toBe('SIGNATURE_REUSED');
  });

  it('lets at most one of payment/status and payment/refund through when they race', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { shop, ref } = await refundablePayment();
      const request = shop.client.buildSignedRequest({ transactionRef: ref });
      const paths = ['payment/status', 'payment/refund', 'payment/status', 'payment/refund'];
      const answers = await Promise.all(paths.map((path) => send(path, request)));
      const through = new Set(paths.filter((_, i) => answers[i]!.status !== 401));
      expect(through.size).toBe(1);
      for (const [i, answer] of answers.entries()) {
        if (!through.has(paths[i]!)) expect(answer.message).toBe('SIGNATURE_REUSED');
      }
      expect(await entriesOf(server, shop.id, 'refund')).toBe(through.has('payment/refund') ? 1 : 0);
    }
  });
});

describe('merchant routes', () => {
  it('must each declare whether they change state', async () => {
    const app = Fastify();
    app.addHook('onRoute', requireDeclaredEffect);
    app.post('/declared', { config: { changesState: false } }, async () => ({}));
    expect(() => app.post('/undeclared', async () => ({}))).toThrow(/changesState/);
    await app.close();
  });
});

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

/** Waits until `check` holds; fails with `what` after 10 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(usingPostgres())('a read route while its Signature record waits to commit', () => {
  let shop: TestMerchant;
  beforeAll(async () => {
    shop = await server.createMerchant();
    for (let i = 0; i < 3; i += 1) expect((await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE'))).status).toBe(200);
  }, 60_000);

  const pageReads = async (): Promise<number> => {
    const { hit, miss } = await listRecordCounts(server.baseUrl);
    return hit + miss;
  };

  const insertWaiting = async (): Promise<boolean> => {
    const waiting = await sql<{ n: string }>`
      select count(*)::text as n from pg_stat_activity
      where wait_event_type = 'Lock' and query ilike '%insert into "signature_claims"%'`.execute(server.services.store.db);
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
          .insertInto('signature_claims')
          .values({
            signed_at_s: BigInt(request.headers.Timestamp!),
            signature_hash: signatureHash(request.headers.Signature!),
            merchant_id: shop.id,
            expires_at_ms: BigInt(Date.now() + 600_000),
            path: heldPath,
            path_effect: 'change',
          })
          .execute();
        holding();
        await ended;
        if (!commit) throw rollback;
      })
      .catch((error) => {
        if (error !== rollback) throw error;
      });
    await held;
    let answered = false;
    let answer: Promise<Answer> | null = null;
    try {
      const readsBefore = await pageReads();
      answer = send('payment/list', request).finally(() => (answered = true));
      await until("the service's insert of the record to wait on the held row", insertWaiting);
      await until('the page to be read', async () => (await pageReads()) >= readsBefore + 3);
      // The page was read and the record still waits: nothing may be answered before it is judged.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered).toBe(false);
    } finally {
      // Whatever happened above, end the holding transaction, so the service's flush goes on.
      end();
      await holder;
    }
    return answer!;
  }

  it('reads the page meanwhile and answers it once the record commits', async () => {
    const request = shop.client.buildSignedRequest({ limit: 10 });
    const answer = await listWhileHeld(request, '/v1/api/payment/list', false);
    expect(answer.status).toBe(200);
    expect(answer.data.items).toHaveLength(3);
    const stored = await server.services.store.db
      .selectFrom('signature_claims')
      .select(['path', 'path_effect'])
      .where('signed_at_s', '=', BigInt(request.headers.Timestamp!))
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
