// Queries on the signed read paths, compiled once per SQL dialect and then run with each call's values.
// Kysely builds and compiles a query's operation tree anew on every call, which the read paths' profiles
// ranked beside the statement itself (about 10 µs of a 15 µs balance read on SQLite). On PostgreSQL the
// compiled text also runs as a named prepared statement, so the server parses and plans it once per
// connection instead of on every call (for a list page, planning cost the database more than the scan).
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { executeCompiled } from './db.js';
import { GroupBatch } from '../core/group-batch.js';
import { preparedOnPostgres } from './prepared.js';
import { isPostgres, type Db, type Executor } from './schema.js';

/** Stands in for the i-th argument while the query is compiled; never a real value. */
const placeholder = (i: number): string => `\u0000hot-query-argument-${i}\u0000`;

interface Compiled {
  readonly template: CompiledQuery;
  /** For each of the compiled query's parameters, the argument it takes, or -1 for a constant of the query. */
  readonly sources: readonly number[];
}

export interface HotQueryOptions {
  /**
   * false: on PostgreSQL the text runs unnamed, parsed and planned by the server with each call's
   * values, as Kysely's own queries are: for shapes too many to keep planned on every pooled
   * connection, or a statement a plan made once for any values could get badly wrong.
   */
  readonly preparedOnServer?: boolean;
}

/**
 * A query whose shape never depends on its arguments: `build` receives a placeholder for each argument
 * and must put every one of them into the query as a value (never branch on it, never transform it, and
 * add no other values that vary between calls). Each argument must appear in the compiled query.
 */
export class HotQuery<Args extends readonly unknown[], Row> {
  /** Keyed by the dialect's adapter: one per store, shared by its transactions. */
  private readonly compiled = new WeakMap<object, Compiled>();

  constructor(
    private readonly arity: Args['length'],
    private readonly build: (db: Executor, ...args: Args) => Compilable<Row>,
    private readonly options: HotQueryOptions = {},
  ) {}

  async execute(db: Executor, ...args: Args): Promise<Row[]> {
    return (await this.run(db, args)).rows as Row[];
  }

  /** Runs an UPDATE or DELETE and answers how many rows it changed. */
  async affected(db: Executor, ...args: Args): Promise<bigint> {
    return (await this.run(db, args)).numAffectedRows ?? 0n;
  }

  private run(db: Executor, args: Args): QueryResult<Row> | Promise<QueryResult<Row>> {
    const { template, sources } = this.compiledFor(db);
    const parameters = sources.map((source, i) => (source < 0 ? template.parameters[i] : args[source]));
    return executeCompiled<Row>(db, { ...template, parameters });
  }

  async executeTakeFirst(db: Executor, ...args: Args): Promise<Row | undefined> {
    return (await this.execute(db, ...args))[0];
  }

  private compiledFor(db: Executor): Compiled {
    const adapter = db.getExecutor().adapter;
    let compiled = this.compiled.get(adapter);
    if (compiled === undefined) {
      compiled = this.compile(db);
      this.compiled.set(adapter, compiled);
    }
    return compiled;
  }

  private compile(db: Executor): Compiled {
    const placeholders = Array.from({ length: this.arity }, (_, i) => placeholder(i)) as unknown as Args;
    const template = this.build(db, ...placeholders).compile();
    if (this.options.preparedOnServer !== false && isPostgres(db)) preparedOnPostgres(template.sql);
    // By lookup, not by search: a multi-row insert compiles thousands of values.
    const argumentOf = new Map<unknown, number>((placeholders as readonly unknown[]).map((value, i) => [value, i]));
    const sources = template.parameters.map((value) => argumentOf.get(value) ?? -1);
    const used = new Set(sources);
    for (let i = 0; i < this.arity; i++) {
      if (!used.has(i)) throw new Error(`hot query: argument ${i} is not a value of the compiled query: ${template.sql}`);
    }
    return { template, sources };
  }
}

/**
 * A query over a batch of items, each putting `perItem` values into it (a multi-row insert, an
 * IN-list): one HotQuery per batch size, compiled on the first batch of that size.
 */
export class HotBatchQuery<Row> {
  private readonly bySize = new Map<number, HotQuery<unknown[], Row>>();

  constructor(
    private readonly perItem: number,
    /** `values` holds count × perItem placeholders, item by item. */
    private readonly build: (db: Executor, count: number, values: readonly unknown[]) => Compilable<Row>,
  ) {}

  execute(db: Executor, values: readonly unknown[]): Promise<Row[]> {
    const count = values.length / this.perItem;
    if (!Number.isInteger(count) || count < 1) throw new Error(`hot batch query: ${values.length} values for items of ${this.perItem}`);
    let query = this.bySize.get(count);
    if (query === undefined) {
      query = new HotQuery(values.length, (q, ...placeholders: unknown[]) => this.build(q, count, placeholders));
      this.bySize.set(count, query);
    }
    return query.execute(db, ...values);
  }
}

