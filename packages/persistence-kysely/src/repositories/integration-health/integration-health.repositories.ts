import { DeliveryStatus, DocumentType, IntegrationHealthRepositories, IntegrationHealthRepository } from '@brand/core';
import { sql } from 'kysely';
import { Executor, RepositoryFactories } from '../executor';
import { exportScopeSql } from '../documents/document-sql';

/** The table of each document type the page follows. */
const DOCUMENT_TABLES: Partial<Record<DocumentType, string>> = {
  order: 'orders',
  shipment: 'shipments',
  invoice: 'invoices',
  credit_note: 'credit_notes',
  accounting_entry: 'accounting_entries',
  production_order: 'production_orders',
};

/** A mark made at any time hides a document: the backlog is what the system has never taken. */
const EVERY_MARK = '9999-12-31T23:59:59.999Z';

/**
 * The integration health page's reads (see the port for the indexes each one walks; the plan
 * test in integration-health-plans.test.ts holds them to it on both dialects). Counts come back
 * as numbers on both dialects: Postgres's bigint is parsed as a number (connection.ts).
 */
export function integrationHealthRepository({ db, dialect }: Executor): IntegrationHealthRepository {
  return {
    async requestCounts(brandId, since) {
      const { rows } = await sql<{ app_id: number; hour: string; status_class: number; requests: number }>`
        select app_id, substr(created_at, 1, 13) as hour, status / 100 as status_class, count(*) as requests
        from request_logs
        where brand_id = ${brandId} and created_at >= ${since}
        group by app_id, substr(created_at, 1, 13), status / 100`.execute(db);
      return rows.map((row) => ({
        appId: Number(row.app_id),
        hour: row.hour,
        statusClass: Number(row.status_class),
        requests: Number(row.requests),
      }));
    },
    async routeTimings(brandId, since) {
      const { rows } = await sql<{
        app_id: number;
        method: string;
        route: string | null;
        requests: number;
        max_duration_ms: number;
        total_duration_ms: number;
      }>`
        select app_id, method, route, count(*) as requests, max(duration_ms) as max_duration_ms,
          sum(duration_ms) as total_duration_ms
        from request_logs
        where brand_id = ${brandId} and created_at >= ${since}
        group by app_id, method, route`.execute(db);
      return rows.map((row) => ({
        appId: Number(row.app_id),
        method: row.method,
        route: row.route,
        requests: Number(row.requests),
        maxDurationMs: Number(row.max_duration_ms),
        totalDurationMs: Number(row.total_duration_ms),
      }));
    },
    async exportingSystems(brandId) {
      // A loose index scan of (brand_id, document_type, system_id): one seek per distinct pair,
      // however many marks each pair has, where a DISTINCT would read every mark of the brand.
      const pairs: { documentType: DocumentType; systemId: string }[] = [];
      for (;;) {
        const last = pairs[pairs.length - 1];
        const after = last ? sql`and (document_type, system_id) > (${last.documentType}, ${last.systemId})` : sql``;
        const { rows } = await sql<{ document_type: string; system_id: string }>`
          select document_type, system_id from document_exports
          where brand_id = ${brandId} ${after}
          order by document_type, system_id
          limit 1`.execute(db);
        const row = rows[0];
        if (!row) return pairs;
        pairs.push({ documentType: row.document_type as DocumentType, systemId: row.system_id });
      }
    },
    async exportBacklog(brandId, scope, systemId, limit) {
      const table = DOCUMENT_TABLES[scope.documentType];
      if (table === undefined) return { notExported: 0, oldestCreatedAt: null };
      const waiting = exportScopeSql(dialect, table, scope.documentType, brandId, {
        systemId,
        notExportedSince: EVERY_MARK,
        ...(scope.statuses === null ? {} : { statuses: scope.statuses }),
      });
      if (waiting === null) return { notExported: 0, oldestCreatedAt: null };
      const from = sql`from ${sql.table(table)} where ${sql.ref(`${table}.brand_id`)} = ${brandId} and ${waiting}`;
      // Counting stops after `limit`: the page says "more than" instead of reading them all.
      const counted = await sql<{ waiting: number }>`
        select count(*) as waiting from (select 1 as one ${from} limit ${limit}) as counted`.execute(db);
      const oldest = await sql<{ created_at: string }>`
        select created_at ${from} order by ${sql.ref(`${table}.id`)} limit 1`.execute(db);
      return {
        notExported: Number(counted.rows[0]?.waiting ?? 0),
        oldestCreatedAt: oldest.rows[0]?.created_at ?? null,
      };
    },
    async deliveryCounts(brandId, since) {
      const { rows } = await sql<{ endpoint_id: number; status: string; deliveries: number }>`
        select endpoint_id, status, count(*) as deliveries
        from webhook_deliveries
        where brand_id = ${brandId} and created_at >= ${since}
        group by endpoint_id, status`.execute(db);
      return rows.map((row) => ({
        endpointId: Number(row.endpoint_id),
        status: row.status as DeliveryStatus,
        deliveries: Number(row.deliveries),
      }));
    },
    async pendingDeliveries(brandId) {
      const { rows } = await sql<{ endpoint_id: number; pending: number; oldest_created_at: string }>`
        select endpoint_id, count(*) as pending, min(created_at) as oldest_created_at
        from webhook_deliveries
        where brand_id = ${brandId} and status = 'pending'
        group by endpoint_id`.execute(db);
      return rows.map((row) => ({
        endpointId: Number(row.endpoint_id),
        pending: Number(row.pending),
        oldestCreatedAt: row.oldest_created_at,
      }));
    },
  };
}

/** The integration health module's repositories, as the unit of work makes them. */
export const integrationHealthRepositoryFactories: RepositoryFactories<IntegrationHealthRepositories> = {
  integrationHealth: (executor) => integrationHealthRepository(executor),
};
