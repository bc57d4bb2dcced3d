// Every signed merchant route, registered under /v1/api behind the signature check.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.js';
import { accountRoutes } from './account.js';
import { bankRoutes } from './bank.js';

export const merchantRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(accountRoutes, { services });
  await app.register(bankRoutes);
};
