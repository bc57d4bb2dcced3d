// How the service reaches its sandbox upstream: a simulator started inside the process (the
// default) or a separate one at SIMULATOR_URL, and the SimulatorChannel that talks to it.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { Channel, SandboxPayer } from '../channel.js';
import { SimulatorChannel } from './flows.js';
import type { SimulatorConfig } from './config.js';
import { API_KEY_HEADER } from '../../simulator/protocol.js';
import { publishedSimulatorFile, publishSimulator, readPublishedSimulator, withdrawSimulator, type PublishedSimulator } from './published.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/server.js';
import { UnreachableSimulator } from './unreachable.js';

/** The in-process simulator holds a 0003 answer this much longer than the channel waits. */
const HOLD_BEYOND_TIMEOUT_MS = 5_000;

export interface SimulatorConnection {
  readonly channel: Channel & SandboxPayer;
  /** The in-process simulator (faults, stats for tests); null when SIMULATOR_URL is used. */
  readonly server: SimulatorHandle | null;
  /** Where callbacks go; only an in-process simulator can be told (a separate one has SIM_CALLBACK_URL). */
  setCallbackUrl(url: string): void;
  close(): Promise<void>;
}

const generated = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`;

function remote(baseUrl: string, apiKey: string, callbackSecret: string, timeoutMs: number, clock: Clock): SimulatorConnection {
  const channel = new SimulatorChannel({ baseUrl, apiKey, callbackSecret, timeoutMs, clock });
  return { channel, server: null, setCallbackUrl: () => undefined, close: () => channel.close() };
}

/**
 * The service's simulator: SIMULATOR_URL, or one started in this process. An in-process one is
 * published in `publishDir` (the data directory) while it runs, so the CLI can reach it.
 */
export async function connectSimulator(config: SimulatorConfig, clock: Clock, callbackUrl: string, publishDir: string | null = null): Promise<SimulatorConnection> {
  if (config.url !== null) return remote(config.url, config.apiKey, config.callbackSecret, config.timeoutMs, clock);
  const apiKey = config.apiKey ?? generated('simk');
  const callbackSecret = config.callbackSecret ?? generated('sims');
  const server = await startSimulator({
    apiKey,
    callbackUrl,
    callbackSecret,
    clock,
    payoutDelayMs: config.payoutDelayMs,
    timeoutHoldMs: config.timeoutMs + HOLD_BEYOND_TIMEOUT_MS,
    keepProcessAlive: false,
  });
  const channel = new SimulatorChannel({ baseUrl: server.url, apiKey, callbackSecret, timeoutMs: config.timeoutMs, clock });
  if (publishDir !== null) publishSimulator(publishDir, { url: server.url, apiKey, pid: process.pid });
  return {
    channel,
    server,
    setCallbackUrl: (url) => server.setCallbackUrl(url),
    close: async () => {
      if (publishDir !== null) withdrawSimulator(publishDir, server.url);
      await channel.close();
      await server.close();
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
export async function attachSimulator(config: SimulatorConfig, clock: Clock, dataDir: string): Promise<SimulatorConnection> {
  if (config.url !== null) return remote(config.url, config.apiKey, config.callbackSecret, config.timeoutMs, clock);
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
  return remote(record.url, record.apiKey, generated('sims'), config.timeoutMs, clock);
}
