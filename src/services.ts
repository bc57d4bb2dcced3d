// The service container: everything main.ts builds once and hands to the HTTP app, the workers
// and the CLI. Modules receive what they need from here instead of constructing their own.
import type { Config } from './config.js';
import type { Clock } from './domain/clock.js';
import type { MerchantService } from './domain/merchants.js';
import type { RateService } from './domain/rates.js';
import type { SecretBox } from './domain/secrets.js';
import type { Store } from './store/db.js';

export interface Services {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly box: SecretBox;
  /** The operator API's bearer token (from ADMIN_TOKEN or generated on first start). */
  readonly adminToken: string;
  readonly merchants: MerchantService;
  readonly rates: RateService;
}
