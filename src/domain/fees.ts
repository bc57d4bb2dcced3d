// Fees and amount limits per merchant, currency, method and direction: catalog defaults, overridden
// per merchant by the operator. A fee is basis points of the amount plus a fixed amount, rounded
// half up to the minor unit with bigint arithmetic only; callers compute it once and store it.
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../core/clock.js';
import { AppError, validationError } from '../core/errors.js';
import { DIRECTIONS, methodsFor, requireMethod, type AmountBounds, type Direction } from './methods.js';
import { CURRENCIES, formatMinor, type Currency, type Minor } from '../core/money.js';
import { merchantExists } from '../merchants/merchant-lookups.js';
import type { Transaction } from 'kysely';
import type { Database, Db } from '../store/schema.js';

export interface FeeRule {
  readonly bps: bigint;
  readonly fixedMinor: Minor;
}

export const BPS_PER_UNIT = 10_000n;
export const MAX_BPS = 10_000n;
/** How long a merchant's fee and limit overrides are kept in memory unless configured. */
export const DEFAULT_FEE_CACHE_MS = 2_000;

const rule = (bps: number, fixedMinor: number): FeeRule => ({ bps: BigInt(bps), fixedMinor: BigInt(fixedMinor) });

/**
 * Defaults, chosen near market rates for each rail: percentage for card-like and wallet rails,
 * fixed for virtual accounts and bank payouts (whose upstream cost does not grow with the amount).
 */
export const DEFAULT_FEES: Readonly<Record<Currency, Readonly<Record<Direction, Readonly<Record<string, FeeRule>>>>>> = {
  INR: { payin: { NATIVE: rule(200, 0) }, payout: { BANK: rule(0, 5_00), UPI: rule(0, 3_00) } },
  NGN: { payin: { TRANSFER: rule(140, 0) }, payout: { BANK: rule(0, 25_00) } },
  IDR: {
    payin: {
      BNI: rule(0, 4_000_00),
      BRI: rule(0, 4_000_00),
      MANDIRI: rule(0, 4_000_00),
      PERMATA: rule(0, 4_000_00),
      QRIS: rule(70, 0),
      OVO: rule(150, 0),
      DANA: rule(150, 0),
    },
    payout: { TRANSFER: rule(0, 4_500_00) },
  },
  EGP: { payin: { FAWRY: rule(150, 2_50), WALLET: rule(150, 0) }, payout: { WALLET: rule(0, 5_00), BANK: rule(0, 10_00) } },
};

/**
 * fee = fixed + round_half_up(amount * bps / 10000). A pay-in fee is capped at the paid amount
 * (the merchant's net is never negative); a payout fee is charged on top of the amount.
 */
export function computeFee(feeRule: FeeRule, direction: Direction, amountMinor: Minor): Minor {
  if (amountMinor <= 0n) throw new Error('fees: amount must be positive');
  if (feeRule.bps < 0n || feeRule.fixedMinor < 0n) throw new Error('fees: a fee rule is never negative');
  const percentMinor = (amountMinor * feeRule.bps + BPS_PER_UNIT / 2n) / BPS_PER_UNIT;
  const feeMinor = percentMinor + feeRule.fixedMinor;
  return direction === 'payin' && feeMinor > amountMinor ? amountMinor : feeMinor;
}

export interface MethodTerms {
  readonly method: string;
  readonly direction: Direction;
  readonly refundable: boolean;
  readonly fee: FeeRule;
  readonly bounds: AmountBounds;
}

interface MerchantOverrides {
  readonly loadedAtMs: number;
  readonly fees: ReadonlyMap<string, FeeRule>;
  readonly limits: ReadonlyMap<string, AmountBounds>;
}

const key = (currency: Currency, method: string, direction: Direction) => `${currency}|${method}|${direction}`;

/** Which of a merchant's per-method settings: the key of both the fee and the limit tables. */
export interface MethodSettingKey {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly method: string;
  readonly direction: Direction;
}

type MethodSettingRowKey = { merchant_id: string; currency: Currency; method: string; direction: Direction };
const METHOD_SETTING_KEY = ['merchant_id', 'currency', 'method', 'direction'] as const;

export interface FeeSetting extends MethodSettingKey {
  readonly bps: bigint;
  readonly fixedMinor: Minor;
}

export interface LimitSetting extends MethodSettingKey {
  readonly minMinor: Minor;
  readonly maxMinor: Minor;
}

/**
 * Fee and limit lookups sit on the payment and payout hot paths, so a merchant's overrides are
 * read in one go and kept for `cacheMs`; a change made through this instance applies at once,
 * one made by another process within `cacheMs`.
 */
