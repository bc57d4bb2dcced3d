// The floor of a list page: the least contract sections 6, 12 and the reporting reads let any server do
// for a signed `payment/list` of 50 records, written bare on the service's parts, as floor-server.ts is
// for a balance. bench/floor-server.ts mounts it beside the others, and the case
// `list page floor (bare)` (bench/cases-reporting.ts) sends it the calls of `payment/list`.
//
// A page, all of it: headers, Timestamp window, signature, its one-time record (the floor server's group
// commit, shared with the balance route), then one keyset read of limit + 1 rows of the merchant's
// payments (newest first) by an index that serves the order, and the page written around the rows'
// records, its cursor the last row's position.
//
// Flattering the floor: each row holds its record (the contract's payment record, the fields
// payment/status answers) already written as JSON, so a page reads three columns and joins text, where
// a server that keeps payments as data reads a row's fields and writes its record (or, as the service,
// looks the written record up by the row's content). Left out too: the cursor's MAC and lifetime,
// filters and the time range, the rate limit, schema validation, logging and metrics. The rows are
// seeded when the floor starts, 100 per merchant as the case creates through the API: the same sizes
// (uuid v7-shaped refs, the case's names and URLs), not the same values.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type SQLite from 'better-sqlite3';
import pg from 'pg';
import { toMajor } from '../src/core/money.js';
import { SIGNATURE_REUSED, signedJson, UNAUTHORIZED, type Verifier } from './floor-auth.js';
import { openFloorSqlite, type FloorStoreOptions } from './floor-store.js';

export const LIST_FLOOR_PATH = '/v1/api/payment/list';
/** As the case: two full pages per merchant. */
export const LIST_FLOOR_ROWS_PER_MERCHANT = 100;
const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;
/** When a merchant's seeded row i was created: the first at 2026-01-05 09:00 UTC, one a second after. */
const seededAtMs = (i: number): number => Date.UTC(2026, 0, 5, 9) + i * 1000;
const PAGE_START = '{"code":"200","message":"SUCCESS","data":{"items":';

