import { WebhookEndpoint } from '@brand/core';
import { Static, Type } from '@sinclair/typebox';
import { arrayOf, boolean, component, dateTime, integer, nullable, string } from '../http/wire-schema';

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
