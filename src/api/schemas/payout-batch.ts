// What payout/batch and payout/batchStatus answer: the intake answer with each item's result, and
// the batch's status record (also the body of payout.batch_completed).
import { Type } from '@sinclair/typebox';
import { PAYOUT_STATUSES } from '../../domain/payouts/payout-rows.js';
import { REFUSED } from '../../domain/payouts/batch-records.js';
import { ref, shared, StringEnum } from './shared.js';
import { PayoutStatus } from './enums.js';

const FieldProblem = Type.Object({ field: Type.String(), problem: Type.String() });

export const PayoutBatchItemResult = shared(
  'PayoutBatchItemResult',
  Type.Object(
    {
      index: Type.Integer({ description: "The item's position in items, from 0." }),
      merchantRef: Type.Optional(Type.String({ description: "The item's merchantRef (absent when the item had no usable one)." })),
      result: StringEnum(['accepted', 'refused'] as const),
      transactionRef: Type.Optional(Type.String({ description: 'Accepted items: the payout created.' })),
      amount: Type.Optional(Type.Number()),
      fee: Type.Optional(Type.Number({ description: 'Reserved with the amount.' })),
      status: Type.Optional(ref(PayoutStatus, { description: 'Accepted items: Initiated, or PendingApproval above your approval threshold.' })),
      reason: Type.Optional(Type.String({ description: 'Refused items: the reason payout/initiate would have answered (VALIDATION_FAILED, INVALID_BANK_CODE, DUPLICATE_MERCHANT_REF, INSUFFICIENT_BALANCE ...).' })),
      detail: Type.Optional(Type.String()),
      errors: Type.Optional(Type.Array(FieldProblem)),
    },
    { description: 'One item: accepted (transactionRef, amount, fee, status) or refused (reason, detail, errors).' },
  ),
);

export const PayoutBatchResult = shared(
  'PayoutBatchResult',
  Type.Object({
    batchId: Type.String({ description: 'The reference the service assigned to the batch (UUID v7).' }),
    merchantRef: Type.String(),
    atomic: Type.Boolean(),
    itemCount: Type.Integer(),
    accepted: Type.Integer(),
    refused: Type.Integer(),
    createdAt: Type.String(),
    items: Type.Array(ref(PayoutBatchItemResult), { description: 'Every item, in the order sent.' }),
  }),
);

const STATUS_NAMES = [...PAYOUT_STATUSES, REFUSED];

export const PayoutBatchStatus = shared(
  'PayoutBatchStatus',
  Type.Object({
    batchId: Type.String(),
    merchantRef: Type.String(),
    itemCount: Type.Integer(),
    accepted: Type.Integer(),
    refused: Type.Integer(),
    completed: Type.Boolean({ description: 'True once every accepted item is Success or Failed.' }),
    createdAt: Type.String(),
    completedAt: Type.Optional(Type.String()),
    counts: Type.Object(Object.fromEntries(STATUS_NAMES.map((status) => [status, Type.Integer()])), {
      description: 'Items per status; Refused counts the items refused at intake.',
    }),
    items: Type.Array(
      Type.Object({
        index: Type.Integer(),
        merchantRef: Type.Optional(Type.String()),
        transactionRef: Type.Optional(Type.String()),
        status: StringEnum(STATUS_NAMES, { description: "The payout's status, or Refused." }),
        failureReason: Type.Optional(Type.String({ description: 'Failed: why the payout failed; Refused: the intake reason.' })),
      }),
    ),
  }),
);

export const PAYOUT_BATCH_SCHEMAS = [PayoutBatchItemResult, PayoutBatchResult, PayoutBatchStatus];
