// The one rule for every string a request may carry: no control characters (C0, DEL, C1) and no
// unpaired UTF-16 surrogates. PostgreSQL cannot store NUL, and no field has a use for the others.
import { Type, type StringOptions, type TString } from '@sinclair/typebox';

// ajv compiles patterns with the `u` flag, so `\p{Cc}` is U+0000-001F and U+007F-009F, and `\p{Cs}`
// matches a surrogate only when it is unpaired (a pair is read as one astral code point).
export const PLAIN_TEXT_PATTERN = '^[^\\p{Cc}\\p{Cs}]*$';
/** The same rule, but tab, line feed and carriage return pass: for multi-line values such as PEM keys. */
export const MULTILINE_TEXT_PATTERN = '^(?:[\\t\\n\\r]|[^\\p{Cc}\\p{Cs}])*$';

const TEXT_PATTERNS: ReadonlySet<unknown> = new Set([PLAIN_TEXT_PATTERN, MULTILINE_TEXT_PATTERN]);

/** Whether a failed `pattern` check is this rule's (its problem then gets a plain description). */
export const isTextRule = (pattern: unknown): boolean => TEXT_PATTERNS.has(pattern);

export interface TextOptions extends StringOptions {
  readonly multiline?: boolean;
}

/**
 * A request string. A field with a pattern of its own keeps it, and the text rule joins it through
 * `allOf`, so each failure names the rule that failed.
 */
export function Text({ multiline = false, ...options }: TextOptions = {}): TString {
  const rule = multiline ? MULTILINE_TEXT_PATTERN : PLAIN_TEXT_PATTERN;
  if (options.pattern === undefined) return Type.String({ ...options, pattern: rule });
  return Type.String({ ...options, allOf: [{ pattern: rule }] });
}
