// Every signed merchant route, registered under /v1/api behind the signature check.
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes, type AccountRouteOptions } from './account.js';
import { bankRoutes, type BankRouteOptions } from './bank.js';
import { paymentRoutes, type PaymentRouteOptions } from './payment.js';
import { payoutRoutes, type PayoutRouteOptions } from './payout.js';
import { payoutBatchRoutes, type PayoutBatchRouteOptions } from './payout-batch.js';
import { reportingRoutes, type ReportingRouteOptions } from './reporting.js';
import { sandboxRoutes, type SandboxRouteOptions } from './sandbox.js';
import { merchantWebhookRoutes, type MerchantWebhookRouteOptions } from './webhook.js';

/** What the merchant routes use, all together. */
export type MerchantRouteOptions = AccountRouteOptions &
  BankRouteOptions & PaymentRouteOptions & PayoutRouteOptions & PayoutBatchRouteOptions & SandboxRouteOptions & MerchantWebhookRouteOptions & ReportingRouteOptions;

export const merchantRoutes: FastifyPluginAsync<MerchantRouteOptions> = async (app, { ledger, rates, banks, payments, payouts, webhooks, reporting, listRecords }) => {
  await app.register(accountRoutes, { ledger, rates });
  await app.register(bankRoutes, { banks });
  await app.register(paymentRoutes, { payments });
  await app.register(payoutRoutes, { payouts });
  await app.register(payoutBatchRoutes, { payouts });
  await app.register(sandboxRoutes, { payments });
  await app.register(merchantWebhookRoutes, { webhooks });
  await app.register(reportingRoutes, { reporting, listRecords });
};