export class FeeService {
  private readonly cache = new Map<string, MerchantOverrides>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: { readonly cacheMs: number } = { cacheMs: DEFAULT_FEE_CACHE_MS },
  ) {}

  async feeFor(merchantId: string, currency: Currency, method: string, direction: Direction, amountMinor: Minor): Promise<Minor> {
    return computeFee(await this.ruleFor(merchantId, currency, method, direction), direction, amountMinor);
  }

  async ruleFor(merchantId: string, currency: Currency, method: string, direction: Direction): Promise<FeeRule> {
    requireMethod(currency, direction, method);
    const overrides = await this.overrides(merchantId);
    return overrides.fees.get(key(currency, method, direction)) ?? DEFAULT_FEES[currency][direction][method]!;
  }

  async limitsFor(merchantId: string, currency: Currency, method: string, direction: Direction): Promise<AmountBounds> {
    const spec = requireMethod(currency, direction, method);
    const overrides = await this.overrides(merchantId);
    return overrides.limits.get(key(currency, method, direction)) ?? { minMinor: spec.minMinor, maxMinor: spec.maxMinor };
  }

  /** Everything `payment/methods` shows for one currency: each method with its bounds, refundability and fee. */
  async termsFor(merchantId: string, currency: Currency): Promise<MethodTerms[]> {
    const terms: MethodTerms[] = [];
    for (const direction of DIRECTIONS) {
      for (const spec of methodsFor(currency, direction)) {
        terms.push({
          method: spec.method,
          direction,
          refundable: spec.refundable,
          fee: await this.ruleFor(merchantId, currency, spec.method, direction),
          bounds: await this.limitsFor(merchantId, currency, spec.method, direction),
        });
      }
    }
    return terms;
  }

  async setFee(setting: FeeSetting, actor: string): Promise<void> {
    requireMethod(setting.currency, setting.direction, setting.method);
    if (setting.bps < 0n || setting.bps > MAX_BPS) throw validationError('bps', `must be between 0 and ${MAX_BPS}`);
    if (setting.fixedMinor < 0n) throw validationError('fixed', 'must not be negative');
    const details = { bps: Number(setting.bps), fixed: formatMinor(setting.fixedMinor) };
    await this.saveMethodSetting(setting, { actor, action: 'fee.set', details }, async (trx, key, updatedAtMs) => {
      const values = { bps: setting.bps, fixed_minor: setting.fixedMinor, updated_at_ms: updatedAtMs };
      await trx
        .insertInto('merchant_fees')
        .values({ ...key, ...values })
        .onConflict((oc) => oc.columns(METHOD_SETTING_KEY).doUpdateSet(values))
        .execute();
    });
  }

  async setLimits(setting: LimitSetting, actor: string): Promise<void> {
    requireMethod(setting.currency, setting.direction, setting.method);
    if (setting.minMinor <= 0n) throw validationError('min', 'must be positive');
    if (setting.maxMinor < setting.minMinor) throw validationError('max', 'must not be below min');
    const details = { min: formatMinor(setting.minMinor), max: formatMinor(setting.maxMinor) };
    await this.saveMethodSetting(setting, { actor, action: 'limit.set', details }, async (trx, key, updatedAtMs) => {
      const values = { min_minor: setting.minMinor, max_minor: setting.maxMinor, updated_at_ms: updatedAtMs };
      await trx
        .insertInto('merchant_limits')
        .values({ ...key, ...values })
        .onConflict((oc) => oc.columns(METHOD_SETTING_KEY).doUpdateSet(values))
        .execute();
    });
  }

  /**
   * Writes one per-method setting of a merchant and its audit row in one transaction, then forgets
   * the merchant's cached terms so the next payment reads the new ones.
   */
  private async saveMethodSetting(
    setting: MethodSettingKey,
    audit: { readonly actor: string; readonly action: string; readonly details: Record<string, unknown> },
    write: (trx: Transaction<Database>, key: MethodSettingRowKey, updatedAtMs: bigint) => Promise<void>,
  ): Promise<void> {
    await this.assertMerchant(setting.merchantId);
    const nowMs = this.clock.nowMs();
    const key = { merchant_id: setting.merchantId, currency: setting.currency, method: setting.method, direction: setting.direction };
    await this.db.transaction().execute(async (trx) => {
      await write(trx, key, BigInt(nowMs));
      const details = { currency: setting.currency, method: setting.method, direction: setting.direction, ...audit.details };
      await recordAudit(trx, { actor: audit.actor, action: audit.action, target: setting.merchantId, merchantId: setting.merchantId, details, nowMs });
    });
    this.cache.delete(setting.merchantId);
  }

  private async assertMerchant(merchantId: string): Promise<void> {
    if (!(await merchantExists(this.db, merchantId))) throw new AppError('NOT_FOUND', 'No such merchant.');
  }

  private async overrides(merchantId: string): Promise<MerchantOverrides> {
    const nowMs = this.clock.nowMs();
    const cached = this.cache.get(merchantId);
    if (cached && nowMs - cached.loadedAtMs < this.options.cacheMs) return cached;
    const [feeRows, limitRows] = await Promise.all([
      this.db.selectFrom('merchant_fees').selectAll().where('merchant_id', '=', merchantId).execute(),
      this.db.selectFrom('merchant_limits').selectAll().where('merchant_id', '=', merchantId).execute(),
    ]);
    const isKnown = (currency: string): currency is Currency => (CURRENCIES as readonly string[]).includes(currency);
    const fees = new Map<string, FeeRule>();
    for (const r of feeRows) if (isKnown(r.currency)) fees.set(key(r.currency, r.method, r.direction), { bps: r.bps, fixedMinor: r.fixed_minor });
    const limits = new Map<string, AmountBounds>();
    for (const r of limitRows) if (isKnown(r.currency)) limits.set(key(r.currency, r.method, r.direction), { minMinor: r.min_minor, maxMinor: r.max_minor });
    const loaded = { loadedAtMs: nowMs, fees, limits };
    this.cache.set(merchantId, loaded);
    return loaded;
  }
}
