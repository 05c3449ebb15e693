import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { BlobStore, ImageFetcher } from './image-storage.ports';
import { ProductReadRepositories } from './catalog-relations';
import { ProductSyncRepositories } from './product-sync-apply';
import { ProductSyncItem, VariantSyncItem } from './product-sync.input';

/**
 * What the single product and variant writes of `/v10` share. Each is the product sync run over a
 * one-item request (`applyProductSyncItems`), so validation, uniqueness, merging and events are
 * the sync's; what they take is a sync item without what is not a field of the resource: no
 * `delete` (deleting is not an update) and no `inventory` (stock moves through the sync, orders,
 * shipments and receipts, and is no field of a product or variant).
 */

/** A variant as `POST /v10/products` and `POST /v10/products/{id}/variants` take it: a sync variant without `delete` and `inventory`. */
export type NewVariantInput = Omit<VariantSyncItem, 'delete' | 'inventory'>;

/** A product as `POST /v10/products` takes it: a sync item without `delete`, its variants new ones. */
export type NewProductInput = Omit<ProductSyncItem, 'delete' | 'variants'> & { variants?: NewVariantInput[] };

/**
 * The product-level fields `PATCH /v10/products/{id}` changes (its variants have their own
 * resource). The item number is the product's key in the sync, so it may be sent only unchanged.
 */
export type ProductChanges = Omit<ProductSyncItem, 'delete' | 'variants' | 'itemNumber'> & { itemNumber?: string };

/** The fields `PATCH /v10/variants/{id}` changes. The SKU is the variant's key in the sync, so it may be sent only unchanged. */
export type VariantChanges = Omit<VariantSyncItem, 'delete' | 'inventory' | 'sku'> & { sku?: string };

/** What the single writes need: storage (the sync's repositories and the reads of the answer), time, and image downloads. */
export interface ProductWriteDeps {
  uow: UnitOfWork<ProductSyncRepositories & ProductReadRepositories>;
  clock: Clock;
  images: { fetcher: ImageFetcher; blobs: BlobStore };
}

/**
 * The sync variant of a single write's variant. The types already leave `delete` and
 * `inventory` out; they are dropped here too, so that a caller in plain JavaScript cannot reach
 * the sync's deletes or stock moves through a create or an update.
 */
export function syncVariantOf(variant: NewVariantInput & { sku: string }): VariantSyncItem {
  const { delete: _delete, inventory: _inventory, ...fields } = variant as VariantSyncItem;
  return fields;
}

/** The sync item of a single write's product fields, under the product's item number; `delete` and `variants` are dropped (see `syncVariantOf`). */
export function syncItemOf(fields: Omit<ProductChanges, 'itemNumber'>, itemNumber: string): ProductSyncItem {
  const { delete: _delete, variants: _variants, itemNumber: _itemNumber, ...rest } = fields as ProductSyncItem;
  return { ...rest, itemNumber };
}

/**
 * The record a write read by id is no longer the one its key names in the same transaction (a
 * concurrent write renamed or deleted it in between): nothing was written, and a retry sees the
 * record as it is now.
 */
export function changedConcurrently(what: string, id: number): DomainError {
  return new DomainError('concurrency_conflict', `${what} ${id} changed while it was being written; retry the request`);
}
