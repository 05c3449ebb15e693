import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import {
  AppTraffic,
  EXPORT_BACKLOG_COUNT_CAP,
  EXPORT_BACKLOG_TYPES,
  ExportBacklogType,
  ExportSystemHealth,
  HourOfRequests,
  IntegrationHealth,
  RouteTiming,
  SLOWEST_ROUTES_SHOWN,
  STATUS_CLASSES,
  StatusClass,
  TRAFFIC_HOURS,
  WebhookEndpointHealth,
} from './integration-health.entities';
import { ExportBacklogScope, RequestCountRow, RouteTimingRow } from './integration-health.ports';

const HOUR_MS = 3_600_000;

/**
 * The statuses each document's export hands a system when it asks without flags (the base list of
 * `exportOrders`, `exportShipments`, `exportInvoices`, `exportCreditNotes`,
 * `exportProductionOrders`; accounting entries have no status): what "not yet exported" means for
 * an integration that exports as documented.
 */
const EXPORTED_STATUSES: Readonly<Record<ExportBacklogType, readonly string[] | null>> = {
  order: ['approved'],
  shipment: ['open'],
  invoice: ['booked'],
  credit_note: ['booked'],
  accounting_entry: null,
  production_order: ['open'],
};

const isBacklogType = (type: string): type is ExportBacklogType =>
  (EXPORT_BACKLOG_TYPES as readonly string[]).includes(type);

/** The start of the hour holding `instant`, as an ISO-8601 UTC instant. */
const hourOf = (ms: number): string => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();

const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

function trafficOf(
  app: { id: number; name: string },
  hourStarts: string[],
  counts: RequestCountRow[],
  timings: RouteTimingRow[],
): AppTraffic {
  const byHour = new Map<string, HourOfRequests>(
    hourStarts.map((hour) => [hour, { hour, counts: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 } }]),
  );
  let requests = 0;
  let errors = 0;
  for (const row of counts) {
    requests += row.requests;
    if (row.statusClass >= 4) errors += row.requests;
    const statusClass = `${row.statusClass}xx` as StatusClass;
    const hour = byHour.get(`${row.hour}:00:00.000Z`);
    // 1xx answers are not given by the API; a class outside the chart's still counts in the totals.
    if (hour && STATUS_CLASSES.includes(statusClass)) hour.counts[statusClass] += row.requests;
  }
  const slowestRoutes = timings
    .map(
      (row): RouteTiming => ({
        method: row.method,
        route: row.route,
        requests: row.requests,
        maxDurationMs: row.maxDurationMs,
        meanDurationMs: Math.round(row.totalDurationMs / row.requests),
      }),
    )
    .sort((a, b) => b.maxDurationMs - a.maxDurationMs || b.requests - a.requests)
    .slice(0, SLOWEST_ROUTES_SHOWN);
  return {
    appId: app.id,
    appName: app.name,
    hours: [...byHour.values()],
    requests,
    errors,
    errorRate: rate(errors, requests),
    slowestRoutes,
  };
}

/**
 * The console's integration health page of a brand (DESIGN §17), read at one instant:
 * - every API app of the brand with its requests of the current hour and the 23 before it, by hour
 *   and status class, its share of refused and failed requests, and its slowest routes (by the
 *   longest request; requests recorded before the log kept routes group as one unnamed route);
 * - every system that has marked documents of the brand exported (its `system_id`), with, for each
 *   document type it has marked at least once, how many documents its export would hand it now
 *   and the oldest of them (a type the system never exported is not its job, so not its backlog);
 * - every webhook endpoint that is enabled or had deliveries, with the share of its deliveries of
 *   the period that succeeded, and its waiting deliveries and the oldest of them.
 * Another brand's requests, marks and deliveries are never read.
 * @example const health = await getIntegrationHealth({ uow, clock }, { brandId: user.brandId });
 */
