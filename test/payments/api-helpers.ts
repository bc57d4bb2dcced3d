// Helpers of the pay-in tests that go through HTTP with the SDK against the real server.
import type { PaymentInitiateRequest, PayInMethod, Currency } from '../../sdk/src/index.js';
import type { PaymentJobs } from '../../src/domain/payments/payment-jobs.js';
import type { PaymentsTable } from '../../src/domain/payments/payment-rows.js';
import type { TestMerchant, TestServer } from '../helpers/server.js';

let counter = 0;

/** A fresh merchantRef per call, unique across test files running in parallel. */
export const newMerchantRef = (): string => `ord-${process.pid}-${Date.now().toString(36)}-${(counter += 1)}`;

const AMOUNTS: Record<Currency, number> = { INR: 1500.5, EGP: 250, NGN: 12_000, IDR: 150_000 };
const PHONES: Record<Currency, string> = { INR: '919812345678', EGP: '01012345678', NGN: '2348031234567', IDR: '6281234567890' };

/** A valid initiate body for the method; `overrides` replace any field. */
export function initiateBody(currency: Currency, method: PayInMethod, overrides: Partial<PaymentInitiateRequest> = {}): PaymentInitiateRequest {
  return {
    merchantRef: newMerchantRef(),
    method,
    currency,
    amount: AMOUNTS[currency],
    name: 'Asha Rao',
    email: 'asha@example.com',
    phone: PHONES[currency],
    redirectUrl: 'https://shop.example.com/return',
    ...overrides,
  };
}

export const jobsOf = (server: TestServer): PaymentJobs => server.services.payments.jobs;

/** Runs a job's steps, each waited for, until it finds nothing to do. */
export async function drain(job: { runDue(): Promise<number> }): Promise<void> {
  for (let round = 0; round < 100 && (await job.runDue()) > 0; round += 1);
}

/** Waits until the channel prepared the payment's collection (the worker or this call asks for it). */
export async function collectionReady(server: TestServer, transactionRef: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const row = await server.services.store.db
      .selectFrom('payments')
      .select('collection_state')
      .where('transaction_ref', '=', transactionRef)
      .executeTakeFirstOrThrow();
    if (row.collection_state === 'ready') return;
    if (Date.now() > deadline) throw new Error(`collection of ${transactionRef} is still ${row.collection_state}`);
    await server.services.payments.requestDueCollections();
    await pause(20);
  }
}

/** Creates a payment and has its payer pay it (sandbox); returns its transactionRef. */
export async function paidPayment(merchant: TestMerchant, currency: Currency, method: PayInMethod, overrides: Partial<PaymentInitiateRequest> = {}): Promise<string> {
  const created = await merchant.client.paymentInitiate(initiateBody(currency, method, overrides));
  if (!created.ok) throw new Error(`initiate failed: ${created.message} ${JSON.stringify(created.data)}`);
  const completed = await merchant.client.sandboxCompletePayment({ transactionRef: created.data.transactionRef, outcome: 'Success' });
  if (!completed.ok || completed.data.status !== 'Success') throw new Error(`sandbox completion failed: ${completed.message}`);
  return created.data.transactionRef;
}

/** Webhook events recorded for one payment, oldest first. */
export async function eventsOf(server: TestServer, transactionRef: string): Promise<{ type: string; payload: any }[]> {
  const rows = await server.services.store.db
    .selectFrom('webhook_events')
    .select(['type', 'payload_json'])
    .where('resource_ref', '=', transactionRef)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ type: row.type, payload: JSON.parse(row.payload_json) }));
}

/** Ledger entries of one kind for a merchant. */
export async function entriesOf(server: TestServer, merchantId: string, kind: string): Promise<number> {
  return (await server.services.ledger.journal(merchantId)).filter((entry) => entry.kind === kind).length;
}

/** Gives a merchant available money (what a refund needs beyond the payment's own net amount). */
export async function fund(server: TestServer, merchantId: string, currency: Currency, amountMinor: bigint): Promise<void> {
  await server.services.ledger.adjust({ merchantId, currency, account: 'available', amountMinor, reason: 'test funding', actor: 'test' });
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A payments row as the store holds it, for tests that write rows straight into the table: a Pending
 * INR NATIVE payment of `merchantId` on the simulator made at `atMs`, its collection requested then,
 * with `overrides`.
 */
export function storedPayment(merchantId: string, ref: string, atMs: number, overrides: Partial<PaymentsTable> = {}): PaymentsTable {
  const at = BigInt(atMs);
  return {
    transaction_ref: ref,
    merchant_id: merchantId,
    merchant_ref: `mr-${ref}`,
    request_hash: 'h',
    method: 'NATIVE',
    currency: 'INR',
    amount_minor: 50_000n,
    fee_minor: 1_000n,
    paid_amount_minor: null,
    status: 'Pending',
    failure_reason: null,
    payer_name: 'Payer',
    payer_email: 'payer@example.com',
    payer_phone: '919876543210',
    redirect_url: 'https://merchant.example/return',
    webhook_url: null,
    checkout_token_hash: `token-${ref}`,
    checkout_token_enc: 'sealed',
    channel: 'simulator',
    upstream_ref: null,
    collection_json: null,
    collection_state: 'requested',
    collection_attempts: 0n,
    collection_next_at_ms: at,
    collection_lease_until_ms: null,
    reconcile_at_ms: null,
    refund_state: null,
    refund_ref: null,
    refund_upstream_ref: null,
    refund_attempts: 0n,
    refund_next_at_ms: null,
    created_at_ms: at,
    updated_at_ms: at,
    expires_at_ms: at + 30n * 60_000n,
    completed_at_ms: null,
    refunded_at_ms: null,
    ...overrides,
  };
}
