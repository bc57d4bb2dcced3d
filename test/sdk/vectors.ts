// The pinned signing vectors (test/fixtures/signing.json), shared by the SDK tests.
import { readFileSync } from 'node:fs';

interface SigningVectors {
  request_rsa: {
    privateKeyPem: string;
    publicKeyPem: string;
    body: string;
    timestamp: string;
    bodySha512Hex: string;
    stringToSign: string;
    signature: string;
  };
  request_hmac: { secret: string; body: string; timestamp: string; stringToSign: string; signature: string };
  standard_webhook: {
    secret: string;
    webhookId: string;
    webhookTimestamp: string;
    body: string;
    webhookSignature: string;
  };
}

export const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/signing.json', import.meta.url), 'utf8'),
) as SigningVectors;
