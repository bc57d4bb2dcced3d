// Reconciliation (docs/reconciliation.md): an upstream's statement of one UTC day, imported by the
// operator or fetched by the daily job, compared line by line with our records. The run and all its
// lines are stored in one transaction after the whole file parsed; the same file again answers the
// run it made. Lines that did not match stay on the operator's worklist until resolved with a reason.
import { createHash } from 'node:crypto';
import { recordAudit } from '../audit/audit-log.js';
import { isoFromMs, type Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { StatementFormatError, type StatementFile, type StatementFormat, type StatementKind } from '../connectors/statement.js';
import { dayOf, dayStartOf, DAY_MS } from '../core/days.js';
import type { StatementRecords } from '../domain/statement-records.js';
import type { Db } from '../store/schema.js';
import { withTransaction } from '../store/transactions.js';
import { reconcile, type MatchedLine } from './matcher.js';
import { RECONCILIATION_OUTCOMES, type ReconciliationLinesTable, type ReconciliationOutcome, type ReconciliationRunsTable } from './reconciliation-rows.js';
import { reconciliationView, runView, type ReconciliationLineView, type ReconciliationRunView } from './views.js';

export const RECON_PAGE_DEFAULT = 50;
export const RECON_PAGE_MAX = 200;
/** The largest statement file taken (its text); a day of a busy connector fits many times over. */
export const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

/** What reconciliation needs of the connectors (the router gives it): reading and fetching statements. */
export interface StatementChannels {
  statementFormat(connector: string): StatementFormat | undefined;
  statementSources(): readonly { readonly connector: string; fetch(dayStartMs: number): Promise<StatementFile> }[];
}

export interface ImportRequest {
  readonly connector: string;
  /** The statement's UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly fileName?: string;
  readonly content: string;
  readonly actor: string;
}

export interface ImportResult {
  readonly run: ReconciliationRunView;
  /** true: this file was imported before; the earlier run is answered and nothing was stored. */
  readonly replayed: boolean;
}

export interface LineQuery {
  readonly outcome?: ReconciliationOutcome;
  readonly unresolved?: boolean;
  readonly limit?: number;
  readonly cursor?: string;
}

export interface ReconciliationOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly channels: StatementChannels;
  readonly records: StatementRecords;
}

const checksumOf = (content: string): string => createHash('sha256').update(content, 'utf8').digest('hex');
const pageLimit = (limit: number | undefined): number => Math.min(Math.max(limit ?? RECON_PAGE_DEFAULT, 1), RECON_PAGE_MAX);
/** Line ids sort in the statement's order within their run: the run's id and a zero-padded sequence. */
const lineId = (runId: string, index: number): string => `${runId}.${String(index + 1).padStart(7, '0')}`;

export class ReconciliationService {
  constructor(private readonly options: ReconciliationOptions) {}

