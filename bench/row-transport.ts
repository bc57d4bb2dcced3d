// How a 51-row page of payment records is best shipped from PostgreSQL to the service: the figures behind
// store/packed-rows.ts (docs/benchmarks.md, "Session 10"). On a scratch schema of the local server it seeds
// 10,000 payment-shaped rows and reads the same newest-first page three ways on one connection, as named
// prepared statements: the 20 columns; each row packed as one JSON array of texts; and each record
// rendered as JSON by the server. For each it prints the CPU per page of this process (receiving and
// decoding) and of the server's backend (from /proc), over alternating rounds.
//   npx tsx bench/row-transport.ts [--pages 2000] [--rounds 3]
import { parseArgs } from 'node:util';
import pg from 'pg';
import { processCpuMs } from './cpu.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' } } });
const PAGES = Number(args.pages);
const ROUNDS = Number(args.rounds);
const URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `row_transport_${process.pid}`;
const PAGE = 51;

const COLUMNS = [
  'transaction_ref', 'merchant_ref', 'method', 'currency', 'amount_minor', 'payer_name', 'payer_email', 'payer_phone',
  'redirect_url', 'webhook_url', 'status', 'paid_amount_minor', 'fee_minor', 'created_at_ms', 'updated_at_ms',
  'completed_at_ms', 'expires_at_ms', 'refunded_at_ms', 'failure_reason', 'refund_state',
];
const PAGE_OF = `FROM payments WHERE merchant_id = $1 ORDER BY created_at_ms DESC, transaction_ref DESC LIMIT $2`;
const iso = (ms: string) => `to_char(timestamp 'epoch' + (${ms}) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const major = (minor: string) => `trim_scale((${minor})::numeric / 100)::text`;
const optional = (column: string, key: string, value: string) => `CASE WHEN ${column} IS NULL THEN '' ELSE ',"${key}":' || ${value} END`;

/** The record as paymentRecord shapes it, rendered by the server (the way not taken). */
const RENDERED =
  `SELECT created_at_ms, transaction_ref, '{"transactionRef":' || to_json(transaction_ref) || ',"merchantRef":' || to_json(merchant_ref) ||
  ',"method":' || to_json(method) || ',"currency":' || to_json(currency) || ',"amount":' || ${major('amount_minor')} ||
  ',"name":' || to_json(payer_name) || ',"email":' || to_json(payer_email) || ',"phone":' || to_json(payer_phone) ||
  ',"redirectUrl":' || to_json(redirect_url) || ${optional('webhook_url', 'webhookUrl', 'to_json(webhook_url)')} ||
  ',"status":' || to_json(status) || ',"paidAmount":' || ${major('coalesce(paid_amount_minor, 0)')} || ',"fee":' || ${major('fee_minor')} ||
  ',"createdAt":"' || ${iso('created_at_ms')} || '","updatedAt":"' || ${iso('updated_at_ms')} || '"' ||
  ${optional('completed_at_ms', 'completedAt', `'"' || ${iso('completed_at_ms')} || '"'`)} ||
  ',"expiresAt":"' || ${iso('expires_at_ms')} || '"' || ${optional('refunded_at_ms', 'refundedAt', `'"' || ${iso('refunded_at_ms')} || '"'`)} ||
  ${optional('failure_reason', 'failureReason', 'to_json(failure_reason)')} ||
  ',"refundable":' || CASE WHEN status = 'Success' AND completed_at_ms + 1800000 >= $3 AND refund_state IS DISTINCT FROM 'requested' THEN 'true' ELSE 'false' END ||
  CASE WHEN status = 'Success' THEN ',"refundableUntil":"' || ${iso('completed_at_ms + 1800000')} || '"' ELSE '' END || '}' AS record ${PAGE_OF}`;

interface Way {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
  /** What the service would do with the rows before rendering them. */
  readonly take: (rows: any[]) => number;
}

const WAYS: Way[] = [
  { name: 'the 20 columns', text: `SELECT ${COLUMNS.join(', ')} ${PAGE_OF}`, values: ['m1', PAGE], take: (rows) => rows.length },
  {
    name: 'packed: one JSON array of texts a row',
    text: `SELECT array_to_json(ARRAY[${COLUMNS.map((c) => `${c}::text`).join(', ')}])::text AS packed_row ${PAGE_OF}`,
    values: ['m1', PAGE],
    take: (rows) => rows.reduce((n, row) => n + (JSON.parse(row.packed_row) as unknown[]).length, 0),
  },
  { name: 'records rendered as JSON by the server', text: RENDERED, values: ['m1', PAGE, 1_790_000_000_000], take: (rows) => rows.length },
];

/** The backend's CPU milliseconds so far; it must still be running. */
function cpuMs(pid: number): number {
  const used = processCpuMs(pid);
  if (used === null) throw new Error(`the PostgreSQL backend ${pid} is gone`);
  return used;
}

async function main(): Promise<void> {
  pg.types.setTypeParser(20, (value: string) => BigInt(value));
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${SCHEMA}`);
    await client.query(`SET search_path = ${SCHEMA}`);
    await client.query(`CREATE TABLE payments (transaction_ref text PRIMARY KEY, merchant_id text NOT NULL, merchant_ref text NOT NULL,
      method text NOT NULL, currency text NOT NULL, amount_minor bigint NOT NULL, fee_minor bigint NOT NULL, paid_amount_minor bigint,
      status text NOT NULL, failure_reason text, payer_name text NOT NULL, payer_email text NOT NULL, payer_phone text NOT NULL,
      redirect_url text NOT NULL, webhook_url text, refund_state text, created_at_ms bigint NOT NULL, updated_at_ms bigint NOT NULL,
      expires_at_ms bigint NOT NULL, completed_at_ms bigint, refunded_at_ms bigint)`);
    await client.query(`INSERT INTO payments SELECT 'tx-' || lpad(i::text, 12, '0'), 'm1', 'order-' || i, 'UPI', 'INR', 10000 + i, 200,
      CASE WHEN i % 3 = 0 THEN 10000 + i END, CASE WHEN i % 3 = 0 THEN 'Success' ELSE 'Pending' END, NULL, 'Asha Rao', 'asha@example.com',
      '+919876543210', 'https://merchant.example/return', 'https://merchant.example/hook', NULL, 1790000000000 + i * 1000,
      1790000000000 + i * 1000, 1790000000000 + i * 1000 + 1800000, CASE WHEN i % 3 = 0 THEN 1790000000000 + i * 1000 + 5000 END, NULL
      FROM generate_series(1, 10000) AS i`);
    await client.query('CREATE INDEX ON payments (merchant_id, created_at_ms DESC, transaction_ref DESC)');
    await client.query('VACUUM ANALYZE payments');
    const backend = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    console.log(`row transport: ${PAGES.toLocaleString('en-US')} pages of ${PAGE} rows per way and round, ${ROUNDS} rounds, one connection`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, way] of WAYS.entries()) {
        const query = { name: `row_transport_${i}`, text: way.text, values: way.values };
        for (let n = 0; n < 200; n++) way.take((await client.query(query)).rows);
        const client0 = process.cpuUsage();
        const server0 = cpuMs(backend);
        for (let n = 0; n < PAGES; n++) way.take((await client.query(query)).rows);
        const used = process.cpuUsage(client0);
        const clientUs = (used.user + used.system) / PAGES;
        const serverUs = ((cpuMs(backend) - server0) * 1000) / PAGES;
        console.log(`  round ${round}, ${way.name.padEnd(40)} client ${clientUs.toFixed(0).padStart(5)} µs/page, server ${serverUs.toFixed(0).padStart(5)} µs/page`);
      }
    }
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await client.end();
  }
}

await main();
