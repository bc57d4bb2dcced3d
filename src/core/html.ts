// HTML building for the server-rendered pages (the checkout and the console): every interpolated value is
// escaped unless it is already a SafeHtml fragment built by this module, so merchant-, payer- or
// attacker-supplied text can never become markup. One helper for both, so there is one rule to review.

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Escapes text for element content and for quoted attribute values alike. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"'`=]/g, (char) => ESCAPES[char]!);
}

/** Markup that was produced by `html` (or vetted by `trustedSvg`); the only thing inserted unescaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value as string | number);
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; nested `html` fragments pass through. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(out);
}

/** Only an SVG of plain path elements (what the QR encoder emits) is accepted as raw markup. */
const PLAIN_SVG = /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[\d .]+"(?: shape-rendering="crispEdges")?>(?:<path (?:fill|stroke)="#[0-9a-fA-F]{6}" d="[MmHhVvZz\d .-]+"\/>)+<\/svg>\s*$/;

export function trustedSvg(svg: string): SafeHtml {
  if (!PLAIN_SVG.test(svg)) throw new Error('refusing SVG that is not a plain path drawing');
  return new SafeHtml(svg);
}
