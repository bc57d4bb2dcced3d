// PostgreSQL connections that fail under the service (store/db.ts): one the server ends while a
// transaction holds it between two statements (a restart, a failover, an operator's
// pg_terminate_backend) used to kill the whole process with an unhandled 'error' event; a transaction
// left idle holds its row locks only until idle_in_transaction_session_timeout; and a query that finds
// every pooled connection taken waits a bounded time. Each failure reaches a merchant as 503
// UNAVAILABLE, and the store answers the next query.
import net from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { toAppError } from '../../src/http/errors.js';
import { openStore, PG_CONNECTION_WAIT_MS, PG_IDLE_IN_TRANSACTION_TIMEOUT_MS, type PgTimeouts, type Store } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { allocateTestDatabase, TEST_PG_URL, usingPostgres, type TestDatabase } from '../helpers/store.js';

let location: TestDatabase | null = null;
let store: Store | null = null;
let admin: pg.Client | null = null;

afterEach(async () => {
  await admin?.end();
  await store?.close();
  await location?.drop();
  admin = null;
  store = null;
  location = null;
});

async function open(pgTimeouts: Partial<PgTimeouts> = {}): Promise<{ store: Store; admin: pg.Client }> {
  location = allocateTestDatabase();
  store = await openStore({ ...location, pgTimeouts }, MIGRATIONS);
  await sql`CREATE TABLE probe (id integer PRIMARY KEY, n integer NOT NULL)`.execute(store.db);
  await sql`INSERT INTO probe VALUES (1, 0)`.execute(store.db);
  admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  return { store, admin };
}

const backendPid = async (trx: Store['db']): Promise<number> => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0]!.pid;
const probeN = async (s: Store): Promise<number> => (await sql<{ n: number }>`SELECT n FROM probe WHERE id = 1`.execute(s.db)).rows[0]!.n;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a PostgreSQL server that accepts the connection and never answers', () => {
  it('fails the query as UNAVAILABLE once the connection wait runs out', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, connectionTimeoutMillis: 200 });
    pool.on('error', () => undefined);
    try {
      const failure = await pool.query('SELECT 1').then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(toAppError(failure).reason).toBe('UNAVAILABLE');
    } finally {
      await pool.end();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe.skipIf(!usingPostgres())('PostgreSQL connections that fail under the service', () => {
  it('has every connection limited by default: a minute idle in a transaction, ten seconds waiting for the pool', async () => {
    expect(PG_IDLE_IN_TRANSACTION_TIMEOUT_MS).toBe(60_000);
    expect(PG_CONNECTION_WAIT_MS).toBe(10_000);
    const { store } = await open();
    const { rows } = await sql<{ setting: string }>`SELECT current_setting('idle_in_transaction_session_timeout') AS setting`.execute(store.db);
    expect(rows[0]!.setting).toBe('1min');
  });

  it('survives the server ending a connection that a transaction holds between statements; the transaction is undone', async () => {
    const { store, admin } = await open();
    let failure: unknown = null;
    try {
      await store.db.transaction().execute(async (trx) => {
        await sql`UPDATE probe SET n = 7 WHERE id = 1`.execute(trx);
        await admin.query('SELECT pg_terminate_backend($1)', [await backendPid(trx)]);
        // The server's notice arrives while no statement of this transaction is running.
        await pause(200);
        await sql`UPDATE probe SET n = n + 1 WHERE id = 1`.execute(trx);
      });
    } catch (error) {
      failure = error;
    }
    expect(failure).not.toBeNull();
    expect(toAppError(failure).reason).toBe('UNAVAILABLE');
    expect(await probeN(store)).toBe(0);
    // Every pooled connection still answers.
    const answers = await Promise.all(Array.from({ length: 12 }, () => probeN(store)));
    expect(answers).toEqual(Array(12).fill(0));
  });

  it('ends a transaction left idle past the limit, freeing the row it locked for the next writer', async () => {
    const { store } = await open({ idleInTransactionMs: 300 });
    let release!: () => void;
    const idle = new Promise<void>((resolve) => (release = resolve));
    const stalled = store.db.transaction().execute(async (trx) => {
      await sql`UPDATE probe SET n = 5 WHERE id = 1`.execute(trx);
      await idle;
      await sql`UPDATE probe SET n = n + 1 WHERE id = 1`.execute(trx);
    });
    stalled.catch(() => undefined);
    // Waits on the stalled transaction's row lock until the server ends that session.
    await sql`UPDATE probe SET n = 40 WHERE id = 1`.execute(store.db);
    release();
    const failure = await stalled.then(
      () => null,
      (error: unknown) => error,
    );
    expect(toAppError(failure).reason).toBe('UNAVAILABLE');
    expect(await probeN(store)).toBe(40);
  });

  it('fails a query that waits too long for a pooled connection as UNAVAILABLE, then serves again', async () => {
    const { store } = await open({ connectionWaitMs: 200 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    let allHeld!: () => void;
    const allTaken = new Promise<void>((resolve) => (allHeld = resolve));
    // The pool's ten connections, each held by a transaction until released.
    const holders = Array.from({ length: 10 }, () =>
      store.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        if (++holding === 10) allHeld();
        await held;
      }),
    );
    await allTaken;
    const waited = await probeN(store).then(
      () => null,
      (error: unknown) => error,
    );
    expect(waited).toBeInstanceOf(Error);
    expect(toAppError(waited).reason).toBe('UNAVAILABLE');
    release();
    await Promise.all(holders);
    expect(await probeN(store)).toBe(0);
  });
});
