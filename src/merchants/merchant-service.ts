// Merchants and their API keys: creation, key rotation (at most two active keys), webhook
// settings, and the credential lookup the signature check uses on every request.
import crypto from 'node:crypto';
import { isoFromMs as iso, monotonicMs, type Clock } from '../core/clock.js';
import { recordAudit } from '../audit/audit-log.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { SecretBox } from '../core/secrets.js';
import type { Db, Executor } from '../store/schema.js';
import type { Selectable, Updateable } from 'kysely';
import type { MerchantsTable } from './merchant-rows.js';
import { ipAllowGuardOf, ipAllowListOf, normaliseCidrs, type IpAllowGuard, type IpAllowList, type IpAllowScope, type KeyScope } from './access.js';

export type KeyType = 'RSA-SHA512' | 'HMAC-SHA256';
export const MAX_ACTIVE_KEYS = 2;
export const MAX_RATE_LIMIT_PER_SECOND = 1_000_000;
/** How long a replaced webhook secret keeps signing beside the new one (WEBHOOK_SECRET_OVERLAP_SECONDS). */
export const DEFAULT_WEBHOOK_SECRET_OVERLAP_SECONDS = 86_400;

function checkRateLimit(perSecond: number): void {
  if (!Number.isInteger(perSecond) || perSecond < 1 || perSecond > MAX_RATE_LIMIT_PER_SECOND) {
    throw new AppError('VALIDATION_FAILED', `The rate limit must be a whole number of requests per second from 1 to ${MAX_RATE_LIMIT_PER_SECOND}.`, [
      { field: 'rateLimitPerSecond', problem: `must be an integer from 1 to ${MAX_RATE_LIMIT_PER_SECOND}` },
    ]);
  }
}
const MIN_RSA_BITS = 2048;

export interface Merchant {
  readonly id: string;
  readonly name: string;
  readonly status: 'active' | 'disabled';
  readonly mode: 'sandbox' | 'live';
  readonly rateLimitPerSecond: number;
  readonly paymentWebhookUrl: string | null;
  readonly payoutWebhookUrl: string | null;
  readonly createdAt: string;
}

export interface ApiKeyInfo {
  readonly id: string;
  readonly type: KeyType;
  readonly scope: KeyScope;
  readonly label: string | null;
  readonly status: 'active' | 'revoked';
  readonly createdAt: string;
  readonly publicKeyPem: string | null;
}

/** What a newly issued key gives its owner, shown once. */
export interface IssuedKey {
  readonly keyId: string;
  readonly type: KeyType;
  readonly scope: KeyScope;
  /** Generated RSA private key (sandbox convenience) when no public key was supplied. */
  readonly privateKeyPem?: string;
  readonly publicKeyPem?: string;
  /** The HMAC secret for HMAC-SHA256 keys. */
  readonly secret?: string;
}

export interface KeyRequest {
  readonly type: KeyType;
  /** Merchant-held RSA key: register only its public half. Omit to have one generated. */
  readonly publicKeyPem?: string;
  readonly label?: string;
  /** What the key may call; `all` when not given. */
  readonly scope?: KeyScope;
}

/** A key ready for verification: parsed once, kept in memory for the cache's lifetime. */
export type VerifierKey =
  | { readonly id: string; readonly scope: KeyScope; readonly type: 'RSA-SHA512'; readonly publicKey: crypto.KeyObject }
  | { readonly id: string; readonly scope: KeyScope; readonly type: 'HMAC-SHA256'; readonly secret: string };

export interface MerchantCredentials {
  readonly merchant: Merchant;
  readonly keys: readonly VerifierKey[];
  /** The merchant's IP allow-list, null when none is set. */
  readonly ipAllowList: IpAllowGuard | null;
}

function toMerchant(row: Selectable<MerchantsTable>): Merchant {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    mode: row.mode,
    rateLimitPerSecond: Number(row.rate_limit_per_second),
    paymentWebhookUrl: row.payment_webhook_url,
    payoutWebhookUrl: row.payout_webhook_url,
    createdAt: iso(row.created_at_ms),
  };
}

