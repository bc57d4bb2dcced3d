// Keyset paging newest first on (created_at_ms, id): a page starts strictly below the last row the
// previous page served, so rows inserted meanwhile (newer, above it) never shift, repeat or hide a row.
import { sql, type Expression, type SqlBool } from 'kysely';

/** The position of a row in newest-first order: its creation time and its unique id as tie-break. */
export interface KeysetPosition {
  readonly createdAtMs: bigint;
  readonly id: string;
}

/**
 * Rows strictly older than `position` in (created_at_ms DESC, id DESC) order, as one row-value
 * comparison: both stores then seek the index to the position instead of filtering every newer row.
 */
export function olderThan(createdColumn: string, idColumn: string, position: KeysetPosition): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(createdColumn)}, ${sql.ref(idColumn)}) < (${position.createdAtMs}, ${position.id})`;
}

/**
 * Rows at `position` or newer: the older edge of a window of a scan (reporting/lists.ts). The plain
 * bound on the time comes first: SQLite seeks the index on one row-value bound only, and with both
 * ends as row values it read from the window's newer end to the merchant's oldest row every time.
 */
export function notOlderThan(createdColumn: string, idColumn: string, position: KeysetPosition): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(createdColumn)} >= ${position.createdAtMs} AND (${sql.ref(createdColumn)}, ${sql.ref(idColumn)}) >= (${position.createdAtMs}, ${position.id})`;
}

export const positionParts = (position: KeysetPosition): string[] => [position.createdAtMs.toString(), position.id];

/** The inverse of positionParts; a malformed part is the cursor's fault, so it is reported as such. */
export function positionOf(parts: readonly string[], invalid: () => Error): KeysetPosition {
  const [created, id] = parts;
  if (created === undefined || id === undefined || !/^\d{1,16}$/.test(created)) throw invalid();
  return { createdAtMs: BigInt(created), id };
}
