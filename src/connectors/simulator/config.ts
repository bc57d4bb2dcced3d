// Settings of the sandbox upstream, from the environment: how the service reaches the simulator
// (SIMULATOR_*), and how a separately run simulator is started (SIM_*, see main.ts).
import { envInt as int, type Env } from '../../core/env.js';
import { DEFAULT_TIMEOUT_MS } from './flows.js';
import { DEFAULT_PAYOUT_DELAY_MS, DEFAULT_TIMEOUT_HOLD_MS } from '../../simulator/server.js';

export type SimulatorConfig = {
  /** Deadline of each request to the simulator. */
  readonly timeoutMs: number;
  /** In-process simulator only: how long a normal payout stays PROCESSING. */
  readonly payoutDelayMs: number;
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

export interface StandaloneSimulatorConfig {
  readonly host: string;
  readonly port: number;
  readonly apiKey: string;
  readonly callbackUrl: string;
  readonly callbackSecret: string;
  readonly payoutDelayMs: number;
  readonly timeoutHoldMs: number;
}

function required(env: Env, name: string, why: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`config: ${name} is required ${why}`);
  return value;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`config: ${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`config: ${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** SIMULATOR_URL, SIMULATOR_KEY, SIMULATOR_CALLBACK_SECRET, SIMULATOR_TIMEOUT_MS, SIMULATOR_PAYOUT_DELAY_MS. */
export function simulatorConfigFromEnv(env: Env): SimulatorConfig {
  const timing = {
    timeoutMs: int(env, 'SIMULATOR_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 50, 120_000),
    payoutDelayMs: int(env, 'SIMULATOR_PAYOUT_DELAY_MS', DEFAULT_PAYOUT_DELAY_MS, 0, 3_600_000),
  };
  if (!env.SIMULATOR_URL) {
    return { ...timing, url: null, apiKey: env.SIMULATOR_KEY || null, callbackSecret: env.SIMULATOR_CALLBACK_SECRET || null };
  }
  const why = 'when SIMULATOR_URL points at a separate simulator';
  return {
    ...timing,
    url: httpUrl('SIMULATOR_URL', env.SIMULATOR_URL),
    apiKey: required(env, 'SIMULATOR_KEY', why),
    callbackSecret: required(env, 'SIMULATOR_CALLBACK_SECRET', why),
  };
}

/** SIM_HOST, SIM_PORT, SIM_KEY, SIM_CALLBACK_URL, SIM_CALLBACK_SECRET, SIM_PAYOUT_DELAY_MS, SIM_TIMEOUT_HOLD_MS. */
export function standaloneConfigFromEnv(env: Env): StandaloneSimulatorConfig {
  const why = 'to run the simulator on its own';
  return {
    host: env.SIM_HOST || '127.0.0.1',
    port: int(env, 'SIM_PORT', 8090, 0, 65535),
    apiKey: required(env, 'SIM_KEY', why),
    callbackUrl: httpUrl('SIM_CALLBACK_URL', required(env, 'SIM_CALLBACK_URL', why)),
    callbackSecret: required(env, 'SIM_CALLBACK_SECRET', why),
    payoutDelayMs: int(env, 'SIM_PAYOUT_DELAY_MS', DEFAULT_PAYOUT_DELAY_MS, 0, 3_600_000),
    timeoutHoldMs: int(env, 'SIM_TIMEOUT_HOLD_MS', DEFAULT_TIMEOUT_HOLD_MS, 0, 600_000),
  };
}
