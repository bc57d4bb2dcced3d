// The bench's bare signed read (bench/floor-server.ts), on the suite's store: the floor the read lines of
// contract section 13 are measured against only means something if it does the work it claims, so it
// must refuse what the service refuses (a bad signature, a Timestamp out of the window, a signature used
// twice, even twice at once) and answer the rest.
import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest, type MerchantKey } from '../../sdk/src/signing.js';
import { listFloorRef, listFloorSecondPage } from '../../bench/list-floor.js';
import { startFloorServer } from '../../bench/service.js';
import { TEST_PG_URL, usingPostgres } from '../helpers/store.js';

const rsaKey: MerchantKey = {
  type: 'RSA-SHA512',
  privateKeyPem: crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const hmacKey: MerchantKey = { type: 'HMAC-SHA256', secret: crypto.randomBytes(24).toString('base64') };
const merchants = [
  { id: 'mch_floorRsa', key: rsaKey },
  { id: 'mch_floorHmac', key: hmacKey },
];

let floor: Awaited<ReturnType<typeof startFloorServer>>;

beforeAll(async () => {
  // The floor's bank simulator runs compiled, so the first start builds the project.
  floor = await startFloorServer(usingPostgres() ? 'postgres' : 'sqlite', merchants);
}, 120_000);

afterAll(async () => {
  await floor?.stop();
  await floor?.cleanup();
});

interface Signed {
  readonly headers: Record<string, string>;
  readonly body: string;
}

function signed(merchant: (typeof merchants)[number], body: string, timestamp = String(Math.floor(Date.now() / 1000))): Signed {
  return {
    body,
    headers: { 'content-type': 'application/json', MerchantID: merchant.id, Timestamp: timestamp, Signature: signRequest(merchant.key, body, timestamp) },
  };
}

async function send(request: Signed, body = request.body): Promise<{ status: number; json: any }> {
  const response = await fetch(`${floor.baseUrl}/v1/api/account/balance`, { method: 'POST', headers: request.headers, body });
  return { status: response.status, json: await response.json() };
}

describe('the bare signed read of the bench', () => {
  it('answers a signed balance read of either key type once, and refuses the same signature after', async () => {
    for (const [i, merchant] of merchants.entries()) {
      const request = signed(merchant, JSON.stringify({ currency: 'IDR', n: i }));
      expect(await send(request)).toEqual({ status: 200, json: { code: '200', message: 'SUCCESS', data: { currency: 'IDR', available: '0.00', pending: '0.00' } } });
      expect(await send(request)).toMatchObject({ status: 401, json: { message: 'SIGNATURE_REUSED' } });
    }
  });

  it('lets exactly one of the same signature sent at once through', async () => {
    const request = signed(merchants[0]!, JSON.stringify({ currency: 'INR', burst: true }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(request)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('refuses a changed body, a Timestamp out of the window and an unknown merchant, and records none of them', async () => {
    const request = signed(merchants[1]!, JSON.stringify({ currency: 'NGN', k: 1 }));
    expect((await send(request, JSON.stringify({ currency: 'NGN', k: 2 }))).status).toBe(401);
    // The refused attempt did not use the signature up: the genuine request still passes.
    expect((await send(request)).status).toBe(200);
    const stale = signed(merchants[1]!, JSON.stringify({ currency: 'NGN', k: 3 }), String(Math.floor(Date.now() / 1000) - 3600));
    expect((await send(stale)).status).toBe(401);
    const stranger = signed(merchants[1]!, JSON.stringify({ currency: 'NGN', k: 4 }));
    expect((await send({ ...stranger, headers: { ...stranger.headers, MerchantID: 'mch_nobody' } })).status).toBe(401);
  });
});

/** One query on the floor's own database (its SQLite file, or its PostgreSQL schema), `?` for parameters. */
async function query(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]> {
  if (floor.schema === null) {
    const db = new SQLite(path.join(path.dirname(floor.logFile), 'floor.sqlite'), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: TEST_PG_URL, options: `-c search_path=${floor.schema}` });
  await client.connect();
  try {
    let n = 0;
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows;
  } finally {
    await client.end();
  }
}

// The bare payout (bench/payout-floor.ts) is the floor the payout lines are measured against, on the
// suite's store: it must take a payout, reserve it in a balanced journal, send it to its own bank
// simulator and settle it from the bank's signed callback, and refuse what would overdraw or forge an
// outcome.
describe('the bare payout of the bench', () => {
  /** The one row's one column, as a number (PostgreSQL answers bigint and count as text). */
  const scalar = async (sql: string, ...params: unknown[]): Promise<unknown> => {
    const rows = await query(sql, ...params);
    expect(rows).toHaveLength(1);
    const value = Object.values(rows[0]!)[0];
    return typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : typeof value === 'bigint' ? Number(value) : value;
  };
  const payout = (merchant: (typeof merchants)[number], merchantRef: string, amount: number): Signed =>
    signed(merchant, JSON.stringify({ merchantRef, currency: 'IDR', method: 'TRANSFER', amount, bankCode: '00014', name: 'Floor Test', account: '8800123459', phone: '6281234567890', email: 'f@example.com' }));
  const post = async (request: Signed, route = '/v1/api/payout/initiate'): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${floor.baseUrl}${route}`, { method: 'POST', headers: request.headers, body: request.body });
    return { status: response.status, json: await response.json() };
  };

  it('reserves a payout, sends it to the bank and settles it from the callback, every journal balanced', async () => {
    const answer = await post(payout(merchants[0]!, 'fp-1', 10_000));
    expect(answer).toMatchObject({ status: 200, json: { code: '200', data: { merchantRef: 'fp-1', status: 'Processing' } } });
    const ref: string = answer.json.data.transactionRef;
    expect(await scalar('SELECT submit_attempts FROM floor_payouts WHERE transaction_ref = ?', ref)).toBe(1);
    // The simulator settles after its delay (3 s) and calls back.
    let status = await scalar('SELECT status FROM floor_payouts WHERE transaction_ref = ?', ref);
    expect(status).toBe('Submitted');
    for (let waited = 0; status === 'Submitted' && waited < 20_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await scalar('SELECT status FROM floor_payouts WHERE transaction_ref = ?', ref);
    }
    expect(status).toBe('Success');
    const balance = (id: string): Promise<unknown> => scalar('SELECT balance_minor FROM floor_accounts WHERE id = ?', id);
    expect(await balance(`${merchants[0]!.id}:IDR:reserved`)).toBe(0);
    expect(await balance(`${merchants[0]!.id}:IDR:available`)).toBe(1e13 - 1_000_500);
    expect(await balance(`upstream:IDR`)).toBe(1_000_000);
    expect(await balance(`fees:IDR`)).toBe(500);
    expect(await scalar('SELECT count(*) FROM (SELECT entry_id FROM floor_postings GROUP BY entry_id HAVING sum(amount_minor) <> 0) AS unbalanced')).toBe(0);
    const drift = await scalar('SELECT count(*) FROM floor_accounts a WHERE a.balance_minor <> (SELECT coalesce(sum(amount_minor), 0) FROM floor_postings p WHERE p.account_id = a.id)');
    expect(drift).toBe(0);
  }, 30_000);

  it('refuses an overdraft, a repeated signature and a taken merchantRef, and writes no payout for any', async () => {
    expect(await post(payout(merchants[1]!, 'fp-big', 2e11))).toMatchObject({ status: 422, json: { message: 'INSUFFICIENT_BALANCE' } });
    const once = payout(merchants[1]!, 'fp-2', 5_000);
    expect((await post(once)).status).toBe(200);
    expect(await post(once)).toMatchObject({ status: 401, json: { message: 'SIGNATURE_REUSED' } });
    expect(await post(payout(merchants[1]!, 'fp-2', 7_000))).toMatchObject({ status: 409, json: { message: 'DUPLICATE_MERCHANT_REF' } });
    expect(await query('SELECT merchant_ref FROM floor_payouts WHERE merchant_id = ? ORDER BY merchant_ref', merchants[1]!.id)).toEqual([{ merchant_ref: 'fp-2' }]);
    expect(await scalar('SELECT balance_minor FROM floor_accounts WHERE id = ?', `${merchants[1]!.id}:IDR:reserved`)).toBe(500_500);
  });

  it('takes requests that arrive together in one group, each answered for itself', async () => {
    // Twenty at once: the first ones fill a group, the rest wait for the next (bench/payout-floor.ts).
    const requests = Array.from({ length: 20 }, (_, i) => payout(merchants[i % 2]!, `fp-burst-${i}`, 1_000 + i));
    const twin = requests[3]!;
    const answers = await Promise.all([...requests, twin].map((request) => post(request)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 401)).toHaveLength(1);
    const refs = new Set(answers.filter((a) => a.status === 200).map((a) => a.json.data.transactionRef));
    expect(refs.size).toBe(20);
    expect(await scalar("SELECT count(*) FROM floor_payouts WHERE merchant_ref LIKE 'fp-burst-%'")).toBe(20);
    expect(await scalar("SELECT count(*) FROM floor_entries WHERE kind = 'reserve' AND ref IN (SELECT transaction_ref FROM floor_payouts WHERE merchant_ref LIKE 'fp-burst-%')")).toBe(20);
    expect(await scalar('SELECT count(*) FROM (SELECT entry_id FROM floor_postings GROUP BY entry_id HAVING sum(amount_minor) <> 0) AS unbalanced')).toBe(0);
  });

  it('refuses a callback whose signature does not verify, and changes nothing', async () => {
    const answer = await post(payout(merchants[0]!, 'fp-3', 2_000));
    const ref: string = answer.json.data.transactionRef;
    const body = JSON.stringify({ eventId: 'e1', kind: 'payout', transactionRef: ref, status: 'FAILED', upstreamRef: null, failureReason: 'x', occurredAt: new Date().toISOString() });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const forged = { body, headers: { 'content-type': 'application/json', 'x-sim-timestamp': timestamp, 'x-sim-signature': `sha256=${'0'.repeat(64)}` } };
    expect((await post(forged, '/v1/callbacks/simulator')).status).toBe(401);
    expect(await scalar('SELECT status FROM floor_payouts WHERE transaction_ref = ?', ref)).toBe('Submitted');
  });
});

// The bare payment (bench/payment-floor.ts) is the floor `payment/initiate` is measured against: it must
// write the payment with its checkout token before it answers, request the collection from its bank in
// the background and write the answer onto the row, and refuse a repeat or a taken merchantRef.
describe('the bare payment of the bench', () => {
  const payment = (merchant: (typeof merchants)[number], merchantRef: string, extra: object = {}): Signed =>
    signed(
      merchant,
      JSON.stringify({ merchantRef, method: 'BNI', currency: 'IDR', amount: 50_000, name: 'Floor Payer', email: 'p@example.com', phone: '6281234567890', redirectUrl: 'https://merchant.example/return', ...extra }),
    );
  const post = async (request: Signed): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${floor.baseUrl}/v1/api/payment/initiate`, { method: 'POST', headers: request.headers, body: request.body });
    return { status: response.status, json: await response.json() };
  };

  it('writes the payment before answering, then its collection from the bank', async () => {
    const answer = await post(payment(merchants[0]!, 'pf-1'));
    expect(answer).toMatchObject({ status: 200, json: { code: '200', data: { merchantRef: 'pf-1', method: 'BNI', currency: 'IDR', amount: 50_000 } } });
    const ref: string = answer.json.data.transactionRef;
    const token = (await query('SELECT checkout_token FROM floor_payments WHERE transaction_ref = ?', ref))[0]!.checkout_token as string;
    expect(answer.json.data.checkoutUrl).toBe(`${floor.baseUrl}/checkout/${token}`);
    let row: Record<string, unknown> = {};
    for (let waited = 0; waited < 10_000; waited += 100) {
      row = (await query('SELECT status, amount_minor, collection_state, upstream_ref, instructions FROM floor_payments WHERE transaction_ref = ?', ref))[0]!;
      if (row.collection_state === 'ready') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row).toMatchObject({ status: 'Pending', collection_state: 'ready' });
    expect(Number(row.amount_minor)).toBe(5_000_000);
    expect(typeof row.upstream_ref).toBe('string');
    expect(JSON.parse(row.instructions as string)).toMatchObject({ kind: 'VIRTUAL_ACCOUNT' });
  });

  it('refuses a repeated signature, a taken merchantRef and a method of another currency, with one row written', async () => {
    const once = payment(merchants[1]!, 'pf-2');
    const [first, repeat] = await Promise.all([post(once), post(once)]);
    expect([first.status, repeat.status].sort()).toEqual([200, 401]);
    expect(await post(payment(merchants[1]!, 'pf-2', { amount: 70_000 }))).toMatchObject({ status: 409, json: { message: 'DUPLICATE_MERCHANT_REF' } });
    expect((await post(payment(merchants[1]!, 'pf-3', { method: 'NATIVE' }))).status).toBe(400);
    expect(await query("SELECT merchant_ref FROM floor_payments WHERE merchant_id = ? AND merchant_ref LIKE 'pf-%'", merchants[1]!.id)).toEqual([{ merchant_ref: 'pf-2' }]);
  });
});

// The bare list page (bench/list-floor.ts) is the floor `payment/list` is measured against: it must page
// through the merchant's own rows newest first, with a cursor that leads to the rest, record each call's
// signature once, and refuse what the service refuses of a list call.
describe('the bare list page of the bench', () => {
  const list = async (request: Signed): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${floor.baseUrl}/v1/api/payment/list`, { method: 'POST', headers: request.headers, body: request.body });
    return { status: response.status, json: await response.json() };
  };

  it("pages through a merchant's own rows, newest first, with the cursor the case computes", async () => {
    const merchant = merchants[1]!;
    const first = await list(signed(merchant, JSON.stringify({ limit: 50 })));
    expect(first).toMatchObject({ status: 200, json: { code: '200', message: 'SUCCESS' } });
    expect(first.json.data.items).toHaveLength(50);
    expect(first.json.data.items[0]).toMatchObject({ transactionRef: listFloorRef(merchant.id, 99), merchantRef: 'bl-99', currency: 'INR', amount: 500, status: 'Pending' });
    expect(first.json.data.nextCursor).toBe(listFloorSecondPage(merchant.id, 50));
    const second = await list(signed(merchant, JSON.stringify({ limit: 50, cursor: first.json.data.nextCursor })));
    expect(second.status).toBe(200);
    expect(second.json.data.nextCursor).toBeNull();
    const refs = [...first.json.data.items, ...second.json.data.items].map((item: { merchantRef: string }) => item.merchantRef);
    expect(refs).toEqual(Array.from({ length: 100 }, (_, i) => `bl-${99 - i}`));
    // Another merchant's page holds its own rows only.
    const other = await list(signed(merchants[0]!, JSON.stringify({ limit: 1 })));
    expect(other.json.data.items.map((item: { transactionRef: string }) => item.transactionRef)).toEqual([listFloorRef(merchants[0]!.id, 99)]);
  });

  it('refuses a repeated signature, a bad limit or cursor and a changed body', async () => {
    const request = signed(merchants[0]!, JSON.stringify({ limit: 5 }));
    expect((await list(request)).status).toBe(200);
    expect(await list(request)).toMatchObject({ status: 401, json: { message: 'SIGNATURE_REUSED' } });
    expect((await list(signed(merchants[0]!, JSON.stringify({ limit: 0 })))).status).toBe(400);
    expect((await list(signed(merchants[0]!, JSON.stringify({ limit: 5, cursor: 'not-a-cursor' })))).status).toBe(400);
    const changed = signed(merchants[0]!, JSON.stringify({ limit: 6 }));
    expect((await list({ ...changed, body: JSON.stringify({ limit: 7 }) })).status).toBe(401);
  });
});
