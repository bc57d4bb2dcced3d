// The console's building blocks, all escaping through core/html.ts: labelled fields with their
// problems, status badges, money in the currency's own formatting, server-paginated tables that
// become cards at phone width, and the confirm step of a dangerous action.
import { formatMoney } from '../core/currency-format.js';
import { toMinor } from '../core/money.js';
import { html, type HtmlValue, type SafeHtml } from '../core/html.js';
import type { FieldErrors } from './forms.js';

export const CSRF_FIELD = '_csrf';

export const csrfField = (token: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

export interface FieldOptions {
  readonly name: string;
  readonly label: string;
  readonly type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'textarea';
  readonly value?: string | number | null;
  readonly required?: boolean;
  readonly hint?: string;
  readonly autocomplete?: string;
  readonly inputmode?: 'numeric' | 'decimal' | 'text';
  readonly step?: string;
  readonly errors?: FieldErrors;
  /** A select of these values (value, label). */
  readonly options?: ReadonlyArray<readonly [string, string]>;
}

/** A labelled input; its problem is tied to it with aria-describedby and aria-invalid. */
export function field(options: FieldOptions): SafeHtml {
  const id = `f-${options.name}`;
  const problem = options.errors?.[options.name];
  const describedBy = [problem ? `${id}-error` : null, options.hint ? `${id}-hint` : null].filter(Boolean).join(' ') || null;
  const common = html`id="${id}" name="${options.name}"${options.required ? html` required` : ''}${problem ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  const value = options.value ?? '';
  let control: SafeHtml;
  if (options.options) {
    control = html`<select ${common}>${options.options.map(([optionValue, label]) => html`<option value="${optionValue}"${String(value) === optionValue ? html` selected` : ''}>${label}</option>`)}</select>`;
  } else if (options.type === 'textarea') {
    control = html`<textarea ${common} rows="4">${value}</textarea>`;
  } else {
    control = html`<input ${common} type="${options.type ?? 'text'}" value="${options.type === 'password' ? '' : value}"${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.inputmode ? html` inputmode="${options.inputmode}"` : ''}${options.step ? html` step="${options.step}"` : ''}>`;
  }
  return html`<div class="field${problem ? ' has-error' : ''}">
  <label for="${id}">${options.label}${options.required ? html` <span class="req" aria-hidden="true">*</span>` : ''}</label>
  ${control}
  ${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
  ${problem ? html`<p class="error" id="${id}-error">${problem}</p>` : ''}
</div>`;
}

/** The form-level problem (one not tied to a field), announced to screen readers. */
export function formProblem(errors: FieldErrors | undefined, fields: readonly string[] = []): SafeHtml | '' {
  if (!errors) return '';
  const loose = Object.entries(errors).filter(([name]) => name === '_form' || (fields.length > 0 && !fields.includes(name)));
  const count = Object.keys(errors).length;
  if (count === 0) return '';
  return html`<div class="alert alert-error" role="alert">${loose.length > 0 ? loose.map(([name, problem]) => html`<p>${name === '_form' ? '' : `${name} `}${problem}</p>`) : html`<p>Please correct the ${count === 1 ? 'field' : 'fields'} marked below.</p>`}</div>`;
}

export interface FormOptions {
  readonly action: string;
  readonly csrfToken: string;
  readonly submit: string;
  readonly body: HtmlValue;
  readonly danger?: boolean;
  readonly className?: string;
}

export function form(options: FormOptions): SafeHtml {
  return html`<form method="post" action="${options.action}" class="${options.className ?? 'form'}" novalidate>
  ${csrfField(options.csrfToken)}
  ${options.body}
  <div class="actions"><button type="submit" class="button${options.danger ? ' danger' : ''}">${options.submit}</button></div>
</form>`;
}

/** A one-button form (enable, disable, release...): still a POST with the CSRF token. */
export function actionButton(action: string, csrfToken: string, label: string, options: { danger?: boolean; hidden?: Record<string, string> } = {}): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">${csrfField(csrfToken)}${Object.entries(options.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}<button type="submit" class="button small${options.danger ? ' danger' : ' secondary'}">${label}</button></form>`;
}

const BADGE_TONES: Readonly<Record<string, string>> = {
  active: 'ok', Success: 'ok', ok: 'ok', live: 'info', sandbox: 'muted', disabled: 'bad', Failed: 'bad', failing: 'bad',
  Pending: 'warn', Processing: 'warn', Initiated: 'warn', PendingApproval: 'warn', held: 'warn', Expired: 'muted',
};

export const badge = (text: string, tone?: 'ok' | 'bad' | 'warn' | 'info' | 'muted'): SafeHtml =>
  html`<span class="badge badge-${tone ?? BADGE_TONES[text] ?? 'muted'}">${text}</span>`;

export const money = (amountMinor: bigint, currency: string): SafeHtml => html`<span class="num">${formatMoney(amountMinor, currency)}</span>`;

/** A record's JSON amount (major units, at most two decimals) in the currency's formatting, through minor units. */
export function moneyOfMajor(amount: number, currency: string): SafeHtml {
  const minor = toMinor(Math.abs(amount));
  if (minor === null) return html`<span class="num">${currency} ${amount}</span>`;
  return money(amount < 0 ? -minor : minor, currency);
}

export const time = (iso: string): SafeHtml => html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC')}</time>`;

export interface Column<Row> {
  readonly label: string;
  readonly cell: (row: Row) => HtmlValue;
  readonly numeric?: boolean;
}

export interface TableOptions<Row> {
  readonly caption: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly empty: string;
  /** The next page's URL (keyset cursor), null on the last page. */
  readonly nextUrl?: string | null;
  /** The first page's URL, shown when this is not the first page. */
  readonly firstUrl?: string | null;
}

/** A table whose cells carry their column's label, so at phone width each row reads as a card. */
export function table<Row>(options: TableOptions<Row>): SafeHtml {
  if (options.rows.length === 0) return html`<p class="empty">${options.empty}</p>${pager(options)}`;
  return html`<div class="table-wrap"><table class="table">
  <caption class="visually-hidden">${options.caption}</caption>
  <thead><tr>${options.columns.map((c) => html`<th scope="col"${c.numeric ? html` class="num"` : ''}>${c.label}</th>`)}</tr></thead>
  <tbody>${options.rows.map((row) => html`<tr>${options.columns.map((c) => html`<td data-label="${c.label}"${c.numeric ? html` class="num"` : ''}>${c.cell(row)}</td>`)}</tr>`)}</tbody>
</table></div>${pager(options)}`;
}

function pager(options: Pick<TableOptions<unknown>, 'nextUrl' | 'firstUrl'>): SafeHtml | '' {
  if (!options.nextUrl && !options.firstUrl) return '';
  return html`<nav class="pager" aria-label="Pages">${options.firstUrl ? html`<a class="button secondary small" href="${options.firstUrl}">First page</a>` : ''}${options.nextUrl ? html`<a class="button secondary small" href="${options.nextUrl}" rel="next">Next page</a>` : ''}</nav>`;
}

/** A URL with query parameters (undefined and empty ones left out). */
export function urlWith(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Key facts as a definition list. */
export const facts = (items: ReadonlyArray<readonly [string, HtmlValue]>): SafeHtml =>
  html`<dl class="facts">${items.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}</dl>`;

export const section = (title: string, body: HtmlValue, options: { id?: string } = {}): SafeHtml =>
  html`<section class="card"${options.id ? html` id="${options.id}"` : ''}><h2>${title}</h2>${body}</section>`;
