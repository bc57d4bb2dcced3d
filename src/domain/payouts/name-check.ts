// The name check of payout/initiate (`nameCheck: true`), between the rules (step 1) and intake
// (step 2): the account's holder is resolved first (name-enquiry.ts), and a payout whose `name` does
// not match it is refused before anything is reserved or stored.
import { AppError } from '../../core/errors.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import type { NameEnquiry } from './name-enquiry.js';
import { DEFAULT_NAME_MATCH_THRESHOLD, namesMatch, SCORE_SCALE } from './name-match.js';
import type { PayoutDraft } from './payout-request.js';

/** What a payout checked by name carries: the resolved holder, the score and the threshold, in ten-thousandths. */
export interface NameCheckOutcome {
  readonly resolvedName: string;
  readonly score: number;
  readonly threshold: number;
}

/** The shown form of a score or threshold: ten-thousandths as a number 0..1 (8000 is 0.8). */
export const scoreShown = (tenThousandths: number | bigint): number => Number(tenThousandths) / SCORE_SCALE;

/** Resolves the draft's account and compares; ACCOUNT_NAME_MISMATCH below the threshold. */
export async function checkBeneficiaryName(names: NameEnquiry, merchant: Merchant, draft: PayoutDraft, threshold = DEFAULT_NAME_MATCH_THRESHOLD): Promise<NameCheckOutcome> {
  const holder = await names.holderOf(merchant, draft.currency, draft.method.method, draft.bankCode, draft.account);
  const { score, matched } = namesMatch(draft.name, holder.accountName, threshold);
  if (!matched) {
    throw new AppError(
      'ACCOUNT_NAME_MISMATCH',
      `The account holder's name does not match name (score ${scoreShown(score)}, threshold ${scoreShown(threshold)}); nothing was reserved or stored.`,
    );
  }
  return { resolvedName: holder.accountName, score, threshold };
}
