// How the service reaches the simulated bank: over HTTP only, whether the bank runs separately at
// SIMULATOR_URL or was started in this process by the composition root and handed in here.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { Channel, SandboxPayer } from '../channel.js';
import type { SimulatorConfig } from './config.js';
import { SimulatorChannel } from './flows.js';
import { publishedSimulatorFile, publishSimulator, readPublishedSimulator, withdrawSimulator, type PublishedSimulator } from './published.js';
import { API_KEY_HEADER } from './transformers.js';
import { UnreachableSimulator } from './unreachable.js';

/** What the connector needs of a bank started in this process: its address, where it calls back, its end. */
export interface InProcessBank {
  readonly url: string;
  /** It holds the data directory's books (the state file's lock); only such a bank is published. */
  readonly keepsBooks: boolean;
  setCallbackUrl(url: string): void;
  close(): Promise<void>;
}

export interface SimulatorConnection<Bank extends InProcessBank = InProcessBank> {
  readonly channel: Channel & SandboxPayer;
  /** The in-process bank (faults, stats for tests); null when SIMULATOR_URL is used. */
  readonly server: Bank | null;
  /** Where callbacks go; only an in-process bank can be told (a separate one has SIM_CALLBACK_URL). */
  setCallbackUrl(url: string): void;
  close(): Promise<void>;
}

export interface BankCredentials {
  readonly apiKey: string;
  readonly callbackSecret: string;
}

/** The in-process simulator holds a 0003 answer this much longer than the channel waits. */
const HOLD_BEYOND_TIMEOUT_MS = 5_000;

/** How long the in-process bank holds a late (0003) answer: past this connector's deadline. */
export const inProcessTimeoutHoldMs = (config: SimulatorConfig): number => config.timeoutMs + HOLD_BEYOND_TIMEOUT_MS;

const generated = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`;

/** The key and callback secret an in-process bank is started with: configured, or generated per start. */
export const inProcessCredentials = (config: SimulatorConfig): BankCredentials => ({
  apiKey: config.apiKey ?? generated('simk'),
  callbackSecret: config.callbackSecret ?? generated('sims'),
});

function remote(baseUrl: string, credentials: BankCredentials, timeoutMs: number, clock: Clock): SimulatorConnection<never> {
  const channel = new SimulatorChannel({ baseUrl, apiKey: credentials.apiKey, callbackSecret: credentials.callbackSecret, timeoutMs, clock });
  return { channel, server: null, setCallbackUrl: () => undefined, close: () => channel.close() };
}

/** A separately running bank at SIMULATOR_URL. */
export const connectRemoteSimulator = (config: SimulatorConfig & { readonly url: string }, clock: Clock): SimulatorConnection<never> =>
  remote(config.url, { apiKey: config.apiKey, callbackSecret: config.callbackSecret }, config.timeoutMs, clock);

/**
 * A bank started in this process with `credentials`; the connection closes it. It is published in
 * `publishDir` (the data directory) while it runs, so the CLI can reach it, when it keeps that
 * directory's books.
 */
export function connectInProcessSimulator<Bank extends InProcessBank>(
  bank: Bank,
  credentials: BankCredentials,
  config: SimulatorConfig,
  clock: Clock,
  publishDir: string | null,
): SimulatorConnection<Bank> {
  const channel = new SimulatorChannel({
    baseUrl: bank.url,
    apiKey: credentials.apiKey,
    callbackSecret: credentials.callbackSecret,
    timeoutMs: config.timeoutMs,
    clock,
  });
  // Only the bank that holds the data directory's books speaks for it: a second service started on the
  // same directory (by mistake, or while the first still runs) must not point the CLI at its own bank.
  const publishing = publishDir !== null && bank.keepsBooks;
  if (publishing) publishSimulator(publishDir, { url: bank.url, apiKey: credentials.apiKey, pid: process.pid });
  return {
    channel,
    server: bank,
    setCallbackUrl: (url) => bank.setCallbackUrl(url),
    close: async () => {
      if (publishing) withdrawSimulator(publishDir, bank.url);
      await channel.close();
      await bank.close();
    },
  };
}

/** Null when the published simulator is up and takes its key; else why it cannot be used. */
async function problemWith(record: PublishedSimulator, file: string, timeoutMs: number): Promise<string | null> {
  const which = `the simulator at ${record.url} that service process ${record.pid} published in ${file}`;
  try {
    const answer = await fetch(`${record.url}/sim/faults`, { headers: { [API_KEY_HEADER]: record.apiKey }, signal: AbortSignal.timeout(timeoutMs) });
    await answer.body?.cancel();
    return answer.ok ? null : `${which} refuses its key (HTTP ${answer.status}): another process holds that port now`;
  } catch (error) {
    return `${which} does not answer (${error instanceof Error ? error.message : String(error)}): is that service still running?`;
  }
}

/**
 * The simulator of the service that runs on this data directory, for a process that must not start
 * its own (the CLI): SIMULATOR_URL, or the in-process simulator the running service published.
 * Without either, a channel that refuses every call and says why.
 */
export async function attachSimulator(config: SimulatorConfig, clock: Clock, dataDir: string): Promise<SimulatorConnection<never>> {
  if (config.url !== null) return connectRemoteSimulator(config, clock);
  const file = publishedSimulatorFile(dataDir);
  const record = readPublishedSimulator(dataDir);
  const problem = record === null ? `no running service has published its simulator in ${file}` : await problemWith(record, file, config.timeoutMs);
  if (record === null || problem !== null) {
    const reason =
      `This command needs the bank simulator the service uses, but ${problem}. Start the service on this DATA_DIR, ` +
      'or set SIMULATOR_URL (with SIMULATOR_KEY) to the simulator it uses, or use POST /admin/payouts/:ref/query on the running service.';
    return { channel: new UnreachableSimulator(reason), server: null, setCallbackUrl: () => undefined, close: async () => undefined };
  }
  // This process receives no callbacks; a random secret makes any callback shown to it fail verification.
  return remote(record.url, { apiKey: record.apiKey, callbackSecret: generated('sims') }, config.timeoutMs, clock);
}
