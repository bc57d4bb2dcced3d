// What the hosted checkout page shows and polls: the payment as the payer may see it. Built by the
// payment service from a checkout token; carries nothing a payer should not read.
import type { CollectionInstructions } from '../../connectors/channel.js';

export const PAYMENT_STATUSES = ['Pending', 'Success', 'Failed', 'Expired', 'Refund'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface CheckoutView {
  readonly transactionRef: string;
  readonly merchantName: string;
  readonly currency: string;
  readonly method: string;
  /** Major units, e.g. 100.5. */
  readonly amount: number;
  readonly status: PaymentStatus;
  readonly expiresAt: string;
  readonly expiresAtMs: number;
  readonly redirectUrl: string;
  readonly sandbox: boolean;
  /** null while the channel is still preparing the collection (the page shows "preparing"). */
  readonly instructions: CollectionInstructions | null;
  readonly failureReason: string | null;
}

/** What the checkout routes need from the payment service. */
export interface CheckoutSource {
  /** null when the token is unknown (the page answers 404 without saying more). */
  viewByToken(token: string): Promise<CheckoutView | null>;
  /** Sandbox Pay/Decline buttons; throws AppError FORBIDDEN for live payments. */
  sandboxCompleteByToken(token: string, outcome: 'Success' | 'Failed'): Promise<CheckoutView>;
}