function parsePublicKey(pem: string): crypto.KeyObject {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey(pem);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'publicKeyPem is not a PEM public key.', [
      { field: 'publicKeyPem', problem: 'must be a PEM-encoded RSA public key' },
    ]);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS) {
    throw new AppError('VALIDATION_FAILED', `publicKeyPem must be an RSA key of ${MIN_RSA_BITS} bits or more.`, [
      { field: 'publicKeyPem', problem: `must be RSA with at least ${MIN_RSA_BITS} bits` },
    ]);
  }
  return key;
}

/** An RSA key pair in PEM (PKCS#8 private, SPKI public). */
export interface RsaKeyPair {
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
}

/**
 * A new RSA-2048 pair, made on libuv's thread pool: finding its primes takes from tens of milliseconds to
 * over a second, which must neither stop the event loop nor run inside a database transaction.
 */
export function generateRsaKeyPair(): Promise<RsaKeyPair> {
  return new Promise((resolve, reject) => {
    crypto.generateKeyPair(
      'rsa',
      { modulusLength: MIN_RSA_BITS, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } },
      (error, publicKeyPem, privateKeyPem) => (error ? reject(error) : resolve({ privateKeyPem, publicKeyPem })),
    );
  });
}

/** What a key request becomes before its transaction opens: the columns to store, and what its owner is shown once. */
interface KeyMaterial {
  readonly stored: { readonly type: KeyType; readonly public_key_pem: string | null; readonly secret_enc: string | null };
  readonly shown: Pick<IssuedKey, 'privateKeyPem' | 'publicKeyPem' | 'secret'>;
}

export const newMerchantId = (): string => `mch_${crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
const newHmacSecret = (): string => `hsk_${crypto.randomBytes(32).toString('base64url')}`;
export const newWebhookSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64')}`;

export interface CreateMerchantInput {
  readonly name: string;
  readonly mode: 'sandbox' | 'live';
  readonly key: KeyRequest;
  readonly rateLimitPerSecond?: number;
  readonly paymentWebhookUrl?: string | null;
  readonly payoutWebhookUrl?: string | null;
}

export interface CreatedMerchant {
  readonly merchant: Merchant;
  readonly key: IssuedKey;
  readonly webhookSecret: string;
}

