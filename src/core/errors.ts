// The one error type. Each reason carries its HTTP status, so domain code throws a reason and the
// HTTP layer renders the contract's envelope without a mapping table of its own.
export const REASON_STATUS = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNSUPPORTED_CURRENCY: 400,
  UNSUPPORTED_METHOD: 400,
  INVALID_BANK_CODE: 400,
  BATCH_REFUSED: 400,
  MISSING_CREDENTIALS: 401,
  INVALID_TIMESTAMP: 401,
  TIMESTAMP_OUT_OF_WINDOW: 401,
  UNKNOWN_MERCHANT: 401,
  INVALID_SIGNATURE: 401,
  SIGNATURE_REUSED: 401,
  UNAUTHORIZED: 401,
  MERCHANT_DISABLED: 403,
  METHOD_NOT_ENABLED: 403,
  IP_NOT_ALLOWED: 403,
  KEY_SCOPE: 403,
  FORBIDDEN: 403,
  APPROVER_SAME_KEY: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE_MERCHANT_REF: 409,
  CONFLICT: 409,
  PAYOUT_NOT_PENDING_APPROVAL: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_BALANCE: 422,
  PAYMENT_NOT_REFUNDABLE: 422,
  REFUND_WINDOW_EXPIRED: 422,
  PAYMENT_NOT_SUCCESSFUL: 422,
  INVALID_ACCOUNT: 422,
  NAME_ENQUIRY_UNAVAILABLE: 422,
  ACCOUNT_NAME_MISMATCH: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UNAVAILABLE: 503,
} as const;

export type Reason = keyof typeof REASON_STATUS;

export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
}

/**
 * A refusal (status under 500) is an answer to the caller, not a fault of the service: it is made
 * without a stack trace, which nobody reads and which was the largest single cost of a refused request
 * (a 404 took 53 – 55 µs of the service's CPU against the no-op route's 23 – 25). Without it a 404
 * costs 14 % less CPU and a 401 for missing headers 11 % less, two builds measured side by side
 * (docs/benchmarks.md, session 41): a client that keeps sending bad requests costs the service less.
 * Errors of 500 and 503 keep their stack.
 */
export class AppError extends Error {
  readonly status: number;
  readonly reason: Reason;
  readonly detail: string;
  readonly errors?: readonly FieldProblem[];
  readonly headers?: Readonly<Record<string, string>>;

  constructor(reason: Reason, detail: string, errors?: readonly FieldProblem[], headers?: Readonly<Record<string, string>>) {
    const stackFrames = Error.stackTraceLimit;
    if (REASON_STATUS[reason] < 500) Error.stackTraceLimit = 0;
    try {
      super(`${reason}: ${detail}`);
    } finally {
      Error.stackTraceLimit = stackFrames;
    }
    this.status = REASON_STATUS[reason];
    this.reason = reason;
    this.detail = detail;
    if (errors !== undefined) this.errors = errors;
    if (headers !== undefined) this.headers = headers;
  }

  /**
   * A refusal's reason raised for what is a bug inside the service, not a caller's mistake (a broken
   * invariant, met by a background job as often as by a request): made with its stack, to find where.
   */
  static fault(reason: Reason, detail: string): AppError {
    const error = new AppError(reason, detail);
    Error.captureStackTrace(error, AppError.fault);
    return error;
  }
}

export const validationError = (field: string, problem: string): AppError =>
  new AppError('VALIDATION_FAILED', `${field} ${problem}.`, [{ field, problem }]);

export const notFound = (what = 'record'): AppError =>
  new AppError('NOT_FOUND', `No such ${what} for this merchant.`);
