import { DomainError } from '../shared/errors';
import { VariantDetail, readVariantDetail, variantDetailIncludes } from './variant-detail';
import { applyProductSyncItems } from './product-sync-apply';
import { fetchSyncImages } from './product-sync-images';
import { ProductSyncViolations, storedVariant } from './product-sync-rules';
import { NewVariantInput, ProductWriteDeps, changedConcurrently, syncVariantOf } from './product-writes';

/**
 * `POST /v10/products/{id}/variants`: adds one variant to a product, by the rules of the product
 * sync (a one-item sync naming the product and the new variant): attributes with the product's
 * attribute names, a SKU that is free (a SKU of another product, or already of this one, is a
 * `validation_failed` naming `/sku`), references that exist. Images are downloaded before the
 * transaction, as the sync does. Its `inventory` is its opening stock, booked by the sync's rules
 * in the same transaction (none for a `no_inventory` product). A product of another brand is
 * `not_found`, like a missing one. Announces `product.updated` (a variant belongs to its product's
 * event object), and `inventory.changed` for each balance the opening stock moves. Problems are
 * named as the body names its fields (`/prices/EUR/sales_price`, `/inventory/0/quantity`); any
 * problem writes nothing. Answers with the variant as `GET /v10/variants/{id}` shows it with
 * `includes`, read in the same transaction.
 *
 * @example
 * const { variant } = await addVariant(deps, {
 *   brandId: 1,
 *   productId: 7,
 *   variant: { sku: 'TEE-1-L', attributes: { size: 'L' }, inventory: [{ quantity: 4 }] },
 * });
 */
export async function addVariant(
  deps: ProductWriteDeps,
  input: {
    brandId: number;
    userId?: number | null;
    productId: number;
    variant: NewVariantInput & { sku: string };
    includes?: unknown;
  },
): Promise<VariantDetail> {
  const { brandId, productId } = input;
  const includes = variantDetailIncludes(input.includes);
  // Read first, so that a request for a product the brand does not have downloads nothing.
  const [product] = await deps.uow.read((repos) => repos.products.findByIds(brandId, [productId]));
  if (!product || product.product.brandId !== brandId) throw DomainError.notFound('product', productId);
  const variant = syncVariantOf(input.variant);
  const item = { itemNumber: product.product.itemNumber, variants: [variant] };
  const fetched = await fetchSyncImages(deps, brandId, [item]);
  return deps.uow.run(async (tx) => {
    const violations = ProductSyncViolations.forOneVariant();
    const [outcome] = await applyProductSyncItems(tx, deps.clock, {
      brandId,
      userId: input.userId ?? null,
      items: [item],
      fetched,
      violations,
      checkStored: (stored) => {
        const current = stored.get(item.itemNumber);
        if (current?.product.id !== productId) throw changedConcurrently('product', productId);
        const existing = storedVariant(current, variant.sku);
        if (existing)
          violations.add('/products/0/variants/0/sku', `is taken by variant ${existing.variant.id} of this product`);
      },
    });
    return readVariantDetail(tx, brandId, outcome!.variants[0]!.id!, includes);
  });
}
