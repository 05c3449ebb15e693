import { listInMemory } from '../listing/in-memory-list';
import { WebhookDelivery, WebhookEndpoint } from '../webhooks/webhook.entities';
import { webhookDeliveryListDefinition, webhookEndpointListDefinition } from '../webhooks/webhook.list-definitions';
import { WebhookRepositories } from '../webhooks/webhook.ports';
import { InMemoryFactories } from './in-memory-factories';
import { refuseCrossBrandReference } from './in-memory-references';
import { removeUpTo } from './in-memory-removal';

/**
 * Webhook endpoints in memory, with the semantics every adapter must match (the webhooks contract
 * suite checks them): endpoints read back exactly as saved, by id; another brand's are never
 * found, listed, replaced or deleted.
 */
export interface WebhooksState {
  webhookEndpoints: WebhookEndpoint[];
  /** Deliveries with their claim (who holds it, until when). */
  webhookDeliveries: (WebhookDelivery & { leaseOwner: string | null; leaseUntil: string | null })[];
}

export function emptyWebhooksState(): WebhooksState {
  return { webhookEndpoints: [], webhookDeliveries: [] };
}

const withoutLease = ({
  leaseOwner: _owner,
  leaseUntil: _until,
  ...delivery
}: WebhooksState['webhookDeliveries'][number]) => delivery;

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export const inMemoryWebhookFactories: InMemoryFactories<WebhookRepositories, WebhooksState> = {
  webhookEndpoints: (s) => ({
    async save(endpoint) {
      const at = s().webhookEndpoints.findIndex((e) => e.id === endpoint.id);
      if (at >= 0 && s().webhookEndpoints[at]!.brandId !== endpoint.brandId)
        throw new Error(`webhook endpoint ${endpoint.id} belongs to another brand`);
      if (at >= 0) s().webhookEndpoints[at] = clone(endpoint);
      else s().webhookEndpoints.push(clone(endpoint));
    },
    async findByIds(brandId, ids) {
      const wanted = new Set(ids);
      return clone(
        s()
          .webhookEndpoints.filter((e) => e.brandId === brandId && wanted.has(e.id))
          .sort((a, b) => a.id - b.id),
      );
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        webhookEndpointListDefinition,
        query,
        s().webhookEndpoints.filter((e) => e.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
    async delete(brandId, id) {
      const before = s().webhookEndpoints.length;
      s().webhookEndpoints = s().webhookEndpoints.filter((e) => !(e.brandId === brandId && e.id === id));
      s().webhookDeliveries = s().webhookDeliveries.filter((d) => !(d.brandId === brandId && d.endpointId === id));
      return s().webhookEndpoints.length < before;
    },
    async findEnabled(brandId) {
      return clone(
        s()
          .webhookEndpoints.filter((e) => e.brandId === brandId && e.enabled)
          .sort((a, b) => a.id - b.id),
      );
    },
  }),
  webhookDeliveries: (s) => ({
    async insert(deliveries) {
      for (const d of deliveries) {
        refuseCrossBrandReference('webhook endpoint', d.brandId, d.endpointId, s().webhookEndpoints);
        if (s().webhookDeliveries.some((x) => x.id === d.id))
          throw new Error(`webhook delivery ${d.id} exists already`);
        s().webhookDeliveries.push({ ...clone(d), leaseOwner: null, leaseUntil: null });
      }
    },
    async findByIds(brandId, ids) {
      const wanted = new Set(ids);
      return clone(
        s()
          .webhookDeliveries.filter((d) => d.brandId === brandId && wanted.has(d.id))
          .sort((a, b) => a.id - b.id)
          .map(withoutLease),
      );
    },
    async listForEndpoint(brandId, endpointId, query) {
      const { rows, total } = listInMemory(
        webhookDeliveryListDefinition,
        query,
        s()
          .webhookDeliveries.filter((d) => d.brandId === brandId && d.endpointId === endpointId)
          .map(withoutLease),
      );
      return { rows: clone(rows), total };
    },
    async claimDue(now, lease, limit) {
      const due = s()
        .webhookDeliveries.filter(
          (d) =>
            d.status === 'pending' &&
            d.nextAttemptAt !== null &&
            d.nextAttemptAt <= now &&
            (d.leaseUntil === null || d.leaseUntil < now),
        )
        .sort((a, b) =>
          a.nextAttemptAt! < b.nextAttemptAt! ? -1 : a.nextAttemptAt! > b.nextAttemptAt! ? 1 : a.id - b.id,
        )
        .slice(0, limit);
      for (const d of due) Object.assign(d, { leaseOwner: lease.owner, leaseUntil: lease.until });
      return due.map((d) => ({ brandId: d.brandId, id: d.id }));
    },
    async recordAttempt(delivery, owner) {
      const stored = s().webhookDeliveries.find((d) => d.brandId === delivery.brandId && d.id === delivery.id);
      if (!stored || stored.leaseOwner !== owner) return false;
      Object.assign(stored, clone(delivery), { leaseOwner: null, leaseUntil: null });
      return true;
    },
    async release(owner) {
      for (const d of s().webhookDeliveries)
        if (d.leaseOwner === owner) Object.assign(d, { leaseOwner: null, leaseUntil: null });
    },
    async deleteCreatedBefore(before, limit) {
      return removeUpTo(s().webhookDeliveries, (d) => d.createdAt < before, limit).length;
    },
    async save(delivery) {
      const stored = s().webhookDeliveries.find((d) => d.brandId === delivery.brandId && d.id === delivery.id);
      if (!stored) throw new Error(`webhook delivery ${delivery.id} does not exist`);
      Object.assign(stored, clone(delivery), { leaseOwner: null, leaseUntil: null });
    },
  }),
};
