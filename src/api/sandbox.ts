// sandbox/payment/complete: what the checkout page's Pay and Decline buttons do, from code.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PaymentService } from '../domain/payments/service.js';
import { ok } from '../http/envelope.js';
import { merchantOf } from './merchant-request.js';
import { PaymentRecord } from './schemas/payment.js';
import { MERCHANT_SECURITY, merchantErrors, notFound, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

const CompleteBody = Type.Object(
  {
    transactionRef: Text({ minLength: 1, maxLength: 64 }),
    outcome: Type.Union([Type.Literal('Success'), Type.Literal('Failed')], { description: 'Success: the payer pays. Failed: the bank declines.' }),
  },
  { additionalProperties: false },
);

export interface SandboxRouteOptions {
  readonly payments: Pick<PaymentService, 'sandboxComplete'>;
}

export const sandboxRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { payments }) => {
  app.post(
    '/sandbox/payment/complete',
    {
      config: { changesState: true, keyScope: 'payments', movesMoney: false },
      schema: {
        operationId: 'sandboxPaymentComplete',
        tags: ['sandbox'],
        summary: 'Sandbox only: pay or decline a payment as its payer',
        description:
          'Answers the payment record after the outcome is applied; the webhook follows as for a real payment. ' +
          'Live merchants get 403 METHOD_NOT_ENABLED. A payment that is already final is answered unchanged; ' +
          'paying an Expired payment records late money (the payment stays Expired).',
        security: MERCHANT_SECURITY,
        body: CompleteBody,
        response: { 200: SuccessEnvelope(ref(PaymentRecord), 'The payment record after the outcome.'), ...merchantErrors, 404: notFound('payment') },
      },
    },
    async (request) => ok(await payments.sandboxComplete(merchantOf(request), request.body.transactionRef, request.body.outcome)),
  );
};
