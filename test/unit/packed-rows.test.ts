// Packed rows (src/store/packed-rows.ts) on a real PostgreSQL server: whatever the texts hold (quotes,
// backslashes, control characters, any Unicode) and whatever the bigints are (either end of int8,
// NULL), a row read packed is the row the plain query reads; and every packed column of the real
// tables is text or bigint in the database. The list pages read their records this
// way on PostgreSQL; test/reporting covers the pages themselves on both stores.
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_COLUMN_KINDS } from '../../src/domain/payouts/payout-rows.js';
import { PACKED } from '../../src/reporting/lists.js';
import { PACKED_COLUMN, PackedColumns } from '../../src/store/packed-rows.js';
import { isPostgres } from '../../src/store/schema.js';
import { openTestStore, usingPostgres } from '../helpers/store.js';

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

interface ProbeRow {
  id: bigint;
  label: string;
  note: string | null;
  amount: bigint;
  at: bigint | null;
}

const KINDS = { id: 'bigint', label: 'text', note: 'text', amount: 'bigint', at: 'bigint' } as const;
const packed = new PackedColumns<ProbeRow>(Object.keys(KINDS), KINDS);
/** What a string becomes on its way through UTF-8 (a lone surrogate turns into U+FFFD). */
const utf8 = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** Any text PostgreSQL can hold: every Unicode code point but NUL, which a text value cannot carry. */
const text = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replaceAll('\u0000', ''));
const tricky = fc.constantFrom('"', '\\', '\\"', '\n\t\r', '\u0001\u001f', '\u2028\u2029', '😀', '[1,"x"]', 'null', '');
const int8 = fc.oneof(fc.bigInt({ min: INT8_MIN, max: INT8_MAX }), fc.constantFrom(INT8_MIN, INT8_MAX, 0n, -1n, 2n ** 53n + 1n));

describe.skipIf(!usingPostgres())('PackedColumns on PostgreSQL', () => {
  let store: TestStore;
  let db: Kysely<any>;

  beforeAll(async () => {
    store = await openTestStore();
    db = store.db as unknown as Kysely<any>;
    await sql`CREATE TABLE packed_probe (id bigint PRIMARY KEY, label text NOT NULL, note text, amount bigint NOT NULL, at bigint)`.execute(db);
  });
  afterAll(async () => {
    await store.close();
  });

  it('is used on PostgreSQL', () => {
    expect(isPostgres(store.db)).toBe(true);
  });

  it('reads every row exactly as the plain query does', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ label: fc.oneof(text, tricky), note: fc.option(fc.oneof(text, tricky)), amount: int8, at: fc.option(int8) }),
          { minLength: 0, maxLength: 12 },
        ),
        async (rows) => {
          round += 1;
          await db.deleteFrom('packed_probe').execute();
          const inserted: ProbeRow[] = rows.map((row, i) => ({ id: BigInt(round * 100 + i), ...row }));
          if (inserted.length > 0) await db.insertInto('packed_probe').values(inserted).execute();
          const plain = (await db.selectFrom('packed_probe').select(['id', 'label', 'note', 'amount', 'at']).orderBy('id').execute()) as ProbeRow[];
          const answer = await db.selectFrom('packed_probe').select(packed.selection() as never).orderBy('id').execute();
          expect(Object.keys(answer[0] ?? { [PACKED_COLUMN]: '' })).toEqual([PACKED_COLUMN]);
          const unpacked = packed.unpack(answer);
          expect(unpacked).toStrictEqual(plain);
          // The same values went in: nothing was lost on the way either.
          expect(unpacked).toStrictEqual(inserted.map((row) => ({ ...row, label: utf8(row.label), note: row.note === null ? null : utf8(row.note) })));
          for (const row of unpacked) expect(typeof row.amount).toBe('bigint');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('packs only columns that are text or bigint in the database, as their kinds say', async () => {
    // ::text is the exact form of those two types only (char(n) would lose its padding, numeric or a
    // timestamp its type), so a migration changing a packed column's type must fail here.
    const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
      SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name IN ('payments', 'payouts')`.execute(db);
    const typeOf = new Map(columns.rows.map((c) => [`${c.table_name}.${c.column_name}`, c.data_type]));
    for (const [table, columnsOf] of Object.entries(PACKED)) {
      expect(columnsOf.names.length).toBeGreaterThan(10);
      for (const name of columnsOf.names) expect([name, typeOf.get(`${table}.${name}`)]).toEqual([name, columnsOf.kinds[name]]);
    }
  });

  it('PAYOUT_COLUMN_KINDS is the payouts table: every column, each with its type', async () => {
    // The one-statement payout intake on PostgreSQL writes the row from these (ledger/pg-posting.ts):
    // a column missing here would be left NULL, a wrong type would fail every payout.
    const columns = await sql<{ column_name: string; data_type: string }>`
      SELECT column_name, data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'payouts' ORDER BY column_name`.execute(db);
    expect(Object.fromEntries(columns.rows.map((c) => [c.column_name, c.data_type]))).toEqual(PAYOUT_COLUMN_KINDS);
  });
});

describe('PackedColumns.unpack', () => {
  it('refuses a packed row whose width is not its columns', () => {
    expect(() => packed.unpack([{ [PACKED_COLUMN]: '["1","x"]' }])).toThrow(/2 values for 5 columns/);
  });

  it('turns bigint columns back into bigint and keeps null', () => {
    expect(packed.unpack([{ [PACKED_COLUMN]: '["9007199254740993","a",null,"-5",null]' }])).toStrictEqual([
      { id: 9007199254740993n, label: 'a', note: null, amount: -5n, at: null },
    ]);
  });
});
