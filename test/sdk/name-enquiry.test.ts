// The SDK's name enquiry: payoutAccountInquiry signs its body to payout/accountInquiry and types the
// answer; payoutInitiate takes nameCheck and its record types the check it passed.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PaymentClient } from '../../sdk/src/client.js';
import { verifyHmacSha256 } from '../../sdk/src/signing.js';
import type { PayoutAccountInquiryRequest, PayoutAccountInquiryResult, PayoutInitiateRequest, PayoutRecord } from '../../sdk/src/index.js';

const secret = 'c2VjcmV0LWZvci1uYW1lLWVucXVpcnktdGVzdHM=';

describe('PaymentClient.payoutAccountInquiry', () => {
  it('posts the signed body to payout/accountInquiry and answers the typed holder', async () => {
    const sent: { url: string; body: string; headers: Record<string, string> }[] = [];
    const answer: PayoutAccountInquiryResult = { accountName: 'ASHA RAO', bankCode: 'HDFC0001234', bankName: 'HDFC Bank', account: '****5678' };
    const fetchFn: typeof fetch = async (input, init) => {
      sent.push({ url: String(input), body: init?.body as string, headers: init?.headers as Record<string, string> });
      return new Response(JSON.stringify({ code: '200', message: 'SUCCESS', data: answer }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = new PaymentClient({ baseUrl: 'https://pay.test', merchantId: 'M1', key: { type: 'HMAC-SHA256', secret }, clock: () => 1_750_000_000, fetch: fetchFn });
    const request: PayoutAccountInquiryRequest = { currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account: '50100012345678' };
    const result = await client.payoutAccountInquiry(request);
    expect(new URL(sent[0]!.url).pathname).toBe('/v1/api/payout/accountInquiry');
    expect(JSON.parse(sent[0]!.body)).toEqual(request);
    expect(verifyHmacSha256(secret, sent[0]!.body, sent[0]!.headers.Timestamp!, sent[0]!.headers.Signature!)).toBe(true);
    expect(result.data).toEqual(answer);
    expectTypeOf(result.data.bankName).toEqualTypeOf<string | null>();
  });

  it('types nameCheck on payoutInitiate and the check on the record', () => {
    expectTypeOf<PayoutInitiateRequest['nameCheck']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<NonNullable<PayoutRecord['nameCheck']>>().toEqualTypeOf<{ resolvedName: string; score: number; threshold: number }>();
  });
});
