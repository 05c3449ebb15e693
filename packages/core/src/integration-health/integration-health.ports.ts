import { DocumentType } from '../documents/document.entities';
import { DeliveryStatus } from '../webhooks/webhook.entities';

/** Requests of one app in one hour with one status class. */
export interface RequestCountRow {
  appId: number;
  /** The hour's start as stored instants begin: `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  /** The status's first digit (2 for 2xx). */
  statusClass: number;
  requests: number;
}

/** One (app, method, route) of the request log over a period. */
export interface RouteTimingRow {
  appId: number;
  method: string;
  route: string | null;
  requests: number;
  maxDurationMs: number;
  totalDurationMs: number;
}

/** Which documents of a type an export hands out: these statuses (null: every document). */
export interface ExportBacklogScope {
  documentType: DocumentType;
  statuses: readonly string[] | null;
}

/** Deliveries of one endpoint with one status. */
export interface DeliveryCountRow {
  endpointId: number;
  status: DeliveryStatus;
  deliveries: number;
}

/**
 * The reads of the console's integration health page (DESIGN §17), every one scoped to a brand
 * and served from an index, since the request log, the marks and the deliveries grow with use:
 * the request log's `(brand_id, created_at, id)`, the marks' `(brand_id, document_type,
 * system_id, document_id)`, each document table's `(brand_id, status, id)` with the marks' key, and the
 * deliveries' `(brand_id, created_at)` and `(brand_id, status, next_attempt_at)`.
 */
export interface IntegrationHealthRepository {
  /**
   * The brand's requests that started at or after `since`, counted by app, hour and status class.
   * @example const rows = await tx.integrationHealth.requestCounts(brandId, '2026-03-01T09:00:00.000Z');
   */
  requestCounts(brandId: number, since: string): Promise<RequestCountRow[]>;
  /** The brand's requests that started at or after `since`, by app, method and route template. */
  routeTimings(brandId: number, since: string): Promise<RouteTimingRow[]>;
  /** Every (document type, system) with at least one mark of the brand, by type then system. */
  exportingSystems(brandId: number): Promise<{ documentType: DocumentType; systemId: string }[]>;
  /**
   * The brand's documents in `scope` that `systemId` has not marked: how many, counting at most
   * `limit`, and when the oldest (the lowest id: ids are drawn in creation order) was made.
   */
  exportBacklog(
    brandId: number,
    scope: ExportBacklogScope,
    systemId: string,
    limit: number,
  ): Promise<{ notExported: number; oldestCreatedAt: string | null }>;
  /** The brand's deliveries made at or after `since`, counted by endpoint and status. */
  deliveryCounts(brandId: number, since: string): Promise<DeliveryCountRow[]>;
  /** Per endpoint of the brand with pending deliveries: how many, and when the oldest was made. */
  pendingDeliveries(brandId: number): Promise<{ endpointId: number; pending: number; oldestCreatedAt: string }[]>;
}

/** The integration health module's repositories; the declaration below adds them to `Repositories`. */
export interface IntegrationHealthRepositories {
  integrationHealth: IntegrationHealthRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends IntegrationHealthRepositories {}
}
