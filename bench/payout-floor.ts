// The floor of a payout: the least contract sections 5, 6, 9 and 12 let any server do for a signed
// `payout/initiate` and for the bank's notification of its outcome, written bare on the service's parts
// (Fastify, node:crypto through the SDK's verifiers, better-sqlite3 in WAL with synchronous=FULL or
// node-postgres with synchronous_commit=on, undici to the bank simulator, the simulator itself in its own
// process). bench/floor-server.ts mounts it beside the bare signed read, on the run's store, and the case
// `payout floor, hot merchant (bare)` sends it the hot-merchant payouts of bench/cases-money.ts.
//
// A payout, all of it:
// - intake: headers, Timestamp window, signature; then, in one transaction shared by every request that
//   arrives together (group commit, one fsync), each request's one-time signature record, its guarded
//   balance update (available >= amount + fee), its payout row (unique per merchantRef) already marked
//   as sent once, and the reservation's journal entry with its two postings; answered after the commit;
// - submission: the payout sent to the bank right after that commit (the attempt is on disk before the
//   request leaves, so a crash can never send it twice unknowingly);
// - outcome: the bank's signed callback checked (HMAC in constant time) and the final transition with
//   its journal entry (settled: reserved to the bank and the fee; failed: back to available), in the
//   same kind of shared transaction, answered after the commit.
//
// Everything else the service does is left out, and each omission only flatters the floor: no
// Processing write, no polling, no retries, no idempotent replay (a repeated signature is refused), no
// approvals, limits, fees table, rate limit, webhooks, events, audit, metrics or logging, the balance
// rows keyed by text, three indexes on the payout row where the service keeps six.
//
// On PostgreSQL a group is not a transaction of one statement per request (each a round trip, as the
// service's write group runs them) but one statement for all its intakes and one for all its outcomes,
// each its own transaction: a round trip and a commit each, whatever the group's size. See postgresBooks.
import crypto, { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { GroupBatch } from '../src/core/group-batch.js';
import { toMinor } from '../src/core/money.js';
import { API_KEY_HEADER, signCallback, SIGNATURE_HEADER, TIMESTAMP_HEADER, type SubmitPayoutBody } from '../src/simulator/protocol.js';
import { signedJson, text, UNAUTHORIZED, WINDOW_SECONDS, type Verifier } from './floor-auth.js';
import { arrayOf, connectFloorPg, inTwoStatements, openFloorSqlite, SQLITE_CLAIM_WRITE, type FloorStoreOptions } from './floor-store.js';

const PATH = '/v1/api/payout/initiate';
const CALLBACK_PATH = '/v1/callbacks/simulator';
const FEE_MINOR = 500n;
/** Each merchant's IDR at start (100,000,000,000.00): ten million of the bench's payouts. */
export const FLOOR_FUNDING_MINOR = 10n ** 13n;
const MAX_UNITS_PER_GROUP = 512;

export interface PayoutFloorOptions {
  readonly store: FloorStoreOptions;
  readonly verifiers: ReadonlyMap<string, Verifier>;
  readonly simulator: { readonly url: string; readonly key: string; readonly callbackSecret: string };
}

interface Intake {
  readonly kind: 'intake';
  readonly claimHash: string;
  readonly merchantId: string;
  readonly expiresAtMs: number;
  readonly merchantRef: string;
  readonly currency: string;
  readonly amountMinor: bigint;
  readonly bankCode: string;
  readonly account: string;
  readonly name: string;
  readonly phone: string;
  readonly email: string;
}

interface Outcome {
  readonly kind: 'outcome';
  readonly transactionRef: string;
  readonly status: 'SUCCESS' | 'FAILED';
  readonly upstreamRef: string | null;
}

type Answer = { readonly ok: true; readonly transactionRef: string } | { readonly ok: false; readonly why: 'SIGNATURE_REUSED' | 'INSUFFICIENT_BALANCE' | 'DUPLICATE_MERCHANT_REF' | 'NOT_PENDING' };

class Refusal extends Error {
  constructor(readonly why: 'INSUFFICIENT_BALANCE' | 'DUPLICATE_MERCHANT_REF') {
    super(why);
  }
}

/** The floor's tables, with the store's 64-bit integer and its generated key. */
const schemaOf = (integer: string, generatedKey: string): string[] => [
  `CREATE TABLE floor_accounts (id TEXT PRIMARY KEY, balance_minor ${integer} NOT NULL)`,
  `CREATE TABLE floor_entries (id ${generatedKey}, ref TEXT NOT NULL, kind TEXT NOT NULL, UNIQUE (ref, kind))`,
  `CREATE TABLE floor_postings (entry_id ${integer} NOT NULL, account_id TEXT NOT NULL, amount_minor ${integer} NOT NULL)`,
  `CREATE TABLE floor_payouts (transaction_ref TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, merchant_ref TEXT NOT NULL, currency TEXT NOT NULL,
    amount_minor ${integer} NOT NULL, fee_minor ${integer} NOT NULL, bank_code TEXT NOT NULL, account TEXT NOT NULL, name TEXT NOT NULL,
    status TEXT NOT NULL, submit_attempts ${integer} NOT NULL, upstream_ref TEXT, created_at_ms ${integer} NOT NULL, updated_at_ms ${integer} NOT NULL,
    UNIQUE (merchant_id, merchant_ref))`,
  'CREATE INDEX floor_payouts_status ON floor_payouts (status, updated_at_ms)',
];

/** Writes a group of units and answers each, in order. */
interface FloorBooks {
  write(units: readonly (Intake | Outcome)[]): Answer[] | Promise<Answer[]>;
}

const available = (merchantId: string, currency: string): string => `${merchantId}:${currency}:available`;
const reserved = (merchantId: string, currency: string): string => `${merchantId}:${currency}:reserved`;

/** The floor's books on SQLite: every statement prepared once, every group one immediate transaction. */
function sqliteBooks(file: string, merchantIds: readonly string[]): FloorBooks {
  const db = openFloorSqlite(file, schemaOf('INTEGER', 'INTEGER PRIMARY KEY'));
  db.defaultSafeIntegers(true);
  const claim = db.prepare(SQLITE_CLAIM_WRITE);
  const debit = db.prepare('UPDATE floor_accounts SET balance_minor = balance_minor - ? WHERE id = ? AND balance_minor >= ?');
  const credit = db.prepare(
    'INSERT INTO floor_accounts (id, balance_minor) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET balance_minor = balance_minor + excluded.balance_minor',
  );
  const insertPayout = db.prepare(
    `INSERT INTO floor_payouts (transaction_ref, merchant_id, merchant_ref, currency, amount_minor, fee_minor, bank_code, account, name, status,
      submit_attempts, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'Submitted', 1, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const finish = db.prepare(
    "UPDATE floor_payouts SET status = ?, upstream_ref = ?, updated_at_ms = ? WHERE transaction_ref = ? AND status = 'Submitted' RETURNING merchant_id, currency, amount_minor, fee_minor",
  );
  const entry = db.prepare('INSERT INTO floor_entries (ref, kind) VALUES (?, ?)');
  const two = db.prepare('INSERT INTO floor_postings (entry_id, account_id, amount_minor) VALUES (?, ?, ?), (?, ?, ?)');
  const three = db.prepare('INSERT INTO floor_postings (entry_id, account_id, amount_minor) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)');

  const journal2 = (ref: string, kind: string, from: string, to: string, amount: bigint): void => {
    const id = entry.run(ref, kind).lastInsertRowid;
    two.run(id, from, -amount, id, to, amount);
  };

  // Funding: each merchant's IDR from an outside account, one entry each.
  db.transaction(() => {
    for (const merchantId of merchantIds) {
      credit.run('funding:IDR', -FLOOR_FUNDING_MINOR);
      credit.run(available(merchantId, 'IDR'), FLOOR_FUNDING_MINOR);
      journal2(`fund-${merchantId}`, 'fund', 'funding:IDR', available(merchantId, 'IDR'), FLOOR_FUNDING_MINOR);
    }
  })();

  const intake = (unit: Intake, nowMs: number): Answer => {
    if (claim.run(unit.claimHash, unit.merchantId, unit.expiresAtMs, PATH).changes === 0) return { ok: false, why: 'SIGNATURE_REUSED' };
    const transactionRef = newTransactionRef();
    const total = unit.amountMinor + FEE_MINOR;
    const from = available(unit.merchantId, unit.currency);
    const to = reserved(unit.merchantId, unit.currency);
    // A savepoint per request: a refusal undoes its money and keeps its signature record.
    db.transaction(() => {
      if (debit.run(total, from, total).changes === 0) throw new Refusal('INSUFFICIENT_BALANCE');
      const inserted = insertPayout.run(
        transactionRef, unit.merchantId, unit.merchantRef, unit.currency, unit.amountMinor, FEE_MINOR, unit.bankCode, unit.account, unit.name, nowMs, nowMs,
      );
      if (inserted.changes === 0) throw new Refusal('DUPLICATE_MERCHANT_REF');
      credit.run(to, total);
      journal2(transactionRef, 'reserve', from, to, total);
    })();
    return { ok: true, transactionRef };
  };

  const outcome = (unit: Outcome, nowMs: number): Answer => {
    const row = finish.get(unit.status === 'SUCCESS' ? 'Success' : 'Failed', unit.upstreamRef, nowMs, unit.transactionRef) as
      | { merchant_id: string; currency: string; amount_minor: bigint; fee_minor: bigint }
      | undefined;
    if (row === undefined) return { ok: false, why: 'NOT_PENDING' };
    const total = row.amount_minor + row.fee_minor;
    const from = reserved(row.merchant_id, row.currency);
    credit.run(from, -total);
    if (unit.status === 'SUCCESS') {
      credit.run(`upstream:${row.currency}`, row.amount_minor);
      credit.run(`fees:${row.currency}`, row.fee_minor);
      const id = entry.run(unit.transactionRef, 'settle').lastInsertRowid;
      three.run(id, from, -total, id, `upstream:${row.currency}`, row.amount_minor, id, `fees:${row.currency}`, row.fee_minor);
    } else {
      credit.run(available(row.merchant_id, row.currency), total);
      journal2(unit.transactionRef, 'release', from, available(row.merchant_id, row.currency), total);
    }
    return { ok: true, transactionRef: unit.transactionRef };
  };

  const group = db.transaction((units: readonly (Intake | Outcome)[]): Answer[] => {
    const nowMs = Date.now();
    return units.map((unit) => {
      try {
        return unit.kind === 'intake' ? intake(unit, nowMs) : outcome(unit, nowMs);
      } catch (error) {
        if (error instanceof Refusal) return { ok: false, why: error.why };
        throw error;
      }
    });
  });
  return { write: (units) => group.immediate(units) };
}

const newTransactionRef = (): string => `fp_${crypto.randomUUID()}`;

/**
 * A group's intakes in one statement: each request's signature record; the payouts whose merchantRef is
 * free; of those, per balance in arrival order, the ones the balance covers (a running sum, so in a group
 * a request the balance cannot cover also refuses the later ones of that balance that a serial order might
 * have let through: never the case in the bench, whose merchants are funded for ten million payouts); the
 * guarded debit (the same check again on the locked row, and nothing for that balance if it fails); the
 * reserved balance, the payout rows and the journal entries with their postings. One row per request.
 */
const PG_INTAKE = `
WITH u AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[])
    WITH ORDINALITY AS u(hash, merchant_id, expires_at_ms, transaction_ref, merchant_ref, currency, amount_minor, bank_code, account, name, ord)
),
claimed AS (
  INSERT INTO used_signatures (signature_hash, merchant_id, expires_at_ms, path, path_effect)
  SELECT hash, merchant_id, expires_at_ms, $13, 'write' FROM u ON CONFLICT DO NOTHING RETURNING signature_hash
),
fresh AS (
  SELECT u.*, u.amount_minor + $11::bigint AS total,
    u.merchant_id || ':' || u.currency || ':available' AS from_id, u.merchant_id || ':' || u.currency || ':reserved' AS to_id
  FROM u JOIN claimed c ON c.signature_hash = u.hash
  WHERE NOT EXISTS (SELECT 1 FROM floor_payouts p WHERE p.merchant_id = u.merchant_id AND p.merchant_ref = u.merchant_ref)
),
covered AS (
  SELECT f.* FROM (SELECT fresh.*, sum(total) OVER (PARTITION BY from_id ORDER BY ord) AS running FROM fresh) f
  JOIN floor_accounts a ON a.id = f.from_id WHERE f.running <= a.balance_minor
),
debited AS (
  UPDATE floor_accounts a SET balance_minor = a.balance_minor - d.total
  FROM (SELECT from_id, sum(total) AS total FROM covered GROUP BY from_id) d
  WHERE a.id = d.from_id AND a.balance_minor >= d.total RETURNING a.id
),
accepted AS (SELECT covered.* FROM covered JOIN debited ON debited.id = covered.from_id),
reserved AS (
  INSERT INTO floor_accounts (id, balance_minor) SELECT to_id, sum(total) FROM accepted GROUP BY to_id
  ON CONFLICT (id) DO UPDATE SET balance_minor = floor_accounts.balance_minor + excluded.balance_minor
),
payouts AS (
  INSERT INTO floor_payouts (transaction_ref, merchant_id, merchant_ref, currency, amount_minor, fee_minor, bank_code, account, name, status,
    submit_attempts, created_at_ms, updated_at_ms)
  SELECT transaction_ref, merchant_id, merchant_ref, currency, amount_minor, $11, bank_code, account, name, 'Submitted', 1, $12, $12 FROM accepted
),
entries AS (INSERT INTO floor_entries (ref, kind) SELECT transaction_ref, 'reserve' FROM accepted RETURNING id, ref),
postings AS (
  INSERT INTO floor_postings (entry_id, account_id, amount_minor)
  SELECT e.id, m.account_id, m.amount_minor FROM entries e JOIN accepted a ON a.transaction_ref = e.ref
  CROSS JOIN LATERAL (VALUES (a.from_id, -a.total), (a.to_id, a.total)) AS m(account_id, amount_minor)
)
SELECT c.signature_hash IS NOT NULL AS claimed, f.ord IS NOT NULL AS fresh, a.ord IS NOT NULL AS accepted
FROM u LEFT JOIN claimed c ON c.signature_hash = u.hash LEFT JOIN fresh f ON f.ord = u.ord LEFT JOIN accepted a ON a.ord = u.ord
ORDER BY u.ord`;

/**
 * A group's outcomes in one statement: the payouts still Submitted take their final status, and each its
 * journal entry (settled: reserved to the bank and the fee; failed: back to available) with the balances.
 * Answers the payouts it finished.
 */
const PG_OUTCOME = `
WITH u AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS u(transaction_ref, status, upstream_ref)),
done AS (
  UPDATE floor_payouts p SET status = u.status, upstream_ref = u.upstream_ref, updated_at_ms = $4
  FROM u WHERE p.transaction_ref = u.transaction_ref AND p.status = 'Submitted'
  RETURNING p.transaction_ref, p.merchant_id, p.currency, p.amount_minor, p.fee_minor, p.status
),
moves AS (
  SELECT d.transaction_ref, m.account_id, m.amount_minor FROM done d CROSS JOIN LATERAL (VALUES
    (d.merchant_id || ':' || d.currency || ':reserved', -(d.amount_minor + d.fee_minor), true),
    ('upstream:' || d.currency, d.amount_minor, d.status = 'Success'),
    ('fees:' || d.currency, d.fee_minor, d.status = 'Success'),
    (d.merchant_id || ':' || d.currency || ':available', d.amount_minor + d.fee_minor, d.status = 'Failed')
  ) AS m(account_id, amount_minor, applies) WHERE m.applies
),
balances AS (
  INSERT INTO floor_accounts (id, balance_minor) SELECT account_id, sum(amount_minor) FROM moves GROUP BY account_id
  ON CONFLICT (id) DO UPDATE SET balance_minor = floor_accounts.balance_minor + excluded.balance_minor
),
entries AS (
  INSERT INTO floor_entries (ref, kind) SELECT transaction_ref, CASE status WHEN 'Success' THEN 'settle' ELSE 'release' END FROM done RETURNING id, ref
),
postings AS (
  INSERT INTO floor_postings (entry_id, account_id, amount_minor) SELECT e.id, m.account_id, m.amount_minor FROM entries e JOIN moves m ON m.transaction_ref = e.ref
)
SELECT transaction_ref FROM done`;

/**
 * The floor's books on PostgreSQL: one connection (the group's chain, as the service's write group has
 * one), both statements prepared once by name, each its own transaction (a round trip and a commit).
 * Intakes and outcomes of one group run one after the other on that connection (inTwoStatements), so
 * they never wait on each other's locks.
 */
async function postgresBooks(url: string, schema: string, merchantIds: readonly string[]): Promise<FloorBooks> {
  const client = await connectFloorPg(url, schema, schemaOf('BIGINT', 'BIGSERIAL PRIMARY KEY'));
  await client.query('BEGIN');
  for (const merchantId of merchantIds) {
    const to = available(merchantId, 'IDR');
    await client.query(
      `INSERT INTO floor_accounts (id, balance_minor) VALUES ('funding:IDR', -$1::bigint), ($2, $1::bigint)
        ON CONFLICT (id) DO UPDATE SET balance_minor = floor_accounts.balance_minor + excluded.balance_minor`,
      [String(FLOOR_FUNDING_MINOR), to],
    );
    await client.query(
      `WITH e AS (INSERT INTO floor_entries (ref, kind) VALUES ($1, 'fund') RETURNING id)
        INSERT INTO floor_postings (entry_id, account_id, amount_minor) SELECT id, 'funding:IDR', -$3::bigint FROM e UNION ALL SELECT id, $2, $3::bigint FROM e`,
      [`fund-${merchantId}`, to, String(FLOOR_FUNDING_MINOR)],
    );
  }
  await client.query('COMMIT');

  const intakes = async (units: readonly Intake[], nowMs: number): Promise<Answer[]> => {
    const refs = units.map(newTransactionRef);
    const column = (key: keyof Intake): unknown[] => arrayOf(units, key);
    const result = await client.query<{ claimed: boolean; fresh: boolean; accepted: boolean }>({
      name: 'floor-intake',
      text: PG_INTAKE,
      values: [
        column('claimHash'), column('merchantId'), column('expiresAtMs'), refs, column('merchantRef'), column('currency'), column('amountMinor'),
        column('bankCode'), column('account'), column('name'), String(FEE_MINOR), nowMs, PATH,
      ],
    });
    return result.rows.map((row, i): Answer => {
      if (!row.claimed) return { ok: false, why: 'SIGNATURE_REUSED' };
      if (!row.fresh) return { ok: false, why: 'DUPLICATE_MERCHANT_REF' };
      return row.accepted ? { ok: true, transactionRef: refs[i]! } : { ok: false, why: 'INSUFFICIENT_BALANCE' };
    });
  };

  const outcomes = async (units: readonly Outcome[], nowMs: number): Promise<Answer[]> => {
    const result = await client.query<{ transaction_ref: string }>({
      name: 'floor-outcome',
      text: PG_OUTCOME,
      values: [
        units.map((unit) => unit.transactionRef),
        units.map((unit) => (unit.status === 'SUCCESS' ? 'Success' : 'Failed')),
        units.map((unit) => unit.upstreamRef),
        nowMs,
      ],
    });
    const done = new Set(result.rows.map((row) => row.transaction_ref));
    return units.map((unit): Answer => (done.has(unit.transactionRef) ? { ok: true, transactionRef: unit.transactionRef } : { ok: false, why: 'NOT_PENDING' }));
  };

  return {
    write: (units) =>
      inTwoStatements(units, {
        refusals: { signature: { ok: false, why: 'SIGNATURE_REUSED' }, merchantRef: { ok: false, why: 'DUPLICATE_MERCHANT_REF' }, repeat: { ok: false, why: 'NOT_PENDING' } },
        intakes,
        followUps: outcomes,
      }),
  };
}

/** Mounts the payout route and the bank's callback route on `app`. */
export async function payoutFloor(app: FastifyInstance, options: PayoutFloorOptions): Promise<void> {
  const { simulator, store } = options;
  const merchantIds = [...options.verifiers.keys()];
  const ledger = store.kind === 'sqlite' ? sqliteBooks(store.file, merchantIds) : await postgresBooks(store.url, store.schema, merchantIds);
  const writes = new GroupBatch<Intake | Outcome, Answer>(MAX_UNITS_PER_GROUP, async (units) => ledger.write(units));
  const bank = new Agent({ connections: 64, keepAliveTimeout: 10_000 });

  const submit = (transactionRef: string, unit: Intake): void => {
    const submission: SubmitPayoutBody = {
      transactionRef,
      currency: unit.currency,
      method: 'TRANSFER',
      amountMinor: String(unit.amountMinor),
      bankCode: unit.bankCode,
      account: unit.account,
      name: unit.name,
      phone: unit.phone,
      email: unit.email,
    };
    const body = JSON.stringify(submission);
    request(`${simulator.url}/v1/payouts`, { method: 'POST', dispatcher: bank, headers: { 'content-type': 'application/json', [API_KEY_HEADER]: simulator.key }, body })
      .then((response) => response.body.dump())
      // No retry: the floor leaves an unknown outcome as it is (the service would resubmit or poll).
      .catch(() => undefined);
  };

  app.post(PATH, async (req, reply) => {
    const signed = signedJson(req, options.verifiers);
    if (signed === null) return reply.code(401).send(UNAUTHORIZED);
    const { signer, json } = signed;
    const amountMinor = typeof json.amount === 'number' ? toMinor(json.amount) : null;
    const fields = {
      merchantRef: text(json.merchantRef, 64),
      currency: json.currency === 'IDR' ? 'IDR' : null,
      bankCode: text(json.bankCode, 32),
      account: typeof json.account === 'string' && /^[0-9]{6,20}$/.test(json.account) ? json.account : null,
      name: text(json.name, 128),
      phone: text(json.phone, 32),
      email: text(json.email, 128),
    };
    if (amountMinor === null || amountMinor <= 0n || Object.values(fields).includes(null)) {
      return reply.code(400).send({ code: '400', message: 'VALIDATION_FAILED', data: null });
    }
    const unit: Intake = {
      kind: 'intake',
      claimHash: signer.hash,
      merchantId: signer.merchantId,
      expiresAtMs: signer.expiresAtMs,
      amountMinor,
      ...(fields as { [K in keyof typeof fields]: string }),
    };
    const answer = await writes.add(unit);
    if (!answer.ok) {
      const status = answer.why === 'SIGNATURE_REUSED' ? 401 : answer.why === 'INSUFFICIENT_BALANCE' ? 422 : 409;
      return reply.code(status).send({ code: String(status), message: answer.why, data: null });
    }
    submit(answer.transactionRef, unit);
    return { code: '200', message: 'SUCCESS', data: { transactionRef: answer.transactionRef, merchantRef: unit.merchantRef, status: 'Processing' } };
  });

  app.post(CALLBACK_PATH, async (req, reply) => {
    const timestamp = req.headers[TIMESTAMP_HEADER];
    const signature = req.headers[SIGNATURE_HEADER];
    const { raw, json } = req.body as { raw: string; json: Record<string, unknown> };
    if (typeof timestamp !== 'string' || typeof signature !== 'string' || Math.abs(Date.now() / 1000 - Number(timestamp)) > WINDOW_SECONDS) {
      return reply.code(401).send({ error: 'UNAUTHORIZED' });
    }
    const expected = Buffer.from(signCallback(simulator.callbackSecret, timestamp, Buffer.from(raw, 'utf8')));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply.code(401).send({ error: 'UNAUTHORIZED' });
    if (json.kind !== 'payout' || (json.status !== 'SUCCESS' && json.status !== 'FAILED') || typeof json.transactionRef !== 'string') return { ok: true };
    const upstreamRef = typeof json.upstreamRef === 'string' ? json.upstreamRef : null;
    // A repeated or unknown notification changes nothing and is still acknowledged.
    await writes.add({ kind: 'outcome', transactionRef: json.transactionRef, status: json.status, upstreamRef });
    return { ok: true };
  });
}
