// The floor of a signed read: the least that contract sections 6 and 12 let any server do for a signed
// `account/balance`, written bare on the same parts as the service (Fastify, node:crypto through the
// SDK's own verifiers, better-sqlite3 in WAL with synchronous=FULL, or node-postgres with
// synchronous_commit=on): parse the body, check the Timestamp window, verify the Signature (RSA-SHA512
// or HMAC-SHA256), record it as used in the database before answering (one statement and one commit for
// every request that arrives together, so the record is as cheap as group commit makes it), answer the
// envelope with the balance. The balance itself comes from memory, which only flatters the floor (the
// service reads its ledger). No logging, hooks, schema validation, rate limit, metrics, tracing, error
// envelopes beyond the two refusals, or background work. Its rate against the no-op route, measured in
// the same run (bench/cases.ts, `signed read floor`), is more than any signed read can reach on the
// machine with these parts; what the service loses against it is what its own code costs.
//
// Run as its own process by bench/run.ts. Environment: PORT; FLOOR_KEYS (a JSON file of the merchants'
// ids and keys, written by the bench); FLOOR_SQLITE (a database file) or FLOOR_PG_URL with FLOOR_PG_SCHEMA.
// The bare list page of bench/list-floor.ts is always mounted, on the same store.
// FLOOR_SIM_URL, FLOOR_SIM_KEY and FLOOR_SIM_SECRET (a bank simulator of its own, calling back here) add
// the bare payout of bench/payout-floor.ts and the bare payment of bench/payment-floor.ts, on the same store.
import fs from 'node:fs';
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { MerchantKey } from '../sdk/src/signing.js';
import { GroupBatch } from '../src/core/group-batch.js';
import { CURRENCIES } from '../src/core/money.js';
import { SIGNATURE_REUSED, signedJson, UNAUTHORIZED, verifierOf } from './floor-auth.js';
import { LIST_FLOOR_PATH, listFloor } from './list-floor.js';

/** As the service's ReplayGuard: one group's claims, one statement and one commit. */
const MAX_CLAIMS_PER_GROUP = 512;

interface Claim {
  readonly hash: string;
  readonly merchantId: string;
  readonly expiresAtMs: number;
  readonly path: string;
}

/** The store's one statement: a group's claims in one insert, answering the hashes it wrote. */
interface FloorStore {
  insertClaims(claims: readonly Claim[]): Promise<Set<string>>;
}

const CLAIM_COLUMNS = '(signature_hash, merchant_id, expires_at_ms, path, path_effect)';
const PATH = '/v1/api/account/balance';

/** The table and index of the service's one-time signatures, with the store's 64-bit integer type. */
const claimsTable = (integer: string): string[] => [
  `CREATE TABLE used_signatures (signature_hash TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, expires_at_ms ${integer} NOT NULL,
    path TEXT NOT NULL, path_effect TEXT NOT NULL)`,
  'CREATE INDEX used_signatures_expiry ON used_signatures (expires_at_ms)',
];

function sqliteStore(file: string): FloorStore {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  for (const statement of claimsTable('INTEGER')) db.exec(statement);
  const inserts = new Map<number, SQLite.Statement>();
  return {
    async insertClaims(claims) {
      let insert = inserts.get(claims.length);
      if (insert === undefined) {
        const rows = Array.from({ length: claims.length }, () => "(?, ?, ?, ?, 'read')").join(', ');
        insert = db.prepare(`INSERT INTO used_signatures ${CLAIM_COLUMNS} VALUES ${rows} ON CONFLICT DO NOTHING RETURNING signature_hash`).pluck();
        inserts.set(claims.length, insert);
      }
      return new Set(insert.all(claims.flatMap((c) => [c.hash, c.merchantId, c.expiresAtMs, c.path])) as string[]);
    },
  };
}

