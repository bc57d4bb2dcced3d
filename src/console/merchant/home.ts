// The merchant's home: balances per currency (the ledger's five buckets), then for each currency with
// payments, today's and the last 30 days' figures per method (success rate and volume) and the daily
// volume of the last 30 days as columns. Volume per day is the statement's own "collected" (reporting
// settlements), so it agrees with the statement; rates are whole percents of integer counts.
import { formatMoney } from '../../core/currency-format.js';
import { html } from '../../core/html.js';
import { CURRENCIES, type Currency } from '../../core/money.js';
import { BALANCE_KINDS } from '../../ledger/accounts.js';
import type { Balances } from '../../ledger/service.js';
import { periodMethodStats, successPercent, type MethodStats } from '../../reporting/method-stats.js';
import { settlementDays } from '../../reporting/settlements.js';
import { MS_PER_DAY, utcDay } from '../../reporting/time-range.js';
import { ownMerchantId, type ConsolePages } from '../app.js';
import { barChart } from '../charts.js';
import { money, section, table } from '../components.js';
import { dayChart, type DayValue } from './day-chart.js';
import { READERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';

const DAYS = 30;

const rateTone = (percent: number | null): 'ok' | 'warn' | 'bad' | 'info' => (percent === null ? 'info' : percent >= 80 ? 'ok' : percent >= 50 ? 'warn' : 'bad');

interface MethodRow {
  readonly method: string;
  readonly today: MethodStats | undefined;
  readonly month: MethodStats;
}

const rateText = (stats: MethodStats | undefined): string => {
  const percent = stats ? successPercent(stats) : null;
  return percent === null ? '—' : `${percent}%`;
};

/** Today's and the 30 days' figures side by side, one row per method. */
function methodTable(currency: Currency, month: readonly MethodStats[], today: readonly MethodStats[]) {
  return table<MethodRow>({
    caption: `${currency} payments per method`,
    columns: [
      { label: 'Method', cell: (r) => r.method },
      { label: 'Today', cell: (r) => r.today?.total ?? 0, numeric: true },
      { label: 'Today paid', cell: (r) => rateText(r.today), numeric: true },
      { label: 'Today volume', cell: (r) => money(r.today?.volumeMinor ?? 0n, currency), numeric: true },
      { label: `${DAYS} days`, cell: (r) => r.month.total, numeric: true },
      { label: `${DAYS} days paid`, cell: (r) => rateText(r.month), numeric: true },
      { label: `${DAYS} days volume`, cell: (r) => money(r.month.volumeMinor, currency), numeric: true },
    ],
    rows: month.map((m) => ({ method: m.method, month: m, today: today.find((t) => t.method === m.method) })),
    empty: 'No payments in this period.',
  });
}

interface BalanceRow {
  readonly currency: Currency;
  readonly balances: Balances;
}

export function merchantHomePages({ ledger, merchants, db, clock }: MerchantPageOptions): ConsolePages {
  return (router) => {
    router.page('/merchant/home', { roles: READERS, nav: { label: 'Home', section: SECTION, order: 10 } }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const merchant = await merchants.get(merchantId);
      const nowMs = clock.nowMs();
      const todayMs = Math.floor(nowMs / MS_PER_DAY) * MS_PER_DAY;
      const fromMs = todayMs - (DAYS - 1) * MS_PER_DAY;
      const { period: month, recent: today } = await periodMethodStats(db, merchantId, { fromMs, recentFromMs: todayMs, nowMs });
      const balances = await Promise.all(CURRENCIES.map(async (currency) => ({ currency, balances: await ledger.balances(merchantId, currency) })));
      const active = CURRENCIES.filter((c) => month.some((s) => s.currency === c) || BALANCE_KINDS.some((k) => balances.find((b) => b.currency === c)!.balances[k] !== 0n));

      const balanceTable = table<BalanceRow>({
        caption: 'Balances per currency',
        columns: [
          { label: 'Currency', cell: (r) => html`<strong>${r.currency}</strong>` },
          ...BALANCE_KINDS.map((kind) => ({ label: kind[0]!.toUpperCase() + kind.slice(1), cell: (r: BalanceRow) => money(r.balances[kind], r.currency), numeric: true })),
        ],
        rows: balances.filter((b) => active.includes(b.currency)),
        empty: 'No money has moved yet. Payments you collect show here.',
      });

      const perCurrency = await Promise.all(
        active.filter((c) => month.some((s) => s.currency === c)).map(async (currency) => {
          const settled = await settlementDays(db, merchantId, currency, { fromMs, toMs: todayMs + MS_PER_DAY }, nowMs);
          const byDay = new Map(settled.map((d) => [d.day, d.collectedMinor]));
          const days: DayValue[] = Array.from({ length: DAYS }, (_, i) => {
            const day = utcDay(fromMs + i * MS_PER_DAY);
            const value = byDay.get(day) ?? 0n;
            return { day, value, text: formatMoney(value, currency) };
          });
          const total = days.reduce((sum, d) => sum + d.value, 0n);
          const monthStats = month.filter((s) => s.currency === currency);
          const todayStats = today.filter((s) => s.currency === currency);
          const rateBars = monthStats.map((s) => {
            const percent = successPercent(s);
            return { label: s.method, value: BigInt(percent ?? 0), text: percent === null ? 'no payments' : `${percent}% of ${s.total}`, tone: rateTone(percent) };
          });
          return section(
            `${currency} payments`,
            html`${dayChart(`Volume per day, last ${DAYS} days`, days, `${formatMoney(total, currency)} in total`)}
            ${barChart(`Success rate per method, last ${DAYS} days`, rateBars)}
            <h3>Per method: payments created, share paid, volume paid</h3>${methodTable(currency, monthStats, todayStats)}`,
          );
        }),
      );
      return ctx.page(`${merchant.name}`, html`<p class="hint">Merchant ${merchant.id} · ${merchant.mode} · days are UTC days.</p>${section('Balances', balanceTable)}${perCurrency}`);
    });
  };
}
