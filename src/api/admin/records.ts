// Operator API: any merchant's payment or payout by transactionRef, with the connector that serves it
// and its reference there (the merchant's own API never names a connector).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PaymentService } from '../../domain/payments/service.js';
import type { PayoutService } from '../../domain/payouts/service.js';
import { ok } from '../../http/envelope.js';
import { Text } from '../../http/text.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';

const RefParams = Type.Object({ ref: Text({ minLength: 1, maxLength: 64 }) });

const OperatorRecord = (what: string) =>
  Type.Object(
    {
      transactionRef: Type.String(),
      merchantId: Type.String(),
      status: Type.String(),
      channel: Type.String({ description: `The connector that serves the ${what}.` }),
    },
    { additionalProperties: true },
  );

export interface AdminRecordRouteOptions {
  readonly payments: Pick<PaymentService, 'operatorGet'>;
  readonly payouts: Pick<PayoutService, 'operatorGet'>;
}

export const adminRecordRoutes: FastifyPluginAsyncTypebox<AdminRecordRouteOptions> = async (app, { payments, payouts }) => {
  app.get(
    '/payments/:ref',
    {
      schema: {
        operationId: 'adminGetPayment',
        tags: ['admin'],
        summary: "Any merchant's payment, with its connector, upstream reference and collection state",
        params: RefParams,
        response: { 200: SuccessEnvelope(OperatorRecord('payment'), 'The payment.'), 404: errorResponse('NOT_FOUND: no such payment.') },
      },
    },
    async (request) => ok(await payments.operatorGet(request.params.ref)),
  );

  app.get(
    '/payouts/:ref',
    {
      schema: {
        operationId: 'adminGetPayout',
        tags: ['admin'],
        summary: "Any merchant's payout, with its connector, fallbacks, upstream reference and the job's bookkeeping",
        params: RefParams,
        response: { 200: SuccessEnvelope(OperatorRecord('payout'), 'The payout.'), 404: errorResponse('NOT_FOUND: no such payout.') },
      },
    },
    async (request) => ok(await payouts.operatorGet(request.params.ref)),
  );
};
