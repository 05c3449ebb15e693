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
  created_at: string;
  updated_at: string;
}

declare module '../database' {
  interface Database {
    webhook_endpoints: WebhookEndpointsTable;
  }
}
