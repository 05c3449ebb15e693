import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { BlobStore, ImageFetcher } from './image-storage.ports';
import { ProductReadRepositories } from './catalog-relations';
import { ProductSyncRepositories } from './product-sync-apply';
import { ProductSyncItem, VariantSyncItem } from './product-sync.input';

/**
 * What the single product and variant writes of `/v10` share. Each is the product sync run over a
 * one-item request (`applyProductSyncItems`), so validation, uniqueness, merging, stock and events
 * are the sync's; what they take is a sync item without what is not a field of the resource: no
 * `delete` (deleting is not an update). A new variant takes the sync variant's `inventory`, its
 * opening stock, booked and announced as the sync books it; a change takes none (stock of an
 * existing variant moves through the sync, orders, shipments and receipts, through the ledger).
 */

/** A variant as `POST /v10/products` and `POST /v10/products/{id}/variants` take it: a sync variant without `delete`. */
export type NewVariantInput = Omit<VariantSyncItem, 'delete'>;

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
 * The sync variant of a new variant: its fields and opening stock. The type already leaves
 * `delete` out; it is dropped here too, so that a caller in plain JavaScript cannot reach the
 * sync's deletes through a create.
 */
export function syncVariantOf(variant: NewVariantInput & { sku: string }): VariantSyncItem {
  const { delete: _delete, ...fields } = variant as VariantSyncItem;
  return fields;
}

/**
 * The sync variant of a variant's changes, under its SKU: `delete` and `inventory` are dropped
 * (see `syncVariantOf`), so that a change moves no stock.
 */
export function syncVariantChangesOf(changes: VariantChanges, sku: string): VariantSyncItem {
  const { inventory: _inventory, ...fields } = syncVariantOf({ ...changes, sku });
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
