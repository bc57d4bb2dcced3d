// UTC calendar days as statements and daily jobs name them (YYYY-MM-DD), and CSV fields as files we
// write them: one definition for the simulated bank, the connectors and reconciliation.

export const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC midnight of a YYYY-MM-DD day; null when it is not a real calendar day. */
export function dayStartOf(day: string): number | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === day ? ms : null;
}

/** The UTC day (YYYY-MM-DD) an instant falls on. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A CSV field (RFC 4180): quoted only when it holds a comma, a quote or a line break. */
export const csvField = (value: string): string => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
