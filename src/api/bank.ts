// payout/bankCode: the banks a payout can be sent to, per currency.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicBanksFor, type PublicBankEntry } from '../domain/banks/index.js';
import { ok } from '../http/envelope.js';
import type { BankDirectory } from '../domain/banks/upstream-banks.js';
import { merchantOf } from './merchant-request.js';
import type { Currency } from '../core/money.js';
import { CurrencyBody } from './schemas/currency.js';
import { BankEntry } from './schemas/payout.js';
import { MERCHANT_SECURITY, merchantErrors, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

// The lists never change while the service runs, so each currency's whole answer is serialized once
// (rebuilding a 120-entry envelope per request was a measurable share of this route's CPU), and kept
// as UTF-8 bytes: a string of about 7 KB would be measured and encoded again for every answer.
const serialized = new Map<Currency, Buffer>();
function serializedBanks(currency: Currency): Buffer {
  let body = serialized.get(currency);
  if (body === undefined) {
    body = Buffer.from(JSON.stringify(ok(publicBanksFor(currency) as PublicBankEntry[])), 'utf8');
    serialized.set(currency, body);
  }
  return body;
}

export interface BankRouteOptions {
  /** Live merchants: the routed connector's own list where it publishes one (e.g. Paystack for NGN). */
  readonly banks: Pick<BankDirectory, 'banksFor'>;
}

export const bankRoutes: FastifyPluginAsyncTypebox<BankRouteOptions> = async (app, { banks }) => {
  app.post(
    '/payout/bankCode',
    {
      config: { changesState: false, keyScope: 'read', movesMoney: false },
      schema: {
        operationId: 'payoutBankCodes',
        tags: ['payout'],
        summary: 'Bank codes and names for payouts in one currency',
        description:
          'IDR: 5-digit codes of banks, regional development banks and e-wallets. NGN: CBN/NIP codes. ' +
          'EGP: codes of Egyptian banks. INR: IFSC prefixes (a payout carries the full 11-character IFSC). ' +
          'A live merchant whose payouts go through a provider that publishes its own list (NGN on Paystack) gets that list.',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(Type.Array(ref(BankEntry)), 'The banks of the currency.'), ...merchantErrors },
      },
    },
    async (request, reply) => {
      const merchant = merchantOf(request);
      if (merchant.mode === 'live') return ok((await banks.banksFor(merchant, request.body.currency)) as PublicBankEntry[]);
      const body = serializedBanks(request.body.currency);
      // Bytes are sent as they are: the response schema above documents them, the cache already matches it.
      return (reply as unknown as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );
};
