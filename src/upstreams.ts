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

/** The in-process bank's books, in the data directory (docs/simulator.md). */
export const SIMULATOR_STATE_FILE = 'simulator-state.jsonl';

/**
 * `serviceBaseUrl` is where the service will listen; when its port is only known after listen, call
 * setServiceBaseUrl then. An in-process bank is published in `publishDir` (the data directory) for the CLI,
 * and keeps its books there across restarts.
 */
export async function startChannels(
  config: SimulatorConfig,
  bankConfig: InProcessSimulatorConfig,
  clock: Clock,
  serviceBaseUrl: string,
  publishDir: string | null = null,
): Promise<ChannelRegistry<SimulatorHandle>> {
  if (config.url !== null) return new ChannelRegistry<SimulatorHandle>(connectRemoteSimulator(config, clock));
  const credentials = inProcessCredentials(config);
  const bank = await startSimulator({
    ...credentials,
    // Replaced at once below by the callback path the registry knows.
    callbackUrl: serviceBaseUrl,
    clock,
    payoutDelayMs: bankConfig.payoutDelayMs,
    timeoutHoldMs: inProcessTimeoutHoldMs(config),
    keepProcessAlive: false,
    // The sandbox bank keeps its books beside the service's data, so a restart forgets nothing.
    stateFile: publishDir === null ? undefined : path.join(publishDir, SIMULATOR_STATE_FILE),
  });
  const registry = new ChannelRegistry(connectInProcessSimulator(bank, credentials, config, clock, publishDir));
  registry.setServiceBaseUrl(serviceBaseUrl);
  return registry;
}
