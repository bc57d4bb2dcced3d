// Row objects made by code compiled for a statement's column names (SQLite's raw rows in store/db.ts,
// PostgreSQL's packed rows in store/packed-rows.ts).

export type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A function making one row object from a row's values, compiled for the column names: an object
 * literal, so every row shares one hidden class. A name that an object literal cannot carry as an own
 * property (`__proto__`) falls back to Object.fromEntries. When names repeat, the last column wins, as
 * in better-sqlite3's own rows.
 */
export function rowBuilder(names: readonly string[]): RowBuilder {
  if (names.includes('__proto__')) return (values) => Object.fromEntries(names.map((name, i) => [name, values[i]]));
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as RowBuilder;
}
