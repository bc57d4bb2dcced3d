// Verification of FawryPay's server notifications (V2, a JSON POST): the body carries its own
// `messageSignature`, SHA-256 over documented fields and our secure key. We recompute it from the
// body and compare in constant time before anything in it is believed.
import type { ChannelCallback } from '../channel.js';
import { hexMatches, notificationErrors, parseJsonObject } from '../notification-helpers.js';
import {
  amountText,
  fromMerchantRefNumber,
  notificationSignature,
  parseWithExactAmounts,
  toCollectionState,
  twoDecimals,
  type OrderStatusBody,
} from './transformers.js';

const SIGNATURE_PATTERN = /^[0-9a-fA-F]{64}$/;

const { notAuthentic } = notificationErrors('The Fawry notification');

const text = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** Is the body's messageSignature the one our secure key gives its documented fields? */
export function notificationAuthentic(body: Record<string, unknown>, secureKey: string): boolean {
  const given = text(body.messageSignature);
  if (given === null || !SIGNATURE_PATTERN.test(given)) return false;
  const fawryRefNumber = text(body.fawryRefNumber);
  const merchantRefNumber = text(body.merchantRefNumber);
  const orderStatus = text(body.orderStatus);
  const paymentMethod = text(body.paymentMethod);
  const paymentAmount = amountText(body.paymentAmount);
  const orderAmount = amountText(body.orderAmount);
  if (fawryRefNumber === null || merchantRefNumber === null || orderStatus === null || paymentMethod === null || paymentAmount === null || orderAmount === null) return false;
  const payment2 = twoDecimals(paymentAmount);
  const order2 = twoDecimals(orderAmount);
  if (payment2 === null || order2 === null) return false;
  const expected = notificationSignature(
    { fawryRefNumber, merchantRefNumber, paymentAmount: payment2, orderAmount: order2, orderStatus, paymentMethod, paymentRefrenceNumber: text(body.paymentRefrenceNumber) ?? '' },
    secureKey,
  );
  return hexMatches(given, Buffer.from(expected, 'hex'));
}

/** Parses and verifies a V2 server notification; INVALID_SIGNATURE unless it verifies. */
export function parseFawryNotification(rawBody: Buffer, secureKey: string): ChannelCallback {
  const body = parseJsonObject(rawBody, notAuthentic, parseWithExactAmounts);
  if (body.messageSignature === undefined) throw notAuthentic('messageSignature missing');
  if (!notificationAuthentic(body, secureKey)) throw notAuthentic('messageSignature does not verify');

  const order = body as OrderStatusBody;
  const merchantRefNumber = String(order.merchantRefNumber);
  const state = toCollectionState(order, String(order.fawryRefNumber));
  if (state === null) return { kind: 'ignored', reason: `orderStatus ${String(order.orderStatus)} has no meaning for a pay-in` };
  return { kind: 'collection', transactionRef: fromMerchantRefNumber(merchantRefNumber), state };
}
