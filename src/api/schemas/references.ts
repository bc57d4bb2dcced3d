// The two references a merchant finds a payment or a payout by, and the status body that takes
// either one; payment.ts and payout.ts build their status routes from these.
import { Type, type TSchema } from '@sinclair/typebox';
import { MERCHANT_REF_PATTERN } from '../../domain/request-rules.js';
import { Text } from '../../http/text.js';

const EXAMPLE_REF = '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b';

export const TransactionRef = Text({ minLength: 1, maxLength: 64, description: 'The reference the service assigned (UUID v7).', examples: [EXAMPLE_REF] });

/** The merchant's own reference, unique among its `records` (payments or payouts). */
export const merchantRefField = (records: 'payments' | 'payouts' | 'payout batches', example: string) =>
  Text({ pattern: MERCHANT_REF_PATTERN, description: `Your own reference: 1 to 64 of A-Z a-z 0-9 _ -. Unique among your ${records}.`, examples: [example] });

export const statusBody = <M extends TSchema>(merchantRef: M) =>
  Type.Object(
    { transactionRef: Type.Optional(TransactionRef), merchantRef: Type.Optional(merchantRef) },
    { additionalProperties: false, description: 'Exactly one of transactionRef and merchantRef.' },
  );
