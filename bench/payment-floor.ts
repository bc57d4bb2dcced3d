// The floor of a payment: the least contract sections 4.1, 6, 12 and the background collection of the
// sandbox (contract "Creating a payment never waits on the upstream") let any server do for a signed
// `payment/initiate`, written bare on the service's parts, as bench/payout-floor.ts is for a payout.
// bench/floor-server.ts mounts it beside the others, on the run's store, and the case
// `payment floor (bare)` sends it the requests of `payment/initiate`.
//
// A payment, all of it:
// - intake: headers, Timestamp window, signature; then, in one transaction shared by every request that
//   arrives together (group commit, one fsync), each request's one-time signature record and its payment
//   row (unique per merchantRef, with its checkout token and expiry, marked as waiting for its
//   collection: the row is the outbox); answered with the checkout URL after the commit;
// - collection: right after that commit, the channel's collection requested from the floor's own bank
//   simulator (`POST /v1/collections`), and its answer (the upstream reference and the payer's
//   instructions) written onto the row, group-committed the same way.
//
// Left out, each omission flattering the floor: fees, limits, the rate limit, idempotent replay (a
// repeated signature is refused), retries of a failed collection, audit, metrics, logging, events, and
// the service's other indexes (four here: the key, the merchantRef, the token, the expiry).
//
// On PostgreSQL a group's intakes are one statement and its collection results another, each its own
// transaction, on one connection (as the payout floor's).
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { GroupBatch } from '../src/core/group-batch.js';
import { toMinor } from '../src/core/money.js';
import { API_KEY_HEADER, type CollectionBody, type CreateCollectionBody } from '../src/simulator/protocol.js';
import { signedJson, text, UNAUTHORIZED, type Verifier } from './floor-auth.js';
import { arrayOf, connectFloorPg, inTwoStatements, openFloorSqlite, SQLITE_CLAIM_WRITE, type FloorStoreOptions } from './floor-store.js';

const PATH = '/v1/api/payment/initiate';
const CHECKOUT_TTL_MS = 30 * 60_000;
const MAX_UNITS_PER_GROUP = 512;
const METHODS: Readonly<Record<string, string>> = { IDR: 'BNI', INR: 'NATIVE', NGN: 'TRANSFER' };

export interface PaymentFloorOptions {
  readonly store: FloorStoreOptions;
  readonly verifiers: ReadonlyMap<string, Verifier>;
  readonly simulator: { readonly url: string; readonly key: string };
  /** Where checkout URLs point (the floor server's own address; nothing is served there). */
  readonly publicUrl: string;
}

interface Intake {
  readonly kind: 'intake';
  readonly claimHash: string;
  readonly merchantId: string;
  readonly expiresAtMs: number;
  readonly transactionRef: string;
  readonly checkoutToken: string;
  readonly merchantRef: string;
  readonly currency: string;
  readonly method: string;
  readonly amountMinor: bigint;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly redirectUrl: string;
}

interface Collected {
  readonly kind: 'collected';
  readonly transactionRef: string;
  readonly upstreamRef: string;
  readonly instructions: string;
}

type Answer = 'ok' | 'SIGNATURE_REUSED' | 'DUPLICATE_MERCHANT_REF' | 'NOT_WAITING';

const schemaOf = (integer: string): string[] => [
  `CREATE TABLE floor_payments (transaction_ref TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, merchant_ref TEXT NOT NULL, currency TEXT NOT NULL,
    method TEXT NOT NULL, amount_minor ${integer} NOT NULL, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL, redirect_url TEXT NOT NULL,
    checkout_token TEXT NOT NULL UNIQUE, status TEXT NOT NULL, expires_at_ms ${integer} NOT NULL, collection_state TEXT NOT NULL,
    upstream_ref TEXT, instructions TEXT, created_at_ms ${integer} NOT NULL, updated_at_ms ${integer} NOT NULL, UNIQUE (merchant_id, merchant_ref))`,
  'CREATE INDEX floor_payments_expiry ON floor_payments (status, expires_at_ms)',
];

interface PaymentBooks {
  write(units: readonly (Intake | Collected)[]): Answer[] | Promise<Answer[]>;
}