async function postgresStore(url: string, schema: string): Promise<FloorStore> {
  const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema} -c synchronous_commit=on` });
  await pool.query(`CREATE SCHEMA ${schema}`);
  for (const statement of claimsTable('BIGINT')) await pool.query(statement);
  return {
    async insertClaims(claims) {
      const rows = claims.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}, 'read')`).join(', ');
      const result = await pool.query({
        name: `claims-${claims.length}`,
        text: `INSERT INTO used_signatures ${CLAIM_COLUMNS} VALUES ${rows} ON CONFLICT DO NOTHING RETURNING signature_hash`,
        values: claims.flatMap((c) => [c.hash, c.merchantId, c.expiresAtMs, c.path]),
        rowMode: 'array',
      });
      return new Set(result.rows.map((row: string[]) => row[0]!));
    },
  };
}

/**
 * Group commit by the service's own GroupBatch: the claims that arrive while a group is written wait for
 * the next one. Within a group the first claim of a hash is its candidate; a repeat is refused.
 */
function claimer(store: FloorStore): GroupBatch<Claim, boolean> {
  return new GroupBatch<Claim, boolean>(MAX_CLAIMS_PER_GROUP, async (group) => {
    const firsts = new Map<string, Claim>();
    for (const claim of group) if (!firsts.has(claim.hash)) firsts.set(claim.hash, claim);
    const won = await store.insertClaims([...firsts.values()]);
    return group.map((claim) => firsts.get(claim.hash) === claim && won.has(claim.hash));
  });
}

const keys = JSON.parse(fs.readFileSync(process.env.FLOOR_KEYS!, 'utf8')) as { id: string; key: MerchantKey }[];
const verifiers = new Map(keys.map((m) => [m.id, verifierOf(m.key)]));
const balances = new Map(keys.flatMap((m) => CURRENCIES.map((currency) => [`${m.id}/${currency}`, { currency, available: '0.00', pending: '0.00' }])));
const store = process.env.FLOOR_PG_URL ? await postgresStore(process.env.FLOOR_PG_URL, process.env.FLOOR_PG_SCHEMA!) : sqliteStore(process.env.FLOOR_SQLITE!);
const claims = claimer(store);

const app = Fastify({ logger: false, forceCloseConnections: true });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, { raw: body as string, json: JSON.parse(body as string) as unknown });
  } catch (error) {
    done(error as Error, undefined);
  }
});

app.post(PATH, async (request, reply) => {
  const signed = signedJson(request, verifiers);
  if (signed === null) return reply.code(401).send(UNAUTHORIZED);
  const { signer, json } = signed;
  if (!(await claims.add({ hash: signer.hash, merchantId: signer.merchantId, expiresAtMs: signer.expiresAtMs, path: PATH }))) {
    return reply.code(401).send(SIGNATURE_REUSED);
  }
  const balance = balances.get(`${signer.merchantId}/${String(json.currency)}`);
  return balance ? { code: '200', message: 'SUCCESS', data: balance } : reply.code(400).send({ code: '400', message: 'VALIDATION_ERROR', data: null });
});
app.get('/healthz', async () => ({ status: 'ok' }));
const floorStore = process.env.FLOOR_PG_URL
  ? ({ kind: 'postgres', url: process.env.FLOOR_PG_URL, schema: process.env.FLOOR_PG_SCHEMA! } as const)
  : ({ kind: 'sqlite', file: process.env.FLOOR_SQLITE! } as const);
await listFloor(app, {
  store: floorStore,
  verifiers,
  claim: ({ hash, merchantId, expiresAtMs }) => claims.add({ hash, merchantId, expiresAtMs, path: LIST_FLOOR_PATH }),
});
if (process.env.FLOOR_SIM_URL) {
  const [{ payoutFloor }, { paymentFloor }] = await Promise.all([import('./payout-floor.js'), import('./payment-floor.js')]);
  const bank = { url: process.env.FLOOR_SIM_URL, key: process.env.FLOOR_SIM_KEY!, callbackSecret: process.env.FLOOR_SIM_SECRET! };
  await payoutFloor(app, { store: floorStore, verifiers, simulator: bank });
  await paymentFloor(app, { store: floorStore, verifiers, simulator: bank, publicUrl: `http://127.0.0.1:${process.env.PORT}` });
}

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT || 0) });

const stop = (): void => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
