// Razorpay webhooks: X-Razorpay-Signature is the hex HMAC-SHA256 of the raw body under the webhook
// secret. It is checked in constant time before anything in the body is read; then the event is
// mapped to a collection or payout state by the reference we put in its notes.
import type { ChannelCallback } from '../channel.js';
import { hmacHex, hmacMatches, notificationErrors, parseJsonObject, singleHeader, type CallbackHeaders } from '../notification-helpers.js';
import { fromPaise, refFromNotes, toPayoutState, type WebhookEvent } from './transformers.js';

export const SIGNATURE_HEADER = 'x-razorpay-signature';
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

/** Payout events: every one carries the whole payout, so each is read for its current status. */
const PAYOUT_EVENTS: ReadonlySet<string> = new Set([
  'payout.queued',
  'payout.pending',
  'payout.initiated',
  'payout.processed',
  'payout.updated',
  'payout.reversed',
  'payout.rejected',
  'payout.failed',
]);

const { notAuthentic, malformed } = notificationErrors('The Razorpay webhook');

/** The signature Razorpay would send for `rawBody` (also what the test fake signs with). */
export const signWebhook = (secret: string, rawBody: Uint8Array): string => hmacHex('sha256', secret, rawBody);

/** Only the lowercase hex HMAC of exactly these bytes verifies; any other shape is simply not authentic. */
export function webhookSignatureValid(secret: string, rawBody: Uint8Array, signature: string): boolean {
  return SIGNATURE_PATTERN.test(signature) && hmacMatches('sha256', secret, rawBody, signature);
}

export function parseRazorpayWebhook(headers: CallbackHeaders, rawBody: Buffer, secret: string): ChannelCallback {
  const signature = singleHeader(headers, SIGNATURE_HEADER);
  if (signature === null) throw notAuthentic('signature header missing');
  if (!webhookSignatureValid(secret, rawBody, signature)) throw notAuthentic('signature does not verify');
  return toChannelCallback(parseEvent(rawBody));
}

function parseEvent(rawBody: Buffer): WebhookEvent {
  const event = parseJsonObject(rawBody, malformed) as Partial<WebhookEvent>;
  if (typeof event.event !== 'string' || event.payload === null || typeof event.payload !== 'object') throw malformed('event or payload missing');
  return event as WebhookEvent;
}

/** An authentic event as our callback; events we do not act on are answered as ignored. */
export function toChannelCallback(event: WebhookEvent): ChannelCallback {
  if (event.event === 'qr_code.credited') {
    const qr = event.payload.qr_code?.entity;
    const payment = event.payload.payment?.entity;
    if (!qr || !payment) throw malformed('qr_code.credited without its qr_code and payment');
    const transactionRef = refFromNotes(qr.notes);
    if (transactionRef === null) return { kind: 'ignored', reason: `QR code ${qr.id} carries no Paygate reference` };
    if (!Number.isSafeInteger(payment.amount) || payment.amount < 0) throw malformed('payment amount is not an amount');
    return { kind: 'collection', transactionRef, state: { upstreamRef: qr.id, status: 'PAID', paidAmountMinor: fromPaise(payment.amount) } };
  }
  if (PAYOUT_EVENTS.has(event.event)) {
    const payout = event.payload.payout?.entity;
    if (!payout) throw malformed(`${event.event} without its payout`);
    // The full ref rides in the notes; reference_id is the same ref, or its digest when ours did not fit.
    const transactionRef = refFromNotes(payout.notes) ?? payout.reference_id;
    if (!transactionRef) return { kind: 'ignored', reason: `payout ${payout.id} carries no Paygate reference` };
    return { kind: 'payout', transactionRef, state: toPayoutState(payout) };
  }
  if (event.event === 'payment.captured') {
    // The QR payment's own event names no QR code (our upstreamRef); qr_code.credited, sent for the
    // same payment, does, and is the one acted on.
    return { kind: 'ignored', reason: 'payment.captured: QR payments are taken from qr_code.credited' };
  }
  // refund.processed and the rest: our refunds complete when Razorpay accepts them.
  return { kind: 'ignored', reason: `event ${event.event} is not used` };
}
