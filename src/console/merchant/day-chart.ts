// A column chart of one value per day (the home page's volume of the last 30 days) as inline SVG:
// geometry in attributes, colours from console.css classes (the CSP allows no inline style). Heights
// are computed in bigint so large amounts lose nothing; the text alternative lists every day.
import { html, type SafeHtml } from '../../core/html.js';

export interface DayValue {
  /** YYYY-MM-DD (UTC). */
  readonly day: string;
  readonly value: bigint;
  readonly text: string;
}

const WIDTH_PX = 460;
const HEIGHT_PX = 170;
const TOP_PX = 8;
const AXIS_PX = 22;
const LEFT_PX = 4;

export function dayChart(title: string, days: readonly DayValue[], summary: string): SafeHtml {
  const max = days.reduce((m, d) => (d.value > m ? d.value : m), 0n);
  const plot = HEIGHT_PX - TOP_PX - AXIS_PX;
  const slot = (WIDTH_PX - LEFT_PX * 2) / Math.max(1, days.length);
  const description = days.filter((d) => d.value > 0n).map((d) => `${d.day}: ${d.text}`).join('; ') || 'no volume';
  return html`<figure class="chart day-chart">
  <figcaption>${title} <span class="chart-total">${summary}</span></figcaption>
  <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH_PX} ${HEIGHT_PX}" role="img" aria-label="${`${title}: ${summary}. ${description}`}">
    <line class="chart-axis" x1="${LEFT_PX}" y1="${TOP_PX + plot}" x2="${WIDTH_PX - LEFT_PX}" y2="${TOP_PX + plot}"></line>
    ${days.map((d, index) => {
      const h = max === 0n ? 0 : Number((d.value * BigInt(plot)) / max);
      const height = d.value > 0n ? Math.max(h, 2) : 0;
      const x = LEFT_PX + index * slot;
      // A day label under every fifth column and the last, so they never overlap.
      const labelled = index % 5 === 0 || index === days.length - 1;
      // The end labels hang inwards, so the drawing's edges never cut them.
      const anchor = index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle';
      const labelX = index === 0 ? x : index === days.length - 1 ? x + slot : x + slot / 2;
      return html`<g class="col"><title>${`${d.day}: ${d.text}`}</title><rect x="${(x + 1).toFixed(1)}" y="${TOP_PX + plot - height}" width="${Math.max(slot - 2, 1).toFixed(1)}" height="${height}" rx="2"></rect>${labelled ? html`<text x="${labelX.toFixed(1)}" y="${HEIGHT_PX - 6}" text-anchor="${anchor}" class="day-label">${d.day.slice(5)}</text>` : ''}</g>`;
    })}
  </svg>
</figure>`;
}
