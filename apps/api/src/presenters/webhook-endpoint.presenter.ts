import { DELIVERY_STATUSES, WebhookDelivery, WebhookEndpoint } from '@brand/core';
import { Static, Type } from '@sinclair/typebox';
import { arrayOf, boolean, component, dateTime, integer, nullable, oneOfValues, string } from '../http/wire-schema';
import { eventPublicId } from './event.presenter';

const endpointFields = {
  id: integer(),
  url: string(),
  events: arrayOf(string(), 'Event types it receives, or ["*"] for every type'),
  description: nullable(string()),
  enabled: boolean(),
  created_at: dateTime(),
  updated_at: dateTime(),
};

export const WebhookEndpointSchema = component('WebhookEndpoint', Type.Object(endpointFields));
export type WebhookEndpointWire = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = component(
  'WebhookEndpointWithSecret',
  Type.Object({
    ...endpointFields,
    secret: string(
      'whsec_ and the base64 of the signing key: shown in this answer only (on creation and rotation); keep it safe',
    ),
  }),
);
export type WebhookEndpointWithSecretWire = Static<typeof WebhookEndpointWithSecretSchema>;

/** An endpoint as reads show it: never its secrets. */
export function presentWebhookEndpoint(endpoint: WebhookEndpoint): WebhookEndpointWire {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

/** An endpoint with its new secret: the answers of a create and a rotation. */
export function presentWebhookEndpointWithSecret(
  endpoint: WebhookEndpoint,
  secret: string,
): WebhookEndpointWithSecretWire {
  return { ...presentWebhookEndpoint(endpoint), secret };
}

export const WebhookDeliverySchema = component(
  'WebhookDelivery',
  Type.Object({
    id: integer(),
    event_id: string('The event delivered (`evt_…`); every attempt carries it as webhook-id'),
    event_type: string(),
    status: oneOfValues(DELIVERY_STATUSES),
    attempts: integer('Attempts made so far'),
    last_status_code: nullable(integer(), {
      description: "The last attempt's HTTP status; null before the first or when no answer came",
    }),
    last_error: nullable(string(), { description: 'Why the last attempt failed, shortly' }),
    next_attempt_at: nullable(dateTime(), {
      description: 'When the next attempt is due; null once succeeded or failed',
    }),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type WebhookDeliveryWire = Static<typeof WebhookDeliverySchema>;

export function presentWebhookDelivery(delivery: WebhookDelivery): WebhookDeliveryWire {
  return {
    id: delivery.id,
    event_id: eventPublicId(delivery.eventId),
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.nextAttemptAt,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
  };
}
