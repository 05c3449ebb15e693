import { DomainEvent } from '../events/event.entities';

/** What an endpoint subscribes to instead of a list of types: every event. */
export const ALL_EVENTS = '*';

/** Days of nothing but failed attempts after which an endpoint is disabled (DESIGN §10). */
export const FAILING_DAYS_BEFORE_DISABLE = 5;

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
  /**
   * When its deliveries started failing without a success since; null while the last attempt
   * succeeded. Failures only, for `FAILING_DAYS_BEFORE_DISABLE` days, disable the endpoint.
   */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An endpoint as it answers a create or a rotation: the only answers that show the secret. */
export interface WebhookEndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** Where a delivery stands: waiting for its (next) attempt, delivered, or given up. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** One of `DELIVERY_STATUSES`. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event on its way to one endpoint. Every attempt POSTs the same event with the same
 * `webhook-id` (the event's id), so the receiver can tell a retry from a new event.
 */
export interface WebhookDelivery {
  id: number;
  brandId: number;
  endpointId: number;
  eventId: number;
  eventType: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** The HTTP status of the last attempt; null before the first or when no answer came. */
  lastStatusCode: number | null;
  /** Why the last attempt failed, shortly; null after a success or before the first attempt. */
  lastError: string | null;
  /** When the next attempt is due; null once succeeded or failed. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a dispatcher claimed: the delivery with the event and endpoint it needs to send it. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  event: DomainEvent;
  endpoint: WebhookEndpoint;
}