/** A seeded row's transactionRef: uuid-shaped and fixed by the merchant and the row's number, so the case can name positions. */
export function listFloorRef(merchantId: string, i: number): string {
  const hex = crypto.createHash('sha256').update(`${merchantId}:${i}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The floor's cursor (no MAC): the keyset position of the last row served. */
export function listFloorCursor(createdAtMs: number, ref: string): string {
  return Buffer.from(JSON.stringify([createdAtMs, ref])).toString('base64url');
}

/** The cursor after a first page of `limit` over a merchant's seeded rows (newest first), or null when no row follows. */
export function listFloorSecondPage(merchantId: string, limit: number): string | null {
  const i = LIST_FLOOR_ROWS_PER_MERCHANT - limit;
  return i > 0 ? listFloorCursor(seededAtMs(i), listFloorRef(merchantId, i)) : null;
}

const schema = (integer: string): string[] => [
  `CREATE TABLE floor_list_payments (transaction_ref TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, created_at_ms ${integer} NOT NULL, record TEXT NOT NULL)`,
  'CREATE INDEX floor_list_payments_page ON floor_list_payments (merchant_id, created_at_ms DESC, transaction_ref DESC)',
];
const INSERT = 'INSERT INTO floor_list_payments (transaction_ref, merchant_id, created_at_ms, record) VALUES';
const COLUMNS = 'transaction_ref, created_at_ms, record';
const ORDER = 'ORDER BY created_at_ms DESC, transaction_ref DESC LIMIT';

/** A page row: its keyset position and its record's JSON. */
type Row = readonly [string, number | string, string];

/**
 * The seeded rows, as the values of an insert: the case's INR NATIVE 500.00 payments, waiting for the
 * payer, each with its record as the contract writes it (the fields payment/status answers) already
 * rendered, so a page only joins text: less than any server that keeps payments as data can do.
 */
function seedRows(merchantIds: readonly string[]): unknown[][] {
  return merchantIds.flatMap((merchantId) =>
    Array.from({ length: LIST_FLOOR_ROWS_PER_MERCHANT }, (_, i) => {
      const createdAtMs = seededAtMs(i);
      const ref = listFloorRef(merchantId, i);
      const created = new Date(createdAtMs).toISOString();
      const record = {
        transactionRef: ref,
        merchantRef: `bl-${i}`,
        method: 'NATIVE',
        currency: 'INR',
        amount: toMajor(50_000n),
        name: 'Bench Payer',
        email: 'payer@example.com',
        phone: '919876543210',
        redirectUrl: 'https://merchant.example/return',
        status: 'Pending',
        paidAmount: 0,
        fee: toMajor(1_000n),
        createdAt: created,
        updatedAt: created,
        expiresAt: new Date(createdAtMs + 30 * 60_000).toISOString(),
        refundable: false,
      };
      return [ref, merchantId, createdAtMs, JSON.stringify(record)];
    }),
  );
}

/** One page's rows: the merchant's newest first, after `after` when given, at most `count`. */
type PageRead = (merchantId: string, after: readonly [number, string] | null, count: number) => Promise<Row[]>;

function sqlitePages(file: string, merchantIds: readonly string[]): PageRead {
  const db: SQLite.Database = openFloorSqlite(file, schema('INTEGER'));
  const insert = db.prepare(`${INSERT} (?, ?, ?, ?)`);
  db.transaction((rows: unknown[][]) => rows.forEach((row) => insert.run(row)))(seedRows(merchantIds));
  db.exec('ANALYZE');
  const first = db.prepare(`SELECT ${COLUMNS} FROM floor_list_payments WHERE merchant_id = ? ${ORDER} ?`).raw();
  const next = db.prepare(`SELECT ${COLUMNS} FROM floor_list_payments WHERE merchant_id = ? AND (created_at_ms, transaction_ref) < (?, ?) ${ORDER} ?`).raw();
  return async (merchantId, after, count) => (after === null ? first.all(merchantId, count) : next.all(merchantId, after[0], after[1], count)) as Row[];
}

async function postgresPages(url: string, schemaName: string, merchantIds: readonly string[]): Promise<PageRead> {
  // As many connections as the service's pool (store/db.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schemaName}` });
  for (const statement of schema('BIGINT')) await pool.query(statement);
  const rows = seedRows(merchantIds);
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    const values = chunk.map((_, r) => `($${r * 4 + 1}, $${r * 4 + 2}, $${r * 4 + 3}, $${r * 4 + 4})`).join(', ');
    await pool.query(`${INSERT} ${values}`, chunk.flat());
  }
  await pool.query('ANALYZE floor_list_payments');
  return async (merchantId, after, count) => {
    const result =
      after === null
        ? await pool.query({ name: 'floor-list-first', text: `SELECT ${COLUMNS} FROM floor_list_payments WHERE merchant_id = $1 ${ORDER} $2`, values: [merchantId, count], rowMode: 'array' })
        : await pool.query({
            name: 'floor-list-next',
            text: `SELECT ${COLUMNS} FROM floor_list_payments WHERE merchant_id = $1 AND (created_at_ms, transaction_ref) < ($2, $3) ${ORDER} $4`,
            values: [merchantId, after[0], after[1], count],
            rowMode: 'array',
          });
    return result.rows as unknown as Row[];
  };
}

/** The floor's cursor back as a position, or null when it is not one. */
function positionOf(cursor: unknown): readonly [number, string] | null {
  if (typeof cursor !== 'string') return null;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(parts) && parts.length === 2 && Number.isSafeInteger(parts[0]) && typeof parts[1] === 'string' ? [parts[0] as number, parts[1]] : null;
  } catch {
    return null;
  }
}

export interface ListFloorOptions {
  readonly store: FloorStoreOptions;
  readonly verifiers: ReadonlyMap<string, Verifier>;
  /** The floor server's one-time record of a signature, group-committed: false when it was used before. */
  claim(signer: { readonly hash: string; readonly merchantId: string; readonly expiresAtMs: number }): Promise<boolean>;
}

export async function listFloor(app: FastifyInstance, { store, verifiers, claim }: ListFloorOptions): Promise<void> {
  const merchantIds = [...verifiers.keys()];
  const read = store.kind === 'postgres' ? await postgresPages(store.url, store.schema, merchantIds) : sqlitePages(store.file, merchantIds);
  const invalid = (field: string) => ({ code: '400', message: 'VALIDATION_ERROR', data: { field } });
  app.post(LIST_FLOOR_PATH, async (request, reply) => {
    const signed = signedJson(request, verifiers);
    if (signed === null) return reply.code(401).send(UNAUTHORIZED);
    const { signer, json } = signed;
    const limit = json.limit ?? DEFAULT_LIMIT;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return reply.code(400).send(invalid('limit'));
    const after = json.cursor === undefined ? null : positionOf(json.cursor);
    if (json.cursor !== undefined && after === null) return reply.code(400).send(invalid('cursor'));
    if (!(await claim(signer))) return reply.code(401).send(SIGNATURE_REUSED);
    const rows = await read(signer.merchantId, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? listFloorCursor(Number(last[1]), last[0]) : null;
    const body = `${PAGE_START}[${page.map((row) => row[2]).join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}}`;
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