function sqliteBooks(file: string): PaymentBooks {
  const db = openFloorSqlite(file, schemaOf('INTEGER'));
  const claim = db.prepare(SQLITE_CLAIM_WRITE);
  const insert = db.prepare(
    `INSERT INTO floor_payments (transaction_ref, merchant_id, merchant_ref, currency, method, amount_minor, name, email, phone, redirect_url, checkout_token,
      status, expires_at_ms, collection_state, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Pending', ?, 'requested', ?, ?) ON CONFLICT DO NOTHING`,
  );
  const collected = db.prepare(
    "UPDATE floor_payments SET upstream_ref = ?, instructions = ?, collection_state = 'ready', updated_at_ms = ? WHERE transaction_ref = ? AND collection_state = 'requested'",
  );
  const group = db.transaction((units: readonly (Intake | Collected)[]): Answer[] => {
    const nowMs = Date.now();
    return units.map((u): Answer => {
      if (u.kind === 'collected') return collected.run(u.upstreamRef, u.instructions, nowMs, u.transactionRef).changes === 1 ? 'ok' : 'NOT_WAITING';
      if (claim.run(u.claimHash, u.merchantId, u.expiresAtMs, PATH).changes === 0) return 'SIGNATURE_REUSED';
      const row = [u.transactionRef, u.merchantId, u.merchantRef, u.currency, u.method, u.amountMinor, u.name, u.email, u.phone, u.redirectUrl, u.checkoutToken];
      return insert.run(...row, nowMs + CHECKOUT_TTL_MS, nowMs, nowMs).changes === 1 ? 'ok' : 'DUPLICATE_MERCHANT_REF';
    });
  });
  return { write: (units) => group.immediate(units) };
}

/** A group's intakes: the signature records, then the payment rows of the requests whose record is new. */
const PG_INTAKE = `
WITH u AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[],
    $11::text[], $12::text[], $13::text[])
    WITH ORDINALITY AS u(hash, merchant_id, expires_at_ms, transaction_ref, merchant_ref, currency, method, amount_minor, name, email, phone, redirect_url,
      checkout_token, ord)
),
claimed AS (
  INSERT INTO used_signatures (signature_hash, merchant_id, expires_at_ms, path, path_effect)
  SELECT hash, merchant_id, expires_at_ms, $14, 'write' FROM u ON CONFLICT DO NOTHING RETURNING signature_hash
),
created AS (
  INSERT INTO floor_payments (transaction_ref, merchant_id, merchant_ref, currency, method, amount_minor, name, email, phone, redirect_url, checkout_token,
    status, expires_at_ms, collection_state, created_at_ms, updated_at_ms)
  SELECT transaction_ref, merchant_id, merchant_ref, currency, method, amount_minor, name, email, phone, redirect_url, checkout_token,
    'Pending', $15::bigint + ${CHECKOUT_TTL_MS}, 'requested', $15, $15
  FROM u JOIN claimed c ON c.signature_hash = u.hash
  ON CONFLICT DO NOTHING RETURNING transaction_ref
)
SELECT c.signature_hash IS NOT NULL AS claimed, p.transaction_ref IS NOT NULL AS created
FROM u LEFT JOIN claimed c ON c.signature_hash = u.hash LEFT JOIN created p ON p.transaction_ref = u.transaction_ref
ORDER BY u.ord`;

/** A group's collection results onto the rows still waiting for theirs. */
const PG_COLLECTED = `
UPDATE floor_payments p SET upstream_ref = u.upstream_ref, instructions = u.instructions, collection_state = 'ready', updated_at_ms = $4
FROM unnest($1::text[], $2::text[], $3::text[]) AS u(transaction_ref, upstream_ref, instructions)
WHERE p.transaction_ref = u.transaction_ref AND p.collection_state = 'requested'
RETURNING p.transaction_ref`;

async function postgresBooks(url: string, schema: string): Promise<PaymentBooks> {
  const client = await connectFloorPg(url, schema, schemaOf('BIGINT'));
  const intakes = async (units: readonly Intake[], nowMs: number): Promise<Answer[]> => {
    const column = (key: keyof Intake): unknown[] => arrayOf(units, key);
    const { rows } = await client.query<{ claimed: boolean; created: boolean }>({
      name: 'floor-payment-intake',
      text: PG_INTAKE,
      values: [
        column('claimHash'), column('merchantId'), column('expiresAtMs'), column('transactionRef'), column('merchantRef'), column('currency'),
        column('method'), column('amountMinor'), column('name'), column('email'), column('phone'), column('redirectUrl'), column('checkoutToken'),
        PATH, nowMs,
      ],
    });
    return rows.map((row): Answer => (!row.claimed ? 'SIGNATURE_REUSED' : row.created ? 'ok' : 'DUPLICATE_MERCHANT_REF'));
  };
  const results = async (units: readonly Collected[], nowMs: number): Promise<Answer[]> => {
    const { rows } = await client.query<{ transaction_ref: string }>({
      name: 'floor-payment-collected',
      text: PG_COLLECTED,
      values: [units.map((unit) => unit.transactionRef), units.map((unit) => unit.upstreamRef), units.map((unit) => unit.instructions), nowMs],
    });
    const done = new Set(rows.map((row) => row.transaction_ref));
    return units.map((unit): Answer => (done.has(unit.transactionRef) ? 'ok' : 'NOT_WAITING'));
  };
  return {
    write: (units) =>
      inTwoStatements(units, {
        refusals: { signature: 'SIGNATURE_REUSED', merchantRef: 'DUPLICATE_MERCHANT_REF', repeat: 'NOT_WAITING' },
        intakes,
        followUps: results,
      }),
  };
}

