// CSV as RFC 4180 has it (comma, CRLF, fields with a quote, comma or line break quoted, quotes doubled),
// with a guard against formula injection: a text cell a spreadsheet would run as a formula (starting
// with = + - @, tab or CR) is prefixed with a single quote. Amounts are exact decimal strings from bigint.
import { formatMinor, type Minor } from '../core/money.js';

export type Cell = { readonly text: string | null } | { readonly amount: Minor } | { readonly plain: string };

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export const text = (value: string | null | undefined): Cell => ({ text: value ?? null });
export const amount = (value: Minor): Cell => ({ amount: value });
/** Values the service itself produced (ids, ISO times, enum names): never formulas, never guarded. */
export const plain = (value: string): Cell => ({ plain: value });

function render(cell: Cell): string {
  if ('amount' in cell) return formatMinor(cell.amount);
  if ('plain' in cell) return quote(cell.plain);
  if (cell.text === null) return '';
  return quote(FORMULA_START.test(cell.text) ? `'${cell.text}` : cell.text);
}

const quote = (value: string): string => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export const csvLine = (cells: readonly Cell[]): string => `${cells.map(render).join(',')}\r\n`;

export const headerLine = (names: readonly string[]): string => csvLine(names.map(plain));
