import { ProductDetail, productDetailIncludes, readProductDetail } from './product-detail';
import { applyProductSyncItems } from './product-sync-apply';
import { fetchSyncImages } from './product-sync-images';
import { ProductSyncViolations } from './product-sync-rules';
import { NewProductInput, ProductWriteDeps, syncItemOf, syncVariantOf } from './product-writes';

/**
 * `POST /v10/products`: creates one product with its variants, by the rules of the product sync
 * (a one-item sync that must create): a name and at least one variant with attributes, SKUs no
 * other product has, references that exist, the same attribute names on every variant. The item
 * number must be free: a taken one is a `validation_failed` naming `/item_number` (also when a
 * concurrent create took it first, since the unit of work runs the transaction again after the
 * unique key clash, and the second attempt sees it). Images are downloaded before the transaction,
 * as the sync does. A variant's `inventory` is its opening stock, booked by the sync's rules (one
 * of quantity and adjustment, a location that exists, none for a `no_inventory` product) in the same
 * transaction. Announces `product.created`, and `inventory.changed` for each balance the opening
 * stock moves. Problems are named as the body names its fields (`/variants/0/inventory/0/quantity`);
 * any problem writes nothing. Answers with the product as `GET /v10/products/{id}` shows it with
 * `includes`, read in the same transaction.
 *
 * @example
 * const { product } = await createProduct(deps, {
 *   brandId: 1,
 *   product: {
 *     itemNumber: 'TEE-1',
 *     name: 'Tee',
 *     variants: [{ sku: 'TEE-1-M', attributes: { size: 'M' }, inventory: [{ quantity: 10 }] }],
 *   },
 *   includes: ['variants.inventory'],
 * });
 */
export async function createProduct(
  deps: ProductWriteDeps,
  input: { brandId: number; userId?: number | null; product: NewProductInput; includes?: unknown },
): Promise<ProductDetail> {
  const { brandId } = input;
  const includes = productDetailIncludes(input.includes);
  const item = {
    ...syncItemOf(input.product, input.product.itemNumber),
    ...(input.product.variants ? { variants: input.product.variants.map(syncVariantOf) } : {}),
  };
  const fetched = await fetchSyncImages(deps, brandId, [item]);
  return deps.uow.run(async (tx) => {
    const violations = ProductSyncViolations.forOneProduct();
    const [outcome] = await applyProductSyncItems(tx, deps.clock, {
      brandId,
      userId: input.userId ?? null,
      items: [item],
      fetched,
      violations,
      checkStored: (stored) => {
        const taken = stored.get(item.itemNumber);
        if (taken) violations.add('/products/0/item_number', `is taken by product ${taken.product.id}`);
      },
    });
    return readProductDetail(tx, brandId, outcome!.id!, includes);
  });
}
