// Arbitrary bodies, correctly signed, to every reporting call: never a 500, always the envelope with a
// reason of the contract's table, and a cursor that is not one of ours is refused, never decoded.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON_STATUS } from '../../src/core/errors.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

const ROUTES = ['payment/list', 'payout/list', 'account/statement', 'account/settlements', 'report/create', 'report/status'] as const;
const FIELDS = ['status', 'currency', 'method', 'from', 'to', 'merchantRef', 'transactionRef', 'limit', 'cursor', 'type', 'reportId'];

let server: TestServer;
let merchant: TestMerchant;

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
});
afterAll(async () => server.close());

const value = fc.oneof(
  fc.constantFrom('INR', 'IDR', 'Success', 'NATIVE', 'payments', 'statement', '2026-01-01', '2026-01-01T00:00:00Z', '9999-99-99', '', 'e30.AAAA'),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: -5, max: 500 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.base64String({ maxLength: 60 }).map((text) => `${text.replaceAll('=', '')}.${text.slice(0, 22).replaceAll('=', '')}`),
);

const body = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 5 });

describe('reporting calls under arbitrary bodies', () => {
  it('answer below 500, in the envelope, with a known reason', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), body, async (route, payload) => {
        const answer = await merchant.client.request<any>(route, payload);
        const where = `${route} ${JSON.stringify(payload)} -> ${answer.status} ${JSON.stringify(answer.data)}`;
        expect(answer.status, where).toBeLessThan(500);
        expect(answer.code, where).toBe(String(answer.status));
        if (answer.status !== 200) {
          expect(REASON_STATUS[answer.message as keyof typeof REASON_STATUS], where).toBe(answer.status);
          expect(typeof answer.data.detail, where).toBe('string');
        }
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
