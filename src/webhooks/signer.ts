// The service's own RSA signing keys (created once, rotated by the operator with an overlap, shared
// by every instance through the database) and the headers each delivery carries: the RSA `Signature` of contract section 6 and the Standard
// Webhooks HMAC, both produced exactly as the SDK's verifiers and the `standardwebhooks` library check them.
import crypto, { type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { stringToSign } from '../../sdk/src/signing.js';
import { signStandardWebhook } from '../../sdk/src/webhooks.js';
import { recordAudit } from '../audit/audit-log.js';
import { isoFromMs, type Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { SecretBox } from '../core/secrets.js';
import type { Db } from '../store/schema.js';
import { withTransaction } from '../store/transactions.js';

/** The id of the first service key; keys made by a rotation are `sk_` + hex. */
export const SERVICE_KEY_ID = 'webhook-signing';
const SERVICE_KEY_BITS = 2048;
export const USER_AGENT = 'Paygate-Webhooks/1';
/** How long a replaced service key stays listed in /v1/public-key (SERVICE_KEY_OVERLAP_SECONDS). */
export const DEFAULT_SERVICE_KEY_OVERLAP_SECONDS = 86_400;
/** How long an instance signs with the key it last read before it looks for a rotation made elsewhere. */
const KEYRING_REFRESH_MS = 1_000;

export interface ServiceKey {
  /** Sent as `Signature-Key-Id`; /v1/public-key lists each key under it. */
  readonly keyId: string;
  readonly publicKeyPem: string;
  readonly privateKey: KeyObject;
}

/** A service key as anyone may see it. `retiresAt` null: the current key, which signs. */
export interface PublicServiceKey {
  readonly keyId: string;
  readonly algorithm: 'RSA-SHA512';
  readonly publicKeyPem: string;
  readonly status: 'current' | 'previous';
  readonly createdAt: string;
  readonly retiresAt: string | null;
}

const generateKeyPair = promisify(crypto.generateKeyPair);

async function readCurrentKey(db: Db, box: SecretBox): Promise<ServiceKey | null> {
  const row = await db.selectFrom('service_keys').selectAll().where('retires_at_ms', 'is', null).executeTakeFirst();
  if (!row) return null;
  return { keyId: row.id, publicKeyPem: row.public_key_pem, privateKey: crypto.createPrivateKey(box.open(row.private_key_enc)) };
}

async function newKeyRow(box: SecretBox, id: string, nowMs: number) {
  const pair = await generateKeyPair('rsa', { modulusLength: SERVICE_KEY_BITS });
  return {
    id,
    algorithm: 'RSA-SHA512' as const,
    public_key_pem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    private_key_enc: box.seal(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    created_at_ms: BigInt(nowMs),
    retires_at_ms: null,
  };
}

/**
 * The current service key, generated on first start. Instances starting together may each generate
 * one: the first insert wins and everyone re-reads it, so all instances sign with the same key.
 */
export async function loadOrCreateServiceKey(db: Db, box: SecretBox, clock: Clock): Promise<ServiceKey> {
  const existing = await readCurrentKey(db, box);
  if (existing) return existing;
  await db
    .insertInto('service_keys')
    .values(await newKeyRow(box, SERVICE_KEY_ID, clock.nowMs()))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const stored = await readCurrentKey(db, box);
  if (!stored) throw new Error('webhooks: the service key was neither found nor created');
  return stored;
}

/**
 * The service's signing keys as every instance sees them: the current key signs every webhook; a
 * rotation makes a new current key and keeps the replaced one listed (so a receiver can still check
 * what it signed and fetch the new one by id) until its overlap ends. Instances re-read the
 * current key at most KEYRING_REFRESH_MS after a rotation made elsewhere.
 */
export class ServiceKeyring {
  private cached: { readonly atMs: number; readonly key: Promise<ServiceKey> } | null = null;
  private readonly opened = new Map<string, ServiceKey>();

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly overlapSeconds: number = DEFAULT_SERVICE_KEY_OVERLAP_SECONDS,
    first?: ServiceKey,
  ) {
    if (first) {
      this.opened.set(first.keyId, first);
      this.cached = { atMs: performance.now(), key: Promise.resolve(first) };
    }
  }

  /** The key that signs now. */
  current(): Promise<ServiceKey> {
    const now = performance.now();
    if (this.cached && now - this.cached.atMs < KEYRING_REFRESH_MS) return this.cached.key;
    const key = this.readCurrent();
    this.cached = { atMs: now, key };
    key.catch(() => this.cached?.key === key && (this.cached = null));
    return key;
  }

  /** The current key first, then replaced keys whose overlap has not ended, newest first. */
  async listed(): Promise<PublicServiceKey[]> {
    const nowMs = BigInt(this.clock.nowMs());
    const rows = await this.db
      .selectFrom('service_keys')
      .select(['id', 'algorithm', 'public_key_pem', 'created_at_ms', 'retires_at_ms'])
      .where((eb) => eb.or([eb('retires_at_ms', 'is', null), eb('retires_at_ms', '>', nowMs)]))
      .orderBy('created_at_ms', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const view = (row: (typeof rows)[number]): PublicServiceKey => ({
      keyId: row.id,
      algorithm: 'RSA-SHA512',
      publicKeyPem: row.public_key_pem,
      status: row.retires_at_ms === null ? 'current' : 'previous',
      createdAt: isoFromMs(row.created_at_ms),
      retiresAt: row.retires_at_ms === null ? null : isoFromMs(row.retires_at_ms),
    });
    return [...rows.filter((r) => r.retires_at_ms === null), ...rows.filter((r) => r.retires_at_ms !== null)].map(view);
  }

  /**
   * Makes a new current key; the replaced one stays listed for the overlap. Two rotations at once:
   * the conditional update lets one win, the other is refused with CONFLICT.
   */
  async rotate(actor: string): Promise<PublicServiceKey> {
    const nowMs = this.clock.nowMs();
    const fresh = await newKeyRow(this.box, `sk_${newId().replace(/-/g, '')}`, nowMs);
    const current = await loadOrCreateServiceKey(this.db, this.box, this.clock);
    await withTransaction(this.db, async (trx) => {
      const retired = await trx
        .updateTable('service_keys')
        .set({ retires_at_ms: BigInt(nowMs + this.overlapSeconds * 1000) })
        .where('id', '=', current.keyId)
        .where('retires_at_ms', 'is', null)
        .executeTakeFirst();
      if (retired.numUpdatedRows !== 1n) throw new AppError('CONFLICT', 'The service key was rotated meanwhile; look at GET /v1/public-key.');
      await trx.insertInto('service_keys').values(fresh).execute();
      const details = { previousKeyId: current.keyId, overlapSeconds: this.overlapSeconds };
      await recordAudit(trx, { actor, action: 'service.rotate_key', target: fresh.id, details, nowMs });
    });
    this.cached = null;
    const listed = await this.listed();
    return listed.find((key) => key.keyId === fresh.id)!;
  }

  private async readCurrent(): Promise<ServiceKey> {
    const row = await this.db.selectFrom('service_keys').select(['id', 'public_key_pem', 'private_key_enc']).where('retires_at_ms', 'is', null).executeTakeFirst();
    if (!row) return loadOrCreateServiceKey(this.db, this.box, this.clock);
    const known = this.opened.get(row.id);
    if (known) return known;
    const key = { keyId: row.id, publicKeyPem: row.public_key_pem, privateKey: crypto.createPrivateKey(this.box.open(row.private_key_enc)) };
    this.opened.set(row.id, key);
    return key;
  }
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
  /** The secret it replaced, while the rotation's overlap lasts: it signs too. */
  readonly previousWebhookSecret?: string | null;
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
    'Signature-Key-Id': input.serviceKey.keyId,
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    // Standard Webhooks: space-separated signatures, any one of which may verify; the new secret's first.
    'webhook-signature': [input.webhookSecret, ...(input.previousWebhookSecret ? [input.previousWebhookSecret] : [])]
      .map((secret) => signStandardWebhook(secret, input.eventId, seconds, input.body))
      .join(' '),
  };
}
