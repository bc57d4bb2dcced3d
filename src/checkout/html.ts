// The checkout's HTML building is the shared one (core/html.ts), so checkout and console escape alike.
export { escapeHtml, html, SafeHtml, trustedSvg, type HtmlValue } from '../core/html.js';
