import { ListQuery, ListRows } from '../listing/list-query';
import { WebhookEndpoint } from './webhook.entities';

/** A brand's webhook endpoints. */
export interface WebhookEndpointRepository {
  /** Inserts or replaces the endpoint (by brand and id). */
  save(endpoint: WebhookEndpoint): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<WebhookEndpoint[]>;
  /** A page of the brand's endpoints, keys of `webhookEndpointListDefinition`. */
  list(brandId: number, query: ListQuery): Promise<ListRows<WebhookEndpoint>>;
  /** Deletes the endpoint; false when the brand has no such endpoint. */
  delete(brandId: number, id: number): Promise<boolean>;
}

/** The webhooks module's repositories; the declaration below adds them to `Repositories`. */
export interface WebhookRepositories {
  webhookEndpoints: WebhookEndpointRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends WebhookRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The webhooks module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    webhook_endpoints: true;
  }
}
