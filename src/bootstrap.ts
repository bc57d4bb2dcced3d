// Builds the service container from configuration: secrets, store (migrated), domain services.
// Shared by the server (main.ts) and the operator CLI so both see the same wiring.
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import { MerchantService } from './domain/merchants.js';
import { RateService } from './domain/rates.js';
import { loadOrCreateLocalSecrets, SecretBox } from './domain/secrets.js';
import type { Services } from './services.js';
import { openStore } from './store/db.js';

export async function buildServices(config: Config, clock: Clock = systemClock): Promise<Services> {
  const local = config.adminToken && config.secretKey ? null : loadOrCreateLocalSecrets(config.dataDir);
  const adminToken = config.adminToken ?? local!.adminToken;
  const box = new SecretBox(config.secretKey ?? local!.secretKey);
  const store = await openStore(config);
  const merchants = new MerchantService(store.db, box, clock, {
    rateLimitPerSecond: config.defaultRateLimitPerSecond,
    credentialCacheMs: config.credentialCacheMs,
  });
  return {
    config,
    store,
    clock,
    box,
    adminToken,
    merchants,
    rates: new RateService(store.db, clock),
  };
}
