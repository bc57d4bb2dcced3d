// Opens the one database handle: embedded SQLite (WAL, synchronous=FULL) by default, PostgreSQL
// when DATABASE_URL is set, and brings the schema up to date before anything else touches it.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type QueryResult, type SqliteDialectConfig, type Transaction, type TransactionBuilder } from 'kysely';
import { migrate, type Migrations } from './migrator.js';
import { rowBuilder, type RowBuilder } from './row-builder.js';
import { preparedName } from './prepared.js';
import type { Database, Db, Executor } from './schema.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Db;
  readonly kind: StoreKind;
  /**
   * The SQLite file, for long reads on a connection of their own in another thread (the ledger
   * verifier, src/ledger/verify-thread.ts); null on PostgreSQL.
   */
  readonly sqliteFile: string | null;
  /** Is the database answering? Used by /readyz. */
  ping(): Promise<boolean>;
  /**
   * Statements run since the store opened (the metric paygate_db_statements_total): on PostgreSQL
   * each is a round trip to the server, so the bench divides it by requests to show what a call costs.
   */
  statements(): number;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

/** Statements kept prepared per SQL text; queries with variable IN-lists make a few variants each. */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/** What Kysely's SQLite driver asks of a statement (its SqliteStatement), plus whether it is mid-iteration. */
export interface CachedStatement {
  readonly reader: boolean;
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * A statement that reads rows: run in better-sqlite3's raw mode (each row an array of values) and made
 * into objects by a builder compiled for its columns. better-sqlite3 builds row objects one property at
 * a time; for a 50-row payment/list page of 20 columns that cost about as much as reading the rows (the
 * page query took 507 µs that way, 240 µs this way, on the 2-core bench machine). The builder is made
 * again whenever the width of the rows changes (SQLite re-prepares a statement after a schema change, so
 * `SELECT *` may gain columns); migrations run before anything is served, so the names of a width never
 * change under a running statement.
 */
class ReaderStatement implements CachedStatement {
  readonly reader = true;
  private build: RowBuilder | null = null;
  private width = -1;

  constructor(private readonly statement: SQLite.Statement) {
    statement.raw(true);
  }

  get busy(): boolean {
    return this.statement.busy;
  }

  all(parameters: readonly unknown[]): unknown[] {
    const rows = this.statement.all(parameters) as unknown[][];
    if (rows.length === 0) return rows;
    const build = this.builderFor(rows[0]!.length);
    const objects = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = build(rows[i]!);
    return objects;
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    for (const values of this.statement.iterate(parameters) as IterableIterator<unknown[]>) yield this.builderFor(values.length)(values);
  }

  run(parameters: readonly unknown[]): SQLite.RunResult {
    return this.statement.run(parameters);
  }

  private builderFor(width: number): RowBuilder {
    if (this.build === null || width !== this.width) {
      this.build = rowBuilder(this.statement.columns().map((column) => column.name));
      this.width = width;
    }
    return this.build;
  }
}

/** A statement that reads nothing (writes, pragmas without rows): better-sqlite3's own. */
const writerStatement = (statement: SQLite.Statement): CachedStatement => statement as unknown as CachedStatement;

/**
 * better-sqlite3 behind Kysely, with each statement prepared once per SQL text and reused (Kysely's
 * driver prepares every query anew, which the profile of the write paths ranked second after SQLite's
 * own execution), and reading statements answering rows built as ReaderStatement says. Kysely runs one
 * query at a time on the connection, so a cached statement is never in use twice; one still busy (an
 * unfinished iteration) is bypassed with a fresh one. SQLite re-prepares a statement by itself when the
 * schema changes under it. Least recently used statements are dropped beyond SQLITE_STATEMENT_CACHE_SIZE.
 */
export class CachedStatements {
  private readonly statements = new Map<string, CachedStatement>();
  /** Kysely's driver prepares once per query it runs: the number of statements run. */
  prepared = 0;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly capacity = SQLITE_STATEMENT_CACHE_SIZE,
  ) {}

  get size(): number {
    return this.statements.size;
  }

