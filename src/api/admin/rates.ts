// Operator API for USDT reference rates and spreads.
import { Type } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../core/errors.js';
import { CURRENCIES } from '../../core/money.js';
import { microsToNumber, parseRateMicros, type RateService, type UsdtRate } from '../../domain/rates.js';
import { isoFromMs } from '../../core/clock.js';
import { ok } from '../../http/envelope.js';
import { RateSetting } from '../schemas/admin.js';
import { SuccessEnvelope } from '../schemas/responses.js';
import { ref, StringEnum } from '../schemas/shared.js';
import { ADMIN_ACTOR } from './auth.js';

export const rateView = (rate: UsdtRate) => ({
  currency: rate.currency,
  reference: microsToNumber(rate.referenceMicros),
  depositSpreadBps: rate.depositSpreadBps,
  withdrawSpreadBps: rate.withdrawSpreadBps,
  deposit: microsToNumber(rate.depositMicros),
  withdraw: microsToNumber(rate.withdrawMicros),
  setAt: isoFromMs(rate.setAtMs),
  setBy: rate.setBy,
});

export const RateBody = Type.Object(
  {
    reference: Text({ description: 'Local currency per USDT as a decimal string, up to 6 decimals', examples: ['88.25'] }),
    depositSpreadBps: Type.Integer({ minimum: 0, maximum: 5000 }),
    withdrawSpreadBps: Type.Integer({ minimum: 0, maximum: 5000 }),
  },
  { additionalProperties: false },
);

export interface AdminRateRouteOptions {
  readonly rates: Pick<RateService, 'get' | 'set'>;
}

export const adminRateRoutes: FastifyPluginAsyncTypebox<AdminRateRouteOptions> = async (app, { rates }) => {
  app.put(
    '/rates/:currency',
    {
      schema: {
        operationId: 'adminSetRate',
        tags: ['admin'],
        summary: 'Set the USDT reference rate and spreads',
        params: Type.Object({ currency: StringEnum(CURRENCIES) }),
        body: RateBody,
        response: { 200: SuccessEnvelope(ref(RateSetting), 'The rate now in force.') },
      },
    },
    async (request) => {
      const { currency } = request.params;
      const micros = parseRateMicros(request.body.reference);
      if (micros === null) {
        throw new AppError('VALIDATION_FAILED', 'reference must be a positive decimal with at most 6 decimals.', [
          { field: 'reference', problem: 'must be a positive decimal string with at most 6 decimals' },
        ]);
      }
      const rate = await rates.set(currency, micros, request.body.depositSpreadBps, request.body.withdrawSpreadBps, ADMIN_ACTOR);
      return ok(rateView(rate));
    },
  );

  const listSchema = {
    operationId: 'adminListRates',
    tags: ['admin'],
    summary: 'All USDT rates',
    response: { 200: SuccessEnvelope(Type.Array(ref(RateSetting)), 'The rate of every currency that has one.') },
  };
  app.get('/rates', { schema: listSchema }, async () => {
    const all = [];
    for (const currency of CURRENCIES) {
      try {
        all.push(rateView(await rates.get(currency)));
      } catch (error) {
        if (!(error instanceof AppError && error.reason === 'NOT_FOUND')) throw error;
      }
    }
    return ok(all);
  });
};