/** Mounts the payment route on `app`. */
export async function paymentFloor(app: FastifyInstance, options: PaymentFloorOptions): Promise<void> {
  const { simulator, store } = options;
  const books = store.kind === 'sqlite' ? sqliteBooks(store.file) : await postgresBooks(store.url, store.schema);
  const writes = new GroupBatch<Intake | Collected, Answer>(MAX_UNITS_PER_GROUP, async (units) => books.write(units));
  const bank = new Agent({ connections: 64, keepAliveTimeout: 10_000 });

  const collect = (unit: Intake): void => {
    const body: CreateCollectionBody = {
      transactionRef: unit.transactionRef,
      merchantId: unit.merchantId,
      currency: unit.currency,
      method: unit.method,
      amountMinor: String(unit.amountMinor),
      payerName: unit.name,
      payerEmail: unit.email,
      payerPhone: unit.phone,
      expiresAtMs: Date.now() + CHECKOUT_TTL_MS,
    };
    request(`${simulator.url}/v1/collections`, {
      method: 'POST',
      dispatcher: bank,
      headers: { 'content-type': 'application/json', [API_KEY_HEADER]: simulator.key },
      body: JSON.stringify(body),
    })
      .then(async (response) => {
        if (response.statusCode !== 200) return void (await response.body.dump());
        const collection = (await response.body.json()) as CollectionBody;
        await writes.add({ kind: 'collected', transactionRef: unit.transactionRef, upstreamRef: collection.upstreamRef, instructions: JSON.stringify(collection.instructions) });
      })
      // No retry: the floor leaves the row waiting (the service's outbox would try again).
      .catch(() => undefined);
  };

  app.post(PATH, async (req, reply) => {
    const signed = signedJson(req, options.verifiers);
    if (signed === null) return reply.code(401).send(UNAUTHORIZED);
    const { signer, json } = signed;
    const amountMinor = typeof json.amount === 'number' ? toMinor(json.amount) : null;
    const currency = typeof json.currency === 'string' && json.currency in METHODS ? json.currency : null;
    const fields = {
      merchantRef: text(json.merchantRef, 64),
      method: currency !== null && json.method === METHODS[currency] ? json.method : null,
      name: text(json.name, 128),
      email: text(json.email, 128),
      phone: typeof json.phone === 'string' && /^[0-9]{6,20}$/.test(json.phone) ? json.phone : null,
      redirectUrl: typeof json.redirectUrl === 'string' && /^https?:\/\/[^\s]{1,2000}$/.test(json.redirectUrl) ? json.redirectUrl : null,
    };
    if (amountMinor === null || amountMinor <= 0n || currency === null || Object.values(fields).includes(null)) {
      return reply.code(400).send({ code: '400', message: 'VALIDATION_FAILED', data: null });
    }
    const unit: Intake = {
      kind: 'intake',
      claimHash: signer.hash,
      merchantId: signer.merchantId,
      expiresAtMs: signer.expiresAtMs,
      transactionRef: `fpay_${crypto.randomUUID()}`,
      checkoutToken: crypto.randomBytes(24).toString('base64url'),
      amountMinor,
      currency,
      ...(fields as { [K in keyof typeof fields]: string }),
    };
    const answer = await writes.add(unit);
    if (answer !== 'ok') {
      const status = answer === 'SIGNATURE_REUSED' ? 401 : 409;
      return reply.code(status).send({ code: String(status), message: answer, data: null });
    }
    collect(unit);
    return {
      code: '200',
      message: 'SUCCESS',
      data: {
        transactionRef: unit.transactionRef,
        merchantRef: unit.merchantRef,
        method: unit.method,
        ...(currency === 'INR' ? {} : { currency }),
        amount: json.amount,
        checkoutUrl: `${options.publicUrl}/checkout/${unit.checkoutToken}`,
      },
    };
  });
}
