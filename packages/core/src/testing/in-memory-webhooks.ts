import { listInMemory } from '../listing/in-memory-list';
import { WebhookEndpoint } from '../webhooks/webhook.entities';
import { webhookEndpointListDefinition } from '../webhooks/webhook.list-definitions';
import { WebhookRepositories } from '../webhooks/webhook.ports';
import { InMemoryFactories } from './in-memory-factories';

/**
 * Webhook endpoints in memory, with the semantics every adapter must match (the webhooks contract
 * suite checks them): endpoints read back exactly as saved, by id; another brand's are never
 * found, listed, replaced or deleted.
 */
export interface WebhooksState {
  webhookEndpoints: WebhookEndpoint[];
}

export function emptyWebhooksState(): WebhooksState {
  return { webhookEndpoints: [] };
}

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
      return s().webhookEndpoints.length < before;
    },
  }),
};