export async function getIntegrationHealth(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'integrationHealth' | 'apiApps' | 'webhookEndpoints'>>;
    clock: Clock;
  },
  input: { brandId: number },
): Promise<IntegrationHealth> {
  const at = deps.clock.now();
  const nowMs = Date.parse(at);
  const hourStarts = Array.from({ length: TRAFFIC_HOURS }, (_, i) => hourOf(nowMs - (TRAFFIC_HOURS - 1 - i) * HOUR_MS));
  const since = hourStarts[0]!;
  const { brandId } = input;
  return deps.uow.read(async (r) => {
    const health = r.integrationHealth;
    const apps = await r.apiApps.listForBrand(brandId);
    const counts = await health.requestCounts(brandId, since);
    const timings = await health.routeTimings(brandId, since);
    const appsShown = new Map(apps.map((app) => [app.id, { id: app.id, name: app.name }]));
    // An app's requests are shown even if the app is gone from the brand's list.
    for (const row of counts)
      if (!appsShown.has(row.appId)) appsShown.set(row.appId, { id: row.appId, name: `app ${row.appId}` });
    const trafficOfApps = [...appsShown.values()].map((app) =>
      trafficOf(
        app,
        hourStarts,
        counts.filter((row) => row.appId === app.id),
        timings.filter((row) => row.appId === app.id),
      ),
    );

    const systems = new Map<string, ExportSystemHealth>();
    for (const { documentType, systemId } of await health.exportingSystems(brandId)) {
      if (!isBacklogType(documentType)) continue;
      const scope: ExportBacklogScope = { documentType, statuses: EXPORTED_STATUSES[documentType] };
      const found = await health.exportBacklog(brandId, scope, systemId, EXPORT_BACKLOG_COUNT_CAP + 1);
      const system = systems.get(systemId) ?? { systemId, backlog: [] };
      system.backlog.push({
        documentType,
        notExported: Math.min(found.notExported, EXPORT_BACKLOG_COUNT_CAP),
        moreThanCounted: found.notExported > EXPORT_BACKLOG_COUNT_CAP,
        oldestCreatedAt: found.oldestCreatedAt,
      });
      systems.set(systemId, system);
    }
    const exportSystems = [...systems.values()].sort((a, b) => (a.systemId < b.systemId ? -1 : 1));
    const typeOrder = (type: ExportBacklogType) => EXPORT_BACKLOG_TYPES.indexOf(type);
    for (const system of exportSystems)
      system.backlog.sort((a, b) => typeOrder(a.documentType) - typeOrder(b.documentType));

    const deliveries = await health.deliveryCounts(brandId, since);
    const pending = await health.pendingDeliveries(brandId);
    const endpointIds = new Set([...deliveries.map((row) => row.endpointId), ...pending.map((row) => row.endpointId)]);
    const enabled = await r.webhookEndpoints.findEnabled(brandId);
    const others = await r.webhookEndpoints.findByIds(
      brandId,
      [...endpointIds].filter((id) => !enabled.some((endpoint) => endpoint.id === id)),
    );
    const webhookEndpoints = [...enabled, ...others]
      .sort((a, b) => a.id - b.id)
      .map((endpoint): WebhookEndpointHealth => {
        const count = (status: string) =>
          deliveries
            .filter((row) => row.endpointId === endpoint.id && row.status === status)
            .reduce((sum, row) => sum + row.deliveries, 0);
        const succeeded = count('succeeded');
        const failed = count('failed');
        const waiting = pending.find((row) => row.endpointId === endpoint.id);
        return {
          endpointId: endpoint.id,
          url: endpoint.url,
          enabled: endpoint.enabled,
          failingSince: endpoint.failingSince,
          succeeded,
          failed,
          successRate: rate(succeeded, succeeded + failed),
          pending: waiting?.pending ?? 0,
          oldestPendingAt: waiting?.oldestCreatedAt ?? null,
        };
      });

    return { at, since, apps: trafficOfApps, exportSystems, webhookEndpoints };
  });
}