interface MerchantAudit {
  readonly actor: string;
  readonly action: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Webhook URLs as the audit log keeps them: without query string or fragment, where receivers
 * often put a token of their own. null clears a URL; an unchanged one is left out.
 */
function webhookUrlDetails(payment: string | null | undefined, payout: string | null | undefined): Record<string, string | null> {
  const shown = (url: string | null) => (url === null ? null : url.split(/[?#]/, 1)[0]!);
  const details: Record<string, string | null> = {};
  if (payment !== undefined) details.paymentWebhookUrl = shown(payment);
  if (payout !== undefined) details.payoutWebhookUrl = shown(payout);
  return details;
}

export class MerchantService {
  private readonly cache = new Map<string, { readonly atMs: number; readonly value: Promise<MerchantCredentials | null> }>();

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly defaults: { readonly rateLimitPerSecond: number; readonly credentialCacheMs: number; readonly webhookSecretOverlapSeconds?: number },
    private readonly newRsaKeyPair: () => Promise<RsaKeyPair> = generateRsaKeyPair,
  ) {}

  async create(input: CreateMerchantInput, actor: string): Promise<CreatedMerchant> {
    if (input.rateLimitPerSecond !== undefined) checkRateLimit(input.rateLimitPerSecond);
    const id = newMerchantId();
    const nowMs = BigInt(this.clock.nowMs());
    const webhookSecret = newWebhookSecret();
    const material = await this.keyMaterial(input.key);
    const issued = await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('merchants')
        .values({
          id,
          name: input.name,
          status: 'active',
          mode: input.mode,
          rate_limit_per_second: BigInt(input.rateLimitPerSecond ?? this.defaults.rateLimitPerSecond),
          payment_webhook_url: input.paymentWebhookUrl ?? null,
          payout_webhook_url: input.payoutWebhookUrl ?? null,
          webhook_secret_enc: this.box.seal(webhookSecret),
          created_at_ms: nowMs,
          updated_at_ms: nowMs,
        })
        .execute();
      const key = await this.insertKey(trx, id, input.key, material);
      const details = { name: input.name, mode: input.mode, keyId: key.keyId, keyType: key.type, keyScope: key.scope, ...webhookUrlDetails(input.paymentWebhookUrl, input.payoutWebhookUrl) };
      await recordAudit(trx, { actor, action: 'merchant.create', target: id, merchantId: id, details, nowMs: Number(nowMs) });
      return key;
    });
    return { merchant: await this.get(id), key: issued, webhookSecret };
  }

  async get(id: string): Promise<Merchant> {
    const row = await this.db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No merchant ${id}.`);
    return toMerchant(row);
  }

  async list(): Promise<Merchant[]> {
    const rows = await this.db.selectFrom('merchants').selectAll().orderBy('created_at_ms').execute();
    return rows.map(toMerchant);
  }

  /** How many merchants there are in each status (for the operator's overview). */
  async countByStatus(): Promise<{ active: number; disabled: number }> {
    const rows = await this.db
      .selectFrom('merchants')
      .select((eb) => ['status', eb.fn.countAll<string | number | bigint>().as('n')])
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { active: count('active'), disabled: count('disabled') };
  }

  /** One page of merchants, newest first (ids are time-ordered); `before` is the last id of the previous page. */
  async page(query: { readonly before?: string; readonly limit: number; readonly status?: 'active' | 'disabled' }): Promise<{ items: Merchant[]; nextBefore: string | null }> {
    const rows = await this.db
      .selectFrom('merchants')
      .selectAll()
      .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
      .$if(query.before !== undefined, (qb) => qb.where('id', '<', query.before!))
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute();
    const items = rows.slice(0, query.limit).map(toMerchant);
    return { items, nextBefore: rows.length > query.limit ? items[items.length - 1]!.id : null };
  }

  async setStatus(id: string, status: 'active' | 'disabled', actor: string): Promise<Merchant> {
    await this.update(id, { status }, { actor, action: status === 'active' ? 'merchant.enable' : 'merchant.disable' });
    return this.get(id);
  }

  async setWebhookUrls(id: string, urls: { payment?: string | null; payout?: string | null }, actor: string): Promise<Merchant> {
    const patch: Updateable<MerchantsTable> = {};
    if (urls.payment !== undefined) patch.payment_webhook_url = urls.payment;
    if (urls.payout !== undefined) patch.payout_webhook_url = urls.payout;
    await this.update(id, patch, { actor, action: 'merchant.webhooks', details: webhookUrlDetails(urls.payment, urls.payout) });
    return this.get(id);
  }

  async setRateLimit(id: string, perSecond: number, actor: string): Promise<Merchant> {
    checkRateLimit(perSecond);
    await this.update(id, { rate_limit_per_second: BigInt(perSecond) }, { actor, action: 'merchant.rate_limit', details: { perSecond } });
    return this.get(id);
  }

  /**
   * Sets the addresses the merchant's calls may come from (normalised; 400 naming each malformed
   * range) and which calls that guards; an empty list removes the allow-list.
   */
  async setIpAllowList(id: string, cidrs: readonly string[], scope: IpAllowScope, actor: string): Promise<IpAllowList> {
    const normalised = normaliseCidrs(cidrs);
    const patch = { ip_allow_list: normalised.length === 0 ? null : JSON.stringify(normalised), ip_allow_scope: normalised.length === 0 ? 'money' as const : scope };
    const action = normalised.length === 0 ? 'merchant.ip_allow_list_clear' : 'merchant.ip_allow_list';
    await this.update(id, patch, { actor, action, details: { cidrs: normalised, scope: patch.ip_allow_scope } });
    return this.ipAllowList(id);
  }

  async ipAllowList(id: string): Promise<IpAllowList> {
    const row = await this.db.selectFrom('merchants').select(['ip_allow_list', 'ip_allow_scope']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No merchant ${id}.`);
    return ipAllowListOf(row.ip_allow_list, row.ip_allow_scope);
  }

