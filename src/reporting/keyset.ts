// Keyset paging newest first on (created_at_ms, id): a page starts strictly below the last row the
// previous page served, so rows inserted meanwhile (newer, above it) never shift, repeat or hide a row.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';

/** The position of a row in newest-first order: its creation time and its unique id as tie-break. */
export interface KeysetPosition {
  readonly createdAtMs: bigint;
  readonly id: string;
}

/** Rows strictly older than `position` in (created_at_ms DESC, id DESC) order. */
export function olderThan<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  createdColumn: string,
  idColumn: string,
  position: KeysetPosition,
): Expression<SqlBool> {
  const created = sql.ref(createdColumn);
  const id = sql.ref(idColumn);
  return eb.or([
    sql<SqlBool>`${created} < ${position.createdAtMs}`,
    eb.and([sql<SqlBool>`${created} = ${position.createdAtMs}`, sql<SqlBool>`${id} < ${position.id}`]),
  ]);
}

export const positionParts = (position: KeysetPosition): string[] => [position.createdAtMs.toString(), position.id];

/** The inverse of positionParts; a malformed part is the cursor's fault, so it is reported as such. */
export function positionOf(parts: readonly string[], invalid: () => Error): KeysetPosition {
  const [created, id] = parts;
  if (created === undefined || id === undefined || !/^\d{1,16}$/.test(created)) throw invalid();
  return { createdAtMs: BigInt(created), id };
}
