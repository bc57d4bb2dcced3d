// The failure reasons payments and payouts record (contract section 3): UPPER_SNAKE, whatever a
// channel said, so merchants can match on them.

/** The reason recorded when the channel declined without saying why. */
export const DEFAULT_FAILURE_REASON = 'UPSTREAM_REJECTED';
/** A payer paid another sum than asked: the payment fails and the money is returned or held (docs/payments.md). */
export const AMOUNT_MISMATCH = 'AMOUNT_MISMATCH';
const FAILURE_REASON_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/** A channel's reason if it is UPPER_SNAKE, else the default. */
export const failureReasonOf = (reason: string | undefined): string =>
  reason !== undefined && FAILURE_REASON_PATTERN.test(reason) ? reason : DEFAULT_FAILURE_REASON;
