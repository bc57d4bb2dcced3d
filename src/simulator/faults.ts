// Fault switches and counters of the simulator: what tests turn on to make the "bank" misbehave,
// and what they read to check how often the service called it.

/** Every switch off is the well-behaved bank. Tests change these directly or via POST /sim/faults. */
export interface SimulatorFaults {
  /** The next N bank API requests (/v1/...) are answered 500 without being processed. */
  failNextRequests: number;
  /** Added before every bank API answer. */
  latencyMs: number;
  /** The next N bank API requests wait, unprocessed, until releaseHeld() (or close); then they are processed. */
  holdNextRequests: number;
  /** Callbacks are not sent at all (the service must find out by querying). */
  dropCallbacks: boolean;
  /** Every callback is delivered twice. */
  duplicateCallbacks: boolean;
  /** Wait this long before a callback's first delivery attempt. */
  callbackDelayMs: number;
  /** The next N callback delivery attempts carry a wrong signature (retries then sign correctly). */
  badSignatureCallbacks: number;
  /** The next N refund requests are declined (422 REFUND_DECLINED), as a bank that refuses a refund. */
  refuseNextRefunds: number;
}

export const FAULT_LIMITS = {
  failNextRequests: 1_000_000,
  latencyMs: 120_000,
  holdNextRequests: 1_000,
  callbackDelayMs: 600_000,
  badSignatureCallbacks: 1_000_000,
  refuseNextRefunds: 1_000_000,
} as const;

export const noFaults = (): SimulatorFaults => ({
  failNextRequests: 0,
  latencyMs: 0,
  holdNextRequests: 0,
  dropCallbacks: false,
  duplicateCallbacks: false,
  callbackDelayMs: 0,
  badSignatureCallbacks: 0,
  refuseNextRefunds: 0,
});

/** JSON schema of a POST /sim/faults body: any subset of the switches. */
export const faultsPatchSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    failNextRequests: { type: 'integer', minimum: 0, maximum: FAULT_LIMITS.failNextRequests },
    latencyMs: { type: 'integer', minimum: 0, maximum: FAULT_LIMITS.latencyMs },
    holdNextRequests: { type: 'integer', minimum: 0, maximum: FAULT_LIMITS.holdNextRequests },
    dropCallbacks: { type: 'boolean' },
    duplicateCallbacks: { type: 'boolean' },
    callbackDelayMs: { type: 'integer', minimum: 0, maximum: FAULT_LIMITS.callbackDelayMs },
    badSignatureCallbacks: { type: 'integer', minimum: 0, maximum: FAULT_LIMITS.badSignatureCallbacks },
    refuseNextRefunds: { type: 'integer', minimum: 0, maximum: FAULT_LIMITS.refuseNextRefunds },
  },
} as const;

/** Counters since start. Per-reference counts are forgotten with the payout they belong to. */
export class SimulatorStats {
  /** Bank API requests received (/v1/...), including those a fault answered 500. */
  requests = 0;
  faultedRequests = 0;
  /** Requests the holdNextRequests switch held (released or not). */
  heldRequests = 0;
  collectionsCreated = 0;
  /** Raw payout submissions, repeats of a reference included. */
  payoutSubmissions = 0;
  /** Distinct transfers executed: a repeated submission of a reference never adds one. */
  transfersExecuted = 0;
  refunds = 0;
  /** Name enquiries answered or refused (POST /v1/accounts/resolve that passed the fault switches). */
  nameEnquiries = 0;
  callbacksQueued = 0;
  callbackAttempts = 0;
  callbacksDelivered = 0;
  callbacksDropped = 0;
  /** Callbacks given up after every retry failed. */
  callbacksAbandoned = 0;
  private readonly submissionsByRef = new Map<string, number>();
  private readonly transfersByRef = new Map<string, number>();

  /** How many times a payout with this transactionRef was submitted (received). */
  submissionsFor(transactionRef: string): number {
    return this.submissionsByRef.get(transactionRef) ?? 0;
  }

  /** How many transfers the bank executed for this transactionRef: 0 or 1. */
  transfersFor(transactionRef: string): number {
    return this.transfersByRef.get(transactionRef) ?? 0;
  }

  recordSubmission(transactionRef: string): void {
    this.payoutSubmissions += 1;
    this.submissionsByRef.set(transactionRef, this.submissionsFor(transactionRef) + 1);
  }

  recordTransfer(transactionRef: string): void {
    this.transfersExecuted += 1;
    this.transfersByRef.set(transactionRef, this.transfersFor(transactionRef) + 1);
  }

  forget(transactionRef: string): void {
    this.submissionsByRef.delete(transactionRef);
    this.transfersByRef.delete(transactionRef);
  }

  toJSON(): Record<string, number> {
    return {
      requests: this.requests,
      faultedRequests: this.faultedRequests,
      heldRequests: this.heldRequests,
      collectionsCreated: this.collectionsCreated,
      payoutSubmissions: this.payoutSubmissions,
      transfersExecuted: this.transfersExecuted,
      refunds: this.refunds,
      nameEnquiries: this.nameEnquiries,
      callbacksQueued: this.callbacksQueued,
      callbackAttempts: this.callbackAttempts,
      callbacksDelivered: this.callbacksDelivered,
      callbacksDropped: this.callbacksDropped,
      callbacksAbandoned: this.callbacksAbandoned,
    };
  }
}