  prepare(sql: string): CachedStatement {
    this.prepared += 1;
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      if (cached.busy) return this.fresh(sql);
      // Re-inserted: the Map's order is the recency order.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.fresh(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > this.capacity) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }

  close(): void {
    this.statements.clear();
    this.sqlite.close();
  }

  private fresh(sql: string): CachedStatement {
    const statement = this.sqlite.prepare(sql);
    return statement.reader ? new ReaderStatement(statement) : writerStatement(statement);
  }
}

/** Each SQLite store's statements and driver, by its Kysely adapter (shared by the store's transactions). */
const DIRECT = new WeakMap<object, { readonly statements: CachedStatements; readonly driver: ImmediateSqliteDriver }>();

/** SQLite transactions whose callback is running: begun, and not yet committed or rolled back (SqliteKysely). */
const LIVE = new WeakSet<object>();

/**
 * The statements of a SQLite store's one connection when a query on `db` may run on it at once
 * (runDirect) rather than through Kysely's executor, whose connection provider, mutex and result
 * transform cost about a dozen promises a statement (docs/benchmarks.md, session 49); else null.
 * better-sqlite3 runs a statement synchronously, so nothing else runs on the connection meanwhile.
 * That is safe for a transaction on SQLite while its callback runs (it owns the connection from its
 * BEGIN to its end), and for a query outside any transaction while no one holds the connection (no
 * transaction is open on it, so the query sees only committed rows). While a transaction holds it, a
 * query outside that transaction waits for Kysely's mutex as before: run at once it would see the
 * transaction's uncommitted writes. A transaction used after its end goes to Kysely too, which
 * refuses it.
 */
export function directStatements(db: { readonly isTransaction: boolean; getExecutor(): { readonly adapter: object } }): CachedStatements | null {
  const direct = DIRECT.get(db.getExecutor().adapter);
  if (direct === undefined) return null;
  if (db.isTransaction) return LIVE.has(db) ? direct.statements : null;
  return direct.driver.held ? null : direct.statements;
}

/** A compiled query run as Kysely's SQLite connection runs it (same statement cache, same result). */
function runDirect<Row>(statements: CachedStatements, query: { readonly sql: string; readonly parameters: readonly unknown[] }): QueryResult<Row> {
  const statement = statements.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * Runs a compiled query: at once on SQLite's connection when directStatements allows (the result
 * itself, no promise), else through Kysely. Call it under `await` in an async function: a statement
 * that fails on the direct path then rejects that function's promise, as Kysely's would.
 */
export function executeCompiled<Row>(db: Executor, query: CompiledQuery): QueryResult<Row> | Promise<QueryResult<Row>> {
  const direct = directStatements(db);
  return direct === null ? db.executeQuery<Row>(query) : runDirect<Row>(direct, query);
}

/**
 * Kysely for the SQLite store: each `transaction().execute` callback's Transaction is marked live
 * while the callback runs, for directStatements. Builders made otherwise (`setIsolationLevel`, a
 * `withPlugin` copy's) are not marked, and their transactions' queries simply go through Kysely.
 */
class SqliteKysely extends Kysely<Database> {
  override transaction(): TransactionBuilder<Database> {
    const builder = super.transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = <T>(callback: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
      execute(async (trx) => {
        LIVE.add(trx);
        try {
          return await callback(trx);
        } finally {
          LIVE.delete(trx);
        }
      });
    return builder;
  }
}

/**
 * Kysely's SQLite driver opens a transaction with a plain (deferred) `BEGIN`: it reads from a snapshot
 * and asks for the write lock only at its first write. When another process on the same file (the
 * operator CLI beside the running service) has committed in between, SQLite cannot move the snapshot
 * forward and answers SQLITE_BUSY at once, without waiting out busy_timeout: "database is locked".
 * `BEGIN IMMEDIATE` takes the write lock at the start, so a second writer waits its turn instead. In
 * one process nothing changes: it has one connection, and its transactions already run one at a time.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  /** Is the connection handed out (a transaction, a query or a stream running on it)? See directStatements. */
  held = false;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.held = true;
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    this.held = false;
    await super.releaseConnection();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly driver: ImmediateSqliteDriver;

  constructor(settings: SqliteDialectConfig) {
    super(settings);
    this.driver = new ImmediateSqliteDriver(settings);
  }

