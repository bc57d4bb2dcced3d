// The simulated bank's published API: headers, JSON shapes and the callback signature, as a real
// bank documents them. Amounts travel as decimal strings of minor units (exact bigints).
import { createHmac } from 'node:crypto';

export type CollectionStatus = 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED';
export type PayoutStatus = 'PROCESSING' | 'SUCCESS' | 'FAILED' | 'UNKNOWN';

/** What the payer is told to do; only the fields of its kind are set. */
export interface InstructionsBody {
  readonly kind: 'UPI' | 'VIRTUAL_ACCOUNT' | 'QRIS' | 'EWALLET' | 'FAWRY' | 'MOBILE_WALLET';
  readonly qrPayload?: string;
  readonly intentUrl?: string;
  readonly accountNumber?: string;
  readonly bankName?: string;
  readonly accountName?: string;
  readonly referenceCode?: string;
  readonly walletPhone?: string;
}

export const API_KEY_HEADER = 'x-sim-key';
export const SIGNATURE_HEADER = 'x-sim-signature';
export const TIMESTAMP_HEADER = 'x-sim-timestamp';
export const EVENT_ID_HEADER = 'x-sim-event-id';

export interface CreateCollectionBody {
  readonly transactionRef: string;
  readonly merchantId: string;
  readonly currency: string;
  readonly method: string;
  readonly amountMinor: string;
  readonly payerName: string;
  readonly payerEmail: string;
  readonly payerPhone: string;
  readonly expiresAtMs: number;
}

export interface CollectionBody {
  readonly transactionRef: string;
  readonly upstreamRef: string;
  readonly currency: string;
  readonly method: string;
  readonly amountMinor: string;
  readonly status: CollectionStatus;
  readonly paidAmountMinor: string | null;
  readonly failureReason: string | null;
  readonly instructions: InstructionsBody;
  readonly refundRef: string | null;
}

export interface RefundBody {
  readonly amountMinor: string;
}

export interface RefundResultBody {
  readonly refundRef: string;
  readonly transactionRef: string;
  readonly amountMinor: string;
  readonly status: 'SUCCESS';
}

export interface CompleteCollectionBody {
  readonly outcome: 'Success' | 'Failed';
  readonly paidAmountMinor?: string;
}

export interface SubmitPayoutBody {
  readonly transactionRef: string;
  readonly currency: string;
  readonly method: string;
  readonly amountMinor: string;
  readonly bankCode: string | null;
  readonly account: string;
  readonly name: string;
  readonly phone: string;
  readonly email: string;
}

/** A name enquiry: who holds this account? */
export interface ResolveAccountBody {
  readonly currency: string;
  readonly method: string;
  readonly bankCode: string | null;
  readonly account: string;
}

/** The holder the bank has on record for the account. */
export interface ResolvedAccountBody {
  readonly accountName: string;
  readonly bankCode: string | null;
  readonly account: string;
}

export interface PayoutBody {
  readonly transactionRef: string;
  readonly status: PayoutStatus;
  readonly upstreamRef: string | null;
  readonly failureReason: string | null;
}

/** What the simulator answers on a refusal (4xx/5xx). */
export interface ErrorBody {
  readonly error: string;
  readonly message: string;
}

/** A state change the bank reports; the callback body adds an event id and a time. */
export type CallbackPayload =
  | {
      readonly kind: 'collection';
      readonly transactionRef: string;
      readonly upstreamRef: string;
      readonly status: CollectionStatus;
      readonly paidAmountMinor: string | null;
      readonly failureReason: string | null;
    }
  | {
      readonly kind: 'payout';
      readonly transactionRef: string;
      readonly status: PayoutStatus;
      readonly upstreamRef: string | null;
      readonly failureReason: string | null;
    };

export type CallbackBody = CallbackPayload & { readonly eventId: string; readonly occurredAt: string };

const SIGNATURE_PREFIX = 'sha256=';

function callbackMac(secret: string, timestampSeconds: string, rawBody: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest();
}

/** `sha256=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>`: the timestamp is inside the MAC. */
export function signCallback(secret: string, timestampSeconds: string, rawBody: Uint8Array): string {
  return SIGNATURE_PREFIX + callbackMac(secret, timestampSeconds, rawBody).toString('hex');
}
