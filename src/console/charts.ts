// Charts as inline SVG drawn on the server: no script, nothing for the CSP to allow. Each bar carries
// its value as text, and the chart a text alternative, so it reads at a glance and without sight.
import { html, type SafeHtml } from '../core/html.js';

export interface Bar {
  readonly label: string;
  /** Non-negative; the longest bar is the largest value. */
  readonly value: bigint;
  /** How the value is written beside the bar (money in its currency, a count...). */
  readonly text: string;
  readonly tone?: 'ok' | 'bad' | 'warn' | 'info';
}

// A narrow drawing with large type: at phone width it is scaled down least, so its text stays legible.
const ROW_PX = 34;
const LABEL_PX = 132;
const WIDTH_PX = 440;
const BAR_PX = WIDTH_PX - LABEL_PX - 124;

/** A horizontal bar chart; widths are computed in bigint so large amounts lose nothing. */
export function barChart(title: string, bars: readonly Bar[]): SafeHtml {
  const max = bars.reduce((m, b) => (b.value > m ? b.value : m), 0n);
  const height = Math.max(1, bars.length) * ROW_PX + 8;
  const description = bars.map((b) => `${b.label}: ${b.text}`).join('; ');
  return html`<figure class="chart">
  <figcaption>${title}</figcaption>
  <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH_PX} ${height}" role="img" aria-label="${`${title}. ${description}`}">
    ${bars.map((bar, index) => {
      const width = max === 0n ? 0 : Number((bar.value * BigInt(BAR_PX)) / max);
      const y = index * ROW_PX + 4;
      return html`<g class="bar bar-${bar.tone ?? 'info'}"><text x="${LABEL_PX - 8}" y="${y + 21}" text-anchor="end" class="chart-label">${bar.label}</text><rect x="${LABEL_PX}" y="${y + 5}" width="${Math.max(width, bar.value > 0n ? 2 : 0)}" height="${ROW_PX - 12}" rx="3"></rect><text x="${LABEL_PX + Math.max(width, 0) + 6}" y="${y + 21}" class="chart-value">${bar.text}</text></g>`;
    })}
  </svg>
</figure>`;
}
