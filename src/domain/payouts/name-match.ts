// The name check of payout/initiate (`nameCheck: true`): does the name the merchant typed belong to
// the holder the bank resolved? Banks answer names in their own style (upper case, surname first,
// titles, no accents), so both names are first reduced to comparable words, then scored by how many
// words they share. docs/payouts.md ("Name check") describes the same rules for merchants.
//
// The score is an integer in ten-thousandths (0..10000) so that it is exact, symmetric and stored
// as it was computed; the API shows it divided by 10000 (0.8 is 8000).

/** Ten-thousandths: the unit of scores and thresholds. */
export const SCORE_SCALE = 10_000;
/** Names that share at least this share of their words match (0.8: e.g. 4 words of 5). */
export const DEFAULT_NAME_MATCH_THRESHOLD = 8_000;

/**
 * Titles and honorifics a bank or a merchant may put before a name: never part of the identity.
 * Lower case, without accents or dots (the form normalised words have).
 */
export const HONORIFICS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'madam',
  'bapak',
  'ibu',
  'alhaji',
  'alhaja',
  'hajia',
  'chief',
  'shri',
  'shrimati',
  'smt',
  'engr',
]);

/** Apostrophes vanish inside a word (O'Brien = OBrien); every other non-letter, non-digit separates words. */
const APOSTROPHES = /['\u2019\u02bc`]/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/**
 * A name as the words compared: accents removed (NFKD, then the combining marks dropped), lower case,
 * punctuation and runs of spaces as one separator, honorifics left out (unless the name is nothing
 * else). The order is kept here; the comparison ignores it.
 */
export function nameWords(name: string): string[] {
  const plain = name.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().replace(APOSTROPHES, '');
  const words = plain.split(SEPARATORS).filter((word) => word !== '');
  const meaningful = words.filter((word) => !HONORIFICS.has(word));
  return meaningful.length > 0 ? meaningful : words;
}

/**
 * How well two names agree, 0..SCORE_SCALE: twice the words they share over the words of both
 * (Dice's coefficient on the words as multisets, so word order never matters and the score is the
 * same whichever name comes first). An initial ("A" or "A.") shares with an unmatched word of the
 * other name that starts with that letter. Identical words are paired first, then initials.
 */
export function nameMatchScore(a: string, b: string): number {
  const left = nameWords(a);
  const right = nameWords(b);
  const total = left.length + right.length;
  if (total === 0) return 0;
  const leftRest = counts(left);
  const rightRest = counts(right);
  let shared = 0;
  for (const [word, count] of leftRest) {
    const both = Math.min(count, rightRest.get(word) ?? 0);
    if (both === 0) continue;
    shared += both;
    leftRest.set(word, count - both);
    rightRest.set(word, (rightRest.get(word) ?? 0) - both);
  }
  // Initials of one side only ever pair with whole words of the other, so the two directions never
  // compete for a word and the result does not depend on which name is `a`.
  shared += initialsPaired(leftRest, rightRest) + initialsPaired(rightRest, leftRest);
  return Math.floor((2 * shared * SCORE_SCALE) / total);
}

/** Does `given` name the holder `resolved`, at `threshold` (ten-thousandths)? */
export function namesMatch(given: string, resolved: string, threshold = DEFAULT_NAME_MATCH_THRESHOLD): { readonly score: number; readonly matched: boolean } {
  const score = nameMatchScore(given, resolved);
  return { score, matched: score >= threshold };
}

function counts(words: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const word of words) map.set(word, (map.get(word) ?? 0) + 1);
  return map;
}

/** Pairs the one-letter words left in `initials` with the longer words left in `words` that start with that letter. */
function initialsPaired(initials: Map<string, number>, words: Map<string, number>): number {
  const byLetter = new Map<string, number>();
  for (const [word, count] of words) {
    if (count === 0 || [...word].length < 2) continue;
    const letter = [...word][0]!;
    byLetter.set(letter, (byLetter.get(letter) ?? 0) + count);
  }
  let paired = 0;
  for (const [word, count] of initials) {
    if (count === 0 || [...word].length !== 1) continue;
    paired += Math.min(count, byLetter.get(word) ?? 0);
  }
  return paired;
}
