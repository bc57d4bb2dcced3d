// Recovery codes: ten one-time codes shown once at TOTP enrolment, for the day the phone is lost.
// Stored as sha-256 (each carries 50 random bits, beyond reach of guessing at the throttled rate).
import crypto from 'node:crypto';
import { newId } from '../core/ids.js';
import type { Executor } from '../store/schema.js';
import { sha256Hex } from './sessions.js';
import { base32Encode } from './totp.js';

export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-[a-z2-7]{5}$/;

const normalise = (code: string): string => code.trim().toLowerCase();

function newCode(): string {
  const text = base32Encode(crypto.randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** Replaces the user's codes with ten new ones and returns them (the only time they are readable). */
export async function issueRecoveryCodes(trx: Executor, userId: string): Promise<string[]> {
  await trx.deleteFrom('console_recovery_codes').where('user_id', '=', userId).execute();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await trx
    .insertInto('console_recovery_codes')
    .values(codes.map((code) => ({ id: newId(), user_id: userId, code_hash: sha256Hex(code), used_at_ms: null })))
    .execute();
  return codes;
}

/** Uses up the code if it is one of the user's unused ones; the conditional update makes it single-use under races. */
export async function consumeRecoveryCode(trx: Executor, userId: string, code: string, nowMs: number): Promise<boolean> {
  const clean = normalise(code);
  if (!RECOVERY_CODE_PATTERN.test(clean)) return false;
  const result = await trx
    .updateTable('console_recovery_codes')
    .set({ used_at_ms: BigInt(nowMs) })
    .where('user_id', '=', userId)
    .where('code_hash', '=', sha256Hex(clean))
    .where('used_at_ms', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const rows = await db.selectFrom('console_recovery_codes').select('id').where('user_id', '=', userId).where('used_at_ms', 'is', null).execute();
  return rows.length;
}
