// Turns a simulator callback into a ChannelCallback, but only after its HMAC and timestamp check
// out: an unauthentic or stale notification never reaches the payment or payout logic.
import { AppError } from '../../core/errors.js';
import type { ChannelCallback, UpstreamCollectionStatus, UpstreamPayoutStatus } from '../channel.js';
import { callbackSignatureValid, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../simulator/protocol.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const COLLECTION_STATUSES: readonly UpstreamCollectionStatus[] = ['PENDING', 'PAID', 'FAILED', 'EXPIRED'];
const PAYOUT_STATUSES: readonly UpstreamPayoutStatus[] = ['PROCESSING', 'SUCCESS', 'FAILED', 'UNKNOWN'];
const TIMESTAMP_PATTERN = /^\d{1,12}$/;
const AMOUNT_PATTERN = /^\d{1,18}$/;

const notAuthentic = (why: string): AppError => new AppError('INVALID_SIGNATURE', `The simulator callback is not authentic: ${why}.`);
const malformed = (why: string): AppError => new AppError('VALIDATION_FAILED', `The simulator callback is malformed: ${why}.`);

const single = (value: string | string[] | undefined): string | null => (typeof value === 'string' ? value : null);

export function parseSimulatorCallback(
  headers: Headers,
  rawBody: Buffer,
  secret: string,
  nowSeconds: number,
  toleranceSeconds: number,
): ChannelCallback {
  const timestamp = single(headers[TIMESTAMP_HEADER]);
  const signature = single(headers[SIGNATURE_HEADER]);
  if (timestamp === null || signature === null) throw notAuthentic('signature or timestamp header missing');
  if (!TIMESTAMP_PATTERN.test(timestamp)) throw notAuthentic('timestamp malformed');
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) throw notAuthentic('timestamp outside the allowed window');
  if (!callbackSignatureValid(secret, timestamp, rawBody, signature)) throw notAuthentic('signature does not verify');
  return toChannelCallback(parseObject(rawBody));
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

function toChannelCallback(body: Record<string, unknown>): ChannelCallback {
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
