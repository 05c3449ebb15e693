import escapeHtml from 'escape-html';
import {
  AppTraffic,
  ExportBacklogType,
  ExportSystemHealth,
  IntegrationHealth,
  STATUS_CLASSES,
  User,
  WebhookEndpointHealth,
} from '@brand/core';
import { consolePage, consoleTime } from './console-layout';
import { requestLogHref } from './request-log.pages';
import { chartLegend, requestsChart } from './requests-chart';

/** The integration health page's path. */
export const INTEGRATION_HEALTH_PATH = '/console/health';

const DOCUMENT_LABELS: Readonly<Record<ExportBacklogType, string>> = {
  order: 'Orders (approved)',
  shipment: 'Shipments (open)',
  invoice: 'Invoices (booked)',
  credit_note: 'Credit notes (booked)',
  accounting_entry: 'Accounting entries',
  production_order: 'Production orders (open)',
};

const percent = (rate: number | null): string => (rate === null ? '–' : `${(rate * 100).toFixed(1)} %`);
const instantOrDash = (iso: string | null): string => (iso === null ? '–' : consoleTime(iso));

function appSection(app: AppTraffic): string {
  const id = `app-${app.appId}`;
  const summary = app.requests
    ? `${app.requests} requests, ${app.errors} refused or failed (4xx and 5xx): <strong data-testid="error-rate">${percent(app.errorRate)}</strong>. <a href="${escapeHtml(requestLogHref({ status: 'errors', appId: app.appId }))}">See its failed requests</a>`
    : 'No requests in the last 24 hours.';
  const hourRows = app.hours
    .map(
      (hour) =>
        `<tr><td>${consoleTime(hour.hour)}</td>${STATUS_CLASSES.map((c) => `<td>${hour.counts[c]}</td>`).join('')}</tr>`,
    )
    .join('');
  const routes = app.slowestRoutes.length
    ? `<table class="dense" aria-label="Slowest routes of ${escapeHtml(app.appName)}"><thead><tr><th>Method</th><th>Route</th><th>Requests</th><th>Longest (ms)</th><th>Mean (ms)</th></tr></thead><tbody>${app.slowestRoutes
        .map(
          (route) =>
            `<tr><td>${escapeHtml(route.method)}</td><td class="wrap path"><code>${route.route === null ? '(recorded before routes were)' : escapeHtml(route.route)}</code></td><td>${route.requests}</td><td>${route.maxDurationMs}</td><td>${route.meanDurationMs}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  return `<section class="app" aria-labelledby="${id}-name" data-app-id="${app.appId}"><h3 id="${id}-name">${escapeHtml(app.appName)}</h3>
<p>${summary}</p>${
    app.requests
      ? `${requestsChart({ id, appName: app.appName, hours: app.hours })}${chartLegend()}
<details><summary>Requests per hour as a table</summary><table class="dense"><thead><tr><th>Hour (UTC)</th>${STATUS_CLASSES.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>${hourRows}</tbody></table></details>
<h4>Slowest routes</h4>${routes}`
      : ''
  }</section>`;
}

function exportSection(system: ExportSystemHealth): string {
  const rows = system.backlog
    .map(
      (entry) =>
        `<tr data-document-type="${entry.documentType}"><td>${DOCUMENT_LABELS[entry.documentType]}</td><td>${entry.moreThanCounted ? `more than ${entry.notExported}` : entry.notExported}</td><td>${instantOrDash(entry.oldestCreatedAt)}</td></tr>`,
    )
    .join('');
  return `<table class="dense" data-system-id="${escapeHtml(system.systemId)}" aria-label="Not yet exported to ${escapeHtml(system.systemId)}"><caption><code>${escapeHtml(system.systemId)}</code></caption><thead><tr><th>Documents</th><th>Not yet exported</th><th>Oldest of them made</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function webhookRow(endpoint: WebhookEndpointHealth): string {
  const failing = endpoint.failingSince ? ` <strong>failing since ${consoleTime(endpoint.failingSince)}</strong>` : '';
  return `<tr data-endpoint-id="${endpoint.endpointId}"><td class="wrap"><a href="/console/webhooks/${endpoint.endpointId}">${escapeHtml(endpoint.url)}</a>${endpoint.enabled ? '' : ' (disabled)'}${failing}</td><td>${endpoint.succeeded}</td><td>${endpoint.failed}</td><td>${percent(endpoint.successRate)}</td><td>${endpoint.pending}</td><td>${instantOrDash(endpoint.oldestPendingAt)}</td></tr>`;
}

/**
 * The integration health page (DESIGN §17): per API app its requests of the last 24 hours by
 * hour and status class (a chart with its table), its share of refused and failed requests and
 * its slowest routes; per exporting system what it has not exported yet; per webhook endpoint how
 * its deliveries went and what waits.
 */
export function integrationHealthPage(input: { user: User; csrfToken: string; health: IntegrationHealth }): string {
  const { health } = input;
  const apps = health.apps.length ? health.apps.map(appSection).join('') : '<p class="muted">No API apps yet.</p>';
  const exports = health.exportSystems.length
    ? health.exportSystems.map(exportSection).join('')
    : '<p class="muted">No system has marked a document exported yet.</p>';
  const webhooks = health.webhookEndpoints.length
    ? `<table class="dense"><thead><tr><th>Endpoint</th><th>Succeeded</th><th>Failed</th><th>Success rate</th><th>Pending</th><th>Oldest pending made</th></tr></thead><tbody>${health.webhookEndpoints.map(webhookRow).join('')}</tbody></table>`
    : '<p class="muted">No webhook endpoints.</p>';
  return consolePage(
    { title: 'Integration health', user: input.user, csrfToken: input.csrfToken, section: INTEGRATION_HEALTH_PATH },
    `<h1>Integration health</h1>
<p class="muted">Since ${consoleTime(health.since)} (the current hour and the 23 before it), as of ${consoleTime(health.at)}.</p>
<h2>API apps</h2>${apps}
<h2>Exports</h2><p class="muted">Per system that marks your documents exported (its <code>system_id</code>), for each kind of document it has exported before: what its export would hand it now, and when the oldest of those was made.</p>${exports}
<h2>Webhook endpoints</h2><p class="muted">Deliveries made in the same period, by outcome (pending ones have not ended yet); pending and oldest pending count every waiting delivery.</p>${webhooks}`,
  );
}
