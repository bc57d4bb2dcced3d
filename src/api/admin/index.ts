// The operator API under /admin: every route needs the bearer token.
import type { FastifyPluginAsync } from 'fastify';
import { withAuditOrigin } from '../../audit/audit-context.js';
import { AppError } from '../../core/errors.js';
import { requireAdmin } from './auth.js';
import { adminMerchantRoutes, type AdminMerchantRouteOptions } from './merchants.js';
import { adminRateRoutes, type AdminRateRouteOptions } from './rates.js';
import { adminWebhookRoutes, type AdminWebhookRouteOptions } from './webhooks.js';
import { adminLedgerRoutes, type AdminLedgerRouteOptions } from './ledger.js';
import { adminPayoutRoutes, type AdminPayoutRouteOptions } from './payouts.js';
import { adminServiceKeyRoutes, type AdminServiceKeyRouteOptions } from './service-keys.js';
import { adminPayoutApprovalRoutes, type AdminPayoutApprovalRouteOptions } from './payout-approvals.js';
import { adminHeldMoneyRoutes, type AdminHeldMoneyRouteOptions } from './held-money.js';
import { adminAuditRoutes, type AdminAuditRouteOptions } from './audit.js';
import { adminConnectorRoutes, type AdminConnectorRouteOptions } from './connectors.js';
import { adminRecordRoutes, type AdminRecordRouteOptions } from './records.js';
import { adminReconciliationRoutes, type AdminReconciliationRouteOptions } from './reconciliation.js';
import { ADMIN_SECURITY, adminErrors } from '../schemas/responses.js';

/** What the operator routes use, all together, and the bearer token that guards them. */
export type AdminRouteOptions = AdminMerchantRouteOptions &
  AdminRateRouteOptions &
  AdminWebhookRouteOptions &
  AdminLedgerRouteOptions &
  AdminPayoutRouteOptions &
  AdminPayoutApprovalRouteOptions &
  AdminServiceKeyRouteOptions &
  AdminHeldMoneyRouteOptions &
  AdminAuditRouteOptions &
  AdminConnectorRouteOptions &
  AdminRecordRouteOptions &
  AdminReconciliationRouteOptions & { readonly adminToken: string };

export const adminRoutes: FastifyPluginAsync<AdminRouteOptions> = async (app, options) => {
  const { adminToken, merchants, webhookConfig, rates, webhooks, ledger, fees, payouts, held, db, connectorSettings, refreshRouting, payments, reconciliation } = options;
  // Declared where it is enforced: every operator route needs the bearer token and can answer its errors.
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    route.schema = { ...schema, security: ADMIN_SECURITY, response: { ...adminErrors, ...(schema.response as object | undefined) } };
  });
  app.addHook('onRequest', async (request) => requireAdmin(request, adminToken));
  // Every audit row an operator route writes carries the caller's address (audit/audit-context.ts).
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: unknown, request, reply) {
      return withAuditOrigin({ address: request.ip }, async () => handler.call(this as never, request, reply));
    };
  });
  app.addHook('preValidation', async (request) => {
    if (request.bodyError && request.rawBody && request.rawBody.length > 0) {
      throw new AppError('INVALID_JSON', request.bodyError);
    }
  });
  // Unknown /admin paths need the token too, so the operator API's routes cannot be probed.
  app.setNotFoundHandler(async (request) => {
    requireAdmin(request, adminToken);
    throw new AppError('NOT_FOUND', 'No such operator route.');
  });
  await app.register(adminMerchantRoutes, { merchants, webhookConfig });
  await app.register(adminRateRoutes, { rates });
  await app.register(adminWebhookRoutes, { webhooks });
  await app.register(adminLedgerRoutes, { ledger, fees, merchants });
  await app.register(adminPayoutRoutes, { payouts });
  await app.register(adminPayoutApprovalRoutes, { payouts });
  await app.register(adminServiceKeyRoutes, { webhooks });
  await app.register(adminHeldMoneyRoutes, { held });
  await app.register(adminAuditRoutes, { db });
  await app.register(adminConnectorRoutes, { connectorSettings, refreshRouting });
  await app.register(adminRecordRoutes, { payments, payouts });
  await app.register(adminReconciliationRoutes, { reconciliation });
};
