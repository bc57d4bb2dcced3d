// The confirm step of a dangerous action (disable a merchant, release a deposit, return held money):
// the first POST renders what is about to happen with the same fields and a "Yes" button; only the
// second POST, carrying confirmed=yes, runs the action. Both are ordinary CSRF-checked POSTs.
import { html, type HtmlValue } from '../core/html.js';
import type { PageContext, PageResult } from './app.js';
import { csrfField } from './components.js';

export const CONFIRM_FIELD = 'confirmed';

export interface ConfirmOptions {
  readonly title: string;
  /** What will happen, in a sentence or two. */
  readonly message: HtmlValue;
  readonly action: string;
  readonly submit: string;
  /** Where "Cancel" goes. */
  readonly back: string;
}

/** Null when the user already confirmed (run the action); otherwise the confirm page to return. */
export function confirmStep(ctx: PageContext, options: ConfirmOptions): PageResult | null {
  if (ctx.fields[CONFIRM_FIELD] === 'yes') return null;
  const carried = Object.entries(ctx.fields).filter(([name]) => name !== '_csrf' && name !== CONFIRM_FIELD);
  return ctx.page(
    options.title,
    html`<section class="card confirm"><div class="alert alert-warn" role="alert">${options.message}</div>
<form method="post" action="${options.action}" class="inline-actions">
  ${csrfField(ctx.csrfToken)}
  ${carried.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <input type="hidden" name="${CONFIRM_FIELD}" value="yes">
  <div class="actions"><button type="submit" class="button danger">${options.submit}</button> <a class="button secondary" href="${options.back}">Cancel</a></div>
</form></section>`,
  );
}
