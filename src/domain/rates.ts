// USDT reference rates. The operator sets a reference rate and two spreads per currency; merchants
// read a deposit rate (reference less the deposit spread: what one USDT brought in is worth) and a
// withdraw rate (reference plus the withdraw spread: what one USDT taken out costs).
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { Currency } from '../core/money.js';
import type { Db } from '../store/schema.js';

const MICROS = 1_000_000n;
const BPS = 10_000n;
export const MAX_SPREAD_BPS = 5_000;

export interface UsdtRate {
  readonly currency: Currency;
  readonly referenceMicros: bigint;
  readonly depositSpreadBps: number;
  readonly withdrawSpreadBps: number;
  readonly depositMicros: bigint;
  readonly withdrawMicros: bigint;
  readonly setAtMs: number;
  readonly setBy: string;
}

/** Round half up of numerator / denominator for non-negative bigints. */
const divRoundHalfUp = (numerator: bigint, denominator: bigint): bigint => (numerator * 2n + denominator) / (2n * denominator);

export const microsToNumber = (micros: bigint): number => Number(micros) / Number(MICROS);

/** 83250000n -> "83.25": exact, for records that must not pass a float. */
export const formatRateMicros = (micros: bigint): string =>
  `${micros / MICROS}.${(micros % MICROS).toString().padStart(6, '0')}`.replace(/\.?0+$/, '');

/** "83.25" -> 83250000n; at most six decimals, strictly positive. */
export function parseRateMicros(text: string): bigint | null {
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const micros = BigInt(match[1]!) * MICROS + BigInt((match[2] ?? '').padEnd(6, '0'));
  return micros > 0n ? micros : null;
}

export class RateService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** `setBy` is the actor, kept on the rate and in the audit log. */
  async set(currency: Currency, referenceMicros: bigint, depositSpreadBps: number, withdrawSpreadBps: number, setBy: string): Promise<UsdtRate> {
    for (const [name, bps] of [['depositSpreadBps', depositSpreadBps], ['withdrawSpreadBps', withdrawSpreadBps]] as const) {
      if (!Number.isInteger(bps) || bps < 0 || bps > MAX_SPREAD_BPS) {
        throw new AppError('VALIDATION_FAILED', `${name} must be an integer from 0 to ${MAX_SPREAD_BPS}.`, [
          { field: name, problem: `must be an integer from 0 to ${MAX_SPREAD_BPS}` },
        ]);
      }
    }
    if (referenceMicros <= 0n) throw new AppError('VALIDATION_FAILED', 'The reference rate must be positive.');
    const row = {
      currency,
      reference_rate_micros: referenceMicros,
      deposit_spread_bps: BigInt(depositSpreadBps),
      withdraw_spread_bps: BigInt(withdrawSpreadBps),
      set_at_ms: BigInt(this.clock.nowMs()),
      set_by: setBy,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('usdt_rates')
        .values(row)
        .onConflict((oc) => oc.column('currency').doUpdateSet({ ...row }))
        .execute();
      const details = { reference: formatRateMicros(referenceMicros), depositSpreadBps, withdrawSpreadBps };
      await recordAudit(trx, { actor: setBy, action: 'rate.set', target: currency, details, nowMs: Number(row.set_at_ms) });
    });
    return this.get(currency);
  }

  async get(currency: Currency): Promise<UsdtRate> {
    const row = await this.db.selectFrom('usdt_rates').selectAll().where('currency', '=', currency).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No USDT rate has been set for ${currency} yet.`);
    const depositSpreadBps = Number(row.deposit_spread_bps);
    const withdrawSpreadBps = Number(row.withdraw_spread_bps);
    return {
      currency,
      referenceMicros: row.reference_rate_micros,
      depositSpreadBps,
      withdrawSpreadBps,
      depositMicros: divRoundHalfUp(row.reference_rate_micros * (BPS - BigInt(depositSpreadBps)), BPS),
      withdrawMicros: divRoundHalfUp(row.reference_rate_micros * (BPS + BigInt(withdrawSpreadBps)), BPS),
      setAtMs: Number(row.set_at_ms),
      setBy: row.set_by,
    };
  }
}
