// payout/initiate, payout/status (and its alias payout/fetch). payout/bankCode lives in bank.ts.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  MERCHANT_REF_PATTERN,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PHONE_PATTERN,
  URL_MAX_LENGTH,
} from '../domain/payments/rules.js';
import { ACCOUNT_MAX_LENGTH, BANK_CODE_MAX_LENGTH } from '../domain/payouts/rules.js';
import { ErrorEnvelope, ok, SuccessEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';
import { CurrencyField, errorResponses, merchantOf, MERCHANT_SECURITY } from './common.js';

const EXAMPLE_REF = '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b';
const PAYOUT_STATUS = 'Initiated, Processing, Success, Failed';

const MerchantRef = Text({ pattern: MERCHANT_REF_PATTERN, description: 'Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payouts.', examples: ['wd-10023'] });
const TransactionRef = Text({ minLength: 1, maxLength: 64, description: 'The reference the service assigned (UUID v7).', examples: [EXAMPLE_REF] });

const InitiateBody = Type.Object(
  {
    merchantRef: MerchantRef,
    currency: CurrencyField,
    method: Text({
      minLength: 1,
      maxLength: 32,
      description: 'INR: BANK (IMPS) or UPI; NGN: BANK (TRANSFER accepted); IDR: TRANSFER; EGP: BANK or WALLET.',
      examples: ['BANK'],
    }),
    amount: Type.Number({ exclusiveMinimum: 0, description: 'Major units, at most 2 decimals, within the method bounds. The fee is charged on top.', examples: [2500] }),
    bankCode: Type.Optional(
      Text({
        minLength: 1,
        maxLength: BANK_CODE_MAX_LENGTH,
        description: 'INR BANK: the 11-character IFSC; NGN, IDR, EGP BANK: a code from payout/bankCode; omitted for INR UPI and EGP WALLET.',
        examples: ['HDFC0001234'],
      }),
    ),
    name: Text({ minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: NAME_PATTERN, description: 'Beneficiary name.' }),
    account: Text({
      minLength: 1,
      maxLength: ACCOUNT_MAX_LENGTH,
      description: 'Bank account number (digits; NGN 10 digits), UPI VPA (INR UPI) or 11-digit mobile number (EGP WALLET).',
      examples: ['50100012345678'],
    }),
    phone: Text({ pattern: PHONE_PATTERN, description: 'Beneficiary phone, 6 to 15 digits.' }),
    email: Text({ minLength: 3, maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_PATTERN, description: 'Beneficiary e-mail.' }),
    webhookUrl: Type.Optional(Text({ minLength: 1, maxLength: URL_MAX_LENGTH, description: "Where this payout's webhooks go; defaults to your configured payout webhook URL." })),
  },
  { additionalProperties: false },
);

const InitiateResult = Type.Object({
  transactionRef: Type.String(),
  merchantRef: Type.String(),
  method: Type.String({ description: 'NGN bank payouts answer TRANSFER, as the original interface does.' }),
  currency: Type.String(),
  amount: Type.Number(),
  fee: Type.Number({ description: 'Reserved with the amount; charged when the payout succeeds, returned when it fails.' }),
  status: Type.String({ description: PAYOUT_STATUS }),
});

const StatusBody = Type.Object(
  { transactionRef: Type.Optional(TransactionRef), merchantRef: Type.Optional(MerchantRef) },
  { additionalProperties: false, description: 'Exactly one of transactionRef and merchantRef.' },
);

export const PayoutRecordSchema = Type.Object({
  transactionRef: Type.String(),
  merchantRef: Type.String(),
  method: Type.String(),
  currency: Type.String(),
  amount: Type.Number(),
  fee: Type.Number(),
  bankCode: Type.Optional(Type.String()),
  name: Type.String(),
  account: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  webhookUrl: Type.Optional(Type.String()),
  status: Type.String({ description: PAYOUT_STATUS }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  completedAt: Type.Optional(Type.String({ description: 'When the payout reached Success or Failed.' })),
  failureReason: Type.Optional(Type.String({ description: 'UPPER_SNAKE, on Failed payouts (e.g. INVALID_ACCOUNT).' })),
  upstreamRef: Type.Optional(Type.String({ description: "The upstream's reference of the transfer (UTR, NIP session id ...)." })),
});

export const payoutRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { payouts } = services;

  app.post(
    '/payout/initiate',
    {
      config: { changesState: true },
      schema: {
        tags: ['payout'],
        summary: 'Send money to a bank account, UPI VPA or mobile wallet',
        description:
          'Reserves amount + fee from available (then credit) and answers Initiated; the payout reaches the upstream at most once and ' +
          'its outcome arrives by webhook (payout.succeeded / payout.failed) and payout/status. Idempotent per merchantRef: the same body ' +
          'again answers the original payout; another body under a used merchantRef is 409 DUPLICATE_MERCHANT_REF. ' +
          '422 INSUFFICIENT_BALANCE when amount + fee exceeds available + credit (nothing is stored).',
        security: MERCHANT_SECURITY,
        body: InitiateBody,
        response: { 200: SuccessEnvelope(InitiateResult), ...errorResponses, 409: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request) => ok(await payouts.initiate(merchantOf(request), request.body)),
  );

  for (const path of ['/payout/status', '/payout/fetch'] as const) {
    app.post(
      path,
      {
        config: { changesState: false },
        schema: {
          tags: ['payout'],
          summary: path === '/payout/status' ? 'A payout by transactionRef or merchantRef' : "Same as payout/status (the original provider's name)",
          security: MERCHANT_SECURITY,
          body: StatusBody,
          response: { 200: SuccessEnvelope(PayoutRecordSchema), ...errorResponses, 404: ErrorEnvelope },
        },
      },
      async (request) => ok(await payouts.status(merchantOf(request), request.body)),
    );
  }
};
