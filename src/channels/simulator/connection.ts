// How the service reaches its sandbox upstream: a simulator started inside the process (the
// default) or a separate one at SIMULATOR_URL, and the SimulatorChannel that talks to it.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { SimulatorChannel } from './channel.js';
import type { SimulatorConfig } from './config.js';
import { startSimulator, type SimulatorHandle } from './server.js';

/** The in-process simulator holds a 0003 answer this much longer than the channel waits. */
const HOLD_BEYOND_TIMEOUT_MS = 5_000;

export interface SimulatorConnection {
  readonly channel: SimulatorChannel;
  /** The in-process simulator (faults, stats for tests); null when SIMULATOR_URL is used. */
  readonly server: SimulatorHandle | null;
  /** Where callbacks go; only an in-process simulator can be told (a separate one has SIM_CALLBACK_URL). */
  setCallbackUrl(url: string): void;
  close(): Promise<void>;
}

const generated = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`;

export async function connectSimulator(config: SimulatorConfig, clock: Clock, callbackUrl: string): Promise<SimulatorConnection> {
  if (config.url !== null) {
    const channel = new SimulatorChannel({ baseUrl: config.url, apiKey: config.apiKey, callbackSecret: config.callbackSecret, timeoutMs: config.timeoutMs, clock });
    return { channel, server: null, setCallbackUrl: () => undefined, close: () => channel.close() };
  }
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
  return {
    channel,
    server,
    setCallbackUrl: (url) => server.setCallbackUrl(url),
    close: async () => {
      await channel.close();
      await server.close();
    },
  };
}
