import { ListQuery, ListRows } from '../listing/list-query';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entities';

/** A brand's webhook endpoints. */
export interface WebhookEndpointRepository {
  /** Inserts or replaces the endpoint (by brand and id). */
  save(endpoint: WebhookEndpoint): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<WebhookEndpoint[]>;
  /** A page of the brand's endpoints, keys of `webhookEndpointListDefinition`. */
  list(brandId: number, query: ListQuery): Promise<ListRows<WebhookEndpoint>>;
  /** Deletes the endpoint (and its deliveries); false when the brand has no such endpoint. */
  delete(brandId: number, id: number): Promise<boolean>;
  /** The brand's enabled endpoints, by id: those an event may be delivered to. */
  findEnabled(brandId: number): Promise<WebhookEndpoint[]>;
}

/** A claim on due deliveries: who holds it, until when. */
export interface DeliveryLease {
  owner: string;
  /** After this instant the claim lapses and another dispatcher may take the delivery. */
  until: string;
}

/**
 * Deliveries of events to endpoints. Claims are leases, so that several dispatchers (in several
 * processes) share the due deliveries and never hold one delivery at once; a dispatcher that
 * dies leaves its claims to lapse.
 */
export interface WebhookDeliveryRepository {
  insert(deliveries: WebhookDelivery[]): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<WebhookDelivery[]>;
  /** A page of an endpoint's deliveries, keys of `webhookDeliveryListDefinition`. */
  listForEndpoint(brandId: number, endpointId: number, query: ListQuery): Promise<ListRows<WebhookDelivery>>;
  /**
   * Claims up to `limit` pending deliveries due at `now` that nobody holds (or whose claim lapsed),
   * of every brand, the longest due first; answers their ids by brand. Runs in a transaction (the
   * rows are picked, then taken).
   */
  claimDue(now: string, lease: DeliveryLease, limit: number): Promise<{ brandId: number; id: number }[]>;
  /** Stores an attempt's outcome if `owner` still holds the claim, and releases it; false when the claim was lost. */
  recordAttempt(delivery: WebhookDelivery, owner: string): Promise<boolean>;
  /** Releases the owner's claims without an attempt (a dispatcher stopping). */
  release(owner: string): Promise<void>;
  /** Replaces a delivery (a manual retry). */
  save(delivery: WebhookDelivery): Promise<void>;
  /** Deletes at most `limit` deliveries of any brand made before `before` (they go with their events); answers how many. */
  deleteCreatedBefore(before: string, limit: number): Promise<number>;
}

/** The webhooks module's repositories; the declaration below adds them to `Repositories`. */
export interface WebhookRepositories {
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends WebhookRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The webhooks module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    webhook_endpoints: true;
    webhook_deliveries: true;
  }
}
