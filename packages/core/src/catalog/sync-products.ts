import { Clock } from '../shared/clock.ports';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { BlobStore, ImageFetcher } from './image-storage.ports';
import { ProductSyncRepositories, applyProductSyncItems } from './product-sync-apply';
import { fetchSyncImages } from './product-sync-images';
import { ProductSyncViolations } from './product-sync-rules';
import { ProductSyncCommand, ProductSyncOutcome } from './product-sync.input';

/** What `syncProducts` needs: storage, time, and a way to download and keep image bytes. */
export interface SyncProductsDeps {
  uow: UnitOfWork<ProductSyncRepositories>;
  clock: Clock;
  images: { fetcher: ImageFetcher; blobs: BlobStore };
}

/**
 * Creates, updates or deletes products and their variants, matched by item number and SKU
 * (`POST /products/sync`). Images are downloaded first, outside the transaction; then, in one
 * transaction, the whole request is read in a few batched queries and checked, and only if every
 * item is valid is anything written (one `saveAll` for all products, one ledger append for all
 * stock changes). Each product saved is announced right after the `saveAll`, in request order
 * (`product.created`, or `product.updated` when its row, suppliers, translations or variants
 * changed, with the whole product as saved; `product.deleted` for a stored product an item
 * deletes, as stored before); an item that changes nothing, or only stock or images, announces no
 * product event. A failed check throws `validation_failed` naming every problem by its JSON
 * pointer (`/products/2/variants/0/prices/EUR/sales_price`).
 *
 * @example
 * const [outcome] = await syncProducts({ uow, clock, images: { fetcher, blobs } }, {
 *   brandId: 1,
 *   products: [{ itemNumber: 'TEE-1', name: 'Tee', variants: [{ sku: 'TEE-1-M', attributes: { size: 'M' }, prices: { EUR: { salesPrice: 12.5 } } }] }],
 * });
 * // outcome: { itemNumber: 'TEE-1', id: 7, action: 'created', variants: [{ sku: 'TEE-1-M', id: 31, action: 'created' }] }
 */
export async function syncProducts(deps: SyncProductsDeps, input: ProductSyncCommand): Promise<ProductSyncOutcome[]> {
  const { brandId, products: items } = input;
  const fetched = await fetchSyncImages(deps, brandId, items);
  return deps.uow.run((tx) =>
    applyProductSyncItems(tx, deps.clock, {
      brandId,
      userId: input.userId ?? null,
      items,
      fetched,
      violations: new ProductSyncViolations(),
    }),
  );
}
