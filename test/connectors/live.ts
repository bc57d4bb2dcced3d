// The whole service with live merchants served by real connectors, each pointed at a fake of its
// provider over real HTTP. The operator's part is done through the admin API exactly as an operator
// would: credentials, base URL, routes. Merchants talk to the service through the signed SDK.
import type { Currency } from '../../sdk/src/index.js';
import type { ConnectorDefinition } from '../../src/connectors/connector.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { Receiver } from '../webhooks/helpers.js';
import { pause } from '../payments/api-helpers.js';

export interface LiveSetup {
  readonly server: TestServer;
  readonly merchant: TestMerchant;
  /** The merchant's webhook endpoint. */
  readonly receiver: Receiver;
  close(): Promise<void>;
}

/** Starts the service (extra connectors beside the shipped ones, if given) and one live merchant. */
export async function startLive(options: { env?: Record<string, string>; connectors?: readonly ConnectorDefinition[] } = {}): Promise<LiveSetup> {
  const server = await startTestServer({ CONNECTOR_TIMEOUT_MS: '1000', ROUTING_REFRESH_MS: '0', ...options.env }, { connectors: options.connectors });
  const merchant = await server.createMerchant({ mode: 'live' });
  const receiver = await new Receiver().listen();
  return {
    server,
    merchant,
    receiver,
    async close() {
      await receiver.close();
      await server.close();
    },
  };
}

/** Calls the admin API and fails loudly unless it answered 200. */
export async function operator(server: TestServer, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await server.admin(method, path, body);
  if (answer.status !== 200) throw new Error(`admin ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** What an operator does to take a connector live: credentials, base URL (the fake), and routes. */
export async function connect(
  server: TestServer,
  name: string,
  options: {
    readonly baseUrl: string;
    readonly credentials: Readonly<Record<string, string>>;
    readonly routes: readonly { readonly currency: Currency; readonly direction: 'payin' | 'payout'; readonly method: string; readonly connectors?: readonly string[] }[];
  },
): Promise<void> {
  await operator(server, 'PUT', `/connectors/${name}/credentials`, options.credentials);
  await operator(server, 'PUT', `/connectors/${name}/base-url`, { baseUrl: options.baseUrl });
  for (const route of options.routes) {
    await operator(server, 'PUT', '/routes', {
      currency: route.currency,
      direction: route.direction,
      method: route.method,
      connectors: route.connectors ?? [name],
    });
  }
}

/** The rows of one payment or payout as the operator sees them in the database (channel, upstream ref). */
export async function paymentRow(server: TestServer, transactionRef: string) {
  return server.services.store.db.selectFrom('payments').selectAll().where('transaction_ref', '=', transactionRef).executeTakeFirstOrThrow();
}

/** Where the payout tests keep it; the live connector tests read payouts through it too. */
export { payoutRow } from '../payouts/helpers.js';

/** Journal entries that mention a reference (postings of any kind), to prove nothing was booked twice. */
export async function journalCount(server: TestServer, ref: string): Promise<number> {
  const rows = await server.services.store.db.selectFrom('ledger_entries').select('id').where('ref', '=', ref).execute();
  return rows.length;
}

/** Polls until `check` holds (real time: the fakes and the jobs run on their own). */
export async function eventually<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
    await pause(50);
  }
}

