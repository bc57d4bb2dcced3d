// The one interface every upstream (bank, wallet, aggregator) implements. The core never knows
// which upstream it talks to; a channel translates our requests to its API and its answers and
// callbacks back to these types. Each upstream is a folder beside this one; the simulator is one.
import type { Currency, Minor } from '../core/money.js';
import type { StatementFile } from './statement.js';

/** What the payer needs to pay, shown on the checkout page. Only the fields of its kind are set. */
export interface CollectionInstructions {
  readonly kind: 'UPI' | 'VIRTUAL_ACCOUNT' | 'QRIS' | 'EWALLET' | 'FAWRY' | 'MOBILE_WALLET';
  /** UPI: the upi://pay?... intent (also rendered as a QR). QRIS: the EMV QR payload. */
  readonly qrPayload?: string;
  readonly intentUrl?: string;
  /** Virtual account (NGN TRANSFER, IDR VA methods). */
  readonly accountNumber?: string;
  readonly bankName?: string;
  readonly accountName?: string;
  /** FAWRY reference code paid at a kiosk or in the app. */
  readonly referenceCode?: string;
  /** E-wallet / mobile wallet: the phone the prompt was sent to. */
  readonly walletPhone?: string;
}

export interface CreateCollectionRequest {
  readonly transactionRef: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly method: string;
  readonly amountMinor: Minor;
  readonly payerName: string;
  readonly payerEmail: string;
  readonly payerPhone: string;
  readonly expiresAtMs: number;
  /** Where the payer returns after paying in an app (the merchant's redirectUrl); e-wallets need it. */
  readonly redirectUrl: string;
}

export interface Collection {
  readonly upstreamRef: string;
  readonly instructions: CollectionInstructions;
}

export type UpstreamCollectionStatus = 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED';

export interface CollectionState {
  readonly upstreamRef: string;
  readonly status: UpstreamCollectionStatus;
  readonly paidAmountMinor?: Minor;
  readonly failureReason?: string;
}

export interface RefundRequest {
  readonly transactionRef: string;
  readonly upstreamRef: string;
  readonly amountMinor: Minor;
}

export interface PayoutSubmission {
  /** Our transactionRef: the upstream's idempotency key, so a resubmission can never pay twice. */
  readonly transactionRef: string;
  readonly currency: Currency;
  readonly method: string;
  readonly amountMinor: Minor;
  readonly bankCode: string | null;
  readonly account: string;
  readonly name: string;
  readonly phone: string;
  readonly email: string;
}

export type UpstreamPayoutStatus = 'PROCESSING' | 'SUCCESS' | 'FAILED' | 'UNKNOWN';

export interface PayoutState {
  readonly status: UpstreamPayoutStatus;
  readonly upstreamRef?: string;
  readonly failureReason?: string;
  /** The bank's transfer reference (UTR) once the upstream reports one; for the operator and the merchant. */
  readonly utr?: string;
}

/** A verified notification from the upstream. */
export type ChannelCallback =
  | { readonly kind: 'collection'; readonly transactionRef: string; readonly state: CollectionState }
  | { readonly kind: 'payout'; readonly transactionRef: string; readonly state: PayoutState }
  /** Authentic, but nothing for us to act on (an event type we do not use); answered 200. */
  | { readonly kind: 'ignored'; readonly reason: string };

/** Thrown when the upstream did not answer in time or answered 5xx: the outcome is unknown. */
export class UpstreamUnavailableError extends Error {}

/**
 * Thrown when the upstream answered and definitively refused (a 4xx, a documented error code): the
 * request certainly had no effect there. `failureReason` is our UPPER_SNAKE reason for it (contract
 * section 3; UPSTREAM_REJECTED when the upstream's code maps to nothing finer), `upstreamCode` and
 * `upstreamStatus` what the upstream said, for the operator's log. A payout refused this way at
 * submission may be sent to the next connector of its route.
 */
export class UpstreamRefusedError extends Error {
  constructor(
    readonly failureReason: string,
    message: string,
    readonly upstreamStatus: number | null = null,
    readonly upstreamCode: string | null = null,
  ) {
    super(message);
  }
}

/** A bank (or wallet provider) a payout can go to, as the upstream lists it. */
export interface UpstreamBank {
  readonly code: string;
  readonly name: string;
}

/** The holder of an account, as the upstream resolved it (name enquiry). */
export interface ResolvedAccount {
  readonly accountName: string;
  readonly bankCode: string | null;
  readonly account: string;
}

export interface Channel {
  readonly name: string;
  createCollection(request: CreateCollectionRequest): Promise<Collection>;
  /** `upstreamRef` is the one createCollection answered, when the payment has it. */
  queryCollection(transactionRef: string, upstreamRef?: string | null): Promise<CollectionState>;
  refund(request: RefundRequest): Promise<{ readonly refundRef: string }>;
  submitPayout(submission: PayoutSubmission): Promise<PayoutState>;
  /** Looks a payout up by our transactionRef; status UNKNOWN when the upstream never received it. */
  queryPayout(transactionRef: string): Promise<PayoutState>;
  /**
   * true when the upstream notifies us of a payout's outcome (a signed callback): its Processing
   * payouts are polled only as a backstop for a lost callback, first after 30 s instead of 2 s
   * (payout-limits.ts). Absent or false: the outcome is learnt by polling alone.
   */
  readonly payoutCallbacks?: boolean;
  /** Verifies and parses a callback; throws AppError INVALID_SIGNATURE when it is not authentic. */
  parseCallback(headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback;
  /** Optional: the banks payouts in `currency` can reach, as the upstream lists them. */
  listBanks?(currency: Currency): Promise<readonly UpstreamBank[]>;
  /** Optional: the account holder's name (name enquiry); UpstreamRefusedError INVALID_ACCOUNT when there is none. */
  resolveAccount?(request: { readonly currency: Currency; readonly method: string; readonly bankCode: string | null; readonly account: string }): Promise<ResolvedAccount>;
  /**
   * Optional: the upstream's statement of the UTC day starting at `dayStartMs`, fetched from its
   * report API, as the file its connector's statement format reads.
   */
  fetchStatement?(dayStartMs: number): Promise<StatementFile>;
  /** Releases connections. */
  close?(): Promise<void>;
}

/** Only the simulator has it: lets sandbox flows act as the payer at the "bank". */
export interface SandboxPayer {
  /**
   * The payer pays (or the bank declines) the collection; the simulator then calls back. Tests may
   * make the payer pay another sum than asked (`paidAmountMinor`).
   */
  completeCollection(transactionRef: string, outcome: 'Success' | 'Failed', options?: { readonly paidAmountMinor?: Minor }): Promise<void>;
}
