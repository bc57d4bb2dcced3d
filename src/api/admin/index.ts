// The operator API under /admin: every route needs the bearer token.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { AppError } from '../../core/errors.js';
import { requireAdmin } from './auth.js';
import { adminMerchantRoutes } from './merchants.js';
import { adminRateRoutes } from './rates.js';
import { adminWebhookRoutes } from './webhooks.js';
import { adminLedgerRoutes } from '../admin-ledger.js';
import { adminPayoutRoutes } from './payouts.js';
import { adminHeldMoneyRoutes } from './held-money.js';
import { adminAuditRoutes } from './audit.js';
import { ADMIN_SECURITY, adminErrors } from '../schemas/responses.js';

export const adminRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  // Declared where it is enforced: every operator route needs the bearer token and can answer its errors.
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    route.schema = { ...schema, security: ADMIN_SECURITY, response: { ...adminErrors, ...(schema.response as object | undefined) } };
  });
  app.addHook('onRequest', async (request) => requireAdmin(request, services.adminToken));
  app.addHook('preValidation', async (request) => {
    if (request.bodyError && request.rawBody && request.rawBody.length > 0) {
      throw new AppError('INVALID_JSON', request.bodyError);
    }
  });
  // Unknown /admin paths need the token too, so the operator API's routes cannot be probed.
  app.setNotFoundHandler(async (request) => {
    requireAdmin(request, services.adminToken);
    throw new AppError('NOT_FOUND', 'No such operator route.');
  });
  await app.register(adminMerchantRoutes, { services });
  await app.register(adminRateRoutes, { services });
  await app.register(adminWebhookRoutes, { services });
  await app.register(adminLedgerRoutes, { services });
  await app.register(adminPayoutRoutes, { services });
  await app.register(adminHeldMoneyRoutes, { services });
  await app.register(adminAuditRoutes, { services });
};
