import { ListDefinition } from '../listing/list-query';
import { WebhookEndpoint } from './webhook.entities';

/** `GET /v10/webhook-endpoints`. */
export const webhookEndpointListDefinition: ListDefinition<WebhookEndpoint> = {
  resource: 'webhook_endpoints',
  fields: {
    id: { type: 'integer', get: (e) => e.id },
    url: { type: 'string', get: (e) => e.url },
    enabled: { type: 'boolean', get: (e) => e.enabled },
    created_at: { type: 'datetime', get: (e) => e.createdAt },
    updated_at: { type: 'datetime', get: (e) => e.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'url', 'enabled', 'created_at', 'updated_at'],
  includes: [],
};
