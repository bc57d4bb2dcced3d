// The service's own RSA signing key (created once, shared by every instance through the database)
// and the headers each delivery carries: the RSA `Signature` of contract section 6 and the Standard
// Webhooks HMAC, both produced exactly as the SDK's verifiers and the `standardwebhooks` library check them.
import crypto, { type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { stringToSign } from '../../sdk/src/signing.js';
import { signStandardWebhook } from '../../sdk/src/webhooks.js';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/secrets.js';
import type { Db } from '../store/schema.js';

export const SERVICE_KEY_ID = 'webhook-signing';
const SERVICE_KEY_BITS = 2048;
export const USER_AGENT = 'Paygate-Webhooks/1';

export interface ServiceKey {
  readonly publicKeyPem: string;
  readonly privateKey: KeyObject;
}

const generateKeyPair = promisify(crypto.generateKeyPair);

async function readServiceKey(db: Db, box: SecretBox): Promise<ServiceKey | null> {
  const row = await db.selectFrom('service_keys').selectAll().where('id', '=', SERVICE_KEY_ID).executeTakeFirst();
  if (!row) return null;
  return { publicKeyPem: row.public_key_pem, privateKey: crypto.createPrivateKey(box.open(row.private_key_enc)) };
}

/**
 * The service key, generated on first start. Instances starting together may each generate one:
 * the first insert wins and everyone re-reads it, so all instances sign with the same key.
 */
export async function loadOrCreateServiceKey(db: Db, box: SecretBox, clock: Clock): Promise<ServiceKey> {
  const existing = await readServiceKey(db, box);
  if (existing) return existing;
  const pair = await generateKeyPair('rsa', { modulusLength: SERVICE_KEY_BITS });
  await db
    .insertInto('service_keys')
    .values({
      id: SERVICE_KEY_ID,
      algorithm: 'RSA-SHA512',
      public_key_pem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      private_key_enc: box.seal(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
      created_at_ms: BigInt(clock.nowMs()),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const stored = await readServiceKey(db, box);
  if (!stored) throw new Error('webhooks: the service key was neither found nor created');
  return stored;
}

/**
 * The same bytes as the SDK's signRsaSha512, computed on the libuv thread pool: an RSA-2048
 * signature costs one to two milliseconds of CPU, which on the event loop would cap deliveries and
 * stall every request served by the same process.
 */
export function signRsaSha512Async(privateKey: KeyObject, body: string, timestamp: string): Promise<string> {
  return new Promise((resolve, reject) => {
    crypto.sign('sha512', Buffer.from(stringToSign(body, timestamp)), privateKey, (error, signature) =>
      error ? reject(error) : resolve(signature.toString('base64')),
    );
  });
}

export interface DeliverySigningInput {
  readonly serviceKey: ServiceKey;
  /** The merchant's `whsec_` secret. */
  readonly webhookSecret: string;
  readonly eventId: string;
  readonly merchantId: string;
  readonly body: string;
  readonly nowMs: number;
}

/** Every header of one delivery attempt; both signatures cover the exact body bytes and this attempt's time. */
export async function deliveryHeaders(input: DeliverySigningInput): Promise<Record<string, string>> {
  const seconds = Math.floor(input.nowMs / 1000);
  const timestamp = String(seconds);
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    MerchantID: input.merchantId,
    Timestamp: timestamp,
    Signature: await signRsaSha512Async(input.serviceKey.privateKey, input.body, timestamp),
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signStandardWebhook(input.webhookSecret, input.eventId, seconds, input.body),
  };
}
