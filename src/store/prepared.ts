// Named prepared statements on PostgreSQL. A text marked here runs as a named statement on every
// pooled connection (store/db.ts), so each connection parses and plans it once instead of on every
// call; the ledger's several-CTE statements and every compiled hot query (store/hot-query.ts) are
// marked. Texts are fixed or compiled from a bounded set of shapes, never built from values.
const preparedNames = new Map<string, string>();

/** Marks an SQL text to run as a named prepared statement on PostgreSQL. Returns the text. */
export function preparedOnPostgres(text: string): string {
  if (!preparedNames.has(text)) preparedNames.set(text, `paygate_${preparedNames.size + 1}`);
  return text;
}

/** The statement name of a marked text, or undefined. */
export function preparedName(text: string): string | undefined {
  return preparedNames.get(text);
}
