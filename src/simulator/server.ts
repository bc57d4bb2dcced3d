// The upstream bank simulator as its own HTTP service: collections, refunds and payouts behind an
// API key, a payer action, fault switches and counters for tests, and signed callbacks to the service.
import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { systemClock, type Clock } from '../core/clock.js';
import { CallbackSender, DEFAULT_CALLBACK_RETRY_DELAYS_MS } from './callbacks.js';
import { CollectionBook } from './collections.js';
import { faultsPatchSchema, noFaults, SimulatorStats, type SimulatorFaults } from './faults.js';
import { resolveAccount } from './names.js';
import { PayoutBook } from './payouts.js';
import { API_KEY_HEADER, type CompleteCollectionBody, type CreateCollectionBody, type RefundBody, type ResolveAccountBody, type SubmitPayoutBody } from './protocol.js';
import { BankRefusal } from './refs.js';
import { routeSchemas } from './schemas.js';
import { statementCsv } from './statements.js';
import { BankStateFile, type BookName, type StateLine, type StoredRecord } from './state-file.js';
import { DAY_MS, dayStartOf } from '../core/days.js';

export interface SimulatorOptions {
  /** 0 or omitted: a random free port. */
  readonly port?: number;
  readonly host?: string;
  /** The shared key every caller sends in x-sim-key. */
  readonly apiKey: string;
  /** The service's callback endpoint, e.g. http://127.0.0.1:8080/v1/callbacks/simulator. */
  readonly callbackUrl: string;
  readonly callbackSecret: string;
  readonly clock?: Clock;
  /** How long a normal payout stays PROCESSING, by the clock (default 3000). */
  readonly payoutDelayMs?: number;
  /** How long the answer to a first submission to an account ending 0003 is held (default 30000). */
  readonly timeoutHoldMs?: number;
  /** How often due payouts and expired collections are settled and reported (real time). */
  readonly sweepIntervalMs?: number;
  readonly callbackRetryDelaysMs?: readonly number[];
  /** Records kept per book before the oldest are forgotten (default 20000). */
  readonly retainRecords?: number;
  /**
   * Where the bank keeps its books across restarts (state-file.ts); read at start, written on every
   * change. Omitted: the books live in memory only, and a restarted bank has forgotten everything.
   */
  readonly stateFile?: string;
  /** Log requests (the standalone simulator does; in-process it stays quiet). */
  readonly logger?: boolean;
  /**
   * false: the listening socket does not keep the process alive, so a process that embeds the
   * simulator (the service, the CLI) exits when its own work is done. Default true.
   */
  readonly keepProcessAlive?: boolean;
}

export interface SimulatorHandle {
  readonly url: string;
  /** Live switches: change a field and the next request or callback obeys it. */
  readonly faults: SimulatorFaults;
  readonly stats: SimulatorStats;
  /**
   * Whether this bank keeps its books in the state file (it holds the file's lock). A second bank on
   * the same file while the first runs keeps them in memory only, and is not the one to publish.
   */
  readonly keepsBooks: boolean;
  /** Points callbacks elsewhere, e.g. once the service knows the port it listens on. */
  setCallbackUrl(url: string): void;
  /** Lets every held request go on now: those of holdNextRequests, and held 0003 answers. */
  releaseHeld(): void;
  resetFaults(): void;
  close(): Promise<void>;
}

export const DEFAULT_PAYOUT_DELAY_MS = 3_000;
export const DEFAULT_TIMEOUT_HOLD_MS = 30_000;
const DEFAULT_SWEEP_INTERVAL_MS = 100;
/** A request of holdNextRequests that nobody releases goes on after this long. */
const MAX_HOLD_MS = 10 * 60_000;
const DEFAULT_RETAIN_RECORDS = 20_000;
const BODY_LIMIT_BYTES = 64 * 1024;

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function keyMatches(expected: Buffer, given: unknown): boolean {
  return typeof given === 'string' && timingSafeEqual(expected, digest(given));
}

interface RefParams {
  readonly transactionRef: string;
}

