// How the service reaches the simulated bank (SIMULATOR_*): a separate one at SIMULATOR_URL with its
// key and callback secret, or one the service starts in its own process.
import { envHttpUrl, envInt as int, envRequired as required, type Env } from '../../core/env.js';
import { DEFAULT_TIMEOUT_MS } from './flows.js';

export type SimulatorConfig = {
  /** Deadline of each request to the simulator. */
  readonly timeoutMs: number;
} & (
  | {
      /** null starts a simulator inside the service on a random loopback port. */
      readonly url: null;
      /** The x-sim-key; generated per start when not given. */
      readonly apiKey: string | null;
      /** The callback HMAC secret; generated per start when not given. */
      readonly callbackSecret: string | null;
    }
  | {
      /** A separately running simulator, which has its own key and secret. */
      readonly url: string;
      readonly apiKey: string;
      readonly callbackSecret: string;
    }
);

/** SIMULATOR_URL, SIMULATOR_KEY, SIMULATOR_CALLBACK_SECRET, SIMULATOR_TIMEOUT_MS. */
export function simulatorConfigFromEnv(env: Env): SimulatorConfig {
  const timeoutMs = int(env, 'SIMULATOR_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 50, 120_000);
  if (!env.SIMULATOR_URL) {
    return { timeoutMs, url: null, apiKey: env.SIMULATOR_KEY || null, callbackSecret: env.SIMULATOR_CALLBACK_SECRET || null };
  }
  const why = 'when SIMULATOR_URL points at a separate simulator';
  return {
    timeoutMs,
    url: envHttpUrl('SIMULATOR_URL', env.SIMULATOR_URL),
    apiKey: required(env, 'SIMULATOR_KEY', why),
    callbackSecret: required(env, 'SIMULATOR_CALLBACK_SECRET', why),
  };
}
