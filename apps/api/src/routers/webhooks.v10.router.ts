import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  webhookDeliveryListDefinition,
  webhookEndpointListDefinition,
} from '@brand/core';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from '../dtos/webhook-endpoint.dto';
import { pathId } from '../http/path-id';
import { Surface } from '../http/route';
import { listOf, wrapped } from '../http/wire-schema';
import { listRequest, listResponse } from '../listing/list-request';
import {
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  presentWebhookDelivery,
  presentWebhookEndpoint,
  presentWebhookEndpointWithSecret,
} from '../presenters/webhook-endpoint.presenter';
import { RouterDeps } from './router-deps';

/** Webhook endpoints (DESIGN §10): where a brand's events are pushed, and their signing secrets. */
export function webhooksV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-webhooks', 'current', ['/v10'])
    .route({
      method: 'post',
      path: '/v10/webhook-endpoints',
      summary: 'Create a webhook endpoint',
      description:
        'Answers the endpoint with its signing secret, which no later read shows: keep it. Deliveries are signed ' +
        'as Standard Webhooks describes (webhook-id, webhook-timestamp, webhook-signature).',
      tag: 'Webhooks',
      scopes: ['webhooks:write'],
      body: CreateWebhookEndpointDto,
      status: 201,
      response: {
        description: 'The new endpoint with its secret',
        schema: wrapped('webhook_endpoint', WebhookEndpointWithSecretSchema),
      },
      handler: async ({ principal, body }) => {
        const { endpoint, secret } = await createWebhookEndpoint(deps, {
          brandId: principal.brandId,
          url: body.url,
          events: body.events,
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        });
        return { webhook_endpoint: presentWebhookEndpointWithSecret(endpoint, secret) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/webhook-endpoints',
      summary: 'List webhook endpoints',
      tag: 'Webhooks',
      scopes: ['webhooks:read'],
      list: webhookEndpointListDefinition,
      status: 200,
      response: {
        description: 'A page of webhook endpoints',
        schema: listOf('webhook_endpoints', WebhookEndpointSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listWebhookEndpoints(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse(
          'webhook_endpoints',
          result,
          webhookEndpointListDefinition,
          deps.cursors,
          presentWebhookEndpoint,
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/webhook-endpoints/:id',
      summary: 'Get a webhook endpoint',
      tag: 'Webhooks',
      scopes: ['webhooks:read'],
      status: 200,
      response: {
        description: 'The endpoint (without its secret)',
        schema: wrapped('webhook_endpoint', WebhookEndpointSchema),
      },
      handler: async ({ principal, params }) => ({
        webhook_endpoint: presentWebhookEndpoint(
          await getWebhookEndpoint(deps, { brandId: principal.brandId, id: pathId(params['id'], 'webhook endpoint') }),
        ),
      }),
    })
    .route({
      method: 'patch',
      path: '/v10/webhook-endpoints/:id',
      summary: 'Change a webhook endpoint',
      description: 'Fields not sent keep their value; the secret stays (rotate it with rotate-secret).',
      tag: 'Webhooks',
      scopes: ['webhooks:write'],
      body: UpdateWebhookEndpointDto,
      status: 200,
      response: {
        description: 'The endpoint after the change',
        schema: wrapped('webhook_endpoint', WebhookEndpointSchema),
      },
      handler: async ({ principal, params, body }) => ({
        webhook_endpoint: presentWebhookEndpoint(
          await updateWebhookEndpoint(deps, {
            brandId: principal.brandId,
            id: pathId(params['id'], 'webhook endpoint'),
            changes: {
              ...(body.url !== undefined ? { url: body.url } : {}),
              ...(body.events !== undefined ? { events: body.events } : {}),
              ...(body.description !== undefined ? { description: body.description } : {}),
              ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
            },
          }),
        ),
      }),
    })
    .route({
      method: 'delete',
      path: '/v10/webhook-endpoints/:id',
      summary: 'Delete a webhook endpoint',
      tag: 'Webhooks',
      scopes: ['webhooks:write'],
      status: 204,
      response: { description: 'Deleted' },
      handler: async ({ principal, params }) => {
        await deleteWebhookEndpoint(deps, { brandId: principal.brandId, id: pathId(params['id'], 'webhook endpoint') });
      },
    })
    .route({
      method: 'post',
      path: '/v10/webhook-endpoints/:id/rotate-secret',
      summary: "Rotate a webhook endpoint's secret",
      description:
        'Answers the new secret, shown this once. For 24 hours deliveries carry signatures with both the new and the ' +
        'old secret, so the receiver can switch without refusing one.',
      tag: 'Webhooks',
      scopes: ['webhooks:write'],
      optionalBody: true,
      status: 200,
      response: {
        description: 'The endpoint with its new secret',
        schema: wrapped('webhook_endpoint', WebhookEndpointWithSecretSchema),
      },
      handler: async ({ principal, params }) => {
        const { endpoint, secret } = await rotateWebhookSecret(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'webhook endpoint'),
        });
        return { webhook_endpoint: presentWebhookEndpointWithSecret(endpoint, secret) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/webhook-endpoints/:id/deliveries',
      summary: "List a webhook endpoint's deliveries",
      description: 'Oldest first; filters event_type, status, created_at, updated_at.',
      tag: 'Webhooks',
      scopes: ['webhooks:read'],
      list: webhookDeliveryListDefinition,
      status: 200,
      response: { description: 'A page of deliveries', schema: listOf('webhook_deliveries', WebhookDeliverySchema) },
      handler: async ({ principal, params, req }) => {
        const endpointId = pathId(params['id'], 'webhook endpoint');
        const result = await listWebhookDeliveries(deps, {
          ...(await listRequest(req, principal.brandId, deps.cursors)),
          endpointId,
        });
        return listResponse(
          'webhook_deliveries',
          result,
          webhookDeliveryListDefinition,
          deps.cursors,
          presentWebhookDelivery,
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/webhook-endpoints/:id/deliveries/:deliveryId/retry',
      summary: 'Retry a webhook delivery',
      description:
        'Queues the delivery again, due at once, with the same webhook-id; a failed delivery gets one more attempt ' +
        '(and the rest of the schedule only if that fails too).',
      tag: 'Webhooks',
      scopes: ['webhooks:write'],
      optionalBody: true,
      status: 202,
      response: { description: 'The delivery, queued', schema: wrapped('webhook_delivery', WebhookDeliverySchema) },
      handler: async ({ principal, params }) => ({
        webhook_delivery: presentWebhookDelivery(
          await retryWebhookDelivery(deps, {
            brandId: principal.brandId,
            endpointId: pathId(params['id'], 'webhook endpoint'),
            deliveryId: pathId(params['deliveryId'], 'webhook delivery'),
          }),
        ),
      }),
    });
}
