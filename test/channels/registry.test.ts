import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelRegistry, callbackPath } from '../../src/connectors/registry.js';
import { simulatorConfigFromEnv } from '../../src/connectors/simulator/config.js';
import { inProcessConfigFromEnv, standaloneConfigFromEnv } from '../../src/simulator/config.js';
import { startChannels } from '../../src/upstreams.js';
import { startSimulator } from '../../src/simulator/server.js';
import { loadConfig, MAX_UPSTREAM_TIMEOUT_MS } from '../../src/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { PAYOUT_LEASE_MS } from '../../src/domain/payouts/payout-limits.js';
import { AppError } from '../../src/core/errors.js';
import { CallbackReceiver, collectionRequest, eventually } from './harness.js';

describe('ChannelRegistry with the in-process simulator', () => {
  const clock = new ManualClock(Date.UTC(2025, 5, 1, 12, 0, 0));
  const receiver = new CallbackReceiver();
  let registry: ChannelRegistry;
  beforeAll(async () => {
    await receiver.start();
    const env = { SIMULATOR_TIMEOUT_MS: '2000', SIMULATOR_PAYOUT_DELAY_MS: '0' };
    // The service's port is not known yet (port 0); the real base URL is set after "listen".
    registry = await startChannels(simulatorConfigFromEnv(env), inProcessConfigFromEnv(env), clock, 'http://127.0.0.1:0');
    registry.setServiceBaseUrl(new URL(receiver.url).origin);
  });
  afterAll(async () => {
    await registry.close();
    await receiver.close();
  });

  it('gives sandbox merchants the simulator for every currency and method', () => {
    const simulator = registry.byName('simulator');
    expect(registry.channelFor({ mode: 'sandbox' }, 'INR', 'NATIVE')).toBe(simulator);
    expect(registry.channelFor({ mode: 'sandbox' }, 'IDR', 'QRIS')).toBe(simulator);
    expect(registry.sandboxPayer()).toBe(simulator);
    expect(registry.simulator.server).not.toBeNull();
  });

  it('refuses live merchants with METHOD_NOT_ENABLED: no live upstream exists yet', () => {
    const refusal = (() => {
      try {
        registry.channelFor({ mode: 'live' }, 'NGN', 'TRANSFER');
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ reason: 'METHOD_NOT_ENABLED', detail: 'No live channel is configured for NGN TRANSFER.' });
  });

  it('finds a callback channel by name, and NOT_FOUND for any other', () => {
    expect(registry.byName('simulator').name).toBe('simulator');
    expect(() => registry.byName('acme-bank')).toThrow(expect.objectContaining({ reason: 'NOT_FOUND' }));
  });

  it('sends callbacks to <service>/v1/callbacks/simulator, verifiable by the channel found by name', async () => {
    expect(callbackPath('simulator')).toBe('/v1/callbacks/simulator');
    const channel = registry.channelFor({ mode: 'sandbox' }, 'EGP', 'WALLET');
    const request = collectionRequest(clock, 'EGP', 'WALLET', 50_000n);
    await channel.createCollection(request);
    await registry.sandboxPayer().completeCollection(request.transactionRef, 'Success');
    const [callback] = await eventually(() => receiver.about(request.transactionRef).length > 0 && receiver.about(request.transactionRef));
    expect(registry.byName('simulator').parseCallback(callback!.headers, callback!.rawBody)).toMatchObject({
      kind: 'collection',
      transactionRef: request.transactionRef,
      state: { status: 'PAID' },
    });
  });
});

describe('ChannelRegistry with a separate simulator (SIMULATOR_URL)', () => {
  it('talks to it with the configured key and secret and starts none of its own', async () => {
    const clock = new ManualClock();
    const simulator = await startSimulator({ apiKey: 'k-remote', callbackUrl: 'http://127.0.0.1:9/cb', callbackSecret: 's-remote', clock, payoutDelayMs: 0 });
    const config = simulatorConfigFromEnv({ SIMULATOR_URL: simulator.url, SIMULATOR_KEY: 'k-remote', SIMULATOR_CALLBACK_SECRET: 's-remote' });
    const registry = await startChannels(config, inProcessConfigFromEnv({}), clock, 'http://127.0.0.1:8080');
    try {
      expect(registry.simulator.server).toBeNull();
      const channel = registry.channelFor({ mode: 'sandbox' }, 'INR', 'BANK');
      const state = await channel.submitPayout({
        transactionRef: 'ref-remote-1',
        currency: 'INR',
        method: 'BANK',
        amountMinor: 10_000n,
        bankCode: 'HDFC0001234',
        account: '50100012345678',
        name: 'Ravi',
        phone: '+919812345678',
        email: 'r@example.com',
      });
      expect(state.status).toBe('SUCCESS');
      expect(simulator.stats.transfersFor('ref-remote-1')).toBe(1);
    } finally {
      await registry.close();
      await simulator.close();
    }
  });
});

describe('simulator configuration', () => {
  it('defaults to an in-process simulator with a 10 s timeout and 3 s payouts', () => {
    expect(simulatorConfigFromEnv({})).toEqual({ url: null, apiKey: null, callbackSecret: null, timeoutMs: 10_000 });
    expect(inProcessConfigFromEnv({})).toEqual({ payoutDelayMs: 3_000 });
  });

  it('requires the key and callback secret of a separate simulator', () => {
    expect(() => simulatorConfigFromEnv({ SIMULATOR_URL: 'http://127.0.0.1:8090' })).toThrow(/SIMULATOR_KEY/);
    expect(() => simulatorConfigFromEnv({ SIMULATOR_URL: 'http://127.0.0.1:8090', SIMULATOR_KEY: 'k' })).toThrow(/SIMULATOR_CALLBACK_SECRET/);
    expect(() => simulatorConfigFromEnv({ SIMULATOR_URL: 'ftp://x' })).toThrow(/http/);
    expect(() => simulatorConfigFromEnv({ SIMULATOR_TIMEOUT_MS: 'soon' })).toThrow(/SIMULATOR_TIMEOUT_MS/);
  });

  it('refuses an upstream deadline the payout lease could not cover, so no second worker takes a row mid-call', () => {
    expect(() => loadConfig({ SIMULATOR_TIMEOUT_MS: String(PAYOUT_LEASE_MS) })).toThrow(/SIMULATOR_TIMEOUT_MS must be at most/);
    expect(() => loadConfig({ SIMULATOR_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS + 1) })).toThrow(/payout lease/);
    expect(loadConfig({ SIMULATOR_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS) }).simulator.timeoutMs).toBe(MAX_UPSTREAM_TIMEOUT_MS);
  });

  it('requires SIM_KEY, SIM_CALLBACK_URL and SIM_CALLBACK_SECRET to run on its own', () => {
    expect(() => standaloneConfigFromEnv({})).toThrow(/SIM_KEY/);
    expect(standaloneConfigFromEnv({ SIM_KEY: 'k', SIM_CALLBACK_URL: 'http://127.0.0.1:8080/v1/callbacks/simulator', SIM_CALLBACK_SECRET: 's' })).toMatchObject({
      host: '127.0.0.1',
      port: 8090,
      payoutDelayMs: 3_000,
      timeoutHoldMs: 30_000,
    });
  });
});

describe('the simulator as its own process', () => {
  it('starts from main.ts, answers /healthz, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/main.ts'], {
      env: { ...process.env, SIM_PORT: '0', SIM_KEY: 'k', SIM_CALLBACK_URL: 'http://127.0.0.1:9/cb', SIM_CALLBACK_SECRET: 's' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await eventually(() => /Bank simulator on (http:\/\/\S+),/.exec(output)?.[1], 20_000);
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect((await fetch(`${url}/v1/payouts/x`)).status).toBe(401);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