  /** Replaces the webhook secret and returns the new one (shown once); see rotateWebhookSecretWithOverlap. */
  async rotateWebhookSecret(id: string, actor: string): Promise<string> {
    return (await this.rotateWebhookSecretWithOverlap(id, actor)).webhookSecret;
  }

  /**
   * Replaces the webhook secret. The replaced one keeps signing beside the new one (two `v1,`
   * entries in webhook-signature) until the overlap ends, so receivers can switch without losing a
   * delivery; a second rotation within the overlap drops the oldest. Overlap 0 replaces at once.
   */
  async rotateWebhookSecretWithOverlap(id: string, actor: string): Promise<{ webhookSecret: string; previousSecretExpiresAt: string | null }> {
    const secret = newWebhookSecret();
    const overlapSeconds = this.defaults.webhookSecretOverlapSeconds ?? DEFAULT_WEBHOOK_SECRET_OVERLAP_SECONDS;
    const nowMs = this.clock.nowMs();
    const until = overlapSeconds > 0 ? nowMs + overlapSeconds * 1000 : null;
    await this.db.transaction().execute(async (trx) => {
      // One statement copies the current secret aside: concurrent rotations cannot lose one in between.
      const result = await trx
        .updateTable('merchants')
        .set((eb) => ({
          previous_webhook_secret_enc: until === null ? null : eb.ref('webhook_secret_enc'),
          previous_webhook_secret_until_ms: until === null ? null : BigInt(until),
          webhook_secret_enc: this.box.seal(secret),
          updated_at_ms: BigInt(nowMs),
        }))
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new AppError('NOT_FOUND', `No merchant ${id}.`);
      await recordAudit(trx, { actor, action: 'merchant.webhook_secret', target: id, merchantId: id, details: { overlapSeconds }, nowMs });
    });
    this.forget(id);
    return { webhookSecret: secret, previousSecretExpiresAt: until === null ? null : iso(until) };
  }

