// The merchant's pages: what a merchant's own people see of their merchant, over the same services
// as the merchant API. Every page reads only the signed-in user's merchant (ownMerchantId), so another
// merchant's record is 404, as in the API. Roles (docs/console.md): owner everything; developer reads,
// resends webhooks and manages keys and webhook settings; viewer reads only.
import type { PaymentService } from '../../domain/payments/service.js';
import type { PayoutService } from '../../domain/payouts/service.js';
import type { Clock } from '../../core/clock.js';
import type { LedgerService } from '../../ledger/service.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import type { PeopleService } from '../../people/service.js';
import type { TeamService } from '../../people/team.js';
import type { ReportingService } from '../../reporting/service.js';
import type { Db } from '../../store/schema.js';
import type { WebhookConfig } from '../../webhooks/ssrf.js';
import type { WebhookService } from '../../webhooks/service.js';
import type { ConsolePages } from '../app.js';
import { merchantAuditPages } from './audit.js';
import { developerPages } from './developers.js';
import { merchantHomePages } from './home.js';
import { paymentPages } from './payments.js';
import { payoutPages } from './payouts.js';
import { statementPages } from './statement.js';
import { teamPages } from './team.js';
import { merchantWebhookPages } from './webhooks.js';

export interface MerchantPageOptions {
  readonly people: PeopleService;
  readonly team: TeamService;
  readonly merchants: MerchantService;
  readonly payments: Pick<PaymentService, 'status' | 'refund'>;
  readonly payouts: Pick<PayoutService, 'status'>;
  readonly reporting: Pick<ReportingService, 'listPayments' | 'listPayouts' | 'statement'>;
  readonly ledger: Pick<LedgerService, 'balances' | 'journal'>;
  readonly webhooks: Pick<WebhookService, 'listEvents' | 'getEvent' | 'resend' | 'servicePublicKeys'>;
  readonly webhookConfig: WebhookConfig;
  /** For the reads that have no service of their own: the home page's figures, the audit log, a refund's ledger ref. */
  readonly db: Db;
  readonly clock: Clock;
  /** Where invitation links point. */
  readonly publicBaseUrl: string;
}

export function merchantPages(options: MerchantPageOptions): ConsolePages {
  return (router) => {
    merchantHomePages(options)(router);
    paymentPages(options)(router);
    payoutPages(options)(router);
    statementPages(options)(router);
    merchantWebhookPages(options)(router);
    developerPages(options)(router);
    teamPages(options)(router);
    merchantAuditPages(options)(router);
  };
}