export async function startSimulator(options: SimulatorOptions): Promise<SimulatorHandle> {
  const clock = options.clock ?? systemClock;
  const faults = noFaults();
  const stats = new SimulatorStats();
  let held = new AbortController();
  const releaseHeld = (): void => {
    held.abort();
    held = new AbortController();
  };
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    // A misspelt field or a number sent as a string is refused, never dropped or converted.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });

  const callbacks = new CallbackSender({
    callbackUrl: options.callbackUrl,
    secret: options.callbackSecret,
    clock,
    faults,
    stats,
    retryDelaysMs: options.callbackRetryDelaysMs ?? DEFAULT_CALLBACK_RETRY_DELAYS_MS,
    logError: (error, message) => app.log.error({ err: error }, message),
  });
  const retainRecords = options.retainRecords ?? DEFAULT_RETAIN_RECORDS;
  const book = { clock, stats, retainRecords, onChange: callbacks.send.bind(callbacks) };
  const state = options.stateFile === undefined ? null : BankStateFile.claim(options.stateFile);
  const snapshot = (): StateLine[] => [
    ...collections.stored().map((record) => ({ book: 'collection' as const, record })),
    ...payouts.stored().map((record) => ({ book: 'payout' as const, record })),
  ];
  const persistTo = (name: BookName) =>
    state === null ? undefined : (record: StoredRecord) => state.write(name, record, collections.size + payouts.size, snapshot);
  const collections = new CollectionBook({ ...book, persist: persistTo('collection') });
  const payouts = new PayoutBook({ ...book, payoutDelayMs: options.payoutDelayMs ?? DEFAULT_PAYOUT_DELAY_MS, persist: persistTo('payout') });
  if (state !== null) {
    // The newest records of each book, as many as it remembers; the file then holds just those.
    const restored = state.takeRestored();
    const restoredOf = (name: BookName): StoredRecord[] => restored.filter((line) => line.book === name).map((line) => line.record).slice(-retainRecords);
    collections.restore(restoredOf('collection'));
    payouts.restore(restoredOf('payout'));
    state.rewrite(snapshot());
  }
  const timeoutHoldMs = options.timeoutHoldMs ?? DEFAULT_TIMEOUT_HOLD_MS;
  const pause = (ms: number): Promise<void> => sleep(ms, undefined, { signal: held.signal }).catch(() => undefined);

  const expectedKey = digest(options.apiKey);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/healthz') return;
    if (!keyMatches(expectedKey, request.headers[API_KEY_HEADER])) {
      return reply.code(401).send({ error: 'UNAUTHORIZED', message: `Send the simulator key in ${API_KEY_HEADER}.` });
    }
  });
  // Before validation: a bank that falls over does not look at the request first.
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith('/v1/')) return;
    stats.requests += 1;
    if (faults.holdNextRequests > 0) {
      faults.holdNextRequests -= 1;
      stats.heldRequests += 1;
      await pause(MAX_HOLD_MS);
    }
    if (faults.latencyMs > 0) await pause(faults.latencyMs);
    if (faults.failNextRequests > 0) {
      faults.failNextRequests -= 1;
      stats.faultedRequests += 1;
      return reply.code(500).send({ error: 'SIMULATED_FAILURE', message: 'The fault switch failNextRequests answered 500.' });
    }
  });
  app.setErrorHandler(async (error: unknown, _request, reply) => {
    if (error instanceof BankRefusal) return reply.code(error.httpStatus).send({ error: error.code, message: error.message });
    const validation = (error as { validation?: unknown; message?: string }).validation;
    if (validation) return reply.code(400).send({ error: 'VALIDATION_FAILED', message: (error as Error).message });
    app.log.error({ err: error }, 'simulator: request failed');
    return reply.code(500).send({ error: 'INTERNAL_ERROR', message: 'The simulator failed.' });
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.post<{ Body: CreateCollectionBody }>('/v1/collections', { schema: routeSchemas.createCollection }, async (request) =>
    collections.create(request.body),
  );
  app.get<{ Params: RefParams }>('/v1/collections/:transactionRef', async (request) => collections.get(request.params.transactionRef));
  app.post<{ Params: RefParams; Body: RefundBody }>('/v1/collections/:transactionRef/refund', { schema: routeSchemas.refund }, async (request) => {
    if (faults.refuseNextRefunds > 0) {
      faults.refuseNextRefunds -= 1;
      throw new BankRefusal(422, 'REFUND_DECLINED', 'The fault switch refuseNextRefunds declined this refund.');
    }
    return collections.refund(request.params.transactionRef, BigInt(request.body.amountMinor));
  });
  app.post<{ Body: SubmitPayoutBody }>('/v1/payouts', { schema: routeSchemas.submitPayout }, async (request) => {
    const result = payouts.submit(request.body);
    // The transfer exists already; only the answer is late, so a client that gives up must ask before resending.
    if (result.answerLate) await pause(timeoutHoldMs);
    return result.payout;
  });
  // Name enquiry: answers at once, moves no money; the fault switches above apply to it like any call.
  app.post<{ Body: ResolveAccountBody }>('/v1/accounts/resolve', { schema: routeSchemas.resolveAccount }, async (request) => {
    stats.nameEnquiries += 1;
    return resolveAccount(request.body);
  });
  app.get<{ Params: RefParams }>('/v1/payouts/:transactionRef', async (request, reply) => {
    const payout = payouts.get(request.params.transactionRef);
    if (payout) return payout;
    return reply.code(404).send({ transactionRef: request.params.transactionRef, status: 'UNKNOWN', upstreamRef: null, failureReason: null });
  });

  // The day's statement (docs/simulator.md, "Statements"): what the bank did that UTC day, as CSV.
  app.get<{ Params: { file: string } }>('/v1/statements/:file', async (request, reply) => {
    const day = /^(.+)\.csv$/.exec(request.params.file)?.[1];
    const startMs = day === undefined ? null : dayStartOf(day);
    if (startMs === null) throw new BankRefusal(404, 'NOT_FOUND', 'Statements are at /v1/statements/YYYY-MM-DD.csv.');
    const endMs = startMs + DAY_MS;
    const csv = statementCsv([...collections.statementLines(startMs, endMs), ...payouts.statementLines(startMs, endMs)]);
    return reply.header('content-type', 'text/csv; charset=utf-8').send(csv);
  });

  app.post<{ Params: RefParams; Body: CompleteCollectionBody }>('/sim/collections/:transactionRef/complete', { schema: routeSchemas.complete }, async (request) => {
    const paid = request.body.paidAmountMinor;
    return collections.complete(request.params.transactionRef, request.body.outcome, paid === undefined ? undefined : BigInt(paid));
  });
  app.get('/sim/faults', async () => faults);
  app.post<{ Body: Partial<SimulatorFaults> }>('/sim/faults', { schema: { body: faultsPatchSchema } }, async (request) => Object.assign(faults, request.body));
  app.post('/sim/faults/reset', async () => Object.assign(faults, noFaults()));
  app.post('/sim/release', async () => {
    releaseHeld();
    return { released: true };
  });
  app.get<{ Querystring: { transactionRef?: string } }>('/sim/stats', async (request) => {
    const ref = request.query.transactionRef;
    if (ref === undefined) return stats.toJSON();
    return { ...stats.toJSON(), submissionsForRef: stats.submissionsFor(ref), transfersForRef: stats.transfersFor(ref) };
  });

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  if (options.keepProcessAlive === false) {
    app.server.unref();
    app.server.on('connection', (socket) => socket.unref());
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 0;
  const sweeper = setInterval(() => {
    payouts.sweep();
    collections.sweep();
  }, options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
  sweeper.unref();

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    faults,
    keepsBooks: state !== null,
    stats,
    setCallbackUrl: (url) => callbacks.setCallbackUrl(url),
    releaseHeld,
    resetFaults: () => void Object.assign(faults, noFaults()),
    close: async () => {
      clearInterval(sweeper);
      releaseHeld();
      await callbacks.close();
      await app.close();
      state?.close();
    },
  };
}
