// The simulated bank's own settings: SIM_* when it runs as its own program (main.ts), and
// SIMULATOR_PAYOUT_DELAY_MS when the service starts it in-process.
import { envHttpUrl, envInt as int, envRequired as required, type Env } from '../core/env.js';
import { DEFAULT_PAYOUT_DELAY_MS, DEFAULT_TIMEOUT_HOLD_MS } from './server.js';

export interface StandaloneSimulatorConfig {
  readonly host: string;
  readonly port: number;
  readonly apiKey: string;
  readonly callbackUrl: string;
  readonly callbackSecret: string;
  readonly payoutDelayMs: number;
  readonly timeoutHoldMs: number;
  /** SIM_STATE_FILE: where the books are kept across restarts; undefined keeps them in memory only. */
  readonly stateFile: string | undefined;
}

export interface InProcessSimulatorConfig {
  /** How long a normal payout stays PROCESSING. */
  readonly payoutDelayMs: number;
}

/** SIMULATOR_PAYOUT_DELAY_MS. */
export function inProcessConfigFromEnv(env: Env): InProcessSimulatorConfig {
  return { payoutDelayMs: int(env, 'SIMULATOR_PAYOUT_DELAY_MS', DEFAULT_PAYOUT_DELAY_MS, 0, 3_600_000) };
}

/** SIM_HOST, SIM_PORT, SIM_KEY, SIM_CALLBACK_URL, SIM_CALLBACK_SECRET, SIM_PAYOUT_DELAY_MS, SIM_TIMEOUT_HOLD_MS, SIM_STATE_FILE. */
export function standaloneConfigFromEnv(env: Env): StandaloneSimulatorConfig {
  const why = 'to run the simulator on its own';
  return {
    host: env.SIM_HOST || '127.0.0.1',
    port: int(env, 'SIM_PORT', 8090, 0, 65535),
    apiKey: required(env, 'SIM_KEY', why),
    callbackUrl: envHttpUrl('SIM_CALLBACK_URL', required(env, 'SIM_CALLBACK_URL', why)),
    callbackSecret: required(env, 'SIM_CALLBACK_SECRET', why),
    payoutDelayMs: int(env, 'SIM_PAYOUT_DELAY_MS', DEFAULT_PAYOUT_DELAY_MS, 0, 3_600_000),
    timeoutHoldMs: int(env, 'SIM_TIMEOUT_HOLD_MS', DEFAULT_TIMEOUT_HOLD_MS, 0, 600_000),
    stateFile: env.SIM_STATE_FILE || undefined,
  };
}
