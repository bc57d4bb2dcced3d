// What the payments and payouts pages share: the filtered, keyset-paged list (reporting's own list
// query, its filters checked with the API's own schema), and the parts of a record's page: the
// timeline, the ledger postings and the webhook events with every attempt.
import type { TObject } from '@sinclair/typebox';
import { isoFromMs } from '../../core/clock.js';
import { html, type HtmlValue, type SafeHtml } from '../../core/html.js';
import { CURRENCIES, type Currency } from '../../core/money.js';
import type { JournalEntry } from '../../ledger/service.js';
import type { WebhookEventDetail } from '../../webhooks/service.js';
import type { PageContext } from '../app.js';
import { badge, money, section, table, time, urlWith } from '../components.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import { anyOf, filterBar, filtersOf } from './common.js';
import type { MerchantPageOptions } from './index.js';

export const PAGE_SIZE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTER_NAMES = ['status', 'method', 'currency', 'from', 'to', 'q'] as const;

export interface ListSpec<Row> {
  readonly path: string;
  readonly schema: TObject;
  readonly statuses: readonly string[];
  readonly methods: readonly string[];
  readonly caption: string;
  readonly empty: string;
  readonly load: (merchantId: string, query: Record<string, unknown>) => Promise<{ items: Row[]; nextCursor: string | null }>;
  readonly columns: Parameters<typeof table<Row>>[0]['columns'];
}

/**
 * The list page's body. The search box takes a transactionRef (a UUID) or a merchantRef; every
 * filter is checked with the list API's schema, and a problem is shown under its field.
 */
export async function recordList<Row>(ctx: PageContext, merchantId: string, spec: ListSpec<Row>): Promise<{ body: SafeHtml; status: number }> {
  const q = ctx.query.q?.trim() ?? '';
  const fields: Record<string, string> = { ...filtersOf(ctx.query, ['status', 'method', 'currency', 'from', 'to', 'cursor']) };
  if (q) fields[UUID.test(q) ? 'transactionRef' : 'merchantRef'] = q;
  const checked = validateForm(ctx.request, spec.schema, fields, { limit: PAGE_SIZE });
  let errors: FieldErrors | undefined;
  let page: { items: Row[]; nextCursor: string | null } = { items: [], nextCursor: null };
  if (!checked.ok) errors = checked.errors;
  else {
    try {
      page = await spec.load(merchantId, checked.value);
    } catch (error) {
      const problems = fieldErrorsOf(error);
      if (!problems) throw error;
      errors = problems;
    }
  }
  if (errors) {
    // The search box stands for both references; the page's cursor is not a field one can fix.
    const { transactionRef, merchantRef, cursor, ...rest } = errors;
    errors = { ...rest, ...(transactionRef || merchantRef ? { q: (transactionRef ?? merchantRef)! } : {}), ...(cursor ? { _form: 'The page link expired; start from the first page.' } : {}) };
  }
  const kept = filtersOf(ctx.query, FILTER_NAMES);
  const bar = filterBar(
    spec.path,
    [
      { name: 'status', label: 'Status', options: anyOf(spec.statuses), value: ctx.query.status },
      { name: 'method', label: 'Method', options: anyOf(spec.methods), value: ctx.query.method },
      { name: 'currency', label: 'Currency', options: anyOf(CURRENCIES), value: ctx.query.currency },
      { name: 'from', label: 'From', hint: 'YYYY-MM-DD, UTC', value: ctx.query.from },
      { name: 'to', label: 'Before', hint: 'YYYY-MM-DD, UTC', value: ctx.query.to },
      { name: 'q', label: 'Search', hint: 'transactionRef or merchantRef', value: ctx.query.q },
    ],
    errors,
  );
  const list = table<Row>({
    caption: spec.caption,
    columns: spec.columns,
    rows: page.items,
    empty: errors ? 'Correct the filters above.' : spec.empty,
    nextUrl: page.nextCursor ? urlWith(spec.path, { ...kept, cursor: page.nextCursor }) : null,
    firstUrl: ctx.query.cursor ? urlWith(spec.path, kept) : null,
  });
  const problem = errors?._form ? html`<div class="alert alert-error" role="alert"><p>${errors._form}</p></div>` : '';
  return { body: html`${bar}${problem}${list}`, status: errors ? 400 : 200 };
}

