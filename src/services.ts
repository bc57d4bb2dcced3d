// The service container: everything main.ts builds once and hands to the HTTP app, the workers
// and the CLI. Modules receive what they need from here instead of constructing their own.
import type { ConnectorMetrics } from './routing/connector-metrics.js';
import type { ConnectorSettings } from './routing/connector-settings.js';
import type { ConnectorRouter } from './routing/router.js';
import type { SimulatorHandle } from './simulator/server.js';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import type { WorkSignal } from './core/worker.js';
import type { FeeService } from './domain/fees.js';
import type { BankDirectory } from './domain/banks/upstream-banks.js';
import type { MerchantService } from './merchants/merchant-service.js';
import type { PaymentService } from './domain/payments/service.js';
import type { PayoutService } from './domain/payouts/service.js';
import type { PeopleService } from './people/service.js';
import type { RateService } from './domain/rates.js';
import type { SecretBox } from './core/secrets.js';
import type { ReportingService } from './reporting/service.js';
import type { LedgerService } from './ledger/service.js';
import type { ReconciliationService } from './reconciliation/service.js';
import type { Store } from './store/db.js';
import type { WebhookService } from './webhooks/service.js';

export interface Services {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly box: SecretBox;
  /** The operator API's bearer token (from ADMIN_TOKEN or generated on first start). */
  readonly adminToken: string;
  readonly merchants: MerchantService;
  readonly rates: RateService;
  readonly ledger: LedgerService;
  readonly fees: FeeService;
  readonly webhooks: WebhookService;
  /** The upstream channels: the bank simulator for sandbox merchants (docs/simulator.md), the routed connectors for live ones (docs/connectors.md). */
  readonly channels: ConnectorRouter<SimulatorHandle>;
  /** The operator's connector credentials, base URLs and routes. */
  readonly connectorSettings: ConnectorSettings;
  readonly connectorMetrics: ConnectorMetrics;
  /** The bank lists of payout/bankCode (a live merchant's routed connector's own list where it has one). */
  readonly banks: BankDirectory;
  readonly payments: PaymentService;
  readonly payouts: PayoutService;
  /** Upstream statements compared with our records (docs/reconciliation.md). */
  readonly reconciliation: ReconciliationService;
  /** The console's users, sessions, two-factor sign-in and invitations (docs/console.md). */
  readonly people: PeopleService;
  /** Lists, statement, settlements and CSV exports of a merchant's own money (docs/reporting.md). */
  readonly reporting: ReportingService;
  /** Told whenever a state-changing request was answered: wakes background jobs that were backing off. */
  readonly activity: WorkSignal;
}
