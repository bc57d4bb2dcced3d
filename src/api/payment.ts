// payment/initiate, payment/status (and its alias payment/fetch), payment/refund, payment/methods.
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
import { ErrorEnvelope, ok, SuccessEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';
import { CurrencyBody, CurrencyField, errorResponses, merchantOf, MERCHANT_SECURITY } from './common.js';

const EXAMPLE_REF = '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b';
const PAYMENT_STATUS = ['Pending', 'Success', 'Failed', 'Expired', 'Refund'].join(', ');

const MerchantRef = Text({ pattern: MERCHANT_REF_PATTERN, description: "Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your payments.", examples: ['order-10023'] });
const TransactionRef = Text({ minLength: 1, maxLength: 64, description: 'The reference the service assigned (UUID v7).', examples: [EXAMPLE_REF] });
const Url = (description: string) => Text({ minLength: 1, maxLength: URL_MAX_LENGTH, description });

const InitiateBody = Type.Object(
  {
    merchantRef: MerchantRef,
    method: Text({ minLength: 1, maxLength: 32, description: 'Pay-in method of the currency (see payment/methods).', examples: ['NATIVE'] }),
    currency: CurrencyField,
    amount: Type.Number({ exclusiveMinimum: 0, description: 'Major units, at most 2 decimals, within the method bounds.', examples: [1500.5] }),
    name: Text({ minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: NAME_PATTERN, description: 'Payer name.' }),
    email: Text({ minLength: 3, maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_PATTERN, description: 'Payer e-mail.' }),
    phone: Text({ pattern: PHONE_PATTERN, description: 'Payer phone, 6 to 15 digits. EGP WALLET, IDR OVO and DANA need a mobile number of that country.' }),
    redirectUrl: Url('Where the payer returns after paying: https (sandbox merchants may use http://localhost).'),
    webhookUrl: Type.Optional(Url("Where this payment's webhooks go; defaults to your configured payment webhook URL.")),
  },
  { additionalProperties: false },
);

const InitiateResult = Type.Object({
  transactionRef: Type.String(),
  merchantRef: Type.String(),
  method: Type.String(),
  currency: Type.Optional(Type.String({ description: 'Absent in INR answers, as in the original interface.' })),
  amount: Type.Number(),
  checkoutUrl: Type.String({ description: 'Open in the payer\'s browser; valid for 30 minutes.' }),
  status: Type.String({ description: PAYMENT_STATUS }),
  expiresAt: Type.String(),
});

const StatusBody = Type.Object(
  { transactionRef: Type.Optional(TransactionRef), merchantRef: Type.Optional(MerchantRef) },
  { additionalProperties: false, description: 'Exactly one of transactionRef and merchantRef.' },
);

export const PaymentRecordSchema = Type.Object({
  transactionRef: Type.String(),
  merchantRef: Type.String(),
  method: Type.String(),
  currency: Type.String(),
  amount: Type.Number(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  redirectUrl: Type.String(),
  webhookUrl: Type.Optional(Type.String()),
  status: Type.String({ description: PAYMENT_STATUS }),
  paidAmount: Type.Number({ description: 'What the payer paid; 0 until the payment succeeded.' }),
  fee: Type.Number({ description: 'Fixed at creation; charged only when the payment succeeds.' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  completedAt: Type.Optional(Type.String({ description: 'When the payment reached Success, Failed or Expired.' })),
  expiresAt: Type.String(),
  refundedAt: Type.Optional(Type.String()),
  failureReason: Type.Optional(Type.String({ description: 'UPPER_SNAKE, on Failed payments.' })),
  refundable: Type.Boolean({ description: 'Would payment/refund be accepted now?' }),
  refundableUntil: Type.Optional(Type.String({ description: 'Last moment of the refund window (successful payments of refundable methods).' })),
});

const RefundBody = Type.Object({ transactionRef: TransactionRef }, { additionalProperties: false });

const RefundResult = Type.Object({
  transactionRef: Type.String(),
  merchantRef: Type.String(),
  currency: Type.String(),
  method: Type.String(),
  amount: Type.Number(),
  paidAmount: Type.Number(),
  fee: Type.Number({ description: 'Not returned by the refund.' }),
  status: Type.String({ examples: ['Refund'] }),
  refundedAt: Type.Optional(Type.String()),
});

const Fee = Type.Object({
  bps: Type.Integer({ description: 'Percentage part in basis points (150 = 1.5 %).' }),
  percent: Type.Number(),
  fixed: Type.Number({ description: 'Fixed part in major units.' }),
});

const MethodTerms = Type.Object({
  method: Type.String(),
  minAmount: Type.Number(),
  maxAmount: Type.Number(),
  refundable: Type.Optional(Type.Boolean({ description: 'Pay-in methods: can a successful payment be refunded?' })),
  fee: Fee,
});

const MethodsResult = Type.Object({
  currency: Type.String(),
  payin: Type.Array(MethodTerms),
  payout: Type.Array(MethodTerms),
});

/** Answers a lookup can add to the common ones. */
const recordErrors = { ...errorResponses, 404: ErrorEnvelope };

export const paymentRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { payments } = services;

  app.post(
    '/payment/initiate',
    {
      config: { changesState: true },
      schema: {
        tags: ['payment'],
        summary: 'Create a payment and get its checkout URL',
        description:
          'Idempotent per merchantRef: the same body again answers the original payment (HTTP 200, same transactionRef); ' +
          'another body under a used merchantRef is 409 DUPLICATE_MERCHANT_REF.',
        security: MERCHANT_SECURITY,
        body: InitiateBody,
        response: { 200: SuccessEnvelope(InitiateResult), ...errorResponses, 409: ErrorEnvelope },
      },
    },
    async (request) => ok(await payments.initiate(merchantOf(request), request.body)),
  );

  const statusRoute = {
    config: { changesState: false },
    schema: {
      tags: ['payment'],
      security: MERCHANT_SECURITY,
      body: StatusBody,
      response: { 200: SuccessEnvelope(PaymentRecordSchema), ...recordErrors },
    },
  };
  for (const path of ['/payment/status', '/payment/fetch'] as const) {
    app.post(
      path,
      {
        ...statusRoute,
        schema: {
          ...statusRoute.schema,
          summary: path === '/payment/status' ? 'A payment by transactionRef or merchantRef' : 'Same as payment/status (the original provider\'s name)',
        },
      },
      async (request) => ok(await payments.status(merchantOf(request), request.body)),
    );
  }

  app.post(
    '/payment/refund',
    {
      config: { changesState: true },
      schema: {
        tags: ['payment'],
        summary: 'Refund a successful payment in full',
        description:
          'Accepted for a Success payment of a refundable method within 30 minutes of completion. ' +
          'Repeating it answers the refund already made. 503 UNAVAILABLE means the refund is accepted and awaits the channel: repeat the call.',
        security: MERCHANT_SECURITY,
        body: RefundBody,
        response: { 200: SuccessEnvelope(RefundResult), ...recordErrors, 422: ErrorEnvelope },
      },
    },
    async (request) => ok(await payments.refund(merchantOf(request), request.body)),
  );

  app.post(
    '/payment/methods',
    {
      config: { changesState: false },
      schema: {
        tags: ['payment'],
        summary: 'Pay-in and payout methods of a currency, with your bounds and fees',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(MethodsResult), ...errorResponses },
      },
    },
    async (request) => ok(await payments.methods(merchantOf(request), request.body.currency)),
  );
};
