// Helpers of the reporting tests: every page of a list walked with its cursors, and the brute-force
// filter the list filters are checked against.
import type { PaymentClient } from '../../sdk/src/index.js';

export interface ListAnswer<T> {
  readonly status: number;
  readonly message: string;
  readonly data: any;
}

/** Walks a list from its first page to its last; fails on any non-200 answer. */
export async function allPages<T>(
  client: PaymentClient,
  path: 'payment/list' | 'payout/list' | 'account/statement',
  body: Record<string, unknown>,
  limit = 100,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10_000; page += 1) {
    const answer: ListAnswer<T> = await client.request(path, { ...body, limit, ...(cursor === null ? {} : { cursor }) });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.message} ${JSON.stringify(answer.data)}`);
    items.push(...(answer.data.items as T[]));
    cursor = answer.data.nextCursor;
    if (cursor === null) return items;
  }
  throw new Error(`${path}: more pages than expected`);
}

export interface RecordLike {
  readonly transactionRef: string;
  readonly merchantRef: string;
  readonly status: string;
  readonly currency: string;
  readonly method: string;
  readonly createdAt: string;
}

/** The list filters written out independently of src/reporting: every filter given must match. */
export function bruteFilter<T extends RecordLike>(records: readonly T[], filters: Record<string, string | undefined>): T[] {
  return records.filter(
    (r) =>
      (filters.status === undefined || r.status === filters.status) &&
      (filters.currency === undefined || r.currency === filters.currency) &&
      (filters.method === undefined || r.method === filters.method) &&
      (filters.merchantRef === undefined || r.merchantRef === filters.merchantRef) &&
      (filters.transactionRef === undefined || r.transactionRef === filters.transactionRef) &&
      (filters.from === undefined || Date.parse(r.createdAt) >= Date.parse(filters.from)) &&
      (filters.to === undefined || Date.parse(r.createdAt) < Date.parse(filters.to)),
  );
}

/** Newest first, ties by transactionRef descending: the order every list answers in. */
export const newestFirst = <T extends RecordLike>(records: readonly T[]): T[] =>
  [...records].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.transactionRef < b.transactionRef ? 1 : -1));

/** Parses RFC 4180 CSV (CRLF rows, quoted fields with doubled quotes) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

/** A major-unit JSON number as the exact decimal string the CSV writes (2 decimals). */
export const decimal = (major: number): string => {
  const minor = BigInt(Math.round(major * 100));
  const abs = minor < 0n ? -minor : minor;
  return `${minor < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};
