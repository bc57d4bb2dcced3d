// payout/batch and payout/batchStatus. The route's schema checks the batch and the shape of each
// item (a field this API does not know refuses the whole batch: the client is not speaking this
// API); each item is then checked against payout/initiate's own schema here, so one bad item is
// refused alone (unless the batch is atomic) with the answer initiate would have given it.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BATCH_MAX_ITEMS, batchRequestHash } from '../domain/payouts/batch-records.js';
import type { BatchItemInput } from '../domain/payouts/batch-intake.js';
import type { PayoutInitiateRequest } from '../domain/payouts/payout-request.js';
import type { PayoutService } from '../domain/payouts/service.js';
import { MERCHANT_REF_PATTERN, URL_MAX_LENGTH } from '../domain/request-rules.js';
import { ok } from '../http/envelope.js';
import { toAppError } from '../http/errors.js';
import { Text } from '../http/text.js';
import { apiKeyIdOf, merchantOf, DATABASE_READ } from './merchant-request.js';
import { InitiateBody } from './payout.js';
import { PayoutBatchResult, PayoutBatchStatus } from './schemas/payout-batch.js';
import { merchantRefField } from './schemas/references.js';
import { errorResponse, MERCHANT_SECURITY, merchantErrors, notFound, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

/** payout/batch takes up to 1 MiB (1,000 items of a few hundred bytes each); every other route 64 KiB. */
export const BATCH_BODY_LIMIT_BYTES = 1024 * 1024;

const BatchRef = merchantRefField('payout batches', 'payroll-2026-11');

/** An item's shape at the route: only payout/initiate's field names; their values are checked per item. */
const BatchItem = Type.Object(
  Object.fromEntries(Object.keys(InitiateBody.properties).map((name) => [name, Type.Optional(Type.Unknown())])),
  {
    additionalProperties: false,
    description: 'A payout/initiate body (PayoutInitiateRequest). Each item is checked on its own: a bad value refuses that item only.',
  },
);

const BatchBody = Type.Object(
  {
    merchantRef: BatchRef,
    atomic: Type.Optional(Type.Boolean({ description: 'true: if any item would be refused, the whole batch is refused (400 BATCH_REFUSED) and nothing is stored.' })),
    webhookUrl: Type.Optional(Text({ minLength: 1, maxLength: URL_MAX_LENGTH, description: 'Where payout.batch_completed goes; defaults to your payout webhook URL. Items keep their own webhookUrl.' })),
    items: Type.Array(BatchItem, { minItems: 1, maxItems: BATCH_MAX_ITEMS }),
  },
  { additionalProperties: false },
);

const BatchStatusBody = Type.Object(
  {
    merchantRef: Type.Optional(BatchRef),
    batchId: Type.Optional(Text({ minLength: 1, maxLength: 64, description: 'The batchId payout/batch answered.' })),
  },
  { additionalProperties: false, description: 'Exactly one of merchantRef and batchId.' },
);

const REF = new RegExp(MERCHANT_REF_PATTERN);

export interface PayoutBatchRouteOptions {
  readonly payouts: Pick<PayoutService, 'batch' | 'batchStatus'>;
}

export const payoutBatchRoutes: FastifyPluginAsyncTypebox<PayoutBatchRouteOptions> = async (app, { payouts }) => {
  app.post(
    '/payout/batch',
    {
      bodyLimit: BATCH_BODY_LIMIT_BYTES,
      config: { changesState: true, keyScope: 'payouts', movesMoney: true },
      schema: {
        operationId: 'payoutBatch',
        tags: ['payout'],
        summary: 'Send up to 1,000 payouts in one call',
        description:
          'Each item is an ordinary payout/initiate body, checked and accepted as initiate would (its merchantRef unique among your payouts), with its ' +
          'amount + fee reserved; items are reserved in the order sent. The answer lists every item: accepted (transactionRef) or refused (reason, ' +
          'detail, errors); refused items do not block the others unless atomic is true. Idempotent on the batch merchantRef: the same body again ' +
          'answers the original batch; another body is 409 DUPLICATE_MERCHANT_REF. payout.batch_completed is sent once every accepted item is final. ' +
          'Items above your approval threshold wait in PendingApproval (each announced by payout.pending_approval) as a single payout would, ' +
          'until payout/approve or payout/reject or their timeout; the batch completes only after them. ' +
          'Counts as one request for the rate limit.',
        security: MERCHANT_SECURITY,
        body: BatchBody,
        response: {
          200: SuccessEnvelope(ref(PayoutBatchResult), 'The batch (new, or the original one for a repeated body).'),
          ...merchantErrors,
          400: errorResponse(
            'BATCH_REFUSED: atomic batch with a refused item (data.errors lists items.<index>.<field> with the reason); VALIDATION_FAILED: the batch itself ' +
              'is malformed (over 1,000 items, an unknown field in an item ...). Nothing was stored.',
          ),
          409: errorResponse('DUPLICATE_MERCHANT_REF: the batch merchantRef was used with a different body.'),
          413: errorResponse('PAYLOAD_TOO_LARGE: the body is over 1 MiB.'),
        },
      },
    },
    async (request) => {
      const body = request.body;
      const check = request.compileValidationSchema(InitiateBody);
      const items = body.items.map((item, index): BatchItemInput => {
        if (check(item)) return { index, request: item as unknown as PayoutInitiateRequest };
        const merchantRef = typeof item.merchantRef === 'string' && REF.test(item.merchantRef) ? item.merchantRef : undefined;
        return { index, ...(merchantRef === undefined ? {} : { merchantRef }), refused: toAppError({ validation: check.errors ?? [] }) };
      });
      const answer = await payouts.batch(merchantOf(request), {
        merchantRef: body.merchantRef,
        atomic: body.atomic ?? false,
        ...(body.webhookUrl === undefined ? {} : { webhookUrl: body.webhookUrl }),
        items,
        // atomic: false and no atomic are the same batch.
        requestHash: batchRequestHash({ ...body, atomic: body.atomic ?? false }),
      }, apiKeyIdOf(request));
      return ok(answer);
    },
  );

  app.post(
    '/payout/batchStatus',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'payoutBatchStatus',
        tags: ['payout'],
        summary: 'A payout batch by merchantRef or batchId: counts per status and every item',
        security: MERCHANT_SECURITY,
        body: BatchStatusBody,
        response: { 200: SuccessEnvelope(ref(PayoutBatchStatus), 'The batch record.'), ...merchantErrors, 404: notFound('payout batch') },
      },
    },
    async (request) => {
      const { merchantRef, batchId } = request.body;
      if ((merchantRef === undefined) === (batchId === undefined)) {
        throw toAppError({ validation: [{ instancePath: '', keyword: 'required', params: { missingProperty: 'merchantRef' }, message: 'exactly one of merchantRef and batchId' }] });
      }
      return ok(await payouts.batchStatus(merchantOf(request), batchId !== undefined ? { batchId } : { merchantRef: merchantRef! }));
    },
  );
};
