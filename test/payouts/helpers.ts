// Helpers of the payout tests: valid request bodies per currency and method, funding through the
// ledger's operator adjustment, and waiting for a payout to reach a status.
import type { Currency, PayoutInitiateRequest, PayoutMethod, PayoutRecord } from '../../sdk/src/index.js';
import type { PayoutStatus, PayoutsTable } from '../../src/domain/payouts/payout-rows.js';
import type { SimulatorFaults, SimulatorStats } from '../../src/simulator/faults.js';
import type { TestMerchant, TestServer } from '../helpers/server.js';
import { T0_MS } from '../ledger/helpers.js';
import { newMerchantRef, pause } from '../payments/api-helpers.js';

const DEFAULTS: Record<string, { bankCode?: string; account: string; amount: number }> = {
  'INR:BANK': { bankCode: 'HDFC0001234', account: '50100012345678', amount: 1000 },
  'INR:UPI': { account: 'asha.rao@okhdfc', amount: 1000 },
  'NGN:BANK': { bankCode: '044', account: '0123456789', amount: 10_000 },
  'NGN:TRANSFER': { bankCode: '044', account: '0123456789', amount: 10_000 },
  'IDR:TRANSFER': { bankCode: '00014', account: '1234567890', amount: 150_000 },
  'EGP:BANK': { bankCode: '1207', account: '100012345678', amount: 500 },
  'EGP:WALLET': { account: '01012345678', amount: 500 },
};

/** A valid payout body; `overrides` replace any field (set bankCode: undefined to drop it). */
export function payoutBody(currency: Currency, method: PayoutMethod, overrides: Partial<PayoutInitiateRequest> = {}): PayoutInitiateRequest {
  const d = DEFAULTS[`${currency}:${method}`]!;
  const body: PayoutInitiateRequest = {
    merchantRef: newMerchantRef(),
    currency,
    method,
    amount: d.amount,
    ...(d.bankCode === undefined ? {} : { bankCode: d.bankCode }),
    name: 'Asha Rao',
    account: d.account,
    phone: '919812345678',
    email: 'asha@example.com',
    ...overrides,
  };
  if ('bankCode' in overrides && overrides.bankCode === undefined) delete body.bankCode;
  return body;
}

/** An account of the same shape ending in a sandbox magic suffix. */
export const magicAccount = (currency: Currency, method: PayoutMethod, ending: '0001' | '0002' | '0003'): string => {
  if (currency === 'INR' && method === 'UPI') return `asha${ending}@okhdfc`;
  const base = DEFAULTS[`${currency}:${method}`]!.account;
  return base.slice(0, base.length - 4) + ending;
};

/** Gives a merchant available money with the operator's ledger adjustment. */
export async function fund(server: TestServer, merchantId: string, currency: Currency, amountMinor: bigint): Promise<void> {
  await server.services.ledger.adjust({ merchantId, currency, account: 'available', amountMinor, reason: 'test funding for payouts', actor: 'test' });
}

/** A payout's row as stored, by transactionRef (it must exist). */
export async function payoutRow(server: TestServer, transactionRef: string) {
  return server.services.store.db.selectFrom('payouts').selectAll().where('transaction_ref', '=', transactionRef).executeTakeFirstOrThrow();
}

/**
 * A payouts row as the store holds it, for tests that write rows straight into the table: an IDR bank
 * payout of `merchantId` made at T0_MS (completed then, if final), never sent, with `overrides`.
 */
export function storedPayout(merchantId: string, ref: string, status: PayoutStatus, overrides: Partial<PayoutsTable> = {}): PayoutsTable {
  return {
    transaction_ref: ref,
    merchant_id: merchantId,
    merchant_ref: `mr-${ref}`,
    request_hash: 'h',
    currency: 'IDR',
    method: 'BANK',
    amount_minor: 10_000n,
    fee_minor: 500n,
    bank_code: '014',
    beneficiary_name: 'Budi',
    account: '1234567890',
    phone: '081234567890',
    email: 'b@example.com',
    webhook_url: null,
    status,
    failure_reason: null,
    upstream_ref: null,
    utr: null,
    channel: 'simulator',
    name_check_name: null,
    name_check_score: null,
    name_check_threshold: null,
    fallback_channels: null,
    submit_attempts: 0n,
    query_attempts: 0n,
    next_action_at_ms: null,
    locked_until_ms: null,
    created_at_ms: BigInt(T0_MS),
    updated_at_ms: BigInt(T0_MS),
    completed_at_ms: status === 'Success' || status === 'Failed' ? BigInt(T0_MS) : null,
    batch_id: null,
    created_by_key_id: null,
    approval_expires_at_ms: null,
    approval_decided_by_key_id: null,
    approval_reason: null,
    ...overrides,
  };
}

export const faults = (server: TestServer): SimulatorFaults => server.services.channels.simulator.server!.faults;
export const stats = (server: TestServer): SimulatorStats => server.services.channels.simulator.server!.stats;

/** Polls payout/status until the payout has one of `statuses`; returns the record. */
export async function until(merchant: TestMerchant, transactionRef: string, statuses: readonly string[], limitMs = 15_000): Promise<PayoutRecord> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const answer = await merchant.client.payoutStatus({ transactionRef });
    if (answer.ok && statuses.includes(answer.data.status)) return answer.data;
    if (Date.now() > deadline) throw new Error(`payout ${transactionRef} is ${answer.data.status}, not ${statuses.join('|')}`);
    await pause(50);
  }
}

export const FINAL = ['Success', 'Failed'] as const;
