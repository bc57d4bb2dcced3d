// The bank list a live merchant sees: where the connector that would pay its payouts publishes one
// (Paystack's list for NGN), that list, kept for an hour; otherwise, or while the provider does not
// answer, the service's own list. Sandbox merchants always see the service's own list.
import type { Channel } from '../../connectors/channel.js';
import type { Currency } from '../../core/money.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { PAYOUT_METHODS } from '../methods.js';
import { publicBanksFor, type PublicBankEntry } from './index.js';

export const UPSTREAM_BANKS_TTL_MS = 3_600_000;

export interface BankRouting {
  route(merchant: Merchant, currency: Currency, method: string, direction: 'payout'): { readonly channel: Channel };
  enabled?(merchant: Merchant, currency: Currency, method: string, direction: 'payout'): boolean;
}

interface Cached {
  readonly banks: readonly PublicBankEntry[];
  readonly codes: ReadonlySet<string>;
  readonly untilMs: number;
}

export class BankDirectory {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly routing: BankRouting,
    private readonly nowMs: () => number,
    private readonly log?: { warn(details: object, message: string): void },
  ) {}

  /** The banks `merchant`'s payouts in `currency` can reach. */
  async banksFor(merchant: Merchant, currency: Currency): Promise<readonly PublicBankEntry[]> {
    return (await this.upstreamList(merchant, currency))?.banks ?? publicBanksFor(currency);
  }

  /** Live: the codes the routed connector lists, or null (sandbox, no connector list, provider silent). */
  async upstreamCodes(merchant: Merchant, currency: Currency): Promise<ReadonlySet<string> | null> {
    return (await this.upstreamList(merchant, currency))?.codes ?? null;
  }

  private async upstreamList(merchant: Merchant, currency: Currency): Promise<Cached | null> {
    if (merchant.mode === 'sandbox') return null;
    const channel = this.listingChannel(merchant, currency);
    if (!channel?.listBanks) return null;
    const key = `${channel.name}|${currency}`;
    const cached = this.cache.get(key);
    if (cached && cached.untilMs > this.nowMs()) return cached;
    try {
      const listed = await channel.listBanks(currency);
      const banks = listed.map((bank) => ({ bankCode: bank.code, bankName: bank.name })).sort((a, b) => a.bankName.localeCompare(b.bankName));
      if (banks.length === 0) return null;
      const fresh = { banks, codes: new Set(banks.map((bank) => bank.bankCode)), untilMs: this.nowMs() + UPSTREAM_BANKS_TTL_MS };
      this.cache.set(key, fresh);
      return fresh;
    } catch (error) {
      this.log?.warn({ err: error, channel: channel.name, currency }, 'upstream bank list unavailable; answering the service list');
      return cached ?? null;
    }
  }

  /** The connector that pays the currency's first routed payout method that takes a bank code. */
  private listingChannel(merchant: Merchant, currency: Currency): Channel | null {
    for (const method of PAYOUT_METHODS[currency]) {
      if (this.routing.enabled && !this.routing.enabled(merchant, currency, method.method, 'payout')) continue;
      try {
        return this.routing.route(merchant, currency, method.method, 'payout').channel;
      } catch {
        continue;
      }
    }
    return null;
  }
}
