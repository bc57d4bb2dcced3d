// account/balance and account/usdt/rate.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { microsToNumber } from '../domain/rates.js';
import { isoFromMs } from '../domain/clock.js';
import { toMajor } from '../domain/money.js';
import { ok, SuccessEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';
import { CurrencyBody, errorResponses, merchantOf, MERCHANT_SECURITY, supportedCurrency } from './common.js';

const Balance = Type.Object({
  currency: Type.String(),
  available: Type.Number(),
  pending: Type.Number(),
  held: Type.Number(),
  credit: Type.Number(),
  security: Type.Number(),
});

const UsdtRate = Type.Object({
  currency: Type.String(),
  deposit: Type.Number({ description: 'Local currency credited per USDT deposited (reference less the deposit spread).' }),
  withdraw: Type.Number({ description: 'Local currency charged per USDT withdrawn (reference plus the withdraw spread).' }),
  updatedAt: Type.String({ description: 'When the operator set this rate (ISO-8601 UTC).' }),
});

export const accountRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/account/balance',
    {
      config: { changesState: false },
      schema: {
        tags: ['account'],
        summary: 'Balances of one currency',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(Balance), ...errorResponses },
      },
    },
    async (request) => {
      const currency = supportedCurrency(request.body.currency);
      const b = await services.ledger.balances(merchantOf(request).id, currency);
      return ok({
        currency,
        available: toMajor(b.available),
        pending: toMajor(b.pending),
        held: toMajor(b.held),
        credit: toMajor(b.credit),
        security: toMajor(b.security),
      });
    },
  );

  app.post(
    '/account/usdt/rate',
    {
      config: { changesState: false },
      schema: {
        tags: ['account'],
        summary: 'Current USDT deposit and withdraw rates for one currency',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(UsdtRate), ...errorResponses },
      },
    },
    async (request) => {
      const rate = await services.rates.get(supportedCurrency(request.body.currency));
      return ok({
        currency: rate.currency,
        deposit: microsToNumber(rate.depositMicros),
        withdraw: microsToNumber(rate.withdrawMicros),
        updatedAt: isoFromMs(rate.setAtMs),
      });
    },
  );
};
