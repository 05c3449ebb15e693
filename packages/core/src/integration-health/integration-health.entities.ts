/**
 * What the console's integration health page shows a brand (DESIGN §17): how each API app's
 * requests went over the last day, what each exporting system has not taken yet, and how each
 * webhook endpoint's deliveries go. Figures only: the page decides how to draw them.
 */

/** The classes of HTTP status the page counts, as the first digit of the status. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
/** One of `STATUS_CLASSES`. */
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** Hours the traffic covers: the current hour and the 23 before it. */
export const TRAFFIC_HOURS = 24;

/** Routes shown per app, slowest first. */
export const SLOWEST_ROUTES_SHOWN = 5;

/**
 * The most unexported documents counted per system and type: beyond it the page says "more than",
 * so a system that stopped exporting a year ago costs the page no more than one that stopped today.
 */
export const EXPORT_BACKLOG_COUNT_CAP = 10_000;

/** Requests of one hour (by the hour they started), by status class. */
export interface HourOfRequests {
  /** The hour's start, an ISO-8601 UTC instant (`2026-03-01T09:00:00.000Z`). */
  hour: string;
  counts: Record<StatusClass, number>;
}

/** One route of an app over the period: how often it was called and how long it took. */
export interface RouteTiming {
  method: string;
  /** The route's template; null for requests recorded before the log kept routes. */
  route: string | null;
  requests: number;
  maxDurationMs: number;
  meanDurationMs: number;
}

/** One API app's requests of the last `TRAFFIC_HOURS` hours. */
export interface AppTraffic {
  appId: number;
  appName: string;
  /** Oldest hour first, `TRAFFIC_HOURS` of them, hours without requests included. */
  hours: HourOfRequests[];
  requests: number;
  /** Requests refused or failed (4xx and 5xx), the console request log's `errors`. */
  errors: number;
  /** `errors / requests`, or null without requests. */
  errorRate: number | null;
  /** At most `SLOWEST_ROUTES_SHOWN`, by longest duration first. */
  slowestRoutes: RouteTiming[];
}

/** The documents types the page follows, in the order it shows them. */
export const EXPORT_BACKLOG_TYPES = [
  'order',
  'shipment',
  'invoice',
  'credit_note',
  'accounting_entry',
  'production_order',
] as const;
/** One of `EXPORT_BACKLOG_TYPES`. */
export type ExportBacklogType = (typeof EXPORT_BACKLOG_TYPES)[number];

/** What one system has not exported of one document type. */
export interface ExportBacklog {
  documentType: ExportBacklogType;
  /** Documents its export would hand the system now, up to `EXPORT_BACKLOG_COUNT_CAP`. */
  notExported: number;
  /** Whether there are more than `notExported` (the count stopped at the cap). */
  moreThanCounted: boolean;
  /** When the oldest of them was made; null when none waits. */
  oldestCreatedAt: string | null;
}

/** A system that marks the brand's documents exported (its `system_id`), with what it has not taken. */
export interface ExportSystemHealth {
  systemId: string;
  /** The types the system has marked at least one document of, in `EXPORT_BACKLOG_TYPES` order. */
  backlog: ExportBacklog[];
}

/** One webhook endpoint's deliveries. */
export interface WebhookEndpointHealth {
  endpointId: number;
  url: string;
  enabled: boolean;
  /** Since when its deliveries fail without a success (the endpoint's own record). */
  failingSince: string | null;
  /** Deliveries made in the last `TRAFFIC_HOURS` hours that ended, by how. */
  succeeded: number;
  failed: number;
  /** `succeeded / (succeeded + failed)`, or null when none ended. */
  successRate: number | null;
  /** Deliveries waiting for an attempt (made at any time). */
  pending: number;
  /** When the oldest waiting delivery was made; null when none waits. */
  oldestPendingAt: string | null;
}

/** The whole page. */
export interface IntegrationHealth {
  /** The instant the figures were read at. */
  at: string;
  /** Where the traffic's and deliveries' period starts: the start of the oldest hour shown. */
  since: string;
  apps: AppTraffic[];
  exportSystems: ExportSystemHealth[];
  webhookEndpoints: WebhookEndpointHealth[];
}
