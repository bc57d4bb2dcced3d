// Account name enquiry (payout/accountInquiry, and the name check of payout/initiate): who holds the
// account a payout would go to, as the connector that would pay it resolves it. Sandbox merchants
// ask the simulated bank; live merchants the routed payout connector, where it can resolve names.
//
// Answers are kept in memory for a short while per (connector, currency, method, bank, account), so
// a merchant that checks a name and then pays with nameCheck asks the bank once: found holders for
// NAME_ENQUIRY_TTL_MS, unknown accounts for the shorter INVALID_ACCOUNT_TTL_MS (a new account may
// open). Each process keeps its own; a miss only costs one more enquiry. Identical enquiries in
// flight at once share one upstream call.
import { UpstreamRefusedError, UpstreamUnavailableError } from '../../connectors/channel.js';
import { monotonicMs } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Currency } from '../../core/money.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { publicBanksFor, type PublicBankEntry } from '../banks/index.js';
import { requireCurrency } from '../request-rules.js';
import type { PayoutContext } from './payout-context.js';
import { checkAccount, checkBankCode, maskAccount, requirePayoutMethod } from './payout-request.js';

export const NAME_ENQUIRY_TTL_MS = 10 * 60_000;
export const INVALID_ACCOUNT_TTL_MS = 60_000;
/** Enough for a busy process's recent beneficiaries; the oldest answer goes first beyond it. */
export const NAME_ENQUIRY_CACHE_ENTRIES = 10_000;

/** The body of payout/accountInquiry as its schema let it through. */
export interface AccountInquiryRequest {
  readonly currency: string;
  readonly method: string;
  readonly bankCode?: string;
  readonly account: string;
}

/** The answer of payout/accountInquiry: the account is masked but for its last four characters. */
export interface AccountInquiryResult {
  readonly accountName: string;
  readonly bankCode: string | null;
  readonly bankName: string | null;
  readonly account: string;
}

/** The holder of a checked account. */
export interface AccountHolder {
  readonly accountName: string;
  readonly bankCode: string | null;
}

type Resolution = { readonly found: true; readonly holder: AccountHolder } | { readonly found: false; readonly detail: string };

interface Cached {
  readonly resolution: Resolution;
  readonly untilMs: number;
}

export class NameEnquiry {
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<Resolution>>();

  constructor(
    private readonly ctx: PayoutContext,
    /** The cache's time: monotonic, so moving the business clock (tests, a clock step) never ages answers. */
    private readonly nowMs: () => number = monotonicMs,
  ) {}

  /** payout/accountInquiry: checks the beneficiary as payout/initiate would, then resolves its holder. */
  async inquire(merchant: Merchant, request: AccountInquiryRequest): Promise<AccountInquiryResult> {
    const currency = requireCurrency(request.currency);
    const method = requirePayoutMethod(currency, request.method).method;
    const upstreamCodes = (await this.ctx.banks?.upstreamCodes(merchant, currency)) ?? null;
    const bankCode = checkBankCode(currency, method, request.bankCode, upstreamCodes);
    const account = checkAccount(currency, method, request.account);
    const holder = await this.holderOf(merchant, currency, method, bankCode, account);
    return {
      accountName: holder.accountName,
      bankCode: holder.bankCode,
      bankName: holder.bankCode === null ? null : await this.bankName(merchant, currency, holder.bankCode),
      account: maskAccount(account),
    };
  }

  /**
   * The holder of an already checked account, through the connector that pays `merchant`'s payouts
   * of this currency and method. Refuses INVALID_ACCOUNT (no such account), NAME_ENQUIRY_UNAVAILABLE
   * (that connector cannot resolve names) or UNAVAILABLE (the upstream did not answer).
   */
  async holderOf(merchant: Merchant, currency: Currency, method: string, bankCode: string | null, account: string): Promise<AccountHolder> {
    const { channel } = this.ctx.channels.route(merchant, currency, method, 'payout');
    if (!channel.resolveAccount) {
      throw new AppError('NAME_ENQUIRY_UNAVAILABLE', `The provider that pays your ${currency} ${method} payouts does not resolve account names.`);
    }
    const resolve = channel.resolveAccount.bind(channel);
    const key = JSON.stringify([channel.name, currency, method, bankCode, account]);
    const resolution = await this.cached(key, async () => {
      try {
        const resolved = await resolve({ currency, method, bankCode, account });
        return { found: true, holder: { accountName: resolved.accountName, bankCode: resolved.bankCode ?? bankCode } };
      } catch (error) {
        if (error instanceof UpstreamRefusedError && error.failureReason === 'INVALID_ACCOUNT') return { found: false, detail: error.message };
        throw error;
      }
    }).catch((error: unknown) => {
      if (error instanceof UpstreamUnavailableError) {
        throw new AppError('UNAVAILABLE', 'The bank did not answer the name enquiry in time; nothing was stored, retry shortly.');
      }
      if (error instanceof UpstreamRefusedError) {
        this.ctx.log?.warn(
          { channel: channel.name, currency, method, account: maskAccount(account), failureReason: error.failureReason, upstreamStatus: error.upstreamStatus, upstreamCode: error.upstreamCode, err: error },
          'name enquiry refused by the provider',
        );
        throw new AppError('NAME_ENQUIRY_UNAVAILABLE', `The provider that pays your ${currency} ${method} payouts could not resolve this account's name.`);
      }
      throw error;
    });
    if (!resolution.found) throw new AppError('INVALID_ACCOUNT', `The bank has no account ${maskAccount(account)}${bankCode === null ? '' : ` at ${bankCode}`}.`);
    return resolution.holder;
  }

  /** A fresh cached answer, else the one call in flight for the key, else a new call whose answer is kept. */
  private async cached(key: string, call: () => Promise<Resolution>): Promise<Resolution> {
    const nowMs = this.nowMs();
    const hit = this.cache.get(key);
    if (hit && hit.untilMs > nowMs) return hit.resolution;
    if (hit) this.cache.delete(key);
    const running = this.inFlight.get(key);
    if (running) return running;
    const pending = call().then((resolution) => {
      const ttl = resolution.found ? NAME_ENQUIRY_TTL_MS : INVALID_ACCOUNT_TTL_MS;
      this.cache.set(key, { resolution, untilMs: this.nowMs() + ttl });
      if (this.cache.size > NAME_ENQUIRY_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      return resolution;
    });
    this.inFlight.set(key, pending);
    try {
      return await pending;
    } finally {
      this.inFlight.delete(key);
    }
  }

  /**
   * The bank's name as payout/bankCode lists it for this merchant (a live merchant's connector's own
   * list where it has one), else as the service's list has it; an IFSC by its 4-letter bank prefix.
   * Null when neither lists the code.
   */
  private async bankName(merchant: Merchant, currency: Currency, bankCode: string): Promise<string | null> {
    const code = currency === 'INR' ? bankCode.slice(0, 4) : bankCode;
    const find = (banks: readonly PublicBankEntry[]): string | undefined => banks.find((bank) => bank.bankCode === code)?.bankName;
    const listed = await this.ctx.banks?.banksFor?.(merchant, currency);
    return (listed === undefined ? undefined : find(listed)) ?? find(publicBanksFor(currency)) ?? null;
  }
}
