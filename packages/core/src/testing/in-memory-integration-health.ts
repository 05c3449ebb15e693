import { DocumentType } from '../documents/document.entities';
import {
  IntegrationHealthRepositories,
  RequestCountRow,
  RouteTimingRow,
} from '../integration-health/integration-health.ports';
import { DeliveryStatus } from '../webhooks/webhook.entities';
import { IdentityState } from './in-memory-identity';
import { InMemoryFactories } from './in-memory-factories';
import { OrdersState } from './in-memory-orders';
import { ProductionState } from './in-memory-production';
import { WebhooksState } from './in-memory-webhooks';

type HealthState = IdentityState & OrdersState & ProductionState & WebhooksState;

/** The documents of a type, as the SQL adapters read them from the type's table. */
function documentsOf(
  state: HealthState,
  type: DocumentType,
): readonly { id: number; brandId: number; status?: string; createdAt: string }[] {
  switch (type) {
    case 'order':
      return state.orders;
    case 'shipment':
      return state.shipments;
    case 'invoice':
      return state.invoices;
    case 'credit_note':
      return state.creditNotes;
    case 'accounting_entry':
      return state.accountingEntries;
    case 'production_order':
      return state.productionOrders;
    default:
      return [];
  }
}

/** Code-point order, as the SQL adapters compare the stored text. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Groups `rows` by `keyOf` and folds each group with `add`, starting from `start(row)`. */
function groupBy<T, G>(
  rows: readonly T[],
  keyOf: (row: T) => string,
  start: (row: T) => G,
  add: (group: G, row: T) => void,
): G[] {
  const groups = new Map<string, G>();
  for (const row of rows) {
    const key = keyOf(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = start(row)));
    add(group, row);
  }
  return [...groups.values()];
}

/** The integration health page's reads over the in-memory state. */
export const inMemoryIntegrationHealthFactories: InMemoryFactories<IntegrationHealthRepositories, HealthState> = {
  integrationHealth: (s) => ({
    async requestCounts(brandId, since) {
      const recent = s().requestLogs.filter((e) => e.brandId === brandId && e.createdAt >= since);
      return groupBy(
        recent,
        (e) => `${e.appId}|${e.createdAt.slice(0, 13)}|${Math.floor(e.status / 100)}`,
        (e): RequestCountRow => ({
          appId: e.appId,
          hour: e.createdAt.slice(0, 13),
          statusClass: Math.floor(e.status / 100),
          requests: 0,
        }),
        (group) => void (group.requests += 1),
      );
    },
    async routeTimings(brandId, since) {
      const recent = s().requestLogs.filter((e) => e.brandId === brandId && e.createdAt >= since);
      return groupBy(
        recent,
        (e) => JSON.stringify([e.appId, e.method, e.route]),
        (e): RouteTimingRow => ({
          appId: e.appId,
          method: e.method,
          route: e.route,
          requests: 0,
          maxDurationMs: 0,
          totalDurationMs: 0,
        }),
        (group, e) => {
          group.requests += 1;
          group.maxDurationMs = Math.max(group.maxDurationMs, e.durationMs);
          group.totalDurationMs += e.durationMs;
        },
      );
    },
    async exportingSystems(brandId) {
      const pairs = new Map<string, { documentType: DocumentType; systemId: string }>();
      for (const mark of s().exportMarks)
        if (mark.brandId === brandId)
          pairs.set(JSON.stringify([mark.documentType, mark.systemId]), {
            documentType: mark.documentType,
            systemId: mark.systemId,
          });
      return [...pairs.values()].sort(
        (a, b) => compareText(a.documentType, b.documentType) || compareText(a.systemId, b.systemId),
      );
    },
    async exportBacklog(brandId, scope, systemId, limit) {
      const marked = new Set(
        s()
          .exportMarks.filter(
            (m) => m.brandId === brandId && m.documentType === scope.documentType && m.systemId === systemId,
          )
          .map((m) => m.documentId),
      );
      const waiting = documentsOf(s(), scope.documentType)
        .filter(
          (d) =>
            d.brandId === brandId &&
            (scope.statuses === null || (d.status !== undefined && scope.statuses.includes(d.status))) &&
            !marked.has(d.id),
        )
        .sort((a, b) => a.id - b.id);
      return { notExported: Math.min(waiting.length, limit), oldestCreatedAt: waiting[0]?.createdAt ?? null };
    },
    async deliveryCounts(brandId, since) {
      return groupBy(
        s().webhookDeliveries.filter((d) => d.brandId === brandId && d.createdAt >= since),
        (d) => `${d.endpointId}|${d.status}`,
        (d): { endpointId: number; status: DeliveryStatus; deliveries: number } => ({
          endpointId: d.endpointId,
          status: d.status,
          deliveries: 0,
        }),
        (group) => void (group.deliveries += 1),
      );
    },
    async pendingDeliveries(brandId) {
      return groupBy(
        s().webhookDeliveries.filter((d) => d.brandId === brandId && d.status === 'pending'),
        (d) => String(d.endpointId),
        (d) => ({ endpointId: d.endpointId, pending: 0, oldestCreatedAt: d.createdAt }),
        (group, d) => {
          group.pending += 1;
          if (d.createdAt < group.oldestCreatedAt) group.oldestCreatedAt = d.createdAt;
        },
      );
    },
  }),
};
