// The name check's comparison: the properties merchants rely on (symmetry; case, spacing,
// punctuation, honorifics and word order make no difference; a name matches itself) checked over
// generated names, and the documented examples.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAME_MATCH_THRESHOLD, HONORIFICS, nameMatchScore, namesMatch, nameWords, SCORE_SCALE } from '../../src/domain/payouts/name-match.js';

const LETTERS = [...'abcdefghijklmnopqrstuvwxyzéèäöüñçãõ'];
/** One name word of 1 to 10 letters, never an honorific. */
const word = fc
  .array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 10 })
  .map((letters) => letters.join(''))
  .filter((w) => !HONORIFICS.has(w.normalize('NFKD').replace(/\p{M}+/gu, '')));
const words = fc.array(word, { minLength: 1, maxLength: 5 });
const honorific = fc.constantFrom(...HONORIFICS);
const spaces = fc.constantFrom(' ', '  ', '\t', ' . ', ', ', ' - ');

/** A random capitalisation of each character. */
const recased = (text: string, flips: readonly boolean[]): string =>
  [...text].map((c, i) => (flips[i % Math.max(1, flips.length)] ? c.toUpperCase() : c.toLowerCase())).join('');

describe('name comparison properties', () => {
  it('is symmetric', () => {
    fc.assert(fc.property(words, words, (a, b) => nameMatchScore(a.join(' '), b.join(' ')) === nameMatchScore(b.join(' '), a.join(' '))));
  });

  it('scores a name against itself 1, and stays within 0..1', () => {
    fc.assert(
      fc.property(words, words, (a, b) => {
        expect(nameMatchScore(a.join(' '), a.join(' '))).toBe(SCORE_SCALE);
        const score = nameMatchScore(a.join(' '), b.join(' '));
        return score >= 0 && score <= SCORE_SCALE;
      }),
    );
  });

  it('ignores case', () => {
    fc.assert(
      fc.property(words, words, fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }), (a, b, flips) => {
        const name = a.join(' ');
        return nameMatchScore(recased(name, flips), b.join(' ')) === nameMatchScore(name, b.join(' '));
      }),
    );
  });

  it('ignores extra spaces and punctuation between words', () => {
    fc.assert(
      fc.property(words, words, fc.array(spaces, { minLength: 6, maxLength: 6 }), (a, b, gaps) => {
        const spaced = ' ' + a.map((w, i) => w + gaps[i]!).join('') + '  ';
        return nameMatchScore(spaced, b.join(' ')) === nameMatchScore(a.join(' '), b.join(' '));
      }),
    );
  });

  it('ignores honorifics, wherever they stand and however written', () => {
    fc.assert(
      fc.property(words, words, honorific, fc.nat(5), fc.boolean(), (a, b, title, at, dotted) => {
        const titled = [...a];
        titled.splice(at % (a.length + 1), 0, (dotted ? title.toUpperCase() + '.' : title));
        return nameMatchScore(titled.join(' '), b.join(' ')) === nameMatchScore(a.join(' '), b.join(' '));
      }),
    );
  });

  it('ignores word order', () => {
    fc.assert(
      fc.property(words, words, fc.array(fc.nat(), { minLength: 5, maxLength: 5 }), (a, b, keys) => {
        const shuffled = a.map((w, i) => ({ w, k: keys[i]! })).sort((x, y) => x.k - y.k).map((x) => x.w);
        return nameMatchScore(shuffled.join(' '), b.join(' ')) === nameMatchScore(a.join(' '), b.join(' '));
      }),
    );
  });

  it('ignores accents', () => {
    fc.assert(
      fc.property(words, (a) => {
        const plain = a.join(' ').normalize('NFKD').replace(/\p{M}+/gu, '');
        return nameMatchScore(a.join(' '), plain) === SCORE_SCALE;
      }),
    );
  });
});

describe('name comparison examples', () => {
  it.each([
    ['Asha Rao', 'ASHA RAO', 10_000],
    ['Asha Rao', 'RAO, ASHA', 10_000],
    ['Mrs. Asha Rao', 'asha  rao', 10_000],
    ['José Núñez', 'JOSE NUNEZ', 10_000],
    ["Conor O'Brien", 'CONOR OBRIEN', 10_000],
    ['Bapak Budi Santoso', 'BUDI SANTOSO', 10_000],
    ['Alhaji Musa Bello', 'Chief Musa Bello', 10_000],
    ['Shri Arjun Kumar', 'Smt Arjun Kumar', 10_000],
    ['A. Rao', 'ASHA RAO', 10_000],
    ['Asha K Rao', 'ASHA KUMARI RAO', 10_000],
    ['Asha Rao', 'ASHA KUMARI RAO', 8_000],
    ['Asha Rao', 'ASHA VERMA', 5_000],
    ['Wes Gibbons', 'Asha Rao', 0],
  ])('%s vs %s scores %d', (given, resolved, score) => {
    expect(nameMatchScore(given, resolved)).toBe(score);
  });

  it('matches at the default threshold 0.8 and refuses below it', () => {
    expect(DEFAULT_NAME_MATCH_THRESHOLD).toBe(8_000);
    expect(namesMatch('Asha Rao', 'ASHA KUMARI RAO')).toEqual({ score: 8_000, matched: true });
    expect(namesMatch('Asha Rao', 'ASHA VERMA')).toEqual({ score: 5_000, matched: false });
  });

  it('keeps a name made only of titles as it is', () => {
    expect(nameWords('Chief')).toEqual(['chief']);
    expect(nameWords('  Dr.  ')).toEqual(['dr']);
  });
});
