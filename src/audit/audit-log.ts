// The operator audit log: one row per operator action, written in the transaction of the action
// itself, so a committed change always has its row and a rolled-back one none.
import { isoFromMs } from '../core/clock.js';
import { validationError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Executor } from '../store/schema.js';
import { currentAuditAddress } from './audit-context.js';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export interface AuditRecord {
  readonly actor: string;
  /** Dotted, e.g. merchant.disable, key.revoke, held_money.credit, ledger.adjustment. */
  readonly action: string;
  readonly target: string;
  readonly merchantId?: string | null;
  /** Plain JSON values describing the change; never a key, secret or private key. */
  readonly details?: Readonly<Record<string, unknown>>;
  readonly nowMs: number;
  /** The caller's address; by default the one of the request being served (audit-context.ts). */
  readonly address?: string | null;
}

export interface AuditEntry {
  readonly id: string;
  readonly actor: string;
  readonly action: string;
  readonly target: string;
  readonly merchantId: string | null;
  readonly details: Record<string, unknown>;
  /** Where the action came from, when the entry point knew it (the console always does). */
  readonly address: string | null;
  readonly createdAt: string;
}

export interface AuditQuery {
  readonly merchantId?: string;
  readonly action?: string;
  /** Exact actor, e.g. console:ops@example.com. */
  readonly actor?: string;
  readonly sinceMs?: number;
  readonly limit?: number;
  /** The id of the last entry of the previous page. */
  readonly cursor?: string;
}

export interface AuditPage {
  readonly items: AuditEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  readonly nextCursor: string | null;
}

/** Prefixes of every secret the service issues; finding one in details is a bug, never stored. */
const SECRET_MARKERS = ['whsec_', 'hsk_', 'PRIVATE KEY'];

export async function recordAudit(trx: Executor, record: AuditRecord): Promise<void> {
  const detailJson = JSON.stringify(record.details ?? {});
  if (SECRET_MARKERS.some((marker) => detailJson.includes(marker))) {
    throw new Error(`audit: the details of ${record.action} carry a secret`);
  }
  await trx
    .insertInto('audit_log')
    .values({
      id: newId(),
      actor: record.actor,
      action: record.action,
      target: record.target,
      merchant_id: record.merchantId ?? null,
      detail_json: detailJson,
      address: record.address !== undefined ? record.address : currentAuditAddress(),
      created_at_ms: BigInt(record.nowMs),
    })
    .execute();
}

/** An ISO-8601 time as epoch milliseconds, or VALIDATION_FAILED. */
export function parseSince(since: string): number {
  const ms = Date.parse(since);
  if (!/^\d{4}-\d{2}-\d{2}/.test(since) || Number.isNaN(ms)) throw validationError('since', 'must be an ISO-8601 time such as 2025-06-01T00:00:00Z');
  return ms;
}

/** Newest first. */
export async function listAudit(db: Executor, query: AuditQuery): Promise<AuditPage> {
  const limit = query.limit ?? AUDIT_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX) throw validationError('limit', `must be 1 to ${AUDIT_PAGE_MAX}`);
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .$if(query.merchantId !== undefined, (qb) => qb.where('merchant_id', '=', query.merchantId!))
    .$if(query.action !== undefined, (qb) => qb.where('action', '=', query.action!))
    .$if(query.actor !== undefined, (qb) => qb.where('actor', '=', query.actor!))
    .$if(query.sinceMs !== undefined, (qb) => qb.where('created_at_ms', '>=', BigInt(query.sinceMs!)))
    .$if(query.cursor !== undefined, (qb) => qb.where('id', '<', query.cursor!))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      actor: r.actor,
      action: r.action,
      target: r.target,
      merchantId: r.merchant_id,
      details: JSON.parse(r.detail_json) as Record<string, unknown>,
      address: r.address,
      createdAt: isoFromMs(r.created_at_ms),
    })),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}
