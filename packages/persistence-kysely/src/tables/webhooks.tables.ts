/**
 * Webhook endpoints. `events` is a JSON array of event types (or `["*"]`); the secrets are kept
 * as they are, since every delivery signs with them. Keyed by (brand_id, id) (DESIGN §9).
 */
export interface WebhookEndpointsTable {
  brand_id: number;
  id: number;
  url: string;
  events: string;
  description: string | null;
  enabled: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** Deliveries of events to endpoints, with the claim of the dispatcher sending one (lease_owner until lease_until). */
export interface WebhookDeliveriesTable {
  brand_id: number;
  id: number;
  endpoint_id: number;
  event_id: number;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../database' {
  interface Database {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
  }
}
