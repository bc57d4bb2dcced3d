// Every signed merchant route, registered under /v1/api behind the signature check.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.js';
import { accountRoutes } from './account.js';
import { bankRoutes } from './bank.js';
import { paymentRoutes } from './payment.js';
import { payoutRoutes } from './payout.js';
import { sandboxRoutes } from './sandbox.js';
import { merchantWebhookRoutes } from './webhook.js';

export const merchantRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(accountRoutes, { services });
  await app.register(bankRoutes);
  await app.register(paymentRoutes, { services });
  await app.register(payoutRoutes, { services });
  await app.register(sandboxRoutes, { services });
  await app.register(merchantWebhookRoutes, { services });
};
