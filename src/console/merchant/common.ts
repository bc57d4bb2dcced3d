// What the merchant pages share: who may do what, the section of the menu, and the filter bar of the
// record lists (a GET form, so a filtered page is a link one can keep).
import type { ConsoleRole } from '../../people/roles.js';
import { html, type HtmlValue, type SafeHtml } from '../../core/html.js';
import { MERCHANT_ROLES_ALL } from '../app.js';
import { field, type FieldOptions } from '../components.js';
import type { FieldErrors } from '../forms.js';

/** Everyone of the merchant: every page is readable by a viewer. */
export const READERS = MERCHANT_ROLES_ALL;
/** Keys, webhook settings and resending webhooks: the people who integrate. */
export const DEVELOPERS: readonly ConsoleRole[] = ['owner', 'developer'];
/** Money (refunds), the team and the audit log. */
export const OWNERS: readonly ConsoleRole[] = ['owner'];

export const SECTION = 'Merchant';
export const MERCHANT = '/console/merchant';

/** A select's options with "Any" first. */
export const anyOf = (values: readonly string[]): ReadonlyArray<readonly [string, string]> => [['', 'Any'], ...values.map((v) => [v, v] as const)];

/** The filter bar above a list: a GET form whose fields keep their values and show their problems. */
export function filterBar(action: string, fields: readonly Omit<FieldOptions, 'errors'>[], errors: FieldErrors | undefined, extra: HtmlValue = ''): SafeHtml {
  return html`<form method="get" action="${action}" class="toolbar" role="search">
  ${fields.map((f) => field({ ...f, errors }))}
  ${extra}
  <div class="actions"><button type="submit" class="button small">Filter</button> <a class="button small secondary" href="${action}">Clear</a></div>
</form>`;
}

/** The query's own values, minus paging, to carry into the next page's link. */
export function filtersOf(query: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => query[n]).map((n) => [n, query[n]!]));
}
