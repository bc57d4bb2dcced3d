// What the payer is shown for a payment at one instant: the status the page acts on (a pending
// payment past its expiry is shown as expired, as the contract's 30-minute limit says) and the
// status endpoint's JSON, which the page's script polls.
import type { CollectionInstructions } from '../connectors/channel.js';
import type { CheckoutView, PaymentStatus } from '../domain/payments/checkout-view.js';
import { returnUrl, safeRedirectUrl } from './format.js';

export const FINAL_STATUSES: ReadonlySet<PaymentStatus> = new Set(['Success', 'Failed', 'Expired', 'Refund']);

/** The status the payer sees: Pending turns into Expired the moment expiresAt passes. */
export function shownStatus(view: CheckoutView, nowMs: number): PaymentStatus {
  return view.status === 'Pending' && nowMs >= view.expiresAtMs ? 'Expired' : view.status;
}

export interface CheckoutStatusBody {
  readonly status: PaymentStatus;
  readonly final: boolean;
  /** null while the channel prepares them, and once the payment is final. */
  readonly instructions: CollectionInstructions | null;
  readonly expiresAt: string;
  /** Server-measured, so a payer's phone with a wrong clock still counts down correctly. */
  readonly expiresInMs: number;
  /** The merchant's redirect URL when it is a usable http(s) URL, else null. */
  readonly redirectUrl: string | null;
  /** redirectUrl with transactionRef and status appended; set only once the payment is final. */
  readonly returnUrl: string | null;
  readonly failureReason: string | null;
}

export function statusBody(view: CheckoutView, nowMs: number): CheckoutStatusBody {
  const status = shownStatus(view, nowMs);
  const final = FINAL_STATUSES.has(status);
  return {
    status,
    final,
    instructions: final ? null : view.instructions,
    expiresAt: view.expiresAt,
    expiresInMs: Math.max(0, view.expiresAtMs - nowMs),
    redirectUrl: safeRedirectUrl(view.redirectUrl)?.toString() ?? null,
    returnUrl: final ? returnUrl(view.redirectUrl, view.transactionRef, status) : null,
    failureReason: status === 'Failed' ? view.failureReason : null,
  };
}
