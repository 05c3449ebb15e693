/** What an endpoint subscribes to instead of a list of types: every event. */
export const ALL_EVENTS = '*';

/** How long a rotated secret keeps signing beside the new one (DESIGN §10). */
export const ROTATED_SECRET_VALID_HOURS = 24;

/**
 * Where a brand wants its events pushed (DESIGN §10). Deliveries are signed with `secret`; after a
 * rotation the previous secret signs beside it until `previousSecretExpiresAt`, so a receiver can
 * switch without missing a delivery.
 */
export interface WebhookEndpoint {
  id: number;
  brandId: number;
  /** An absolute http(s) URL; deliveries POST the event to it. */
  url: string;
  /** The event types it receives, or `['*']` for every type. */
  events: string[];
  description: string | null;
  /** A disabled endpoint keeps its settings and receives nothing. */
  enabled: boolean;
  /** `whsec_` and the base64 of 32 random bytes: shown when made or rotated, never listed. */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An endpoint as it answers a create or a rotation: the only answers that show the secret. */
export interface WebhookEndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}
