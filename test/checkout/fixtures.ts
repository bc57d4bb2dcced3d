// Checkout views for every kind of collection instructions, and an in-memory CheckoutSource: a test
// double of the payment service (not of any database) for the page's unit tests.
import Fastify, { type FastifyInstance } from 'fastify';
import type { CollectionInstructions } from '../../src/connectors/channel.js';
import { ManualClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import type { CheckoutSource, CheckoutView } from '../../src/domain/payments/checkout-view.js';
import { checkoutRoutes } from '../../src/checkout/routes.js';

export const NOW_MS = Date.parse('2025-03-01T10:00:00.000Z');
export const PUBLIC_BASE_URL = 'https://pay.example.com';

export const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  'javascript:alert(1)',
];

interface MethodCase {
  readonly name: string;
  readonly currency: string;
  readonly method: string;
  readonly amount: number;
  readonly instructions: CollectionInstructions;
}

export const METHOD_CASES: readonly MethodCase[] = [
  {
    name: 'INR NATIVE (UPI)',
    currency: 'INR',
    method: 'NATIVE',
    amount: 1000.5,
    instructions: {
      kind: 'UPI',
      qrPayload: 'upi://pay?pa=shop@okbank&pn=Shop&am=1000.50&cu=INR&tr=ref1',
      intentUrl: 'upi://pay?pa=shop@okbank&pn=Shop&am=1000.50&cu=INR&tr=ref1',
    },
  },
  {
    name: 'NGN TRANSFER',
    currency: 'NGN',
    method: 'TRANSFER',
    amount: 25000,
    instructions: { kind: 'VIRTUAL_ACCOUNT', accountNumber: '9912345678', bankName: 'Wema Bank', accountName: 'Shop Checkout' },
  },
  {
    name: 'IDR BNI',
    currency: 'IDR',
    method: 'BNI',
    amount: 150000,
    instructions: { kind: 'VIRTUAL_ACCOUNT', accountNumber: '8808123456789012', bankName: 'BNI', accountName: 'Toko Contoh' },
  },
  {
    name: 'IDR QRIS',
    currency: 'IDR',
    method: 'QRIS',
    amount: 75000,
    instructions: { kind: 'QRIS', qrPayload: '00020101021226590013ID.CO.QRIS.WWW0118936000140000000000215ID10200000000005204599953033605405750005802ID5909TOKO TEST6007JAKARTA6304ABCD' },
  },
  {
    name: 'IDR OVO',
    currency: 'IDR',
    method: 'OVO',
    amount: 50000,
    instructions: { kind: 'EWALLET', walletPhone: '081234567890' },
  },
  {
    name: 'EGP FAWRY',
    currency: 'EGP',
    method: 'FAWRY',
    amount: 350.75,
    instructions: { kind: 'FAWRY', referenceCode: '9876543210' },
  },
  {
    name: 'EGP WALLET',
    currency: 'EGP',
    method: 'WALLET',
    amount: 120,
    instructions: { kind: 'MOBILE_WALLET', walletPhone: '01012345678' },
  },
];

export function makeView(overrides: Partial<CheckoutView> = {}): CheckoutView {
  const expiresAtMs = NOW_MS + 29 * 60_000;
  return {
    transactionRef: '0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    merchantName: 'Acme Store',
    currency: 'INR',
    method: 'NATIVE',
    amount: 1000.5,
    status: 'Pending',
    expiresAt: new Date(expiresAtMs).toISOString(),
    expiresAtMs,
    redirectUrl: 'https://shop.example.com/return?order=42',
    sandbox: true,
    instructions: METHOD_CASES[0]!.instructions,
    failureReason: null,
    ...overrides,
  };
}

/** The payment service as the checkout routes see it, over a map of token -> view. */
export class InMemoryCheckoutSource implements CheckoutSource {
  readonly views = new Map<string, CheckoutView>();
  readonly completions: { token: string; outcome: string }[] = [];

  async viewByToken(token: string): Promise<CheckoutView | null> {
    return this.views.get(token) ?? null;
  }

  async sandboxCompleteByToken(token: string, outcome: 'Success' | 'Failed'): Promise<CheckoutView> {
    const view = this.views.get(token);
    if (!view) throw new AppError('NOT_FOUND', 'No such checkout.');
    if (!view.sandbox) throw new AppError('FORBIDDEN', 'Live payment.');
    this.completions.push({ token, outcome });
    const completed: CheckoutView = { ...view, status: outcome, failureReason: outcome === 'Failed' ? 'UPSTREAM_REJECTED' : null };
    this.views.set(token, completed);
    return completed;
  }
}

export async function buildCheckoutApp(source: CheckoutSource, clock = new ManualClock(NOW_MS)): Promise<FastifyInstance> {
  // The same validator settings as the service's app (src/http/app.ts): unknown fields are refused, not stripped.
  const app = Fastify({
    logger: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
  });
  await app.register(checkoutRoutes, { source, publicBaseUrl: PUBLIC_BASE_URL, clock });
  await app.ready();
  return app;
}
