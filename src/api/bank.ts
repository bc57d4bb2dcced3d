// payout/bankCode: the banks a payout can be sent to, per currency.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicBanksFor, type PublicBankEntry } from '../domain/banks/index.js';
import { ok, SuccessEnvelope } from '../http/envelope.js';
import { CurrencyBody, errorResponses, MERCHANT_SECURITY, supportedCurrency } from './common.js';

const BankEntry = Type.Object({ bankCode: Type.String(), bankName: Type.String() });

export const bankRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/payout/bankCode',
    {
      schema: {
        tags: ['payout'],
        summary: 'Bank codes and names for payouts in one currency',
        description:
          'IDR: 5-digit codes of banks, regional development banks and e-wallets. NGN: CBN/NIP codes. ' +
          'EGP: codes of Egyptian banks. INR: IFSC prefixes (a payout carries the full 11-character IFSC).',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(Type.Array(BankEntry)), ...errorResponses },
      },
    },
    // The lists are frozen and shared; the serializer only reads them.
    async (request) => ok(publicBanksFor(supportedCurrency(request.body.currency)) as PublicBankEntry[]),
  );
};
