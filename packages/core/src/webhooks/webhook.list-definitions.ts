import { ListDefinition } from '../listing/list-query';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entities';

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

/** `GET /v10/webhook-endpoints/{id}/deliveries`: oldest first, like the events they carry. */
export const webhookDeliveryListDefinition: ListDefinition<WebhookDelivery> = {
  resource: 'webhook_deliveries',
  fields: {
    id: { type: 'integer', get: (d) => d.id },
    event_type: { type: 'string', get: (d) => d.eventType },
    status: { type: 'string', get: (d) => d.status },
    created_at: { type: 'datetime', get: (d) => d.createdAt },
    updated_at: { type: 'datetime', get: (d) => d.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'event_type', 'status', 'created_at', 'updated_at'],
  includes: [],
};
