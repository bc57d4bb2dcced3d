// Starts the service's upstreams: the connectors, and the simulated bank in this process unless
// SIMULATOR_URL names a separate one. The connector reaches either over HTTP only.
import path from 'node:path';
import type { Clock } from './core/clock.js';
import { ChannelRegistry } from './connectors/registry.js';
import type { SimulatorConfig } from './connectors/simulator/config.js';
import {
  connectInProcessSimulator,
  connectRemoteSimulator,
  inProcessCredentials,
  inProcessTimeoutHoldMs,
} from './connectors/simulator/connection.js';
import type { InProcessSimulatorConfig } from './simulator/config.js';
import { startSimulator, type SimulatorHandle } from './simulator/server.js';
import { stateFileHolder } from './simulator/state-file.js';

/** The in-process bank's books, in the data directory (docs/simulator.md). */
export const SIMULATOR_STATE_FILE = 'simulator-state.jsonl';

/**
 * `serviceBaseUrl` is where the service will listen; when its port is only known after listen, call
 * setServiceBaseUrl then. An in-process bank is published in `publishDir` (the data directory) for the CLI,
 * and keeps its books there across restarts. When another running process holds those books, `warn` is
 * told: this process's bank then keeps its books in memory only, and knows nothing the other one opened.
 */
export async function startChannels(
  config: SimulatorConfig,
  bankConfig: InProcessSimulatorConfig,
  clock: Clock,
  serviceBaseUrl: string,
  publishDir: string | null = null,
  warn: (message: string) => void = () => undefined,
): Promise<ChannelRegistry<SimulatorHandle>> {
  if (config.url !== null) return new ChannelRegistry<SimulatorHandle>(connectRemoteSimulator(config, clock));
  const credentials = inProcessCredentials(config);
  const stateFile = publishDir === null ? undefined : path.join(publishDir, SIMULATOR_STATE_FILE);
  const bank = await startSimulator({
    ...credentials,
    // Replaced at once below by the callback path the registry knows.
    callbackUrl: serviceBaseUrl,
    clock,
    payoutDelayMs: bankConfig.payoutDelayMs,
    timeoutHoldMs: inProcessTimeoutHoldMs(config),
    keepProcessAlive: false,
    // The sandbox bank keeps its books beside the service's data, so a restart forgets nothing.
    stateFile,
  });
  if (stateFile !== undefined && !bank.keepsBooks) {
    const holder = stateFileHolder(stateFile);
    warn(
      `The sandbox bank's books in ${stateFile} are kept by ${holder === null ? 'another running bank' : `process ${holder}`}, ` +
        'another service on this DATA_DIR. This process\'s sandbox bank keeps its books in memory only: it knows no ' +
        'sandbox payment or payout made through the other, and forgets its own at exit. Stop the other service, ' +
        'or give every process SIMULATOR_URL (docs/simulator.md).',
    );
  }
  const registry = new ChannelRegistry(connectInProcessSimulator(bank, credentials, config, clock, publishDir));
  registry.setServiceBaseUrl(serviceBaseUrl);
  return registry;
}