/**
 * Rows by one key, read outside any transaction. On PostgreSQL the lookups that arrive together share
 * one IN-list statement (`many`, over the distinct keys): one round trip instead of one each. On
 * SQLite, a call into the same process, each runs at once by itself (`one`): for the payout lookups
 * that use this (a merchant's approval setting, mostly the same key, and the payout behind a channel's
 * news) gathering cost 1.5 - 10 % more CPU a payout (docs/benchmarks.md, session 32). Either way each
 * caller gets the row of its key as a lone read would have found it then, or undefined.
 */
export class BatchedLookup<Key, Row> {
  private readonly batches = new WeakMap<Db, GroupBatch<Key, Row | undefined>>();

  constructor(
    private readonly one: HotQuery<[Key], Row>,
    private readonly many: HotBatchQuery<Row>,
    private readonly keyOf: (row: Row) => Key,
    /** Bounded so one read stays a small statement. */
    private readonly maxPerBatch = 100,
  ) {}

  read(db: Db, key: Key): Promise<Row | undefined> {
    if (!isPostgres(db)) return this.one.executeTakeFirst(db, key);
    let batch = this.batches.get(db);
    if (batch === undefined) {
      batch = new GroupBatch<Key, Row | undefined>(this.maxPerBatch, async (keys) => {
        const rows = await this.many.execute(db, [...new Set(keys)]);
        const byKey = new Map(rows.map((row) => [this.keyOf(row), row]));
        return keys.map((k) => byKey.get(k));
      });
      this.batches.set(db, batch);
    }
    return batch.add(key);
  }
}

/**
 * A query shaped by a row's columns, as Kysely's `values(row)` and `set(row)` take them (a column whose
 * value is undefined left out), and by how many further values it takes (a WHERE's): one HotQuery per
 * shape, so a write path's insert or update is compiled once, and on PostgreSQL planned once per
 * connection. `build` must put the row's values and the further ones into the query unchanged.
 */
export class HotRowQuery<Row extends object, Out> {
  private readonly byShape = new Map<string, { readonly columns: readonly string[]; readonly query: HotQuery<unknown[], Out> }>();

  constructor(private readonly build: (db: Executor, row: Row, more: readonly unknown[]) => Compilable<Out>) {}

  async executeTakeFirst(db: Executor, row: Row, more: readonly unknown[] = []): Promise<Out | undefined> {
    const values = row as Record<string, unknown>;
    const columns = definedColumns(row);
    const key = `${columns.join(',')} +${more.length}`;
    let entry = this.byShape.get(key);
    if (entry === undefined) {
      const query = new HotQuery<unknown[], Out>(columns.length + more.length, (q, ...placeholders) =>
        this.build(q, Object.fromEntries(columns.map((column, i) => [column, placeholders[i]])) as Row, placeholders.slice(columns.length)),
      );
      entry = { columns, query };
      this.byShape.set(key, entry);
    }
    return entry.query.executeTakeFirst(db, ...entry.columns.map((column) => values[column]), ...more);
  }
}

/**
 * A multi-row insert of rows built alike (the same columns defined in each), compiled once per column
 * shape and number of rows. Those are many (a group commit's batch may hold one to a hundred rows), so
 * on PostgreSQL the texts are not kept as named statements on every pooled connection: the client side
 * is spared Kysely's building, the server parses the insert as before. Rows of differing shapes are
 * built by Kysely, as `build` says, every time.
 */
export class HotRowsInsert<Row extends object, Out> {
  private readonly byShape = new Map<string, { readonly columns: readonly string[]; readonly query: HotQuery<unknown[], Out> }>();

  constructor(private readonly build: (db: Executor, rows: readonly Row[]) => Compilable<Out>) {}

  async execute(db: Executor, rows: readonly Row[]): Promise<Out[]> {
    if (rows.length === 0) return [];
    const columns = definedColumns(rows[0]!);
    if (!rows.every((row) => sameColumns(row, columns))) return (await executeCompiled<Out>(db, this.build(db, rows).compile())).rows;
    const key = `${columns.join(',')} x${rows.length}`;
    let entry = this.byShape.get(key);
    if (entry === undefined) {
      const count = rows.length;
      const query = new HotQuery<unknown[], Out>(
        columns.length * count,
        (q, ...placeholders) =>
          this.build(
            q,
            Array.from({ length: count }, (_, r) => Object.fromEntries(columns.map((column, c) => [column, placeholders[r * columns.length + c]])) as Row),
          ),
        { preparedOnServer: false },
      );
      entry = { columns, query };
      this.byShape.set(key, entry);
    }
    const values: unknown[] = [];
    for (const row of rows) for (const column of entry.columns) values.push((row as Record<string, unknown>)[column]);
    return entry.query.execute(db, ...values);
  }
}

const definedColumns = (row: object): string[] => Object.keys(row).filter((column) => (row as Record<string, unknown>)[column] !== undefined);

function sameColumns(row: object, columns: readonly string[]): boolean {
  const defined = definedColumns(row);
  return defined.length === columns.length && defined.every((column, i) => column === columns[i]);
}

/** A one-row insert (or upsert) whose columns are the row's own (HotRowQuery with no further values). */
export class HotRowInsert<Row extends object, Out> extends HotRowQuery<Row, Out> {
  constructor(build: (db: Executor, row: Row) => Compilable<Out>) {
    super((db, row) => build(db, row));
  }
}
