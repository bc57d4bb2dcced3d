// The created-at range every report call takes: `from` inclusive, `to` exclusive, ISO-8601 strings
// (a bare date is midnight UTC). Days are UTC days throughout reporting.
import { validationError } from '../core/errors.js';

export const MS_PER_DAY = 86_400_000;

/** Accepted spellings: 2026-11-22, 2026-11-22T10:00Z, 2026-11-22T10:00:00.123+05:30. */
export const ISO_INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$';
const ISO_INSTANT = new RegExp(ISO_INSTANT_PATTERN);

export interface RangeInput {
  readonly from?: string;
  readonly to?: string;
}

/** Milliseconds since the epoch; either end may be open. */
export interface TimeRange {
  readonly fromMs: number | null;
  readonly toMs: number | null;
}

function instantMs(field: string, text: string): number {
  const ms = ISO_INSTANT.test(text) ? Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) : NaN;
  if (!Number.isFinite(ms)) throw validationError(field, 'must be an ISO-8601 date or UTC date-time');
  return ms;
}

/** VALIDATION_FAILED for an unreadable end or a range whose `to` is not after its `from`. */
export function parseRange(input: RangeInput): TimeRange {
  const fromMs = input.from === undefined ? null : instantMs('from', input.from);
  const toMs = input.to === undefined ? null : instantMs('to', input.to);
  if (fromMs !== null && toMs !== null && toMs <= fromMs) throw validationError('to', 'must be after from');
  return { fromMs, toMs };
}

export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