  /** Parses the whole file first (400 with the line number), then stores the run and its lines at once. */
  async importStatement(request: ImportRequest, source: 'import' | 'fetch' = 'import'): Promise<ImportResult> {
    const format = this.options.channels.statementFormat(request.connector);
    if (!format) throw new AppError('NOT_FOUND', `The connector ${request.connector} offers no statement to reconcile.`);
    const dayStartMs = dayStartOf(request.day);
    if (dayStartMs === null) throw new AppError('VALIDATION_FAILED', 'day must be a calendar day, YYYY-MM-DD.', [{ field: 'day', problem: 'is not YYYY-MM-DD' }]);
    if (Buffer.byteLength(request.content, 'utf8') > STATEMENT_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `The statement is larger than ${STATEMENT_MAX_BYTES} bytes.`);
    const fileName = request.fileName?.trim() || `${request.connector}-${request.day}`;
    const checksum = checksumOf(request.content);
    const earlier = await this.runByChecksum(request.connector, checksum);
    if (earlier) return { run: earlier, replayed: true };

    let statement;
    try {
      statement = format.parse({ fileName, content: request.content }, dayStartMs);
    } catch (error) {
      if (!(error instanceof StatementFormatError)) throw error;
      throw new AppError('VALIDATION_FAILED', `The statement is malformed at line ${error.lineNumber}: ${error.reason}. Nothing was imported.`, [
        { field: `line ${error.lineNumber}`, problem: error.reason },
      ]);
    }
    const { connector } = request;
    const found = await this.options.records.find(
      connector,
      statement.lines.flatMap((line) => (line.transactionRef === null ? [] : [line.transactionRef])),
      statement.lines.map((line) => line.upstreamRef),
    );
    const expected = statement.expects.length === 0 ? [] : await this.options.records.expected(connector, statement.fromMs, statement.toMs, statement.expects);
    const results = reconcile(statement, found, expected);
    const counts = countOutcomes(results);
    const nowMs = this.options.clock.nowMs();
    const run: ReconciliationRunsTable = {
      id: newId(),
      connector,
      day: request.day,
      file_name: fileName,
      checksum,
      source,
      fetched_day: source === 'fetch' ? request.day : null,
      period_from_ms: BigInt(statement.fromMs),
      period_to_ms: BigInt(statement.toMs),
      expects: statement.expects.join(','),
      imported_at_ms: BigInt(nowMs),
      actor: request.actor,
      line_count: BigInt(statement.lines.length),
      matched: counts.matched,
      amount_mismatch: counts.amount_mismatch,
      status_mismatch: counts.status_mismatch,
      missing_ours: counts.missing_ours,
      missing_theirs: counts.missing_theirs,
    };
    const stored = await withTransaction(this.options.db, async (trx) => {
      // The unique keys (connector + checksum, connector + fetched day) settle a race between two imports.
      const inserted = await trx.insertInto('reconciliation_runs').values(run).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      const rows = results.map((result, index) => lineRow(run.id, index, result));
      for (let i = 0; i < rows.length; i += 200) await trx.insertInto('reconciliation_lines').values(rows.slice(i, i + 200)).execute();
      await recordAudit(trx, {
        actor: request.actor,
        action: 'reconciliation.import',
        target: run.id,
        details: { connector, day: request.day, fileName, checksum, source, lines: statement.lines.length, ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])) },
        nowMs,
      });
      return true;
    });
    if (!stored) {
      const winner = (await this.runByChecksum(connector, checksum)) ?? (await this.fetchedRun(connector, request.day));
      if (winner) return { run: winner, replayed: true };
      throw new AppError('CONFLICT', 'Another import of this statement is under way; repeat the call.');
    }
    return { run: runView(run, counts.unresolved), replayed: false };
  }

  /** The statement of `connector` for the UTC day starting at dayStartMs, fetched from its API and imported (once per day). */
  async fetchDay(connector: string, dayStartMs: number, actor: string): Promise<ImportResult> {
    const day = dayOf(dayStartMs);
    const existing = await this.fetchedRun(connector, day);
    if (existing) return { run: existing, replayed: true };
    const source = this.options.channels.statementSources().find((s) => s.connector === connector);
    if (!source) throw new AppError('NOT_FOUND', `The connector ${connector} has no statement API (or its credentials are not set).`);
    let file: StatementFile;
    try {
      file = await source.fetch(dayStartMs);
    } catch (error) {
      if (error instanceof AppError) throw error;
      // No answer, or a refusal (credentials, a day it does not have): the operator may repeat it later.
      throw new AppError('UNAVAILABLE', `The statement of ${day} could not be fetched from ${connector}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.importStatement({ connector, day, fileName: file.fileName, content: file.content, actor }, 'fetch');
  }

  /** The connectors whose day can be fetched now (fetchDay), for the operator's pages. */
  fetchableConnectors(): string[] {
    return this.options.channels.statementSources().map((source) => source.connector);
  }

  /** The daily job's step: yesterday (UTC) of every connector with a statement API that has not been fetched yet. */
  async fetchYesterday(actor: string, attempt: { due(connector: string): boolean; failed(connector: string, error: unknown): void }): Promise<number> {
    const todayStartMs = Math.floor(this.options.clock.nowMs() / DAY_MS) * DAY_MS;
    const yesterday = todayStartMs - DAY_MS;
    let fetched = 0;
    for (const { connector } of this.options.channels.statementSources()) {
      if (!attempt.due(connector) || (await this.fetchedRun(connector, dayOf(yesterday)))) continue;
      try {
        const result = await this.fetchDay(connector, yesterday, actor);
        if (!result.replayed) fetched += 1;
      } catch (error) {
        attempt.failed(connector, error);
      }
    }
    return fetched;
  }

  async listRuns(query: { readonly connector?: string; readonly limit?: number; readonly cursor?: string }): Promise<{ items: ReconciliationRunView[]; nextCursor: string | null }> {
    const limit = pageLimit(query.limit);
    let select = this.options.db.selectFrom('reconciliation_runs').selectAll().orderBy('id', 'desc').limit(limit + 1);
    if (query.connector) select = select.where('connector', '=', query.connector);
    if (query.cursor) select = select.where('id', '<', query.cursor);
    const rows = await select.execute();
    const page = rows.slice(0, limit);
    const unresolved = await this.unresolvedCounts(page.map((row) => row.id));
    return { items: page.map((row) => runView(row, unresolved.get(row.id) ?? 0n)), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
  }

  async getRun(id: string): Promise<ReconciliationRunView> {
    const row = await this.options.db.selectFrom('reconciliation_runs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No reconciliation run ${id}.`);
    return runView(row, (await this.unresolvedCounts([id])).get(id) ?? 0n);
  }

  /** One line (the operator's page of a line, with its resolve form). */
  async getLine(id: string): Promise<ReconciliationLineView> {
    const row = await this.options.db.selectFrom('reconciliation_lines').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No reconciliation line ${id}.`);
    return reconciliationView(row);
  }

  /** A run's lines in the statement's order (missing_theirs last); `unresolved`: only those still waiting for the operator. */
  async listLines(runId: string, query: LineQuery): Promise<{ items: ReconciliationLineView[]; nextCursor: string | null }> {
    await this.getRun(runId);
    const limit = pageLimit(query.limit);
    let select = this.options.db.selectFrom('reconciliation_lines').selectAll().where('run_id', '=', runId).orderBy('id', 'asc').limit(limit + 1);
    if (query.outcome) select = select.where('outcome', '=', query.outcome);
    if (query.unresolved) select = select.where('resolved_at_ms', 'is', null).where('outcome', '!=', 'matched');
    if (query.cursor) select = select.where('id', '>', query.cursor);
    const rows = await select.execute();
    const page = rows.slice(0, limit);
    return { items: page.map(reconciliationView), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
  }

  /**
   * Closes a line with the operator's reason, audited in the same transaction. A matched line has
   * nothing to resolve (409); resolving a resolved line again with the same reason answers it
   * unchanged (replayed), with another reason is 409.
   */
  async resolveLine(lineId: string, actor: string, reason: string): Promise<{ line: ReconciliationLineView; replayed: boolean }> {
    const why = reason.trim();
    if (why === '') throw new AppError('VALIDATION_FAILED', 'reason is required.', [{ field: 'reason', problem: 'is empty' }]);
    return withTransaction(this.options.db, async (trx) => {
      const line = await trx.selectFrom('reconciliation_lines').selectAll().where('id', '=', lineId).executeTakeFirst();
      if (!line) throw new AppError('NOT_FOUND', `No reconciliation line ${lineId}.`);
      if (line.outcome === 'matched') throw new AppError('CONFLICT', 'The line matched; there is nothing to resolve.');
      if (line.resolved_at_ms !== null) {
        if (line.resolution_reason === why) return { line: reconciliationView(line), replayed: true };
        throw new AppError('CONFLICT', `The line was already resolved by ${line.resolved_by} at ${isoFromMs(line.resolved_at_ms)}.`);
      }
      const nowMs = this.options.clock.nowMs();
      const changed = await trx
        .updateTable('reconciliation_lines')
        .set({ resolved_at_ms: BigInt(nowMs), resolved_by: actor, resolution_reason: why })
        .where('id', '=', lineId)
        .where('resolved_at_ms', 'is', null)
        .executeTakeFirst();
      // Another operator resolved it between the read and this write.
      if (Number(changed.numUpdatedRows) === 0) throw new AppError('CONFLICT', 'The line was resolved meanwhile; read it again.');
      const updated = { ...line, resolved_at_ms: BigInt(nowMs), resolved_by: actor, resolution_reason: why };
      await recordAudit(trx, {
        actor,
        action: 'reconciliation.resolve',
        target: lineId,
        merchantId: line.merchant_id,
        details: { runId: line.run_id, outcome: line.outcome, transactionRef: line.transaction_ref, upstreamRef: line.upstream_ref, reason: why },
        nowMs,
      });
      return { line: reconciliationView(updated), replayed: false };
    });
  }

  private async runByChecksum(connector: string, checksum: string): Promise<ReconciliationRunView | null> {
    const row = await this.options.db.selectFrom('reconciliation_runs').select('id').where('connector', '=', connector).where('checksum', '=', checksum).executeTakeFirst();
    return row ? this.getRun(row.id) : null;
  }

  private async fetchedRun(connector: string, day: string): Promise<ReconciliationRunView | null> {
    const row = await this.options.db.selectFrom('reconciliation_runs').select('id').where('connector', '=', connector).where('fetched_day', '=', day).executeTakeFirst();
    return row ? this.getRun(row.id) : null;
  }

  private async unresolvedCounts(runIds: readonly string[]): Promise<Map<string, bigint>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.options.db
      .selectFrom('reconciliation_lines')
      .select(['run_id', (eb) => eb.fn.countAll<string | number | bigint>().as('n')])
      .where('run_id', 'in', runIds)
      .where('resolved_at_ms', 'is', null)
      .where('outcome', '!=', 'matched')
      .groupBy('run_id')
      .execute();
    return new Map(rows.map((row) => [row.run_id, BigInt(row.n)]));
  }
}

function countOutcomes(results: readonly MatchedLine[]): Record<ReconciliationOutcome | 'unresolved', bigint> {
  const counts = Object.fromEntries([...RECONCILIATION_OUTCOMES, 'unresolved'].map((o) => [o, 0n])) as Record<ReconciliationOutcome | 'unresolved', bigint>;
  for (const result of results) {
    counts[result.outcome] += 1n;
    if (result.outcome !== 'matched') counts.unresolved += 1n;
  }
  return counts;
}

function lineRow(runId: string, index: number, { outcome, line, ours }: MatchedLine): ReconciliationLinesTable {
  return {
    id: lineId(runId, index),
    run_id: runId,
    line_number: line === null ? null : BigInt(line.lineNumber),
    outcome,
    kind: (line?.kind ?? ours?.kind) as StatementKind,
    upstream_ref: line?.upstreamRef ?? ours?.upstreamRef ?? null,
    transaction_ref: ours?.transactionRef ?? line?.transactionRef ?? null,
    merchant_id: ours?.merchantId ?? null,
    their_currency: line?.currency ?? null,
    their_amount_minor: line?.amountMinor ?? null,
    their_status: line?.upstreamStatus ?? null,
    their_mapped_status: line?.status ?? null,
    our_currency: ours?.currency ?? null,
    our_amount_minor: ours?.amountMinor ?? null,
    our_status: ours?.status ?? null,
    our_mapped_status: ours?.mappedStatus ?? null,
    resolved_at_ms: null,
    resolved_by: null,
    resolution_reason: null,
  };
}
