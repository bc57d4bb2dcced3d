// Operator API for a merchant's payout approval (maker-checker) setting: per-currency thresholds
// above which payouts wait in PendingApproval, and how long they wait (docs/payouts.md).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CURRENCIES } from '../../core/money.js';
import {
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  MAX_APPROVAL_TIMEOUT_SECONDS,
  MIN_APPROVAL_TIMEOUT_SECONDS,
} from '../../domain/payouts/approvals.js';
import type { PayoutService } from '../../domain/payouts/service.js';
import { ok } from '../../http/envelope.js';
import { Text } from '../../http/text.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { ADMIN_ACTOR } from './auth.js';

const IdParams = Type.Object({ id: Text({ maxLength: 64 }) });

const amountOf = (nullable: boolean) => {
  const amount = Type.Number({ minimum: 0, description: 'Major units, at most 2 decimals: payouts of a larger amount wait for approval.' });
  return nullable ? Type.Union([amount, Type.Null()]) : amount;
};

const thresholds = (nullable: boolean) =>
  Type.Object(Object.fromEntries(CURRENCIES.map((currency) => [currency, Type.Optional(amountOf(nullable))])), { additionalProperties: false });

const ApprovalBody = Type.Object(
  {
    thresholdAmount: Type.Union([thresholds(true), Type.Null()], {
      description: 'Per currency; a currency left out or null needs no approval. null (or no currency) turns approval off.',
    }),
    timeoutSeconds: Type.Optional(
      Type.Integer({
        minimum: MIN_APPROVAL_TIMEOUT_SECONDS,
        maximum: MAX_APPROVAL_TIMEOUT_SECONDS,
        description: `How long a payout waits before it fails with APPROVAL_EXPIRED; default ${DEFAULT_APPROVAL_TIMEOUT_SECONDS}.`,
      }),
    ),
  },
  { additionalProperties: false },
);

const PayoutApproval = Type.Object({
  merchantId: Type.String(),
  thresholdAmount: Type.Union([thresholds(false), Type.Null()], { description: 'null: approval is off.' }),
  timeoutSeconds: Type.Integer(),
});

export interface AdminPayoutApprovalRouteOptions {
  readonly payouts: Pick<PayoutService, 'approvalSetting' | 'setApprovalSetting'>;
}

export const adminPayoutApprovalRoutes: FastifyPluginAsyncTypebox<AdminPayoutApprovalRouteOptions> = async (app, { payouts }) => {
  app.get(
    '/merchants/:id/payout-approval',
    {
      schema: {
        operationId: 'adminGetPayoutApproval',
        tags: ['admin'],
        summary: "A merchant's payout approval (maker-checker) setting",
        params: IdParams,
        response: { 200: SuccessEnvelope(PayoutApproval, 'The setting (thresholdAmount null: off).') },
      },
    },
    async (request) => ok(await payouts.approvalSetting(request.params.id)),
  );

  app.put(
    '/merchants/:id/payout-approval',
    {
      schema: {
        operationId: 'adminSetPayoutApproval',
        tags: ['admin'],
        summary: "Set a merchant's payout approval thresholds and timeout",
        description: 'Applies to payouts initiated from now on; payouts already pending keep their deadline.',
        params: IdParams,
        body: ApprovalBody,
        response: { 200: SuccessEnvelope(PayoutApproval, 'The setting afterwards.'), 404: errorResponse('NOT_FOUND: no such merchant.') },
      },
    },
    async (request) => ok(await payouts.setApprovalSetting(request.params.id, request.body, ADMIN_ACTOR)),
  );
};
