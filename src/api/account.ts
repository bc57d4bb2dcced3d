// account/balance and account/usdt/rate.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { microsToNumber, type RateService } from '../domain/rates.js';
import { isoFromMs } from '../core/clock.js';
import { ok } from '../http/envelope.js';
import { balanceView } from '../ledger/queries.js';
import type { LedgerService } from '../ledger/service.js';
import { merchantOf, DATABASE_READ } from './merchant-request.js';
import { CurrencyBody } from './schemas/currency.js';
import { Balance, UsdtRate } from './schemas/payout.js';
import { errorResponse, MERCHANT_SECURITY, merchantErrors, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

export interface AccountRouteOptions {
  readonly ledger: Pick<LedgerService, 'balances'>;
  readonly rates: Pick<RateService, 'get'>;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, { ledger, rates }) => {
  app.post(
    '/account/balance',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'accountBalance',
        tags: ['account'],
        summary: 'Balances of one currency',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(ref(Balance), 'The five balances, from the ledger.'), ...merchantErrors },
      },
    },
    async (request) => {
      const { currency } = request.body;
      return ok(balanceView(currency, await ledger.balances(merchantOf(request).id, currency)));
    },
  );

  app.post(
    '/account/usdt/rate',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'accountUsdtRate',
        tags: ['account'],
        summary: 'Current USDT deposit and withdraw rates for one currency',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: {
          200: SuccessEnvelope(ref(UsdtRate), 'The current rates.'),
          ...merchantErrors,
          404: errorResponse('NOT_FOUND: the operator has not set a rate for this currency yet.'),
        },
      },
    },
    async (request) => {
      const rate = await rates.get(request.body.currency);
      return ok({
        currency: rate.currency,
        deposit: microsToNumber(rate.depositMicros),
        withdraw: microsToNumber(rate.withdrawMicros),
        updatedAt: isoFromMs(rate.setAtMs),
      });
    },
  );
};
