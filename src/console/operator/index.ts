// The operator's pages: what the operator API (/admin) offers, over the same services. Each file is
// one area; support users see every page read-only (no buttons, and the actions answer 403).
import type { Clock } from '../../core/clock.js';
import type { ConnectorSettings } from '../../routing/connector-settings.js';
import type { FeeService } from '../../domain/fees.js';
import type { HeldMoneyService } from '../../domain/payments/held-money.js';
import type { PayoutService } from '../../domain/payouts/service.js';
import type { RateService } from '../../domain/rates.js';
import type { LedgerService } from '../../ledger/service.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import type { PeopleService } from '../../people/service.js';
import type { Db } from '../../store/schema.js';
import type { WebhookConfig } from '../../webhooks/ssrf.js';
import type { WebhookService } from '../../webhooks/service.js';
import type { ConsolePages } from '../app.js';
import { operatorAuditPages } from './audit.js';
import { operatorHeldPages } from './held.js';
import { operatorLedgerPages } from './ledger.js';
import { operatorMerchantPages } from './merchants.js';
import { operatorOverviewPages } from './overview.js';
import { operatorPayoutPages } from './payouts.js';
import { operatorRatePages } from './rates.js';
import { operatorReconciliationPages, type ReconciliationPagesService } from './reconciliation.js';
import { operatorUserPages } from './users.js';
import { operatorWebhookPages } from './webhooks.js';

export interface OperatorPageOptions {
  readonly people: PeopleService;
  readonly merchants: MerchantService;
  readonly webhookConfig: WebhookConfig;
  readonly rates: RateService;
  readonly ledger: LedgerService;
  readonly fees: FeeService;
  readonly payouts: PayoutService;
  readonly held: HeldMoneyService;
  readonly webhooks: WebhookService;
  /** For the audit log's reads (audit/audit-log.ts), as the operator API's audit route. */
  readonly db: Db;
  readonly connectorSettings: ConnectorSettings;
  readonly refreshRouting: () => Promise<void> | void;
  /** Where invitation links point. */
  readonly publicBaseUrl: string;
  /** The service's clock: "recent" on the pages means recent in business time. */
  readonly clock: Clock;
  /** Statements against our records (the admin API's reconciliation service). */
  readonly reconciliation: ReconciliationPagesService;
}

export function operatorPages(options: OperatorPageOptions): ConsolePages {
  return (router) => {
    for (const group of [operatorOverviewPages, operatorMerchantPages, operatorRatePages, operatorLedgerPages, operatorPayoutPages, operatorReconciliationPages, operatorHeldPages, operatorWebhookPages, operatorAuditPages, operatorUserPages]) {
      group(options)(router);
    }
  };
}
