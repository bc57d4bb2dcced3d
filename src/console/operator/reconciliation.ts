// Reconciliation for the operator (docs/reconciliation.md): the runs (newest first, per connector,
// with the count of each outcome and what is still unresolved), a run's lines filtered by outcome or
// the worklist, one line with its resolve form, and the import and "fetch a day" forms. Everything goes
// through the ReconciliationService the admin API uses, and every form is checked with that API's schema.
import { html, type HtmlValue } from '../../core/html.js';
import { dayStartOf } from '../../core/days.js';
import { AppError } from '../../core/errors.js';
import { FetchBody, ImportBody, ResolveBody } from '../../api/admin/reconciliation.js';
import { RECONCILIATION_OUTCOMES, type ReconciliationOutcome } from '../../reconciliation/reconciliation-rows.js';
import type { ReconciliationService } from '../../reconciliation/service.js';
import type { ReconciliationLineView, ReconciliationRunView } from '../../reconciliation/views.js';
import { OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages, type PageContext, type PageResult } from '../app.js';
import { badge, facts, field, form, formProblem, money, section, table, time, urlWith } from '../components.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';

const PAGE_SIZE = 25;
const BASE = `${PREFIX}/reconciliation`;

export type ReconciliationPagesService = Pick<ReconciliationService, 'importStatement' | 'fetchDay' | 'fetchableConnectors' | 'listRuns' | 'getRun' | 'listLines' | 'getLine' | 'resolveLine'>;

const OUTCOME_LABELS: Readonly<Record<ReconciliationOutcome, string>> = {
  matched: 'Matched',
  amount_mismatch: 'Amount differs',
  status_mismatch: 'Status differs',
  missing_ours: 'Missing on ours',
  missing_theirs: 'Missing on theirs',
};
const outcomeBadge = (outcome: ReconciliationOutcome, text: string = OUTCOME_LABELS[outcome]) => badge(text, outcome === 'matched' ? 'ok' : outcome === 'status_mismatch' ? 'warn' : 'bad');
const isOutcome = (value: string | undefined): value is ReconciliationOutcome => RECONCILIATION_OUTCOMES.includes(value as ReconciliationOutcome);

/** One side of a line: amount (bigint minor units, as the view's decimal string) and status. */
function side(value: ReconciliationLineView['theirs'] | ReconciliationLineView['ours']): HtmlValue {
  if (!value) return '—';
  return html`${money(BigInt(value.amountMinor), value.currency)} · ${value.status}${value.mappedStatus && value.mappedStatus !== value.status ? ` (${value.mappedStatus})` : ''}`;
}

function resolution(line: ReconciliationLineView): HtmlValue {
  if (line.outcome === 'matched') return '';
  if (line.resolvedAt === null) return badge('Unresolved', 'warn');
  return html`${badge('Resolved', 'ok')} ${line.reason} <span class="hint">(${line.resolvedBy}, ${time(line.resolvedAt)})</span>`;
}

const runLink = (run: Pick<ReconciliationRunView, 'id' | 'connector' | 'day'>) => html`<a href="${BASE}/runs/${encodeURIComponent(run.id)}">${run.connector} ${run.day}</a>`;

/** A service's refusal of an import: the malformed line shows under the content, the rest on the form. */
function importErrors(error: unknown): FieldErrors | null {
  const errors = fieldErrorsOf(error);
  if (!errors) return null;
  const line = Object.keys(errors).find((name) => name.startsWith('line '));
  if (line) return { content: `${line}: ${errors[line]}. Nothing was imported.` };
  return errors;
}

