// Xendit's callbacks: every product sends the account's callback verification token in the
// `x-callback-token` header (no signature over the body). We compare it in constant time, then
// tell the callback kinds apart by their shape: the VA payment callback has no `event`, the
// QR, e-wallet and payout callbacks carry one.
import type { ChannelCallback } from '../channel.js';
import { notificationErrors, parseJsonObject, singleHeader, textMatches, type CallbackHeaders } from '../notification-helpers.js';
import {
  asObject,
  ewalletCollectionState,
  fromRupiah,
  str,
  toPayoutState,
  type EwalletChargeBody,
  type Json,
  type PayoutBody,
} from './transformers.js';

export const CALLBACK_TOKEN_HEADER = 'x-callback-token';

const { notAuthentic, malformed } = notificationErrors('The Xendit callback');

export function verifyCallbackToken(headers: CallbackHeaders, callbackToken: string): void {
  const given = singleHeader(headers, CALLBACK_TOKEN_HEADER);
  if (given === null || given.length === 0) throw notAuthentic('x-callback-token header missing');
  if (!textMatches(given, callbackToken)) throw notAuthentic('x-callback-token does not match');
}

export function parseXenditCallback(headers: CallbackHeaders, rawBody: Buffer, callbackToken: string): ChannelCallback {
  verifyCallbackToken(headers, callbackToken);
  const body = parseJsonObject(rawBody, malformed);
  const event = str(body, 'event');
  return event === null ? legacyCallback(body) : eventCallback(event, body);
}

/** Virtual account callbacks: "paid" (payment_id + callback_virtual_account_id) or "created/updated" (status). */
function legacyCallback(body: Json): ChannelCallback {
  if (str(body, 'payment_id') !== null && str(body, 'callback_virtual_account_id') !== null) {
    const transactionRef = required(body, 'external_id');
    const paid = fromRupiah(body.amount);
    if (paid === null) throw malformed('amount is not an amount');
    return {
      kind: 'collection',
      transactionRef,
      state: { upstreamRef: required(body, 'callback_virtual_account_id'), status: 'PAID', paidAmountMinor: paid },
    };
  }
  if (str(body, 'account_number') !== null && str(body, 'status') !== null) {
    // A VA became PENDING/ACTIVE/INACTIVE: payment and expiry reach us by the paid callback and our own expiry.
    return { kind: 'ignored', reason: `virtual account ${str(body, 'status')}` };
  }
  throw malformed('neither an event nor a virtual account callback');
}

function eventCallback(event: string, body: Json): ChannelCallback {
  const data = asObject(body.data);
  if (data === null) throw malformed('data missing');
  if (event === 'qr.payment') {
    const status = required(data, 'status');
    if (status !== 'SUCCEEDED') return { kind: 'ignored', reason: `QR payment ${status}` };
    const paid = fromRupiah(data.amount);
    if (paid === null) throw malformed('amount is not an amount');
    return {
      kind: 'collection',
      transactionRef: required(data, 'reference_id'),
      state: { upstreamRef: required(data, 'qr_id'), status: 'PAID', paidAmountMinor: paid },
    };
  }
  if (event === 'ewallet.capture') {
    required(data, 'id');
    required(data, 'status');
    return { kind: 'collection', transactionRef: required(data, 'reference_id'), state: ewalletCollectionState(data as unknown as EwalletChargeBody) };
  }
  if (event.startsWith('payout.')) {
    required(data, 'id');
    required(data, 'status');
    return { kind: 'payout', transactionRef: required(data, 'reference_id'), state: toPayoutState(data as unknown as PayoutBody) };
  }
  // qr.refund, ewallet.void, ewallet.refund and anything newer: our refunds are final when accepted.
  return { kind: 'ignored', reason: `event ${event}` };
}

function required(body: Json, field: string): string {
  const value = str(body, field);
  if (value === null) throw malformed(`${field} missing`);
  return value;
}
