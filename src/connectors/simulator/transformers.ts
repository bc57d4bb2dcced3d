// The simulated bank's wire format as this connector speaks it (headers, bodies) and the mapping
// between its bodies and ours: requests out, collection and payout states and callbacks back in.
import { AppError } from '../../core/errors.js';
import type {
  ChannelCallback,
  CollectionState,
  CreateCollectionRequest,
  PayoutState,
  PayoutSubmission,
  UpstreamCollectionStatus,
  UpstreamPayoutStatus,
} from '../channel.js';
import type { CollectionBody, CreateCollectionBody, ErrorBody, PayoutBody, SubmitPayoutBody } from '../../simulator/protocol.js';

export type { CollectionBody, ErrorBody, PayoutBody, RefundResultBody, ResolvedAccountBody } from '../../simulator/protocol.js';

export const API_KEY_HEADER = 'x-sim-key';

export const COLLECTION_STATUSES: readonly UpstreamCollectionStatus[] = ['PENDING', 'PAID', 'FAILED', 'EXPIRED'];
export const PAYOUT_STATUSES: readonly UpstreamPayoutStatus[] = ['PROCESSING', 'SUCCESS', 'FAILED', 'UNKNOWN'];
const AMOUNT_PATTERN = /^\d{1,18}$/;

const malformed = (why: string): AppError => new AppError('VALIDATION_FAILED', `The simulator callback is malformed: ${why}.`);

export const toCreateCollectionBody = (request: CreateCollectionRequest): CreateCollectionBody => ({
  transactionRef: request.transactionRef,
  merchantId: request.merchantId,
  currency: request.currency,
  method: request.method,
  amountMinor: String(request.amountMinor),
  payerName: request.payerName,
  payerEmail: request.payerEmail,
  payerPhone: request.payerPhone,
  expiresAtMs: request.expiresAtMs,
});

export const toSubmitPayoutBody = (submission: PayoutSubmission): SubmitPayoutBody => ({
  transactionRef: submission.transactionRef,
  currency: submission.currency,
  method: submission.method,
  amountMinor: String(submission.amountMinor),
  bankCode: submission.bankCode,
  account: submission.account,
  name: submission.name,
  phone: submission.phone,
  email: submission.email,
});

export const toCollectionState = (collection: CollectionBody): CollectionState => ({
  upstreamRef: collection.upstreamRef,
  status: collection.status,
  ...(collection.paidAmountMinor === null ? {} : { paidAmountMinor: BigInt(collection.paidAmountMinor) }),
  ...(collection.failureReason === null ? {} : { failureReason: collection.failureReason }),
});

export const toPayoutState = (payout: PayoutBody): PayoutState => ({
  status: payout.status,
  ...(payout.upstreamRef === null ? {} : { upstreamRef: payout.upstreamRef }),
  ...(payout.failureReason === null ? {} : { failureReason: payout.failureReason }),
});

/** The reason a refund the bank refused (422) is answered with. */
export const refundRefusalReason = (refusal: ErrorBody): 'PAYMENT_NOT_REFUNDABLE' | 'PAYMENT_NOT_SUCCESSFUL' =>
  refusal.error === 'REFUND_NOT_SUPPORTED' ? 'PAYMENT_NOT_REFUNDABLE' : 'PAYMENT_NOT_SUCCESSFUL';

/** The callback body (already verified) as a ChannelCallback; VALIDATION_FAILED when it is not one. */
export function toChannelCallback(rawBody: Buffer): ChannelCallback {
  const body = parseObject(rawBody);
  const transactionRef = text(body, 'transactionRef');
  const failureReason = optionalText(body, 'failureReason');
  const upstreamRef = optionalText(body, 'upstreamRef');
  if (body.kind === 'collection') {
    const paid = optionalText(body, 'paidAmountMinor');
    if (paid !== undefined && !AMOUNT_PATTERN.test(paid)) throw malformed('paidAmountMinor is not an amount');
    return {
      kind: 'collection',
      transactionRef,
      state: {
        upstreamRef: upstreamRef ?? text(body, 'upstreamRef'),
        status: oneOf(text(body, 'status'), COLLECTION_STATUSES, 'status'),
        ...(paid === undefined ? {} : { paidAmountMinor: BigInt(paid) }),
        ...(failureReason === undefined ? {} : { failureReason }),
      },
    };
  }
  if (body.kind === 'payout') {
    return {
      kind: 'payout',
      transactionRef,
      state: {
        status: oneOf(text(body, 'status'), PAYOUT_STATUSES, 'status'),
        ...(upstreamRef === undefined ? {} : { upstreamRef }),
        ...(failureReason === undefined ? {} : { failureReason }),
      },
    };
  }
  throw malformed('kind is neither collection nor payout');
}

function parseObject(rawBody: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw malformed('body is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformed('body is not an object');
  return value as Record<string, unknown>;
}

function text(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.length === 0) throw malformed(`${field} missing`);
  return value;
}

function optionalText(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') throw malformed(`${field} is not a string`);
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw malformed(`${field} ${value} unknown`);
  return value as T;
}