export function operatorReconciliationPages(options: { readonly reconciliation: ReconciliationPagesService }): ConsolePages {
  const { reconciliation } = options;

  return (router) => {
    router.page('/reconciliation', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Reconciliation', section: 'Operator', order: 45 } }, async (ctx) => {
      const connector = ctx.query.connector?.trim() || undefined;
      const page = await reconciliation.listRuns({ connector, cursor: ctx.query.before || undefined, limit: PAGE_SIZE });
      const filter = html`<form method="get" action="${BASE}" class="toolbar">
  ${field({ name: 'connector', label: 'Connector', value: connector ?? '' })}
  <button type="submit" class="button secondary">Filter</button>
  ${ctx.can(OPERATOR_ADMIN) ? html`<a class="button" href="${BASE}/import">Import or fetch a statement</a>` : ''}
</form>`;
      // One cell for the five counts (those above zero), so the table fits a laptop without scrolling.
      const counts = (r: ReconciliationRunView) =>
        html`<span>${RECONCILIATION_OUTCOMES.filter((o) => r.counts[o] > 0).map((o) => html`${outcomeBadge(o, `${r.counts[o]} ${OUTCOME_LABELS[o].toLowerCase()}`)} `)}</span>`;
      return ctx.page(
        'Reconciliation',
        html`${filter}${table<ReconciliationRunView>({
          caption: 'Reconciliation runs, newest first',
          columns: [
            { label: 'Statement', cell: runLink },
            { label: 'Source', cell: (r) => r.source },
            { label: 'Lines', cell: (r) => String(r.lines), numeric: true },
            { label: 'Outcomes', cell: counts },
            { label: 'Unresolved', cell: (r) => (r.unresolved > 0 ? badge(String(r.unresolved), 'warn') : badge('0', 'ok')), numeric: true },
            { label: 'Imported', cell: (r) => html`${time(r.importedAt)} <span class="hint">${r.actor}</span>` },
          ],
          rows: page.items,
          empty: connector ? `No runs of ${connector}.` : 'No statement has been imported yet.',
          nextUrl: page.nextCursor ? urlWith(BASE, { before: page.nextCursor, connector }) : null,
          firstUrl: ctx.query.before ? urlWith(BASE, { connector }) : null,
        })}`,
      );
    });

    router.page('/reconciliation/runs/:id', { roles: OPERATOR_ROLES_ALL }, async (ctx) => {
      const run = await reconciliation.getRun(ctx.params.id!);
      const outcome = isOutcome(ctx.query.outcome) ? ctx.query.outcome : undefined;
      const unresolved = ctx.query.unresolved === 'true' ? 'true' : undefined;
      const base = `${BASE}/runs/${encodeURIComponent(run.id)}`;
      const lines = await reconciliation.listLines(run.id, { outcome, unresolved: unresolved === 'true', cursor: ctx.query.after || undefined, limit: PAGE_SIZE });
      const filter = html`<form method="get" action="${base}" class="toolbar">
  ${field({ name: 'outcome', label: 'Outcome', options: [['', 'Any'], ...RECONCILIATION_OUTCOMES.map((o) => [o, OUTCOME_LABELS[o]] as const)], value: outcome ?? '' })}
  ${field({ name: 'unresolved', label: 'Resolution', options: [['', 'Any'], ['true', 'Unresolved only']], value: unresolved ?? '' })}
  <button type="submit" class="button secondary">Filter</button>
</form>`;
      return ctx.page(
        `Statement of ${run.connector}, ${run.day}`,
        html`${section('Run', facts([
          ['Run', html`<code>${run.id}</code>`],
          ['File', html`${run.fileName} <span class="hint">sha256 ${run.checksum.slice(0, 16)}…</span>`],
          ['Source', run.source],
          ['Period', html`${time(run.periodFrom)} – ${time(run.periodTo)}`],
          ['Missing on theirs checked for', run.expects.length ? run.expects.join(', ') : 'nothing (the statement is not a list of the day)'],
          ['Imported', html`${time(run.importedAt)} by ${run.actor}`],
          ['Lines', String(run.lines)],
          ...RECONCILIATION_OUTCOMES.map((o) => [OUTCOME_LABELS[o], String(run.counts[o])] as const),
          ['Unresolved', run.unresolved > 0 ? badge(String(run.unresolved), 'warn') : badge('0', 'ok')],
        ]))}
        ${section('Lines', html`${filter}${table<ReconciliationLineView>({
          caption: "The run's lines in the statement's order",
          columns: [
            { label: 'Line', cell: (l) => html`<a href="${BASE}/lines/${encodeURIComponent(l.id)}">${l.lineNumber === null ? 'not listed' : `#${l.lineNumber}`}</a>` },
            { label: 'Outcome', cell: (l) => outcomeBadge(l.outcome) },
            { label: 'Kind', cell: (l) => l.kind },
            { label: 'Reference', cell: (l) => html`${l.transactionRef ? html`<code>${l.transactionRef}</code>` : ''} ${l.upstreamRef ? html`<span class="hint">${l.upstreamRef}</span>` : ''}` },
            { label: 'Theirs', cell: (l) => side(l.theirs) },
            { label: 'Ours', cell: (l) => side(l.ours) },
            { label: 'Resolution', cell: resolution },
          ],
          rows: lines.items,
          empty: 'No line matches.',
          nextUrl: lines.nextCursor ? urlWith(base, { after: lines.nextCursor, outcome, unresolved }) : null,
          firstUrl: ctx.query.after ? urlWith(base, { outcome, unresolved }) : null,
        })}`)}`,
      );
    });

    const linePage = async (ctx: PageContext, errors?: FieldErrors): Promise<PageResult> => {
      const line = await reconciliation.getLine(ctx.params.id!);
      const run = await reconciliation.getRun(line.runId);
      const open = line.outcome !== 'matched' && line.resolvedAt === null;
      const resolveForm =
        open && ctx.can(OPERATOR_ADMIN)
          ? section(
              'Resolve',
              html`${formProblem(errors, ['reason'])}${form({
                action: `${BASE}/lines/${encodeURIComponent(line.id)}/resolve`,
                csrfToken: ctx.csrfToken,
                submit: 'Resolve line',
                body: field({ name: 'reason', label: 'Reason', type: 'textarea', value: ctx.fields.reason, required: true, hint: 'Kept with the line and in the audit log. A resolution moves no money: name the ledger correction here if one was needed.', errors }),
              })}`,
            )
          : // A refusal of a line no longer open (resolved meanwhile) still needs saying.
            formProblem(errors);
      return ctx.page(
        `Line ${line.lineNumber === null ? '(not on the statement)' : `#${line.lineNumber}`} of ${run.connector} ${run.day}`,
        html`${section('Line', facts([
          ['Run', runLink(run)],
          ['Outcome', outcomeBadge(line.outcome)],
          ['Kind', line.kind],
          ['Our reference', line.transactionRef ? html`<code>${line.transactionRef}</code>` : '—'],
          ['Upstream reference', line.upstreamRef ?? '—'],
          ['Merchant', line.merchantId ? html`<a href="${PREFIX}/merchants/${line.merchantId}">${line.merchantId}</a>` : '—'],
          ['Theirs', side(line.theirs)],
          ['Ours', side(line.ours)],
          ['Resolution', line.outcome === 'matched' ? 'Matched: nothing to resolve' : resolution(line)],
        ]))}${resolveForm}`,
        errors ? 400 : 200,
      );
    };

    router.page('/reconciliation/lines/:id', { roles: OPERATOR_ROLES_ALL }, (ctx) => linePage(ctx));

    router.action('/reconciliation/lines/:id/resolve', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const checked = validateForm(ctx.request, ResolveBody, ctx.fields);
      if (!checked.ok) return linePage(ctx, checked.errors);
      try {
        const { line, replayed } = await reconciliation.resolveLine(ctx.params.id!, ctx.actor, checked.value.reason);
        return ctx.redirect(`${BASE}/runs/${encodeURIComponent(line.runId)}?unresolved=true`, replayed ? 'The line was already resolved with this reason.' : 'Line resolved.');
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors || (error instanceof AppError && error.reason === 'NOT_FOUND')) throw error;
        return linePage(ctx, errors);
      }
    });

    /** Which of the two forms of the import page a problem belongs to. */
    type ImportForm = 'import' | 'fetch';
    const importPage = (ctx: PageContext, state?: { readonly form: ImportForm; readonly errors: FieldErrors }): PageResult => {
      const errorsOf = (name: ImportForm) => (state?.form === name ? state.errors : undefined);
      const valueOf = (name: ImportForm, fieldName: string) => (state?.form === name ? ctx.fields[fieldName] : undefined);
      const fetchable = reconciliation.fetchableConnectors();
      const importForm = section(
        'Import a statement file',
        html`${formProblem(errorsOf('import'), ['connector', 'day', 'fileName', 'content'])}${form({
          action: `${BASE}/import`,
          csrfToken: ctx.csrfToken,
          submit: 'Import',
          body: html`<div class="form-row">${field({ name: 'connector', label: 'Connector', value: valueOf('import', 'connector') ?? 'simulator', required: true, hint: 'simulator, paystack, razorpay or xendit (docs/reconciliation.md).', errors: errorsOf('import') })}
            ${field({ name: 'day', label: "Statement's UTC day", value: valueOf('import', 'day'), required: true, hint: 'YYYY-MM-DD', errors: errorsOf('import') })}</div>
            ${field({ name: 'fileName', label: 'File name', value: valueOf('import', 'fileName'), hint: 'Optional; kept with the run.', errors: errorsOf('import') })}
            ${field({ name: 'content', label: "The file's content", type: 'textarea', value: valueOf('import', 'content'), required: true, hint: 'Open the file in a text editor and paste it whole (CSV or the JSON document). Large files: the CLI (recon import) or the admin API.', errors: errorsOf('import') })}`,
        })}`,
      );
      const fetchForm = section(
        'Fetch a day from the connector',
        fetchable.length === 0
          ? html`<p class="empty">No connector with a statement API is available now.</p>`
          : html`${formProblem(errorsOf('fetch'), ['connector', 'day'])}${form({
              action: `${BASE}/fetch`,
              csrfToken: ctx.csrfToken,
              submit: 'Fetch and compare',
              body: html`<div class="form-row">${field({ name: 'connector', label: 'Connector', options: fetchable.map((c) => [c, c] as const), value: valueOf('fetch', 'connector'), errors: errorsOf('fetch') })}
                ${field({ name: 'day', label: 'UTC day', value: valueOf('fetch', 'day'), required: true, hint: 'YYYY-MM-DD; a day already fetched answers its run.', errors: errorsOf('fetch') })}</div>`,
            })}`,
      );
      return ctx.page('Import or fetch a statement', html`<div class="grid">${importForm}${fetchForm}</div>`, state ? 400 : 200);
    };

    router.page('/reconciliation/import', { roles: OPERATOR_ADMIN }, async (ctx) => importPage(ctx));

    const ranNotice = (run: ReconciliationRunView, replayed: boolean) =>
      replayed ? `This statement was imported before: run of ${run.importedAt}, nothing stored again.` : `Imported ${run.lines} lines: ${run.counts.matched} matched, ${run.unresolved} to resolve.`;

    router.action('/reconciliation/import', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const checked = validateForm(ctx.request, ImportBody, ctx.fields);
      if (!checked.ok) return importPage(ctx, { form: 'import', errors: checked.errors });
      try {
        const { run, replayed } = await reconciliation.importStatement({ ...checked.value, actor: ctx.actor });
        return ctx.redirect(`${BASE}/runs/${encodeURIComponent(run.id)}`, ranNotice(run, replayed));
      } catch (error) {
        const errors = importErrors(error);
        if (!errors) throw error;
        return importPage(ctx, { form: 'import', errors });
      }
    });

    router.action('/reconciliation/fetch', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const checked = validateForm(ctx.request, FetchBody, ctx.fields);
      if (!checked.ok) return importPage(ctx, { form: 'fetch', errors: checked.errors });
      const dayStartMs = dayStartOf(checked.value.day);
      if (dayStartMs === null) return importPage(ctx, { form: 'fetch', errors: { day: 'is not a calendar day' } });
      try {
        const { run, replayed } = await reconciliation.fetchDay(checked.value.connector, dayStartMs, ctx.actor);
        return ctx.redirect(`${BASE}/runs/${encodeURIComponent(run.id)}`, ranNotice(run, replayed));
      } catch (error) {
        // A provider that did not answer (UNAVAILABLE) is worth saying on the form: the operator may try later.
        const errors = fieldErrorsOf(error) ?? (error instanceof AppError && error.reason === 'UNAVAILABLE' ? { _form: error.detail } : null);
        if (!errors) throw error;
        return importPage(ctx, { form: 'fetch', errors });
      }
    });
  };
}
