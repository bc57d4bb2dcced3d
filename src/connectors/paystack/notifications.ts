// Verification and parsing of Paystack's webhook events. Paystack signs each event with the
// secret key: `x-paystack-signature` is the hex HMAC-SHA512 of the raw body. There is no timestamp
// in the scheme, so replays are left to the service's callback replay guard.
import type { ChannelCallback } from '../channel.js';
import { hmacHex, hmacMatches, notificationErrors, parseJsonObject, singleHeader, type CallbackHeaders } from '../notification-helpers.js';
import { fromPaystackReference, toCollectionState, toPayoutState, type TransactionData, type TransferData } from './transformers.js';

export const SIGNATURE_HEADER = 'x-paystack-signature';
const SIGNATURE_PATTERN = /^[0-9a-fA-F]{128}$/;

/** The events this connector acts on; every other authentic event is answered 200 and ignored. */
const COLLECTION_EVENTS = new Set(['charge.success']);
const PAYOUT_EVENTS = new Set(['transfer.success', 'transfer.failed', 'transfer.reversed']);

const { notAuthentic, malformed } = notificationErrors('The Paystack event');

/** The signature Paystack puts on `rawBody` (also used by the test fake to sign what it sends). */
export const paystackSignature = (secretKey: string, rawBody: Uint8Array): string => hmacHex('sha512', secretKey, rawBody);

/** Constant time: the given hex is decoded and compared as 64 bytes with the expected digest. */
export function signatureValid(secretKey: string, rawBody: Uint8Array, signature: string): boolean {
  return SIGNATURE_PATTERN.test(signature) && hmacMatches('sha512', secretKey, rawBody, signature);
}

export function parsePaystackEvent(headers: CallbackHeaders, rawBody: Buffer, secretKey: string): ChannelCallback {
  const signature = singleHeader(headers, SIGNATURE_HEADER);
  if (signature === null) throw notAuthentic(`${SIGNATURE_HEADER} header missing`);
  if (!signatureValid(secretKey, rawBody, signature)) throw notAuthentic('signature does not verify');
  return toChannelCallback(rawBody);
}

/** The verified event as a ChannelCallback. */
export function toChannelCallback(rawBody: Buffer): ChannelCallback {
  const body = parseJsonObject(rawBody, malformed);
  const event = body.event;
  if (typeof event !== 'string') throw malformed('event missing');
  if (!COLLECTION_EVENTS.has(event) && !PAYOUT_EVENTS.has(event)) return { kind: 'ignored', reason: `Paystack event ${event} is not used` };
  const data = body.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw malformed('data missing');
  const record = data as Record<string, unknown>;
  if (typeof record.reference !== 'string' || record.reference === '') throw malformed('data.reference missing');
  if (typeof record.status !== 'string') throw malformed('data.status missing');
  const transactionRef = fromPaystackReference(record.reference);
  if (COLLECTION_EVENTS.has(event)) {
    if (typeof record.id !== 'number' || typeof record.amount !== 'number') throw malformed('data.id or data.amount missing');
    const state = toCollectionState(record as unknown as TransactionData);
    if (state === null) throw malformed(`transaction status ${record.status} unknown`);
    return { kind: 'collection', transactionRef, state };
  }
  if (typeof record.transfer_code !== 'string') throw malformed('data.transfer_code missing');
  const state = toPayoutState(record as unknown as TransferData);
  if (state === null) throw malformed(`transfer status ${record.status} unknown`);
  return { kind: 'payout', transactionRef, state };
}
