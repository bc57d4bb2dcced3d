// The floor of a payout: the least contract sections 5, 6, 9 and 12 let any server do for a signed
// `payout/initiate` and for the bank's notification of its outcome, written bare on the service's parts
// (Fastify, node:crypto through the SDK's verifiers, better-sqlite3 in WAL with synchronous=FULL, undici
// to the bank simulator, the simulator itself in its own process). bench/floor-server.ts mounts it on
// SQLite, beside the bare signed read, and the case `payout floor, hot merchant (bare)` sends it the
// hot-merchant payouts of bench/cases-money.ts.
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
import crypto, { timingSafeEqual } from 'node:crypto';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { GroupBatch } from '../src/core/group-batch.js';
import { toMinor } from '../src/core/money.js';
import { API_KEY_HEADER, signCallback, SIGNATURE_HEADER, TIMESTAMP_HEADER, type SubmitPayoutBody } from '../src/simulator/protocol.js';
import { signedBy, WINDOW_SECONDS, type Verifier } from './floor-auth.js';

const PATH = '/v1/api/payout/initiate';
const CALLBACK_PATH = '/v1/callbacks/simulator';
const FEE_MINOR = 500n;
/** Each merchant's IDR at start (100,000,000,000.00): ten million of the bench's payouts. */
export const FLOOR_FUNDING_MINOR = 10n ** 13n;
const MAX_UNITS_PER_GROUP = 512;

export interface PayoutFloorOptions {
  /** The floor server's database: its `used_signatures` table (created there) holds the payouts' signatures too. */
  readonly file: string;
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

const SCHEMA = [
  'CREATE TABLE floor_accounts (id TEXT PRIMARY KEY, balance_minor INTEGER NOT NULL)',
  'CREATE TABLE floor_entries (id INTEGER PRIMARY KEY, ref TEXT NOT NULL, kind TEXT NOT NULL, UNIQUE (ref, kind))',
  'CREATE TABLE floor_postings (entry_id INTEGER NOT NULL, account_id TEXT NOT NULL, amount_minor INTEGER NOT NULL)',
  `CREATE TABLE floor_payouts (transaction_ref TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, merchant_ref TEXT NOT NULL, currency TEXT NOT NULL,
    amount_minor INTEGER NOT NULL, fee_minor INTEGER NOT NULL, bank_code TEXT NOT NULL, account TEXT NOT NULL, name TEXT NOT NULL,
    status TEXT NOT NULL, submit_attempts INTEGER NOT NULL, upstream_ref TEXT, created_at_ms INTEGER NOT NULL, updated_at_ms INTEGER NOT NULL,
    UNIQUE (merchant_id, merchant_ref))`,
  'CREATE INDEX floor_payouts_status ON floor_payouts (status, updated_at_ms)',
];

const available = (merchantId: string, currency: string): string => `${merchantId}:${currency}:available`;
const reserved = (merchantId: string, currency: string): string => `${merchantId}:${currency}:reserved`;

/** The floor's books: every statement prepared once, every group one immediate transaction. */
function books(file: string, merchantIds: readonly string[]) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.defaultSafeIntegers(true);
  for (const statement of SCHEMA) db.exec(statement);
  const claim = db.prepare("INSERT INTO used_signatures (signature_hash, merchant_id, expires_at_ms, path, path_effect) VALUES (?, ?, ?, ?, 'write') ON CONFLICT DO NOTHING");
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
    const transactionRef = `fp_${crypto.randomUUID()}`;
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
  return { db, write: (units: readonly (Intake | Outcome)[]) => group.immediate(units) };
}

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : null;
}

/** Mounts the payout route and the bank's callback route on `app`. */
export function payoutFloor(app: FastifyInstance, options: PayoutFloorOptions): void {
  const { simulator } = options;
  const ledger = books(options.file, [...options.verifiers.keys()]);
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
    const { raw, json } = req.body as { raw: string; json: Record<string, unknown> };
    const signer = signedBy(req.headers, raw, options.verifiers);
    if (signer === null) return reply.code(401).send({ code: '401', message: 'UNAUTHORIZED', data: null });
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