  async webhookSecret(id: string): Promise<string> {
    const row = await this.db.selectFrom('merchants').select('webhook_secret_enc').where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No merchant ${id}.`);
    return this.box.open(row.webhook_secret_enc);
  }

  async addKey(merchantId: string, request: KeyRequest, actor: string): Promise<IssuedKey> {
    await this.get(merchantId);
    const material = await this.keyMaterial(request);
    const issued = await this.db.transaction().execute(async (trx) => {
      const key = await this.insertKey(trx, merchantId, request, material);
      const details = { type: key.type, scope: key.scope, label: request.label ?? null, ownPublicKey: request.publicKeyPem !== undefined };
      await recordAudit(trx, { actor, action: 'key.add', target: key.keyId, merchantId, details, nowMs: this.clock.nowMs() });
      return key;
    });
    this.forget(merchantId);
    return issued;
  }

  async revokeKey(merchantId: string, keyId: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const nowMs = this.clock.nowMs();
      const result = await trx
        .updateTable('api_keys')
        .set({ status: 'revoked', revoked_at_ms: BigInt(nowMs) })
        .where('id', '=', keyId)
        .where('merchant_id', '=', merchantId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new AppError('NOT_FOUND', `No active key ${keyId} for ${merchantId}.`);
      await recordAudit(trx, { actor, action: 'key.revoke', target: keyId, merchantId, nowMs });
    });
    this.forget(merchantId);
  }

  async listKeys(merchantId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at_ms')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      scope: r.scope,
      label: r.label,
      status: r.status,
      createdAt: iso(r.created_at_ms),
      publicKeyPem: r.public_key_pem,
    }));
  }

  /**
   * The merchant and its active keys, from a short-lived cache (see docs/operations.md). Requests
   * arriving while a merchant is being loaded share that one load instead of each reading it again.
   */
  credentials(merchantId: string): Promise<MerchantCredentials | null> {
    const nowMs = monotonicMs();
    const hit = this.cache.get(merchantId);
    if (hit && nowMs - hit.atMs < this.defaults.credentialCacheMs) return hit.value;
    const value = this.loadCredentials(merchantId);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(merchantId, { atMs: nowMs, value });
    // A failed load is not cached: the next request tries again.
    value.catch(() => this.cache.get(merchantId)?.value === value && this.cache.delete(merchantId));
    return value;
  }

  /** Drops a merchant from this instance's cache after a change made here. */
  forget(merchantId: string): void {
    this.cache.delete(merchantId);
  }

  private async loadCredentials(merchantId: string): Promise<MerchantCredentials | null> {
    const row = await this.db.selectFrom('merchants').selectAll().where('id', '=', merchantId).executeTakeFirst();
    if (!row) return null;
    const keyRows = await this.db
      .selectFrom('api_keys')
      .select(['id', 'type', 'scope', 'public_key_pem', 'secret_enc'])
      .where('merchant_id', '=', merchantId)
      .where('status', '=', 'active')
      .execute();
    const keys = keyRows.map((k): VerifierKey =>
      k.type === 'RSA-SHA512'
        ? { id: k.id, scope: k.scope, type: 'RSA-SHA512', publicKey: crypto.createPublicKey(k.public_key_pem!) }
        : { id: k.id, scope: k.scope, type: 'HMAC-SHA256', secret: this.box.open(k.secret_enc!) },
    );
    return { merchant: toMerchant(row), keys, ipAllowList: ipAllowGuardOf(row.ip_allow_list, row.ip_allow_scope) };
  }

  /** Applies an operator's change to the merchant row and audits it in the same transaction. */
  private async update(id: string, patch: Updateable<MerchantsTable>, audit: MerchantAudit): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const nowMs = this.clock.nowMs();
      const result = await trx
        .updateTable('merchants')
        .set({ ...patch, updated_at_ms: BigInt(nowMs) })
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new AppError('NOT_FOUND', `No merchant ${id}.`);
      await recordAudit(trx, { ...audit, target: id, merchantId: id, nowMs });
    });
    this.forget(id);
  }

  /** The key's secret or public key, checked or made before any transaction opens (an RSA pair on the thread pool). */
  private async keyMaterial(request: KeyRequest): Promise<KeyMaterial> {
    const { type } = request;
    if (type === 'HMAC-SHA256') {
      const secret = newHmacSecret();
      return { stored: { type, public_key_pem: null, secret_enc: this.box.seal(secret) }, shown: { secret } };
    }
    if (request.publicKeyPem !== undefined) {
      const publicKeyPem = parsePublicKey(request.publicKeyPem).export({ type: 'spki', format: 'pem' }).toString();
      return { stored: { type, public_key_pem: publicKeyPem, secret_enc: null }, shown: { publicKeyPem } };
    }
    const { privateKeyPem, publicKeyPem } = await this.newRsaKeyPair();
    return { stored: { type, public_key_pem: publicKeyPem, secret_enc: null }, shown: { privateKeyPem, publicKeyPem } };
  }

  private async insertKey(trx: Executor, merchantId: string, request: KeyRequest, material: KeyMaterial): Promise<IssuedKey> {
    // Touching the merchant row first serializes concurrent key additions for one merchant (a row
    // lock on PostgreSQL, the write lock on SQLite), so the count below cannot be raced past the limit.
    await trx.updateTable('merchants').set({ updated_at_ms: BigInt(this.clock.nowMs()) }).where('id', '=', merchantId).execute();
    const active = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('merchant_id', '=', merchantId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    if (BigInt(active.n) >= BigInt(MAX_ACTIVE_KEYS)) {
      throw new AppError('CONFLICT', `A merchant may have at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`);
    }
    const keyId = `key_${newId().replace(/-/g, '')}`;
    const scope = request.scope ?? 'all';
    await trx
      .insertInto('api_keys')
      .values({
        id: keyId,
        merchant_id: merchantId,
        label: request.label ?? null,
        scope,
        status: 'active',
        created_at_ms: BigInt(this.clock.nowMs()),
        revoked_at_ms: null,
        ...material.stored,
      })
      .execute();
    return { keyId, type: material.stored.type, scope, ...material.shown };
  }
}