  override createDriver(): Driver {
    return this.driver;
  }
}

/**
 * SQLite's page cache for the service's one connection, in KiB (SQLite's default is 2,000). With a
 * million payments stored, 2 MB does not hold the interior pages of the payment table and its
 * indexes, so a lookup of an old payment read several pages back from the OS each time: on the bench
 * (2026-12-02) 16 MiB took `payment/status` over spread-out old rows from 241 to 145 µs of CPU a
 * request (2,657 to 6,411 req/s); the export of a million rows still peaked at 205 MiB resident.
 */
export const SQLITE_PAGE_CACHE_KIB = 16_384;

function openSqlite(file: string): Store {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
  sqlite.defaultSafeIntegers(true);
  const statements = new CachedStatements(sqlite);
  const dialect = new ImmediateSqliteDialect({ database: statements });
  const db = new SqliteKysely({ dialect });
  DIRECT.set(db.getExecutor().adapter, { statements, driver: dialect.driver });
  return {
    db,
    kind: 'sqlite',
    sqliteFile: file,
    ping: async () => sqlite.open,
    statements: () => statements.prepared,
    close: () => db.destroy(),
  };
}

async function ensurePgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
}

/**
 * Sends the texts marked with preparedOnPostgres as named statements through this client, and counts
 * every query the client sends in `sent`.
 */
function prepareMarkedStatements(client: pg.PoolClient, sent: { count: number }): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    sent.count += 1;
    const name = typeof config === 'string' && Array.isArray(values) ? preparedName(config) : undefined;
    return name === undefined ? query(config, values, callback) : query({ name, text: config, values }, callback);
  };
}

/**
 * How long PostgreSQL lets a session sit idle inside a transaction before it ends the session, rolling
 * the transaction back and freeing its row locks. The service's transactions hold no connection while
 * they wait on anything but the database, so only a fault (a stalled process, a bug) comes near it;
 * without it such a transaction would hold the locks of a merchant's balance rows, and every payout
 * waiting behind them, for as long as the fault lasted.
 */
export const PG_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/**
 * How long a query waits for one of the pool's connections before it fails (503 UNAVAILABLE) rather
 * than waiting without end while the server is unreachable or every connection is stuck.
 */
export const PG_CONNECTION_WAIT_MS = 10_000;

/** The PostgreSQL limits above, overridable (tests shorten them). */
export interface PgTimeouts {
  readonly idleInTransactionMs: number;
  readonly connectionWaitMs: number;
}

async function openPostgres(url: string, schema: string | null, timeouts: Partial<PgTimeouts> = {}): Promise<Store> {
  if (schema) await ensurePgSchema(url, schema);
  const idleInTransactionMs = timeouts.idleInTransactionMs ?? PG_IDLE_IN_TRANSACTION_TIMEOUT_MS;
  const settings = [...(schema ? [`search_path=${schema}`] : []), 'synchronous_commit=on', `idle_in_transaction_session_timeout=${idleInTransactionMs}`];
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: timeouts.connectionWaitMs ?? PG_CONNECTION_WAIT_MS,
    options: settings.map((setting) => `-c ${setting}`).join(' '),
    types: {
      getTypeParser: (oid: number, format?: any) => {
        if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) return (value: string) => BigInt(value);
        return pg.types.getTypeParser(oid, format);
      },
    },
  });
  // A dropped connection must not crash the process; the next query reports the failure. The pool
  // listens for an idle connection's error only: one the server ends while it is lent out between two
  // statements of a transaction (a restart, a failover, pg_terminate_backend, the idle-in-transaction
  // timeout) emitted 'error' with nobody listening, which killed the process. Its transaction now fails
  // at its next statement, and the pool drops the connection when it comes back.
  pool.on('error', () => undefined);
  const sent = { count: 0 };
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    prepareMarkedStatements(client, sent);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    sqliteFile: null,
    ping: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    statements: () => sent.count,
    close: () => db.destroy(),
  };
}

/** Where the store lives: PostgreSQL when databaseUrl is set (in databaseSchema if given), else the SQLite file. */
export interface StoreConfig {
  readonly databaseUrl: string | null;
  readonly databaseSchema: string | null;
  readonly sqliteFile: string;
  /** PostgreSQL only: PG_IDLE_IN_TRANSACTION_TIMEOUT_MS and PG_CONNECTION_WAIT_MS unless given. */
  readonly pgTimeouts?: Partial<PgTimeouts>;
}

/** Opens the store and brings it up to date with the given migrations (src/migrations.ts). */
export async function openStore(config: StoreConfig, migrations: Migrations): Promise<Store> {
  const store = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.databaseSchema, config.pgTimeouts)
    : openSqlite(config.sqliteFile);
  await migrate(store.db, migrations, config.databaseUrl ? config.databaseSchema : null);
  return store;
}
