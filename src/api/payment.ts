// payment/initiate, payment/status (and its alias payment/fetch), payment/refund, payment/methods.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PHONE_PATTERN,
  URL_MAX_LENGTH,
} from '../domain/request-rules.js';
import type { PaymentService } from '../domain/payments/service.js';
import { ok } from '../http/envelope.js';
import { merchantOf, DATABASE_READ } from './merchant-request.js';
import { registerRecordLookup } from './record-lookup.js';
import { CurrencyBody, CurrencyField } from './schemas/currency.js';
import { PayInMethod } from './schemas/enums.js';
import { PaymentInitiateResult, PaymentMethods, PaymentRecord, PaymentRefundResult } from './schemas/payment.js';
import { merchantRefField, statusBody, TransactionRef } from './schemas/references.js';
import { errorResponse, MERCHANT_SECURITY, merchantErrors, notFound, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

const MerchantRef = merchantRefField('payments', 'order-10023');
const Url = (description: string) => Text({ minLength: 1, maxLength: URL_MAX_LENGTH, description });

const InitiateBody = Type.Object(
  {
    merchantRef: MerchantRef,
    method: ref(PayInMethod, { description: 'Pay-in method of the currency (see payment/methods).', examples: ['NATIVE'] }),
    currency: CurrencyField,
    amount: Type.Number({ exclusiveMinimum: 0, description: 'Major units, at most 2 decimals, within the method bounds.', examples: [1500.5] }),
    name: Text({ minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: NAME_PATTERN, description: 'Payer name.' }),
    email: Text({ minLength: 3, maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_PATTERN, description: 'Payer e-mail.' }),
    phone: Text({ pattern: PHONE_PATTERN, description: 'Payer phone, 6 to 15 digits. EGP WALLET and FAWRY, IDR OVO and DANA need a mobile number of that country.' }),
    redirectUrl: Url('Where the payer returns after paying: https (sandbox merchants may use http://localhost).'),
    webhookUrl: Type.Optional(Url("Where this payment's webhooks go; defaults to your configured payment webhook URL.")),
  },
  { additionalProperties: false },
);

const StatusBody = statusBody(MerchantRef);

const RefundBody = Type.Object({ transactionRef: TransactionRef }, { additionalProperties: false });

export interface PaymentRouteOptions {
  readonly payments: Pick<PaymentService, 'initiate' | 'status' | 'refund' | 'methods'>;
}

export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRouteOptions> = async (app, { payments }) => {
  app.post(
    '/payment/initiate',
    {
      config: { changesState: true, keyScope: 'payments', movesMoney: false },
      schema: {
        operationId: 'paymentInitiate',
        tags: ['payment'],
        summary: 'Create a payment and get its checkout URL',
        description:
          'Idempotent per merchantRef: the same body again answers the original payment (HTTP 200, same transactionRef); ' +
          'another body under a used merchantRef is 409 DUPLICATE_MERCHANT_REF.',
        security: MERCHANT_SECURITY,
        body: InitiateBody,
        response: {
          200: SuccessEnvelope(ref(PaymentInitiateResult), 'The payment (new, or the original one for a repeated body); currency is absent for INR.'),
          ...merchantErrors,
          409: errorResponse('DUPLICATE_MERCHANT_REF: the merchantRef was used with a different body.'),
        },
      },
    },
    async (request) => ok(await payments.initiate(merchantOf(request), request.body)),
  );

  registerRecordLookup(app, { kind: 'payment', record: PaymentRecord, body: StatusBody, lookup: (merchant, body) => payments.status(merchant, body) });

  app.post(
    '/payment/refund',
    {
      config: { changesState: true, keyScope: 'payments', movesMoney: true },
      schema: {
        operationId: 'paymentRefund',
        tags: ['payment'],
        summary: 'Refund a successful payment in full',
        description:
          'Accepted for a Success payment of a refundable method within 30 minutes of completion. ' +
          'Repeating it answers the refund already made. 503 UNAVAILABLE means the refund is accepted and awaits the channel: repeat the call.',
        security: MERCHANT_SECURITY,
        body: RefundBody,
        response: {
          200: SuccessEnvelope(ref(PaymentRefundResult), 'The refund (made now, or the one made before); status is Refund.'),
          ...merchantErrors,
          404: notFound('payment'),
          422: errorResponse('PAYMENT_NOT_SUCCESSFUL, PAYMENT_NOT_REFUNDABLE, REFUND_WINDOW_EXPIRED or INSUFFICIENT_BALANCE; nothing was refunded.'),
        },
      },
    },
    async (request) => ok(await payments.refund(merchantOf(request), request.body)),
  );

  app.post(
    '/payment/methods',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'paymentMethods',
        tags: ['payment'],
        summary: 'Pay-in and payout methods of a currency, with your bounds and fees',
        description:
          'A sandbox merchant gets every method of the currency (all served by the simulator). A live merchant gets ' +
          'exactly the methods the operator has routed to a connector that is ready; any other method is answered ' +
          '403 METHOD_NOT_ENABLED by payment/initiate and payout/initiate.',
        security: MERCHANT_SECURITY,
        body: CurrencyBody,
        response: { 200: SuccessEnvelope(ref(PaymentMethods), 'The methods of the currency with your bounds and fees.'), ...merchantErrors },
      },
    },
    async (request) => ok(await payments.methods(merchantOf(request), request.body.currency)),
  );
};