export interface TimelineItem {
  readonly at: string;
  readonly text: HtmlValue;
}

/** Events in time order (ISO strings of one format sort as times). */
export function timeline(items: readonly TimelineItem[]): SafeHtml {
  const sorted = [...items].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return section('Timeline', html`<ol class="timeline">${sorted.map((i) => html`<li>${time(i.at)} ${i.text}</li>`)}</ol>`);
}

interface PostingRow {
  readonly entry: JournalEntry;
  readonly account: string;
  readonly amountMinor: bigint;
}

/**
 * The ledger postings of a record to the merchant's own balances, and the platform's fee, as the
 * statement names them. The platform's other accounts (which connector cleared it) are not the
 * merchant's business, as in the merchant API.
 */
export function postingsSection(merchantId: string, entries: readonly JournalEntry[]): SafeHtml {
  const rows: PostingRow[] = entries.flatMap((entry) =>
    entry.postings
      .filter((p) => p.merchantId === merchantId || p.kind === 'fee_revenue')
      // The fee account's posting is what the platform earned (positive when charged), as the statement's fee.
      .map((p) => ({ entry, account: p.merchantId === merchantId ? p.kind : 'fee charged', amountMinor: p.amountMinor })),
  );
  return section(
    'Ledger postings',
    table<PostingRow>({
      caption: 'Ledger postings',
      columns: [
        { label: 'When', cell: (r) => time(isoFromMs(r.entry.createdAtMs)) },
        { label: 'Entry', cell: (r) => html`<code>${r.entry.kind}</code>` },
        { label: 'Balance', cell: (r) => r.account },
        { label: 'Amount', cell: (r) => money(r.amountMinor, r.entry.currency), numeric: true },
      ],
      rows,
      empty: 'No money has moved for this record yet.',
    }),
    { id: 'postings' },
  );
}

/** The record's webhook events, each with every delivery attempt. */
export function webhookSection(events: readonly WebhookEventDetail[]): SafeHtml {
  return section(
    'Webhooks',
    events.length === 0
      ? html`<p class="empty">No webhook event yet.</p>`
      : events.map(
          (e) => html`<h3><a href="/console/merchant/webhooks/${e.id}">${e.type}</a> ${badge(e.status, e.status === 'delivered' ? 'ok' : e.status === 'failed' ? 'bad' : e.status === 'pending' ? 'warn' : 'muted')}</h3>
          ${attemptsTable(e)}`,
        ),
    { id: 'webhooks' },
  );
}

export function attemptsTable(e: WebhookEventDetail): SafeHtml {
  return table({
    caption: `Attempts of ${e.id}`,
    columns: [
      { label: 'Attempt', cell: (a) => a.attemptNo, numeric: true },
      { label: 'Started', cell: (a) => time(a.startedAt) },
      { label: 'HTTP status', cell: (a) => (a.httpStatus === null ? '—' : a.httpStatus) },
      { label: 'Took', cell: (a) => `${a.durationMs} ms`, numeric: true },
      { label: 'Error or answer', cell: (a) => a.error ?? a.responseSnippet ?? '' },
    ],
    rows: e.attempts,
    empty: e.status === 'no_destination' ? 'Never sent: no webhook URL was configured.' : 'Not attempted yet.',
  });
}

/** The record's journal entries and webhook events, read in parallel. */
export async function recordActivity(options: MerchantPageOptions, merchantId: string, refs: readonly string[], resourceRef: string) {
  const [entries, page] = await Promise.all([
    options.ledger.journal(merchantId, { refs, limit: 100 }),
    options.webhooks.listEvents(merchantId, { resourceRef, limit: 50 }),
  ]);
  const events = await Promise.all(page.events.map((e) => options.webhooks.getEvent(e.id, merchantId)));
  return { entries: [...entries].reverse(), events: events.reverse() };
}

export const currencyOf = (text: string): Currency => text as Currency;
