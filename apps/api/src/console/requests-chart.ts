import escapeHtml from 'escape-html';
import { HourOfRequests, STATUS_CLASSES, StatusClass } from '@brand/core';

/** Each status class's colour in the chart and its legend (distinct also in greyscale, darkest for failures). */
export const STATUS_CLASS_COLOURS: Readonly<Record<StatusClass, string>> = {
  '2xx': '#86c5a4',
  '3xx': '#9fb7e0',
  '4xx': '#e0a148',
  '5xx': '#a42a2a',
};

const WIDTH = 720;
const HEIGHT = 160;
const AXIS = 28;
const BAR_GAP = 2;

const hourLabel = (hour: string): string => `${hour.slice(11, 13)}:00`;

/**
 * One app's requests per hour as stacked bars (2xx at the bottom, 5xx on top), an inline SVG the
 * server renders: no script, no client framework, and the page's CSP allows it as it is. It is an
 * image with a title and a description for assistive technology; every bar carries its figures in
 * a `<title>` (shown on hover), and the page gives the same figures as a table beside it.
 */
export function requestsChart(input: { id: string; appName: string; hours: HourOfRequests[] }): string {
  const { hours } = input;
  const totals = hours.map((hour) => STATUS_CLASSES.reduce((sum, c) => sum + hour.counts[c], 0));
  const peak = Math.max(1, ...totals);
  const plotHeight = HEIGHT - AXIS;
  const slot = (WIDTH - AXIS) / hours.length;
  const bars = hours
    .map((hour, i) => {
      const x = AXIS + i * slot + BAR_GAP / 2;
      let top = plotHeight;
      const segments = STATUS_CLASSES.filter((c) => hour.counts[c] > 0).map((c) => {
        const height = (hour.counts[c] / peak) * (plotHeight - 8);
        top -= height;
        return `<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${(slot - BAR_GAP).toFixed(1)}" height="${height.toFixed(1)}" fill="${STATUS_CLASS_COLOURS[c]}" data-class="${c}"></rect>`;
      });
      const figures = STATUS_CLASSES.map((c) => `${c}: ${hour.counts[c]}`).join(', ');
      return `<g data-hour="${escapeHtml(hour.hour)}"><title>${hourLabel(hour.hour)} UTC: ${totals[i]} requests (${figures})</title>${segments.join('')}</g>`;
    })
    .join('');
  // Hour labels every 3 hours keep the axis readable at this width.
  const labels = hours
    .map((hour, i) =>
      i % 3 === 0
        ? `<text x="${(AXIS + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle">${hourLabel(hour.hour)}</text>`
        : '',
    )
    .join('');
  const total = totals.reduce((sum, n) => sum + n, 0);
  const titleId = `${input.id}-title`;
  const descId = `${input.id}-desc`;
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" font-size="11" fill="#5b6270">
<title id="${titleId}">Requests of ${escapeHtml(input.appName)} per hour, last 24 hours</title>
<desc id="${descId}">${total} requests in all; the busiest hour had ${Math.max(0, ...totals)}. Stacked by status class: 2xx, 3xx, 4xx, 5xx from the bottom. The table below gives every hour's figures.</desc>
<text x="${AXIS - 4}" y="12" text-anchor="end">${peak}</text><text x="${AXIS - 4}" y="${plotHeight}" text-anchor="end">0</text>
<line x1="${AXIS}" y1="${plotHeight + 0.5}" x2="${WIDTH}" y2="${plotHeight + 0.5}" stroke="#c9ccd3"></line>
${bars}${labels}</svg>`;
}

/** The chart's legend: each class's colour and name. */
export function chartLegend(): string {
  return `<p class="legend" aria-hidden="true">${STATUS_CLASSES.map(
    (c) =>
      `<span><svg width="10" height="10"><rect width="10" height="10" fill="${STATUS_CLASS_COLOURS[c]}"></rect></svg> ${c}</span>`,
  ).join(' ')}</p>`;
}
