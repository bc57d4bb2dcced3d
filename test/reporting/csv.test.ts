// The CSV writer: RFC 4180 quoting, exact amounts from bigint, and formula injection disarmed in text
// the merchant or payer supplied (never in the service's own values, such as a negative amount).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amount, csvLine, plain, text } from '../../src/reporting/csv.js';
import { parseCsv } from './helpers.js';

describe('csvLine', () => {
  it('quotes what needs quoting and doubles quotes', () => {
    expect(csvLine([plain('a'), text('b,c'), text('say "hi"'), text('two\r\nlines'), text(null)])).toBe('a,"b,c","say ""hi""","two\r\nlines",\r\n');
  });

  it('prefixes text that a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(parseCsv(csvLine([text(`${start}SUM(A1)`)]))[0]).toEqual([`'${start}SUM(A1)`]);
    expect(csvLine([text('=1+1')])).toBe("'=1+1\r\n");
    expect(csvLine([text('Asha = Rao')])).toBe('Asha = Rao\r\n');
  });

  it('writes amounts exactly, negative ones unguarded', () => {
    expect(csvLine([amount(0n), amount(5n), amount(-12345n), amount(123456789012345678n)])).toBe('0.00,0.05,-123.45,1234567890123456.78\r\n');
  });

  it('round-trips any text through a CSV parser (formula guard aside)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (cells) => {
        const parsed = parseCsv(csvLine(cells.map(text)))[0]!;
        expect(parsed).toEqual(cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
      }),
    );
  });
});
